/* crk_libmoe.h — Candle's static library libmoe.a, its decode launchers
 * (fact sheet §4.19), exported by libcrk with the same names and
 * signatures: a Candle ROCm backend links them as Candle's CUDA backend
 * links candle_kernels::ffi. `stream` is a hipStream_t (a CUstream on the
 * NVIDIA build of the same sources), NULL for the default stream; the
 * launch goes to the calling thread's current device (libcrk opens one
 * context per device, the first time: from its embedded code objects, or
 * as crk_libmoe_options says).
 *
 * Upstream's launchers cannot report errors; these cannot either, but a
 * bad argument (b_size outside 1..8, negative sizes, a short stride, an
 * unaligned pointer) or a failed launch launches nothing, sets
 * crk_last_error() and prints it to stderr, once per message. */
#ifndef CRK_LIBMOE_H
#define CRK_LIBMOE_H
#include "crk.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Where the launchers' contexts take their code objects from (opt->source
 * and opt->path; opt->device is ignored: the current device is used).
 * Call it before the first launch; CRK_E_INVALID after it. (0.8) */
crk_status crk_libmoe_options(const crk_options *opt);

/* dst (b_size x nrows_x, column stride stride_col_dst, in the launcher's
 * dtype) = W (nrows_x x ncols_x GGML blocks at vx) times the b_size q8_1
 * rows at vy (stride_col_y blocks apart); b_size 1..8. */
#define CRK_LIBMOE_MMVQ(t, dt)                                                                                 \
    void launch_mmvq_gguf_##t##_##dt##_plain(const void *vx, const void *vy, void *dst, int ncols_x, int nrows_x, \
                                             int stride_col_y, int stride_col_dst, int b_size, void *stream)
#define CRK_LIBMOE_MMVQ3(t) CRK_LIBMOE_MMVQ(t, bf16); CRK_LIBMOE_MMVQ(t, f16); CRK_LIBMOE_MMVQ(t, f32)
CRK_LIBMOE_MMVQ3(q4_0); CRK_LIBMOE_MMVQ3(q4_1); CRK_LIBMOE_MMVQ3(q5_0); CRK_LIBMOE_MMVQ3(q5_1);
CRK_LIBMOE_MMVQ3(q8_0); CRK_LIBMOE_MMVQ3(q2_k); CRK_LIBMOE_MMVQ3(q3_k); CRK_LIBMOE_MMVQ3(q4_k);
CRK_LIBMOE_MMVQ3(q5_k); CRK_LIBMOE_MMVQ3(q6_k);

/* num_rows rows of kx values at x (bf16/f16/f32) -> q8_1 rows of
 * kx_padded/32 blocks at vy (Candle: kx padded to 512). */
#define CRK_LIBMOE_Q8_1(dt) \
    void launch_mmvq_gguf_quantize_q8_1_##dt(const void *x, void *vy, int kx, int kx_padded, int num_rows, void *stream)
CRK_LIBMOE_Q8_1(bf16); CRK_LIBMOE_Q8_1(f16); CRK_LIBMOE_Q8_1(f32);

#ifdef __cplusplus
}
#endif
#endif
