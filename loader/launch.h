/* launch.h — what libcrk's helper files share (internal): kernel lookup for
 * a helper, argument packs built from the registry's roles, layout and
 * pointer checks, and launches (launch.c). */
#ifndef CRK_LAUNCH_H
#define CRK_LAUNCH_H
#include "context.h"

/* A launch's kernel arguments, assembled from the registry's parameter
 * roles (never from names or positions). args[] point into the pack, so a
 * pack is filled in place and never copied. */
typedef struct {
    void *args[16];
    size_t numel, num_dims;
    void *info;                  /* device pointer, set at launch        */
    const void *in[4];           /* inputs by role index                 */
    void *out;
    unsigned char scalar[8][8];  /* scalars converted to the param dtype */
    unsigned shared_bytes;       /* dynamic shared memory of this launch
                                    (sort: ncols_pad·4); 0: the registry's */
} arg_pack;

/* A helper's first steps: a context, and a kernel of its family. */
const crk_kernel_info *crk_helper_kernel(const crk_ctx *ctx, const char *name, crk_family family, crk_status *st);
/* Fills a->args from the registry's roles; scalars as doubles (or scalar 0
 * as raw bytes of its dtype). */
crk_status crk_pack_args(const crk_kernel_info *ki, arg_pack *a, const double *scalars, unsigned nscalars,
                         const void *raw);
/* CRK_E_INVALID naming the kernel and the operand when p is NULL. */
crk_status crk_need_ptr(const char *name, const char *what, const void *p);
/* crk_layout_check, with the kernel and the operand named in the error. */
crk_status crk_check_layout(const char *name, const char *what, const crk_layout *l, size_t *numel);
/* p + elements of dtype dt, refused when the byte offset overflows. */
crk_status crk_offset_ptr(const char *name, const char *what, const void *p, size_t elements, int dt,
                          const void **out);
/* sum_dims (n of them, each < rank, none twice; NULL only when n == 0) as
 * a bit mask of dims in *mask, or CRK_E_INVALID naming the problem. */
crk_status crk_sum_dims_mask(const char *name, size_t rank, const size_t *sum_dims, size_t n, unsigned *mask);
/* The dtype of input i (role index) or, for i < 0, of the output. */
int crk_operand_dtype(const crk_kernel_info *ki, int i);
/* Uploads info (info_len size_t; 0: none) to a slot, launches a grid sized
 * for `work` elements (element-wise kernels), or exactly grid x block
 * (crk_launch_shaped). */
crk_status crk_launch_info(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info,
                           size_t info_len, arg_pack *a, size_t work);
/* crk_launch_info with at most max_blocks blocks (0: no cap); the kernel
 * walks the rest grid-stride. */
crk_status crk_launch_capped(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info,
                             size_t info_len, arg_pack *a, size_t work, size_t max_blocks);
crk_status crk_launch_shaped(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info,
                             size_t info_len, arg_pack *a, const unsigned grid[3], const unsigned block[3]);
/* Blocks of `threads` (and shared_bytes) of ki the device holds at once:
 * the runtime's occupancy times its SMs (CUs); 0 where it does not say. A
 * persistent kernel's grid (crk_softmax_wide). */
size_t crk_resident_blocks(crk_ctx *ctx, const crk_kernel_info *ki, unsigned threads, unsigned shared_bytes);
/* A thread an item: blocks of the registry's ki->block threads, as many
 * as the items need (kernels that loop grid-stride past 2^31 - 1 blocks). */
crk_status crk_launch_items(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info,
                            size_t info_len, arg_pack *a, size_t items);
/* Sizes pass to the kernels as doubles (crk_pack_args): CRK_E_INVALID
 * naming `what` when v is past 2^53, where doubles stop being exact. */
crk_status crk_size_exact(const char *name, const char *what, size_t v);
#endif
