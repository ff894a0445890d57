/* cast.h — cast_<src>_<dst> (fact sheet §4.4): out[i] = convert(inp[i or strided]). */
#ifndef CRK_CAST_H
#define CRK_CAST_H
#include "elementwise.h"

namespace crk {
template <class S, class D> struct CastOp {
    CRK_DEV D operator()(S x) const { return convert<D>(x); }
};
} // namespace crk

#define CRK_CAST(NAME, S, D)                                                                  \
    CRK_KERNEL NAME(const size_t numel, const size_t num_dims, const size_t *info, const S *inp, \
                    D *out) {                                                                 \
        crk::run_map(numel, num_dims, info, inp, out, crk::CastOp<S, D>{});                   \
    }
#endif
