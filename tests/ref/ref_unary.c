/* ref_unary.c — unary ops u{op}_{dt}, candle-cuda-kernels.md §4.1 and §3.3.
 *
 * f64: double arithmetic and double libm.
 * f32: float arithmetic (each + - * / rounded to float) and float libm.
 * f16/bf16: every + - * / rounded to the 16-bit type (RNE); transcendental
 *   functions computed with the f32 libm function, then rounded (RNE).
 * f8e4m3: decode to f32 (exact), compute as f32, encode (RNE, SATFINITE).
 *
 * Emulation: operands are exact in double; each arithmetic op is done in
 * double (53 >= 2p+2 for p = 24, 11, 8, so rounding the double result once
 * more to the target is the correctly rounded target result) and rounded.
 * normcdff (not in C libm) is 0.5*erfc(-x/sqrt 2) in double, rounded to f32.
 */
#include "ref.h"
#include "ref_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ref_unary_ops[REF_UNARY_OP_COUNT] = {
    "copy", "neg", "recip", "exp", "log", "sin", "cos", "tanh", "erf", "ceil", "floor", "round",
    "normcdf", "abs", "sqr", "sqrt", "gelu", "gelu_erf", "relu", "elu", "silu", "powf", "sign",
    "sigmoid"};

enum {
    OP_COPY, OP_NEG, OP_RECIP, OP_EXP, OP_LOG, OP_SIN, OP_COS, OP_TANH, OP_ERF, OP_CEIL,
    OP_FLOOR, OP_ROUND, OP_NORMCDF, OP_ABS, OP_SQR, OP_SQRT, OP_GELU, OP_GELU_ERF, OP_RELU,
    OP_ELU, OP_SILU, OP_POWF, OP_SIGN, OP_SIGMOID
};

#define REF_SQRT1_2 0.70710678118654752440
#define REF_2_SQRTPI 1.12837916709551257390
#define REF_PI 3.14159265358979323846
#define GELU_C1 0.044715

static int op_id(const char *op)
{
    if (!op)
        return -1;
    for (int i = 0; i < REF_UNARY_OP_COUNT; i++)
        if (strcmp(op, ref_unary_ops[i]) == 0)
            return i;
    return -1;
}

static double normcdf_d(double x) { return 0.5 * erfc(-x * REF_SQRT1_2); }

/* sqrt(2/pi) as Candle's kernels spell it: M_2_SQRTPI * M_SQRT1_2 in double */
static double gelu_c2(void)
{
    volatile double a = REF_2_SQRTPI, b = REF_SQRT1_2; /* plain IEEE double product */
    return a * b;
}

/* ----------------------------------------- f32 / f16 / bf16 arithmetic */

enum { K_F32, K_F16, K_BF16 };

/* round a double to the kind's type, returned as an (exact) double */
static double R(int k, double v)
{
    switch (k) {
    case K_F16: return ref_f16_to_f32(ref_f64_to_f16(v));
    case K_BF16: return ref_bf16_to_f32(ref_f64_to_bf16(v));
    default: return (double)(float)v;
    }
}

/* f32 libm function, result rounded to the kind */
#define F1(fn, v) R(k, (double)fn((float)(v)))

static double op_small(int k, int op, double x, double p)
{
    switch (op) {
    case OP_COPY: return x;
    case OP_NEG: return -x;
    case OP_RECIP: return R(k, 1.0 / x);
    case OP_EXP: return F1(expf, x);
    case OP_LOG: return F1(logf, x);
    case OP_SIN: return F1(sinf, x);
    case OP_COS: return F1(cosf, x);
    case OP_TANH: return F1(tanhf, x);
    case OP_ERF: return F1(erff, x);
    case OP_CEIL: return R(k, ceil(x));
    case OP_FLOOR: return R(k, floor(x));
    case OP_ROUND: return R(k, round(x)); /* half away from zero */
    case OP_NORMCDF: return R(k, (double)(float)normcdf_d(x));
    case OP_ABS: return fabs(x);
    case OP_SQR: return R(k, x * x);
    case OP_SQRT: return F1(sqrtf, x);
    case OP_GELU: {
        double c1 = R(k, GELU_C1), c2 = R(k, gelu_c2());
        double x_sq = R(k, x * x);
        double x_cube = R(k, x_sq * x);
        double alpha = R(k, x + R(k, c1 * x_cube));
        double th = F1(tanhf, R(k, c2 * alpha));
        return R(k, R(k, 0.5 * x) * R(k, 1.0 + th));
    }
    case OP_GELU_ERF: return R(k, x * R(k, (double)(float)normcdf_d(x)));
    case OP_RELU:
        if (isnan(x))
            return (k == K_F32) ? 0.0 : x; /* fmaxf ignores NaN, __hmax_nan propagates */
        return x > 0.0 ? x : 0.0;
    case OP_ELU:
        if (x > 0.0)
            return x;
        return R(k, p * R(k, F1(expf, x) - 1.0));
    case OP_SILU: return R(k, x / R(k, 1.0 + F1(expf, -x)));
    case OP_POWF: return R(k, (double)powf((float)x, (float)p));
    case OP_SIGN: return (double)(x > 0.0) - (double)(x < 0.0);
    case OP_SIGMOID: return R(k, 1.0 / R(k, 1.0 + F1(expf, -x)));
    default: return NAN;
    }
}

/* ------------------------------------------------------------- f64 */

static double op_f64(int op, double x, double p)
{
    switch (op) {
    case OP_COPY: return x;
    case OP_NEG: return -x;
    case OP_RECIP: return 1.0 / x;
    case OP_EXP: return exp(x);
    case OP_LOG: return log(x);
    case OP_SIN: return sin(x);
    case OP_COS: return cos(x);
    case OP_TANH: return tanh(x);
    case OP_ERF: return erf(x);
    case OP_CEIL: return ceil(x);
    case OP_FLOOR: return floor(x);
    case OP_ROUND: return round(x);
    case OP_NORMCDF: return normcdf_d(x);
    case OP_ABS: return fabs(x);
    case OP_SQR: return x * x;
    case OP_SQRT: return sqrt(x);
    case OP_GELU: {
        double x_sq = x * x;
        double x_cube = x_sq * x;
        double t = GELU_C1 * x_cube;
        double alpha = x + t;
        double u = gelu_c2() * alpha;
        double h = 0.5 * x;
        double s = 1.0 + tanh(u);
        return h * s;
    }
    case OP_GELU_ERF: return x * normcdf_d(x);
    case OP_RELU: return isnan(x) ? 0.0 : (x > 0.0 ? x : 0.0);
    case OP_ELU: {
        if (x > 0.0)
            return x;
        double e = exp(x) - 1.0;
        return p * e;
    }
    case OP_SILU: return x / (1.0 + exp(-x));
    case OP_POWF: return pow(x, p);
    case OP_SIGN: return (double)(x > 0.0) - (double)(x < 0.0);
    case OP_SIGMOID: return 1.0 / (1.0 + exp(-x));
    default: return NAN;
    }
}

/* ------------------------------------------------------------- API */

int ref_unary_supported(const char *op, crk_dtype dt)
{
    int id = op_id(op);
    if (id < 0 || (unsigned)dt >= CRK_DTYPE_COUNT)
        return 0;
    return id == OP_COPY || ref_dtype_is_float(dt);
}

void ref_unary(const char *op, crk_dtype dt, const void *in, void *out, double param)
{
    int id = op_id(op);
    if (!ref_unary_supported(op, dt)) {
        fprintf(stderr, "ref_unary: unsupported op '%s' for dtype %s\n", op ? op : "(null)",
                ref_dtype_name(dt));
        abort();
    }
    size_t sz = ref_dtype_size(dt);
    if (id == OP_COPY) { /* ucopy: bit copy */
        memcpy(out, in, sz);
        return;
    }
    if (id == OP_NEG || id == OP_ABS) { /* sign-bit operations, exact for NaN too */
        switch (dt) {
        case CRK_F8E4M3: {
            uint8_t v; memcpy(&v, in, 1);
            v = (uint8_t)(id == OP_NEG ? v ^ 0x80u : v & 0x7Fu);
            memcpy(out, &v, 1);
            return;
        }
        case CRK_F16: case CRK_BF16: {
            uint16_t v; memcpy(&v, in, 2);
            v = (uint16_t)(id == OP_NEG ? v ^ 0x8000u : v & 0x7FFFu);
            memcpy(out, &v, 2);
            return;
        }
        case CRK_F32: {
            uint32_t v; memcpy(&v, in, 4);
            v = id == OP_NEG ? v ^ 0x80000000u : v & 0x7FFFFFFFu;
            memcpy(out, &v, 4);
            return;
        }
        default: {
            uint64_t v; memcpy(&v, in, 8);
            v = id == OP_NEG ? v ^ 0x8000000000000000ull : v & 0x7FFFFFFFFFFFFFFFull;
            memcpy(out, &v, 8);
            return;
        }
        }
    }

    double x = ref_value_f64(dt, in);
    unsigned char pbuf[8];
    ref_scalar_from_f64(dt, param, pbuf); /* T::from_f64 */
    double p = ref_value_f64(dt, pbuf);

    switch (dt) {
    case CRK_F64: { double y = op_f64(id, x, p); memcpy(out, &y, 8); return; }
    case CRK_F32: { float y = (float)op_small(K_F32, id, x, p); memcpy(out, &y, 4); return; }
    case CRK_F16: { uint16_t y = ref_f64_to_f16(op_small(K_F16, id, x, p)); memcpy(out, &y, 2); return; }
    case CRK_BF16: { uint16_t y = ref_f64_to_bf16(op_small(K_BF16, id, x, p)); memcpy(out, &y, 2); return; }
    case CRK_F8E4M3: { uint8_t y = ref_f32_to_f8((float)op_small(K_F32, id, x, p)); memcpy(out, &y, 1); return; }
    default: return;
    }
}

double ref_unary_exact(const char *op, double x, double p)
{
    int id = op_id(op);
    switch (id) {
    /* where the exact value differs from the f64 kernel's formula */
    case OP_GELU:
        return 0.5 * x * (1.0 + tanh(sqrt(2.0 / REF_PI) * (x + GELU_C1 * x * x * x)));
    case OP_RELU: return isnan(x) ? 0.0 : (x > 0.0 ? x : 0.0);
    case OP_ELU: return x > 0.0 ? x : p * expm1(x);
    case OP_SIGN: return (double)(x > 0.0) - (double)(x < 0.0);
    default:
        if (id < 0) {
            fprintf(stderr, "ref_unary_exact: unknown op '%s'\n", op ? op : "(null)");
            abort();
        }
        return op_f64(id, x, p);
    }
}
