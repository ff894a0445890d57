/* ref_misc.c — affine (§4.6), where's condition (§4.5), ULP distance. */
#include "ref.h"
#include "ref_internal.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- affine */

void ref_affine(crk_dtype dt, const void *in, void *out, double mul, double add)
{
    unsigned char mb[8], ab[8];
    ref_scalar_from_f64(dt, mul, mb); /* T::from_f64 on the host */
    ref_scalar_from_f64(dt, add, ab);

    if (!ref_dtype_is_float(dt)) { /* integers wrap: modular arithmetic */
        uint64_t x = refi_int_bits(dt, in), m = refi_int_bits(dt, mb), a = refi_int_bits(dt, ab);
        refi_store_int_bits(dt, x * m + a, out);
        return;
    }
    double x = ref_value_f64(dt, in), m = ref_value_f64(dt, mb), a = ref_value_f64(dt, ab);
    switch (dt) {
    case CRK_F32: { /* nvcc contracts to one fma.rn.f32 */
        float y = fmaf((float)x, (float)m, (float)a);
        memcpy(out, &y, 4);
        break;
    }
    case CRK_F64: { double y = fma(x, m, a); memcpy(out, &y, 8); break; }
    case CRK_F16: { /* rounded mul, then rounded add (operands exact in double) */
        double p = ref_f16_to_f32(ref_f64_to_f16(x * m));
        uint16_t y = ref_f64_to_f16(p + a);
        memcpy(out, &y, 2);
        break;
    }
    case CRK_BF16: {
        double p = ref_bf16_to_f32(ref_f64_to_bf16(x * m));
        uint16_t y = ref_f64_to_bf16(p + a);
        memcpy(out, &y, 2);
        break;
    }
    case CRK_F8E4M3: { /* fused f32 x*mul+add, then SATFINITE encode */
        uint8_t y = ref_f32_to_f8(fmaf((float)x, (float)m, (float)a));
        memcpy(out, &y, 1);
        break;
    }
    default: break;
    }
}

/* ----------------------------------------------------------------- where */

int ref_is_true(crk_dtype cond_dt, const void *c)
{
    if (ref_dtype_is_float(cond_dt))
        return ref_value_f64(cond_dt, c) != 0.0; /* NaN != 0 is true */
    return refi_int_bits(cond_dt, c) != 0;
}

/* ------------------------------------------------------------------ ULPs */

/* Sign-magnitude bits -> monotone signed key (+0 and -0 both map to 0). */
static int64_t ordered_key(uint64_t bits, unsigned width)
{
    uint64_t sign = 1ull << (width - 1);
    uint64_t mag = bits & (sign - 1);
    return (bits & sign) ? -(int64_t)mag : (int64_t)mag;
}

static int64_t sat_absdiff(int64_t a, int64_t b)
{
    /* |a - b| without signed overflow */
    uint64_t d = a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
    return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
}

int64_t ref_ulp_diff(crk_dtype dt, const void *a, const void *b)
{
    if (!ref_dtype_is_float(dt)) {
        uint64_t ua = refi_int_bits(dt, a), ub = refi_int_bits(dt, b);
        if (dt == CRK_U8 || dt == CRK_U32)
            return sat_absdiff((int64_t)ua, (int64_t)ub);
        /* signed: compare as two's complement values */
        int64_t sa, sb;
        memcpy(&sa, &ua, 8);
        memcpy(&sb, &ub, 8);
        return sat_absdiff(sa, sb);
    }
    int na = ref_is_nan(dt, a), nb = ref_is_nan(dt, b);
    if (na || nb)
        return (na && nb) ? 0 : INT64_MAX;
    uint64_t ba = 0, bb = 0;
    unsigned width = (unsigned)ref_dtype_size(dt) * 8u;
    switch (width) {
    case 8: { uint8_t x, y; memcpy(&x, a, 1); memcpy(&y, b, 1); ba = x; bb = y; break; }
    case 16: { uint16_t x, y; memcpy(&x, a, 2); memcpy(&y, b, 2); ba = x; bb = y; break; }
    case 32: { uint32_t x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); ba = x; bb = y; break; }
    default: memcpy(&ba, a, 8); memcpy(&bb, b, 8); break;
    }
    return sat_absdiff(ordered_key(ba, width), ordered_key(bb, width));
}
