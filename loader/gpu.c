/* gpu.c — picks the runtime: HIP first (the product), then CUDA (our
 * verification path), or the one named by CRK_GPU_API. */
#include "gpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int crk_gpu_open(crk_gpu *g, int device, char *target, size_t tlen, char *name, size_t nlen,
                 char *why, size_t wlen) {
    const char *want = getenv("CRK_GPU_API");
    char hip_why[256] = "not tried", cuda_why[256] = "not tried";
    if (want && strcmp(want, "hip") && strcmp(want, "cuda")) {
        snprintf(why, wlen, "CRK_GPU_API=%.64s is neither hip nor cuda; set one of them, or unset it to try "
                 "HIP then CUDA", want);
        return CRK_GPU_BAD_CONFIG;
    }
    if (!want || !strcmp(want, "hip")) {
        if (!crk_gpu_open_hip(g, device, target, tlen, name, nlen, hip_why, sizeof hip_why)) return 0;
    }
    if (!want || !strcmp(want, "cuda")) {
        if (!crk_gpu_open_cuda(g, device, target, tlen, name, nlen, cuda_why, sizeof cuda_why)) return 0;
    }
    snprintf(why, wlen, "no GPU: HIP: %s; CUDA: %s%s%s", hip_why, cuda_why, want ? "; CRK_GPU_API=" : "",
             want ? want : "");
    return -1;
}

int crk_gpu_current_device(void) {
    const char *want = getenv("CRK_GPU_API");
    int d = 0;
    if ((!want || !strcmp(want, "hip")) && !crk_gpu_current_hip(&d)) return d;
    if ((!want || !strcmp(want, "cuda")) && !crk_gpu_current_cuda(&d)) return d;
    return 0;
}
