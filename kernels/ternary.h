/* ternary.h — where_<cond>_<dtype> (fact sheet §4.5): out = ids ? t : f.
 * info = [dims, cond strides, t strides, f strides]; upstream never passes
 * NULL, we also accept it as "all contiguous". Any non-zero id is true. */
#ifndef CRK_TERNARY_H
#define CRK_TERNARY_H
#include "elementwise.h"

namespace crk {

template <class C, class T>
CRK_DEV void where_select(size_t numel, size_t nd, const size_t *info, const C *ids, const T *t,
                          const T *f, T *out) {
    const bool contiguous = info == nullptr ||
        (is_contiguous(nd, info, info + nd) && is_contiguous(nd, info, info + 2 * nd) &&
         is_contiguous(nd, info, info + 3 * nd));
    constexpr int N = VecWidth<C, T>::value;
    if (!contiguous) {
        map_strided<N, 3>(numel, nd, info, out,
                          [&](size_t, Offsets<3> o) { return ids[o.o[0]] != 0 ? t[o.o[1]] : f[o.o[2]]; });
        return;
    }
    const size_t gid = global_id(), gs = global_stride();
    size_t head = 0;
    if (aligned_for<C, N>(ids) && aligned_for<T, N>(t) && aligned_for<T, N>(f) && aligned_for<T, N>(out)) {
        const size_t nvec = numel / N;
        for (size_t v = gid; v < nvec; v += gs) {
            const Pack<C, N> c = load_pack<C, N>(ids + v * N);
            const Pack<T, N> a = load_pack<T, N>(t + v * N), b = load_pack<T, N>(f + v * N);
            Pack<T, N> r;
#pragma unroll
            for (int k = 0; k < N; ++k) r.v[k] = c.v[k] != 0 ? a.v[k] : b.v[k];
            store_pack<T, N>(out + v * N, r);
        }
        head = nvec * N;
    }
    for (size_t i = head + gid; i < numel; i += gs) out[i] = ids[i] != 0 ? t[i] : f[i];
}

} // namespace crk

#define CRK_WHERE(NAME, C, T)                                                                 \
    CRK_KERNEL NAME(const size_t numel, const size_t num_dims, const size_t *info, const C *ids, \
                    const T *t, const T *f, T *out) {                                         \
        crk::where_select<C, T>(numel, num_dims, info, ids, t, f, out);                       \
    }
#endif
