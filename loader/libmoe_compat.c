/* libmoe_compat.c — the launch_mmvq_gguf_* launchers of Candle's static
 * library (include/crk_libmoe.h): each checks its arguments and runs the
 * mmvq_gguf_* kernel through libcrk's helpers, on a context of the calling
 * thread's current device. */
#include "crk_libmoe.h"
#include "crk.h"
#include "error.h"
#include "gpu.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEVICES 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static crk_ctx *ctxs[MAX_DEVICES];
static int opened;                      /* a context exists: the options are fixed */
static crk_source source = CRK_SOURCE_EMBEDDED;
static char path[4096];                 /* "" = NULL */
static char last_reported[512];

crk_status crk_libmoe_options(const crk_options *opt) {
    if (!opt) return crk_fail(CRK_E_INVALID, "crk_libmoe_options: opt is NULL");
    if (opt->path && strlen(opt->path) >= sizeof path)
        return crk_fail(CRK_E_INVALID, "crk_libmoe_options: path longer than %zu bytes", sizeof path - 1);
    pthread_mutex_lock(&lock);
    const int late = opened;
    if (!late) source = opt->source, snprintf(path, sizeof path, "%s", opt->path ? opt->path : "");
    pthread_mutex_unlock(&lock);
    if (late) return crk_fail(CRK_E_INVALID, "crk_libmoe_options: a launcher has opened its context already; "
                                             "call it before the first launch");
    return CRK_OK;
}

/* A void launcher's only voice: stderr, once for each new message. */
static void report(const char *who) {
    char msg[512];
    snprintf(msg, sizeof msg, "crk: %s: %s", who, crk_last_error());
    pthread_mutex_lock(&lock);
    const int fresh = strcmp(msg, last_reported) != 0;
    if (fresh) memcpy(last_reported, msg, sizeof msg);
    pthread_mutex_unlock(&lock);
    if (fresh) fprintf(stderr, "%s\n", msg);
}

/* The context of the current device, opened on first use (kept open: a
 * static library's launchers have no close either). */
static crk_ctx *current_ctx(const char *who) {
    const int dev = crk_gpu_current_device();
    if (dev < 0 || dev >= MAX_DEVICES) {
        crk_fail(CRK_E_INVALID, "current device %d: libcrk's launchers serve devices 0..%d", dev, MAX_DEVICES - 1);
        return report(who), NULL;
    }
    pthread_mutex_lock(&lock);
    if (!ctxs[dev]) {
        const crk_options opt = {.device = dev, .source = source, .path = path[0] ? path : NULL};
        opened = 1;
        if (crk_open(&ctxs[dev], &opt) != CRK_OK) ctxs[dev] = NULL;
    }
    crk_ctx *c = ctxs[dev];
    pthread_mutex_unlock(&lock);
    if (!c) report(who);
    return c;
}

static void mmvq(const char *launcher, const char *t, const char *dt, const void *vx, const void *vy, void *dst,
                 int ncols_x, int nrows_x, int stride_col_y, int stride_col_dst, int b_size, void *stream) {
    if (b_size < 1 || b_size > 8 || ncols_x < 0 || nrows_x < 0 || stride_col_y < 0 || stride_col_dst < 0) {
        crk_fail(CRK_E_INVALID, "b_size %d (1..8) or a negative size (ncols_x %d, nrows_x %d, stride_col_y %d, "
                        "stride_col_dst %d): nothing launched", b_size, ncols_x, nrows_x, stride_col_y,
                        stride_col_dst);
        return report(launcher);
    }
    crk_ctx *c = current_ctx(launcher);
    if (!c) return;
    char name[64];
    snprintf(name, sizeof name, "mmvq_gguf_%s_%s_plain_cuda%d", t, dt, b_size);
    if (crk_mul_mat_vec_q8_1(c, stream, name, vx, vy, dst, (size_t)ncols_x, (size_t)nrows_x, (size_t)stride_col_y,
                             (size_t)stride_col_dst) != CRK_OK)
        report(launcher);
}

static void quantize(const char *launcher, const char *dt, const void *x, void *vy, int kx, int kx_padded,
                     int num_rows, void *stream) {
    if (kx < 0 || kx_padded < 0 || num_rows < 0) {
        crk_fail(CRK_E_INVALID, "negative size (kx %d, kx_padded %d, num_rows %d): nothing launched", kx,
                        kx_padded, num_rows);
        return report(launcher);
    }
    crk_ctx *c = current_ctx(launcher);
    if (!c) return;
    char name[64];
    snprintf(name, sizeof name, "mmvq_gguf_quantize_q8_1_%s", dt);
    if (crk_quantize_q8_1(c, stream, name, x, vy, (size_t)kx, (size_t)kx_padded, (size_t)num_rows) != CRK_OK)
        report(launcher);
}

#define MMVQ(t, dt)                                                                                          \
    CRK_LIBMOE_MMVQ(t, dt) {                                                                                 \
        mmvq("launch_mmvq_gguf_" #t "_" #dt "_plain", #t, #dt, vx, vy, dst, ncols_x, nrows_x, stride_col_y, \
             stride_col_dst, b_size, stream);                                                                \
    }
#define MMVQ3(t) MMVQ(t, bf16) MMVQ(t, f16) MMVQ(t, f32)
MMVQ3(q4_0) MMVQ3(q4_1) MMVQ3(q5_0) MMVQ3(q5_1) MMVQ3(q8_0) MMVQ3(q2_k) MMVQ3(q3_k) MMVQ3(q4_k) MMVQ3(q5_k) MMVQ3(q6_k)

#define Q8_1(dt) \
    CRK_LIBMOE_Q8_1(dt) { quantize("launch_mmvq_gguf_quantize_q8_1_" #dt, #dt, x, vy, kx, kx_padded, num_rows, stream); }
Q8_1(bf16) Q8_1(f16) Q8_1(f32)
