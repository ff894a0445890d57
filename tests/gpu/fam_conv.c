/* fam_conv.c — module conv (fact sheet §4.14–§4.16): the conv family
 * (conv1d, conv2d, conv_transpose1d, conv_transpose2d, im2col1d, im2col,
 * col2im1d), pool (avg_pool2d, max_pool2d) and upsample
 * (upsample_nearest2d, upsample_bilinear2d). Layout case i runs case i of
 * the family's table below. A 1-D op reads a conv case's (b, c_in, h) and
 * kh; a 2-D op (b, c_in, h, w) and kh x kw.
 *
 * Views: contiguous; channels-last (the NHWC buffer of an NCHW tensor);
 * sliced (+5) with a transposed (column-major) kernel; batch broadcast
 * (stride 0); for pools and upsampling also a transposed H/W. Outputs sit
 * between poisoned guard zones. Expected values come from tests/ref
 * (ref_conv.c), which computes each output from the op's meaning in the
 * kernels' summation order with one fused multiply-add a term, as nvcc's
 * contraction gives upstream: every compare is exact (NaN matches NaN).
 *
 * Launch shapes: Candle's (for_num_elems(dst_el); im2col1d:
 * for_num_elems(b·l_out·c_in), which it also passes as dst_numel); in the
 * libcrk slot, libcrk's helper (crk_conv, crk_im2col, crk_col2im1d,
 * crk_pool2d, crk_upsample2d: the output dims it reports are checked too),
 * then the same kernel on 3 blocks of 64 threads, which makes it walk its
 * outputs grid-stride. */
#include "suite.h"
#include <stdio.h>
#include <string.h>

enum { V_CONTIG, V_CHANNELS_LAST, V_SLICED_KT, V_BCAST, V_HW_T };

typedef struct {
    const char *name;
    size_t b, c_in, c_out, h, w, kh, kw, stride, pad, dil, out_pad;
    int view;
} conv_case;
static const conv_case CONV[] = {
    {"1x1x1x1 k1", 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, V_CONTIG},
    {"b2 c3->4 9x7 k3 p1", 2, 3, 4, 9, 7, 3, 3, 1, 1, 1, 0, V_CONTIG},
    {"c5->3 11x13 k3 s2", 1, 5, 3, 11, 13, 3, 3, 2, 0, 1, 0, V_CONTIG},
    {"b2 c3->2 17x15 k7 s3 p3", 2, 3, 2, 17, 15, 7, 7, 3, 3, 1, 0, V_CONTIG},
    {"c4->3 12x10 k3 dilation 2", 1, 4, 3, 12, 10, 3, 3, 1, 1, 2, 0, V_CONTIG},
    {"kernel 5x5 over 3x4, p2", 1, 2, 2, 3, 4, 5, 5, 1, 2, 1, 0, V_CONTIG},
    {"c64->8 6x5 k3 p1", 1, 64, 8, 6, 5, 3, 3, 1, 1, 1, 0, V_CONTIG},
    {"b2 channels-last 8x6 k3 p1", 2, 3, 4, 8, 6, 3, 3, 1, 1, 1, 0, V_CHANNELS_LAST},
    {"sliced +5, kernel transposed, 7x9 k2x3 s2", 2, 3, 5, 7, 9, 2, 3, 2, 1, 1, 0, V_SLICED_KT},
    {"batch broadcast 10x6 k3 s2 out_pad 1", 3, 2, 3, 10, 6, 3, 3, 2, 1, 1, 1, V_BCAST},
    {"empty batch", 0, 3, 4, 9, 7, 3, 3, 1, 1, 1, 0, V_CONTIG},
    {"k1x3 s2 d2 p1 21x31", 1, 3, 2, 21, 31, 1, 3, 2, 1, 2, 0, V_CONTIG},
    {"c16->16 33x35 k3 p1 (many blocks)", 2, 16, 16, 33, 35, 3, 3, 1, 1, 1, 0, V_CONTIG},
    {"c80->4 301, k3 p1 (whisper-like 1-D)", 1, 80, 4, 301, 2, 3, 1, 1, 1, 1, 0, V_CHANNELS_LAST},
    /* im2col's runs fill whole blocks of both grids (conv.h for_spread_groups) */
    {"c64->1 128x128 k3 p1 (packed runs)", 1, 64, 1, 128, 128, 3, 3, 1, 1, 1, 0, V_CONTIG},
    /* libcrk's row walk over 216 rows of 37 channels with stride,
     * dilation and padding (rows not a multiple of 32, nor their 333
     * values of 16 bytes); a window of 130 taps, each run of a row ending
     * inside a window */
    {"c37->2 9x70 k3 s2 d2 p3", 1, 37, 2, 9, 70, 3, 3, 2, 3, 2, 0, V_CONTIG},
    {"c2->1 140x3 k130x1 p1 (130 taps)", 1, 2, 1, 140, 3, 130, 1, 1, 1, 1, 0, V_CONTIG},
};
#define N_CONV (sizeof CONV / sizeof CONV[0])

typedef struct {
    const char *name;
    size_t b, c, d2, d3, k2, k3, s2, s3;
    int view;
} pool_case;
static const pool_case POOL[] = {
    {"1x1x1x1 k1", 1, 1, 1, 1, 1, 1, 1, 1, V_CONTIG},
    {"2x3x8x8 k2 s2", 2, 3, 8, 8, 2, 2, 2, 2, V_CONTIG},
    {"1x2x9x7 k3 s2 (ragged edge)", 1, 2, 9, 7, 3, 3, 2, 2, V_CONTIG},
    {"1x3x10x11 k3x2 s1x3", 1, 3, 10, 11, 3, 2, 1, 3, V_CONTIG},
    {"2x4x7x9 channels-last k2 s1", 2, 4, 7, 9, 2, 2, 1, 1, V_CHANNELS_LAST},
    {"2x3x6x8 sliced +5 k3 s3", 2, 3, 6, 8, 3, 3, 3, 3, V_SLICED_KT},
    {"3x2x5x6 batch broadcast k2", 3, 2, 5, 6, 2, 2, 2, 2, V_BCAST},
    {"2x2x6x10 H/W transposed k2x3 s2", 2, 2, 6, 10, 2, 3, 2, 2, V_HW_T},
    {"empty batch", 0, 2, 4, 4, 2, 2, 2, 2, V_CONTIG},
    {"window = input 5x5", 1, 3, 5, 5, 5, 5, 1, 1, V_CONTIG},
    {"2x64x56x56 k3 s2 (many blocks)", 2, 64, 56, 56, 3, 3, 2, 2, V_CONTIG},
    /* runs that fill whole blocks of libcrk's grid (conv.h pool_rows) */
    {"2x64x112x112 k2 s2 (packed runs)", 2, 64, 112, 112, 2, 2, 2, 2, V_CONTIG},
    /* libcrk's crk_*_pool2d_rows: 16-byte loads of each window row's span
     * where the rows are 16-byte aligned, one value at a time where not */
    {"2x8x48x48 k3 s3 (runs)", 2, 8, 48, 48, 3, 3, 3, 3, V_CONTIG},
    {"1x2x6x136 k3 s2 (long rows, last run partial)", 1, 2, 6, 136, 3, 3, 2, 2, V_CONTIG},
    {"1x4x40x37 k2 s2 (rows off 16 bytes)", 1, 4, 40, 37, 2, 2, 2, 2, V_CONTIG},
};
#define N_POOL (sizeof POOL / sizeof POOL[0])

typedef struct {
    const char *name;
    size_t b, c, d2, d3, o2, o3;
    int align, has_h, has_w;
    double sh, sw; /* bilinear's scale factors, when given */
    int view;
} up_case;
static const up_case UP[] = {
    {"1x1x1x1 -> 1x1", 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, V_CONTIG},
    {"2x3x4x5 -> 8x10", 2, 3, 4, 5, 8, 10, 0, 0, 0, 0, 0, V_CONTIG},
    {"1x2x5x7 -> 11x3 align_corners", 1, 2, 5, 7, 11, 3, 1, 0, 0, 0, 0, V_CONTIG},
    {"1x2x6x6 -> 9x15 scales 1.5, 2.5", 1, 2, 6, 6, 9, 15, 0, 1, 1, 1.5, 2.5, V_CONTIG},
    /* scales that do not fit the sizes: sources past the last row and column
     * (upstream reads beyond the source; ours takes the last: ref_conv.c) */
    {"1x2x6x6 -> 9x15 scales 0.5, 0.75 (past the source)", 1, 2, 6, 6, 9, 15, 0, 1, 1, 0.5, 0.75, V_CONTIG},
    {"2x3x7x5 -> 14x10 channels-last", 2, 3, 7, 5, 14, 10, 0, 0, 0, 0, 0, V_CHANNELS_LAST},
    {"2x2x9x4 -> 3x2 (down) sliced +5", 2, 2, 9, 4, 3, 2, 0, 0, 0, 0, 0, V_SLICED_KT},
    {"3x2x3x4 -> 7x9 batch broadcast align_corners", 3, 2, 3, 4, 7, 9, 1, 0, 0, 0, 0, V_BCAST},
    {"2x2x5x6 -> 10x12 H/W transposed", 2, 2, 5, 6, 10, 12, 0, 0, 0, 0, 0, V_HW_T},
    {"empty batch", 0, 2, 3, 3, 6, 6, 0, 0, 0, 0, 0, V_CONTIG},
    {"1x1x1x8 -> 1x17 align_corners (out 1)", 1, 1, 1, 8, 1, 17, 1, 0, 0, 0, 0, V_CONTIG},
    {"1x4x32x32 -> 64x64 (many blocks)", 1, 4, 32, 32, 64, 64, 0, 0, 0, 0, 0, V_CONTIG},
    /* nearest: 2x along h takes one load a run when aligned (kernels/conv.h
     * with_pow2_scale); a misaligned source, and other scales, do not */
    {"1x2x4x8 -> 8x16 sliced +5", 1, 2, 4, 8, 8, 16, 0, 0, 0, 0, 0, V_SLICED_KT},
    {"1x3x5x9 -> 20x36 (4x)", 1, 3, 5, 9, 20, 36, 0, 0, 0, 0, 0, V_CONTIG},
    {"2x2x7x24 -> 7x24 (1x)", 2, 2, 7, 24, 7, 24, 0, 0, 0, 0, 0, V_CONTIG},
    /* nearest's runs fill whole blocks of libcrk's grid, and of Candle's from f32 up */
    {"1x64x128x128 -> 256x256 (packed runs)", 1, 64, 128, 128, 256, 256, 0, 0, 0, 0, 0, V_CONTIG},
};
#define N_UP (sizeof UP / sizeof UP[0])

/* ---------------------------------------------------------------- views */
/* A 4-D view (1-D ops: dims (b, c, l, 1)) of kind `view` over a buffer;
 * returns the elements from its pointer that it can touch (0 if empty). */
static size_t make_view(int view, size_t b, size_t c, size_t h, size_t w, ref_view *v) {
    const size_t d[4] = {b, c, h, w};
    memcpy(v->dims, d, sizeof d);
    size_t *s = v->strides;
    switch (view) {
    case V_CHANNELS_LAST: s[0] = h * w * c, s[1] = 1, s[2] = w * c, s[3] = c; break;
    case V_HW_T: s[0] = c * h * w, s[1] = h * w, s[2] = 1, s[3] = h; break;
    default: s[0] = c * h * w, s[1] = h * w, s[2] = w, s[3] = 1; break;
    }
    if (view == V_BCAST) s[0] = 0;
    size_t span = 1;
    for (int i = 0; i < 4; i++) {
        if (d[i] == 0) return 0;
        span += (d[i] - 1) * s[i];
    }
    return span;
}
/* A kernel (d0, d1, kh, kw): contiguous, or column-major (V_SLICED_KT). */
static size_t make_kernel(int view, size_t d0, size_t d1, size_t kh, size_t kw, ref_view *v) {
    make_view(V_CONTIG, d0, d1, kh, kw, v);
    if (view == V_SLICED_KT) v->strides[0] = 1, v->strides[1] = d0, v->strides[2] = d0 * d1, v->strides[3] = d0 * d1 * kh;
    return d0 * d1 * kh * kw;
}

/* Conv inputs: |x| <= 2 in steps the dtype holds, so that sums of a few
 * hundred terms stay finite and meaningful; integers: any bits (they wrap). */
static void fill_conv(suite_t *S, crk_dtype dt, unsigned char *p, size_t n) {
    const size_t sz = crk_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        if (dt == CRK_U8 || dt == CRK_U32) {
            const uint64_t r = rng_next(&S->rng);
            memcpy(p + i * sz, &r, sz);
            continue;
        }
        const double v = (double)(int)(rng_next(&S->rng) % 4097) / 1024.0 - 2.0;
        ref_cast(CRK_F64, dt, &v, p + i * sz);
    }
}

/* Candle's op of a kernel: libcrk's crk_im2col*_rows compute im2col*'s,
 * crk_*_pool2d_rows the pools', crk_upsample_bilinear2d_strips bilinear's. */
static const char *op_of(const crk_kernel_info *ki) {
    if (!strcmp(ki->op, "crk_im2col1d_rows")) return "im2col1d";
    if (!strcmp(ki->op, "crk_im2col_rows")) return "im2col";
    if (!strcmp(ki->op, "crk_avg_pool2d_rows")) return "avg_pool2d";
    if (!strcmp(ki->op, "crk_max_pool2d_rows")) return "max_pool2d";
    if (!strcmp(ki->op, "crk_upsample_bilinear2d_strips")) return "upsample_bilinear2d";
    return ki->op;
}
static int is_op(const crk_kernel_info *ki, const char *op) { return !strcmp(op_of(ki), op); }
static int op_1d(const crk_kernel_info *ki) {
    return is_op(ki, "conv1d") || is_op(ki, "conv_transpose1d") || is_op(ki, "im2col1d") || is_op(ki, "col2im1d");
}
static int transposed(const crk_kernel_info *ki) { return !strncmp(op_of(ki), "conv_transpose", 14); }

/* Output extent of a convolution (Candle's ParamsConv*D), 0 if none. */
static size_t conv_out(size_t in, size_t k, const conv_case *c) {
    const long long n = (long long)in + 2 * (long long)c->pad - (long long)(c->dil * (k - 1)) - 1;
    return n < 0 ? 0 : (size_t)(n / (long long)c->stride) + 1;
}
static size_t convt_out(size_t in, size_t k, const conv_case *c) {
    const long long n = ((long long)in - 1) * (long long)c->stride - 2 * (long long)c->pad +
                        (long long)(c->dil * (k - 1)) + (long long)c->out_pad + 1;
    return n < 0 ? 0 : (size_t)n;
}

/* ------------------------------------------------------------- running */
typedef struct {
    size_t src_span, src_off, k_span, out_el, work;
    double sc[8];
    size_t info[16], info_len, numel;
    /* libcrk's helpers: the views as layouts (src at src_off), the op's
     * arguments, and the output dims the helper must report */
    crk_layout src_l, k_l;
    crk_conv_params cp;
    size_t k_h, k_w, s_h, s_w, out_h, out_w, out_dims[6], n_out_dims;
    int align;
    const double *scale_h, *scale_w;
} launch_plan;

/* A ref_view of rank 3 or 4 as a crk_layout starting at off. */
static crk_layout layout_of(const ref_view *v, size_t rank, size_t off) {
    crk_layout l = {0};
    l.rank = rank, l.start_offset = off;
    memcpy(l.dims, v->dims, rank * sizeof(size_t)), memcpy(l.strides, v->strides, rank * sizeof(size_t));
    return l;
}

/* The kernel through libcrk's helper for its op. */
static crk_status helper(suite_t *S, const crk_kernel_info *ki, const launch_plan *P, void *out) {
    const char *op = op_of(ki);
    size_t dims[6] = {0};
    crk_status st;
    if (!strcmp(op, "col2im1d")) return crk_col2im1d(S->ctx, NULL, ki->name, &P->src_l, S->dev[0], P->cp.stride, out);
    if (!strcmp(op, "avg_pool2d") || !strcmp(op, "max_pool2d"))
        return crk_pool2d(S->ctx, NULL, ki->name, &P->src_l, S->dev[0], P->k_h, P->k_w, P->s_h, P->s_w, out);
    if (!strncmp(op, "upsample", 8))
        return crk_upsample2d(S->ctx, NULL, ki->name, &P->src_l, S->dev[0], P->out_h, P->out_w, P->align, P->scale_h,
                              P->scale_w, out);
    if (!strncmp(op, "im2col", 6))
        st = crk_im2col(S->ctx, NULL, ki->name, &P->src_l, S->dev[0], P->k_h, P->k_w, &P->cp, out, dims);
    else
        st = crk_conv(S->ctx, NULL, ki->name, &P->src_l, S->dev[0], &P->k_l, S->dev[2], &P->cp, out, dims);
    if (st == CRK_OK && memcmp(dims, P->out_dims, P->n_out_dims * sizeof(size_t))) {
        printf("FAIL %s: the helper reports output dims %zu %zu %zu %zu, want %zu %zu %zu %zu\n", ki->name, dims[0],
               dims[1], dims[2], dims[3], P->out_dims[0], P->out_dims[1], P->out_dims[2], P->out_dims[3]);
        return CRK_E_INVALID;
    }
    return st;
}

/* Uploads src (and kernel) and a poisoned output between guard zones, runs
 * the kernel under the suite's shape, and compares with want. libcrk's slot
 * then runs the raw kernel on 3 blocks of 64 (grid-stride) into the output
 * moved one element on (a dst no wide store may take whole). */
static int run_plan(suite_t *S, const crk_kernel_info *ki, const char *cname, const launch_plan *P, int has_kernel) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const size_t sz = crk_dtype_size(dt), pg = GUARD, span = (2 * pg + P->out_el + 1) * sz;
    unsigned char *src = S->host[0], *kern = S->host[3], *got = S->host[1], *want = S->host[2];
    const unsigned char poison = poison_byte(S);
    size_t shift = 0;
    memset(got, poison, span);
    if (upload(S, S->dev[0], src, (P->src_off + P->src_span) * sz) ||
        (has_kernel && upload(S, S->dev[2], kern, P->k_span * sz)) ||
        upload(S, S->dev[1], got, span))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    const void *in[2] = {(const char *)S->dev[0] + P->src_off * sz, S->dev[2]};
    const raw_launch r = {NULL, 0, 0, P->work, in, (char *)S->dev[1] + pg * sz, P->sc, NULL, 0, {0, 0, 0}, P->numel};
    raw_launch odd = r; /* 3 blocks of 64: every kernel walks its outputs grid-stride */
    odd.grid_x = 3, odd.block3[0] = 64, odd.block3[1] = odd.block3[2] = 1;
    odd.out = (char *)S->dev[1] + (pg + 1) * sz;
    crk_status st = S->shape == SHAPE_CANDLE
                        ? launch_raw_info(S, ki, &r, 1024, P->info_len ? P->info : NULL, P->info_len)
                        : helper(S, ki, P, (char *)S->dev[1] + pg * sz);
    if (st == CRK_OK && S->shape != SHAPE_CANDLE && P->out_el) { /* then the odd grid over the same output */
        if (finish(S, st, ki, cname, got, S->dev[1], span)) return 1;
        if (check_output(ki, cname, dt, got + pg * sz, want, NULL, P->out_el, poison)) return 1;
        memset(got, poison, span);
        if (upload(S, S->dev[1], got, span)) return gpu_ok(CRK_E_GPU, ki, cname), 1;
        st = launch_raw_info(S, ki, &odd, 64, P->info_len ? P->info : NULL, P->info_len);
        shift = 1;
    }
    if (finish(S, st, ki, cname, got, S->dev[1], span)) return 1;
    if (guard_bad(ki, cname, got, (pg + shift) * sz, poison)) return 1;
    return check_output(ki, cname, dt, got + (pg + shift) * sz, want, NULL, P->out_el, poison);
}

static void pack_info(launch_plan *P, const ref_view *a, const ref_view *b, size_t rank) {
    const ref_view *vs[2] = {a, b};
    P->info_len = 0;
    for (int k = 0; k < (b ? 2 : 1); k++) {
        for (size_t d = 0; d < rank; d++) P->info[P->info_len++] = vs[k]->dims[d];
        for (size_t d = 0; d < rank; d++) P->info[P->info_len++] = vs[k]->strides[d];
    }
}

int run_conv(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const conv_case *c = &CONV[lc - CASES];
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const size_t sz = crk_dtype_size(dt);
    const int one_d = op_1d(ki), rank = one_d ? 3 : 4;
    const size_t w = one_d ? 1 : c->w, kw = one_d ? 1 : c->kw;
    char cname[200];
    snprintf(cname, sizeof cname, "%s%s", c->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    launch_plan P = {0};
    unsigned char *src = S->host[0], *kern = S->host[3], *want = S->host[2];
    ref_view sv, kv;
    if (is_op(ki, "col2im1d")) { /* src (b, l_in, c_out, k) contiguous */
        const size_t l_out = (c->h - 1) * c->stride + c->kh;
        P.src_span = c->b * c->h * c->c_out * c->kh, P.src_off = c->view == V_SLICED_KT ? 5 : 0;
        fill_inputs(ki, dt, 0, src + P.src_off * sz, P.src_span, &S->rng);
        P.out_el = P.work = P.numel = c->b * c->c_out * l_out;
        const double sc[5] = {(double)l_out, (double)c->h, (double)c->c_out, (double)c->kh, (double)c->stride};
        memcpy(P.sc, sc, sizeof sc);
        ref_col2im1d(dt, src + P.src_off * sz, c->b, c->h, c->c_out, c->kh, c->stride, want);
        const size_t d[4] = {c->b, c->h, c->c_out, c->kh};
        crk_layout_contiguous(&P.src_l, 4, d);
        P.src_l.start_offset = P.src_off, P.cp.stride = c->stride;
        return run_plan(S, ki, cname, &P, 0);
    }
    P.src_off = c->view == V_SLICED_KT ? 5 : 0;
    P.src_span = make_view(c->view, c->b, c->c_in, c->h, w, &sv);
    if (one_d) sv.strides[3] = 0;
    P.numel = c->b * c->c_in * c->h * w;
    P.src_l = layout_of(&sv, (size_t)rank, P.src_off);
    P.cp = (crk_conv_params){c->stride, c->pad, c->dil, c->out_pad};
    P.k_h = c->kh, P.k_w = kw;
    if (!strncmp(op_of(ki), "im2col", 6)) {
        fill_inputs(ki, dt, 0, src + P.src_off * sz, P.src_span, &S->rng);
        pack_info(&P, &sv, NULL, (size_t)rank);
        const size_t ho = conv_out(c->h, c->kh, c), wo = one_d ? 1 : conv_out(w, kw, c);
        if (one_d) {
            const double sc[5] = {(double)ho, (double)c->kh, (double)c->stride, (double)c->pad, (double)c->dil};
            memcpy(P.sc, sc, sizeof sc);
            P.work = P.numel = c->b * ho * c->c_in; /* Candle's: a thread per (b, l, c) */
            P.out_el = P.work * c->kh;
            ref_im2col1d(dt, src + P.src_off * sz, &sv, ho, c->kh, c->stride, c->pad, c->dil, want);
            const size_t d[4] = {c->b, ho, c->c_in, c->kh};
            memcpy(P.out_dims, d, sizeof d), P.n_out_dims = 4;
        } else {
            const double sc[7] = {(double)ho, (double)wo, (double)c->kh, (double)kw, (double)c->stride,
                                  (double)c->pad, (double)c->dil};
            memcpy(P.sc, sc, sizeof sc);
            P.out_el = P.work = P.numel = c->b * ho * wo * c->c_in * c->kh * kw;
            ref_im2col(dt, src + P.src_off * sz, &sv, ho, wo, c->kh, kw, c->stride, c->pad, c->dil, want);
            const size_t d[6] = {c->b, ho, wo, c->c_in, c->kh, kw};
            memcpy(P.out_dims, d, sizeof d), P.n_out_dims = 6;
        }
        return run_plan(S, ki, cname, &P, 0);
    }
    /* the convolutions: kernel (c_out, c_in, k...) or, transposed, (c_in, c_out, k...) */
    const int tr = transposed(ki);
    P.k_span = make_kernel(c->view, tr ? c->c_in : c->c_out, tr ? c->c_out : c->c_in, c->kh, kw, &kv);
    if (one_d) kv.strides[3] = 0;
    fill_conv(S, dt, src + P.src_off * sz, P.src_span);
    fill_conv(S, dt, kern, P.k_span);
    pack_info(&P, &sv, &kv, (size_t)rank);
    const size_t ho = tr ? convt_out(c->h, c->kh, c) : conv_out(c->h, c->kh, c),
                 wo = one_d ? 1 : tr ? convt_out(w, kw, c) : conv_out(w, kw, c);
    P.out_el = P.work = c->b * c->c_out * ho * wo;
    P.k_l = layout_of(&kv, (size_t)rank, 0);
    const size_t d[4] = {c->b, c->c_out, ho, wo};
    memcpy(P.out_dims, d, sizeof d), P.n_out_dims = (size_t)rank;
    const unsigned char *s0 = src + P.src_off * sz;
    if (is_op(ki, "conv1d")) {
        const double sc[4] = {(double)ho, (double)c->stride, (double)c->pad, (double)c->dil};
        memcpy(P.sc, sc, sizeof sc);
        ref_conv1d(dt, s0, &sv, kern, &kv, ho, c->stride, c->pad, c->dil, want);
    } else if (is_op(ki, "conv2d")) {
        const double sc[5] = {(double)wo, (double)ho, (double)c->stride, (double)c->pad, (double)c->dil};
        memcpy(P.sc, sc, sizeof sc);
        ref_conv2d(dt, s0, &sv, kern, &kv, ho, wo, c->stride, c->pad, c->dil, want);
    } else if (is_op(ki, "conv_transpose1d")) {
        const double sc[5] = {(double)ho, (double)c->stride, (double)c->pad, (double)c->out_pad, (double)c->dil};
        memcpy(P.sc, sc, sizeof sc);
        ref_conv_transpose1d(dt, s0, &sv, kern, &kv, ho, c->stride, c->pad, c->dil, want);
    } else {
        const double sc[6] = {(double)wo, (double)ho, (double)c->stride, (double)c->pad, (double)c->out_pad,
                              (double)c->dil};
        memcpy(P.sc, sc, sizeof sc);
        ref_conv_transpose2d(dt, s0, &sv, kern, &kv, ho, wo, c->stride, c->pad, c->dil, want);
    }
    return run_plan(S, ki, cname, &P, 1);
}

/* A case's size for numeric --max-numel: its source's elements (the
 * emulated runs skip the cases made to fill 512 blocks of a grid, bigger by
 * design; the largest output kept, im2col's of c16->16 33x35, is 2.54 times the limit). */
size_t conv_elements(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t i = (size_t)(lc - CASES);
    if (i >= N_CONV) return 0;
    const conv_case *c = &CONV[i];
    if (is_op(ki, "col2im1d")) return c->b * c->h * c->c_out * c->kh;
    return c->b * c->c_in * c->h * (op_1d(ki) ? 1 : c->w);
}
size_t pool_elements(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    const size_t i = (size_t)(lc - CASES);
    return i < N_POOL ? POOL[i].b * POOL[i].c * POOL[i].d2 * POOL[i].d3 : 0;
}
size_t upsample_elements(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    const size_t i = (size_t)(lc - CASES);
    return i < N_UP ? UP[i].b * UP[i].c * UP[i].d2 * UP[i].d3 : 0;
}

/* A conv case applies to an op whose output it can form (Candle refuses
 * the others before launching). */
int conv_applies(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t i = (size_t)(lc - CASES);
    if (i >= N_CONV) return 0;
    const conv_case *c = &CONV[i];
    if (is_op(ki, "col2im1d")) return c->h > 0;
    size_t (*out)(size_t, size_t, const conv_case *) = transposed(ki) ? convt_out : conv_out;
    return out(c->h, c->kh, c) > 0 && (op_1d(ki) || out(c->w, c->kw, c) > 0);
}

/* The (b, c, d2, d3) source of a pool or upsample case: random values in
 * the view (sliced views start 5 elements in), its info and layout. */
static const unsigned char *image(suite_t *S, const crk_kernel_info *ki, launch_plan *P, int view, size_t b, size_t c,
                                  size_t d2, size_t d3, ref_view *sv) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    P->src_off = view == V_SLICED_KT ? 5 : 0;
    P->src_span = make_view(view, b, c, d2, d3, sv);
    unsigned char *src = S->host[0] + P->src_off * crk_dtype_size(dt);
    fill_inputs(ki, dt, 0, src, P->src_span, &S->rng);
    pack_info(P, sv, NULL, 4);
    P->src_l = layout_of(sv, 4, P->src_off);
    return src;
}

int run_pool(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const pool_case *c = &POOL[lc - CASES];
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    char cname[200];
    snprintf(cname, sizeof cname, "%s%s", c->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    launch_plan P = {0};
    ref_view sv;
    const unsigned char *src = image(S, ki, &P, c->view, c->b, c->c, c->d2, c->d3, &sv);
    const double sc[4] = {(double)c->k2, (double)c->k3, (double)c->s2, (double)c->s3};
    memcpy(P.sc, sc, sizeof sc);
    P.numel = c->b * c->c * c->d2 * c->d3;
    P.out_el = P.work = c->b * c->c * ((c->d2 - c->k2) / c->s2 + 1) * ((c->d3 - c->k3) / c->s3 + 1);
    P.k_h = c->k2, P.k_w = c->k3, P.s_h = c->s2, P.s_w = c->s3;
    if (is_op(ki, "avg_pool2d")) ref_avg_pool2d(dt, src, &sv, c->k2, c->k3, c->s2, c->s3, S->host[2]);
    else ref_max_pool2d(dt, src, &sv, c->k2, c->k3, c->s2, c->s3, S->host[2]);
    return run_plan(S, ki, cname, &P, 0);
}

int pool_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return (size_t)(lc - CASES) < N_POOL;
}

int run_upsample(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const up_case *c = &UP[lc - CASES];
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    char cname[200];
    snprintf(cname, sizeof cname, "%s%s", c->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    launch_plan P = {0};
    ref_view sv;
    const unsigned char *src = image(S, ki, &P, c->view, c->b, c->c, c->d2, c->d3, &sv);
    P.out_el = P.work = c->b * c->c * c->o2 * c->o3;
    P.out_h = c->o2, P.out_w = c->o3;
    if (!is_op(ki, "upsample_nearest2d"))
        P.align = c->align, P.scale_h = c->has_h ? &c->sh : NULL, P.scale_w = c->has_w ? &c->sw : NULL;
    if (is_op(ki, "upsample_nearest2d")) { /* Candle: "w" = dims[2], scale = in / out as f64 */
        const double s2 = (double)c->d2 / (double)c->o2, s3 = (double)c->d3 / (double)c->o3;
        const double sc[4] = {(double)c->o2, (double)c->o3, s2, s3};
        memcpy(P.sc, sc, sizeof sc);
        ref_upsample_nearest2d(dt, src, &sv, c->o2, c->o3, s2, s3, S->host[2]);
    } else { /* the real W and H: w_out = dims[3]'s */
        const double sc[7] = {(double)c->o3, (double)c->o2, c->align, c->has_h, c->sh, c->has_w, c->sw};
        memcpy(P.sc, sc, sizeof sc);
        ref_upsample_bilinear2d(dt, src, &sv, c->o2, c->o3, c->align, c->has_h, c->sh, c->has_w, c->sw, S->host[2]);
    }
    return run_plan(S, ki, cname, &P, 0);
}

int upsample_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return (size_t)(lc - CASES) < N_UP;
}
