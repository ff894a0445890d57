/* ref_binary.c — binary (§4.2) and comparison (§4.3) references, written
 * from the fact sheet: integers wrap, integer division truncates (x/0: all
 * ones, MIN/-1: MIN, our definition of upstream's "unspecified value"),
 * maximum/minimum follow maxg/ming (§3.3), 16-bit floats round after the op,
 * fp8 computes in f32 and encodes SATFINITE. */
#include "ref.h"
#include "ref_internal.h"

#include <math.h>
#include <string.h>

const char *const ref_binary_ops[REF_BINARY_OP_COUNT] = {"add", "sub", "mul", "div", "maximum", "minimum"};
const char *const ref_cmp_ops[REF_CMP_OP_COUNT] = {"eq", "ne", "lt", "le", "gt", "ge"};

static int op_index(const char *const *ops, int n, const char *op) {
    for (int i = 0; i < n; i++)
        if (!strcmp(ops[i], op)) return i;
    return -1;
}

static int is_signed(crk_dtype dt) { return dt == CRK_I16 || dt == CRK_I32 || dt == CRK_I64; }

static uint64_t int_op(int op, crk_dtype dt, uint64_t a, uint64_t b) {
    const int s = is_signed(dt);
    const int64_t sa = (int64_t)a, sb = (int64_t)b; /* sign-extended by refi_int_bits */
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3:
        if (b == 0) return ~(uint64_t)0;
        if (s) return sb == -1 ? (uint64_t)0 - a : (uint64_t)(sa / sb);
        return a / b;
    case 4: return s ? (sa > sb ? a : b) : (a > b ? a : b);
    default: return s ? (sa < sb ? a : b) : (a < b ? a : b);
    }
}

/* CUDA's fmax/fmin (PTX max/min): a NaN operand, signalling or quiet, is
 * missing data; NaN only when both are. (C's fmax follows IEEE 754-2008
 * maxNum, where a signalling NaN gives NaN: not what Candle computes.) */
static double max_ignoring_nan(double a, double b) { return isnan(a) ? b : isnan(b) ? a : fmax(a, b); }
static double min_ignoring_nan(double a, double b) { return isnan(a) ? b : isnan(b) ? a : fmin(a, b); }

static double float_op(int op, crk_dtype dt, double a, double b) {
    if (dt == CRK_F32 || dt == CRK_F8E4M3) { /* f32 arithmetic, each op rounded */
        const float fa = (float)a, fb = (float)b;
        switch (op) {
        case 0: return fa + fb;
        case 1: return fa - fb;
        case 2: return fa * fb;
        case 3: return fa / fb;
        case 4: return (float)max_ignoring_nan(fa, fb);
        default: return (float)min_ignoring_nan(fa, fb);
        }
    }
    if (dt == CRK_F64) {
        switch (op) {
        case 0: return a + b;
        case 1: return a - b;
        case 2: return a * b;
        case 3: return a / b;
        case 4: return max_ignoring_nan(a, b);
        default: return min_ignoring_nan(a, b);
        }
    }
    /* f16/bf16: exact (or double-rounded, innocuously) in double, then one
     * rounding into the 16-bit type by the caller; max/min propagate NaN */
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
    case 4: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    default: return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
    }
}

int ref_binary_supported(const char *op) { return op_index(ref_binary_ops, REF_BINARY_OP_COUNT, op) >= 0; }

void ref_binary(const char *op, crk_dtype dt, const void *a, const void *b, void *out) {
    const int o = op_index(ref_binary_ops, REF_BINARY_OP_COUNT, op);
    if (!ref_dtype_is_float(dt)) {
        refi_store_int_bits(dt, int_op(o, dt, refi_int_bits(dt, a), refi_int_bits(dt, b)), out);
        return;
    }
    const double r = float_op(o, dt, ref_value_f64(dt, a), ref_value_f64(dt, b));
    refi_store_float(dt, r, out); /* f8: through f32 (exact here), SATFINITE */
}

void ref_cmp(const char *op, crk_dtype dt, const void *a, const void *b, void *out) {
    const int o = op_index(ref_cmp_ops, REF_CMP_OP_COUNT, op);
    int lt, eq, unordered = 0;
    if (!ref_dtype_is_float(dt)) { /* exact for i64 beyond 2^53 too */
        const uint64_t ua = refi_int_bits(dt, a), ub = refi_int_bits(dt, b);
        lt = is_signed(dt) ? (int64_t)ua < (int64_t)ub : ua < ub;
        eq = ua == ub;
    } else {
        const double x = ref_value_f64(dt, a), y = ref_value_f64(dt, b);
        unordered = isnan(x) || isnan(y);
        lt = x < y, eq = x == y;
    }
    int r;
    switch (o) {
    case 0: r = eq; break;
    case 1: r = !eq || unordered; break; /* NaN != x is true */
    case 2: r = lt; break;
    case 3: r = lt || eq; break;
    case 4: r = !lt && !eq && !unordered; break;
    default: r = !lt && !unordered; break;
    }
    *(uint8_t *)out = (uint8_t)r;
}
