/* bench.c — bandwidth of crk's element-wise kernels on the GPU present, next
 * to PyTorch on the same GPU in the same run (bench/README.md).
 *
 *   bench [--sizes 24,28] [--ops exp,gelu,...] [--out DIR] [--device N]
 *         [--source embedded|dir|bundle --path P] [--no-torch] [--no-plot]
 *
 * Timing: after warm-up (3 launches + synchronize), N back-to-back launches
 * then crk_synchronize, timed with the host's monotonic clock; N is chosen
 * so that one sample takes >= 20 ms; 15 samples; the median per launch is
 * reported. Launches are asynchronous, so this measures the GPU's rate.
 * Every row is checked on sampled elements against a CPU computation first:
 * a wrong kernel is never timed, and the exit status is 1. */
#include "bench.h"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *const bench_layout_names[LAY_COUNT] = {"contiguous", "strided", "broadcast"};

#define SAMPLES 15
#define MIN_SAMPLE_S 0.020
#define MAX_LAUNCHES 200000L
#define CHECK_POINTS 64
#define ROTATE_BYTES (256u << 20) /* rotate sets until this many input bytes (L2 is 50 MB) */
#define MAX_SETS 8
#define AFFINE_MUL 1.5
#define AFFINE_ADD -0.25

/* ------------------------------------------------------------ the ops */
enum { P_F32, P_F32POS, P_BF16, P_F16, P_U8, P_COUNT }; /* input pools */
enum { F_UNARY, F_AFFINE, F_CAST, F_WHERE };

typedef struct {
    const char *op, *kernel, *dtype;
    int family, pool;    /* where: pool of the condition; t = P_F32, f = P_F32POS */
    crk_dtype in_dt, out_dt;
} op_def;

static const op_def OPS[] = {
    {"copy", "ucopy_f32", "f32", F_UNARY, P_F32, CRK_F32, CRK_F32},
    {"exp", "uexp_f32", "f32", F_UNARY, P_F32, CRK_F32, CRK_F32},
    {"gelu", "ugelu_f32", "f32", F_UNARY, P_F32, CRK_F32, CRK_F32},
    {"silu", "usilu_f32", "f32", F_UNARY, P_F32, CRK_F32, CRK_F32},
    {"gelu_bf16", "ugelu_bf16", "bf16", F_UNARY, P_BF16, CRK_BF16, CRK_BF16},
    {"cast_f32_bf16", "cast_f32_bf16", "f32->bf16", F_CAST, P_F32, CRK_F32, CRK_BF16},
    {"cast_bf16_f32", "cast_bf16_f32", "bf16->f32", F_CAST, P_BF16, CRK_BF16, CRK_F32},
    {"cast_f32_f16", "cast_f32_f16", "f32->f16", F_CAST, P_F32, CRK_F32, CRK_F16},
    {"cast_f16_f32", "cast_f16_f32", "f16->f32", F_CAST, P_F16, CRK_F16, CRK_F32},
    {"cast_f32_u8", "cast_f32_u8", "f32->u8", F_CAST, P_F32POS, CRK_F32, CRK_U8},
    {"affine", "affine_f32", "f32", F_AFFINE, P_F32, CRK_F32, CRK_F32},
    {"where", "where_u8_f32", "u8?f32:f32", F_WHERE, P_U8, CRK_F32, CRK_F32},
};
#define N_OPS (sizeof OPS / sizeof OPS[0])

static const crk_dtype POOL_DT[P_COUNT] = {CRK_F32, CRK_F32, CRK_BF16, CRK_F16, CRK_U8};

/* ------------------------------------------------------------ data */
static uint64_t xorshift64s(uint64_t *s) {
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
static float f16_to_f32(uint16_t h) {
    const uint32_t s = (uint32_t)(h >> 15), e = (h >> 10) & 31u, m = h & 1023u;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024u), (int)e - 25);
    return s ? -v : v;
}

/* Random non-zero values of each pool: f32 in [-8, 8] (|x| >= 1/64),
 * f32 in [1, 250) (for cast to u8), bf16/f16 normals in (-8, 8), u8
 * condition (half zero). */
static void fill(int pool, void *p, size_t n, uint64_t seed) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (!s) s = 1;
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = xorshift64s(&s);
        switch (pool) {
        case P_F32: {
            float x = u01(r) * 16.0f - 8.0f;
            ((float *)p)[i] = fabsf(x) < 0.015625f ? 0.75f : x;
            break;
        }
        case P_F32POS: ((float *)p)[i] = 1.0f + u01(r) * 249.0f; break;
        case P_BF16: /* exponent 2^-6 .. 2^2, random mantissa and sign */
            ((uint16_t *)p)[i] = (uint16_t)(((r >> 63) << 15) | ((121u + (r >> 8) % 9u) << 7) | (r & 127u));
            break;
        case P_F16:
            ((uint16_t *)p)[i] = (uint16_t)(((r >> 63) << 15) | ((9u + (r >> 16) % 9u) << 10) | (r & 1023u));
            break;
        default: ((uint8_t *)p)[i] = (r >> 32) & 1 ? (uint8_t)((r >> 40) % 255u + 1u) : 0; break;
        }
    }
}

/* ------------------------------------------------------------ state */
typedef struct {
    crk_ctx *ctx;
    size_t n, rows, cols;
    int sets;                      /* input/output sets rotated over */
    void *dev[P_COUNT][MAX_SETS];  /* input pools                    */
    void *host[P_COUNT];           /* host copy of set 0             */
    void *out[MAX_SETS];           /* outputs, n * 4 bytes each      */
} state;

static int fail_gpu(const char *what) {
    printf("ERROR: %s: %s\n", what, crk_last_error());
    fflush(stdout);
    return -1;
}

/* Element offset of logical index i in the input layout. */
static size_t in_offset(const state *S, int lay, size_t i) {
    switch (lay) {
    case LAY_STRIDED: return i / S->cols + (i % S->cols) * S->rows;
    case LAY_BCAST: return i % S->cols;
    default: return i;
    }
}

static void make_layout(const state *S, int lay, crk_layout *l) {
    const size_t dims[2] = {S->rows, S->cols};
    crk_layout_contiguous(l, 2, dims);
    if (lay == LAY_STRIDED) l->strides[0] = 1, l->strides[1] = S->rows; /* a (C,R) tensor transposed */
    else if (lay == LAY_BCAST) l->strides[0] = 0, l->strides[1] = 1;    /* one row re-read           */
}

static crk_status launch(const state *S, const op_def *op, int lay, int set) {
    crk_layout l;
    make_layout(S, lay, &l);
    void *in = S->dev[op->pool][set], *out = S->out[set];
    switch (op->family) {
    case F_UNARY: return crk_unary(S->ctx, NULL, op->kernel, &l, in, out, 0.0);
    case F_AFFINE: return crk_affine(S->ctx, NULL, op->kernel, &l, in, out, AFFINE_MUL, AFFINE_ADD);
    case F_CAST: return crk_cast(S->ctx, NULL, op->kernel, &l, in, out);
    default: {
        /* strided: all three transposed; broadcast: the condition only */
        crk_layout tl;
        make_layout(S, lay == LAY_BCAST ? LAY_CONTIG : lay, &tl);
        return crk_where(S->ctx, NULL, op->kernel, &l, in, &tl, S->dev[P_F32][set], &tl, S->dev[P_F32POS][set], out);
    }
    }
}

static double bytes_moved(const state *S, const op_def *op, int lay) {
    const double n = (double)S->n, in_elems = lay == LAY_BCAST ? (double)S->cols : n;
    if (op->family == F_WHERE) /* condition (u8) + on_true + on_false + out */
        return in_elems * 1.0 + n * 4.0 * 2.0 + n * 4.0;
    return in_elems * (double)crk_dtype_size(op->in_dt) + n * (double)crk_dtype_size(op->out_dt);
}

/* ------------------------------------------------------------ checking */
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

/* Checks out[i]; returns 0 if right, else prints why. */
static int check_one(const state *S, const op_def *op, int lay, size_t i, const void *got_p) {
    const size_t o = in_offset(S, lay, i);
    const void *in = S->host[op->pool];
    double ref = 0, got = 0, tol = 0;
    int exact = 0;
    switch (op->family) {
    case F_UNARY:
    case F_AFFINE: {
        if (op->in_dt == CRK_BF16) {
            const float x = bf16_to_f32(((const uint16_t *)in)[o]);
            got = bf16_to_f32(*(const uint16_t *)got_p);
            ref = gelu_bf16_emulated(x);
            /* one bf16 ulp of tanh (inside 1 + tanh) and one of the result */
            tol = ldexp(fabs(0.5 * x), -8) + ldexp(fabs(ref), -7) + 1e-30;
            break;
        }
        const float xf = ((const float *)in)[o];
        const double x = xf;
        got = *(const float *)got_p;
        if (!strcmp(op->op, "copy")) ref = xf, exact = 1;
        else if (!strcmp(op->op, "exp")) ref = exp(x), tol = 1e-5 * fabs(ref);
        else if (!strcmp(op->op, "gelu")) ref = gelu_tanh(x), tol = 1e-5 * fabs(ref) + 1e-6;
        else if (!strcmp(op->op, "silu")) ref = x / (1.0 + exp(-x)), tol = 1e-5 * fabs(ref) + 1e-6;
        else ref = x * AFFINE_MUL + AFFINE_ADD, tol = 1e-6 * fabs(ref) + 1e-6;
        break;
    }
    case F_CAST: {
        exact = 1;
        if (op->in_dt == CRK_F32) {
            const float x = ((const float *)in)[o];
            if (op->out_dt == CRK_BF16) ref = bf16_to_f32(f32_to_bf16_rne(x)), got = bf16_to_f32(*(const uint16_t *)got_p);
            else if (op->out_dt == CRK_U8) ref = (double)(uint8_t)(uint32_t)x, got = *(const uint8_t *)got_p;
            else { /* f16: within half an ulp (the inputs are normal f16 values or tiny) */
                exact = 0, ref = x, got = f16_to_f32(*(const uint16_t *)got_p);
                tol = ldexp(fabs(ref), -11) + ldexp(1.0, -25);
            }
        } else {
            const uint16_t h = ((const uint16_t *)in)[o];
            ref = op->in_dt == CRK_BF16 ? bf16_to_f32(h) : f16_to_f32(h);
            got = *(const float *)got_p;
        }
        break;
    }
    default: {
        const uint8_t c = ((const uint8_t *)S->host[P_U8])[o];
        const size_t ot = lay == LAY_BCAST ? i : o;
        ref = c ? ((const float *)S->host[P_F32])[ot] : ((const float *)S->host[P_F32POS])[ot];
        got = *(const float *)got_p, exact = 1;
        break;
    }
    }
    const int ok = exact ? got == ref : (isfinite(got) && fabs(got - ref) <= tol);
    if (!ok)
        printf("ERROR: %s (%s, %s, n=%zu) WRONG at element %zu: got %.9g, expected %.9g%s\n", op->kernel, op->dtype,
               bench_layout_names[lay], S->n, i, got, ref, exact ? " (exact)" : "");
    return !ok;
}

/* Poisons the output, runs once on set 0 and checks CHECK_POINTS elements. */
static int verify(state *S, const op_def *op, int lay, uint64_t *rng) {
    const size_t osz = crk_dtype_size(op->out_dt);
    if (crk_memset(S->ctx, S->out[0], 0xFF, S->n * osz) != CRK_OK) return fail_gpu("memset");
    if (launch(S, op, lay, 0) != CRK_OK) return fail_gpu(op->kernel);
    if (crk_synchronize(S->ctx) != CRK_OK) return fail_gpu(op->kernel);
    size_t idx[CHECK_POINTS] = {0, 1, S->n - 1, S->n / 2, S->cols - 1, S->cols, S->n - S->cols};
    for (size_t k = 7; k < CHECK_POINTS; k++) idx[k] = xorshift64s(rng) % S->n;
    int bad = 0;
    for (size_t k = 0; k < CHECK_POINTS && bad < 4; k++) {
        unsigned char got[8];
        if (crk_memcpy_dtoh(S->ctx, got, (const char *)S->out[0] + idx[k] * osz, osz) != CRK_OK) return fail_gpu("dtoh");
        bad += check_one(S, op, lay, idx[k], got);
    }
    return bad ? 1 : 0;
}

/* ------------------------------------------------------------ timing */
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Seconds for `count` launches rotating over the sets, then one synchronize. */
static int timed_batch(const state *S, const op_def *op, int lay, long count, double *secs) {
    const double t0 = now_s();
    for (long k = 0; k < count; k++)
        if (launch(S, op, lay, (int)(k % S->sets)) != CRK_OK) return fail_gpu(op->kernel);
    if (crk_synchronize(S->ctx) != CRK_OK) return fail_gpu(op->kernel);
    *secs = now_s() - t0;
    return 0;
}

static int measure(const state *S, const op_def *op, int lay, bench_row *row) {
    double t;
    if (timed_batch(S, op, lay, 3, &t)) return -1; /* warm-up */
    long count = 4;
    for (;;) { /* calibrate: one batch of >= MIN_SAMPLE_S */
        if (timed_batch(S, op, lay, count, &t)) return -1;
        if (t >= MIN_SAMPLE_S || count >= MAX_LAUNCHES) break;
        const double want = count * (1.25 * MIN_SAMPLE_S) / (t > 1e-6 ? t : 1e-6);
        count = want > (double)MAX_LAUNCHES ? MAX_LAUNCHES : (long)want + 1;
    }
    double ms[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
        if (timed_batch(S, op, lay, count, &t)) return -1;
        ms[s] = 1e3 * t / (double)count;
    }
    qsort(ms, SAMPLES, sizeof ms[0], cmp_double);
    row->ours_ms = ms[SAMPLES / 2], row->ours_min_ms = ms[0], row->ours_max_ms = ms[SAMPLES - 1];
    row->launches = count, row->samples = SAMPLES, row->rotate = S->sets;
    return 0;
}

/* ------------------------------------------------------------ per size */
static int op_selected(const op_def *op, const char *list) {
    if (!list) return 1;
    const size_t lo = strlen(op->op), lk = strlen(op->kernel);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        const size_t len = e ? (size_t)(e - p) : strlen(p);
        if ((len == lo && !strncmp(p, op->op, lo)) || (len == lk && !strncmp(p, op->kernel, lk))) return 1;
        p += len + (e ? 1 : 0);
    }
    return 0;
}

static void free_state(state *S) {
    for (int p = 0; p < P_COUNT; p++) {
        for (int s = 0; s < MAX_SETS; s++)
            if (S->dev[p][s]) crk_free(S->ctx, S->dev[p][s]), S->dev[p][s] = NULL;
        free(S->host[p]), S->host[p] = NULL;
    }
    for (int s = 0; s < MAX_SETS; s++)
        if (S->out[s]) crk_free(S->ctx, S->out[s]), S->out[s] = NULL;
}

static int run_size(state *S, int log2n, const char *ops, bench_report *R, uint64_t *rng) {
    S->n = (size_t)1 << log2n;
    S->rows = (size_t)1 << (log2n / 2), S->cols = S->n / S->rows;
    const size_t in_bytes = S->n * 4;
    S->sets = (int)((ROTATE_BYTES + in_bytes - 1) / in_bytes);
    if (S->sets < 1) S->sets = 1;
    if (S->sets > MAX_SETS) S->sets = MAX_SETS;
    int need[P_COUNT] = {0};
    need[P_F32] = 1; /* copy always runs: it is the reference */
    for (size_t k = 0; k < N_OPS; k++)
        if (!strcmp(OPS[k].op, "copy") || op_selected(&OPS[k], ops)) {
            need[OPS[k].pool] = 1;
            if (OPS[k].family == F_WHERE) need[P_F32] = need[P_F32POS] = 1;
        }
    printf("n = 2^%d = %zu (%zu x %zu), %d buffer set%s rotated\n", log2n, S->n, S->rows, S->cols, S->sets,
           S->sets > 1 ? "s" : "");
    fflush(stdout);
    for (int p = 0; p < P_COUNT; p++) {
        if (!need[p]) continue;
        const size_t bytes = S->n * crk_dtype_size(POOL_DT[p]);
        if (!(S->host[p] = malloc(bytes))) return printf("ERROR: out of host memory\n"), -1;
        for (int s = S->sets - 1; s >= 0; s--) { /* set 0 last: the host copy keeps its data */
            fill(p, S->host[p], S->n, ((uint64_t)log2n << 16) ^ ((uint64_t)p << 8) ^ (uint64_t)s);
            if (crk_malloc(S->ctx, &S->dev[p][s], bytes) != CRK_OK) return fail_gpu("crk_malloc (input)");
            if (crk_memcpy_htod(S->ctx, S->dev[p][s], S->host[p], bytes) != CRK_OK) return fail_gpu("htod");
        }
    }
    for (int s = 0; s < S->sets; s++)
        if (crk_malloc(S->ctx, &S->out[s], S->n * 4) != CRK_OK) return fail_gpu("crk_malloc (output)");

    for (size_t k = 0; k < N_OPS; k++) {
        const op_def *op = &OPS[k];
        const int is_copy = !strcmp(op->op, "copy");
        if (!is_copy && !op_selected(op, ops)) continue;
        for (int lay = 0; lay < LAY_COUNT; lay++) {
            if (is_copy && lay != LAY_CONTIG && !op_selected(op, ops)) continue;
            bench_row *row = &R->rows[R->nrows++];
            memset(row, 0, sizeof *row);
            row->op = op->op, row->kernel = op->kernel, row->dtype = op->dtype, row->layout = lay;
            row->log2n = log2n, row->n = S->n, row->rows = S->rows, row->cols = S->cols;
            row->bytes = bytes_moved(S, op, lay);
            const int v = verify(S, op, lay, rng);
            if (v) {
                row->ours_state = v < 0 ? -2 : -1;
                R->failed = 1;
                if (v > 0) printf("ERROR: not timing %s (%s): its results are WRONG\n", op->kernel, bench_layout_names[lay]);
                continue;
            }
            if (measure(S, op, lay, row)) {
                row->ours_state = -2, R->failed = 1;
                continue;
            }
            row->ours_state = 1;
            printf("  %-14s %-11s %-10s %9.4f ms  %8.1f GB/s  (%ld launches x %d)\n", op->op, op->dtype,
                   bench_layout_names[lay], row->ours_ms, row->bytes / (row->ours_ms * 1e6), row->launches, SAMPLES);
            fflush(stdout);
        }
    }
    free_state(S);
    return 0;
}

/* ------------------------------------------------------------ main */
static int mkdirs(const char *path) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

/* `rel` from the working directory, else relative to the executable's directory/.. */
static const char *find_file(const char *argv0, const char *rel, char *buf, size_t cap) {
    if (!access(rel, R_OK)) return rel;
    const char *slash = strrchr(argv0, '/');
    if (slash) {
        snprintf(buf, cap, "%.*s/../%s", (int)(slash - argv0), argv0, rel);
        if (!access(buf, R_OK)) return buf;
    }
    return NULL;
}

static int usage(void) {
    fprintf(stderr, "usage: bench [--sizes 24,28] [--ops copy,exp,gelu,silu,gelu_bf16,cast_f32_bf16,cast_bf16_f32,"
                    "cast_f32_f16,cast_f16_f32,cast_f32_u8,affine,where] [--out DIR] [--device N]\n"
                    "             [--source embedded|dir|bundle] [--path P] [--no-torch] [--no-plot]\n");
    return 2;
}

int main(int argc, char **argv) {
    const char *sizes = "24,28", *ops = NULL, *out_dir = "build/bench-results";
    int torch = 1, plot = 1;
    crk_options opt = {0, CRK_SOURCE_EMBEDDED, NULL};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) sizes = argv[++i];
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc) ops = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out_dir = argv[++i];
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) opt.device = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--path") && i + 1 < argc) opt.path = argv[++i];
        else if (!strcmp(argv[i], "--no-torch")) torch = 0;
        else if (!strcmp(argv[i], "--no-plot")) plot = 0;
        else if (!strcmp(argv[i], "--source") && i + 1 < argc) {
            const char *s = argv[++i];
            if (!strcmp(s, "dir")) opt.source = CRK_SOURCE_DIR;
            else if (!strcmp(s, "bundle")) opt.source = CRK_SOURCE_BUNDLE;
            else if (!strcmp(s, "embedded")) opt.source = CRK_SOURCE_EMBEDDED;
            else return usage();
        } else return usage();
    }
    int log2s[16], nsizes = 0;
    for (const char *p = sizes; *p && nsizes < 16;) {
        char *e;
        const long v = strtol(p, &e, 10);
        if (e == p || v < 12 || v > 34) return fprintf(stderr, "bench: sizes are log2 element counts, 12..34\n"), 2;
        log2s[nsizes++] = (int)v;
        p = *e == ',' ? e + 1 : e;
        if (*e && *e != ',') return usage();
    }
    if (ops)
        for (const char *p = ops; *p;) { /* reject unknown names */
            const char *e = strchr(p, ',');
            const size_t len = e ? (size_t)(e - p) : strlen(p);
            int found = 0;
            for (size_t k = 0; k < N_OPS; k++)
                found |= (strlen(OPS[k].op) == len && !strncmp(p, OPS[k].op, len)) ||
                         (strlen(OPS[k].kernel) == len && !strncmp(p, OPS[k].kernel, len));
            if (!found) return fprintf(stderr, "bench: unknown op '%.*s'\n", (int)len, p), usage();
            p += len + (e ? 1 : 0);
        }

    crk_ctx *ctx = NULL;
    const crk_status st = crk_open(&ctx, &opt);
    if (st != CRK_OK) {
        if (st == CRK_E_NO_DEVICE) return printf("skipped: no GPU (%s)\n", crk_last_error()), 0;
        return printf("ERROR: crk_open: %s: %s\n", crk_status_name(st), crk_last_error()), 1;
    }
    bench_report R;
    memset(&R, 0, sizeof R);
    snprintf(R.device, sizeof R.device, "%s (%s, code object %s)", crk_device_name(ctx), crk_device_target(ctx),
             crk_code_object_target(ctx));
    printf("device: %s\n", R.device);
    R.rows = calloc((size_t)nsizes * N_OPS * LAY_COUNT, sizeof *R.rows);
    if (!R.rows) return printf("ERROR: out of memory\n"), 1;

    state S;
    memset(&S, 0, sizeof S);
    S.ctx = ctx;
    uint64_t rng = 0x853C49E6748FEA9BULL;
    for (int k = 0; k < nsizes; k++)
        if (run_size(&S, log2s[k], ops, &R, &rng)) {
            free_state(&S);
            R.failed = 1;
            break;
        }

    char buf[1024], path[1200];
    if (torch) {
        const char *python = getenv("PYTHON") ? getenv("PYTHON") : "python3";
        const char *script = find_file(argv[0], "bench/torch_peer.py", buf, sizeof buf);
        if (!script) snprintf(R.torch_info, sizeof R.torch_info, "unavailable (bench/torch_peer.py not found)");
        else peer_run(&R, python, script, sizes, ops);
    } else snprintf(R.torch_info, sizeof R.torch_info, "unavailable (--no-torch)");
    printf("torch: %s\n", R.torch_info);

    report_derive(&R);
    if (mkdirs(out_dir)) printf("ERROR: cannot create %s: %s\n", out_dir, strerror(errno)), R.failed = 1;
    snprintf(path, sizeof path, "%s/results.json", out_dir);
    if (report_write_json(&R, path)) R.failed = 1;
    char json_path[1200];
    snprintf(json_path, sizeof json_path, "%s", path);
    snprintf(path, sizeof path, "%s/results.csv", out_dir);
    if (report_write_csv(&R, path)) R.failed = 1;
    printf("wrote %s, %s\n", json_path, path);
    if (plot) {
        const char *python = getenv("PYTHON") ? getenv("PYTHON") : "python3";
        const char *script = find_file(argv[0], "scripts/bench_plot.py", buf, sizeof buf);
        if (!script) printf("plot: scripts/bench_plot.py not found (CSV only)\n");
        else {
            char cmd[4096];
            snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s/bench.png'", python, script, json_path, out_dir);
            fflush(stdout);
            if (system(cmd) != 0) printf("plot: failed (CSV only)\n");
        }
    }
    report_print_table(&R);
    crk_close(ctx);
    free(R.rows);
    return R.failed ? 1 : 0;
}
