/* argsort.c — the argsort rows: f32 rows sorted ascending (asort_asc_f32)
 * at fixed shapes, from a batch of short rows to one vocab-sized row
 * (bench/README.md): their cases, data, bytes, Candle's launch and the CPU
 * check. Values are a hash of the element's index, so the check recomputes
 * a row instead of keeping the input on the host. */
#include "bench.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {label, rows, cols, cols, 1, 1}: idx_case's fields as rows x cols along dim 1. */
static const idx_case SORT[] = {{"4096x1024", 4096, 1024, 1024, 1, 1, NULL},  {"1024x4096", 1024, 4096, 4096, 1, 1, NULL},
                                {"64x8192", 64, 8192, 8192, 1, 1, NULL},      {"16x32768", 16, 32768, 32768, 1, 1, NULL},
                                {"4x131072", 4, 131072, 131072, 1, 1, NULL},  {"1x262144", 1, 262144, 262144, 1, 1, NULL}};
/* Tiny (emulator): one row within Candle's launch, one beyond it. */
static const idx_case SORT_TINY[] = {{"4x1000", 4, 1000, 1000, 1, 1, NULL}, {"2x20000", 2, 20000, 20000, 1, 1, NULL}};

#define N_OF(a) (sizeof a / sizeof a[0])
#define ROWS(c) ((c)->left)
#define COLS(c) ((c)->dim_size)

const idx_case *argsort_cases(int tiny, size_t *count) {
    *count = tiny ? N_OF(SORT_TINY) : N_OF(SORT);
    return tiny ? SORT_TINY : SORT;
}

double argsort_bytes(const idx_case *c) { return 8.0 * (double)ROWS(c) * (double)COLS(c); }

void argsort_describe(const op_def *op, const idx_case *c, char *buf, size_t cap) {
    snprintf(buf, cap, "x (%zu, %zu) %s -> indices (%zu, %zu) u32, %s along dim 1", ROWS(c), COLS(c), op->dtype,
             ROWS(c), COLS(c), strstr(op->kernel, "desc") ? "descending" : "ascending");
}

/* ------------------------------------------------------------ data */
/* Element e of set s: one of 2^24 values in (-8, 8], exact in f32 (few
 * ties even in the longest row; no NaN). */
static float x_value(size_t e, int s) {
    const uint64_t h = bench_mix((uint64_t)e ^ (uint64_t)s << 56 ^ 0x5EED5047ULL);
    return (float)((double)((h >> 40) + 1) * (1.0 / 1048576.0) - 8.0);
}

static int gpu_err(const char *what) { return printf("ERROR: %s: %s\n", what, crk_last_error()), -1; }

static int upload_x(const bench_state *S, void *dev, size_t el, int s) {
    const size_t chunk = (size_t)1 << 22;
    float *h = malloc(chunk * sizeof *h);
    if (!h) return printf("ERROR: out of host memory\n"), -1;
    for (size_t at = 0; at < el; at += chunk) {
        const size_t m = el - at < chunk ? el - at : chunk;
        for (size_t k = 0; k < m; k++) h[k] = x_value(at + k, s);
        if (crk_memcpy_htod(S->ctx, (char *)dev + at * 4, h, m * 4) != CRK_OK) return free(h), gpu_err("htod (x)");
    }
    free(h);
    return 0;
}

void argsort_free(bench_state *S) {
    for (int s = 0; s < MAX_SETS; s++) {
        if (S->as_x[s]) crk_free(S->ctx, S->as_x[s]), S->as_x[s] = NULL;
        if (S->out[s]) crk_free(S->ctx, S->out[s]), S->out[s] = NULL;
    }
    if (S->as_ws) crk_free(S->ctx, S->as_ws), S->as_ws = NULL;
    S->as_ws_bytes = 0;
}

/* Candle's launch: a block of min(pad, 1024) threads per row, pad·4 bytes
 * of shared memory (pad = the next power of two >= cols); n/a beyond the
 * shared memory a block gets without opt-in (NVIDIA 48 KiB, AMD 64 KiB). */
static void candle_launch(const bench_state *S, const idx_case *c, bench_prep *P, size_t *pad) {
    size_t p = 1;
    while (p < COLS(c)) p *= 2;
    const size_t limit = strncmp(crk_device_target(S->ctx), "sm_", 3) ? 65536 : 49152;
    P->grid[0] = (unsigned)ROWS(c), P->grid[1] = P->grid[2] = 1;
    P->block[0] = (unsigned)(p < 1024 ? p : 1024), P->block[1] = P->block[2] = 1;
    P->shared = (unsigned)(p * 4);
    if (p * 4 > limit) P->shape_na = limit == 49152 ? "ncols_pad*4 > 48 KiB of shared memory" : "ncols_pad*4 > 64 KiB of LDS";
    *pad = p;
}

int argsort_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P) {
    memset(P, 0, sizeof *P);
    P->op = op, P->lay = LAY_CONTIG, P->ic = c;
    if (!(P->ki = crk_kernel_find(op->kernel))) return printf("ERROR: %s: %s\n", op->kernel, crk_last_error()), -1;
    const size_t el = ROWS(c) * COLS(c);
    const double bytes = argsort_bytes(c);
    S->sets = (int)((ROTATE_BYTES + bytes - 1) / bytes);
    if (S->sets < 1) S->sets = 1;
    if (S->sets > MAX_SETS) S->sets = MAX_SETS;
    S->n = el, S->out_bytes = el * 4;
    /* preallocated, so that crk's timing excludes the allocation */
    S->as_ws_bytes = crk_argsort_workspace_size(S->ctx, ROWS(c), COLS(c));
    if (S->as_ws_bytes == SIZE_MAX) return gpu_err("crk_argsort_workspace_size");
    if (S->as_ws_bytes && crk_malloc(S->ctx, &S->as_ws, S->as_ws_bytes) != CRK_OK) return gpu_err("crk_malloc (workspace)");
    size_t pad;
    candle_launch(S, c, P, &pad);
    const double sc[2] = {(double)COLS(c), (double)pad}; /* ncols, ncols_pad */
    for (int s = 0; s < S->sets; s++) {
        if (crk_malloc(S->ctx, &S->as_x[s], el * 4) != CRK_OK) return gpu_err("crk_malloc (x)");
        if (upload_x(S, S->as_x[s], el, s)) return -1;
        if (crk_malloc(S->ctx, &S->out[s], S->out_bytes) != CRK_OK) return gpu_err("crk_malloc (indices)");
        raw_call *rc = &P->call[s];
        rc->in[0] = S->as_x[s], rc->out = S->out[s];
        if (prep_assemble(P->ki, rc, sc, 2)) return -1;
    }
    return 0;
}

int argsort_reset(const bench_state *S, const bench_prep *P) {
    (void)P;
    return crk_memset(S->ctx, S->out[0], 0xFF, S->out_bytes) != CRK_OK ? gpu_err("memset") : 0;
}

/* Row r of set 0: its indices must be a permutation of 0..cols-1 with
 * x[idx[k]] non-decreasing. 0 right, 1 wrong, -1 GPU error. */
static int check_row(const bench_state *S, const bench_prep *P, size_t r, uint32_t *idx, unsigned char *seen,
                     const char *who) {
    const size_t cols = COLS(P->ic);
    if (crk_memcpy_dtoh(S->ctx, idx, (const uint32_t *)S->out[0] + r * cols, cols * 4) != CRK_OK) return gpu_err("dtoh");
    memset(seen, 0, cols);
    float prev = -1e30f;
    for (size_t k = 0; k < cols; k++) {
        const char *bad = NULL;
        float v = 0;
        if (idx[k] >= cols) bad = "index out of range";
        else if (seen[idx[k]]) bad = "index repeated";
        else if ((v = x_value(r * cols + idx[k], 0)) < prev) bad = "value below the previous one";
        if (bad) {
            printf("%s %s (%s, %s) WRONG in row %zu at position %zu: index %u, %s\n", who, P->op->kernel, P->op->dtype,
                   P->ic->label, r, k, idx[k], bad);
            return 1;
        }
        seen[idx[k]] = 1, prev = v;
    }
    return 0;
}

int argsort_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who) {
    const size_t rows = ROWS(P->ic), cols = COLS(P->ic);
    const size_t pick[4] = {0, rows - 1, rows / 2, bench_rand(rng) % rows};
    uint32_t *idx = malloc(cols * sizeof *idx);
    unsigned char *seen = malloc(cols);
    int bad = 0;
    if (!idx || !seen) bad = -1, printf("ERROR: out of host memory\n");
    for (int k = 0; k < 4 && !bad; k++) bad = check_row(S, P, pick[k], idx, seen, who);
    free(idx), free(seen);
    return bad;
}
