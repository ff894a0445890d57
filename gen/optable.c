/* optable.c — the op table. Adding a dtype, op or family starts here. */
#include "optable.h"
#include <string.h>

const gen_dtype GEN_DTYPES[CRK_DTYPE_COUNT] = {
    [CRK_U8] = {"u8", "uint8_t", "uint8_t", 1},
    [CRK_U32] = {"u32", "uint32_t", "uint32_t", 4},
    [CRK_I16] = {"i16", "int16_t", "int16_t", 2},
    [CRK_I32] = {"i32", "int32_t", "int32_t", 4},
    [CRK_I64] = {"i64", "int64_t", "int64_t", 8},
    [CRK_BF16] = {"bf16", "crk::bf16", "__nv_bfloat16", 2},
    [CRK_F16] = {"f16", "crk::f16", "__half", 2},
    [CRK_F32] = {"f32", "float", "float", 4},
    [CRK_F64] = {"f64", "double", "double", 8},
    [CRK_F8E4M3] = {"f8e4m3", "crk::f8", "__nv_fp8_e4m3", 1},
};

/* Candle's kernels::Id order (gen_module_id). */
const char *const GEN_MODULES[MOD_COUNT] = {
    [MOD_AFFINE] = "affine", [MOD_BINARY] = "binary",       [MOD_CAST] = "cast",
    [MOD_CONV] = "conv",     [MOD_FILL] = "fill",           [MOD_INDEXING] = "indexing",
    [MOD_QUANTIZED] = "quantized", [MOD_REDUCE] = "reduce", [MOD_SORT] = "sort",
    [MOD_TERNARY] = "ternary", [MOD_UNARY] = "unary",
};

/* ------------------------------------------------------- parameter lists */
#define P_NUMEL {"numel", CRK_ROLE_NUMEL, PT_SIZE, PM_CONST_VALUE}
#define P_NDIMS {"num_dims", CRK_ROLE_NUM_DIMS, PT_SIZE, PM_CONST_VALUE}
#define P_INFO(n) {n, CRK_ROLE_INFO, PT_SIZE, PM_CONST_PTR}
#define P_IN(n, t) {n, CRK_ROLE_INPUT, t, PM_CONST_PTR}
#define P_OUT(n, t) {n, CRK_ROLE_OUTPUT, t, PM_PTR}
#define P_SCALAR(n, t) {n, CRK_ROLE_SCALAR, t, PM_CONST_VALUE}
#define HEAD P_NUMEL, P_NDIMS, P_INFO("info")

static const gen_param SIG_UNARY[] = {HEAD, P_IN("inp", PT_AXIS0), P_OUT("out", PT_AXIS0), {0}};
static const gen_param SIG_UNARY1[] = {HEAD, P_SCALAR("param", PT_AXIS0), P_IN("inp", PT_AXIS0),
                                       P_OUT("out", PT_AXIS0), {0}};
static const gen_param SIG_CAST[] = {HEAD, P_IN("inp", PT_AXIS0), P_OUT("out", PT_AXIS1), {0}};
static const gen_param SIG_WHERE[] = {HEAD, P_IN("ids", PT_AXIS0), P_IN("t", PT_AXIS1), P_IN("f", PT_AXIS1),
                                      P_OUT("out", PT_AXIS1), {0}};
static const gen_param SIG_AFFINE[] = {HEAD, P_IN("inp", PT_AXIS0), P_OUT("out", PT_AXIS0),
                                       P_SCALAR("mul", PT_AXIS0), P_SCALAR("add", PT_AXIS0), {0}};
#define BIN_HEAD P_NUMEL, P_NDIMS, P_INFO("dims_and_strides"), P_IN("lhs", PT_AXIS0), P_IN("rhs", PT_AXIS0)
static const gen_param SIG_BINARY[] = {BIN_HEAD, P_OUT("out", PT_AXIS0), {0}};
static const gen_param SIG_CMP[] = {BIN_HEAD, P_OUT("out", PT_U8), {0}};
static const gen_param SIG_FILL[] = {P_OUT("buf", PT_AXIS0), {"value", CRK_ROLE_SCALAR, PT_AXIS0, PM_VALUE},
                                     P_NUMEL, {0}};
static const gen_param SIG_CONST_SET[] = {HEAD, P_SCALAR("inp", PT_AXIS0), P_OUT("out", PT_AXIS0), {0}};
#define P_U32(n) {n, CRK_ROLE_SCALAR, PT_U32, PM_VALUE}
static const gen_param SIG_COPY2D[] = {P_IN("src", PT_AXIS0), P_OUT("dst", PT_AXIS0), P_U32("d1"), P_U32("d2"),
                                       P_U32("src_s"), P_U32("dst_s"), {0}};

/* module reduce (§4.10-§4.13) */
#define P_SIZE(n) {n, CRK_ROLE_SCALAR, PT_SIZE, PM_CONST_VALUE}
#define FAST_HEAD {"src_numel", CRK_ROLE_NUMEL, PT_SIZE, PM_CONST_VALUE}, P_SIZE("el_to_sum_per_block"), P_NDIMS, \
                  P_INFO("info"), P_IN("src", PT_AXIS0)
static const gen_param SIG_FAST[] = {FAST_HEAD, P_OUT("dst", PT_AXIS0), {0}};
static const gen_param SIG_FAST_ARG[] = {FAST_HEAD, P_OUT("dst", PT_U32), {0}};
/* info = [dims, strides, sum_dims_l, sum_dims_s] (kernels/sum.h) */
static const gen_param SIG_SUM[] = {P_NUMEL, P_NDIMS, P_SIZE("num_sum_dims"), P_INFO("info"), P_IN("inp", PT_AXIS0),
                                    P_OUT("out", PT_AXIS0), {0}};
#define P_INT(n) {n, CRK_ROLE_SCALAR, PT_INT, PM_CONST_VALUE}
#define P_CU32(n) {n, CRK_ROLE_SCALAR, PT_U32, PM_CONST_VALUE}
static const gen_param SIG_SOFTMAX[] = {P_IN("src", PT_AXIS0), P_OUT("dst", PT_AXIS0), P_INT("n_cols"), {0}};
static const gen_param SIG_SOFTMAX_SPLIT[] = {P_IN("src", PT_AXIS0), P_OUT("dst", PT_AXIS0), P_INT("n_cols"),
                                             P_INT("pieces"), {0}};
/* crk_softmax_wide: a persistent grid's rows (kernels/rows.h) */
static const gen_param SIG_SOFTMAX_ROWS[] = {P_IN("src", PT_AXIS0), P_OUT("dst", PT_AXIS0), P_INT("n_cols"),
                                            P_INT("n_rows"), {0}};
#define NORM_TAIL P_INT("n_cols"), P_INT("block_size"), {"eps", CRK_ROLE_SCALAR, PT_FLOAT, PM_CONST_VALUE}, {0}
static const gen_param SIG_RMSNORM[] = {P_IN("src", PT_AXIS0), P_OUT("dst", PT_AXIS0), P_IN("alpha", PT_AXIS0),
                                        NORM_TAIL};
static const gen_param SIG_LAYERNORM[] = {P_IN("src", PT_AXIS0), P_OUT("dst", PT_AXIS0), P_IN("alpha", PT_AXIS0),
                                          P_IN("beta", PT_AXIS0), NORM_TAIL};
#define ROPE_HEAD P_IN("src", PT_AXIS0), P_IN("cos", PT_AXIS0), P_IN("sin", PT_AXIS0), P_OUT("dst", PT_AXIS0)
static const gen_param SIG_ROPE_I[] = {ROPE_HEAD, P_CU32("bh"), P_CU32("td"), P_CU32("stride_b"), {0}};
static const gen_param SIG_ROPE[] = {ROPE_HEAD, P_CU32("bh"), P_CU32("td"), P_CU32("d"), P_CU32("stride_b"), {0}};
static const gen_param SIG_ROPE_THD[] = {ROPE_HEAD, P_CU32("b"), P_CU32("t"), P_CU32("h"), P_CU32("d"),
                                         P_CU32("stride_b"), {0}};

/* module indexing (§4.9): ids on axis 0, data on axis 1 */
#define P_IDS P_IN("ids", PT_AXIS0)
#define IDX_SIZES(dim) P_SIZE("left_size"), P_SIZE("src_dim_size"), P_SIZE(dim), P_SIZE("right_size"), {0}
static const gen_param SIG_IS[] = {P_NUMEL, P_NDIMS, P_INFO("info"), P_IDS, P_IN("inp", PT_AXIS1),
                                   P_OUT("out", PT_AXIS1), IDX_SIZES("ids_dim_size")};
static const gen_param SIG_GATHER[] = {P_NUMEL, P_IDS, P_IN("inp", PT_AXIS1), P_OUT("out", PT_AXIS1),
                                       IDX_SIZES("ids_dim_size")};
static const gen_param SIG_IA[] = {P_IDS, P_SIZE("ids_dim_size"), P_IN("inp", PT_AXIS1), P_OUT("out", PT_AXIS1),
                                   IDX_SIZES("dst_dim_size")};
static const gen_param SIG_SCATTER[] = {P_IDS, P_IN("inp", PT_AXIS1), P_OUT("out", PT_AXIS1),
                                        IDX_SIZES("dst_dim_size")};
/* module sort (§4.17): Candle's asort_<order>_<dt>, and ours for rows past
 * shared memory (chunks sorted in a block, then merge passes; size_t sizes) */
static const gen_param SIG_ASORT[] = {P_IN("x", PT_AXIS0), P_OUT("dst", PT_U32), P_INT("ncols"),
                                      {"ncols_pad", CRK_ROLE_SCALAR, PT_INT, PM_VALUE}, {0}};
static const gen_param SIG_ASORT_CHUNK[] = {P_IN("x", PT_AXIS0), P_OUT("dst", PT_U32), P_SIZE("ncols"),
                                            P_SIZE("nrows"), {0}};
static const gen_param SIG_ASORT_MERGE[] = {P_IN("x", PT_AXIS0), P_IN("src", PT_U32), P_OUT("dst", PT_U32),
                                            P_SIZE("ncols"), P_SIZE("nrows"), P_SIZE("width"), {0}};

/* module conv (§4.14-§4.16): info = [src dims, src strides(, k dims, k
 * strides)] of rank 3 (1-D) or 4 (2-D); the scalars are size_t unless said */
#define P_SRC_NUMEL {"src_numel", CRK_ROLE_NUMEL, PT_SIZE, PM_CONST_VALUE}
#define CONV_TAIL P_INFO("info"), P_IN("src", PT_AXIS0), P_IN("kernel", PT_AXIS0), P_OUT("dst", PT_AXIS0), {0}
#define COL_TAIL P_INFO("info"), P_IN("src", PT_AXIS0), P_OUT("dst", PT_AXIS0), {0}
static const gen_param SIG_CONV1D[] = {P_SRC_NUMEL, P_SIZE("num_dims"), P_SIZE("stride"), P_SIZE("padding"),
                                       P_SIZE("dilation"), CONV_TAIL};
static const gen_param SIG_CONV2D[] = {P_SRC_NUMEL, P_SIZE("w_out"), P_SIZE("h_out"), P_SIZE("stride"),
                                       P_SIZE("padding"), P_SIZE("dilation"), CONV_TAIL};
static const gen_param SIG_CONVT1D[] = {P_SRC_NUMEL, P_SIZE("l_out"), P_SIZE("stride"), P_SIZE("padding"),
                                        P_SIZE("out_padding"), P_SIZE("dilation"), CONV_TAIL};
static const gen_param SIG_CONVT2D[] = {P_SRC_NUMEL, P_SIZE("w_out"), P_SIZE("h_out"), P_SIZE("stride"),
                                        P_SIZE("padding"), P_SIZE("out_padding"), P_SIZE("dilation"), CONV_TAIL};
#define P_DST_NUMEL {"dst_numel", CRK_ROLE_NUMEL, PT_SIZE, PM_CONST_VALUE}
static const gen_param SIG_IM2COL1D[] = {P_DST_NUMEL, P_SIZE("l_out"), P_SIZE("l_k"), P_SIZE("stride"),
                                         P_SIZE("padding"), P_SIZE("dilation"), COL_TAIL};
static const gen_param SIG_IM2COL[] = {P_DST_NUMEL, P_SIZE("h_out"), P_SIZE("w_out"), P_SIZE("h_k"), P_SIZE("w_k"),
                                       P_SIZE("stride"), P_SIZE("padding"), P_SIZE("dilation"), COL_TAIL};
static const gen_param SIG_COL2IM1D[] = {{"dst_el", CRK_ROLE_NUMEL, PT_SIZE, PM_CONST_VALUE}, P_SIZE("l_out"),
                                         P_SIZE("l_in"), P_SIZE("c_out"), P_SIZE("k_size"), P_SIZE("stride"),
                                         P_IN("src", PT_AXIS0), P_OUT("dst", PT_AXIS0), {0}};
static const gen_param SIG_POOL[] = {P_SRC_NUMEL, P_SIZE("w_k"), P_SIZE("h_k"), P_SIZE("w_stride"),
                                     P_SIZE("h_stride"), COL_TAIL};
#define P_DOUBLE(n) {n, CRK_ROLE_SCALAR, PT_DOUBLE, PM_CONST_VALUE}
#define P_BOOL(n) {n, CRK_ROLE_SCALAR, PT_BOOL, PM_CONST_VALUE}
static const gen_param SIG_UPSAMPLE_NEAREST[] = {P_SIZE("w_out"), P_SIZE("h_out"), P_DOUBLE("w_scale"),
                                                 P_DOUBLE("h_scale"), COL_TAIL};
static const gen_param SIG_UPSAMPLE_BILINEAR[] = {P_SIZE("w_out"), P_SIZE("h_out"), P_BOOL("align_corners"),
                                                  P_BOOL("has_scale_h"), P_DOUBLE("scale_h_factor"),
                                                  P_BOOL("has_scale_w"), P_DOUBLE("scale_w_factor"), COL_TAIL};

/* module quantized (§4.18): GGML blocks read as bytes (void *) */
static const gen_param SIG_DEQUANT[] = {P_IN("vx", PT_VOID), P_OUT("y", PT_AXIS0), P_INT("k"), {0}};
static const gen_param SIG_DEQUANT_K[] = {P_IN("vx", PT_VOID), P_OUT("y", PT_AXIS0), {0}};
#define GET_ROWS(src, ...) \
    {P_IN("src0", src), P_IN("src1", PT_U32), P_OUT("dst", PT_FLOAT), \
     {"ne00", CRK_ROLE_SCALAR, PT_I64, PM_CONST_VALUE}, P_SIZE("nb01"), __VA_ARGS__ {0}}
static const gen_param SIG_GET_ROWS[] = GET_ROWS(PT_VOID);
static const gen_param SIG_GET_ROWS_F32[] = GET_ROWS(PT_FLOAT);
static const gen_param SIG_GET_ROWS_F16[] = GET_ROWS(PT_F16);
static const gen_param SIG_GET_ROWS_BF16[] = GET_ROWS(PT_BF16);
/* libcrk's: the source's row count, so that an id past it writes zeros */
static const gen_param SIG_GET_ROWS_CHECKED[] = GET_ROWS(PT_VOID, P_SIZE("nrows"),);
static const gen_param SIG_GET_ROWS_CHECKED_F32[] = GET_ROWS(PT_FLOAT, P_SIZE("nrows"),);
static const gen_param SIG_GET_ROWS_CHECKED_F16[] = GET_ROWS(PT_F16, P_SIZE("nrows"),);
static const gen_param SIG_GET_ROWS_CHECKED_BF16[] = GET_ROWS(PT_BF16, P_SIZE("nrows"),);
#undef GET_ROWS
/* dequantize_mul_mat_vec_*: upstream spells y "yy" and nrows non-const for
 * the K types, and q5_k has no nrows */
static const gen_param SIG_DMMV[] = {P_IN("vx", PT_VOID), P_IN("y", PT_FLOAT), P_OUT("dst", PT_FLOAT), P_INT("ncols"),
                                     P_INT("nrows"), {0}};
static const gen_param SIG_DMMV_K[] = {P_IN("vx", PT_VOID), P_IN("yy", PT_FLOAT), P_OUT("dst", PT_FLOAT), P_INT("ncols"),
                                       {"nrows", CRK_ROLE_SCALAR, PT_INT, PM_VALUE}, {0}};
static const gen_param SIG_DMMV_Q5K[] = {P_IN("vx", PT_VOID), P_IN("yy", PT_FLOAT), P_OUT("dst", PT_FLOAT),
                                         P_INT("ncols"), {0}};
#define QUANTIZE_Q8_1(t) {P_IN("x", t), P_OUT("vy", PT_VOID), P_INT("kx"), P_INT("kx_padded"), {0}}
static const gen_param SIG_QUANTIZE_Q8_1[] = QUANTIZE_Q8_1(PT_FLOAT);
static const gen_param SIG_QUANTIZE_Q8_1_F16[] = QUANTIZE_Q8_1(PT_F16);
static const gen_param SIG_QUANTIZE_Q8_1_BF16[] = QUANTIZE_Q8_1(PT_BF16);
#undef QUANTIZE_Q8_1
/* MMVQ (kernels/mmvq.h): Candle's PTX kernels (y's column stride nrows_y
 * in values) and the static library's (stride_col_y in q8_1 blocks, dst
 * in the input's dtype) */
static const gen_param SIG_MMVQ[] = {P_IN("vx", PT_VOID), P_IN("vy", PT_VOID), P_OUT("dst", PT_FLOAT),
                                     P_INT("ncols_x"), P_INT("nrows_x"), P_INT("nrows_y"), P_INT("nrows_dst"), {0}};
#define MMVQ_GGUF(t) {P_IN("vx", PT_VOID), P_IN("vy", PT_VOID), P_OUT("dst", t), P_INT("ncols_x"), \
                      P_INT("nrows_x"), P_INT("stride_col_y"), P_INT("stride_col_dst"), {0}}
static const gen_param SIG_MMVQ_GGUF_f32[] = MMVQ_GGUF(PT_FLOAT);
static const gen_param SIG_MMVQ_GGUF_f16[] = MMVQ_GGUF(PT_F16);
static const gen_param SIG_MMVQ_GGUF_bf16[] = MMVQ_GGUF(PT_BF16);
#undef MMVQ_GGUF
/* indexed_moe_forward_<t>_q8_1 (kernels/mmvq.h) */
static const gen_param SIG_MOE[] = {P_IN("all_weights", PT_VOID), P_IN("all_inputs", PT_VOID),
                                    P_IN("indices", PT_UINT), P_OUT("all_outputs", PT_FLOAT), P_INT("n"), P_INT("k"),
                                    P_INT("batch"), P_INT("topk"), P_INT("k_padded"), P_INT("input_dim1"), {0}};

/* ------------------------------------------------------------------ ops */
#define U(op, f) {op, "crk::" f, NULL, 1, NULL, 0}
#define U1(op, f) {op, "crk::" f, SIG_UNARY1, 1, NULL, 0}
static const gen_op UNARY_OPS[] = {
    {"copy", "crk::OpCopy", NULL, 0, "f8_e4m3", 0},
    U("neg", "OpNeg"),    U("recip", "OpRecip"),     U("exp", "OpExp"),      U("log", "OpLog"),
    U("sin", "OpSin"),    U("cos", "OpCos"),         U("tanh", "OpTanh"),    U("erf", "OpErf"),
    U("ceil", "OpCeil"),  U("floor", "OpFloor"),     U("round", "OpRound"),  U("normcdf", "OpNormcdf"),
    U("abs", "OpAbs"),    U("sqr", "OpSqr"),         U("sqrt", "OpSqrt"),    U("gelu", "OpGelu"),
    U("gelu_erf", "OpGeluErf"), U("relu", "OpRelu"), U1("elu", "OpElu"),     U("silu", "OpSilu"),
    U1("powf", "OpPowf"), U("sign", "OpSign"),       U("sigmoid", "OpSigmoid"),
};
#define B(op, f) {op, "crk::" f, NULL, 0, NULL, 0}
static const gen_op BINARY_OPS[] = {
    B("add", "OpAdd"), B("sub", "OpSub"), B("mul", "OpMul"),
    B("div", "OpDiv"), B("maximum", "OpMaximum"), B("minimum", "OpMinimum"),
};
static const gen_op CMP_OPS[] = {
    B("eq", "OpEq"), B("ne", "OpNe"), B("lt", "OpLt"), B("le", "OpLe"), B("gt", "OpGt"), B("ge", "OpGe"),
};
static const gen_op REDUCE_OPS[] = {
    B("sum", "RedSum"), B("min", "RedMin"), B("max", "RedMax"),
    {"argmin", "crk::RedArgMin", SIG_FAST_ARG, 0, NULL, 0}, {"argmax", "crk::RedArgMax", SIG_FAST_ARG, 0, NULL, 0},
    /* libcrk's: reductions over a middle dim of a contiguous (B, E, C) view (kernels/reduce.h) */
    B("crk_fast_sum_cols", "Cols<crk::RedSum>"), B("crk_fast_min_cols", "Cols<crk::RedMin>"),
    B("crk_fast_max_cols", "Cols<crk::RedMax>"),
};
/* one 1024-thread block an SM: 64-bit index divisions spilled at 32 registers (nvcc, 96 bytes) */
static const gen_op SUM_OPS[] = {{"sum", "crk::atomic_sum", NULL, 0, NULL, 1}};
/* Families without a shared body: each op's functor is its device function. */
static const gen_op NORM_OPS[] = {
    {"rmsnorm", "crk::rmsnorm", SIG_RMSNORM, 0, NULL, 0}, {"layernorm", "crk::layernorm", SIG_LAYERNORM, 0, NULL, 0},
    {"crk_rmsnorm_vec", "crk::rmsnorm_vec", SIG_RMSNORM, 0, NULL, 0},
    {"crk_layernorm_vec", "crk::layernorm_vec", SIG_LAYERNORM, 0, NULL, 0},
};
static const gen_op ROPE_OPS[] = {
    {"rope_i", "crk::rope_i", SIG_ROPE_I, 0, NULL, 0}, {"rope", "crk::rope", SIG_ROPE, 0, NULL, 0},
    {"rope_thd", "crk::rope_thd", SIG_ROPE_THD, 0, NULL, 0},
    /* libcrk's: 16 bytes of pairs a thread (kernels/rope.h) */
    {"crk_rope_i_vec", "crk::rope_i_vec", SIG_ROPE_I, 0, NULL, 0}, {"crk_rope_vec", "crk::rope_vec", SIG_ROPE, 0, NULL, 0},
    {"crk_rope_thd_vec", "crk::rope_thd_vec", SIG_ROPE_THD, 0, NULL, 0},
};
static const gen_op INDEXING_OPS[] = {
    {"is", "crk::index_select", SIG_IS, 0, NULL, 0},  {"gather", "crk::gather", SIG_GATHER, 0, NULL, 0},
    {"ia", "crk::index_add", SIG_IA, 0, NULL, 0},     {"s", "crk::scatter", SIG_SCATTER, 0, NULL, 0},
    {"sa", "crk::scatter_add", SIG_SCATTER, 0, NULL, 0},
};
static const gen_op SORT_OPS[] = {
    {"asort_asc", "crk::asort_asc", NULL, 0, NULL, 0}, {"asort_desc", "crk::asort_desc", NULL, 0, NULL, 0},
    {"crk_asort_keyed_asc", "crk::asort_keyed_asc", NULL, 0, NULL, 0},
    {"crk_asort_keyed_desc", "crk::asort_keyed_desc", NULL, 0, NULL, 0},
    {"crk_asort_chunk_asc", "crk::asort_chunk_asc", SIG_ASORT_CHUNK, 0, NULL, 0},
    {"crk_asort_chunk_desc", "crk::asort_chunk_desc", SIG_ASORT_CHUNK, 0, NULL, 0},
    {"crk_asort_merge_asc", "crk::asort_merge_asc", SIG_ASORT_MERGE, 0, NULL, 0},
    {"crk_asort_merge_desc", "crk::asort_merge_desc", SIG_ASORT_MERGE, 0, NULL, 0},
};
static const gen_op SOFTMAX_OPS[] = {
    {"softmax", "crk::softmax", NULL, 0, NULL, 0}, {"crk_softmax_vec", "crk::softmax_vec", NULL, 0, NULL, 0},
    {"crk_softmax_wide", "crk::softmax_wide", SIG_SOFTMAX_ROWS, 0, NULL, 1},
    {"crk_softmax_part", "crk::softmax_part", SIG_SOFTMAX_SPLIT, 0, NULL, 0},
    {"crk_softmax_fin", "crk::softmax_fin", SIG_SOFTMAX_SPLIT, 0, NULL, 0},
};
/* module conv: each op's functor is its device function (kernels/conv.h) */
#define F(op, sig) {#op, "crk::" #op, sig, 0, NULL, 0}
static const gen_op CONV_OPS[] = {
    F(conv1d, SIG_CONV1D),     F(conv2d, SIG_CONV2D),     F(conv_transpose1d, SIG_CONVT1D),
    F(conv_transpose2d, SIG_CONVT2D), F(im2col1d, SIG_IM2COL1D), F(im2col, SIG_IM2COL),
    F(col2im1d, SIG_COL2IM1D),
    /* libcrk's row walks of im2col (kernels/conv.h unfold_rows), 64 registers */
    {"crk_im2col1d_rows", "crk::im2col1d_rows", SIG_IM2COL1D, 0, NULL, 1},
    {"crk_im2col_rows", "crk::im2col_rows", SIG_IM2COL, 0, NULL, 1},
};
static const gen_op POOL_OPS[] = {
    F(avg_pool2d, SIG_POOL), F(max_pool2d, SIG_POOL),
    /* libcrk's runs of outputs from registers (kernels/conv.h pool_rows), 64 registers */
    {"crk_avg_pool2d_rows", "crk::avg_pool2d_rows", SIG_POOL, 0, NULL, 1},
    {"crk_max_pool2d_rows", "crk::max_pool2d_rows", SIG_POOL, 0, NULL, 1},
};
static const gen_op UPSAMPLE_OPS[] = {
    F(upsample_nearest2d, SIG_UPSAMPLE_NEAREST), F(upsample_bilinear2d, SIG_UPSAMPLE_BILINEAR),
    /* libcrk's strips of outputs (kernels/conv.h upsample_bilinear2d_strips), 64 registers */
    {"crk_upsample_bilinear2d_strips", "crk::upsample_bilinear2d_strips", SIG_UPSAMPLE_BILINEAR, 0, NULL, 1},
};
#undef F
/* module quantized: each op's functor is its block type (kernels/quantized.h) */
#define Q(t, B, sig) {t, "crk::" B, sig, 0, NULL, 0}
static const gen_op DEQUANT_OPS[] = {
    Q("q4_0", "BlockQ4_0", SIG_DEQUANT),   Q("q4_1", "BlockQ4_1", SIG_DEQUANT),   Q("q5_0", "BlockQ5_0", SIG_DEQUANT),
    Q("q5_1", "BlockQ5_1", SIG_DEQUANT),   Q("q8_0", "BlockQ8_0", SIG_DEQUANT),   Q("q2_K", "BlockQ2_K", SIG_DEQUANT_K),
    Q("q3_K", "BlockQ3_K", SIG_DEQUANT_K), Q("q4_K", "BlockQ4_K", SIG_DEQUANT_K), Q("q5_K", "BlockQ5_K", SIG_DEQUANT_K),
    Q("q6_K", "BlockQ6_K", SIG_DEQUANT_K), Q("q8_K", "BlockQ8_K", SIG_DEQUANT_K),
};
#define QR(t, B) Q(#t, B, SIG_GET_ROWS), Q("crk_get_rows_" #t, B, SIG_GET_ROWS_CHECKED)
static const gen_op GET_ROWS_OPS[] = {
    QR(q4_0, "BlockQ4_0"), QR(q4_1, "BlockQ4_1"), QR(q5_0, "BlockQ5_0"), QR(q5_1, "BlockQ5_1"),
    QR(q8_0, "BlockQ8_0"), QR(q2_K, "BlockQ2_K"), QR(q3_K, "BlockQ3_K"), QR(q4_K, "BlockQ4_K"),
    QR(q5_K, "BlockQ5_K"), QR(q6_K, "BlockQ6_K"),
    {"f32", "float", SIG_GET_ROWS_F32, 0, NULL, 0},        {"crk_get_rows_f32", "float", SIG_GET_ROWS_CHECKED_F32, 0, NULL, 0},
    {"f16", "crk::f16", SIG_GET_ROWS_F16, 0, NULL, 0},     {"crk_get_rows_f16", "crk::f16", SIG_GET_ROWS_CHECKED_F16, 0, NULL, 0},
    {"bf16", "crk::bf16", SIG_GET_ROWS_BF16, 0, NULL, 0},  {"crk_get_rows_bf16", "crk::bf16", SIG_GET_ROWS_CHECKED_BF16, 0, NULL, 0},
};
#undef QR
static const gen_op DMMV_OPS[] = {
    Q("q4_0_cuda", "BlockQ4_0", SIG_DMMV), Q("q4_1_cuda", "BlockQ4_1", SIG_DMMV), Q("q5_0_cuda", "BlockQ5_0", SIG_DMMV),
    Q("q5_1_cuda", "BlockQ5_1", SIG_DMMV), Q("q8_0_cuda", "BlockQ8_0", SIG_DMMV), Q("q2_k", "BlockQ2_K", SIG_DMMV_K),
    Q("q3_k", "BlockQ3_K", SIG_DMMV_K),    Q("q4_k", "BlockQ4_K", SIG_DMMV_K),    Q("q5_k", "BlockQ5_K", SIG_DMMV_Q5K),
    Q("q6_k", "BlockQ6_K", SIG_DMMV_K),
};
static const gen_op QUANTIZE_OPS[] = {
    {"quantize_q8_1", "crk::quantize_q8_1", NULL, 0, NULL, 0},
    {"mmvq_gguf_quantize_q8_1_bf16", "crk::quantize_q8_1", SIG_QUANTIZE_Q8_1_BF16, 0, NULL, 0},
    {"mmvq_gguf_quantize_q8_1_f16", "crk::quantize_q8_1", SIG_QUANTIZE_Q8_1_F16, 0, NULL, 0},
    {"mmvq_gguf_quantize_q8_1_f32", "crk::quantize_q8_1", SIG_QUANTIZE_Q8_1, 0, NULL, 0},
};
/* MMVQ's 10 weight types: the PTX kernels spell K types q2_K, the static
 * library's q2_k; X(ptx name, static-library name, block type, r1, r4).
 * r1, r4: NVIDIA's 256-thread blocks an SM for b = 1 (the decode step)
 * and b = 4; other b: the family's 2. A block runs a handful of steps, so
 * the blocks in flight set the loads in flight. r1 = 8 (32 registers,
 * Candle's 16 blocks of 128 threads an SM, no spills with nvcc 13) took
 * q4_0 b = 1 1.02-1.04x and q4_K 1.02-1.10x on the H100, but q8_0
 * 0.94-1.00x and q6_K (at 40 registers) 0.95-1.04x: those keep 2, as do
 * q2_K and q3_K (spills at 32 registers; not measured). q4_K r4 = 3 (91 ->
 * 80 registers): 1.03-1.05x. docs/runs/2026-11-28-h100-mmvq-*.txt */
#define MMVQ_TYPES(X)                                                                                  \
    X(q4_0, q4_0, BlockQ4_0, 8, 2), X(q4_1, q4_1, BlockQ4_1, 8, 2), X(q5_0, q5_0, BlockQ5_0, 8, 2),     \
    X(q5_1, q5_1, BlockQ5_1, 8, 2), X(q8_0, q8_0, BlockQ8_0, 2, 2), X(q2_K, q2_k, BlockQ2_K, 2, 2),     \
    X(q3_K, q3_k, BlockQ3_K, 2, 2), X(q4_K, q4_k, BlockQ4_K, 8, 3), X(q5_K, q5_k, BlockQ5_K, 8, 2),     \
    X(q6_K, q6_k, BlockQ6_K, 2, 2)
#define B8(M, r1, r4, ...)                                                                              \
    M(__VA_ARGS__, 1, r1), M(__VA_ARGS__, 2, 0), M(__VA_ARGS__, 3, 0), M(__VA_ARGS__, 4, r4), M(__VA_ARGS__, 5, 0), \
        M(__VA_ARGS__, 6, 0), M(__VA_ARGS__, 7, 0), M(__VA_ARGS__, 8, 0)
#define QR(t, B, sig, r) {t, "crk::" B, sig, 0, NULL, r}
/* mul_mat_vec_<t>_q8_1_cuda<b>, b = 1..8 */
#define MV(t, B, b, r) QR(#t "_q8_1_cuda" #b, #B ", " #b, SIG_MMVQ, r)
#define MV8(t, t_lower, B, r1, r4) B8(MV, r1, r4, t, B)
static const gen_op MMVQ_OPS[] = {MMVQ_TYPES(MV8)};
/* mmvq_gguf_<t>_<dt>_plain_cuda<b>: dt bf16/f16/f32, b = 1..8 */
#define MG(t, B, dt, b, r) QR(#t "_" #dt "_plain_cuda" #b, #B ", " #b, SIG_MMVQ_GGUF_##dt, r)
#define MG24(t_upper, t, B, r1, r4) B8(MG, r1, r4, t, B, bf16), B8(MG, r1, r4, t, B, f16), B8(MG, r1, r4, t, B, f32)
static const gen_op MMVQ_GGUF_OPS[] = {MMVQ_TYPES(MG24)};
static const gen_op MOE_OPS[] = {
    Q("q2k_q8_1", "BlockQ2_K", NULL), Q("q3k_q8_1", "BlockQ3_K", NULL), Q("q4k_q8_1", "BlockQ4_K", NULL),
    Q("q5k_q8_1", "BlockQ5_K", NULL), Q("q6k_q8_1", "BlockQ6_K", NULL), Q("q8_0_q8_1", "BlockQ8_0", NULL),
};
#undef MG24
#undef MG
#undef MV8
#undef MV
#undef QR
#undef B8
#undef MMVQ_TYPES
#undef Q
static const gen_op NO_OP[] = {{"", NULL, NULL, 0, NULL, 0}};
#define OPS(a) a, sizeof a / sizeof a[0]

/* ------------------------------------------- upstream coverage (§4) */
static int not_i16_i32(int dt) { return dt != CRK_I16 && dt != CRK_I32; }

static int up_unary(const gen_op *op, const int8_t *dt) { return op->float_only || not_i16_i32(dt[0]); }
/* Fact sheet §4.4; rows: src, columns: dst, both in crk_dtype order. */
static const char *const UPSTREAM_CAST[CRK_DTYPE_COUNT] = {
    /*        u8 u32 i16 i32 i64 bf16 f16 f32 f64 f8 */
    [CRK_U8] = "YY--YYYYYY",   [CRK_U32] = "YY--YYYYY-",  [CRK_I16] = "----------",
    [CRK_I32] = "---------Y",  [CRK_I64] = "YY--Y--YY-",  [CRK_BF16] = "YY---YYYYY",
    [CRK_F16] = "YY---YYYYY",  [CRK_F32] = "YY--YYYYYY",  [CRK_F64] = "YY--YYYYYY",
    [CRK_F8E4M3] = "Y--Y-YYYYY",
};
static int up_cast(const gen_op *op, const int8_t *dt) { (void)op; return UPSTREAM_CAST[dt[0]][dt[1]] == 'Y'; }
static int up_where(const gen_op *op, const int8_t *dt) {
    (void)op;
    if (dt[1] == CRK_F8E4M3) return 1; /* every cond dtype, sm >= 89 */
    return dt[0] != CRK_I16 && dt[0] != CRK_I32 && not_i16_i32(dt[1]);
}
static int up_all(const gen_op *op, const int8_t *dt) { (void)op, (void)dt; return 1; }
/* Families with ops of our own (crk_*): upstream has the others. */
static int up_not_ours(const gen_op *op, const int8_t *dt) { (void)dt; return strncmp(op->op, "crk_", 4) != 0; }
/* binary, cmp, fill, const_set, copy2d: the 8 dtypes without i16/i32. */
static int up_no_i16_i32(const gen_op *op, const int8_t *dt) { return up_not_ours(op, dt) && not_i16_i32(dt[0]); }
/* sum_*: bf16 f16 f32 f64 u32 (ours: every reduction dtype). */
static int up_sum(const gen_op *op, const int8_t *dt) {
    (void)op;
    return DT_BIT(dt[0]) & (DT_BIT(CRK_BF16) | DT_BIT(CRK_F16) | DT_BIT(CRK_F32) | DT_BIT(CRK_F64) | DT_BIT(CRK_U32));
}

/* Indexing: ids u8/u32/i64 for the 7 dtypes, every ids dtype for fp8 but
 * no s_*_f8_e4m3 (sm >= 89). Ours: every ids dtype x every dtype. */
static int up_indexing(const gen_op *op, const int8_t *dt) {
    if (dt[1] == CRK_F8E4M3) return strcmp(op->op, "s") != 0;
    return not_i16_i32(dt[0]) && not_i16_i32(dt[1]);
}
/* Sort: Candle's ArgSort is Map1Any, so it requests asort_* for every
 * storage dtype; upstream has 7 (fp8 commented out, spelled fp8_e4m3);
 * the crk_asort_* kernels are ours. */
static int up_sort(const gen_op *op, const int8_t *dt) {
    return strncmp(op->op, "crk_", 4) && not_i16_i32(dt[0]) && dt[0] != CRK_F8E4M3;
}

/* Reductions: every dtype but fp8 (upstream has none; Candle requests none
 * that could reach one). Softmax, norms, rope: the float dtypes. */
static const uint16_t DT_REDUCE = DT_ALL & ~DT_BIT(CRK_F8E4M3);
static const uint16_t DT_FLOATS = DT_BIT(CRK_BF16) | DT_BIT(CRK_F16) | DT_BIT(CRK_F32) | DT_BIT(CRK_F64);
/* conv, pool, upsample: upstream's six (§4.14) */
static const uint16_t DT_CONV =
    DT_BIT(CRK_U8) | DT_BIT(CRK_U32) | DT_BIT(CRK_BF16) | DT_BIT(CRK_F16) | DT_BIT(CRK_F32) | DT_BIT(CRK_F64);
/* integer dtypes of where's conditions and of ids */
static const uint16_t ID_TYPES = DT_BIT(CRK_U8) | DT_BIT(CRK_U32) | DT_BIT(CRK_I16) | DT_BIT(CRK_I32) | DT_BIT(CRK_I64);

/* ------------------------------------------------------------ families */
/* Element-wise: grid-stride, 256-thread blocks (libcrk sizes the grid to
 * the work; Candle's own shape is 1024 x ceil(n/1024)), no shared memory. */
#define EW CRK_GEOM_ELEMENTWISE, 256, 0, 2, 1024
/* Reductions: a block per output, up to 1024 threads (as Candle). Rows:
 * a block per row, up to 1024 threads (libcrk picks by row length). */
#define RED CRK_GEOM_REDUCE, 1024, 0, 2, 1024
#define ROWS CRK_GEOM_ROWS, 1024, 0, 2, 1024
/* Sort: a block per row; shared memory per launch (ncols_pad·4 bytes). */
#define SORT CRK_GEOM_SORT, 1024, 0, 2, 1024
/* GGML blocks: the grid is set by the data (kernels/quantized.h), any block. */
#define GGML CRK_GEOM_GGML, 256, 0, 2, 1024
/* MMVQ: 128-thread blocks (Candle's 32x4, or 32x2), at most 256: up to
 * 16 sums a thread and the block decoded in registers (a 1024-thread
 * bound spilled b >= 6 to scratch on gfx942). */
#define GGML_MV CRK_GEOM_GGML, 128, 0, 2, 256
const gen_family GEN_FAMILIES[FAM_COUNT] = {
    [CRK_FAMILY_UNARY] = {"unary", MOD_UNARY, "unary.h", "crk::unary", "u", 2, 1, {DT_ALL}, SIG_UNARY,
                          OPS(UNARY_OPS), "fp8_e4m3", up_unary, EW},
    [CRK_FAMILY_CAST] = {"cast", MOD_CAST, "cast.h", "crk::cast", "cast", 2, 2, {DT_ALL, DT_ALL}, SIG_CAST,
                         OPS(NO_OP), "f8_e4m3", up_cast, EW},
    [CRK_FAMILY_TERNARY] = {"ternary", MOD_TERNARY, "ternary.h", "crk::where_select", "where", 4, 2,
                            {ID_TYPES, DT_ALL}, SIG_WHERE, OPS(NO_OP), "fp8_e4m3", up_where, EW},
    [CRK_FAMILY_AFFINE] = {"affine", MOD_AFFINE, "affine.h", "crk::affine", "affine", 2, 1, {DT_ALL}, SIG_AFFINE,
                           OPS(NO_OP), "f8_e4m3", up_all, EW},
    [CRK_FAMILY_BINARY] = {"binary", MOD_BINARY, "binary.h", "crk::binary", "b", 3, 1, {DT_ALL}, SIG_BINARY,
                           OPS(BINARY_OPS), "f8_e4m3", up_no_i16_i32, EW},
    [CRK_FAMILY_CMP] = {"cmp", MOD_BINARY, "binary.h", "crk::binary", "", 3, 1, {DT_ALL}, SIG_CMP,
                        OPS(CMP_OPS), "f8_e4m3", up_no_i16_i32, EW},
    [CRK_FAMILY_FILL] = {"fill", MOD_FILL, "fill.h", "crk::fill", "fill", 0, 1, {DT_ALL}, SIG_FILL,
                         OPS(NO_OP), "f8_e4m3", up_no_i16_i32, EW},
    [CRK_FAMILY_CONST_SET] = {"const_set", MOD_FILL, "fill.h", "crk::const_set", "const_set", 2, 1, {DT_ALL},
                              SIG_CONST_SET, OPS(NO_OP), "f8_e4m3", up_no_i16_i32, EW},
    [CRK_FAMILY_COPY2D] = {"copy2d", MOD_FILL, "fill.h", "crk::copy2d", "copy2d", 0, 1, {DT_ALL}, SIG_COPY2D,
                           OPS(NO_OP), "f8_e4m3", up_no_i16_i32, EW},
    [CRK_FAMILY_REDUCE] = {"reduce", MOD_REDUCE, "reduce.h", "crk::fast_reduce", "fast_", 2, 1, {DT_REDUCE},
                           SIG_FAST, OPS(REDUCE_OPS), "f8_e4m3", up_no_i16_i32, RED},
    [CRK_FAMILY_SOFTMAX] = {"softmax", MOD_REDUCE, "rows.h", NULL, "", 0, 1, {DT_FLOATS}, SIG_SOFTMAX,
                            OPS(SOFTMAX_OPS), "f8_e4m3", up_not_ours, ROWS},
    [CRK_FAMILY_NORM] = {"norm", MOD_REDUCE, "rows.h", NULL, "", 0, 1, {DT_FLOATS}, SIG_RMSNORM, OPS(NORM_OPS),
                         "f8_e4m3", up_not_ours, ROWS},
    [CRK_FAMILY_ROPE] = {"rope", MOD_REDUCE, "rope.h", NULL, "", 0, 1, {DT_FLOATS}, SIG_ROPE, OPS(ROPE_OPS),
                         "f8_e4m3", up_not_ours, EW},
    [CRK_FAMILY_INDEXING] = {"indexing", MOD_INDEXING, "indexing.h", NULL, "", 2, 2, {ID_TYPES, DT_ALL}, SIG_IS,
                             OPS(INDEXING_OPS), "f8_e4m3", up_indexing, EW},
    [CRK_FAMILY_SORT] = {"sort", MOD_SORT, "sort.h", NULL, "", 0, 1, {DT_ALL}, SIG_ASORT, OPS(SORT_OPS),
                         "fp8_e4m3", up_sort, SORT},
    [CRK_FAMILY_SUM] = {"sum", MOD_REDUCE, "sum.h", NULL, "", 2, 1, {DT_REDUCE}, SIG_SUM, OPS(SUM_OPS), "f8_e4m3",
                        up_sum, EW},
    /* module conv: info_arrays 0 (conv's info holds two layouts, src's and
     * the kernel's, each with its own dims: kernels/conv.h) */
    [CRK_FAMILY_CONV] = {"conv", MOD_CONV, "conv.h", NULL, "", 0, 1, {DT_CONV}, SIG_CONV1D, OPS(CONV_OPS), "f8_e4m3",
                         up_not_ours, EW},
    [CRK_FAMILY_POOL] = {"pool", MOD_CONV, "conv.h", NULL, "", 2, 1, {DT_CONV}, SIG_POOL, OPS(POOL_OPS), "f8_e4m3",
                         up_not_ours, EW},
    [CRK_FAMILY_UPSAMPLE] = {"upsample", MOD_CONV, "conv.h", NULL, "", 2, 1, {DT_CONV}, SIG_UPSAMPLE_NEAREST,
                             OPS(UPSAMPLE_OPS), "f8_e4m3", up_not_ours, EW},
    [CRK_FAMILY_DEQUANTIZE] = {"dequantize", MOD_QUANTIZED, "quantized.h", "crk::dequantize_block", "dequantize_block_",
                               0, 1, {DT_BIT(CRK_F16) | DT_BIT(CRK_F32)}, SIG_DEQUANT, OPS(DEQUANT_OPS), "f8_e4m3",
                               up_all, GGML},
    [CRK_FAMILY_GET_ROWS] = {"get_rows", MOD_QUANTIZED, "quantized.h", "crk::get_rows", "get_rows_", 0, 0, {0},
                             SIG_GET_ROWS, OPS(GET_ROWS_OPS), "f8_e4m3", up_not_ours, GGML},
    [CRK_FAMILY_DMMV] = {"dmmv", MOD_QUANTIZED, "quantized.h", "crk::dmmv", "dequantize_mul_mat_vec_", 0, 0, {0},
                         SIG_DMMV, OPS(DMMV_OPS), "f8_e4m3", up_all, GGML},
    [CRK_FAMILY_QUANTIZE] = {"quantize", MOD_QUANTIZED, "quantized.h", NULL, "", 0, 0, {0}, SIG_QUANTIZE_Q8_1,
                             OPS(QUANTIZE_OPS), "f8_e4m3", up_all, GGML},
    [CRK_FAMILY_MMVQ] = {"mmvq", MOD_QUANTIZED, "mmvq.h", "crk::mul_mat_vec_q8_1", "mul_mat_vec_", 0, 0, {0},
                         SIG_MMVQ, OPS(MMVQ_OPS), "f8_e4m3", up_all, GGML_MV},
    [CRK_FAMILY_MMVQ_GGUF] = {"mmvq_gguf", MOD_QUANTIZED, "mmvq.h", "crk::mmvq_gguf_plain", "mmvq_gguf_", 0, 0, {0},
                              SIG_MMVQ_GGUF_f32, OPS(MMVQ_GGUF_OPS), "f8_e4m3", up_all, GGML_MV},
    [CRK_FAMILY_MOE] = {"indexed_moe", MOD_QUANTIZED, "mmvq.h", "crk::indexed_moe_forward", "indexed_moe_forward_", 0,
                        0, {0}, SIG_MOE, OPS(MOE_OPS), "f8_e4m3", up_all, GGML_MV},
};

const char *gen_family_module(gen_family_id fam) { return GEN_MODULES[GEN_FAMILIES[fam].module]; }

int gen_module_used(gen_module_id m) {
    for (int f = 0; f < FAM_COUNT; f++)
        if (GEN_FAMILIES[f].module == m) return 1;
    return 0;
}
