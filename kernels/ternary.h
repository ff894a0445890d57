/* ternary.h — where_<cond>_<dtype> (fact sheet §4.5): out = ids ? t : f.
 * info = [dims, cond strides, t strides, f strides]; upstream never passes
 * NULL, we also accept it as "all contiguous". Any non-zero id is true. */
#ifndef CRK_TERNARY_H
#define CRK_TERNARY_H
#include "elementwise.h"

namespace crk {

/* Select loads only the chosen value (at): the strided walks take where an
 * element at a time (row_run), as a run of three wide loads spilled gfx9
 * SGPRs. H200: Candle's launch of a transposed where 0.89x Candle's kernel
 * with both loaded, 1.08x with one; libcrk's 618 GB/s with both. */
struct Select {
    template <class C, class T> CRK_DEV T operator()(C c, T a, T b) const { return c != 0 ? a : b; }
    template <class C, class T> CRK_DEV T at(const C *c, const T *a, const T *b) const { return *c != 0 ? *a : *b; }
};
template <> struct LoadsAt<Select> { static constexpr bool value = true; };

/* Candle's grid (a thread an element) keeps a thread an element here: in
 * spaced runs ("Launch shapes", elementwise.h) where lost (H200, 2^28:
 * contiguous 1.07 -> 0.99x Candle's kernel, transposed 1.08 -> 1.01x;
 * docs/runs/2026-11-29-h200-bench-elementwise.txt). */
template <class C, class T>
CRK_DEV void where_select(size_t numel, size_t nd, const size_t *info, const C *ids, const T *t,
                          const T *f, T *out) {
    constexpr int N = VecWidth<C, T>::value;
    if (global_stride() >= numel) {
        const size_t i = global_id();
        if (i >= numel) return;
        if (all_contiguous<3, false>(nd, info)) out[i] = Select{}(ids[i], t[i], f[i]);
        else strided_element(numel, nd, info, out, Select{}, ids, t, f);
        return;
    }
    if (!all_contiguous<3>(nd, info)) {
        map_strided<N>(numel, nd, info, out, Select{}, ids, t, f);
        return;
    }
    zip_contiguous<N>(numel, out, Select{}, ids, t, f);
}

} // namespace crk

#endif
