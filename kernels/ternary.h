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
    constexpr int N = VecWidth<C, T>::value;
    if (!all_contiguous<3>(nd, info)) {
        map_strided<N, 3>(numel, nd, info, out,
                          [&](size_t, Offsets<3> o) { return ids[o.o[0]] != 0 ? t[o.o[1]] : f[o.o[2]]; });
        return;
    }
    zip_contiguous<N>(numel, out, [](C c, T a, T b) { return c != 0 ? a : b; }, ids, t, f);
}

} // namespace crk

#endif
