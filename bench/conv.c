/* conv.c — the rows of module conv (issue 15): im2col1d and im2col (the
 * unfold before Candle's conv matmul, at Whisper's and Stable Diffusion's
 * shapes), max/avg_pool2d, upsample_nearest2d/bilinear2d, and the direct
 * conv1d/conv2d kernels (Candle's fallback when cuDNN cannot take the
 * weights): cases, data, bytes, Candle's launch (for_num_elems(dst_el);
 * im2col1d: b·l_out·c_in), libcrk's helper and a CPU check of sampled
 * outputs. Values are a function of the element's index (multiples of 1/4
 * and 1/8 in [-2, 2]: exact in every dtype, and every conv sum is exact in
 * f32), so a check recomputes them instead of keeping inputs on the host. */
#include "bench.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {b, c, h, w, c_out, kh, kw, stride, pad, dil, out_h, out_w}; 1-D: h = 1,
 * w = the length, kw = the kernel size. */
static const conv_case WHISPER1 = {1, 80, 1, 3000, 384, 1, 3, 1, 1, 1, 0, 0};   /* conv1: mel frames */
static const conv_case WHISPER2 = {1, 1280, 1, 3000, 0, 1, 3, 2, 1, 1, 0, 0};   /* large-v3's conv2 */
static const conv_case SD64 = {2, 320, 64, 64, 0, 3, 3, 1, 1, 1, 0, 0};          /* UNet 64x64 block */
static const conv_case VAE256 = {1, 128, 256, 256, 0, 3, 3, 1, 1, 1, 0, 0};      /* VAE decoder, 256^2 */
static const conv_case RESNET56 = {1, 64, 56, 56, 64, 3, 3, 1, 1, 1, 0, 0};       /* conv2d direct */
static const conv_case POOL2 = {8, 64, 112, 112, 0, 2, 2, 2, 0, 1, 0, 0};
static const conv_case POOL3 = {8, 64, 112, 112, 0, 3, 3, 2, 0, 1, 0, 0};
static const conv_case UP32 = {2, 1280, 32, 32, 0, 0, 0, 1, 0, 1, 64, 64};     /* SD UNet up blocks */
static const conv_case UP64 = {2, 640, 64, 64, 0, 0, 0, 1, 0, 1, 128, 128};
/* tiny (emulator): the same kinds, a few thousand elements */
static const conv_case T1D = {2, 5, 1, 40, 3, 1, 3, 2, 1, 1, 0, 0};
static const conv_case T2D = {2, 4, 9, 11, 3, 3, 3, 1, 1, 1, 0, 0};
static const conv_case TPOOL = {2, 3, 12, 10, 0, 3, 3, 2, 0, 1, 0, 0};
static const conv_case TUP = {2, 3, 5, 7, 0, 0, 0, 1, 0, 1, 10, 13};

#define N_OF(a) (sizeof a / sizeof a[0])
#define CASE(label, cc) {label, 0, 0, 0, 0, 0, &cc}
static const idx_case IM2COL1D[] = {CASE("whisper 80x3000 k3", WHISPER1), CASE("whisper 1280x3000 k3 s2", WHISPER2)};
static const idx_case IM2COL[] = {CASE("2x320x64x64 k3", SD64), CASE("128x256x256 k3", VAE256)};
static const idx_case POOL[] = {CASE("8x64x112x112 k2 s2", POOL2), CASE("8x64x112x112 k3 s2", POOL3)};
static const idx_case UPS[] = {CASE("2x1280x32x32 ->64x64", UP32), CASE("2x640x64x64 ->128x128", UP64)};
static const idx_case CONV1D[] = {CASE("whisper 80x3000 k3 ->384", WHISPER1)};
static const idx_case CONV2D[] = {CASE("64x56x56 k3 ->64", RESNET56)};
static const idx_case T1D_CASES[] = {CASE("2x5x40 k3 s2", T1D)};
static const idx_case T2D_CASES[] = {CASE("2x4x9x11 k3", T2D)};
static const idx_case TPOOL_CASES[] = {CASE("2x3x12x10 k3 s2", TPOOL)};
static const idx_case TUP_CASES[] = {CASE("2x3x5x7 ->10x13", TUP)};

static int one_d(const op_def *op) { return strstr(op->kernel, "1d_") != NULL; }
static int is_op(const op_def *op, const char *prefix) { return !strncmp(op->kernel, prefix, strlen(prefix)); }
static crk_dtype dt_of(const op_def *op) { return op->out_dt; } /* every conv kernel: dst's dtype = src's */

const idx_case *conv_cases(const op_def *op, int tiny, size_t *count) {
#define PICK(F, T) return *count = tiny ? N_OF(T) : N_OF(F), tiny ? T : F
    switch (op->family) {
    case F_IM2COL:
        if (one_d(op)) PICK(IM2COL1D, T1D_CASES);
        PICK(IM2COL, T2D_CASES);
    case F_POOL: PICK(POOL, TPOOL_CASES);
    case F_UPSAMPLE: PICK(UPS, TUP_CASES);
    default:
        if (one_d(op)) PICK(CONV1D, T1D_CASES);
        PICK(CONV2D, T2D_CASES);
    }
#undef PICK
}

/* ------------------------------------------------------------ sizes */
static size_t conv_out(size_t in, size_t k, const conv_case *c) { /* Candle's ParamsConv*D */
    return (in + 2 * c->pad - c->dil * (k - 1) - 1) / c->stride + 1;
}
typedef struct {
    size_t src, kern, dst, work; /* elements; work: Candle's for_num_elems count */
    size_t oh, ow;               /* output spatial dims (1-D: oh = 1)            */
} conv_sizes;

static conv_sizes sizes_of(const op_def *op, const conv_case *c) {
    conv_sizes z = {c->b * c->c * c->h * c->w, 0, 0, 0, 1, 1};
    switch (op->family) {
    case F_IM2COL:
        z.ow = conv_out(c->w, c->kw, c), z.oh = one_d(op) ? 1 : conv_out(c->h, c->kh, c);
        z.dst = c->b * z.oh * z.ow * c->c * c->kh * c->kw;
        z.work = one_d(op) ? c->b * z.ow * c->c : z.dst;
        break;
    case F_POOL:
        z.oh = (c->h - c->kh) / c->stride + 1, z.ow = (c->w - c->kw) / c->stride + 1;
        z.work = z.dst = c->b * c->c * z.oh * z.ow;
        break;
    case F_UPSAMPLE: z.oh = c->out_h, z.ow = c->out_w, z.work = z.dst = c->b * c->c * z.oh * z.ow; break;
    default:
        z.ow = conv_out(c->w, c->kw, c), z.oh = one_d(op) ? 1 : conv_out(c->h, c->kh, c);
        z.kern = c->c_out * c->c * c->kh * c->kw;
        z.work = z.dst = c->b * c->c_out * z.oh * z.ow;
        break;
    }
    return z;
}

/* im2col: the bytes written (its reads are mostly cache hits: each input
 * element lands in kh·kw columns), as the issue counts them; pool and
 * upsample: read once + written once; conv: src, weights and dst once. */
double conv_bytes(const op_def *op, const idx_case *ic) {
    const conv_sizes z = sizes_of(op, ic->cv);
    const double ts = (double)crk_dtype_size(dt_of(op));
    return op->family == F_IM2COL ? (double)z.dst * ts : (double)(z.src + z.kern + z.dst) * ts;
}

void conv_describe(const op_def *op, const idx_case *ic, char *buf, size_t cap) {
    const conv_case *c = ic->cv;
    const conv_sizes z = sizes_of(op, c);
    char src[64];
    if (one_d(op)) snprintf(src, sizeof src, "(%zu, %zu, %zu)", c->b, c->c, c->w);
    else snprintf(src, sizeof src, "(%zu, %zu, %zu, %zu)", c->b, c->c, c->h, c->w);
    switch (op->family) {
    case F_IM2COL:
        if (one_d(op))
            snprintf(buf, cap, "src %s %s, k %zu stride %zu pad %zu -> (%zu, %zu, %zu, %zu)", src, op->dtype, c->kw,
                     c->stride, c->pad, c->b, z.ow, c->c, c->kw);
        else
            snprintf(buf, cap, "src %s %s, k %zux%zu stride %zu pad %zu -> (%zu, %zu, %zu, %zu, %zu, %zu)", src, op->dtype,
                     c->kh, c->kw, c->stride, c->pad, c->b, z.oh, z.ow, c->c, c->kh, c->kw);
        break;
    case F_POOL:
        snprintf(buf, cap, "src %s %s, window %zux%zu stride %zu -> (%zu, %zu, %zu, %zu)", src, op->dtype, c->kh, c->kw,
                 c->stride, c->b, c->c, z.oh, z.ow);
        break;
    case F_UPSAMPLE: snprintf(buf, cap, "src %s %s -> (%zu, %zu, %zu, %zu)", src, op->dtype, c->b, c->c, z.oh, z.ow); break;
    default:
        snprintf(buf, cap, "src %s %s, weights (%zu, %zu, %zu%s%.0zu) pad %zu -> (%zu, %zu, %zu%s%.0zu), %.2f GFLOP", src,
                 op->dtype, c->c_out, c->c, c->kw, one_d(op) ? "" : ", ", one_d(op) ? (size_t)0 : c->kh, c->pad, c->b,
                 c->c_out, one_d(op) ? z.ow : z.oh, one_d(op) ? "" : ", ", one_d(op) ? (size_t)0 : z.ow,
                 2e-9 * (double)z.dst * (double)(c->c * c->kh * c->kw));
        break;
    }
}

/* ------------------------------------------------------------ data */
static float src_value(size_t e) { return (float)((int)(bench_mix(e) % 17) - 8) * 0.25f; }
static float weight_value(size_t e) { return (float)((int)(bench_mix(e ^ 0x5eedULL << 40) % 9) - 4) * 0.125f; }


static int gpu_err(const char *what) { return printf("ERROR: %s: %s\n", what, crk_last_error()), -1; }

/* el values of fn, as dtype t, into dev. */
static int upload(const bench_state *S, crk_dtype t, void *dev, size_t el, float (*fn)(size_t)) {
    const size_t ts = crk_dtype_size(t), chunk = (size_t)1 << 22;
    unsigned char *h = malloc(chunk * ts);
    if (!h) return printf("ERROR: out of host memory\n"), -1;
    for (size_t at = 0; at < el; at += chunk) {
        const size_t m = el - at < chunk ? el - at : chunk;
        for (size_t k = 0; k < m; k++) bench_put(t, h, k, fn(at + k));
        if (crk_memcpy_htod(S->ctx, (char *)dev + at * ts, h, m * ts) != CRK_OK) return free(h), gpu_err("htod");
    }
    free(h);
    return 0;
}

/* ------------------------------------------------------------ launching */
/* Candle's scalars (by role index) and its NUMEL argument for the op. */
static int candle_args(const op_def *op, const conv_case *c, const conv_sizes *z, double sc[8], size_t *numel) {
    *numel = z->src;
    switch (op->family) {
    case F_IM2COL:
        *numel = z->work; /* im2col1d: b·l_out·c_in, as Candle passes it */
        if (one_d(op)) {
            const double v[5] = {(double)z->ow, (double)c->kw, (double)c->stride, (double)c->pad, (double)c->dil};
            return memcpy(sc, v, sizeof v), 5;
        } else {
            const double v[7] = {(double)z->oh, (double)z->ow, (double)c->kh, (double)c->kw,
                                 (double)c->stride, (double)c->pad, (double)c->dil};
            return memcpy(sc, v, sizeof v), 7;
        }
    case F_POOL: { /* "w" = dims[2] */
        const double v[4] = {(double)c->kh, (double)c->kw, (double)c->stride, (double)c->stride};
        return memcpy(sc, v, sizeof v), 4;
    }
    case F_UPSAMPLE:
        if (is_op(op, "upsample_nearest2d")) { /* "w" = dims[2], scale = in / out */
            const double v[4] = {(double)z->oh, (double)z->ow, (double)c->h / (double)z->oh, (double)c->w / (double)z->ow};
            return memcpy(sc, v, sizeof v), 4;
        } else { /* the real W and H; align_corners false, no scale factors */
            const double v[7] = {(double)z->ow, (double)z->oh, 0, 0, 0, 0, 0};
            return memcpy(sc, v, sizeof v), 7;
        }
    default:
        if (one_d(op)) {
            const double v[4] = {(double)z->ow, (double)c->stride, (double)c->pad, (double)c->dil};
            return memcpy(sc, v, sizeof v), 4;
        } else {
            const double v[5] = {(double)z->ow, (double)z->oh, (double)c->stride, (double)c->pad, (double)c->dil};
            return memcpy(sc, v, sizeof v), 5;
        }
    }
}

int conv_prep(bench_state *S, const op_def *op, const idx_case *ic, bench_prep *P) {
    memset(P, 0, sizeof *P);
    P->op = op, P->lay = LAY_CONTIG, P->ic = ic;
    if (!(P->ki = crk_kernel_find(op->kernel))) return printf("ERROR: %s: %s\n", op->kernel, crk_last_error()), -1;
    const conv_case *c = ic->cv;
    const conv_sizes z = sizes_of(op, c);
    const crk_dtype t = dt_of(op);
    const size_t ts = crk_dtype_size(t), rank = one_d(op) ? 3 : 4;
    const double bytes = conv_bytes(op, ic);
    S->sets = (int)((ROTATE_BYTES + bytes - 1) / bytes);
    if (S->sets < 1) S->sets = 1;
    if (S->sets > MAX_SETS) S->sets = MAX_SETS;
    S->n = z.dst, S->out_bytes = z.dst * ts;
    /* src (b, c, [h,] w) and weights (c_out, c, [kh,] kw), contiguous */
    const size_t sd[4] = {c->b, c->c, one_d(op) ? c->w : c->h, c->w}, kd[4] = {c->c_out, c->c, one_d(op) ? c->kw : c->kh, c->kw};
    crk_layout_contiguous(&P->in_l[0], rank, sd);
    crk_layout_contiguous(&P->in_l[1], rank, kd);
    if (z.kern && (crk_malloc(S->ctx, &S->rd_aux, z.kern * ts) != CRK_OK || upload(S, t, S->rd_aux, z.kern, weight_value)))
        return gpu_err("weights");
    /* Candle's info: [src dims, src strides] (+ the weights') */
    size_t info[16], len = 0;
    for (int v = 0; v < (z.kern ? 2 : 1); v++) {
        for (size_t d = 0; d < rank; d++) info[len++] = P->in_l[v].dims[d];
        for (size_t d = 0; d < rank; d++) info[len++] = P->in_l[v].strides[d];
    }
    if (crk_malloc(S->ctx, &P->info_dev, len * sizeof(size_t)) != CRK_OK ||
        crk_memcpy_htod(S->ctx, P->info_dev, info, len * sizeof(size_t)) != CRK_OK)
        return gpu_err("info buffer");
    double sc[8] = {0};
    size_t numel;
    const int nsc = candle_args(op, c, &z, sc, &numel);
    P->work = z.work; /* grid[0] 0: for_num_elems(work) */
    for (int s = 0; s < S->sets; s++) {
        if (crk_malloc(S->ctx, &S->as_x[s], z.src * ts) != CRK_OK) return gpu_err("crk_malloc (src)");
        if (upload(S, t, S->as_x[s], z.src, src_value)) return -1;
        if (crk_malloc(S->ctx, &S->out[s], S->out_bytes) != CRK_OK) return gpu_err("crk_malloc (dst)");
        raw_call *rc = &P->call[s];
        rc->numel = numel, rc->num_dims = rank, rc->info = P->info_dev, rc->out = S->out[s];
        rc->in[0] = S->as_x[s], rc->in[1] = S->rd_aux;
        if (prep_assemble(P->ki, rc, sc, nsc)) return -1;
    }
    return 0;
}

crk_status conv_launch_crk(const bench_state *S, const bench_prep *P, int set) {
    const raw_call *rc = &P->call[set];
    const conv_case *c = P->ic->cv;
    const char *k = P->op->kernel;
    const crk_conv_params cp = {c->stride, c->pad, c->dil, 0};
    switch (P->op->family) {
    case F_IM2COL: /* im2col1d: k_h is the kernel size */
        return crk_im2col(S->ctx, NULL, k, &P->in_l[0], rc->in[0], one_d(P->op) ? c->kw : c->kh, one_d(P->op) ? 1 : c->kw,
                          &cp, rc->out, NULL);
    case F_POOL: return crk_pool2d(S->ctx, NULL, k, &P->in_l[0], rc->in[0], c->kh, c->kw, c->stride, c->stride, rc->out);
    case F_UPSAMPLE:
        return crk_upsample2d(S->ctx, NULL, k, &P->in_l[0], rc->in[0], c->out_h, c->out_w, 0, NULL, NULL, rc->out);
    default: return crk_conv(S->ctx, NULL, k, &P->in_l[0], rc->in[0], &P->in_l[1], rc->in[1], &cp, rc->out, NULL);
    }
}

int conv_reset(const bench_state *S, const bench_prep *P) {
    (void)P;
    return crk_memset(S->ctx, S->out[0], 0xFF, S->out_bytes) != CRK_OK ? gpu_err("memset") : 0;
}

/* ------------------------------------------------------------ checking */
/* src element (b, c, y, x) of the contiguous source; 1-D: y = 0. */
static float at(const conv_case *c, size_t b, size_t ch, size_t y, size_t x) {
    return src_value(((b * c->c + ch) * c->h + y) * c->w + x);
}
/* Tap kk of a window starting at `start` (padding taken off), or -1 outside [0, n). */
static long tap(size_t start, size_t kk, const conv_case *c, size_t n) {
    const long p = (long)(start + kk * c->dil) - (long)c->pad;
    return p < 0 || p >= (long)n ? -1 : p;
}

/* Output element o's value as Candle computes it, and its tolerance. */
static double expected(const bench_prep *P, size_t o, double *tol) {
    const op_def *op = P->op;
    const conv_case *c = P->ic->cv;
    const conv_sizes z = sizes_of(op, c);
    const int bits = dt_of(op) == CRK_F32 ? 24 : dt_of(op) == CRK_F16 ? 11 : 8;
    *tol = 0;
    if (op->family == F_IM2COL) { /* (b, oh, ow, c, kh, kw): exact */
        const size_t kx = o % c->kw, ky = o / c->kw % c->kh, ch = o / (c->kw * c->kh) % c->c;
        const size_t r = o / (c->kw * c->kh * c->c), ox = r % z.ow, oy = r / z.ow % z.oh, b = r / (z.ow * z.oh);
        const long x = tap(ox * c->stride, kx, c, c->w), y = one_d(op) ? 0 : tap(oy * c->stride, ky, c, c->h);
        return x < 0 || y < 0 ? 0.0 : at(c, b, ch, (size_t)y, (size_t)x);
    }
    const size_t ox = o % z.ow, oy = o / z.ow % z.oh, plane = o / (z.ow * z.oh);
    if (op->family == F_POOL) { /* max exact; avg: the exact sum times float(1/window), rounded to T */
        const int avg = is_op(op, "avg");
        double m = -INFINITY, sum = 0;
        for (size_t ky = 0; ky < c->kh; ky++)
            for (size_t kx = 0; kx < c->kw; kx++) {
                const float v = at(c, plane / c->c, plane % c->c, oy * c->stride + ky, ox * c->stride + kx);
                sum += v, m = v > m ? v : m;
            }
        if (avg) *tol = ldexp(fabs(sum), 1 - bits) + 1e-30;
        return avg ? sum * (double)(float)(1.0 / (double)(c->kh * c->kw)) : m;
    }
    if (op->family == F_UPSAMPLE) {
        const size_t b = plane / c->c, ch = plane % c->c;
        if (is_op(op, "upsample_nearest2d")) { /* floor(dst · in/out), exact */
            size_t sy = (size_t)((double)oy * ((double)c->h / (double)z.oh)), sx = (size_t)((double)ox * ((double)c->w / (double)z.ow));
            sy = sy < c->h - 1 ? sy : c->h - 1, sx = sx < c->w - 1 ? sx : c->w - 1;
            return at(c, b, ch, sy, sx);
        }
        /* PyTorch's half-pixel rule, align_corners false: lerp in double, rounded to T */
        double fy = ((double)c->h / (double)z.oh) * ((double)oy + 0.5) - 0.5, fx = ((double)c->w / (double)z.ow) * ((double)ox + 0.5) - 0.5;
        fy = fy < 0 ? 0 : fy, fx = fx < 0 ? 0 : fx;
        const size_t y0 = (size_t)fy, x0 = (size_t)fx, y1 = y0 + 1 < c->h ? y0 + 1 : c->h - 1, x1 = x0 + 1 < c->w ? x0 + 1 : c->w - 1;
        const double ly = fy - (double)y0, lx = fx - (double)x0;
        const double top = at(c, b, ch, y0, x0) * (1 - lx) + at(c, b, ch, y0, x1) * lx;
        const double bot = at(c, b, ch, y1, x0) * (1 - lx) + at(c, b, ch, y1, x1) * lx;
        const double v = top * (1 - ly) + bot * ly;
        *tol = ldexp(fabs(v), 1 - bits) + 1e-12;
        return v;
    }
    /* conv: sum over c_in and the window, exact in f32 (the values' grain) */
    const size_t b = plane / c->c_out, co = plane % c->c_out;
    double sum = 0;
    for (size_t ch = 0; ch < c->c; ch++)
        for (size_t ky = 0; ky < c->kh; ky++)
            for (size_t kx = 0; kx < c->kw; kx++) {
                const long x = tap(ox * c->stride, kx, c, c->w), y = one_d(op) ? 0 : tap(oy * c->stride, ky, c, c->h);
                if (x >= 0 && y >= 0)
                    sum += (double)at(c, b, ch, (size_t)y, (size_t)x) * weight_value(((co * c->c + ch) * c->kh + ky) * c->kw + kx);
            }
    return sum;
}

/* 64 outputs of set 0 (first, last, middle, random). 0 right, 1 wrong, -1 GPU error. */
int conv_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who) {
    const crk_dtype t = dt_of(P->op);
    const size_t ts = crk_dtype_size(t), n = S->n;
    size_t idx[64] = {0, n - 1, n / 2};
    for (size_t k = 3; k < 64; k++) idx[k] = bench_rand(rng) % n;
    int bad = 0;
    for (size_t k = 0; k < 64 && bad < 4; k++) {
        unsigned char got[4];
        if (crk_memcpy_dtoh(S->ctx, got, (const char *)S->out[0] + idx[k] * ts, ts) != CRK_OK) return gpu_err("dtoh");
        double tol;
        const double g = bench_value(t, got, 0), want = expected(P, idx[k], &tol);
        if (!(fabs(g - want) <= tol)) { /* NaN fails */
            printf("%s %s (%s, %s) WRONG at element %zu: got %.9g, expected %.9g (tolerance %.3g)\n", who, P->op->kernel,
                   P->op->dtype, P->ic->label, idx[k], g, want, tol);
            bad++;
        }
    }
    return bad ? 1 : 0;
}
