/* scalar.h — host-side conversion of launch scalars. */
#ifndef CRK_SCALAR_H
#define CRK_SCALAR_H
#include "crk.h"
/* Writes T::from_f64(v) for dtype dt to out (up to 8 bytes); returns its size. */
size_t crk_scalar_from_f64(crk_dtype dt, double v, void *out);
#endif
