/* ternary.h — where_<cond>_<dtype> (fact sheet §4.5): out = ids ? t : f.
 * info = [dims, cond strides, t strides, f strides]; upstream never passes
 * NULL, we also accept it as "all contiguous". Any non-zero id is true. */
#ifndef CRK_TERNARY_H
#define CRK_TERNARY_H
#include "elementwise.h"

namespace crk {

/* A run of unit or zero strides loads all three (wide loads); an element
 * alone, or a run read across rows (a sector an element), loads the chosen
 * one. H200: Candle's launch of a transposed where 0.89x Candle's kernel
 * with both loaded, 1.08x with one; libcrk's 618 GB/s with both. */
struct Select {
    template <class C, class T> CRK_DEV T operator()(C c, T a, T b) const { return c != 0 ? a : b; }
    template <class C, class T> CRK_DEV T at(const C *c, const T *a, const T *b) const { return *c != 0 ? *a : *b; }
};
template <> struct LoadsAt<Select> { static constexpr bool value = true; };

template <class C, class T>
CRK_DEV void where_select(size_t numel, size_t nd, const size_t *info, const C *ids, const T *t,
                          const T *f, T *out) {
    constexpr int N = VecWidth<C, T>::value;
    if (!all_contiguous<3>(nd, info)) {
        map_strided<N>(numel, nd, info, out, Select{}, ids, t, f);
        return;
    }
    zip_contiguous<N>(numel, out, Select{}, ids, t, f);
}

} // namespace crk

#endif
