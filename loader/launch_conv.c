/* launch_conv.c — libcrk's helpers of module conv (fact sheet §4.14–§4.16):
 * crk_conv, crk_im2col, crk_col2im1d, crk_pool2d and crk_upsample2d. Each
 * checks what Candle's host code checks (ranks, channels, a kernel that
 * fits), sizes the output as Candle's ParamsConv*D do, packs the info
 * buffer from the views (start offsets applied to the pointers) and
 * launches a thread an output element in the registry's blocks
 * (crk_launch_items), except where the kernel writes runs
 * (upsample_nearest2d): a thread a run, as the kernels take any grid (a
 * thread an element left 7 of 8 f16 threads idle: H200 upsample f16 598
 * -> 1700 GB/s). crk_im2col launches libcrk's crk_im2col*_rows kernel of
 * the dtype: a thread 8 runs of its row; crk_pool2d crk_*_pool2d_rows: a
 * thread a run of 16 bytes of outputs. */
#include "error.h"
#include "launch.h"
#include <stdio.h>
#include <string.h>

/* The kernel, checked to be one of `ops` (NULL-terminated) of family fam. */
static const crk_kernel_info *conv_kernel(crk_ctx *ctx, const char *name, crk_family fam, const char *const *ops,
                                          const char *helper, crk_status *st) {
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, fam, st);
    if (!ki) return NULL;
    for (const char *const *o = ops; *o; o++)
        if (!strcmp(ki->op, *o)) return ki;
    *st = crk_fail(CRK_E_INVALID, "%s: a %s kernel, not one %s launches (%s)", name, ki->op, helper,
                   fam == CRK_FAMILY_CONV ? "crk_conv: conv*, crk_im2col: im2col*, crk_col2im1d: col2im1d"
                                          : "see include/crk.h");
    return NULL;
}

/* A checked view of the given rank; *numel gets its element count. */
static crk_status view(const char *name, const char *what, const crk_layout *l, size_t rank, const char *dims,
                       size_t *numel) {
    crk_status st = crk_check_layout(name, what, l, numel);
    if (st != CRK_OK) return st;
    if (l->rank != rank)
        return crk_fail(CRK_E_INVALID, "%s: %s has rank %zu; it takes %s", name, what, l->rank, dims);
    for (size_t d = 0; d < rank; d++)
        if ((st = crk_size_exact(name, what, l->dims[d])) != CRK_OK) return st;
    return CRK_OK;
}

/* [dims, strides] of each view, in order. */
static size_t pack_views(const crk_layout *a, const crk_layout *b, size_t *info) {
    size_t n = 0;
    const crk_layout *ls[2] = {a, b};
    for (int k = 0; k < 2 && ls[k]; k++) {
        memcpy(info + n, ls[k]->dims, ls[k]->rank * sizeof(size_t)), n += ls[k]->rank;
        memcpy(info + n, ls[k]->strides, ls[k]->rank * sizeof(size_t)), n += ls[k]->rank;
    }
    return n;
}

/* The scalars packed, then a thread an item. */
static crk_status launch(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info, size_t info_len,
                         arg_pack *a, const double *sc, unsigned nsc, size_t work) {
    crk_status st = crk_pack_args(ki, a, sc, nsc, NULL);
    return st != CRK_OK ? st : crk_launch_items(ctx, s, ki, info, info_len, a, work);
}

/* libcrk's own kernel crk_<own>_<dtype of ki> that a helper launches for
 * Candle's kernel ki (the same values), or NULL with *st set. */
static const crk_kernel_info *own_kernel(const char *name, const crk_kernel_info *ki, const char *own,
                                         crk_status *st) {
    char own_name[64];
    snprintf(own_name, sizeof own_name, "crk_%s_%s", own, crk_dtype_name((crk_dtype)crk_operand_dtype(ki, 0)));
    const crk_kernel_info *rk = crk_kernel_find(own_name);
    if (!rk) *st = crk_fail(CRK_E_NOT_FOUND, "%s: libcrk's %s is missing from the registry", name, own_name);
    return rk;
}

/* The runs of up to `elems` elements that rows of `inner` elements take,
 * rows·ceil(inner / elems), as the kernels split them (kernels/conv.h:
 * upsample_nearest2d's 32 bytes but 16 u8, the pools' runs). */
static size_t runs_of(size_t rows, size_t inner, size_t elems) {
    return rows * ((inner + elems - 1) / elems);
}

/* The threads of crk_im2col*_rows for n elements in rows of `row`, runs of
 * `elems` (kernels/conv.h unfold_rows: warps of 4 runs of 8 rows, each
 * thread up to 8 blocks of 4 runs of its row): 8 blocks a thread where
 * that leaves two waves of 1024 threads an SM (the kernel's 64 registers),
 * else as few as fill them; the kernel takes M from the grid. */
static size_t unfold_row_slots(const crk_ctx *ctx, size_t n, size_t row, size_t elems) {
    const size_t rows = (n + row - 1) / row, blocks = ((row + elems - 1) / elems + 3) / 4, lg = (rows + 7) / 8;
    const size_t fill = ctx->gpu.sm_count > 0 ? (size_t)ctx->gpu.sm_count * 2048 : 1 << 18;
    size_t m = 8;
    while (m > 1 && lg * ((blocks + m - 1) / m) * 32 < fill) m /= 2;
    return lg * ((blocks + m - 1) / m) * 32;
}

/* out = a · b · ..., refused on overflow. */
static crk_status product(const char *name, const size_t *f, size_t n, size_t *out) {
    *out = 1;
    for (size_t i = 0; i < n; i++)
        if (__builtin_mul_overflow(*out, f[i], out))
            return crk_fail(CRK_E_INVALID, "%s: the output's element count overflows", name);
    return crk_size_exact(name, "the output's element count", *out);
}

static crk_status params_ok(const char *name, const crk_conv_params *p) {
    if (!p) return crk_fail(CRK_E_INVALID, "%s: params is NULL", name);
    if (p->stride == 0 || p->dilation == 0)
        return crk_fail(CRK_E_INVALID, "%s: stride %zu and dilation %zu must be at least 1", name, p->stride,
                        p->dilation);
    crk_status st;
    if ((st = crk_size_exact(name, "stride", p->stride)) || (st = crk_size_exact(name, "padding", p->padding)) ||
        (st = crk_size_exact(name, "dilation", p->dilation)) || (st = crk_size_exact(name, "output_padding", p->output_padding)))
        return st;
    return CRK_OK;
}

/* Candle's ParamsConv*D: (in + 2·padding − dilation·(k − 1) − 1)/stride + 1,
 * an error when the dilated kernel does not fit the padded input. */
static crk_status conv_extent(const char *name, size_t in, size_t k, const crk_conv_params *p, size_t *out) {
    const unsigned __int128 span = (unsigned __int128)p->dilation * (k ? k - 1 : 0) + 1,
                            room = (unsigned __int128)in + 2 * (unsigned __int128)p->padding;
    if (k == 0 || room < span)
        return crk_fail(CRK_E_INVALID,
                        "%s: a kernel of %zu (dilation %zu) does not fit an input of %zu with padding %zu; "
                        "pad more or use a smaller kernel",
                        name, k, p->dilation, in, p->padding);
    *out = (size_t)((room - span) / p->stride) + 1;
    return crk_size_exact(name, "an output extent", *out);
}

/* Candle's ParamsConvTranspose*D: (in − 1)·stride + dilation·(k − 1) +
 * output_padding + 1 − 2·padding. */
static crk_status convt_extent(const char *name, size_t in, size_t k, const crk_conv_params *p, size_t *out) {
    const unsigned __int128 full = (unsigned __int128)(in ? in - 1 : 0) * p->stride +
                                   (unsigned __int128)p->dilation * (k ? k - 1 : 0) + p->output_padding + 1;
    if (in == 0 || k == 0 || full <= 2 * (unsigned __int128)p->padding)
        return crk_fail(CRK_E_INVALID, "%s: input %zu, kernel %zu and padding %zu leave no output", name, in, k,
                        p->padding);
    *out = (size_t)(full - 2 * (unsigned __int128)p->padding);
    return crk_size_exact(name, "an output extent", *out);
}

crk_status crk_conv(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                    const crk_layout *k_l, const void *kernel, const crk_conv_params *p, void *dst,
                    size_t *out_dims) {
    static const char *const ops[] = {"conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", NULL};
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = conv_kernel(ctx, name, CRK_FAMILY_CONV, ops, "crk_conv", &st);
    if (!ki) return st;
    const int tr = !strncmp(ki->op, "conv_transpose", 14), two = ki->op[strlen(ki->op) - 2] == '2';
    const size_t rank = two ? 4 : 3;
    size_t src_el, k_el;
    if ((st = params_ok(name, p)) ||
        (st = view(name, "src", src_l, rank, two ? "(b, c_in, h, w)" : "(b, c_in, l)", &src_el)) ||
        (st = view(name, "kernel", k_l, rank,
                   tr ? (two ? "(c_in, c_out, k_h, k_w)" : "(c_in, c_out, k)")
                      : (two ? "(c_out, c_in, k_h, k_w)" : "(c_out, c_in, k)"),
                   &k_el)))
        return st;
    const size_t c_in = src_l->dims[1], k_cin = k_l->dims[tr ? 0 : 1], c_out = k_l->dims[tr ? 1 : 0];
    if (k_cin != c_in)
        return crk_fail(CRK_E_INVALID, "%s: src has %zu channels, the kernel's dim %d is %zu: they must match", name,
                        c_in, tr ? 0 : 1, k_cin);
    size_t dims[4] = {src_l->dims[0], c_out, 0, 1};
    for (size_t d = 2; d < rank; d++)
        if ((st = (tr ? convt_extent : conv_extent)(name, src_l->dims[d], k_l->dims[d], p, &dims[d])) != CRK_OK)
            return st;
    if (out_dims) memcpy(out_dims, dims, rank * sizeof(size_t));
    arg_pack a = {.out = dst, .numel = src_el};
    size_t n;
    if ((st = product(name, dims, rank, &n)) != CRK_OK) return st;
    if (n == 0) return CRK_OK;
    if ((st = crk_need_ptr(name, "src", src)) || (st = crk_need_ptr(name, "kernel", kernel)) ||
        (st = crk_need_ptr(name, "dst", dst)) ||
        (st = crk_offset_ptr(name, "src", src, src_l->start_offset, crk_operand_dtype(ki, 0), &a.in[0])) ||
        (st = crk_offset_ptr(name, "kernel", kernel, k_l->start_offset, crk_operand_dtype(ki, 1), &a.in[1])))
        return st;
    size_t info[16];
    const size_t len = pack_views(src_l, k_l, info);
    /* scalars in the kernel's order: conv1d (l_out, stride, padding,
     * dilation), conv2d (w_out, h_out, ...), transposed with output_padding
     * before dilation */
    double sc[6];
    unsigned k = 0;
    if (two) sc[k++] = (double)dims[3], sc[k++] = (double)dims[2];
    else sc[k++] = (double)dims[2];
    sc[k++] = (double)p->stride, sc[k++] = (double)p->padding;
    if (tr) sc[k++] = (double)p->output_padding;
    sc[k++] = (double)p->dilation;
    return launch(ctx, s, ki, info, len, &a, sc, k, n);
}

crk_status crk_im2col(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                      size_t k_h, size_t k_w, const crk_conv_params *p, void *dst, size_t *out_dims) {
    static const char *const ops[] = {"im2col1d", "im2col", "crk_im2col1d_rows", "crk_im2col_rows", NULL};
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = conv_kernel(ctx, name, CRK_FAMILY_CONV, ops, "crk_im2col", &st);
    if (!ki) return st;
    const int one = strstr(ki->op, "im2col1d") != NULL;
    const size_t rank = one ? 3 : 4;
    size_t src_el, h_out, w_out = 1;
    if ((st = params_ok(name, p)) ||
        (st = view(name, "src", src_l, rank, one ? "(b, c_in, l)" : "(b, c_in, h, w)", &src_el)) ||
        (st = crk_size_exact(name, "k_h", k_h)) || (st = crk_size_exact(name, "k_w", k_w)) ||
        (st = conv_extent(name, src_l->dims[2], k_h, p, &h_out)) ||
        (!one && (st = conv_extent(name, src_l->dims[3], k_w, p, &w_out))))
        return st;
    const size_t b = src_l->dims[0], c = src_l->dims[1];
    /* dst (b, l_out, c_in, k) / (b, h_out, w_out, c_in, k_h, k_w) */
    const size_t d1[4] = {b, h_out, c, k_h}, d2[6] = {b, h_out, w_out, c, k_h, k_w};
    if (out_dims) memcpy(out_dims, one ? d1 : d2, (one ? 4 : 6) * sizeof(size_t));
    size_t n, rows;
    if ((st = product(name, one ? d1 : d2, one ? 4 : 6, &n)) || (st = product(name, d1, 3, &rows))) return st;
    if (n == 0) return CRK_OK;
    arg_pack a = {.out = dst, .numel = one ? rows : n}; /* im2col1d: Candle's dst_numel, b·l_out·c_in */
    if ((st = crk_need_ptr(name, "src", src)) || (st = crk_need_ptr(name, "dst", dst)) ||
        (st = crk_offset_ptr(name, "src", src, src_l->start_offset, crk_operand_dtype(ki, 0), &a.in[0])))
        return st;
    size_t info[8];
    const size_t len = pack_views(src_l, NULL, info);
    const double s1[5] = {(double)h_out, (double)k_h, (double)p->stride, (double)p->padding, (double)p->dilation},
                 s2[7] = {(double)h_out, (double)w_out, (double)k_h, (double)k_w, (double)p->stride,
                          (double)p->padding, (double)p->dilation};
    /* Candle's kernel's elements through libcrk's row walk of the same
     * parameters (a thread 8 runs of its row; kernels/conv.h unfold_rows) */
    const crk_kernel_info *rk = own_kernel(name, ki, one ? "im2col1d_rows" : "im2col_rows", &st);
    if (!rk) return st;
    const size_t size = crk_dtype_size((crk_dtype)crk_operand_dtype(ki, 0)), elems = size == 1 ? 8 : 16 / size;
    return launch(ctx, s, rk, info, len, &a, one ? s1 : s2, one ? 5 : 7,
                  unfold_row_slots(ctx, n, c * k_h * (one ? 1 : k_w), elems));
}

crk_status crk_col2im1d(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                        size_t stride, void *dst) {
    static const char *const ops[] = {"col2im1d", NULL};
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = conv_kernel(ctx, name, CRK_FAMILY_CONV, ops, "crk_col2im1d", &st);
    if (!ki) return st;
    size_t src_el;
    if ((st = view(name, "src", src_l, 4, "(b, l_in, c_out, k)", &src_el)) || (st = crk_size_exact(name, "stride", stride)))
        return st;
    if (!crk_layout_is_contiguous(src_l))
        return crk_fail(CRK_E_INVALID, "%s: src must be contiguous (make it contiguous first, e.g. with ucopy_*)",
                        name);
    if (stride == 0) return crk_fail(CRK_E_INVALID, "%s: stride must be at least 1", name);
    const size_t b = src_l->dims[0], l_in = src_l->dims[1], c_out = src_l->dims[2], k = src_l->dims[3];
    if (l_in == 0 || k == 0) return CRK_OK; /* nothing to fold (Candle: l_out from l_in - 1) */
    size_t l_out, n;
    if (__builtin_mul_overflow(l_in - 1, stride, &l_out) || __builtin_add_overflow(l_out, k, &l_out))
        return crk_fail(CRK_E_INVALID, "%s: the output length overflows", name);
    const size_t dims[3] = {b, c_out, l_out};
    if ((st = product(name, dims, 3, &n)) != CRK_OK) return st;
    if (n == 0) return CRK_OK;
    arg_pack a = {.out = dst, .numel = n};
    if ((st = crk_need_ptr(name, "src", src)) || (st = crk_need_ptr(name, "dst", dst)) ||
        (st = crk_offset_ptr(name, "src", src, src_l->start_offset, crk_operand_dtype(ki, 0), &a.in[0])))
        return st;
    const double sc[5] = {(double)l_out, (double)l_in, (double)c_out, (double)k, (double)stride};
    return launch(ctx, s, ki, NULL, 0, &a, sc, 5, n);
}

crk_status crk_pool2d(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                      size_t k_h, size_t k_w, size_t s_h, size_t s_w, void *dst) {
    static const char *const ops[] = {"avg_pool2d", "max_pool2d", "crk_avg_pool2d_rows", "crk_max_pool2d_rows", NULL};
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = conv_kernel(ctx, name, CRK_FAMILY_POOL, ops, "crk_pool2d", &st);
    if (!ki) return st;
    size_t src_el, n;
    if ((st = view(name, "src", src_l, 4, "(b, c, h, w)", &src_el)) || (st = crk_size_exact(name, "k_h", k_h)) ||
        (st = crk_size_exact(name, "k_w", k_w)) || (st = crk_size_exact(name, "s_h", s_h)) || (st = crk_size_exact(name, "s_w", s_w)))
        return st;
    const size_t h = src_l->dims[2], w = src_l->dims[3];
    if (k_h == 0 || k_w == 0 || s_h == 0 || s_w == 0)
        return crk_fail(CRK_E_INVALID, "%s: kernel %zux%zu and stride %zux%zu must be at least 1", name, k_h, k_w,
                        s_h, s_w);
    if (k_h > h || k_w > w)
        return crk_fail(CRK_E_INVALID, "%s: a %zux%zu window does not fit a %zux%zu input (pools take no padding)",
                        name, k_h, k_w, h, w);
    const size_t dims[4] = {src_l->dims[0], src_l->dims[1], (h - k_h) / s_h + 1, (w - k_w) / s_w + 1};
    if ((st = product(name, dims, 4, &n)) != CRK_OK) return st;
    if (n == 0) return CRK_OK;
    arg_pack a = {.out = dst, .numel = src_el};
    if ((st = crk_need_ptr(name, "src", src)) || (st = crk_need_ptr(name, "dst", dst)) ||
        (st = crk_offset_ptr(name, "src", src, src_l->start_offset, crk_operand_dtype(ki, 0), &a.in[0])))
        return st;
    size_t info[8];
    const size_t len = pack_views(src_l, NULL, info);
    /* the kernels' "w" is dims[2]: (w_k, h_k, w_stride, h_stride) = (k_h, k_w, s_h, s_w) */
    const double sc[4] = {(double)k_h, (double)k_w, (double)s_h, (double)s_w};
    /* Candle's kernel's outputs through libcrk's crk_*_pool2d_rows of the
     * dtype (kernels/conv.h pool_rows): a thread 16 bytes of outputs (8 u8)
     * along dims[3] for square 2x2 s2, 3x3 s2 and 3x3 s3 windows over a
     * source contiguous along dims[3], else two outputs (pool_each; on AMD
     * the 16-bit and u8 pools too, kPoolRows) */
    const crk_kernel_info *rk = own_kernel(name, ki, strstr(ki->op, "avg") ? "avg_pool2d_rows" : "max_pool2d_rows", &st);
    if (!rk) return st;
    const size_t size = crk_dtype_size((crk_dtype)crk_operand_dtype(ki, 0));
    const int amd = !strcmp(ctx->gpu.image_kind, "amdgpu");
    const int runs = src_l->strides[3] == 1 && k_h == k_w && ((k_h == 2 && s_w == 2) || (k_h == 3 && (s_w == 2 || s_w == 3))) &&
                     (!amd || size >= 4);
    const size_t elems = runs ? (size == 1 ? 8 : 16 / size) : 2;
    return launch(ctx, s, rk, info, len, &a, sc, 4, runs_of(dims[0] * dims[1] * dims[2], dims[3], elems));
}

crk_status crk_upsample2d(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                          size_t out_h, size_t out_w, int align_corners, const double *scale_h,
                          const double *scale_w, void *dst) {
    static const char *const ops[] = {"upsample_nearest2d", "upsample_bilinear2d", "crk_upsample_bilinear2d_strips",
                                      NULL};
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = conv_kernel(ctx, name, CRK_FAMILY_UPSAMPLE, ops, "crk_upsample2d", &st);
    if (!ki) return st;
    const int nearest = !strcmp(ki->op, "upsample_nearest2d");
    size_t src_el, n;
    if ((st = view(name, "src", src_l, 4, "(b, c, h, w)", &src_el)) || (st = crk_size_exact(name, "out_h", out_h)) ||
        (st = crk_size_exact(name, "out_w", out_w)))
        return st;
    if (nearest && (align_corners || scale_h || scale_w))
        return crk_fail(CRK_E_INVALID, "%s: nearest takes no align_corners or scale factors (pass 0, NULL, NULL)",
                        name);
    if ((scale_h && !(*scale_h > 0)) || (scale_w && !(*scale_w > 0)))
        return crk_fail(CRK_E_INVALID, "%s: a scale factor must be positive", name);
    const size_t dims[4] = {src_l->dims[0], src_l->dims[1], out_h, out_w};
    if ((st = product(name, dims, 4, &n)) != CRK_OK) return st;
    if (n == 0) return CRK_OK;
    if (src_l->dims[2] == 0 || src_l->dims[3] == 0)
        return crk_fail(CRK_E_INVALID, "%s: an empty %zux%zu input has nothing to sample for %zux%zu", name,
                        src_l->dims[2], src_l->dims[3], out_h, out_w);
    arg_pack a = {.out = dst};
    if ((st = crk_need_ptr(name, "src", src)) || (st = crk_need_ptr(name, "dst", dst)) ||
        (st = crk_offset_ptr(name, "src", src, src_l->start_offset, crk_operand_dtype(ki, 0), &a.in[0])))
        return st;
    size_t info[8];
    const size_t len = pack_views(src_l, NULL, info);
    /* nearest: Candle's (w_out, h_out, w_scale, h_scale) with "w" = dims[2];
     * bilinear: the real (w_out, h_out), then PyTorch's options */
    const double sn[4] = {(double)out_h, (double)out_w, (double)src_l->dims[2] / (double)out_h,
                          (double)src_l->dims[3] / (double)out_w},
                 sb[7] = {(double)out_w, (double)out_h, align_corners ? 1 : 0, scale_h ? 1 : 0,
                          scale_h ? *scale_h : 0, scale_w ? 1 : 0, scale_w ? *scale_w : 0};
    /* a thread a run along out_w of 32 bytes, 16 for u8 and bilinear's
     * 16-bit types (kernels/conv.h, UpsampleRun and BilinearRun) */
    const size_t ts = crk_dtype_size((crk_dtype)crk_operand_dtype(ki, 0)),
                 runs = runs_of(dims[0] * dims[1] * out_h, out_w, (ts == 1 || (!nearest && ts == 2) ? 16 : 32) / ts);
    if (nearest) return launch(ctx, s, ki, info, len, &a, sn, 4, runs);
    /* Candle's kernel's outputs through libcrk's
     * crk_upsample_bilinear2d_strips: a thread a strip of 4 columns (f64: 2)
     * down 8 rows (kernels/conv.h StripCols, kStripRows); gfx9-generic's
     * objects take bilinear's runs (kBilinearStrips) */
    const crk_kernel_info *sk = own_kernel(name, ki, "upsample_bilinear2d_strips", &st);
    if (!sk) return st;
    const size_t work = strncmp(ctx->code_object_target, "gfx9-generic", 12)
                            ? runs_of(dims[0] * dims[1] * ((out_h + 7) / 8), out_w, ts == 8 ? 2 : 4)
                            : runs;
    return launch(ctx, s, sk, info, len, &a, sb, 7, work);
}
