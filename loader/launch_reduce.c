/* launch_reduce.c — libcrk's helpers of module reduce: crk_reduce (fast_*),
 * crk_softmax, crk_rmsnorm, crk_layernorm, crk_rope. Each checks what
 * Candle's own host code would, plus the limits of the kernels' C types
 * (int n_cols, uint32_t rope sizes), and launches with Candle's shape for
 * the family (include/crk.h, crk_geometry). */
#include "error.h"
#include "launch.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_GRID 0x7FFFFFFFu

/* Threads of Candle's reduction block: the power of two >= min(1024, e). */
static unsigned reduce_block(size_t e) {
    unsigned b = 1;
    while (b < e && b < 1024) b *= 2;
    return b;
}

/* 1 if l is contiguous and sum_dims are consecutive ascending dims
 * d0 .. d0 + m - 1: the view is (B, E, C) with B = the dims before, C =
 * the dims after. */
static int middle_run(const crk_layout *l, const size_t *sum_dims, size_t n, size_t *B, size_t *C) {
    if (!n || !crk_layout_is_contiguous(l)) return 0;
    for (size_t j = 1; j < n; j++)
        if (sum_dims[j] != sum_dims[0] + j) return 0;
    *B = *C = 1;
    for (size_t d = 0; d < sum_dims[0]; d++) *B *= l->dims[d];
    for (size_t d = sum_dims[0] + n; d < l->rank; d++) *C *= l->dims[d];
    return 1;
}

/* libcrk's crk_<op>_<dt> of ki's dtype, or NULL. */
static const crk_kernel_info *own_kernel(const crk_kernel_info *ki, const char *op) {
    char name[64];
    snprintf(name, sizeof name, "crk_%s_%s", op, crk_dtype_name((crk_dtype)crk_operand_dtype(ki, 0)));
    return crk_kernel_find(name);
}

/* libcrk's crk_fast_<op>_cols_<dt> beside fast_<op>_<dt> (the registry
 * has one for every sum/min/max). */
static const crk_kernel_info *cols_kernel(const crk_kernel_info *ki) {
    char op[32];
    snprintf(op, sizeof op, "fast_%s_cols", ki->op);
    return own_kernel(ki, op);
}

/* The column kernel over (B, E, C) (kernels/reduce.h): W adjacent columns
 * a block (a warp reads runs of rows): 32, or fewer, down to 32 bytes of a
 * row (a memory sector), until there are 512 blocks (B·C/W; sum over dim 0
 * of 8192x4096 f32 had 128 blocks of 1024 threads on the H100's 132 SMs:
 * 43% of DRAM bandwidth). Y threads a column: at most the G = P/Q lane
 * groups of Candle's P lanes (Q = 8 a thread), 64, and 1024 / W. */
static crk_status launch_cols(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ck, arg_pack *a, size_t B,
                              size_t e, size_t C) {
    const unsigned q = 8, p = reduce_block(e), g = p > q ? p / q : 1;
    const size_t size = crk_dtype_size((crk_dtype)crk_operand_dtype(ck, 0));
    unsigned w = 1;
    while (w < 32 && w < C) w *= 2;
    while (w * size > 32 && B * ((C + w - 1) / w) < 512) w /= 2;
    unsigned y = g < 1024 / w ? g : 1024 / w;
    if (y > 64) y = 64;
    const size_t jobs = B * ((C + w - 1) / w), info[6] = {B, e, C, e * C, C, 1};
    const unsigned grid[3] = {(unsigned)(jobs < MAX_GRID ? jobs : MAX_GRID), 1, 1}, block[3] = {w, y, 1};
    a->num_dims = 3;
    return crk_launch_shaped(ctx, s, ck, info, 6, a, grid, block);
}

crk_status crk_reduce(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                      const size_t *sum_dims, size_t n_sum_dims, void *dst) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_REDUCE, &st);
    if (!ki) return st;
    if (!strncmp(ki->op, "crk_", 4)) /* crk_fast_<op>_cols_<dt> */
        return crk_fail(CRK_E_INVALID, "%s is libcrk's own variant: pass fast_%.3s_%s (crk_reduce picks the kernel)",
                        name, ki->op + 9, crk_dtype_name((crk_dtype)crk_operand_dtype(ki, 0)));
    arg_pack a = {.out = dst};
    if ((st = crk_check_layout(name, "src", src_l, &a.numel)) != CRK_OK) return st;
    if ((st = crk_need_ptr(name, "src", src)) != CRK_OK || (st = crk_need_ptr(name, "dst", dst)) != CRK_OK) return st;
    /* Candle's FastReduce layout: kept dims in order, then the reduced ones */
    size_t info[2 * CRK_MAX_DIMS], k = 0, dst_el = 1;
    const size_t rank = src_l->rank;
    unsigned summed;
    if ((st = crk_sum_dims_mask(name, rank, sum_dims, n_sum_dims, &summed)) != CRK_OK) return st;
    for (size_t d = 0; d < rank; d++)
        if (!(summed >> d & 1u))
            info[k] = src_l->dims[d], info[rank + k] = src_l->strides[d], dst_el *= src_l->dims[d], k++;
    for (size_t j = 0; j < n_sum_dims; j++)
        info[k] = src_l->dims[sum_dims[j]], info[rank + k] = src_l->strides[sum_dims[j]], k++;
    if (a.numel == 0 && strcmp(ki->op, "sum"))
        return crk_fail(CRK_E_INVALID, "%s: %s of an empty tensor is undefined (Candle: EmptyTensor)", name, ki->op);
    if (dst_el == 0) return CRK_OK;
    const size_t e = a.numel / dst_el;
    if (e == 0 && dst_el > MAX_GRID) /* an empty sum: one block per output */
        return crk_fail(CRK_E_INVALID, "%s: %zu outputs of an empty sum exceed a grid", name, dst_el);
    a.num_dims = rank;
    if ((st = crk_offset_ptr(name, "src", src, src_l->start_offset, crk_operand_dtype(ki, 0), &a.in[0])) != CRK_OK)
        return st;
    const double sc[1] = {(double)e};
    if (e > (1ull << 53)) return crk_fail(CRK_E_INVALID, "%s: %zu elements per output exceed 2^53", name, e);
    if ((st = crk_pack_args(ki, &a, sc, 1, NULL)) != CRK_OK) return st;
    /* Many outputs of sum/min/max: Candle's lanes, 4 a thread (2 for 8-byte
     * values) in a block of at least 32, Candle's result (kernels/reduce.h,
     * Lanes) with more outputs in flight an SM (sum 8192x4096 f32 on the
     * H100: 1.6x). Few outputs keep every lane a thread (argmax 32x128256:
     * 0.4x with two a thread); argmin/argmax always do. */
    const int arg = !strncmp(ki->op, "arg", 3);
    const unsigned lanes = reduce_block(e),
                   per = dst_el < 1024 || arg ? 1 : crk_dtype_size((crk_dtype)crk_operand_dtype(ki, 0)) <= 4 ? 4 : 2;
    const unsigned grid[3] = {(unsigned)(dst_el < MAX_GRID ? dst_el : MAX_GRID), 1, 1},
                   block[3] = {lanes / per >= 32 ? lanes / per : lanes, 1, 1};
    size_t B, C;
    if (!arg && e > 0 && middle_run(src_l, sum_dims, n_sum_dims, &B, &C) && C > 1) {
        const crk_kernel_info *ck = cols_kernel(ki);
        if (ck) return launch_cols(ctx, s, ck, &a, B, e, C);
    }
    /* A contiguous reordered layout goes as NULL info (the kernels read it
     * as [dst_el, e]: no per-block layout check); argmin/argmax only with
     * one sum dim, whose extent is then e, the modulus of their index. */
    crk_layout reordered = {.rank = rank};
    memcpy(reordered.dims, info, rank * sizeof(size_t)), memcpy(reordered.strides, info + rank, rank * sizeof(size_t));
    if (crk_layout_is_contiguous(&reordered) && (!arg || n_sum_dims == 1))
        return crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block);
    return crk_launch_shaped(ctx, s, ki, info, 2 * rank, &a, grid, block);
}

/* The row families' checks: a kernel, pointers, n_cols an int, one block a row. */
static const crk_kernel_info *rows_kernel(crk_ctx *ctx, const char *name, crk_family fam, const void *src,
                                          const void *dst, size_t n_rows, size_t n_cols, crk_status *st) {
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, fam, st);
    if (!ki) return NULL;
    if ((*st = crk_need_ptr(name, "src", src)) != CRK_OK || (*st = crk_need_ptr(name, "dst", dst)) != CRK_OK)
        return NULL;
    if (n_cols > INT_MAX)
        return *st = crk_fail(CRK_E_INVALID, "%s: n_cols %zu exceeds the kernel's int", name, n_cols), NULL;
    if (n_rows > MAX_GRID)
        return *st = crk_fail(CRK_E_INVALID, "%s: %zu rows exceed a grid (a block per row)", name, n_rows), NULL;
    return ki;
}

static int aligned16(const void *p) { return p == NULL || ((uintptr_t)p & 15) == 0; }

/* The row kernels' blocks: the power of two >= n / per threads, 32..1024. */
static unsigned row_block(size_t n, unsigned per) {
    unsigned t = 32;
    while (t < 1024 && (size_t)t * per < n) t *= 2;
    return t;
}

/* crk_softmax's persistent wide grid: the DRAM bandwidth an SM/CU (GB/s)
 * from which it ran faster than a block a row (H200 ~37 yes, H100 25 no). */
static const double kPersistentGbpsPerSM = 30;

/* libcrk's crk_<op>_vec_<dt> beside Candle's <op>_<dt>, or NULL. */
static const crk_kernel_info *vec_variant(const crk_kernel_info *ki) {
    char op[32];
    snprintf(op, sizeof op, "%s_vec", ki->op);
    return own_kernel(ki, op);
}

/* Our crk_<op>_vec_<dt> for rows of 16-byte chunks (n_cols a multiple of
 * 16 / size, every pointer 16-byte aligned; else NULL), with its block:
 * about two chunks a thread (a power of two, 32..1024). */
static const crk_kernel_info *vec_kernel(const crk_kernel_info *ki, size_t n_cols,
                                         const void *const ptrs[4], unsigned *threads) {
    const crk_dtype dt = (crk_dtype)crk_operand_dtype(ki, 0);
    const size_t chunk = 16 / crk_dtype_size(dt);
    if (n_cols % chunk) return NULL;
    for (int i = 0; i < 4; i++)
        if (!aligned16(ptrs[i])) return NULL;
    const crk_kernel_info *vk = vec_variant(ki);
    if (vk) *threads = row_block(n_cols / chunk, 2);
    return vk;
}

/* A helper given libcrk's own variant: it wants Candle's name. */
static crk_status own_variant(const crk_kernel_info *ki, const char *name, const char *op, const char *helper) {
    return crk_fail(CRK_E_INVALID, "%s is libcrk's own variant: pass %s_%s (crk_%s picks the kernel)", name, op,
                    crk_dtype_name((crk_dtype)crk_operand_dtype(ki, 0)), helper);
}

/* 1 if [a, a + n) and [b, b + m) share a byte. */
static int overlap(const void *a, size_t n, const void *b, size_t m) {
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + m && y < x + n;
}

/* Few long rows (include/crk.h): the pieces a row splits into, or 0 to keep
 * a block a row. Fewer rows than about a wave of blocks (256) and rows of
 * at least 12288 16-byte chunks: pieces of at most 2048 chunks (a block
 * holds them in registers), more while there are fewer than 256 blocks
 * and a piece keeps 256 chunks. Each launch costs about 5 us on the H100,
 * so shorter rows gain nothing (32x32768 f32, 8192 chunks: 11.3 us in a
 * block a row, 12.3 split) where 32x128256 (16032 chunks bf16, 32064 f32)
 * gains 1.2-1.3x (docs/runs/2026-11-24e-h100-softmax-split-rules.txt). A
 * piece's span of dst must hold the row's parts (kernels/rows.h
 * SoftmaxSplit). */
static size_t split_pieces(size_t n_rows, size_t chunks, size_t part_bytes) {
    if (n_rows >= 256 || chunks < 12288) return 0;
    size_t p = (chunks + 2047) / 2048;
    const size_t want = (256 + n_rows - 1) / n_rows, most = chunks / 256;
    if (p < (want < most ? want : most)) p = want < most ? want : most;
    return p * part_bytes <= chunks / p * 16 ? p : 0;
}

/* The two launches of a split row (kernels/rows.h): grid (pieces, rows),
 * about two chunks of a piece a thread. */
static crk_status softmax_split(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const void *src, void *dst,
                                size_t n_rows, size_t n_cols, size_t chunks, size_t pieces) {
    static const char *const step[2] = {"softmax_part", "softmax_fin"};
    const unsigned grid[3] = {(unsigned)pieces, (unsigned)n_rows, 1},
                   block[3] = {row_block((chunks + pieces - 1) / pieces, 2), 1, 1};
    for (int i = 0; i < 2; i++) {
        const crk_kernel_info *k = own_kernel(ki, step[i]);
        if (!k) return crk_fail(CRK_E_NOT_FOUND, "%s: its split-row kernel crk_%s is missing", ki->name, step[i]);
        arg_pack a = {.out = dst, .in = {src}};
        const double sc[2] = {(double)n_cols, (double)pieces};
        crk_status st = crk_pack_args(k, &a, sc, 2, NULL);
        if (st == CRK_OK) st = crk_launch_shaped(ctx, s, k, NULL, 0, &a, grid, block);
        if (st != CRK_OK) return st;
    }
    return CRK_OK;
}

crk_status crk_softmax(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst, size_t n_rows,
                       size_t n_cols) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = rows_kernel(ctx, name, CRK_FAMILY_SOFTMAX, src, dst, n_rows, n_cols, &st);
    if (!ki) return st;
    if (!strncmp(ki->op, "crk_", 4)) return own_variant(ki, name, "softmax", "softmax");
    if (n_rows == 0 || n_cols == 0) return CRK_OK;
    /* Candle's block is (1, 32, 1); the kernels take any 32·k threads a row
     * (kernels/rows.h), so long rows get more: 16-byte chunks, two a
     * thread, where the row allows; else about 8 columns a thread */
    unsigned t = 32;
    size_t blocks = n_rows;
    int nsc = 1; /* crk_softmax_wide also takes n_rows */
    const void *const ptrs[4] = {src, dst, NULL, NULL};
    const crk_kernel_info *vk = vec_kernel(ki, n_cols, ptrs, &t);
    if (vk) {
        const size_t sz = crk_dtype_size((crk_dtype)crk_operand_dtype(ki, 0)), chunks = n_cols * sz / 16,
                     bytes = n_rows * n_cols * sz;
        const size_t pieces = overlap(src, bytes, dst, bytes) ? 0 : split_pieces(n_rows, chunks, sz == 8 ? 16 : 8);
        if (pieces > 1) return softmax_split(ctx, s, ki, src, dst, n_rows, n_cols, chunks, pieces);
        ki = vk;
        /* rows of 2049..8192 chunks: crk_softmax_wide_<dt>, up to 8 held a
         * thread (kernels/rows.h), the power of two >= chunks / 8 threads.
         * Persistent where a block fills an SM/CU: the blocks the device
         * holds at once (a block a row where the runtime does not say),
         * each taking every grid-th row, loading the next while it stores
         * this one, odd blocks staggered. H200: f32 1024x32768 3151 -> 3325
         * GB/s (docs/runs/2026-12-02-h200-softmax-persistent.txt), staggered
         * 3239-3265; f64 1024x16384 2288 -> 2417-2454. Two blocks an SM
         * (f32 rows of 2049..4096 chunks, 16-bit of up to 4096) ran slower
         * so: f32 1024x10240 2897 -> 2783-2846, bf16 1024x32768 3014 -> 2875,
         * 8192x32768 3800 -> 3273 (docs/runs/2026-12-04-h200-softmax-stagger.txt).
         * The H100 (25 GB/s of DRAM an SM, the H200 36) ran a block a row
         * faster for every such row measured: f32 1024x32768 2483 -> 2637,
         * 8192x32768 2802 -> 2969, bf16 4096x65536 2343 -> 2616, f64
         * 4096x16384 2032 -> 2505 (docs/runs/2026-12-06-h100-norms-softmax-rule.txt):
         * persistent only where the DRAM gives an SM at least 30 GB/s (or
         * the runtime does not say). Longer rows (1024 threads, 8 chunks
         * held each): the rest of the row streamed once for the stats and
         * once to write for f32 on NVIDIA (kernels/rows.h stats_long), else
         * re-read as crk_softmax_vec does; a block a row (nothing held to
         * overlap with the next row's loads). */
        const crk_kernel_info *wk = chunks > 2048 ? own_kernel(vk, "softmax_wide") : NULL;
        if (wk) {
            ki = wk, t = row_block(chunks, 8), nsc = 2;
            const size_t held = chunks <= 8192 ? crk_resident_blocks(ctx, wk, t, 0) : 0;
            /* held == sm_count > 0 before the division */
            if (held && held == (size_t)ctx->gpu.sm_count && held < n_rows &&
                (ctx->gpu.dram_gbps <= 0 || ctx->gpu.dram_gbps / ctx->gpu.sm_count >= kPersistentGbpsPerSM))
                blocks = held;
        }
    } else {
        t = row_block(n_cols, 8);
    }
    arg_pack a = {.out = dst, .in = {src}};
    const double sc[2] = {(double)n_cols, (double)n_rows};
    if ((st = crk_pack_args(ki, &a, sc, nsc, NULL)) != CRK_OK) return st;
    const unsigned grid[3] = {(unsigned)blocks, 1, 1}, block[3] = {t, 1, 1};
    return crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block);
}

/* rmsnorm (beta unused) and layernorm. Rows that take 16-byte chunks
 * (n_cols a multiple of 16 / size, every pointer 16-byte aligned) run our
 * crk_<op>_vec_<dt>, about two chunks a thread (a power of two, 32..1024);
 * others Candle's kernel with Candle's block_size (32 below 1024 columns,
 * else 1024) as the block and as the argument. include/crk.h says so. */
static crk_status norm(crk_ctx *ctx, crk_stream s, const char *name, const char *op, const void *src, void *dst,
                       const void *alpha, const void *beta, size_t n_rows, size_t n_cols, float eps) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = rows_kernel(ctx, name, CRK_FAMILY_NORM, src, dst, n_rows, n_cols, &st);
    if (!ki) return st;
    if (!strncmp(ki->op, "crk_", 4)) return own_variant(ki, name, op, op);
    if (strcmp(ki->op, op))
        return crk_fail(CRK_E_INVALID, "%s is a %s kernel: use crk_%s", name, ki->op, ki->op);
    if (n_rows == 0 || n_cols == 0) return CRK_OK;
    unsigned bs = n_cols < 1024 ? 32 : 1024;
    const void *const ptrs[4] = {src, dst, alpha, beta};
    const crk_kernel_info *vk = vec_kernel(ki, n_cols, ptrs, &bs);
    if (vk) ki = vk;
    arg_pack a = {.out = dst, .in = {src, alpha, beta}};
    const double sc[3] = {(double)n_cols, (double)bs, (double)eps};
    if ((st = crk_pack_args(ki, &a, sc, 3, NULL)) != CRK_OK) return st;
    const unsigned grid[3] = {(unsigned)n_rows, 1, 1}, block[3] = {bs, 1, 1};
    return crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block);
}

crk_status crk_rmsnorm(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst,
                       const void *alpha, size_t n_rows, size_t n_cols, float eps) {
    return norm(ctx, s, name, "rmsnorm", src, dst, alpha, NULL, n_rows, n_cols, eps);
}

crk_status crk_layernorm(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst,
                         const void *alpha, const void *beta, size_t n_rows, size_t n_cols, float eps) {
    return norm(ctx, s, name, "layernorm", src, dst, alpha, beta, n_rows, n_cols, eps);
}

/* 1 if a*b*... fits the kernels' uint32_t (products checked in 64 bits). */
static int fits_u32(size_t v) { return v <= UINT32_MAX; }

crk_status crk_rope(crk_ctx *ctx, crk_stream s, const char *name, const void *src, const void *cos,
                    const void *sin, void *dst, size_t b, size_t h, size_t t, size_t d, int batched) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_ROPE, &st);
    if (!ki) return st;
    if (!strncmp(ki->op, "crk_", 4)) { /* crk_<op>_vec: Candle's <op> */
        char op[16];
        snprintf(op, sizeof op, "%.*s", (int)strlen(ki->op) - 8, ki->op + 4);
        return own_variant(ki, name, op, "rope");
    }
    if ((st = crk_need_ptr(name, "src", src)) != CRK_OK || (st = crk_need_ptr(name, "cos", cos)) != CRK_OK ||
        (st = crk_need_ptr(name, "sin", sin)) != CRK_OK || (st = crk_need_ptr(name, "dst", dst)) != CRK_OK)
        return st;
    if (d % 2) return crk_fail(CRK_E_INVALID, "%s: d = %zu must be even (pairs)", name, d);
    size_t bh, td, htd, n;
    if (__builtin_mul_overflow(b, h, &bh) || __builtin_mul_overflow(t, d, &td) ||
        __builtin_mul_overflow(h, td, &htd) || __builtin_mul_overflow(bh, td, &n) || !fits_u32(bh) ||
        !fits_u32(td) || !fits_u32(b) || !fits_u32(t) || !fits_u32(h) || !fits_u32(d))
        return crk_fail(CRK_E_INVALID, "%s: b, h, t, d, b*h and t*d must fit the kernel's uint32_t", name);
    if (batched && !fits_u32(htd)) /* stride_b, a kernel parameter; the element count itself may pass 2^32 */
        return crk_fail(CRK_E_INVALID, "%s: batched cos/sin need h*t*d = %zu to fit the kernel's uint32_t stride_b",
                        name, htd);
    if (n == 0) return CRK_OK;
    /* 16 bytes of pairs a thread (crk_<op>_vec_<dt>, kernels/rope.h) when
     * a thread's pairs stay in one row and every pointer is 16-byte aligned */
    const size_t per = 16 / crk_dtype_size((crk_dtype)crk_operand_dtype(ki, 0));
    const void *const ptrs[4] = {src, cos, sin, dst};
    int vec = (!strcmp(ki->op, "rope_i") ? td / 2 : d / 2) % per == 0;
    for (int i = 0; i < 4; i++) vec &= aligned16(ptrs[i]);
    const crk_kernel_info *vk = vec ? vec_variant(ki) : NULL;
    const size_t threads = n / 2 / (vk ? per : 1);
    const double stride_b = batched ? (double)htd : 0;
    double sc[5];
    if (!strcmp(ki->op, "rope_thd")) sc[0] = (double)b, sc[1] = (double)t, sc[2] = (double)h, sc[3] = (double)d,
                                     sc[4] = stride_b;
    else if (!strcmp(ki->op, "rope")) sc[0] = (double)bh, sc[1] = (double)td, sc[2] = (double)d, sc[3] = stride_b;
    else sc[0] = (double)bh, sc[1] = (double)td, sc[2] = stride_b;
    if (vk) ki = vk;
    arg_pack a = {.out = dst, .in = {src, cos, sin}};
    if ((st = crk_pack_args(ki, &a, sc, 5, NULL)) != CRK_OK) return st;
    return crk_launch_items(ctx, s, ki, NULL, 0, &a, threads);
}
