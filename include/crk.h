/* crk.h — Candle-compatible ROCm kernels: public C API of libcrk.
 *
 * libcrk finds the code object that matches the GPU in the machine, resolves
 * kernels by Candle's names and launches them with Candle's conventions
 * (SlicePtrOrNull info buffers, start offsets applied to pointers).
 *
 * Errors: every call returns a crk_status; crk_last_error() gives the message
 * of the last failure on the calling thread (thread-local, never NULL).
 * Functions that return a value rather than a status (crk_layout_numel, ...)
 * say below what they return for bad input; they set crk_last_error then.
 *
 * Thread safety: a crk_ctx may be used from many threads at once, by
 * threads that never touched the GPU before too: every call that touches
 * the GPU first makes the context's device (HIP) or context (CUDA) current
 * on the calling thread, so the thread's current device changes. Modules load
 * once per context, on first use, from whichever thread; crk_close must not
 * race with other calls on the same context. A failed module load is not
 * remembered: the next call that needs the module tries again.
 *
 * Streams and info buffers: a helper given a strided layout passes its
 * kernel an info buffer in a device slot of the context's own. A launch
 * whose info bytes a slot already holds for the same stream reuses it (no
 * upload: repeated layouts launch as fast as contiguous ones); otherwise the
 * bytes are copied on the stream ahead of the kernel. Events keep a slot
 * from being overwritten while a kernel may still read it, so any mix of
 * streams is safe, and a caller may destroy a stream at any time.
 *
 * Paths (crk_options.path) have no length limit of libcrk's own.
 *
 * Environment variables read by crk_open:
 *   CRK_GPU_API=hip|cuda  use only that runtime (unset: HIP, then CUDA);
 *                         any other value is refused with CRK_E_INVALID.
 *   CRK_HIP_LIBRARY=PATH  HIP runtime library tried first (e.g. a stand-in
 *                         runtime for tests); an unloadable one is an error.
 */
#ifndef CRK_H
#define CRK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CRK_VERSION_MAJOR 0
#define CRK_VERSION_MINOR 8

/* Most dims a layout may have (Candle has no limit; real tensors stay far below). */
#define CRK_MAX_DIMS 16

/* Candle's storage dtypes that have kernels, in Candle's DType order. */
typedef enum {
    CRK_U8, CRK_U32, CRK_I16, CRK_I32, CRK_I64,
    CRK_BF16, CRK_F16, CRK_F32, CRK_F64, CRK_F8E4M3,
    CRK_DTYPE_COUNT
} crk_dtype;

typedef enum {
    CRK_OK = 0,
    CRK_E_INVALID,        /* bad argument: null pointer, bad layout, ...        */
    CRK_E_NOT_FOUND,      /* unknown kernel name                                */
    CRK_E_NO_CODE_OBJECT, /* nothing shipped for this GPU's target              */
    CRK_E_CORRUPT,        /* code object, bundle or file is damaged             */
    CRK_E_SIGNATURE,      /* arguments do not match the kernel's parameters     */
    CRK_E_TOO_MANY_DIMS,  /* rank above CRK_MAX_DIMS                            */
    CRK_E_NO_DEVICE,      /* no GPU, or the GPU runtime cannot be loaded        */
    CRK_E_GPU,            /* the GPU runtime reported an error                  */
    CRK_E_NOMEM,
    CRK_E_IO
} crk_status;

const char *crk_status_name(crk_status s);
/* Message of the last failed call on this thread ("" if none). */
const char *crk_last_error(void);

/* ---------------------------------------------------------------- registry */
/* The registry is generated from the op table (gen/); it needs no GPU. */

typedef enum { CRK_ARG_SIZE, CRK_ARG_PTR, CRK_ARG_SCALAR } crk_arg_kind;

/* Kernel families, in the op table's order (gen/optable.c): a switch over
 * them is checked by the compiler. Several families may share one module. */
typedef enum {
    CRK_FAMILY_UNARY,
    CRK_FAMILY_CAST,
    CRK_FAMILY_TERNARY, /* where_*: Candle's module "ternary" */
    CRK_FAMILY_AFFINE,
    CRK_FAMILY_BINARY,    /* b<op>_*: module "binary"                     */
    CRK_FAMILY_CMP,       /* eq/ne/lt/le/gt/ge_*: module "binary", u8 out */
    CRK_FAMILY_FILL,      /* fill_*: module "fill"                        */
    CRK_FAMILY_CONST_SET, /* const_set_*: module "fill"                   */
    CRK_FAMILY_COPY2D,    /* copy2d_*: module "fill"                      */
    CRK_FAMILY_REDUCE,    /* fast_{sum,min,max,argmin,argmax}_*: "reduce" */
    CRK_FAMILY_SOFTMAX,   /* softmax_*: module "reduce"                   */
    CRK_FAMILY_NORM,      /* rmsnorm_*, layernorm_*: module "reduce"      */
    CRK_FAMILY_ROPE,      /* rope_i_*, rope_*, rope_thd_*: module "reduce" */
    CRK_FAMILY_INDEXING,  /* is/gather/ia/s/sa_<ids>_<T>: module "indexing" */
    CRK_FAMILY_SORT,      /* asort_{asc,desc}_*, and our crk_asort_{keyed,chunk,merge}_{asc,desc}_*
                             (crk_argsort's steps): module "sort" */
    CRK_FAMILY_SUM,       /* sum_*: upstream's atomicAdd strided sum, module "reduce" */
    CRK_FAMILY_CONV,      /* conv1d/conv2d/conv_transpose{1,2}d/im2col1d/im2col/col2im1d_*: "conv" */
    CRK_FAMILY_POOL,      /* avg_pool2d_*, max_pool2d_*: module "conv"    */
    CRK_FAMILY_UPSAMPLE,  /* upsample_nearest2d_*, upsample_bilinear2d_*: module "conv" */
    CRK_FAMILY_DEQUANTIZE, /* dequantize_block_<ggml type>_{f16,f32}: module "quantized" */
    CRK_FAMILY_GET_ROWS,  /* get_rows_<ggml type|f32|f16|bf16>, crk_get_rows_*: module "quantized" */
    CRK_FAMILY_QUANTIZE,  /* quantize_q8_1, mmvq_gguf_quantize_q8_1_<dt>: "quantized" */
    CRK_FAMILY_DMMV,      /* dequantize_mul_mat_vec_*: module "quantized" */
    CRK_FAMILY_MMVQ,      /* mul_mat_vec_<t>_q8_1_cuda<b>: module "quantized" (0.8) */
    CRK_FAMILY_MMVQ_GGUF, /* mmvq_gguf_<t>_<dt>_plain_cuda<b> (the static library's): "quantized" (0.8) */
    CRK_FAMILY_MOE,       /* indexed_moe_forward_<t>_q8_1: module "quantized" (0.8) */
    CRK_FAMILY_COUNT
} crk_family;

/* Launch policy of a family (crk_kernel_info.geometry): how a grid is
 * sized for its kernels. */
typedef enum {
    CRK_GEOM_ELEMENTWISE, /* grid-stride over numel: any 1-D grid is correct */
    CRK_GEOM_REDUCE,      /* a block per output (any grid: blocks loop), any
                             block <= 1024; Candle: grid dst_el, block the
                             power of two >= min(1024, el_to_sum_per_block) */
    CRK_GEOM_ROWS         /* a block per row, grid = rows exactly; blocks of
                             32·k <= 1024 threads (Candle: softmax (1,32,1),
                             norms 32 or 1024 = block_size)                  */,
    CRK_GEOM_SORT         /* asort_*: a block per row, grid = rows exactly,
                             any block; dynamic shared memory ncols_pad·4
                             bytes (ncols_pad = the power of two >= ncols),
                             set per launch (shared_bytes is 0); Candle:
                             block min(ncols_pad, 1024). Our long-row kernels
                             are launched by crk_argsort only.            */,
    CRK_GEOM_GGML         /* module quantized (0.7), any block: dequantize of
                             32-value types grid-stride over k (any grid);
                             of K types a block per 256-value super-block
                             (grid = super-blocks exactly); get_rows a block
                             row per output row (grid.x = rows exactly,
                             any grid.y: blocks loop along the row)       */
} crk_geometry;

/* What a parameter is for. Launchers assemble arguments from the roles, never
 * from names or positions; `index` numbers the inputs (where: ids 0, t 1,
 * f 2) and the scalars (affine: mul 0, add 1) in parameter order. */
typedef enum {
    CRK_ROLE_NUMEL,    /* element count                           */
    CRK_ROLE_NUM_DIMS, /* rank of the info buffer's layouts       */
    CRK_ROLE_INFO,     /* the info buffer (SlicePtrOrNull)        */
    CRK_ROLE_INPUT,    /* a read-only tensor                      */
    CRK_ROLE_OUTPUT,   /* the written tensor                      */
    CRK_ROLE_SCALAR    /* a by-value scalar of the param's dtype
                          (fixed C types too: copy2d's uint32_t d1;
                          dtype -1: a size_t, el_to_sum_per_block) */
} crk_param_role;

typedef struct {
    const char *name;   /* "numel", "info", "inp", ...                        */
    const char *ctype;  /* C type as in Candle's source, e.g. "const float *" */
    uint8_t kind;       /* crk_arg_kind                                       */
    uint8_t size;       /* bytes in the kernel argument buffer                */
    int8_t dtype;       /* element/scalar dtype, -1 for size_t and void *     */
    uint8_t role;       /* crk_param_role                                     */
    uint8_t index;      /* which input / scalar (roles INPUT, SCALAR)         */
} crk_param;

typedef struct {
    const char *name;      /* exact symbol, e.g. "cast_f32_bf16"               */
    const char *family;    /* "unary", "cast", "ternary", "affine" (family_id)  */
    const char *op;        /* "exp", "gelu_erf", ...; the family for the rest   */
    const char *module;    /* Candle module: "unary", "cast", "ternary", ...    */
    uint16_t module_id;    /* index into crk_module_name()                     */
    uint8_t nparams;
    uint8_t info_arrays;   /* info buffer = dims + (info_arrays-1) stride sets  */
    int8_t dtypes[3];      /* the name's dtype axes: unary/affine/binary/cmp/fill: {T};
                              cast: {S, D}; where: {C, T}; -1 = none            */
    uint8_t upstream;      /* 1 = name exists in Candle's CUDA kernels          */
    const char *alias_of;  /* other spelling of the same kernel, or NULL       */
    const crk_param *params;
    uint8_t family_id;     /* crk_family                                        */
    int8_t info_param;     /* index of the CRK_ROLE_INFO parameter, -1 if none  */
    uint8_t geometry;      /* crk_geometry: the family's launch policy          */
    uint16_t block;        /* threads per block libcrk's helpers launch         */
    uint32_t shared_bytes; /* dynamic shared memory (LDS) per block             */
} crk_kernel_info;

size_t crk_kernel_count(void);
const crk_kernel_info *crk_kernel_at(size_t i);
/* Exact-name lookup, O(1). NULL if unknown (crk_last_error names the nearest). */
const crk_kernel_info *crk_kernel_find(const char *name);
/* Up to n registry names nearest to `name` (edit distance); returns count. */
size_t crk_kernel_suggest(const char *name, const char **out, size_t n);
size_t crk_module_count(void);
const char *crk_module_name(size_t module_id);
const char *crk_dtype_name(crk_dtype dt);
size_t crk_dtype_size(crk_dtype dt);
int crk_dtype_from_name(const char *name); /* -1 if unknown */

/* ----------------------------------------------------------------- layouts */

/* A strided view of a tensor, in elements, as Candle's Layout. */
typedef struct {
    size_t rank;
    size_t dims[CRK_MAX_DIMS];
    size_t strides[CRK_MAX_DIMS];
    size_t start_offset;
} crk_layout;

/* Contiguous row-major layout of the given dims; CRK_E_INVALID when their
 * product overflows 64 bits. */
crk_status crk_layout_contiguous(crk_layout *l, size_t rank, const size_t *dims);
/* Validates a layout (since 0.3): not NULL, rank <= CRK_MAX_DIMS, the element
 * count and the offset of every element fit in size_t. *numel (may be NULL)
 * gets the element count. */
crk_status crk_layout_check(const crk_layout *l, size_t *numel);
/* Element count; 0 also for a layout crk_layout_check refuses. */
size_t crk_layout_numel(const crk_layout *l);
/* Exactly Candle's Shape::is_contiguous (size-1 dims ignored); 0 for a
 * layout crk_layout_check refuses. */
int crk_layout_is_contiguous(const crk_layout *l);
/* Swap two dims (a transposed view). */
crk_status crk_layout_transpose(crk_layout *l, size_t a, size_t b);
/* Info buffer of n layouts of one shape (rank and dims): dims, then each
 * layout's strides, into out[0..cap). *len gets the number of size_t written:
 * 0 when every layout is contiguous and null_if_contiguous is set
 * (SlicePtrOrNull::Null). Bad layouts, shapes that differ and a buffer too
 * small are errors (since 0.3). */
crk_status crk_info_pack_checked(const crk_layout *const *ls, size_t n, int null_if_contiguous,
                                 size_t *out, size_t cap, size_t *len);
/* The same, returning *len; 0 also on an error (crk_last_error says which). */
size_t crk_info_pack(const crk_layout *const *ls, size_t n, int null_if_contiguous,
                     size_t *out, size_t cap);

/* ------------------------------------------------------------- the device */

typedef struct crk_ctx crk_ctx;
typedef void *crk_stream; /* hipStream_t / CUstream; NULL = default stream */

typedef enum {
    CRK_SOURCE_EMBEDDED = 0, /* blobs linked into the library (default)       */
    CRK_SOURCE_DIR,          /* <path>/<arch>/<module>.hsaco                   */
    CRK_SOURCE_BUNDLE        /* <path>/<module>.hsaco offload bundles          */
} crk_source;                /* other values: CRK_E_INVALID                    */

typedef struct {
    int device;          /* GPU ordinal                                       */
    crk_source source;
    const char *path;    /* directory for DIR / BUNDLE; NULL: the installed one
                            (PREFIX/share/crk/hsaco, `make install`)           */
} crk_options;

/* Opens GPU `opt->device` (opt may be NULL: device 0, embedded blobs). */
crk_status crk_open(crk_ctx **ctx, const crk_options *opt);
void crk_close(crk_ctx *ctx);
/* Full target ID of the device, e.g. "gfx90a:sramecc+:xnack-" or "sm_90". */
const char *crk_device_target(const crk_ctx *ctx);
const char *crk_device_name(const crk_ctx *ctx);
/* Which code object was picked for the device (arch or file name). */
const char *crk_code_object_target(const crk_ctx *ctx);

/* Device memory helpers (so a user program needs no other GPU header). */
crk_status crk_malloc(crk_ctx *ctx, void **dptr, size_t bytes);
crk_status crk_free(crk_ctx *ctx, void *dptr);
crk_status crk_memcpy_htod(crk_ctx *ctx, void *dst, const void *src, size_t bytes);
crk_status crk_memcpy_dtoh(crk_ctx *ctx, void *dst, const void *src, size_t bytes);
crk_status crk_memset(crk_ctx *ctx, void *dptr, int byte, size_t bytes);
crk_status crk_synchronize(crk_ctx *ctx);

/* ------------------------------------------------------------- launching */
/* Pointers are the buffers' base addresses; the layouts' start offsets are
 * applied here. Outputs are contiguous with the input layout's numel. */

/* uexp_f32, ucopy_bf16, uelu_f16 (param = alpha), upowf_f32 (param = e). */
crk_status crk_unary(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *in,
                     const void *inp, void *out, double param);
/* affine_<dt>: out = inp*mul + add, scalars converted like Candle's T::from_f64. */
crk_status crk_affine(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *in,
                      const void *inp, void *out, double mul, double add);
/* cast_<src>_<dst>. */
crk_status crk_cast(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *in,
                    const void *inp, void *out);
/* where_<cond>_<dt>: out = cond ? t : f, all three of the condition's shape. */
crk_status crk_where(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *cond_l,
                     const void *cond, const crk_layout *t_l, const void *t,
                     const crk_layout *f_l, const void *f, void *out);

/* b<op>_<dt> (badd_f32, bmaximum_bf16, ...): out = lhs op rhs. Both layouts
 * have lhs's dims (express broadcasting as stride 0); the info buffer is
 * [dims, lhs strides, rhs strides], NULL when both are contiguous. */
crk_status crk_binary(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *lhs_l,
                      const void *lhs, const crk_layout *rhs_l, const void *rhs, void *out);
/* eq/ne/lt/le/gt/ge_<dt>: out (u8) = 1 or 0; as crk_binary otherwise. */
crk_status crk_cmp(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *lhs_l,
                   const void *lhs, const crk_layout *rhs_l, const void *rhs, void *out);
/* const_set_<dt>: every element of the view l of out (start offset applied,
 * strided views written in place) = *value, one element of the dtype. */
crk_status crk_const_set(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *l, void *out,
                         const void *value);
/* fill_<dt>: buf[0..numel) = *value, one element of the dtype. */
crk_status crk_fill(crk_ctx *ctx, crk_stream s, const char *name, void *buf, size_t numel,
                    const void *value);
/* copy2d_<dt>: d1 rows of d2 elements from src + src_o (row stride src_s)
 * to dst + dst_o (row stride dst_s), offsets and strides in elements. The
 * kernel's d1, d2, src_s, dst_s are uint32_t (larger values are refused);
 * its offsets are 64-bit, so d1*d2 and row offsets may pass 2^32. */
crk_status crk_copy2d(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst, size_t d1,
                      size_t d2, size_t src_s, size_t dst_s, size_t src_o, size_t dst_o);

/* ------------------------------------------------- module reduce (0.3) */
/* fast_<op>_<dt> (sum min max argmin argmax) of the view src_l of src over
 * the dims sum_dims (distinct, < rank), as Candle's FastReduce: dst gets
 * the kept dims in order, contiguous; argmin/argmax write u32 positions
 * along the last of sum_dims. Candle's order (a block per output of the
 * power of two >= min(1024, reduced count) lanes), with a thread taking 4
 * of Candle's lanes (2 for 8-byte values; argmin/argmax: 1) where that
 * leaves at least 32 threads: 16-bit sums and argmin/argmax ties come out
 * as Candle's, bit for bit. sum/min/max over consecutive ascending dims of
 * a contiguous view with dims kept after them (a leading or middle dim)
 * run libcrk's crk_fast_<op>_cols_<dt>: Candle's lanes and tree
 * with reads along rows (coalesced), the same result. An empty min/max/arg*
 * is CRK_E_INVALID (Candle: EmptyTensor); an empty sum writes zeros. */
crk_status crk_reduce(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                      const size_t *sum_dims, size_t n_sum_dims, void *dst);
/* sum_<dt> (0.5), upstream's atomicAdd sum, which Candle never calls: ADDS
 * the sums of the view src_l of src over sum_dims (distinct, < rank, any
 * order) into dst, which holds the kept dims in order, contiguous (zero it
 * first for a plain sum). The adds come in the hardware's order, so float
 * sums vary run to run by rounding (16-bit ones the most: each add
 * rounds); integers wrap, exactly. 1- and 2-byte dtypes update the aligned
 * 4-byte word holding each output (AMD has no 16-bit atomics): dst must be
 * readable to its next 4-byte boundary, as any crk_malloc block is. For a
 * deterministic sum, crk_reduce. Kernel info: [dims, strides, sum_dims_l,
 * sum_dims_s] (kernels/sum.h). */
crk_status crk_sum_atomic(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                          const size_t *sum_dims, size_t n_sum_dims, void *dst);

/* Module conv (0.6; fact sheet §4.14-§4.16). The helpers take Candle's
 * views (any strides, zero included; start offsets applied), size the
 * output as Candle's ParamsConv1D/2D and ParamsConvTranspose1D/2D do,
 * write it contiguous, and launch a thread an output element (im2col,
 * im2col1d and upsample_nearest2d: a thread a 16- or 32-byte run of the
 * output, the pools two outputs, as their kernels split it; Candle's own
 * launch, a thread an element, runs them too). Results are upstream's, bit for
 * bit: the kernels' accumulators, loop orders and quirks (conv1d's
 * dilation on the stride term; conv_transpose* ignore output_padding
 * but for the output size) are in kernels/conv.h. A kernel that does not
 * fit the padded input, zero strides, channel mismatches and wrong ranks
 * are CRK_E_INVALID, naming the problem. */
typedef struct {
    size_t stride;         /* >= 1                                    */
    size_t padding;
    size_t dilation;       /* >= 1                                    */
    size_t output_padding; /* conv_transpose*: sizes the output only  */
} crk_conv_params;
/* conv1d_, conv2d_, conv_transpose1d_, conv_transpose2d_ by name: src
 * (b, c_in, l) or (b, c_in, h, w); kernel (c_out, c_in, k...) or, for the
 * transposed ones, (c_in, c_out, k...); dst (b, c_out, out...). out_dims
 * (3 or 4 entries; may be NULL) gets dst's dims. */
crk_status crk_conv(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                    const crk_layout *kernel_l, const void *kernel, const crk_conv_params *p, void *dst,
                    size_t *out_dims);
/* im2col1d_: src (b, c_in, l), dst (b, l_out, c_in, k_h) (k_w unused);
 * im2col_: src (b, c_in, h, w), dst (b, h_out, w_out, c_in, k_h, k_w);
 * zeros where the window leaves the input. out_dims: 4 or 6 entries. name
 * is Candle's kernel (or libcrk's crk_im2col*_rows_<dt>); the helper runs
 * libcrk's crk_im2col*_rows_<dt> of its dtype, the same values. */
crk_status crk_im2col(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                      size_t k_h, size_t k_w, const crk_conv_params *p, void *dst, size_t *out_dims);
/* col2im1d_: src (b, l_in, c_out, k) contiguous, dst (b, c_out, (l_in -
 * 1)·stride + k): overlapping columns summed in the dtype (16-bit floats
 * round each add). */
crk_status crk_col2im1d(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                        size_t stride, void *dst);
/* avg_pool2d_, max_pool2d_: src (b, c, h, w), k_h x k_w windows at
 * strides s_h, s_w, no padding; dst (b, c, (h - k_h)/s_h + 1, (w - k_w)/s_w
 * + 1). avg divides by the whole window (u8 sums wrap in u8); max follows
 * Candle's NaN rules (f32/f64 ignore NaN, f16/bf16 propagate it). name
 * is Candle's kernel (or libcrk's crk_{avg,max}_pool2d_rows_<dt>); the
 * helper runs libcrk's crk_{avg,max}_pool2d_rows_<dt> of its dtype, the
 * same values. */
crk_status crk_pool2d(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                      size_t k_h, size_t k_w, size_t s_h, size_t s_w, void *dst);
/* upsample_nearest2d_ (align_corners 0, no scale factors) and
 * upsample_bilinear2d_ (PyTorch's align_corners and optional scale factors,
 * NULL: none): src (b, c, h, w), dst (b, c, out_h, out_w). */
crk_status crk_upsample2d(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                          size_t out_h, size_t out_w, int align_corners, const double *scale_h,
                          const double *scale_w, void *dst);
/* softmax_<dt> over the last dim of n_rows contiguous rows of n_cols: a
 * block per row, so long rows are not one wave's work (Candle launches 32
 * threads). When n_cols is a multiple of 16 / sizeof(T) and src and dst are
 * 16-byte aligned, our crk_softmax_vec_<dt> (16-byte loads, a thread's
 * chunks folded column by column) with the power of two >=
 * n_cols·sizeof(T)/32 threads (32 to 1024); otherwise softmax_<dt> with
 * the power of two >= n_cols / 8. Sums fold in groups of 32 lanes, then
 * over the groups: the rounding differs from Candle's 32-lane order,
 * within the family's tolerance. Rows of more than 2048 16-byte chunks
 * (8192 f32) run crk_softmax_wide_<dt> with the power of two >= chunks / 8
 * threads (at most 1024): up to 8 chunks a thread held in registers, one
 * read, the same arithmetic. Where a block fills an SM/CU and the device's
 * DRAM gives each at least 30 GB/s, rows of up to 8192 chunks run in as
 * many blocks as the device holds at once (the runtime's occupancy), each
 * taking every grid-th row and loading its next row while it stores this
 * one. Longer rows hold their first 8 chunks a thread; for f32 on NVIDIA
 * the rest is read once for the max and sum (a running max rescaling its
 * sum of exps, so that sum rounds unlike Candle's) and once to write;
 * elsewhere it is read twice for them, as Candle does.
 *
 * Few long rows (fewer than 256 rows of at least 12288 16-byte chunks, on
 * the vector path, dst not overlapping src) split: each row into pieces
 * of at most 2048 chunks, more while there are fewer than 256 blocks and
 * a piece keeps 256 chunks, a block a piece. crk_softmax_part_<dt> stores
 * each piece's max and sum of exps in dst, crk_softmax_fin_<dt> combines
 * them (S = sum of s·exp(m - max), so only the sum rounds otherwise) and
 * overwrites dst: two launches on s. */
crk_status crk_softmax(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst, size_t n_rows,
                       size_t n_cols);
/* rmsnorm_<dt> / layernorm_<dt> of n_rows contiguous rows of n_cols; alpha
 * (and beta) hold n_cols elements or are NULL (no scale / no shift). When
 * n_cols is a multiple of 16 / sizeof(T) and src, dst, alpha and beta are
 * 16-byte aligned, the row runs our crk_<op>_vec_<dt> (16-byte loads, the
 * power of two >= n_cols·sizeof(T)/32 threads, 32 to 1024; a thread folds
 * its 16-byte chunks column by column): the f32 statistics round
 * differently from Candle's order, within the family's tolerance.
 * Otherwise Candle's kernel and launch, Candle's result bit for bit. */
crk_status crk_rmsnorm(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst,
                       const void *alpha, size_t n_rows, size_t n_cols, float eps);
crk_status crk_layernorm(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst,
                         const void *alpha, const void *beta, size_t n_rows, size_t n_cols, float eps);
/* rope_i_<dt>, rope_<dt> (src (b, h, t, d)) or rope_thd_<dt> (src (b, t, h,
 * d)), contiguous; cos and sin hold t rows of d/2 (more rows are allowed and
 * not read) or, when batched, b x t rows (then h·t·d, the kernel's
 * uint32_t stride_b, must fit 32 bits; the tensor itself may pass 2^32
 * elements). d must be even. When d/2 (rope_i:
 * t·d/2) is a multiple of 16 / sizeof(T) and src, cos, sin and dst are
 * 16-byte aligned, our crk_<op>_vec_<dt> runs (16 bytes of pairs a thread,
 * the same arithmetic: the same result); otherwise Candle's kernel. Pass
 * Candle's name: crk_rope picks the kernel. */
crk_status crk_rope(crk_ctx *ctx, crk_stream s, const char *name, const void *src, const void *cos,
                    const void *sin, void *dst, size_t b, size_t h, size_t t, size_t d, int batched);

/* ----------------------------------------------- module indexing (0.4) */
/* Candle's index_select, gather, index_add, scatter and scatter_add, with the
 * kernel named as Candle names it (is_<ids>_<T>, ...). An id selects a row
 * when it is in [0, dim) and is not its dtype's maximum (Candle's
 * sentinel): is/gather write 0 for any other id and ia/s/sa skip it; no id
 * ever makes a kernel touch memory outside the operands (upstream: a device
 * assert, and negative i64 ids read out of bounds). src, dst and (except
 * for index_select) ids must be contiguous; start offsets are applied.
 * out = src.index_select(ids, dim): ids of any layout (strided ids are read
 * through their strides; upstream misreads them), out contiguous with src's
 * shape but ids' element count at dim. */
crk_status crk_index_select(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                            const crk_layout *ids_l, const void *ids, size_t dim, void *out);
/* Off by default. On: the helpers above first copy the ids to the host
 * (after a device synchronisation) and, if an id is out of range (outside
 * [0, dim) and not the sentinel), return CRK_E_INVALID naming its position
 * and value, launching nothing. A debugging mode: it costs a sync and a
 * copy of the ids per call. */
crk_status crk_set_index_checks(crk_ctx *ctx, int on);
/* out = src.gather(ids, dim): ids has src's rank and dims but at dim; out
 * (contiguous) has ids' shape. */
crk_status crk_gather(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                      const crk_layout *ids_l, const void *ids, size_t dim, void *out);
/* In place: dst.index_add(ids, src, dim) with 1-D ids of src.dims[dim]
 * elements; src has dst's dims but at dim. Duplicates add in ids order:
 * every destination element is updated by one thread, in order, so the
 * result is Candle's bit for bit and the same on every run (no atomics).
 * The helpers' grid splits a column's destination rows among several
 * threads (kernels/indexing.h); Candle's grid gives the same result. */
crk_status crk_index_add(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *dst_l, void *dst,
                         const crk_layout *ids_l, const void *ids, const crk_layout *src_l, const void *src,
                         size_t dim);
/* In place: scatter (s_*: the last of duplicate ids wins) or scatter_add
 * (sa_*: they add, in order) of src into dst along dim; ids has src's
 * shape, src dst's dims but at dim. Deterministic, as index_add above. */
crk_status crk_scatter(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *dst_l, void *dst,
                       const crk_layout *ids_l, const void *ids, const crk_layout *src_l, const void *src,
                       size_t dim);
/* --------------------------------------------------- module sort (0.4) */
/* asort_asc_<dt> / asort_desc_<dt> (name: Candle's, or the fp8 spellings):
 * dst (u32, n_rows x n_cols, contiguous) gets, for each of n_rows
 * contiguous rows of src, the column indices that sort the row.
 *
 * Rows whose index array fits a block's shared memory without opt-in
 * (ncols_pad·4 bytes: n_cols <= 16384 on AMD's 64 KiB LDS, <= 8192 on
 * NVIDIA's 48 KiB) run Candle's network, so the order is Candle's exactly:
 * its bitonic network with strict comparisons, not stable (ties in the
 * network's order), a NaN compared false with everything (it stays where
 * the network leaves it). Where the row's keys fit beside the indices
 * (about ncols_pad·(sizeof(T) + 2) bytes) the network runs with the keys cached
 * in shared memory (crk_asort_keyed_*), else it is Candle's kernel under
 * Candle's launch: the same result either way.
 *
 * Longer rows (up to 2^32 - 1 columns) are sorted by our kernels: chunks
 * of 2048 columns sorted in shared memory, then merge passes between dst
 * and a workspace. Their order is a total one: by value (ascending or
 * descending; -0 equals +0), ties in column order (stable), and every NaN
 * after every number in both orders, NaNs in column order.
 *
 * workspace: NULL, or workspace_bytes >= crk_argsort_workspace_size(...)
 * bytes of device memory (not read). With NULL and a long row, libcrk
 * allocates it, and synchronises the device before freeing it (the call
 * then returns with the sort done). No rows or no columns (src and dst
 * still non-NULL): nothing launched, CRK_OK. CRK_E_INVALID, with the fix
 * in the message: a name other than asort_*, NULL ctx/src/dst, more than
 * 2^32 - 1 columns, a workspace below the size, more than 2^31 - 1 rows
 * of Candle's kernel. */
crk_status crk_argsort(crk_ctx *ctx, crk_stream s, const char *name, const void *src, uint32_t *dst,
                       size_t n_rows, size_t n_cols, void *workspace, size_t workspace_bytes);
/* Device bytes crk_argsort needs as workspace for these rows on ctx's
 * device: 0 for rows Candle's kernel sorts, n_rows·n_cols·4 for longer
 * ones; SIZE_MAX (crk_last_error says why) for a NULL ctx or a size that
 * overflows. */
size_t crk_argsort_workspace_size(const crk_ctx *ctx, size_t n_rows, size_t n_cols);

/* ---------------------------------------------- module quantized (0.7) */
/* dequantize_block_<type>_{f16,f32} (type: q4_0 q4_1 q5_0 q5_1 q8_0 q2_K
 * q3_K q4_K q5_K q6_K q8_K): dst (nvalues of f16/f32) = the nvalues/block
 * GGML blocks at src, bit for bit as Candle's kernels (f16: the f32 value
 * rounded to nearest even). nvalues must be a whole number of blocks (32
 * or 256 values), else CRK_E_INVALID; 0 launches nothing. Unlike upstream's
 * int k, any count: libcrk splits the work into launches. */
crk_status crk_dequantize(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst,
                          size_t nvalues);
/* get_rows_<type> (also q-types without q8_K, and f32, f16, bf16), as
 * Candle's QCudaStorage::embedding: dst (n_ids x hidden f32, contiguous)
 * row r = row ids[r] of the src_rows x hidden matrix src (GGML rows of
 * hidden/block blocks). An id >= src_rows gives a row of zeros (upstream
 * reads out of bounds: it does not know src_rows): libcrk launches
 * crk_get_rows_<type>, which takes it. hidden must be whole blocks. */
crk_status crk_get_rows(crk_ctx *ctx, crk_stream s, const char *name, const void *src, size_t src_rows,
                        size_t hidden, const uint32_t *ids, size_t n_ids, float *dst);
/* dequantize_mul_mat_vec_<type> (Candle's DMMV, used with
 * set_force_dmmv): dst[r] = Σ_k W[r, k]·y[k] in f32 for the nrows x
 * ncols GGML matrix vx (rows of ncols/block blocks) and the f32 vector y.
 * ncols must be whole blocks, nrows and ncols below 2^31. Sums run in a
 * different order from upstream's (a block of threads a row, a tree
 * across it): results agree within f32 rounding, not bit for bit. */
crk_status crk_dequantize_mul_mat_vec(crk_ctx *ctx, crk_stream s, const char *name, const void *vx, const float *y,
                                      float *dst, size_t ncols, size_t nrows);
/* quantize_q8_1, as Candle's quantize_q8_1 (the activations of the
 * quantized matmuls): each of `rows` rows of kx values at x (row stride
 * kx; f32, or for mmvq_gguf_quantize_q8_1_<dt> (0.8) the name's bf16/f16/
 * f32, made f32 first) becomes kx_padded/32 q8_1 blocks (36 bytes: half d
 * = max|x|/127, half Σx of the unquantized values, int8 q = roundf(x/d),
 * 0 for an all-zero block) at vy, rows back to back; positions past kx
 * count as 0. kx_padded must be a multiple of 32, >= kx and < 2^31 (Candle
 * passes kx rounded up to 512); any number of rows (launches of up to
 * 65535). NaN inputs are undefined, as upstream's. */
crk_status crk_quantize_q8_1(crk_ctx *ctx, crk_stream s, const char *name, const void *x, void *vy, size_t kx,
                             size_t kx_padded, size_t rows);

/* ------------------------------------------------------ MMVQ (0.8) */
/* mul_mat_vec_<type>_q8_1_cuda<b> (Candle's PTX kernels) and
 * mmvq_gguf_<type>_<dt>_plain_cuda<b> (its static library's), b = 1..8
 * from the name: dst[j·dst_stride + r] = Σ_k W[r, k]·y_j[k] for r <
 * nrows, j < b; W the nrows x ncols GGML matrix vx (rows of ncols/block
 * blocks, ncols whole blocks), y_j the q8_1 rows at vy, y_stride blocks
 * apart (>= ncols/32; Candle: ncols padded to 512, by crk_quantize_q8_1).
 * Integer dot products, f32 sums; dst f32 (PTX names) or the name's dtype
 * (one rounding to nearest even). dst_stride >= nrows where b > 1. Unlike
 * upstream's PTX kernels, an odd nrows writes nothing past row nrows - 1.
 * Sizes below 2^31; vy 4-byte and dst element aligned, vx 2-byte (4-byte
 * for q4_1, q5_1, q2_K, q4_K, q5_K, whose GGML blocks hold a half2). */
crk_status crk_mul_mat_vec_q8_1(crk_ctx *ctx, crk_stream s, const char *name, const void *vx, const void *vy,
                                void *dst, size_t ncols, size_t nrows, size_t y_stride, size_t dst_stride);
/* indexed_moe_forward_<t>_q8_1 (t: q2k q3k q4k q5k q6k q8_0), Candle's
 * QCudaStorage::indexed_moe_forward: for b < batch, t < topk, r < n:
 * out[(b·topk + t)·n + r] = Σ_k W_e[r, k]·x[k], e = ids[b·topk + t], W_e the
 * e-th of the experts at weights (each n x k GGML blocks, back to back),
 * x the q8_1 row (k_padded/32 blocks) b (input_dim1 = 1) or b·topk + t.
 * k whole blocks, k_padded >= k (Candle: k padded to 512), batch and topk
 * below 65536 (grid y and z). Unlike upstream, q8_0's experts are n·k/32
 * blocks apart (upstream: n·k/256, so experts past 0 read wrong weights).
 * ids must be below the expert count, which neither signature knows. */
crk_status crk_indexed_moe_forward(crk_ctx *ctx, crk_stream s, const char *name, const void *weights,
                                   const void *inputs, const uint32_t *ids, float *out, size_t n, size_t k,
                                   size_t batch, size_t topk, size_t k_padded, size_t input_dim1);

/* Raw launch of any registry kernel: args[i] points at the value of
 * parameter i, sizes[i] must equal its size (checked against the registry);
 * shared_bytes of dynamic shared memory (LDS) per block. Symbol version
 * CRK_0.2: programs built against 0.1, whose crk_launch had no shared_bytes,
 * keep calling that one (crk_launch@CRK_0.1, which launches with none). */
crk_status crk_launch(crk_ctx *ctx, crk_stream s, const char *name, const unsigned grid[3],
                      const unsigned block[3], unsigned shared_bytes, void **args, const size_t *sizes,
                      size_t nargs);

#ifdef __cplusplus
}
#endif
#endif
