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

const gen_family GEN_FAMILIES[FAM_COUNT] = {
    [FAM_UNARY] = {"unary", MOD_UNARY, "unary.h", "u", 2},
    [FAM_CAST] = {"cast", MOD_CAST, "cast.h", "cast", 2},
    [FAM_TERNARY] = {"ternary", MOD_TERNARY, "ternary.h", "where", 4},
    [FAM_AFFINE] = {"affine", MOD_AFFINE, "affine.h", "affine", 2},
};

const char *gen_family_module(gen_family_id fam) { return GEN_MODULES[GEN_FAMILIES[fam].module]; }

int gen_module_used(gen_module_id m) {
    for (int f = 0; f < FAM_COUNT; f++)
        if (GEN_FAMILIES[f].module == m) return 1;
    return 0;
}

#define SIG_HEAD {"numel", R_NUMEL}, {"num_dims", R_NUM_DIMS}, {"info", R_INFO}
const gen_param GEN_SIG_UNARY[] = {SIG_HEAD, {"inp", R_CPTR_A}, {"out", R_PTR_A}, {0}};
const gen_param GEN_SIG_UNARY1[] = {SIG_HEAD, {"param", R_SCALAR_A}, {"inp", R_CPTR_A},
                                    {"out", R_PTR_A}, {0}};
const gen_param GEN_SIG_CAST[] = {SIG_HEAD, {"inp", R_CPTR_A}, {"out", R_PTR_B}, {0}};
const gen_param GEN_SIG_WHERE[] = {SIG_HEAD, {"ids", R_CPTR_A}, {"t", R_CPTR_B}, {"f", R_CPTR_B},
                                   {"out", R_PTR_B}, {0}};
const gen_param GEN_SIG_AFFINE[] = {SIG_HEAD, {"inp", R_CPTR_A}, {"out", R_PTR_A},
                                    {"mul", R_SCALAR_A}, {"add", R_SCALAR_A}, {0}};

const gen_unary_op GEN_UNARY_OPS[] = {
    {"copy", "OpCopy", 0, 0},      {"neg", "OpNeg", 0, 1},       {"recip", "OpRecip", 0, 1},
    {"exp", "OpExp", 0, 1},        {"log", "OpLog", 0, 1},       {"sin", "OpSin", 0, 1},
    {"cos", "OpCos", 0, 1},        {"tanh", "OpTanh", 0, 1},     {"erf", "OpErf", 0, 1},
    {"ceil", "OpCeil", 0, 1},      {"floor", "OpFloor", 0, 1},   {"round", "OpRound", 0, 1},
    {"normcdf", "OpNormcdf", 0, 1}, {"abs", "OpAbs", 0, 1},      {"sqr", "OpSqr", 0, 1},
    {"sqrt", "OpSqrt", 0, 1},      {"gelu", "OpGelu", 0, 1},     {"gelu_erf", "OpGeluErf", 0, 1},
    {"relu", "OpRelu", 0, 1},      {"elu", "OpElu", 1, 1},       {"silu", "OpSilu", 0, 1},
    {"powf", "OpPowf", 1, 1},      {"sign", "OpSign", 0, 1},     {"sigmoid", "OpSigmoid", 0, 1},
};
const size_t GEN_N_UNARY_OPS = sizeof GEN_UNARY_OPS / sizeof GEN_UNARY_OPS[0];

static int is_float(crk_dtype dt) { return dt >= CRK_BF16; }

int gen_upstream_unary(const gen_unary_op *op, crk_dtype dt) {
    if (op->math) return is_float(dt);
    return dt != CRK_I16 && dt != CRK_I32; /* ucopy: no i16/i32 upstream */
}

/* Fact sheet §4.4; rows: src, columns: dst, both in crk_dtype order. */
static const char *const UPSTREAM_CAST[CRK_DTYPE_COUNT] = {
    /*        u8 u32 i16 i32 i64 bf16 f16 f32 f64 f8 */
    [CRK_U8] = "YY--YYYYYY",   [CRK_U32] = "YY--YYYYY-",  [CRK_I16] = "----------",
    [CRK_I32] = "---------Y",  [CRK_I64] = "YY--Y--YY-",  [CRK_BF16] = "YY---YYYYY",
    [CRK_F16] = "YY---YYYYY",  [CRK_F32] = "YY--YYYYYY",  [CRK_F64] = "YY--YYYYYY",
    [CRK_F8E4M3] = "Y--Y-YYYYY",
};
int gen_upstream_cast(crk_dtype src, crk_dtype dst) { return UPSTREAM_CAST[src][dst] == 'Y'; }

int gen_upstream_where(crk_dtype cond, crk_dtype dt) {
    if (dt == CRK_F8E4M3) return 1; /* every cond dtype, sm >= 89 */
    int cond_ok = cond == CRK_U8 || cond == CRK_U32 || cond == CRK_I64;
    return cond_ok && dt != CRK_I16 && dt != CRK_I32;
}

const char *gen_fp8_upstream_suffix(gen_family_id fam, const char *unary_op) {
    if (fam == FAM_TERNARY) return "fp8_e4m3";
    if (fam == FAM_UNARY && strcmp(unary_op, "copy") != 0) return "fp8_e4m3";
    return "f8_e4m3";
}
