/* launch.c — launching registry kernels with Candle's conventions. */
#include "context.h"
#include "launch.h"
#include "layout_merge.h"
#include "error.h"
#include "info_ring.h"
#include "registry.h"
#include "scalar.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The helper serving each family (named in errors). */
static const char *helper_of(crk_family f) {
    switch (f) {
    case CRK_FAMILY_UNARY: return "crk_unary";
    case CRK_FAMILY_CAST: return "crk_cast";
    case CRK_FAMILY_TERNARY: return "crk_where";
    case CRK_FAMILY_AFFINE: return "crk_affine";
    case CRK_FAMILY_BINARY: return "crk_binary";
    case CRK_FAMILY_CMP: return "crk_cmp";
    case CRK_FAMILY_FILL: return "crk_fill";
    case CRK_FAMILY_CONST_SET: return "crk_const_set";
    case CRK_FAMILY_COPY2D: return "crk_copy2d";
    case CRK_FAMILY_REDUCE: return "crk_reduce";
    case CRK_FAMILY_SOFTMAX: return "crk_softmax";
    case CRK_FAMILY_NORM: return "crk_rmsnorm or crk_layernorm";
    case CRK_FAMILY_ROPE: return "crk_rope";
    case CRK_FAMILY_INDEXING: return "crk_index_select, crk_gather, crk_index_add or crk_scatter";
    case CRK_FAMILY_SORT: return "crk_argsort";
    case CRK_FAMILY_SUM: return "crk_sum_atomic";
    case CRK_FAMILY_CONV: return "crk_conv, crk_im2col or crk_col2im1d";
    case CRK_FAMILY_POOL: return "crk_pool2d";
    case CRK_FAMILY_UPSAMPLE: return "crk_upsample2d";
    case CRK_FAMILY_DEQUANTIZE: return "crk_dequantize";
    case CRK_FAMILY_GET_ROWS: return "crk_get_rows";
    case CRK_FAMILY_QUANTIZE: return "crk_quantize_q8_1";
    case CRK_FAMILY_DMMV: return "crk_dequantize_mul_mat_vec";
    case CRK_FAMILY_MMVQ:
    case CRK_FAMILY_MMVQ_GGUF: return "crk_mul_mat_vec_q8_1";
    case CRK_FAMILY_MOE: return "crk_indexed_moe_forward";
    case CRK_FAMILY_COUNT: break;
    }
    return "crk_launch";
}

/* Looks the kernel up and checks it belongs to the family the helper serves
 * (family < 0: any). */
static const crk_kernel_info *kernel(const char *name, int family, crk_status *st) {
    if (!name)
        return *st = crk_fail(CRK_E_INVALID, "%s: kernel name is NULL",
                              helper_of(family < 0 ? CRK_FAMILY_COUNT : (crk_family)family)), NULL;
    const crk_kernel_info *ki = crk_kernel_find(name);
    if (!ki) return *st = CRK_E_NOT_FOUND, NULL;
    if (family >= 0 && ki->family_id != family) {
        *st = crk_fail(CRK_E_INVALID, "kernel '%s' is a %s kernel, not for %s; use %s or crk_launch", name,
                       ki->family, helper_of((crk_family)family), helper_of((crk_family)ki->family_id));
        return NULL;
    }
    return ki;
}

/* A helper's first steps: a context, and a kernel of its family. */
const crk_kernel_info *crk_helper_kernel(const crk_ctx *ctx, const char *name, crk_family family,
                                            crk_status *st) {
    if (!ctx) return *st = crk_fail(CRK_E_INVALID, "%s: ctx is NULL", name ? name : helper_of(family)), NULL;
    return kernel(name, (int)family, st);
}


/* Scalars arrive as doubles (converted like Candle's T::from_f64), or, for
 * raw != NULL, scalar 0 as the bytes of one element of its dtype (const_set
 * and fill take Candle's Scalar exactly, i64 beyond 2^53 too). */
crk_status crk_pack_args(const crk_kernel_info *ki, arg_pack *a, const double *scalars, unsigned nscalars,
                            const void *raw) {
    if (ki->nparams > sizeof a->args / sizeof a->args[0])
        return crk_fail(CRK_E_SIGNATURE, "%s: %u parameters, more than the launcher takes", ki->name, ki->nparams);
    for (unsigned i = 0; i < ki->nparams; i++) {
        const crk_param *p = &ki->params[i];
        switch ((crk_param_role)p->role) {
        case CRK_ROLE_NUMEL: a->args[i] = &a->numel; break;
        case CRK_ROLE_NUM_DIMS: a->args[i] = &a->num_dims; break;
        case CRK_ROLE_INFO: a->args[i] = &a->info; break;
        case CRK_ROLE_INPUT:
            if (p->index >= sizeof a->in / sizeof a->in[0])
                return crk_fail(CRK_E_SIGNATURE, "%s: input %u out of range", ki->name, p->index);
            a->args[i] = (void *)&a->in[p->index];
            break;
        case CRK_ROLE_OUTPUT: a->args[i] = &a->out; break;
        case CRK_ROLE_SCALAR:
            if ((p->index >= nscalars && !(raw && p->index == 0)) || p->index >= sizeof a->scalar / sizeof a->scalar[0] ||
                p->size > sizeof a->scalar[0])
                return crk_fail(CRK_E_SIGNATURE, "%s: missing scalar '%s'", ki->name, p->name);
            if (raw && p->index == 0) memcpy(a->scalar[0], raw, p->size);
            else if (p->dtype < 0) { /* a size_t (el_to_sum_per_block): exact below 2^53 */
                const size_t v = (size_t)scalars[p->index];
                memcpy(a->scalar[p->index], &v, sizeof v);
            } else crk_scalar_from_f64((crk_dtype)p->dtype, scalars[p->index], a->scalar[p->index]);
            a->args[i] = a->scalar[p->index];
            break;
        default: return crk_fail(CRK_E_SIGNATURE, "%s: parameter %u has an unknown role", ki->name, i);
        }
    }
    return CRK_OK;
}

crk_status crk_need_ptr(const char *name, const char *what, const void *p) {
    return p ? CRK_OK : crk_fail(CRK_E_INVALID, "%s: %s pointer is NULL", name, what);
}

/* crk_layout_check, with the kernel and the operand named in the error. */
crk_status crk_check_layout(const char *name, const char *what, const crk_layout *l, size_t *numel) {
    crk_status st = crk_layout_check(l, numel);
    if (st == CRK_OK) return CRK_OK;
    char why[512]; /* crk_fail writes the buffer crk_last_error reads */
    snprintf(why, sizeof why, "%s", crk_last_error());
    return crk_fail(st, "%s: %s %s", name, what, why);
}

/* p + elements * esz, refused when the byte offset overflows (a pointer
 * that wrapped around would be a silent wrong address). */
crk_status crk_offset_ptr(const char *name, const char *what, const void *p, size_t elements, int dt,
                             const void **out) {
    size_t bytes;
    if (__builtin_mul_overflow(elements, crk_dtype_size((crk_dtype)dt), &bytes) ||
        (uintptr_t)p > UINTPTR_MAX - bytes)
        return crk_fail(CRK_E_INVALID, "%s: %s offset of %zu elements overflows the address space", name, what,
                        elements);
    *out = (const char *)p + bytes;
    return CRK_OK;
}

/* Threads needed: a thread per run of 16 bytes of the widest operand
 * (kernels/elementwise.h: contiguous kernels move a run with wide accesses,
 * strided ones decode its first index and step through the rest; a thread
 * per element would make the kernels take their one-element path, which
 * decodes every index); blocks of the registry's size. */
/* Bytes of the widest typed pointer operand (output included), at least 1. */
static size_t widest_operand(const crk_kernel_info *ki) {
    size_t wide = 1;
    for (unsigned i = 0; i < ki->nparams; i++)
        if (ki->params[i].kind == CRK_ARG_PTR && ki->params[i].dtype >= 0) {
            size_t s = crk_dtype_size((crk_dtype)ki->params[i].dtype);
            if (s > wide) wide = s;
        }
    return wide;
}
static void grid_for(const crk_kernel_info *ki, size_t block, size_t numel, size_t max_blocks, unsigned grid[3]) {
    const size_t per_thread = 16 / widest_operand(ki);
    size_t blocks = ((numel + per_thread - 1) / per_thread + block - 1) / block;
    if (max_blocks && blocks > max_blocks) blocks = max_blocks;
    if (blocks > 0x7FFFFFFFu) blocks = 0x7FFFFFFFu; /* grid-stride covers the rest */
    grid[0] = (unsigned)(blocks ? blocks : 1), grid[1] = grid[2] = 1;
}

crk_status crk_launch_info(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info,
                           size_t info_len, arg_pack *a, size_t work) {
    return crk_launch_capped(ctx, s, ki, info, info_len, a, work, 0);
}

crk_status crk_launch_capped(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info,
                             size_t info_len, arg_pack *a, size_t work, size_t max_blocks) {
    unsigned grid[3];
    const unsigned block[3] = {ki->block, 1, 1};
    grid_for(ki, ki->block, work, max_blocks, grid);
    return crk_launch_shaped(ctx, s, ki, info, info_len, a, grid, block);
}

/* Loads the kernel's function and launches it; with info, through the info
 * ring (a slot holding these bytes, or an upload on the stream). */
crk_status crk_launch_shaped(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info,
                             size_t info_len, arg_pack *a, const unsigned grid[3], const unsigned block[3]) {
    if (info_len != 0 && ki->info_param < 0)
        return crk_fail(CRK_E_SIGNATURE, "%s: strided layouts need an info buffer, which this kernel does not take",
                        ki->name);
    if (info_len * sizeof(size_t) > CRK_INFO_SLOT_BYTES)
        return crk_fail(CRK_E_INVALID, "%s: info buffer of %zu size_t exceeds a slot", ki->name, info_len);
    crk_status st = CRK_OK;
    void *fn = crk_function(ctx, ki, &st); /* makes the context current */
    if (!fn) return st;
    void **args = a->args;
    const unsigned shared = a->shared_bytes ? a->shared_bytes : ki->shared_bytes;
    a->info = NULL;
    if (info_len == 0) { /* SlicePtrOrNull::Null */
        int e = ctx->gpu.launch(&ctx->gpu, fn, grid, block, shared, s, args);
        return e ? crk_gpu_error(ctx, e, ki->name) : CRK_OK;
    }
    const crk_ring_launch l = {.fn = fn, .stream = s, .grid = grid, .block = block, .shared = shared,
                               .args = args, .info_arg = &a->info, .info = info, .info_len = info_len};
    const int e = crk_info_ring_launch(ctx, &l);
    return e ? crk_gpu_error(ctx, e, ki->name) : CRK_OK;
}

size_t crk_resident_blocks(crk_ctx *ctx, const crk_kernel_info *ki, unsigned threads, unsigned shared_bytes) {
    /* The runtime's answer for the kernel's last (threads, shared_bytes),
     * kept as threads << 48 | shared_bytes << 16 | blocks where each fits 16
     * bits: asked once, not every launch (crk_softmax's f32 rows asked on
     * every call). A race only asks twice. */
    const int keep = threads <= 0xFFFF && shared_bytes <= 0xFFFF;
    const uint64_t key = (uint64_t)threads << 48 | (uint64_t)shared_bytes << 16;
    _Atomic(uint64_t) *slot = &ctx->resident[ki - crk_registry];
    const uint64_t seen = atomic_load_explicit(slot, memory_order_relaxed);
    int n = keep && (seen & ~(uint64_t)0xFFFF) == key ? (int)(seen & 0xFFFF) : 0;
    if (!n) {
        crk_status st = CRK_OK;
        void *fn = ctx->gpu.sm_count > 0 ? crk_function(ctx, ki, &st) : NULL;
        if (!fn || ctx->gpu.occupancy(&ctx->gpu, fn, threads, shared_bytes, &n) || n <= 0) return 0;
        if (keep && n <= 0xFFFF) atomic_store_explicit(slot, key | (uint64_t)n, memory_order_relaxed);
    }
    return (size_t)n * (size_t)ctx->gpu.sm_count;
}

/* The dtype of input i (role index) or, for i < 0, of the output. */
int crk_operand_dtype(const crk_kernel_info *ki, int i) {
    for (unsigned k = 0; k < ki->nparams; k++) {
        const crk_param *p = &ki->params[k];
        if (i < 0 ? p->role == CRK_ROLE_OUTPUT : p->role == CRK_ROLE_INPUT && p->index == i) return p->dtype;
    }
    return -1;
}

/* Blocks for a strided launch (info uploaded) of the element-wise kernels
 * whose operands all have a last-dim stride of 0 or 1 (broadcast rows and
 * columns, slices): a few waves' worth, each thread walking several runs
 * of the kernels' row walk (kernels/elementwise.h, map_rows). A thread a
 * run paid the walk's set-up (info loads, the path's tests) for every 16
 * bytes: H200, f32 [1,C] broadcast to 16384^2, copy 1842 -> 3542 GB/s,
 * badd 2527 -> 3613 at 16 blocks an SM. An operand read across its rows
 * (a transposed view) wants every thread in flight instead (badd with a
 * transposed lhs: 1564 GB/s uncapped, 830 capped), and contiguous
 * launches (no info) measured as fast or faster uncapped
 * (docs/runs/2026-11-28e-h200-rows-path.txt). 0: no cap, also when the
 * runtime did not say how many SMs or CUs there are. */
enum { kStridedBlocksPerSM = 16 };
static size_t strided_blocks(const crk_ctx *ctx, size_t n, const crk_layout *merged, size_t info_len) {
    if (!info_len || ctx->gpu.sm_count <= 0) return 0;
    for (size_t k = 0; k < n; k++)
        if (merged[k].strides[merged[k].rank - 1] > 1) return 0;
    return (size_t)ctx->gpu.sm_count * kStridedBlocksPerSM;
}

/* Launches with one transposed operand (last-dim stride above 1, stride 1
 * one dim up), any other operand stepping 0 or 1 along the last dim, and an
 * op that moves values or takes one cheap op an element with runs of at
 * most 4 values (ucopy, casts, affine, binary and cmp with a 4-byte or
 * wider operand, no fp8), or of 8 for binary and cmp of 2-byte operands
 * (no column walk for two operands): their kernels go through shared-memory tiles
 * when launched with blocks of kTileThreads (kernels/elementwise.h,
 * TileRule, the same rule, except that gfx9-generic objects walk rows for
 * runs of 8: this grid then only sets their thread count), and want a few blocks an SM, each walking
 * many tiles with the next one's loads in flight (H200, 16384^2 at 8
 * blocks an SM: copy f32 2062 -> 3023 GB/s, badd f32 1532 -> 3747; a tile
 * a block 0.51-0.93x of the column walk). Other ops, and 8 or 16 values a
 * lane, keep every thread in flight (map_columns, map_rows). */
enum { kTileThreads = 1024, kTileBlocksPerSM = 8 };
static int tiled_transpose(const crk_ctx *ctx, const crk_kernel_info *ki, size_t n, const crk_layout *m) {
    if (n > 2 || m[0].rank < 2 || ctx->gpu.sm_count <= 0 || crk_layout_numel(&m[0]) > 0xFFFFFFFFull)
        return 0; /* map_tiles counts in 32 bits */
    const size_t r = m[0].rank;
    size_t transposed = 0;
    for (size_t k = 0; k < n; k++) {
        const size_t last = m[k].strides[r - 1];
        if (last > 1 && m[k].strides[r - 2] == 1) transposed++;
        else if (last > 1) return 0;
    }
    const crk_family f = (crk_family)ki->family_id;
    const int cheap = f == CRK_FAMILY_CAST || f == CRK_FAMILY_AFFINE || f == CRK_FAMILY_BINARY || f == CRK_FAMILY_CMP ||
                      (f == CRK_FAMILY_UNARY && !strcmp(ki->op, "copy"));
    if (transposed != 1 || !cheap) return 0;
    for (unsigned i = 0; i < ki->nparams; i++) /* fp8 converts in software: ALU-bound */
        if (ki->params[i].kind == CRK_ARG_PTR && ki->params[i].dtype == CRK_F8E4M3) return 0;
    return widest_operand(ki) >= 4 || (n == 2 && widest_operand(ki) == 2);
}

/* Kernels of n input layouts sharing the first one's shape (unary, cast,
 * affine: 1; binary, cmp: 2; where: 3), writing a contiguous output. */
typedef struct {
    size_t n;
    const char *const *what;       /* names in errors: "lhs", "rhs", ...  */
    const crk_layout *const *ls;
    const void *const *ptrs;
} inputs;

static crk_status mapn(crk_ctx *ctx, crk_stream s, const char *name, crk_family family, inputs in, void *out,
                       const double *scalars, unsigned nscalars) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, family, &st);
    if (!ki) return st;
    arg_pack a = {.out = out};
    for (size_t i = 0; i < in.n; i++)
        if ((st = crk_check_layout(name, in.what[i], in.ls[i], i ? NULL : &a.numel)) != CRK_OK) return st;
    for (size_t i = 0; i < in.n; i++)
        if ((st = crk_need_ptr(name, in.what[i], in.ptrs[i])) != CRK_OK) return st;
    if ((st = crk_need_ptr(name, "out", out)) != CRK_OK) return st;
    const crk_layout *l0 = in.ls[0];
    for (size_t i = 1; i < in.n; i++)
        if (in.ls[i]->rank != l0->rank || memcmp(in.ls[i]->dims, l0->dims, l0->rank * sizeof(size_t)))
            return crk_fail(CRK_E_INVALID, "%s: %s must have %s's shape (broadcast with stride 0 first)", name,
                            in.what[i], in.what[0]);
    size_t info[4 * CRK_MAX_DIMS], info_len;
    if (a.numel == 0) return CRK_OK;
    crk_layout merged[4]; /* in.n <= 3 */
    const crk_layout *mp[4];
    a.num_dims = crk_layouts_merge(in.ls, in.n, merged);
    for (size_t i = 0; i < in.n; i++) mp[i] = &merged[i];
    /* NULL info when every layout is contiguous (Candle passes one to where
     * always; ours accepts NULL too, so contiguous launches skip the upload). */
    if ((st = crk_info_pack_checked(mp, in.n, 1, info, 4 * CRK_MAX_DIMS, &info_len)) != CRK_OK) return st;
    for (size_t i = 0; i < in.n && i < 4; i++)
        if ((st = crk_offset_ptr(name, in.what[i], in.ptrs[i], in.ls[i]->start_offset, crk_operand_dtype(ki, (int)i),
                             &a.in[i])) != CRK_OK)
            return st;
    if ((st = crk_pack_args(ki, &a, scalars, nscalars, NULL)) != CRK_OK) return st;
    if (info_len && tiled_transpose(ctx, ki, in.n, merged)) { /* a tile a block of a run a thread */
        unsigned grid[3];
        const unsigned block[3] = {kTileThreads, 1, 1};
        grid_for(ki, kTileThreads, a.numel, (size_t)ctx->gpu.sm_count * kTileBlocksPerSM, grid);
        return crk_launch_shaped(ctx, s, ki, info, info_len, &a, grid, block);
    }
    return crk_launch_capped(ctx, s, ki, info, info_len, &a, a.numel, strided_blocks(ctx, in.n, merged, info_len));
}

static crk_status map1(crk_ctx *ctx, crk_stream s, const char *name, crk_family family, const crk_layout *l,
                       const void *inp, void *out, const double *scalars, unsigned nscalars) {
    static const char *const what[] = {"input"};
    return mapn(ctx, s, name, family, (inputs){1, what, &l, &inp}, out, scalars, nscalars);
}

crk_status crk_unary(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *in, const void *inp,
                     void *out, double param) {
    return map1(ctx, s, name, CRK_FAMILY_UNARY, in, inp, out, &param, 1);
}

crk_status crk_affine(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *in,
                      const void *inp, void *out, double mul, double add) {
    const double sc[2] = {mul, add};
    return map1(ctx, s, name, CRK_FAMILY_AFFINE, in, inp, out, sc, 2);
}

crk_status crk_cast(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *in, const void *inp,
                    void *out) {
    return map1(ctx, s, name, CRK_FAMILY_CAST, in, inp, out, NULL, 0);
}

crk_status crk_where(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *cond_l,
                     const void *cond, const crk_layout *t_l, const void *t, const crk_layout *f_l,
                     const void *f, void *out) {
    static const char *const what[] = {"condition", "on_true", "on_false"};
    const crk_layout *ls[3] = {cond_l, t_l, f_l};
    const void *ptrs[3] = {cond, t, f};
    return mapn(ctx, s, name, CRK_FAMILY_TERNARY, (inputs){3, what, ls, ptrs}, out, NULL, 0);
}

static crk_status map2(crk_ctx *ctx, crk_stream s, const char *name, crk_family family, const crk_layout *lhs_l,
                       const void *lhs, const crk_layout *rhs_l, const void *rhs, void *out) {
    static const char *const what[] = {"lhs", "rhs"};
    const crk_layout *ls[2] = {lhs_l, rhs_l};
    const void *ptrs[2] = {lhs, rhs};
    return mapn(ctx, s, name, family, (inputs){2, what, ls, ptrs}, out, NULL, 0);
}

crk_status crk_binary(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *lhs_l, const void *lhs,
                      const crk_layout *rhs_l, const void *rhs, void *out) {
    return map2(ctx, s, name, CRK_FAMILY_BINARY, lhs_l, lhs, rhs_l, rhs, out);
}

crk_status crk_cmp(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *lhs_l, const void *lhs,
                   const crk_layout *rhs_l, const void *rhs, void *out) {
    return map2(ctx, s, name, CRK_FAMILY_CMP, lhs_l, lhs, rhs_l, rhs, out);
}

crk_status crk_const_set(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *l, void *out,
                         const void *value) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_CONST_SET, &st);
    if (!ki) return st;
    arg_pack a = {0};
    if ((st = crk_check_layout(name, "output", l, &a.numel)) != CRK_OK) return st;
    if (!out || !value) return crk_fail(CRK_E_INVALID, "%s: %s pointer is NULL", name, out ? "value" : "out");
    size_t info[2 * CRK_MAX_DIMS], info_len;
    if (a.numel == 0) return CRK_OK;
    crk_layout w; /* the order of the writes is free: memory order (a transposed view becomes contiguous) */
    const crk_layout *wp = &w;
    a.num_dims = crk_layout_for_fill(l, &w, &a.numel);
    if ((st = crk_info_pack_checked(&wp, 1, 1, info, 2 * CRK_MAX_DIMS, &info_len)) != CRK_OK) return st;
    const void *o = NULL;
    if ((st = crk_offset_ptr(name, "output", out, l->start_offset, crk_operand_dtype(ki, -1), &o)) != CRK_OK) return st;
    a.out = (void *)o;
    if ((st = crk_pack_args(ki, &a, NULL, 0, value)) != CRK_OK) return st;
    return crk_launch_info(ctx, s, ki, info, info_len, &a, a.numel);
}

crk_status crk_fill(crk_ctx *ctx, crk_stream s, const char *name, void *buf, size_t numel, const void *value) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_FILL, &st);
    if (!ki) return st;
    if (!buf || !value) return crk_fail(CRK_E_INVALID, "%s: %s pointer is NULL", name, buf ? "value" : "buf");
    arg_pack a = {.numel = numel, .out = buf};
    if (numel == 0) return CRK_OK;
    if ((st = crk_pack_args(ki, &a, NULL, 0, value)) != CRK_OK) return st;
    return crk_launch_info(ctx, s, ki, NULL, 0, &a, numel);
}

crk_status crk_copy2d(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst, size_t d1,
                      size_t d2, size_t src_s, size_t dst_s, size_t src_o, size_t dst_o) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_COPY2D, &st);
    if (!ki) return st;
    if (!src || !dst) return crk_fail(CRK_E_INVALID, "%s: %s pointer is NULL", name, src ? "dst" : "src");
    if (d1 > UINT32_MAX || d2 > UINT32_MAX || src_s > UINT32_MAX || dst_s > UINT32_MAX)
        return crk_fail(CRK_E_INVALID, "%s: d1, d2, src_s and dst_s are uint32_t kernel parameters (%zu, %zu, %zu, %zu "
                        "given); split the copy into pieces below 2^32", name, d1, d2, src_s, dst_s);
    if (d1 > 1 && dst_s < d2) /* source rows may overlap (stride 0 repeats a row), written ones may not */
        return crk_fail(CRK_E_INVALID, "%s: dst_s=%zu is below the row length d2=%zu: written rows would overlap",
                        name, dst_s, d2);
    if (d1 == 0 || d2 == 0) return CRK_OK; /* as Candle: no launch */
    const double sc[4] = {(double)d1, (double)d2, (double)src_s, (double)dst_s};
    const size_t esz = crk_dtype_size((crk_dtype)ki->dtypes[0]);
    arg_pack a = {0};
    const void *o = NULL;
    if ((st = crk_offset_ptr(name, "src", src, src_o, ki->dtypes[0], &a.in[0])) != CRK_OK ||
        (st = crk_offset_ptr(name, "dst", dst, dst_o, ki->dtypes[0], &o)) != CRK_OK)
        return st;
    a.out = (void *)o;
    if ((st = crk_pack_args(ki, &a, sc, 4, NULL)) != CRK_OK) return st;
    /* each thread copies a run of 16 bytes within one row */
    const size_t run = 16 / esz;
    return crk_launch_info(ctx, s, ki, NULL, 0, &a, d1 * ((d2 + run - 1) / run) * run);
}

/* Checks a raw launch against the registry signature (no GPU needed). */
crk_status crk_check_launch(const crk_kernel_info *ki, const unsigned grid[3], const unsigned block[3],
                            void **args, const size_t *sizes, size_t nargs) {
    const char *name = ki->name;
    if (!grid || !block || (nargs && (!args || !sizes)))
        return crk_fail(CRK_E_INVALID, "crk_launch %s: NULL grid, block, args or sizes", name);
    if (nargs != ki->nparams)
        return crk_fail(CRK_E_SIGNATURE, "crk_launch %s: %zu arguments given, the kernel takes %u", name, nargs,
                        ki->nparams);
    for (size_t i = 0; i < nargs; i++) {
        if (!args[i]) return crk_fail(CRK_E_INVALID, "crk_launch %s: args[%zu] is NULL", name, i);
        if (sizes[i] != ki->params[i].size)
            return crk_fail(CRK_E_SIGNATURE, "crk_launch %s: argument %zu (%s%s%s) is %u bytes, %zu given", name, i,
                            ki->params[i].ctype, ki->params[i].ctype[strlen(ki->params[i].ctype) - 1] == '*' ? "" : " ",
                            ki->params[i].name, ki->params[i].size, sizes[i]);
    }
    if (!grid[0] || !grid[1] || !grid[2] || !block[0] || !block[1] || !block[2] ||
        (size_t)block[0] * block[1] * block[2] > 1024)
        return crk_fail(CRK_E_INVALID, "crk_launch %s: grid and block must be non-zero, block at most 1024 threads", name);
    return CRK_OK;
}

/* crk_launch@@CRK_0.2 (the default), with dynamic shared memory. */
crk_status crk_launch_v0_2(crk_ctx *ctx, crk_stream s, const char *name, const unsigned grid[3],
                           const unsigned block[3], unsigned shared_bytes, void **args, const size_t *sizes,
                           size_t nargs);
crk_status crk_launch_v0_2(crk_ctx *ctx, crk_stream s, const char *name, const unsigned grid[3],
                           const unsigned block[3], unsigned shared_bytes, void **args, const size_t *sizes,
                           size_t nargs) {
    crk_status st = CRK_OK;
    if (!ctx) return crk_fail(CRK_E_INVALID, "crk_launch: ctx is NULL");
    const crk_kernel_info *ki = kernel(name, -1, &st);
    if (!ki) return st;
    if ((st = crk_check_launch(ki, grid, block, args, sizes, nargs)) != CRK_OK) return st;
    void *fn = crk_function(ctx, ki, &st); /* makes the context current */
    if (!fn) return st;
    int e = ctx->gpu.launch(&ctx->gpu, fn, grid, block, shared_bytes, s, args);
    return e ? crk_gpu_error(ctx, e, name) : CRK_OK;
}

/* crk_launch@CRK_0.1: the 0.1 signature, for programs built against it. */
crk_status crk_launch_v0_1(crk_ctx *ctx, crk_stream s, const char *name, const unsigned grid[3],
                           const unsigned block[3], void **args, const size_t *sizes, size_t nargs);
crk_status crk_launch_v0_1(crk_ctx *ctx, crk_stream s, const char *name, const unsigned grid[3],
                           const unsigned block[3], void **args, const size_t *sizes, size_t nargs) {
    return crk_launch_v0_2(ctx, s, name, grid, block, 0, args, sizes, nargs);
}
__asm__(".symver crk_launch_v0_1, crk_launch@CRK_0.1");
__asm__(".symver crk_launch_v0_2, crk_launch@@CRK_0.2");

crk_status crk_sum_dims_mask(const char *name, size_t rank, const size_t *sum_dims, size_t n, unsigned *mask) {
    *mask = 0;
    if (n && !sum_dims) return crk_fail(CRK_E_INVALID, "%s: sum_dims is NULL", name);
    for (size_t j = 0; j < n; j++) {
        if (sum_dims[j] >= rank)
            return crk_fail(CRK_E_INVALID, "%s: sum dim %zu out of range for rank %zu", name, sum_dims[j], rank);
        if (*mask >> sum_dims[j] & 1u) return crk_fail(CRK_E_INVALID, "%s: sum dim %zu given twice", name, sum_dims[j]);
        *mask |= 1u << sum_dims[j];
    }
    return CRK_OK;
}

crk_status crk_launch_items(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info,
                            size_t info_len, arg_pack *a, size_t items) {
    const size_t blocks = (items + ki->block - 1) / ki->block;
    const unsigned grid[3] = {(unsigned)(blocks < 0x7FFFFFFFu ? blocks : 0x7FFFFFFFu), 1, 1},
                   block[3] = {ki->block, 1, 1};
    return crk_launch_shaped(ctx, s, ki, info, info_len, a, grid, block);
}

crk_status crk_size_exact(const char *name, const char *what, size_t v) {
    return v <= (1ull << 53) ? CRK_OK : crk_fail(CRK_E_INVALID, "%s: %s %zu exceeds 2^53", name, what, v);
}
