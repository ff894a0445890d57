/* cast.h — cast_<src>_<dst> (fact sheet §4.4): out[i] = convert(inp[i or strided]). */
#ifndef CRK_CAST_H
#define CRK_CAST_H
#include "elementwise.h"

namespace crk {
template <class S, class D> struct CastOp {
    CRK_DEV D operator()(S x) const { return convert<D>(x); }
};
/* fp8 converts in software (ALU-bound): not a move (map_tiles) */
template <class S, class D> struct Moves<CastOp<S, D>> { static constexpr bool value = true; };
template <class S> struct Moves<CastOp<S, f8>> { static constexpr bool value = false; };
template <class D> struct Moves<CastOp<f8, D>> { static constexpr bool value = false; };
template <> struct Moves<CastOp<f8, f8>> { static constexpr bool value = false; };
template <class S, class D> CRK_DEV void cast(size_t numel, size_t nd, const size_t *info, const S *inp, D *out) {
    run_map<SoftVec2<S, D>::value>(numel, nd, info, inp, out, CastOp<S, D>{});
}
} // namespace crk
#endif
