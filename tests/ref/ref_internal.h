/* ref_internal.h — helpers shared by the ref_*.c files (not part of the API). */
#ifndef CRK_TESTS_REF_INTERNAL_H
#define CRK_TESTS_REF_INTERNAL_H

#include <stdint.h>
#include "ref.h"

/* RNE magnitude bits of finite a >= 0 in a binary format (ebits, mbits),
 * subnormals included, exponent unbounded (caller clamps). */
uint64_t refi_round_mag(double a, int ebits, int mbits);
/* Integer element sign-/zero-extended to 64 bits. */
uint64_t refi_int_bits(crk_dtype dt, const void *p);
/* Modular store of the low bits into an integer dtype. */
void refi_store_int_bits(crk_dtype dt, uint64_t v, void *p);
/* Store a value into a float dtype: f16/bf16 single RNE from double,
 * f32 (float), f64 as is, f8 through f32. */
void refi_store_float(crk_dtype dt, double v, void *p);

#endif
