/* ops.c — what the benchmark measures: the ops, the operands' layouts of
 * each (op, layout) cell and the bytes a cell moves (bench/README.md). */
#include "bench.h"
#include <string.h>

const char *const bench_layout_names[LAY_COUNT] = {"contiguous", "strided", "broadcast", "broadcast_col", "pitched"};
const crk_dtype bench_pool_dtype[P_COUNT] = {CRK_F32, CRK_F32, CRK_F32, CRK_BF16, CRK_BF16, CRK_F16, CRK_U8};

#define L(x) (1u << LAY_##x)
#define MAP3 (L(CONTIG) | L(STRIDED) | L(BCAST))
#define ONE(p) {p, -1, -1}

const op_def bench_ops[] = {
    {"copy", "ucopy_f32", "f32", F_UNARY, ONE(P_F32), CRK_F32, MAP3},
    {"exp", "uexp_f32", "f32", F_UNARY, ONE(P_F32), CRK_F32, MAP3},
    {"gelu", "ugelu_f32", "f32", F_UNARY, ONE(P_F32), CRK_F32, MAP3},
    {"silu", "usilu_f32", "f32", F_UNARY, ONE(P_F32), CRK_F32, MAP3},
    {"gelu_bf16", "ugelu_bf16", "bf16", F_UNARY, ONE(P_BF16), CRK_BF16, MAP3},
    {"cast_f32_bf16", "cast_f32_bf16", "f32->bf16", F_CAST, ONE(P_F32), CRK_BF16, MAP3},
    {"cast_bf16_f32", "cast_bf16_f32", "bf16->f32", F_CAST, ONE(P_BF16), CRK_F32, MAP3},
    {"cast_f32_f16", "cast_f32_f16", "f32->f16", F_CAST, ONE(P_F32), CRK_F16, MAP3},
    {"cast_f16_f32", "cast_f16_f32", "f16->f32", F_CAST, ONE(P_F16), CRK_F32, MAP3},
    {"cast_f32_u8", "cast_f32_u8", "f32->u8", F_CAST, ONE(P_F32POS), CRK_U8, MAP3},
    {"affine", "affine_f32", "f32", F_AFFINE, ONE(P_F32), CRK_F32, MAP3},
    {"where", "where_u8_f32", "u8?f32:f32", F_WHERE, {P_U8, P_F32, P_F32POS}, CRK_F32, MAP3},
    /* binary: strided = lhs transposed; broadcast = rhs [1,C] (bias add); broadcast_col = rhs [R,1] */
    {"add", "badd_f32", "f32", F_BINARY, {P_F32, P_F32B, -1}, CRK_F32, MAP3},
    {"mul", "bmul_f32", "f32", F_BINARY, {P_F32, P_F32B, -1}, CRK_F32, L(CONTIG) | L(BCAST_COL)},
    {"maximum_bf16", "bmaximum_bf16", "bf16", F_BINARY, {P_BF16, P_BF16B, -1}, CRK_BF16, MAP3},
    {"lt", "lt_f32", "f32->u8", F_BINARY, {P_F32, P_F32B, -1}, CRK_U8, MAP3},
    /* const_set writes through the view: strided = a transposed view of the output */
    {"const_set", "const_set_f32", "f32", F_CONST_SET, {-1, -1, -1}, CRK_F32, L(CONTIG) | L(STRIDED)},
    /* copy2d: R rows of C into rows of C + PITCH_PAD */
    {"copy2d", "copy2d_f32", "f32", F_COPY2D, ONE(P_F32), CRK_F32, L(PITCHED)},
    {"copy2d_bf16", "copy2d_bf16", "bf16", F_COPY2D, ONE(P_BF16), CRK_BF16, L(PITCHED)},
    /* indexing (index.c): fixed shapes, their own cases instead of layouts;
     * one --ops name per group, the dtype label is ids:T */
    {"embedding", "is_u32_bf16", "u32:bf16", F_INDEX_SELECT, {-1, -1, -1}, CRK_BF16, 0},
    {"embedding", "is_u32_f32", "u32:f32", F_INDEX_SELECT, {-1, -1, -1}, CRK_F32, 0},
    {"gather", "gather_i64_f32", "i64:f32", F_GATHER, {-1, -1, -1}, CRK_F32, 0},
    {"scatter_add", "sa_i64_f32", "i64:f32", F_SCATTER_ADD, {-1, -1, -1}, CRK_F32, 0},
    {"index_add", "ia_u32_bf16", "u32:bf16", F_INDEX_ADD, {-1, -1, -1}, CRK_BF16, 0},
    {"index_add", "ia_u32_f32", "u32:f32", F_INDEX_ADD, {-1, -1, -1}, CRK_F32, 0},
    /* argsort (argsort.c): rows x cols cases, u32 indices out */
    {"argsort", "asort_asc_f32", "f32", F_ARGSORT, {-1, -1, -1}, CRK_U32, 0},
    /* module reduce (reduce.c): rows x cols cases over the last dim (sum0, max0: over dim 0) */
    {"softmax", "softmax_f32", "f32", F_SOFTMAX, {-1, -1, -1}, CRK_F32, 0},
    {"softmax", "softmax_bf16", "bf16", F_SOFTMAX, {-1, -1, -1}, CRK_BF16, 0},
    {"rmsnorm", "rmsnorm_bf16", "bf16", F_NORM, {-1, -1, -1}, CRK_BF16, 0},
    {"rmsnorm", "rmsnorm_f32", "f32", F_NORM, {-1, -1, -1}, CRK_F32, 0},
    {"layernorm", "layernorm_bf16", "bf16", F_NORM, {-1, -1, -1}, CRK_BF16, 0},
    {"sum", "fast_sum_f32", "f32", F_FAST, {-1, -1, -1}, CRK_F32, 0},
    {"max", "fast_max_f32", "f32", F_FAST, {-1, -1, -1}, CRK_F32, 0},
    {"sum0", "fast_sum_f32", "f32", F_FAST, {-1, -1, -1}, CRK_F32, 0}, /* over dim 0 (reduce.c) */
    {"max0", "fast_max_f32", "f32", F_FAST, {-1, -1, -1}, CRK_F32, 0},
    {"argmax", "fast_argmax_f32", "f32", F_FAST, {-1, -1, -1}, CRK_U32, 0},
    {"rope", "rope_bf16", "bf16", F_ROPE, {-1, -1, -1}, CRK_BF16, 0},
    {"rope", "rope_f32", "f32", F_ROPE, {-1, -1, -1}, CRK_F32, 0},
    /* module conv (conv.c): fixed model shapes, out_dt = the kernel's dtype */
    {"im2col1d", "im2col1d_f32", "f32", F_IM2COL, {-1, -1, -1}, CRK_F32, 0},
    {"im2col1d", "im2col1d_f16", "f16", F_IM2COL, {-1, -1, -1}, CRK_F16, 0},
    {"im2col", "im2col_f16", "f16", F_IM2COL, {-1, -1, -1}, CRK_F16, 0},
    {"im2col", "im2col_f32", "f32", F_IM2COL, {-1, -1, -1}, CRK_F32, 0},
    {"max_pool2d", "max_pool2d_f32", "f32", F_POOL, {-1, -1, -1}, CRK_F32, 0},
    {"max_pool2d", "max_pool2d_bf16", "bf16", F_POOL, {-1, -1, -1}, CRK_BF16, 0},
    {"avg_pool2d", "avg_pool2d_f32", "f32", F_POOL, {-1, -1, -1}, CRK_F32, 0},
    {"upsample_nearest2d", "upsample_nearest2d_f16", "f16", F_UPSAMPLE, {-1, -1, -1}, CRK_F16, 0},
    {"upsample_nearest2d", "upsample_nearest2d_f32", "f32", F_UPSAMPLE, {-1, -1, -1}, CRK_F32, 0},
    {"upsample_bilinear2d", "upsample_bilinear2d_f16", "f16", F_UPSAMPLE, {-1, -1, -1}, CRK_F16, 0},
    {"upsample_bilinear2d", "upsample_bilinear2d_f32", "f32", F_UPSAMPLE, {-1, -1, -1}, CRK_F32, 0},
    {"conv1d", "conv1d_f32", "f32", F_CONVD, {-1, -1, -1}, CRK_F32, 0},
    {"conv2d", "conv2d_f32", "f32", F_CONVD, {-1, -1, -1}, CRK_F32, 0},
    /* module quantized (quant.c): an LLM weight matrix, an embedding table */
    {"dequantize", "dequantize_block_q4_0_f16", "q4_0->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q4_K_f16", "q4_K->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q6_K_f16", "q6_K->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q8_0_f16", "q8_0->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q4_K_f32", "q4_K->f32", F_DEQUANT, {-1, -1, -1}, CRK_F32, 0},
    {"dequantize", "dequantize_block_q5_0_f32", "q5_0->f32", F_DEQUANT, {-1, -1, -1}, CRK_F32, 0},
    {"dequantize", "dequantize_block_q4_1_f16", "q4_1->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q5_0_f16", "q5_0->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q5_1_f16", "q5_1->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q2_K_f16", "q2_K->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q3_K_f16", "q3_K->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"dequantize", "dequantize_block_q5_K_f16", "q5_K->f16", F_DEQUANT, {-1, -1, -1}, CRK_F16, 0},
    {"get_rows", "get_rows_q4_K", "q4_K", F_GET_ROWS, {-1, -1, -1}, CRK_F32, 0},
    {"get_rows", "get_rows_q8_0", "q8_0", F_GET_ROWS, {-1, -1, -1}, CRK_F32, 0},
    {"get_rows", "get_rows_f16", "f16", F_GET_ROWS, {-1, -1, -1}, CRK_F32, 0},
    /* MMVQ (quant.c): decode matmuls of Llama-3-8B shapes, the static library's kernels */
    {"mmvq", "mmvq_gguf_q4_0_f32_plain_cuda1", "q4_0 b1", F_MMVQ, {-1, -1, -1}, CRK_F32, 0},
    {"mmvq", "mmvq_gguf_q4_k_f32_plain_cuda1", "q4_K b1", F_MMVQ, {-1, -1, -1}, CRK_F32, 0},
    {"mmvq", "mmvq_gguf_q6_k_f32_plain_cuda1", "q6_K b1", F_MMVQ, {-1, -1, -1}, CRK_F32, 0},
    {"mmvq", "mmvq_gguf_q8_0_f32_plain_cuda1", "q8_0 b1", F_MMVQ, {-1, -1, -1}, CRK_F32, 0},
    {"mmvq", "mmvq_gguf_q4_k_bf16_plain_cuda1", "q4_K b1 bf16", F_MMVQ, {-1, -1, -1}, CRK_BF16, 0},
    {"mmvq", "mmvq_gguf_q4_k_f32_plain_cuda2", "q4_K b2", F_MMVQ, {-1, -1, -1}, CRK_F32, 0},
    {"mmvq", "mmvq_gguf_q4_k_f32_plain_cuda4", "q4_K b4", F_MMVQ, {-1, -1, -1}, CRK_F32, 0},
    {"mmvq", "mmvq_gguf_q4_k_f32_plain_cuda8", "q4_K b8", F_MMVQ, {-1, -1, -1}, CRK_F32, 0},
};
const size_t bench_nops = sizeof bench_ops / sizeof bench_ops[0];

static int name_is(const op_def *op, const char *p, size_t len) {
    return (strlen(op->op) == len && !strncmp(p, op->op, len)) || (strlen(op->kernel) == len && !strncmp(p, op->kernel, len));
}

int op_name_known(const char *name, size_t len) {
    for (size_t k = 0; k < bench_nops; k++)
        if (name_is(&bench_ops[k], name, len)) return 1;
    return 0;
}

int op_selected(const op_def *op, const char *list) {
    if (!list) return 1;
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        const size_t len = e ? (size_t)(e - p) : strlen(p);
        if (name_is(op, p, len)) return 1;
        p += len + (e ? 1 : 0);
    }
    return 0;
}

/* dims {R, C} with the strides of one layout kind. */
static void base_layout(const bench_state *S, int lay, crk_layout *l) {
    const size_t dims[2] = {S->rows, S->cols};
    crk_layout_contiguous(l, 2, dims);
    switch (lay) {
    case LAY_STRIDED: l->strides[0] = 1, l->strides[1] = S->rows; break; /* a (C,R) tensor transposed */
    case LAY_BCAST: l->strides[0] = 0, l->strides[1] = 1; break;         /* one row re-read: [1,C]  */
    case LAY_BCAST_COL: l->strides[0] = 1, l->strides[1] = 0; break;     /* one column: [R,1]       */
    case LAY_PITCHED: l->strides[0] = S->pitch, l->strides[1] = 1; break;
    default: break;
    }
}

/* Which operand takes the cell's layout; the others stay contiguous. */
void op_layouts(const bench_state *S, const op_def *op, int lay, crk_layout in[3], crk_layout *out) {
    for (int k = 0; k < 3; k++) base_layout(S, LAY_CONTIG, &in[k]);
    base_layout(S, LAY_CONTIG, out);
    switch (op->family) {
    case F_WHERE: /* broadcast: the condition only; strided: all three */
        base_layout(S, lay, &in[0]);
        if (lay != LAY_BCAST) base_layout(S, lay, &in[1]), base_layout(S, lay, &in[2]);
        break;
    case F_BINARY: base_layout(S, lay, &in[lay == LAY_STRIDED ? 0 : 1]); break;
    case F_CONST_SET:
    case F_COPY2D: base_layout(S, lay, out); break;
    default: base_layout(S, lay, &in[0]); break;
    }
}

size_t layout_offset(const crk_layout *l, size_t i) {
    size_t off = l->start_offset;
    for (size_t d = l->rank; d-- > 0;) off += (i % l->dims[d]) * l->strides[d], i /= l->dims[d];
    return off;
}

/* Elements an operand reads once: the dims whose stride is not 0. */
static double unique_elems(const crk_layout *l) {
    double e = 1;
    for (size_t d = 0; d < l->rank; d++)
        if (l->strides[d] != 0) e *= (double)l->dims[d];
    return e;
}

double op_bytes(const bench_state *S, const op_def *op, int lay) {
    crk_layout in[3], out;
    op_layouts(S, op, lay, in, &out);
    double b = (double)S->n * (double)crk_dtype_size(op->out_dt);
    for (int k = 0; k < 3; k++)
        if (op->pool[k] >= 0) b += unique_elems(&in[k]) * (double)crk_dtype_size(bench_pool_dtype[op->pool[k]]);
    return b;
}

size_t op_out_extent(const bench_state *S, const op_def *op) {
    return op->family == F_COPY2D ? (S->rows - 1) * S->pitch + S->cols : S->n;
}

/* Scalars by role index (affine: mul, add; const_set: value; copy2d: d1, d2,
 * src_s, dst_s); returns how many. */
int op_scalars(const bench_state *S, const op_def *op, double sc[4]) {
    switch (op->family) {
    case F_AFFINE: sc[0] = AFFINE_MUL, sc[1] = AFFINE_ADD; return 2;
    case F_CONST_SET: sc[0] = CONST_VALUE; return 1;
    case F_COPY2D:
        sc[0] = (double)S->rows, sc[1] = (double)S->cols, sc[2] = (double)S->cols, sc[3] = (double)S->pitch;
        return 4;
    default: return 0;
    }
}
