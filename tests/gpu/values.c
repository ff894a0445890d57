/* values.c — inputs and tolerances. Tolerances, and why:
 *  - exact: data movement (copy, where, cast, copy2d, fill, const_set),
 *    integer ops, comparisons, binary + - * / (one IEEE rounding, in f32 for
 *    16-bit and fp8 operands, which is exact: f32 has 2p+2 bits), and every op that
 *    IEEE rounds correctly on both GPUs and in C: + - * / sqrt, fma (affine),
 *    neg, abs, ceil, floor, round, relu, sign. 16-bit and fp8 ops compute in
 *    f32 and round once, which f32 does exactly for a single operation.
 *  - f32/f64 transcendental (exp log sin cos tanh erf normcdf powf) and the
 *    formulas built on them (gelu gelu_erf elu silu sigmoid): libdevice/ocml
 *    are within 1-5 ULP of glibc (normcdff is documented at 5 ULP, expf/sinf/
 *    tanhf at 2); composites add a rounding or two, and nvcc/clang contract
 *    a*b+c into FMA where the reference does not: 8 ULP, or an absolute
 *    8 eps(1+|x|) where a result near zero comes from cancellation (gelu of a
 *    large negative x is 0.5x(1+tanh) with tanh ~ -1).
 *  - 16-bit and fp8 transcendental: the f32 value rounds to the same 16-bit
 *    value unless the two f32 libms straddle a rounding boundary: 1 ULP per
 *    libm call feeding the result, 2 ULP, or 4 eps(1+|x|) for cancellation. */
#include "values.h"
#include <math.h>
#include <string.h>

uint64_t rng_next(rng_t *r) {
    uint64_t x = r->s;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return r->s = x;
}
double rng_unit(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

static const double specials[] = {
    NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 255.5, 256.0, 300.7, 255.9,
    500.0, 65520.0, 1e10, -5.0, 448.0, 449.0, 464.0, 1e-9, 0x1p-9, 0x1p-10, 3e-39, 1e-310, 4294967295.0,
    4294967296.0, 9.3e18, -9.3e18, 2147483648.0, 32768.0, -32769.0, 65504.0, 3.4e38, 1e300, 0.044715, 20.0,
    -20.0, 88.7, -104.0, 1.0, -1.0};

void fill_inputs(const crk_kernel_info *ki, crk_dtype dt, int cond, void *buf, size_t n, rng_t *r) {
    const size_t sz = crk_dtype_size(dt);
    const int transcendental = ki->family_id == CRK_FAMILY_UNARY;
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)buf + i * sz;
        const uint64_t bits = rng_next(r);
        if (cond) { /* where: half zeros, the rest any non-zero pattern */
            uint64_t v = (bits & 1) ? 0 : (bits >> 1) | 1;
            memcpy(p, &v, sz);
            continue;
        }
        const unsigned pick = (unsigned)(bits % 8);
        if (!ref_dtype_is_float(dt) || pick == 0 || dt == CRK_F8E4M3) { /* raw bits: every class */
            uint64_t v = rng_next(r);
            memcpy(p, &v, sz);
            if (ref_dtype_is_float(dt) || pick) continue;
        }
        double v;
        if (pick == 1) v = specials[rng_next(r) % (sizeof specials / sizeof specials[0])];
        else if (pick == 2) v = floor(rng_unit(r) * 600.0 - 100.0) + (rng_next(r) & 1 ? 0.5 : 0.0); /* ties */
        else {
            /* log-uniform magnitude: transcendental ops in [1e-3, 30], others wide */
            const double lo = transcendental ? -3 : -8, hi = transcendental ? 1.5 : 12;
            v = pow(10.0, lo + (hi - lo) * rng_unit(r)) * ((rng_next(r) & 1) ? -1 : 1);
        }
        if (ref_dtype_is_float(dt)) ref_cast(CRK_F64, dt, &v, p);   /* round into dt */
        else ref_scalar_from_f64(dt, v, p);                 /* saturate into the int range */
    }
}

tolerance_t tolerance_for(const crk_kernel_info *ki, crk_dtype out_dt) {
    static const char *const exact_ops[] = {"copy", "neg", "recip", "ceil", "floor", "round", "abs",
                                            "sqr", "sqrt", "relu", "sign"};
    tolerance_t t = {1, 0, 0, 0};
    /* maximum/minimum of +0 and -0: either zero (fmaxf/__hmax_nan leave it open) */
    if (ki->family_id == CRK_FAMILY_BINARY && ref_dtype_is_float(out_dt) &&
        (!strcmp(ki->op, "maximum") || !strcmp(ki->op, "minimum")))
        t.zero_sign = 1;
    /* max_pool2d: maxg of +0 and -0 may give either zero (fmaxf and
     * __hmax_nan leave it open; the H100 gives +0 where C's fmax gives -0,
     * Candle's own max_pool2d_* too), and libcrk's crk_max_pool2d_rows_*
     * (nvcc's order of a commutative max differs between the two) */
    if (ki->family_id == CRK_FAMILY_POOL && (!strcmp(ki->op, "max_pool2d") || !strcmp(ki->op, "crk_max_pool2d_rows")))
        t.zero_sign = 1;
    /* reductions: the reference runs Candle's order, so exact; max/min of
     * +0 and -0 may give either zero */
    if (ki->family_id == CRK_FAMILY_REDUCE) { /* fast_<op>, and libcrk's crk_fast_<op>_cols */
        const char *op = ki->op + (strncmp(ki->op, "crk_fast_", 9) ? 0 : 9);
        t.zero_sign = !strncmp(op, "max", 3) || !strncmp(op, "min", 3);
    }
    /* softmax and norms (the reference folds in the kernels' lane order, so
     * nothing grows with the row length): exp of f32/f64 within 2 ULP of
     * glibc per term (the sum inherits that relative error), 1/sum and the
     * product round once more, norms' rsqrtf is within 2 ULP: 8 ULP. 16-bit:
     * one boundary straddle in exp or in T(1/sum), 2 ULP. Norms of f64
     * compute in f32 (as upstream): 8 f32 ULPs relative (abs_eps is in
     * f64 eps, x = the expected value). */
    if (ki->family_id == CRK_FAMILY_SOFTMAX || ki->family_id == CRK_FAMILY_NORM) {
        t.exact = 0, t.zero_sign = 1;
        t.ulps = out_dt == CRK_F32 || out_dt == CRK_F64 ? 8 : 2;
        t.abs_eps = out_dt == CRK_F64 && ki->family_id == CRK_FAMILY_NORM ? 8.0 * 0x1p29 : 4;
        return t;
    }
    if (ki->family_id != CRK_FAMILY_UNARY || !ref_dtype_is_float(out_dt)) return t;
    t.zero_sign = 1;
    for (size_t i = 0; i < sizeof exact_ops / sizeof exact_ops[0]; i++)
        if (!strcmp(ki->op, exact_ops[i])) return t;
    t.exact = 0;
    if (out_dt == CRK_F32 || out_dt == CRK_F64) t.ulps = 8, t.abs_eps = 8;
    else t.ulps = 2, t.abs_eps = 4;
    return t;
}

static double eps_of(crk_dtype dt) {
    switch (dt) {
    case CRK_F64: return 0x1p-52;
    case CRK_F32: return 0x1p-23;
    case CRK_F16: return 0x1p-10;
    case CRK_BF16: return 0x1p-7;
    default: return 0x1p-3;
    }
}

int value_ok(crk_dtype dt, const void *got, const void *want, double x, tolerance_t t) {
    const int gn = ref_is_nan(dt, got), wn = ref_is_nan(dt, want);
    if (gn || wn) return gn && wn; /* NaN only where the reference says NaN */
    if (!memcmp(got, want, crk_dtype_size(dt))) return 1;
    if (t.exact) {
        return t.zero_sign && ref_value_f64(dt, got) == 0 && ref_value_f64(dt, want) == 0;
    }
    if (ref_value_f64(dt, got) == 0 && ref_value_f64(dt, want) == 0) return 1;
    if (ref_ulp_diff(dt, got, want) <= (int64_t)t.ulps) return 1;
    const double g = ref_value_f64(dt, got), w = ref_value_f64(dt, want);
    if (isinf(g) || isinf(w)) return 0;
    return fabs(g - w) <= t.abs_eps * eps_of(dt) * (1 + (isfinite(x) ? fabs(x) : 0));
}
