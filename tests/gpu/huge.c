/* huge.c — tensors of >= 2^28 elements, and beyond 2^32 for unary, cast,
 * where, binary and copy2d (upstream's 32-bit indices stop there; ours must
 * not); a transposed cast of 2^26 elements through shared-memory tiles,
 * many a block; broadcast rows below 2^32 under libcrk's capped grid of
 * many runs a thread (badd_u8); the reductions' strided decode past 2^32 (fast_sum_u8)
 * and rope's pairs past 2^32 (rope_bf16); im2col_u8 and crk_im2col_rows_u8
 * of a source whose offsets pass 2^32. Skipped when the GPU lacks the
 * memory. Elements are checked in full where the reference is a table or a
 * copy; uexp_f32 and the transposed cases check a random sample of 2^24
 * elements plus the first and last 2^20. */
#include "cases.h"
#include "results.h"
#include "values.h"
#include <stdio.h>
#include <stdlib.h>
#include <fnmatch.h>
#include <string.h>


typedef struct {
    const char *kernel;
    size_t rank, dims[2];
    int transposed;
} huge_case;

static void fill_bytes(unsigned char *p, size_t n, rng_t *r) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v = rng_next(r);
        memcpy(p + i, &v, 8);
    }
    for (; i < n; i++) p[i] = (unsigned char)rng_next(r);
}

static int dev_alloc(crk_ctx *ctx, void **p, size_t bytes, const char *what) {
    if (crk_malloc(ctx, p, bytes) == CRK_OK) return 0;
    printf("skipped: %s: cannot allocate %.1f GiB on the GPU (%s)\n", what, bytes / 1073741824.0, crk_last_error());
    *p = NULL;
    return -1;
}

/* Element indices to check: all, or a sample plus both ends. */
typedef struct { size_t n, k, sample; rng_t *r; } picker;
static int next_index(picker *p, size_t *i) {
    const size_t edge = (size_t)1 << 20;
    if (!p->sample || p->n <= 3 * edge) {
        if (p->k >= p->n) return 0;
        *i = p->k++;
        return 1;
    }
    const size_t total = 2 * edge + ((size_t)1 << 24);
    if (p->k >= total) return 0;
    const size_t k = p->k++;
    *i = k < edge ? k : k < 2 * edge ? p->n - 2 * edge + k : rng_next(p->r) % p->n;
    return 1;
}

/* unary / cast on one input; returns 0 ok, 1 failed, 2 skipped */
static int map1(crk_ctx *ctx, rng_t *r, const huge_case *hc, int sample) {
    const crk_kernel_info *ki = crk_kernel_find(hc->kernel);
    const crk_dtype in_dt = (crk_dtype)ki->dtypes[0];
    const crk_dtype out_dt = (crk_dtype)(ki->family_id != CRK_FAMILY_CAST ? ki->dtypes[0] : ki->dtypes[1]);
    const size_t isz = crk_dtype_size(in_dt), osz = crk_dtype_size(out_dt);
    crk_layout l;
    crk_layout_contiguous(&l, hc->rank, hc->dims);
    if (hc->transposed) l.strides[0] = 1, l.strides[1] = hc->dims[0]; /* column-major buffer */
    const size_t n = crk_layout_numel(&l);
    void *din = NULL, *dout = NULL;
    unsigned char *in = malloc(n * isz), *out = malloc((n + GUARD) * osz);
    int rc = 2;
    if (!in || !out) { printf("skipped: %s: host memory\n", hc->kernel); goto done; }
    if (dev_alloc(ctx, &din, n * isz, hc->kernel) || dev_alloc(ctx, &dout, (n + GUARD) * osz, hc->kernel)) goto done;
    rc = 1;
    if (ki->family_id == CRK_FAMILY_CAST) {
        fill_bytes(in, n * isz, r); /* random bits: every class and rounding case */
    } else {                        /* op-range values: 2^22 of them, tiled */
        const size_t m = n < ((size_t)1 << 22) ? n : (size_t)1 << 22;
        fill_inputs(ki, in_dt, 0, in, m, r);
        for (size_t k = m; k < n; k += m) memcpy(in + k * isz, in, (n - k < m ? n - k : m) * isz);
    }
    const unsigned char poison = 0xA5;
    if (crk_memcpy_htod(ctx, din, in, n * isz) || crk_memset(ctx, dout, poison, (n + GUARD) * osz)) goto done;
    crk_status st = ki->family_id == CRK_FAMILY_CAST ? crk_cast(ctx, NULL, hc->kernel, &l, din, dout)
                                                : crk_unary(ctx, NULL, hc->kernel, &l, din, dout, 0);
    if (st == CRK_OK) st = crk_synchronize(ctx);
    if (st == CRK_OK) st = crk_memcpy_dtoh(ctx, out, dout, (n + GUARD) * osz);
    if (st != CRK_OK) { printf("FAIL %s [huge]: %s\n", hc->kernel, crk_last_error()); goto done; }
    const tolerance_t tol = tolerance_for(ki, out_dt);
    unsigned char table[256][8]; /* 1-byte inputs: every result precomputed */
    for (int v = 0; v < 256 && isz == 1; v++) {
        const unsigned char b = (unsigned char)v;
        if (ki->family_id == CRK_FAMILY_CAST) ref_cast(in_dt, out_dt, &b, table[v]);
        else ref_unary(ki->op, in_dt, &b, table[v], 0);
    }
    picker p = {n, 0, (size_t)sample, r};
    size_t i;
    unsigned char want[8];
    rc = 0;
    while (next_index(&p, &i)) {
        /* transposed 2-D view over a column-major buffer */
        const size_t src = hc->transposed ? (i % hc->dims[1]) * hc->dims[0] + i / hc->dims[1] : i;
        const unsigned char *x = in + src * isz;
        if (isz == 1) {
            if (!memcmp(out + i * osz, table[*x], osz)) continue;
            memcpy(want, table[*x], osz);
        } else if (ki->family_id == CRK_FAMILY_CAST) ref_cast(in_dt, out_dt, x, want);
        else ref_unary(ki->op, in_dt, x, want, 0);
        if (!value_ok(out_dt, out + i * osz, want, ref_value_f64(in_dt, x), tol)) {
            printf("FAIL %s [huge, %zu elements] at element %zu\n", hc->kernel, n, i);
            rc = 1;
            break;
        }
    }
    for (size_t g = 0; g < GUARD * osz && !rc; g++)
        if (out[n * osz + g] != poison) printf("FAIL %s [huge]: wrote past the end\n", hc->kernel), rc = 1;
    if (!rc) printf("ok   %s [huge: %zu elements%s, %s]\n", hc->kernel, n, hc->transposed ? ", transposed" : "",
                    sample ? "sampled" : "all checked");
done:
    crk_free(ctx, din), crk_free(ctx, dout), free(in), free(out);
    return rc;
}

/* where over n contiguous elements, every element checked. */
static int where(crk_ctx *ctx, rng_t *r, const char *kernel, size_t n) {
    const crk_kernel_info *ki = crk_kernel_find(kernel);
    const size_t csz = crk_dtype_size((crk_dtype)ki->dtypes[0]), sz = crk_dtype_size((crk_dtype)ki->dtypes[1]);
    void *d[4] = {0};
    unsigned char *h[4] = {malloc(n * csz), malloc(n * sz), malloc(n * sz), malloc((n + GUARD) * sz)};
    int rc = 2;
    if (!h[0] || !h[1] || !h[2] || !h[3]) { printf("skipped: %s: host memory\n", kernel); goto done; }
    if (dev_alloc(ctx, &d[0], n * csz, kernel) || dev_alloc(ctx, &d[1], n * sz, kernel) ||
        dev_alloc(ctx, &d[2], n * sz, kernel) || dev_alloc(ctx, &d[3], (n + GUARD) * sz, kernel))
        goto done;
    rc = 1;
    fill_inputs(ki, (crk_dtype)ki->dtypes[0], 1, h[0], n, r);
    fill_bytes(h[1], n * sz, r), fill_bytes(h[2], n * sz, r);
    crk_layout l;
    crk_layout_contiguous(&l, 1, &n);
    if (crk_memcpy_htod(ctx, d[0], h[0], n * csz) || crk_memcpy_htod(ctx, d[1], h[1], n * sz) ||
        crk_memcpy_htod(ctx, d[2], h[2], n * sz) || crk_memset(ctx, d[3], 0xA5, (n + GUARD) * sz))
        goto done;
    crk_status st = crk_where(ctx, NULL, kernel, &l, d[0], &l, d[1], &l, d[2], d[3]);
    if (st == CRK_OK) st = crk_synchronize(ctx);
    if (st == CRK_OK) st = crk_memcpy_dtoh(ctx, h[3], d[3], (n + GUARD) * sz);
    if (st != CRK_OK) { printf("FAIL %s [huge]: %s\n", kernel, crk_last_error()); goto done; }
    rc = 0;
    int truth[256]; /* 1-byte conditions: truth of every value precomputed */
    for (int v = 0; v < 256; v++) truth[v] = ref_is_true(CRK_U8, &(unsigned char){(unsigned char)v});
    for (size_t i = 0; i < n && !rc; i++) {
        const int yes = csz == 1 ? truth[h[0][i]] : ref_is_true((crk_dtype)ki->dtypes[0], h[0] + i * csz);
        if (sz == 1 && h[3][i] == (yes ? h[1][i] : h[2][i])) continue;
        const unsigned char *want = yes ? h[1] : h[2];
        if (memcmp(h[3] + i * sz, want + i * sz, sz)) printf("FAIL %s [huge] at element %zu\n", kernel, i), rc = 1;
    }
    for (size_t g = 0; g < GUARD * sz && !rc; g++)
        if (h[3][n * sz + g] != 0xA5) printf("FAIL %s [huge]: wrote past the end\n", kernel), rc = 1;
    if (!rc) printf("ok   %s [huge: %zu elements, all checked]\n", kernel, n);
done:
    for (int i = 0; i < 4; i++) crk_free(ctx, d[i]), free(h[i]);
    return rc;
}

/* badd_u8 over n elements past 2^32: contiguous, or rhs a broadcast row
 * ([r, c] + [1, c] as stride 0, so rhs offsets stay small while lhs's and
 * out's pass 2^32). Every element checked. */
static int binary_add(crk_ctx *ctx, rng_t *r, size_t rows, size_t cols, int bcast) {
    const char *kernel = "badd_u8";
    const size_t n = rows * cols, nr = bcast ? cols : n;
    void *d[3] = {0};
    unsigned char *h[3] = {malloc(n), malloc(nr), malloc(n + GUARD)};
    int rc = 2;
    if (!h[0] || !h[1] || !h[2]) { printf("skipped: %s: host memory\n", kernel); goto done; }
    if (dev_alloc(ctx, &d[0], n, kernel) || dev_alloc(ctx, &d[1], nr, kernel) || dev_alloc(ctx, &d[2], n + GUARD, kernel))
        goto done;
    rc = 1;
    fill_bytes(h[0], n, r), fill_bytes(h[1], nr, r);
    crk_layout ll, lr;
    const size_t dims[2] = {rows, cols};
    crk_layout_contiguous(&ll, 2, dims), crk_layout_contiguous(&lr, 2, dims);
    if (bcast) lr.strides[0] = 0;
    if (crk_memcpy_htod(ctx, d[0], h[0], n) || crk_memcpy_htod(ctx, d[1], h[1], nr) ||
        crk_memset(ctx, d[2], 0xA5, n + GUARD))
        goto done;
    crk_status st = crk_binary(ctx, NULL, kernel, &ll, d[0], &lr, d[1], d[2]);
    if (st == CRK_OK) st = crk_synchronize(ctx);
    if (st == CRK_OK) st = crk_memcpy_dtoh(ctx, h[2], d[2], n + GUARD);
    if (st != CRK_OK) { printf("FAIL %s [huge]: %s\n", kernel, crk_last_error()); goto done; }
    rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        if (h[2][i] != (unsigned char)(h[0][i] + h[1][bcast ? i % cols : i]))
            printf("FAIL %s [huge%s] at element %zu\n", kernel, bcast ? ", broadcast rhs" : "", i), rc = 1;
    for (size_t g = 0; g < GUARD && !rc; g++)
        if (h[2][n + g] != 0xA5) printf("FAIL %s [huge]: wrote past the end\n", kernel), rc = 1;
    if (!rc) printf("ok   %s [huge: %zu elements%s, all checked]\n", kernel, n, bcast ? ", broadcast rhs" : "");
done:
    for (int i = 0; i < 3; i++) crk_free(ctx, d[i]), free(h[i]);
    return rc;
}

/* copy2d_u8 of d1 x d2 > 2^32 elements into rows padded by 3 bytes: row
 * offsets pass 2^32 (upstream's u32 i1*dst_s wraps). Every byte checked.
 * Through crk_copy2d, or in Candle's launch (a thread an element: a grid
 * past 2^32 threads, the kernel's 64-bit index, kernels/elementwise.h
 * one_per_thread). */
static int copy2d_huge(crk_ctx *ctx, rng_t *r, size_t d1, size_t d2, int candle) {
    const char *kernel = "copy2d_u8", *how = candle ? ", Candle's launch" : "";
    const size_t dst_s = d2 + 3, ns = d1 * d2, nd = (d1 - 1) * dst_s + d2 + GUARD;
    void *d[2] = {0};
    unsigned char *h[2] = {malloc(ns), malloc(nd)};
    int rc = 2;
    if (!h[0] || !h[1]) { printf("skipped: %s: host memory\n", kernel); goto done; }
    if (dev_alloc(ctx, &d[0], ns, kernel) || dev_alloc(ctx, &d[1], nd, kernel)) goto done;
    rc = 1;
    fill_bytes(h[0], ns, r);
    if (crk_memcpy_htod(ctx, d[0], h[0], ns) || crk_memset(ctx, d[1], 0xA5, nd)) goto done;
    crk_status st;
    if (candle) { /* Candle's copy2d(src, dst, d1, d2, src_s, dst_s) in for_num_elems(d1 * d2) */
        const uint32_t u[4] = {(uint32_t)d1, (uint32_t)d2, (uint32_t)d2, (uint32_t)dst_s};
        void *args[6] = {&d[0], &d[1], (void *)&u[0], (void *)&u[1], (void *)&u[2], (void *)&u[3]};
        const size_t sizes[6] = {8, 8, 4, 4, 4, 4};
        const unsigned grid[3] = {(unsigned)((ns + 1023) / 1024), 1, 1}, block[3] = {1024, 1, 1};
        st = crk_launch(ctx, NULL, kernel, grid, block, 0, args, sizes, 6);
    } else {
        st = crk_copy2d(ctx, NULL, kernel, d[0], d[1], d1, d2, d2, dst_s, 0, 0);
    }
    if (st == CRK_OK) st = crk_synchronize(ctx);
    if (st == CRK_OK) st = crk_memcpy_dtoh(ctx, h[1], d[1], nd);
    if (st != CRK_OK) { printf("FAIL %s [huge%s]: %s\n", kernel, how, crk_last_error()); goto done; }
    rc = 0;
    for (size_t row = 0; row < d1 && !rc; row++) {
        if (memcmp(h[1] + row * dst_s, h[0] + row * d2, d2)) printf("FAIL %s [huge%s] row %zu\n", kernel, how, row), rc = 1;
        for (size_t g = row * dst_s + d2; g < (row + 1) * dst_s && row + 1 < d1 && !rc; g++)
            if (h[1][g] != 0xA5) printf("FAIL %s [huge%s]: wrote into the gap after row %zu\n", kernel, how, row), rc = 1;
    }
    for (size_t g = nd - GUARD; g < nd && !rc; g++)
        if (h[1][g] != 0xA5) printf("FAIL %s [huge%s]: wrote past the end\n", kernel, how), rc = 1;
    if (!rc) printf("ok   %s [huge: %zu x %zu, padded rows, all checked%s]\n", kernel, d1, d2, how);
done:
    for (int i = 0; i < 2; i++) crk_free(ctx, d[i]), free(h[i]);
    return rc;
}

/* im2col_u8 k3 p1 of a (2, 3, 5, 7) source whose batch stride is 2^32 + 11
 * (the second batch's offsets pass 2^32): libcrk's crk_im2col_rows_u8
 * (its 64-bit fallback, the flat order) through crk_im2col, or Candle's
 * im2col_u8 in for_num_elems(dst_el). Every output and a guard checked;
 * the 4 GiB between the batches is never written here, nor may be read. */
static int im2col_huge(crk_ctx *ctx, rng_t *r, int candle) {
    const char *kernel = candle ? "im2col_u8" : "crk_im2col_rows_u8", *how = candle ? ", Candle's launch" : "";
    enum { B = 2, C = 3, H = 5, W = 7, K = 3, N = B * H * W * C * K * K, PER = C * H * W };
    const size_t sb = ((size_t)1 << 32) + 11, span = sb + PER;
    unsigned char host[B * PER], want[N], got[N + GUARD];
    void *d[2] = {0};
    int rc = 2;
    if (dev_alloc(ctx, &d[0], span, kernel) || dev_alloc(ctx, &d[1], N + GUARD, kernel)) goto done;
    rc = 1;
    fill_bytes(host, sizeof host, r);
    if (crk_memcpy_htod(ctx, d[0], host, PER) || crk_memcpy_htod(ctx, (char *)d[0] + sb, host + PER, PER) ||
        crk_memset(ctx, d[1], 0xA5, N + GUARD))
        goto done;
    const ref_view compact = {{B, C, H, W}, {PER, H * W, W, 1}};
    ref_im2col(CRK_U8, host, &compact, H, W, K, K, 1, 1, 1, want);
    crk_status st;
    crk_layout l;
    const size_t dims[4] = {B, C, H, W};
    crk_layout_contiguous(&l, 4, dims);
    l.strides[0] = sb;
    if (candle) { /* (dst_numel, h_out, w_out, h_k, w_k, stride, padding, dilation, info, src, dst) */
        const size_t sc[8] = {N, H, W, K, K, 1, 1, 1}, info[8] = {B, C, H, W, sb, H * W, W, 1};
        void *dinfo = NULL;
        if (dev_alloc(ctx, &dinfo, sizeof info, kernel)) goto done;
        st = crk_memcpy_htod(ctx, dinfo, info, sizeof info);
        void *args[11] = {(void *)&sc[0], (void *)&sc[1], (void *)&sc[2], (void *)&sc[3], (void *)&sc[4],
                          (void *)&sc[5], (void *)&sc[6], (void *)&sc[7], &dinfo, &d[0], &d[1]};
        const size_t sizes[11] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
        const unsigned grid[3] = {(N + 1023) / 1024, 1, 1}, block[3] = {1024, 1, 1};
        if (st == CRK_OK) st = crk_launch(ctx, NULL, kernel, grid, block, 0, args, sizes, 11);
        if (st == CRK_OK) st = crk_synchronize(ctx);
        crk_free(ctx, dinfo);
    } else {
        const crk_conv_params p = {1, 1, 1, 0};
        st = crk_im2col(ctx, NULL, "im2col_u8", &l, d[0], K, K, &p, d[1], NULL);
    }
    if (st == CRK_OK) st = crk_synchronize(ctx);
    if (st == CRK_OK) st = crk_memcpy_dtoh(ctx, got, d[1], N + GUARD);
    if (st != CRK_OK) { printf("FAIL %s [huge%s]: %s\n", kernel, how, crk_last_error()); goto done; }
    rc = 0;
    for (size_t i = 0; i < N && !rc; i++)
        if (got[i] != want[i]) printf("FAIL %s [huge%s] element %zu: %u, want %u\n", kernel, how, i, got[i], want[i]), rc = 1;
    for (size_t g = N; g < N + GUARD && !rc; g++)
        if (got[g] != 0xA5) printf("FAIL %s [huge%s]: wrote past the end\n", kernel, how), rc = 1;
    if (!rc) printf("ok   %s [huge: source offsets past 2^32, batch stride 2^32 + 11, all checked%s]\n", kernel, how);
done:
    for (int i = 0; i < 2; i++) crk_free(ctx, d[i]);
    return rc;
}

static void record(results_t *res, const char *kernel, int rc) {
    const crk_kernel_info *ki = crk_kernel_find(kernel);
    const int dt = ki->family_id != CRK_FAMILY_TERNARY ? ki->dtypes[0] : ki->dtypes[1];
    results_add(res, ki->family, crk_dtype_name((crk_dtype)dt), rc);
}

/* fast_sum_u8 over dim 1 of a transposed (65536, 65537) view: 2^32 + 65536
 * elements through the reductions' strided 64-bit decode; u8 sums wrap.
 * Every output checked against sums taken here in u8. */
static int reduce_huge(crk_ctx *ctx, rng_t *r) {
    const size_t R = 65536, C = 65537, n = R * C, sum_dim = 1, dims[2] = {R, C};
    crk_layout l;
    crk_layout_contiguous(&l, 2, dims);
    l.strides[0] = 1, l.strides[1] = R; /* element (k, c) at c·R + k */
    unsigned char *in = malloc(n), *want = calloc(R, 1), *out = malloc(R + GUARD);
    void *din = NULL, *dout = NULL;
    int rc = 2;
    if (!in || !want || !out) { printf("skipped: fast_sum_u8: host memory\n"); goto done; }
    if (dev_alloc(ctx, &din, n, "fast_sum_u8") || dev_alloc(ctx, &dout, R + GUARD, "fast_sum_u8")) goto done;
    rc = 1;
    fill_bytes(in, n, r);
    for (size_t c = 0; c < C; c++)
        for (size_t k = 0; k < R; k++) want[k] = (unsigned char)(want[k] + in[c * R + k]);
    const unsigned char poison = 0xA5;
    if (crk_memcpy_htod(ctx, din, in, n) || crk_memset(ctx, dout, poison, R + GUARD)) goto done;
    crk_status st = crk_reduce(ctx, NULL, "fast_sum_u8", &l, din, &sum_dim, 1, dout);
    if (st == CRK_OK) st = crk_synchronize(ctx);
    if (st == CRK_OK) st = crk_memcpy_dtoh(ctx, out, dout, R + GUARD);
    if (st != CRK_OK) { printf("FAIL fast_sum_u8 [huge]: %s\n", crk_last_error()); goto done; }
    rc = 0;
    for (size_t k = 0; k < R && !rc; k++)
        if (out[k] != want[k])
            printf("FAIL fast_sum_u8 [huge, %zu elements] at output %zu: got %u want %u\n", n, k, out[k], want[k]), rc = 1;
    for (size_t g = 0; g < GUARD && !rc; g++)
        if (out[R + g] != poison) printf("FAIL fast_sum_u8 [huge]: wrote past the end\n"), rc = 1;
    if (!rc) printf("ok   fast_sum_u8 [huge: %zu elements, transposed, all %zu sums checked]\n", n, R);
done:
    crk_free(ctx, din), crk_free(ctx, dout), free(in), free(want), free(out);
    return rc;
}

/* rope_bf16 over (1, 4097, 8192, 128): 2^32 + 2^20 elements, so pair
 * offsets pass 2^32 (the kernels' size_t index path). Run twice on the
 * same buffers: crk_rope (our crk_rope_vec_bf16: 16 bytes of pairs a
 * thread) and Candle's kernel in Candle's launch (for_num_elems(el/2),
 * through crk_launch: grouped 16-byte runs, rope_grouped). Every element
 * is checked for being written (poison: a NaN the finite inputs cannot
 * give); pairs are checked against ref_rope_pair on a sample of 2^24 plus
 * the first and last 2^20 pairs. */
static int rope_run(crk_ctx *ctx, rng_t *r, int candle, void *const d[3], const unsigned char *x,
                    const unsigned char *cs, unsigned char *out) {
    const char *kernel = "rope_bf16";
    const crk_kernel_info *ki = crk_kernel_find(kernel);
    const size_t h = 4097, t = 8192, d2 = 64, n = h * t * 2 * d2, sz = 2;
    const uint16_t poison = 0xFFFF;
    if (crk_memset(ctx, d[2], 0xFF, (n + GUARD) * sz)) return printf("FAIL %s [huge]: %s\n", kernel, crk_last_error()), 1;
    crk_status st;
    const void *cosv = d[1], *sinv = (const char *)d[1] + t * d2 * sz;
    if (candle) { /* Candle's rope(src, cos, sin, dst, bh, td, d, stride_b) in its launch */
        const void *ptrs[4] = {d[0], cosv, sinv, d[2]};
        const uint32_t bh = (uint32_t)h, td = (uint32_t)(t * 2 * d2), dd = (uint32_t)(2 * d2), stride_b = 0;
        void *args[8] = {(void *)&ptrs[0], (void *)&ptrs[1], (void *)&ptrs[2], (void *)&ptrs[3],
                         (void *)&bh, (void *)&td, (void *)&dd, (void *)&stride_b};
        const size_t sizes[8] = {8, 8, 8, 8, 4, 4, 4, 4};
        const unsigned grid[3] = {(unsigned)((n / 2 + 1023) / 1024), 1, 1}, block[3] = {1024, 1, 1};
        st = crk_launch(ctx, NULL, kernel, grid, block, 0, args, sizes, 8);
    } else {
        st = crk_rope(ctx, NULL, kernel, d[0], cosv, sinv, d[2], 1, h, t, 2 * d2, 0);
    }
    if (st == CRK_OK) st = crk_synchronize(ctx);
    if (st == CRK_OK) st = crk_memcpy_dtoh(ctx, out, d[2], (n + GUARD) * sz);
    if (st != CRK_OK) return printf("FAIL %s [huge%s]: %s\n", kernel, candle ? ", Candle's launch" : "", crk_last_error()), 1;
    for (size_t i = 0; i < n + GUARD; i++) {
        uint16_t v;
        memcpy(&v, out + i * sz, sz);
        if ((v == poison) != (i >= n))
            return printf("FAIL %s [huge%s] element %zu %s\n", kernel, candle ? ", Candle's launch" : "", i,
                          i < n ? "not written" : "written past the end"), 1;
    }
    const tolerance_t tol = tolerance_for(ki, CRK_BF16);
    picker p = {n / 2, 0, 1, r};
    size_t k;
    while (next_index(&p, &k)) { /* pair k: row k / d2 (its t index: row % t), column j = k % d2 */
        const size_t row = k / d2, j = k % d2, i1 = row * 2 * d2 + j, i2 = i1 + d2, c = (row % t) * d2 + j;
        unsigned char want[2][2];
        ref_rope_pair(CRK_BF16, x + i1 * sz, x + i2 * sz, cs + c * sz, cs + (t * d2 + c) * sz, want[0], want[1]);
        if (!value_ok(CRK_BF16, out + i1 * sz, want[0], 0, tol) || !value_ok(CRK_BF16, out + i2 * sz, want[1], 0, tol))
            return printf("FAIL %s [huge%s] pair %zu (elements %zu, %zu)\n", kernel, candle ? ", Candle's launch" : "",
                          k, i1, i2), 1;
    }
    printf("ok   %s [huge: %zu elements%s, all written, pairs sampled]\n", kernel, n, candle ? ", Candle's launch" : "");
    return 0;
}

static int rope_huge(crk_ctx *ctx, rng_t *r) {
    const size_t n = (size_t)4097 * 8192 * 128, ncs = 8192 * 64, sz = 2;
    void *d[3] = {0};
    unsigned char *x = malloc(n * sz), *cs = malloc(2 * ncs * sz), *out = malloc((n + GUARD) * sz);
    int rc = 2;
    if (!x || !cs || !out) { printf("skipped: rope_bf16: host memory\n"); goto done; }
    if (dev_alloc(ctx, &d[0], n * sz, "rope_bf16") || dev_alloc(ctx, &d[1], 2 * ncs * sz, "rope_bf16") ||
        dev_alloc(ctx, &d[2], (n + GUARD) * sz, "rope_bf16"))
        goto done;
    rc = 1;
    fill_bytes(x, n * sz, r);
    for (size_t i = 0; i < n; i++) x[2 * i + 1] = (unsigned char)((x[2 * i + 1] & 0x80) | 0x3E); /* finite: |x| in [2^-3, 2^-1) */
    for (size_t i = 0; i < 2 * ncs; i++) { /* cos rows, then sin rows: values in [-1, 1] */
        const double v = 2 * rng_unit(r) - 1;
        ref_cast(CRK_F64, CRK_BF16, &v, cs + i * sz);
    }
    if (crk_memcpy_htod(ctx, d[0], x, n * sz) || crk_memcpy_htod(ctx, d[1], cs, 2 * ncs * sz)) {
        printf("FAIL rope_bf16 [huge]: %s\n", crk_last_error());
        goto done;
    }
    rc = rope_run(ctx, r, 0, d, x, cs, out) | rope_run(ctx, r, 1, d, x, cs, out);
done:
    for (int i = 0; i < 3; i++) crk_free(ctx, d[i]);
    free(x), free(cs), free(out);
    return rc;
}

/* The huge cases of the kernels --filter matches (all without one). */
int run_huge(crk_ctx *ctx, rng_t *rng, results_t *res, const char *filter) {
    const size_t big = (size_t)1 << 28, beyond = ((size_t)1 << 32) + 4099;
    const huge_case cases[] = {
        {"cast_f32_bf16", 1, {big, 0}, 0},
        {"uexp_f32", 1, {big, 0}, 0},
        {"ucopy_u8", 1, {beyond, 0}, 0},
        {"ucopy_u8", 2, {65536, 65537}, 1},   /* strided offsets past 2^32 */
        {"cast_f32_bf16", 2, {8191, 8197}, 1}, /* through tiles (map_tiles), many a block, partial at both edges */
        {"cast_u8_f8e4m3", 1, {beyond, 0}, 0},
    };
#define WANTED(k) (!filter || !fnmatch(filter, (k), 0))
    int failed = 0, rc;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (!WANTED(cases[c].kernel)) continue;
        const int sample = !strcmp(cases[c].kernel, "uexp_f32") || cases[c].transposed;
        rc = map1(ctx, rng, &cases[c], sample);
        record(res, cases[c].kernel, rc);
        failed += rc == 1;
    }
    if (WANTED("where_u8_f32")) rc = where(ctx, rng, "where_u8_f32", big), record(res, "where_u8_f32", rc), failed += rc == 1;
    if (WANTED("where_u8_u8")) rc = where(ctx, rng, "where_u8_u8", beyond), record(res, "where_u8_u8", rc), failed += rc == 1;
    if (WANTED("badd_u8")) {
        rc = binary_add(ctx, rng, 4099, 1048577, 0); /* 2^32 + 5.2M elements */
        record(res, "badd_u8", rc), failed += rc == 1;
        rc = binary_add(ctx, rng, 65537, 65539, 1);
        record(res, "badd_u8", rc), failed += rc == 1;
        /* below 2^32, broadcast rhs: the row walk (map_rows) under libcrk's
         * capped grid, many runs a thread; rows of whole 16-byte runs, then
         * odd rows (misaligned runs, one-element tails) */
        rc = binary_add(ctx, rng, 16384, 16400, 1);
        record(res, "badd_u8", rc), failed += rc == 1;
        rc = binary_add(ctx, rng, 16383, 16385, 1);
        record(res, "badd_u8", rc), failed += rc == 1;
    }
    if (WANTED("fast_sum_u8")) rc = reduce_huge(ctx, rng), record(res, "fast_sum_u8", rc), failed += rc == 1;
    if (WANTED("rope_bf16")) rc = rope_huge(ctx, rng), record(res, "rope_bf16", rc), failed += rc == 1;
    if (WANTED("copy2d_u8"))
        for (int candle = 0; candle < 2; candle++)
            rc = copy2d_huge(ctx, rng, 65537, 65540, candle), record(res, "copy2d_u8", rc), failed += rc == 1;
    if (WANTED("crk_im2col_rows_u8")) rc = im2col_huge(ctx, rng, 0), record(res, "crk_im2col_rows_u8", rc), failed += rc == 1;
    if (WANTED("im2col_u8")) rc = im2col_huge(ctx, rng, 1), record(res, "im2col_u8", rc), failed += rc == 1;
#undef WANTED
    return failed;
}
