/* check.c — the benchmark's input data and its CPU reference: a kernel's
 * output is compared on sampled elements before the kernel is timed. */
#include "bench.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

uint64_t bench_rand(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}
static float u01(uint64_t r) { return (float)(r >> 40) * (1.0f / 16777216.0f); }
static float f32_of_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits_of_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf16_to_f32(uint16_t b) { return f32_of_bits((uint32_t)b << 16); }
static uint16_t f32_to_bf16_rne(float f) { /* finite inputs only */
    const uint32_t u = bits_of_f32(f);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
float bench_bf16_to_f32(uint16_t b) { return bf16_to_f32(b); }
uint16_t bench_f32_to_bf16(float f) { return f32_to_bf16_rne(f); }
static float f16_to_f32(uint16_t h) {
    const uint32_t s = (uint32_t)(h >> 15), e = (h >> 10) & 31u, m = h & 1023u;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024u), (int)e - 25);
    return s ? -v : v;
}

uint64_t bench_mix(uint64_t x) { /* splitmix64's finalizer */
    x ^= x >> 30, x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27, x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

double bench_value(crk_dtype t, const void *buf, size_t i) {
    float f;
    uint16_t h;
    switch (t) {
    case CRK_F32: return memcpy(&f, (const float *)buf + i, 4), f;
    case CRK_BF16: return memcpy(&h, (const uint16_t *)buf + i, 2), bf16_to_f32(h);
    case CRK_F16: return memcpy(&h, (const uint16_t *)buf + i, 2), f16_to_f32(h);
    default: return ((const uint8_t *)buf)[i];
    }
}

void bench_put(crk_dtype t, void *buf, size_t i, float v) {
    uint16_t h;
    if (t == CRK_BF16) h = bench_f32_to_bf16(v);
    else if (t == CRK_F16) h = bench_f32_to_f16(v);
    else return (void)memcpy((float *)buf + i, &v, 4);
    memcpy((uint16_t *)buf + i, &h, 2);
}
uint16_t bench_f32_to_f16(float f) {
    const uint32_t u = bits_of_f32(f), s = (u >> 16) & 0x8000u;
    if (!(u & 0x7FFFFFFFu)) return (uint16_t)s;
    const uint32_t e = ((u >> 23) & 255u) - 112u, m = u & 0x7FFFFFu, rest = m & 0x1FFFu; /* 112 = 127 - 15 */
    uint32_t h = (e << 10) | (m >> 13);
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(s | h);
}

/* Random non-zero values of each pool: f32 in [-8, 8] (|x| >= 1/64),
 * f32 in [1, 250) (for cast to u8), bf16/f16 normals in (-8, 8), u8
 * condition (half zero). The B pools are second operands (other seeds). */
void fill_pool(int pool, void *p, size_t n, uint64_t seed) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (!s) s = 1;
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = bench_rand(&s);
        switch (pool) {
        case P_F32:
        case P_F32B: {
            float x = u01(r) * 16.0f - 8.0f;
            ((float *)p)[i] = fabsf(x) < 0.015625f ? 0.75f : x;
            break;
        }
        case P_F32POS: ((float *)p)[i] = 1.0f + u01(r) * 249.0f; break;
        case P_BF16:
        case P_BF16B: /* exponent 2^-6 .. 2^2, random mantissa and sign */
            ((uint16_t *)p)[i] = (uint16_t)(((r >> 63) << 15) | ((121u + (r >> 8) % 9u) << 7) | (r & 127u));
            break;
        case P_F16:
            ((uint16_t *)p)[i] = (uint16_t)(((r >> 63) << 15) | ((9u + (r >> 16) % 9u) << 10) | (r & 1023u));
            break;
        default: ((uint8_t *)p)[i] = (r >> 32) & 1 ? (uint8_t)((r >> 40) % 255u + 1u) : 0; break;
        }
    }
}

static double gelu_tanh(double x) {
    return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

/* ugelu_bf16 as the kernel evaluates it (kernels/unary.h): bf16 arithmetic,
 * rounding after each operation, bf16-rounded constants. */
static float rbf(float v) { return bf16_to_f32(f32_to_bf16_rne(v)); }
static double gelu_bf16_emulated(float x) {
    const float x_sq = rbf(x * x), x_cube = rbf(x_sq * x);
    const float alpha = rbf(x + rbf(rbf(0.044715f) * x_cube));
    const float k = rbf((float)(1.12837916709551257390 * 0.70710678118654752440));
    const float t = rbf(tanhf(rbf(k * alpha)));
    return rbf(rbf(rbf(0.5f) * x) * rbf(1.0f + t));
}

/* Element `off` of input k (set 0's host copy) as a double. */
static double in_val(const bench_state *S, const op_def *op, int k, size_t off) {
    return bench_value(bench_pool_dtype[op->pool[k]], S->host[op->pool[k]], off);
}

/* Reference of an elementwise map (unary, affine, cast) at input x; sets
 * *tol (0: bit-exact). */
static double map_ref(const op_def *op, double x, double *tol) {
    const char *k = op->kernel;
    *tol = 0;
    if (!strcmp(k, "ugelu_bf16")) {
        const double r = gelu_bf16_emulated((float)x);
        /* one bf16 ulp of tanh (inside 1 + tanh) and one of the result */
        *tol = ldexp(fabs(0.5 * x), -8) + ldexp(fabs(r), -7) + 1e-30;
        return r;
    }
    if (!strcmp(k, "uexp_f32")) return *tol = 1e-5 * exp(x), exp(x);
    if (!strcmp(k, "ugelu_f32")) return *tol = 1e-5 * fabs(gelu_tanh(x)) + 1e-6, gelu_tanh(x);
    if (!strcmp(k, "usilu_f32")) return *tol = 1e-5 * fabs(x / (1.0 + exp(-x))) + 1e-6, x / (1.0 + exp(-x));
    if (op->family == F_AFFINE) return *tol = 1e-6 * fabs(x * AFFINE_MUL + AFFINE_ADD) + 1e-6, x * AFFINE_MUL + AFFINE_ADD;
    switch (op->out_dt) {
    case CRK_BF16: return bf16_to_f32(f32_to_bf16_rne((float)x));
    case CRK_U8: return (double)(uint8_t)(uint32_t)x;
    case CRK_F16: /* within half an ulp (the inputs are normal f16 values or tiny) */
        *tol = ldexp(fabs(x), -11) + ldexp(1.0, -25);
        return x;
    default: return x; /* copy, casts to f32: exact */
    }
}

/* Binary ops in the dtype's arithmetic: f32 as float (one IEEE op, exact),
 * bf16 max of two bf16 values (exact). */
static double binary_ref(const op_def *op, double a, double b) {
    const char *k = op->kernel;
    if (!strncmp(k, "badd", 4)) return (float)a + (float)b;
    if (!strncmp(k, "bmul", 4)) return (float)a * (float)b;
    if (!strncmp(k, "bmaximum", 8)) return a > b ? a : b;
    return a < b; /* lt */
}

int check_one(const bench_state *S, const bench_prep *P, size_t i, const void *got_p, const char *who) {
    const op_def *op = P->op;
    size_t off[3];
    for (int k = 0; k < 3; k++) off[k] = layout_offset(&P->in_l[k], i);
    double ref = 0, tol = 0;
    switch (op->family) {
    case F_WHERE: ref = in_val(S, op, 0, off[0]) != 0 ? in_val(S, op, 1, off[1]) : in_val(S, op, 2, off[2]); break;
    case F_BINARY: ref = binary_ref(op, in_val(S, op, 0, off[0]), in_val(S, op, 1, off[1])); break;
    case F_CONST_SET: ref = CONST_VALUE; break;
    case F_COPY2D: ref = in_val(S, op, 0, off[0]); break;
    default: ref = map_ref(op, in_val(S, op, 0, off[0]), &tol); break;
    }
    const double got = bench_value(op->out_dt, got_p, 0);
    const int ok = tol == 0 ? got == ref : (isfinite(got) && fabs(got - ref) <= tol);
    if (!ok)
        printf("%s %s (%s, %s, n=%zu) WRONG at element %zu: got %.9g, expected %.9g%s\n", who, op->kernel,
               op->dtype, bench_layout_names[P->lay], S->n, i, got, ref, tol == 0 ? " (exact)" : "");
    return !ok;
}
