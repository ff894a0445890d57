/* families.c — each family's test (tests/gpu/fam_*.c), by the registry's
 * family enum: a family without a test is a compile error (the designated
 * initialisers leave a hole that numeric.c refuses at start). */
#include "suite.h"

int run_map1(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int map1_applies(const layout_case *lc, const crk_kernel_info *ki);
int run_where(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int run_binary(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int binary_applies(const layout_case *lc, const crk_kernel_info *ki);
int run_const_set(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int run_fill(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int fill_applies(const layout_case *lc, const crk_kernel_info *ki);
int run_copy2d(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int copy2d_applies(const layout_case *lc, const crk_kernel_info *ki);
int run_reduce(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int reduce_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t reduce_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_rows(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int rows_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t rows_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_rope(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int rope_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t rope_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_index(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int index_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t index_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_sort(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int sort_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t sort_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_sum(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int sum_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t sum_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_conv(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int conv_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t conv_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_pool(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int pool_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t pool_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_upsample(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int upsample_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t upsample_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_quant(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int quant_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t quant_elements(const layout_case *lc, const crk_kernel_info *ki);
int run_mmvq(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
int mmvq_applies(const layout_case *lc, const crk_kernel_info *ki);
size_t mmvq_elements(const layout_case *lc, const crk_kernel_info *ki);

const family_test FAMILY_TESTS[CRK_FAMILY_COUNT] = {
    [CRK_FAMILY_UNARY] = {run_map1, map1_applies},
    [CRK_FAMILY_CAST] = {run_map1, map1_applies},
    [CRK_FAMILY_TERNARY] = {run_where, binary_applies},
    [CRK_FAMILY_AFFINE] = {run_map1, map1_applies},
    [CRK_FAMILY_BINARY] = {run_binary, binary_applies},
    [CRK_FAMILY_CMP] = {run_binary, binary_applies},
    [CRK_FAMILY_FILL] = {run_fill, fill_applies},
    [CRK_FAMILY_CONST_SET] = {run_const_set, fill_applies},
    [CRK_FAMILY_COPY2D] = {run_copy2d, copy2d_applies},
    [CRK_FAMILY_REDUCE] = {run_reduce, reduce_applies, reduce_elements},
    [CRK_FAMILY_SOFTMAX] = {run_rows, rows_applies, rows_elements},
    [CRK_FAMILY_NORM] = {run_rows, rows_applies, rows_elements},
    [CRK_FAMILY_ROPE] = {run_rope, rope_applies, rope_elements},
    [CRK_FAMILY_INDEXING] = {run_index, index_applies, index_elements},
    [CRK_FAMILY_SORT] = {run_sort, sort_applies, sort_elements},
    [CRK_FAMILY_SUM] = {run_sum, sum_applies, sum_elements},
    [CRK_FAMILY_CONV] = {run_conv, conv_applies, conv_elements},
    [CRK_FAMILY_POOL] = {run_pool, pool_applies, pool_elements},
    [CRK_FAMILY_UPSAMPLE] = {run_upsample, upsample_applies, upsample_elements},
    [CRK_FAMILY_DEQUANTIZE] = {run_quant, quant_applies, quant_elements},
    [CRK_FAMILY_GET_ROWS] = {run_quant, quant_applies, quant_elements},
    [CRK_FAMILY_QUANTIZE] = {run_quant, quant_applies, quant_elements},
    [CRK_FAMILY_DMMV] = {run_quant, quant_applies, quant_elements},
    [CRK_FAMILY_MMVQ] = {run_mmvq, mmvq_applies, mmvq_elements},
    [CRK_FAMILY_MMVQ_GGUF] = {run_mmvq, mmvq_applies, mmvq_elements},
    [CRK_FAMILY_MOE] = {run_mmvq, mmvq_applies, mmvq_elements},
};
