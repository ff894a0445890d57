/* ref_conv.c — module conv (fact sheet §4.14–§4.16), written from the fact
 * sheet: each output is computed from the meaning of the op over nested
 * output coordinates, in the summation order the sheet gives (conv1d:
 * offset outer, c_in inner; conv2d: w, h, c_in; the transposed ones: k_x,
 * k_y, c_in), so that float results are bit for bit the kernels'. */
#include "ref.h"
#include "ref_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef unsigned char byte;

static const byte *at(const void *base, crk_dtype dt, const ref_view *v, size_t i0, size_t i1, size_t i2,
                      size_t i3) {
    const size_t off = i0 * v->strides[0] + i1 * v->strides[1] + i2 * v->strides[2] + i3 * v->strides[3];
    return (const byte *)base + off * ref_dtype_size(dt);
}

/* The accumulator A of T: f32 (16-bit and f32), f64, u8/u32 wrapping. */
typedef struct {
    float f;
    double d;
    uint32_t u;
} acc_t;

static void mac(crk_dtype dt, acc_t *a, const byte *x, const byte *k) {
    switch (dt) {
    case CRK_U8: a->u = (uint8_t)(a->u + (uint32_t)x[0] * k[0]); break;
    case CRK_U32: a->u = a->u + (uint32_t)refi_int_bits(dt, x) * (uint32_t)refi_int_bits(dt, k); break;
    case CRK_F64: a->d = fma(ref_value_f64(dt, x), ref_value_f64(dt, k), a->d); break;
    default: a->f = fmaf((float)ref_value_f64(dt, x), (float)ref_value_f64(dt, k), a->f); break;
    }
}

static void store(crk_dtype dt, const acc_t *a, byte *out) {
    switch (dt) {
    case CRK_U8:
    case CRK_U32: refi_store_int_bits(dt, a->u, out); break;
    case CRK_F64: refi_store_float(dt, a->d, out); break;
    default: refi_store_float(dt, (double)a->f, out); break; /* one RNE from the f32 sum */
    }
}

static byte *out_at(void *dst, crk_dtype dt, size_t i) { return (byte *)dst + i * ref_dtype_size(dt); }

void ref_conv1d(crk_dtype dt, const void *src, const ref_view *sv, const void *k, const ref_view *kv, size_t l_out,
                size_t stride, size_t padding, size_t dilation, void *dst) {
    const size_t B = sv->dims[0], c_in = sv->dims[1], l_in = sv->dims[2], c_out = kv->dims[0], K = kv->dims[2];
    size_t i = 0;
    for (size_t b = 0; b < B; b++)
        for (size_t co = 0; co < c_out; co++)
            for (size_t l = 0; l < l_out; l++, i++) {
                acc_t a = {0};
                for (size_t off = 0; off < K; off++) {
                    const size_t p = (stride * l + off) * dilation; /* upstream's quirk */
                    if (p < padding || p - padding >= l_in) continue;
                    for (size_t ci = 0; ci < c_in; ci++)
                        mac(dt, &a, at(src, dt, sv, b, ci, p - padding, 0), at(k, dt, kv, co, ci, off, 0));
                }
                store(dt, &a, out_at(dst, dt, i));
            }
}

void ref_conv2d(crk_dtype dt, const void *src, const ref_view *sv, const void *k, const ref_view *kv, size_t h_out,
                size_t w_out, size_t stride, size_t padding, size_t dilation, void *dst) {
    const size_t B = sv->dims[0], c_in = sv->dims[1], h_in = sv->dims[2], w_in = sv->dims[3];
    const size_t c_out = kv->dims[0], kh = kv->dims[2], kw = kv->dims[3];
    size_t i = 0;
    for (size_t b = 0; b < B; b++)
        for (size_t co = 0; co < c_out; co++)
            for (size_t y = 0; y < h_out; y++)
                for (size_t x = 0; x < w_out; x++, i++) {
                    acc_t a = {0};
                    for (size_t dx = 0; dx < kw; dx++) {
                        const size_t px = stride * x + dx * dilation;
                        if (px < padding || px - padding >= w_in) continue;
                        for (size_t dy = 0; dy < kh; dy++) {
                            const size_t py = stride * y + dy * dilation;
                            if (py < padding || py - padding >= h_in) continue;
                            for (size_t ci = 0; ci < c_in; ci++)
                                mac(dt, &a, at(src, dt, sv, b, ci, py - padding, px - padding),
                                    at(k, dt, kv, co, ci, dy, dx));
                        }
                    }
                    store(dt, &a, out_at(dst, dt, i));
                }
}

/* The input position feeding output o through tap t of a transposed
 * convolution: o = p·stride + t·dilation − padding; 0 if none. */
static int convt_from(size_t o, size_t t, size_t stride, size_t padding, size_t dilation, size_t n, size_t *p) {
    if (o + padding < t * dilation) return 0;
    const size_t s = o + padding - t * dilation;
    if (s % stride) return 0;
    *p = s / stride;
    return *p < n;
}

void ref_conv_transpose1d(crk_dtype dt, const void *src, const ref_view *sv, const void *k, const ref_view *kv,
                          size_t l_out, size_t stride, size_t padding, size_t dilation, void *dst) {
    const size_t B = sv->dims[0], c_in = sv->dims[1], l_in = sv->dims[2], c_out = kv->dims[1], K = kv->dims[2];
    size_t i = 0;
    for (size_t b = 0; b < B; b++)
        for (size_t co = 0; co < c_out; co++)
            for (size_t l = 0; l < l_out; l++, i++) {
                acc_t a = {0};
                for (size_t t = 0; t < K; t++) {
                    size_t p;
                    if (!convt_from(l, t, stride, padding, dilation, l_in, &p)) continue;
                    for (size_t ci = 0; ci < c_in; ci++)
                        mac(dt, &a, at(src, dt, sv, b, ci, p, 0), at(k, dt, kv, ci, co, t, 0));
                }
                store(dt, &a, out_at(dst, dt, i));
            }
}

void ref_conv_transpose2d(crk_dtype dt, const void *src, const ref_view *sv, const void *k, const ref_view *kv,
                          size_t h_out, size_t w_out, size_t stride, size_t padding, size_t dilation, void *dst) {
    const size_t B = sv->dims[0], c_in = sv->dims[1], h_in = sv->dims[2], w_in = sv->dims[3];
    const size_t c_out = kv->dims[1], kh = kv->dims[2], kw = kv->dims[3];
    size_t i = 0;
    for (size_t b = 0; b < B; b++)
        for (size_t co = 0; co < c_out; co++)
            for (size_t y = 0; y < h_out; y++)
                for (size_t x = 0; x < w_out; x++, i++) {
                    acc_t a = {0};
                    for (size_t tx = 0; tx < kw; tx++) {
                        size_t px, py;
                        if (!convt_from(x, tx, stride, padding, dilation, w_in, &px)) continue;
                        for (size_t ty = 0; ty < kh; ty++) {
                            if (!convt_from(y, ty, stride, padding, dilation, h_in, &py)) continue;
                            for (size_t ci = 0; ci < c_in; ci++)
                                mac(dt, &a, at(src, dt, sv, b, ci, py, px), at(k, dt, kv, ci, co, ty, tx));
                        }
                    }
                    store(dt, &a, out_at(dst, dt, i));
                }
}

/* One element or T's zero when p − padding falls outside [0, n). */
static void pick(crk_dtype dt, const byte *row, size_t stride, size_t p, size_t padding, size_t n, byte *out) {
    const size_t s = ref_dtype_size(dt);
    if (p < padding || p - padding >= n) memset(out, 0, s);
    else memcpy(out, row + (p - padding) * stride * s, s);
}

void ref_im2col1d(crk_dtype dt, const void *src, const ref_view *sv, size_t l_out, size_t l_k, size_t stride,
                  size_t padding, size_t dilation, void *dst) {
    const size_t B = sv->dims[0], c_in = sv->dims[1], l_in = sv->dims[2];
    size_t i = 0;
    for (size_t b = 0; b < B; b++)
        for (size_t l = 0; l < l_out; l++)
            for (size_t c = 0; c < c_in; c++)
                for (size_t t = 0; t < l_k; t++, i++)
                    pick(dt, at(src, dt, sv, b, c, 0, 0), sv->strides[2], l * stride + t * dilation, padding, l_in,
                         out_at(dst, dt, i));
}

void ref_im2col(crk_dtype dt, const void *src, const ref_view *sv, size_t h_out, size_t w_out, size_t h_k,
                size_t w_k, size_t stride, size_t padding, size_t dilation, void *dst) {
    const size_t B = sv->dims[0], c_in = sv->dims[1], h_in = sv->dims[2], w_in = sv->dims[3];
    size_t i = 0;
    for (size_t b = 0; b < B; b++)
        for (size_t y = 0; y < h_out; y++)
            for (size_t x = 0; x < w_out; x++)
                for (size_t c = 0; c < c_in; c++)
                    for (size_t ty = 0; ty < h_k; ty++)
                        for (size_t tx = 0; tx < w_k; tx++, i++) {
                            const size_t py = y * stride + ty * dilation;
                            if (py < padding || py - padding >= h_in) {
                                memset(out_at(dst, dt, i), 0, ref_dtype_size(dt));
                                continue;
                            }
                            pick(dt, at(src, dt, sv, b, c, py - padding, 0), sv->strides[3],
                                 x * stride + tx * dilation, padding, w_in, out_at(dst, dt, i));
                        }
}

void ref_col2im1d(crk_dtype dt, const void *src, size_t B, size_t l_in, size_t c_out, size_t K, size_t stride,
                  void *dst) {
    const size_t s = ref_dtype_size(dt), l_out = l_in ? (l_in - 1) * stride + K : 0;
    size_t i = 0;
    for (size_t b = 0; b < B; b++)
        for (size_t c = 0; c < c_out; c++)
            for (size_t l = 0; l < l_out; l++, i++) {
                byte *o = out_at(dst, dt, i);
                memset(o, 0, s);
                /* input positions from l/stride down: taps l − p·stride up */
                for (size_t p = l / stride + 1; p-- > 0;) {
                    const size_t t = l - p * stride;
                    if (t >= K) break;
                    if (p < l_in) ref_binary("add", dt, o, (const byte *)src + (((b * l_in + p) * c_out + c) * K + t) * s, o);
                }
            }
}

static size_t pool_out(size_t n, size_t k, size_t s) { return (n - k) / s + 1; }

void ref_avg_pool2d(crk_dtype dt, const void *src, const ref_view *sv, size_t k2, size_t k3, size_t s2, size_t s3,
                    void *dst) {
    const size_t o2 = pool_out(sv->dims[2], k2, s2), o3 = pool_out(sv->dims[3], k3, s3);
    const float scale = (float)(1.0 / (double)(k2 * k3));
    size_t i = 0;
    for (size_t b = 0; b < sv->dims[0]; b++)
        for (size_t c = 0; c < sv->dims[1]; c++)
            for (size_t y = 0; y < o2; y++)
                for (size_t x = 0; x < o3; x++, i++) {
                    float f = 0, r;
                    double d = 0;
                    uint32_t u = 0;
                    for (size_t ty = 0; ty < k2; ty++)
                        for (size_t tx = 0; tx < k3; tx++) {
                            const byte *e = at(src, dt, sv, b, c, y * s2 + ty, x * s3 + tx);
                            if (dt == CRK_U8) u = (uint8_t)(u + e[0]);
                            else if (dt == CRK_U32) u += (uint32_t)refi_int_bits(dt, e);
                            else if (dt == CRK_F64) d += ref_value_f64(dt, e);
                            else f += (float)ref_value_f64(dt, e);
                        }
                    byte *o = out_at(dst, dt, i);
                    if (dt == CRK_F64) {
                        refi_store_float(dt, d * (double)scale, o);
                        continue;
                    }
                    r = (dt == CRK_U8 || dt == CRK_U32 ? (float)u : f) * scale;
                    ref_cast(CRK_F32, dt, &r, o); /* u8/u32: truncate (in range); 16-bit: RNE */
                }
}

void ref_max_pool2d(crk_dtype dt, const void *src, const ref_view *sv, size_t k2, size_t k3, size_t s2, size_t s3,
                    void *dst) {
    const size_t o2 = pool_out(sv->dims[2], k2, s2), o3 = pool_out(sv->dims[3], k3, s3), s = ref_dtype_size(dt);
    size_t i = 0;
    for (size_t b = 0; b < sv->dims[0]; b++)
        for (size_t c = 0; c < sv->dims[1]; c++)
            for (size_t y = 0; y < o2; y++)
                for (size_t x = 0; x < o3; x++, i++) {
                    byte *o = out_at(dst, dt, i);
                    memcpy(o, at(src, dt, sv, b, c, y * s2, x * s3), s);
                    for (size_t ty = 0; ty < k2; ty++)
                        for (size_t tx = 0; tx < k3; tx++)
                            if (ty || tx) ref_binary("maximum", dt, o, at(src, dt, sv, b, c, y * s2 + ty, x * s3 + tx), o);
                }
}

static size_t nearest(size_t i, double scale, size_t n) {
    const size_t p = (size_t)((double)i * scale);
    return p < n ? p : n - 1;
}

void ref_upsample_nearest2d(crk_dtype dt, const void *src, const ref_view *sv, size_t o2, size_t o3, double scale2,
                            double scale3, void *dst) {
    size_t i = 0;
    for (size_t b = 0; b < sv->dims[0]; b++)
        for (size_t c = 0; c < sv->dims[1]; c++)
            for (size_t y = 0; y < o2; y++)
                for (size_t x = 0; x < o3; x++, i++)
                    memcpy(out_at(dst, dt, i),
                           at(src, dt, sv, b, c, nearest(y, scale2, sv->dims[2]), nearest(x, scale3, sv->dims[3])),
                           ref_dtype_size(dt));
}

/* PyTorch's area_pixel_compute_scale / source index for linear modes. */
static double lin_scale(size_t in, size_t out, int align_corners, int has_scale, double factor) {
    if (align_corners) return out > 1 ? (double)(in - 1) / (double)(out - 1) : 0.0;
    return has_scale ? 1.0 / factor : (double)in / (double)out;
}
static void lin_src(size_t o, size_t in, double scale, int align_corners, size_t *i0, size_t *i1, double *l1) {
    double s = align_corners ? scale * (double)o : fma(scale, (double)o + 0.5, -0.5);
    if (s < 0) s = 0;
    *i0 = (size_t)floor(s < 0x1p52 ? s : 0x1p52); /* NaN: 2^52 */
    const double l = s - (double)*i0;
    *l1 = l < 0 ? 0 : l > 1 ? 1 : l;
    if (*i0 > in - 1) *i0 = in - 1, *l1 = 1; /* past the last source, or NaN: its value (upstream reads past it) */
    *i1 = *i0 + 1 < in ? *i0 + 1 : in - 1;
}

void ref_upsample_bilinear2d(crk_dtype dt, const void *src, const ref_view *sv, size_t h_out, size_t w_out,
                             int align_corners, int has_scale_h, double scale_h, int has_scale_w, double scale_w,
                             void *dst) {
    const size_t h_in = sv->dims[2], w_in = sv->dims[3];
    const double sh = lin_scale(h_in, h_out, align_corners, has_scale_h, scale_h),
                 sw = lin_scale(w_in, w_out, align_corners, has_scale_w, scale_w);
    size_t i = 0;
    for (size_t b = 0; b < sv->dims[0]; b++)
        for (size_t c = 0; c < sv->dims[1]; c++)
            for (size_t y = 0; y < h_out; y++)
                for (size_t x = 0; x < w_out; x++, i++) {
                    size_t y0, y1, x0, x1;
                    double ly, lx;
                    lin_src(y, h_in, sh, align_corners, &y0, &y1, &ly);
                    lin_src(x, w_in, sw, align_corners, &x0, &x1, &lx);
                    const double v00 = ref_value_f64(dt, at(src, dt, sv, b, c, y0, x0)),
                                 v01 = ref_value_f64(dt, at(src, dt, sv, b, c, y0, x1)),
                                 v10 = ref_value_f64(dt, at(src, dt, sv, b, c, y1, x0)),
                                 v11 = ref_value_f64(dt, at(src, dt, sv, b, c, y1, x1));
                    /* rows along w, then the two rows along h */
                    const double top = fma(v00, 1.0 - lx, v01 * lx), bot = fma(v10, 1.0 - lx, v11 * lx);
                    const double v = fma(top, 1.0 - ly, bot * ly);
                    ref_cast(CRK_F64, dt, &v, out_at(dst, dt, i)); /* ints: truncate, saturate */
                }
}
