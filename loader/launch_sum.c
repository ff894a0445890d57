/* launch_sum.c — crk_sum_atomic: upstream's sum_<dt> (kernels/sum.h), its
 * info buffer [dims, strides, sum_dims_l, sum_dims_s] built from a view and
 * the summed dims, a grid sized for the view's elements. */
#include "error.h"
#include "launch.h"

crk_status crk_sum_atomic(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                          const size_t *sum_dims, size_t n_sum_dims, void *dst) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_SUM, &st);
    if (!ki) return st;
    arg_pack a = {.out = dst};
    if ((st = crk_check_layout(name, "src", src_l, &a.numel)) != CRK_OK) return st;
    if ((st = crk_need_ptr(name, "src", src)) != CRK_OK || (st = crk_need_ptr(name, "dst", dst)) != CRK_OK) return st;
    const size_t rank = src_l->rank;
    unsigned summed;
    if ((st = crk_sum_dims_mask(name, rank, sum_dims, n_sum_dims, &summed)) != CRK_OK) return st;
    if (a.numel == 0) return CRK_OK;
    /* The summed dims in increasing order: removing one leaves the
     * contiguous strides of the later ones valid. */
    size_t info[4 * CRK_MAX_DIMS], k = 0, after = 1;
    for (size_t d = 0; d < rank; d++) info[d] = src_l->dims[d], info[rank + d] = src_l->strides[d];
    const size_t n_sum = n_sum_dims; /* distinct: one bit each in summed */
    for (size_t d = rank; d-- > 0;) {
        if (summed >> d & 1u) {
            k++;
            info[2 * rank + n_sum - k] = src_l->dims[d], info[2 * rank + 2 * n_sum - k] = after;
        }
        after *= src_l->dims[d];
    }
    a.num_dims = rank;
    if ((st = crk_offset_ptr(name, "src", src, src_l->start_offset, crk_operand_dtype(ki, 0), &a.in[0])) != CRK_OK)
        return st;
    const double sc[1] = {(double)n_sum};
    if ((st = crk_pack_args(ki, &a, sc, 1, NULL)) != CRK_OK) return st;
    return crk_launch_info(ctx, s, ki, info, 2 * rank + 2 * n_sum, &a, a.numel);
}
