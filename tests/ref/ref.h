/* ref.h — CPU reference semantics of Candle's CUDA element-wise kernels
 * (families cast, unary, affine, where), written from the fact sheet
 * shared/reference/candle-cuda-kernels.md (§3.3, §4.1, §4.4, §4.5, §4.6),
 * independently of the GPU kernels of this repository.
 *
 * Portable C11, libc + libm only.  Build: see tests/ref/ref_selftest.c.
 *
 * Storage: bf16/f16 are uint16_t bit patterns, f8e4m3 is a uint8_t bit
 * pattern (OCP E4M3FN: bias 7, no infinities, NaN = S.1111.111, max 448).
 *
 * NaN bit patterns: results that are NaN are produced with canonical
 * payloads (f16/bf16 0x7FFF, f8 0x7F); NaNs widened to f32/f64 keep sign and
 * payload.  Tests should compare NaN results by class (both NaN), not by bits,
 * except for the f32->f16/bf16/f8 rules that the fact sheet pins down.
 */
#ifndef CRK_TESTS_REF_H
#define CRK_TESTS_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "crk.h" /* crk_dtype */

/* ------------------------------------------------------------ dtype info */
size_t ref_dtype_size(crk_dtype dt);          /* 0 for an invalid dtype          */
const char *ref_dtype_name(crk_dtype dt);     /* "u8" … "f8e4m3"; "?" if invalid  */
int ref_dtype_is_float(crk_dtype dt);         /* bf16, f16, f32, f64, f8e4m3      */

/* ------------------------------------------------------ bit conversions */
float ref_f16_to_f32(uint16_t h);             /* exact */
float ref_bf16_to_f32(uint16_t b);            /* exact */
float ref_f8_to_f32(uint8_t f);               /* exact; NaN (S.1111.111) -> NaN  */
uint16_t ref_f32_to_f16(float x);             /* RNE, overflow -> ±inf, NaN -> 0x7FFF */
uint16_t ref_f32_to_bf16(float x);            /* RNE, overflow -> ±inf, NaN -> 0x7FFF */
uint16_t ref_f64_to_f16(double x);            /* single RNE rounding from double  */
uint16_t ref_f64_to_bf16(double x);           /* single RNE rounding from double  */
uint8_t ref_f32_to_f8(float x);               /* RNE, saturate to ±448 (±inf too),
                                                 NaN -> 0x7F, -0 -> 0x80          */

/* Value of one element as a double (exact for every dtype except i64 with
 * |v| > 2^53, which is rounded to nearest). */
double ref_value_f64(crk_dtype dt, const void *p);
int ref_is_nan(crk_dtype dt, const void *p);  /* 0 for integer dtypes */

/* Candle's T::from_f64 (host-side scalar conversion for affine/elu/powf):
 * integers: Rust `as` (truncate toward zero, saturate, NaN -> 0);
 * f16/bf16: RNE from double; f32: (float)v; f64: v; f8e4m3: via f32. */
void ref_scalar_from_f64(crk_dtype dt, double v, void *out);

/* ------------------------------------------------------------------ cast */
/* Convert ONE element, cast_{src}_{dst} semantics, every one of the 100 pairs. */
void ref_cast(crk_dtype src, crk_dtype dst, const void *in, void *out);

/* ----------------------------------------------------------------- unary */
/* ops: copy neg recip exp log sin cos tanh erf ceil floor round normcdf abs
 *      sqr sqrt gelu gelu_erf relu elu silu powf sign sigmoid
 * param: alpha for elu, exponent for powf (converted with ref_scalar_from_f64
 * first); ignored otherwise.  "copy" works for every dtype (bit copy); the
 * other ops for float dtypes only.  Unknown op / unsupported dtype: abort(). */
void ref_unary(const char *op, crk_dtype dt, const void *in, void *out, double param);
int ref_unary_supported(const char *op, crk_dtype dt);   /* 1 yes, 0 no */
/* Mathematically exact value in double (true constants, expm1 for elu, ...);
 * relu(NaN) = 0, sign(NaN) = 0.  Unknown op: abort(). */
double ref_unary_exact(const char *op, double x, double param);

/* Number of unary ops and their names, in the order listed above. */
#define REF_UNARY_OP_COUNT 24
extern const char *const ref_unary_ops[REF_UNARY_OP_COUNT];

/* ---------------------------------------------------------------- affine */
/* out = x*mul + add in T; mul/add converted with ref_scalar_from_f64 first. */
void ref_affine(crk_dtype dt, const void *in, void *out, double mul, double add);

/* ---------------------------------------------------------- binary, cmp */
/* b<op>: add sub mul div maximum minimum, every dtype. Integers wrap and
 * divide truncating, x/0 = all ones, MIN/-1 = MIN; f32/f64 C arithmetic,
 * maximum/minimum fmax/fmin (NaN-ignoring); f16/bf16 rounded once, max/min
 * NaN-propagating (canonical NaN); f8 in f32, SATFINITE. */
#define REF_BINARY_OP_COUNT 6
extern const char *const ref_binary_ops[REF_BINARY_OP_COUNT];
int ref_binary_supported(const char *op);
void ref_binary(const char *op, crk_dtype dt, const void *a, const void *b, void *out);
/* eq ne lt le gt ge: out is one u8, 1 or 0 (ne is true on NaN, the rest false). */
#define REF_CMP_OP_COUNT 6
extern const char *const ref_cmp_ops[REF_CMP_OP_COUNT];
void ref_cmp(const char *op, crk_dtype dt, const void *a, const void *b, void *out);

/* ----------------------------------------------------------------- where */
/* Condition truth value: any non-zero value is true (float dtypes: x != 0,
 * so NaN is true and -0 is false). */
int ref_is_true(crk_dtype cond_dt, const void *c);

/* --------------------------------------------------------- module reduce */
/* fast_<op> (op: sum min max argmin argmax) of one output: vals[0..e) are its
 * elements in the reordered logical order, idx0 the logical index of
 * vals[0], last the reordered last dim (argmin/argmax store (idx0+i) % last;
 * 0: store 0), threads the block size. Candle's order: thread t folds t,
 * t+threads, ...; then a halving tree (tail past the largest power of two
 * folded in first). out: one element of dt, or a u32 for argmin/argmax. */
void ref_fast_reduce(const char *op, crk_dtype dt, const void *vals, size_t e, size_t idx0, size_t last,
                     unsigned threads, void *out);
/* softmax of one row over `threads` lanes (32 = Candle's shape; a multiple
 * of 32) in chunks of `chunk` columns (1: Candle's kernel; crk_softmax_vec:
 * 16 bytes): max in T, exp(x - max) in T summed in f32 (f64 for f64),
 * T(1/sum). */
void ref_softmax(crk_dtype dt, const void *row, size_t n_cols, unsigned threads, unsigned chunk, void *out);
/* crk_softmax_wide on rows of more than `held` chunks a thread: the first
 * held a thread as above, the rest streamed with a running max that
 * rescales their sum (ref_reduce.c says the order). */
void ref_softmax_long(crk_dtype dt, const void *row, size_t n_cols, unsigned threads, unsigned chunk, unsigned held,
                      void *out);
/* libcrk's split rows (crk_softmax_part/fin): piece j of `pieces` spans
 * chunks [lo(j), lo(j + 1)), lo(j) = j·chunks / pieces; its part is its
 * max m[j] (a T value) and sum s[j] (the accumulator's) under `threads`;
 * ref_softmax_split combines them as crk_softmax_fin with `threads` and
 * writes the row. */
size_t ref_softmax_piece_lo(size_t j, size_t chunks, size_t pieces);
void ref_softmax_parts(crk_dtype dt, const void *row, size_t n_cols, size_t pieces, unsigned threads, unsigned chunk,
                       double *m, double *s);
void ref_softmax_split(crk_dtype dt, const void *row, size_t n_cols, size_t pieces, unsigned threads,
                       const double *m, const double *s, void *out);
/* rmsnorm / layernorm of one row, f32 statistics summed over `threads` lanes
 * in chunks of `chunk` columns (1: Candle's kernels; crk_*_vec: 16 bytes),
 * then 32-lane butterflies and over the groups; alpha/beta may be NULL.
 * layernorm's mag (NULL: none) gets, per column, the size its error scales
 * with: |result| + |(x - mean)·inv_std·alpha|, the tail's product before
 * beta cancels it. */
void ref_rmsnorm(crk_dtype dt, const void *row, const void *alpha, size_t n_cols, unsigned threads, unsigned chunk,
                 float eps, void *out);
void ref_layernorm(crk_dtype dt, const void *row, const void *alpha, const void *beta, size_t n_cols,
                   unsigned threads, unsigned chunk, float eps, void *out, double *mag);
/* One rotated pair: d0 = x0·c − x1·s, d1 = x0·s + x1·c in T. */
void ref_rope_pair(crk_dtype dt, const void *x0, const void *x1, const void *c, const void *s, void *d0, void *d1);

/* ------------------------------------------------------- module indexing */
/* 1 and *row = the id if id (of ids dtype it) selects a row of a dim of
 * `dim` rows: in [0, dim) and not the sentinel max_value<it>. */
int ref_index_row(crk_dtype it, const void *id, size_t dim, size_t *row);
/* Contiguous operands; src (left, src_dim, right), ids n_ids in logical
 * order, out (left, n_ids, right); 0 where an id selects nothing. */
void ref_index_select(crk_dtype it, crk_dtype dt, const void *ids, const void *src, void *out, size_t left,
                      size_t src_dim, size_t n_ids, size_t right);
/* ids and out (left, n_ids, right), src (left, src_dim, right). */
void ref_gather(crk_dtype it, crk_dtype dt, const void *ids, const void *src, void *out, size_t left, size_t src_dim,
                size_t n_ids, size_t right);
/* In place on dst (left, dst_dim, right); src (left, n_ids, right). */
void ref_index_add(crk_dtype it, crk_dtype dt, const void *ids, size_t n_ids, const void *src, void *dst,
                   size_t left, size_t dst_dim, size_t right);
/* In place on dst (left, dst_dim, right); ids and src (left, src_dim, right);
 * add: scatter_add, else scatter. */
void ref_scatter(int add, crk_dtype it, crk_dtype dt, const void *ids, const void *src, void *dst, size_t left,
                 size_t src_dim, size_t dst_dim, size_t right);
/* ----------------------------------------------------------- module sort */
/* asort_{asc,desc} of one row of ncols (§4.17): Candle's bitonic network
 * over the index array padded to a power of two, simulated exactly
 * (strict comparisons, NaN false, padding to the end); out: ncols u32. */
void ref_asort_candle(crk_dtype dt, int asc, const void *row, size_t ncols, uint32_t *out);
/* crk_argsort's order for long rows: by value (-0 == +0), ties by column,
 * NaN after every number in both orders, NaNs by column. */
void ref_argsort_stable(crk_dtype dt, int asc, const void *row, size_t ncols, uint32_t *out);

/* ----------------------------------------------------------- module conv */
/* u8 u32 bf16 f16 f32 f64 (§4.14-§4.16). A view: element offsets
 * i0·s[0] + i1·s[1] + ... from its pointer (any strides, 0 included). */
typedef struct {
    size_t dims[4];
    size_t strides[4];
} ref_view;
/* Convolutions accumulate in A (f32 for 16-bit and f32, f64, u8/u32
 * wrapping), each term one fused multiply-add, in upstream's loop order,
 * then one rounding to T. src (b, c_in, l) / (b, c_in, h, w); k (c_out,
 * c_in, ...) for conv, (c_in, c_out, ...) for the transposed ones; dst
 * contiguous (b, c_out, l_out) / (b, c_out, h_out, w_out). conv1d reads
 * source position (stride·l + k)·dilation − padding (upstream's quirk). */
void ref_conv1d(crk_dtype dt, const void *src, const ref_view *sv, const void *k, const ref_view *kv, size_t l_out,
                size_t stride, size_t padding, size_t dilation, void *dst);
void ref_conv2d(crk_dtype dt, const void *src, const ref_view *sv, const void *k, const ref_view *kv, size_t h_out,
                size_t w_out, size_t stride, size_t padding, size_t dilation, void *dst);
void ref_conv_transpose1d(crk_dtype dt, const void *src, const ref_view *sv, const void *k, const ref_view *kv,
                          size_t l_out, size_t stride, size_t padding, size_t dilation, void *dst);
void ref_conv_transpose2d(crk_dtype dt, const void *src, const ref_view *sv, const void *k, const ref_view *kv,
                          size_t h_out, size_t w_out, size_t stride, size_t padding, size_t dilation, void *dst);
/* dst (b, l_out, c_in, l_k) / (b, h_out, w_out, c_in, h_k, w_k), zero
 * outside the source. */
void ref_im2col1d(crk_dtype dt, const void *src, const ref_view *sv, size_t l_out, size_t l_k, size_t stride,
                  size_t padding, size_t dilation, void *dst);
void ref_im2col(crk_dtype dt, const void *src, const ref_view *sv, size_t h_out, size_t w_out, size_t h_k,
                size_t w_k, size_t stride, size_t padding, size_t dilation, void *dst);
/* src (b, l_in, c_out, k) contiguous, dst (b, c_out, (l_in−1)·stride + k):
 * out[b, c, l] sums src[b, i, c, l − i·stride] over i from l/stride down,
 * in T (16-bit floats round each add, integers wrap). */
void ref_col2im1d(crk_dtype dt, const void *src, size_t b, size_t l_in, size_t c_out, size_t k, size_t stride,
                  void *dst);
/* src (b, c, d2, d3), windows k2 x k3 at strides s2, s3 without padding;
 * dst (b, c, (d2−k2)/s2+1, (d3−k3)/s3+1). avg: the sum in A (u8 in u8)
 * times float(1/(k2·k3)); max: the first element, then maximum. */
void ref_avg_pool2d(crk_dtype dt, const void *src, const ref_view *sv, size_t k2, size_t k3, size_t s2, size_t s3,
                    void *dst);
void ref_max_pool2d(crk_dtype dt, const void *src, const ref_view *sv, size_t k2, size_t k3, size_t s2, size_t s3,
                    void *dst);
/* dst (b, c, o2, o3): src[min(floor(i·scale2), d2−1), min(floor(j·scale3), d3−1)]. */
void ref_upsample_nearest2d(crk_dtype dt, const void *src, const ref_view *sv, size_t o2, size_t o3, double scale2,
                            double scale3, void *dst);
/* PyTorch's bilinear interpolation (align_corners, optional scale factors)
 * in double; dst (b, c, h_out, w_out). */
void ref_upsample_bilinear2d(crk_dtype dt, const void *src, const ref_view *sv, size_t h_out, size_t w_out,
                             int align_corners, int has_scale_h, double scale_h, int has_scale_w, double scale_w,
                             void *dst);

/* ------------------------------------------------------------------ ULPs */
/* Float dtypes: distance in representable values (+0 and -0 equal; ±inf
 * count as the value after the largest finite); INT64_MAX if exactly one is
 * NaN, 0 if both are.  Integer dtypes: |a - b| (saturated to INT64_MAX). */
int64_t ref_ulp_diff(crk_dtype dt, const void *a, const void *b);

/* ------------------------------------------- GGML quantized blocks (§4.18) */
/* Weight and activation block types, GGML's block layouts (QK_K = 256). */
typedef enum {
    REF_Q4_0, REF_Q4_1, REF_Q5_0, REF_Q5_1, REF_Q8_0, REF_Q8_1,
    REF_Q2_K, REF_Q3_K, REF_Q4_K, REF_Q5_K, REF_Q6_K, REF_Q8_K, REF_GGML_COUNT
} ref_ggml_type;
const char *ref_ggml_name(ref_ggml_type t);       /* "q4_0" ... "q8_K"; "?" if invalid */
size_t ref_ggml_block_values(ref_ggml_type t);    /* 32 or 256; 0 if invalid          */
size_t ref_ggml_block_bytes(ref_ggml_type t);     /* 18 ... 292; 0 if invalid         */
/* nblocks blocks of t at src -> f32 y (block_values each), the f32 values
 * of the dequantize_block_* kernels (ref_ggml.c: which products are fused);
 * the _f16 kernels round these once (ref_f32_to_f16). -1 for a bad type. */
int ref_ggml_dequantize(ref_ggml_type t, const void *src, size_t nblocks, float *y);
/* The same with get_rows' arithmetic (the dequantize_<type> device
 * functions): q4_0 as (q − 8)·d, −0 where q = 8 and d < 0; the rest as above. */
int ref_ggml_get_rows(ref_ggml_type t, const void *src, size_t nblocks, float *y);
/* nblocks random blocks of t: random bytes, each block's scales made
 * finite (f16 of either sign, 2^-14 .. 2^1 by magnitude; q8_K's f32 d a
 * small positive dyadic value). next() returns 32 random bits. */
void ref_ggml_random_blocks(ref_ggml_type t, void *blocks, size_t nblocks, uint32_t (*next)(void *), void *state);
/* quantize_q8_1 of one row: kx values, zero up to kx_padded (a multiple of
 * 32), kx_padded/32 blocks of 36 bytes: d = max|x|/127 and Σx (of the
 * unquantized values, xor-butterfly order) as f16, q = roundf(x/d) (0 if
 * max|x| = 0). */
void ref_quantize_q8_1(const float *x, size_t kx, size_t kx_padded, void *vy);
/* One MMVQ dot: a weight row of ncols values (whole blocks of t, a weight
 * type) times a q8_1 row y (ncols/32 blocks, or more): *dot the exact value
 * of the kernels' formulation (ref_ggml.c), *mag the sum of the absolute
 * values of its terms (f32 sums err by a multiple of it). -1 for a bad
 * type or a partial block. */
int ref_ggml_mmvq(ref_ggml_type t, const void *row, const void *y, size_t ncols, double *dot, double *mag);

#ifdef __cplusplus
}
#endif
#endif /* CRK_TESTS_REF_H */
