/* threads.c — one context, many threads, on a real GPU (issue 11, defect 2):
 * each worker's first libcrk call is a launch of a module nobody loaded yet,
 * made from a thread that never touched the GPU (with the CUDA driver it has
 * no current context); then every worker allocates, uploads, launches
 * strided and contiguous kernels, downloads and checks the values against
 * the CPU. Runs on whatever crk_open finds: the CUDA driver (NVIDIA build),
 * HIP, or tests/emu's emulator.
 *   make build/threads
 *   build/threads [--threads N] [--iterations N] [--device D] [--dir hsaco]
 * Prints "threads: ok (...)" and exits 0, or names the first failure. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crk.h"

typedef struct {
    crk_ctx *ctx;
    int id, iterations;
    void *shared_x, *shared_y; /* allocated by the main thread */
    char err[600];
} worker;

static int fail(worker *w, const char *what, crk_status st) {
    snprintf(w->err, sizeof w->err, "thread %d: %s: %s: %s", w->id, what, crk_status_name(st), crk_last_error());
    return 1;
}

#define TRY(w, what, call)                                          \
    do {                                                            \
        crk_status st_ = (call);                                    \
        if (st_ != CRK_OK) return (void *)(intptr_t)fail(w, what, st_); \
    } while (0)

static void *run(void *p) {
    worker *w = p;
    enum { R = 33, C = 65, N = R * C };
    const size_t dims[2] = {R, C};
    crk_layout c, t;
    crk_layout_contiguous(&c, 2, dims);
    const size_t tdims[2] = {C, R};
    crk_layout_contiguous(&t, 2, tdims);
    crk_layout_transpose(&t, 0, 1); /* R x C view of a C x R tensor: strided */
    /* First call of this thread: a launch (modules load from here). */
    TRY(w, "first launch (crk_unary uexp_f32, strided)",
        crk_unary(w->ctx, NULL, "uexp_f32", &t, w->shared_x, w->shared_y, 0));
    float *hx = malloc(N * sizeof *hx), *hy = malloc(N * sizeof *hy), *hz = malloc(N * sizeof *hz);
    void *x = NULL, *y = NULL, *z = NULL;
    if (!hx || !hy || !hz) return (void *)(intptr_t)fail(w, "host memory", CRK_E_NOMEM);
    TRY(w, "crk_malloc", crk_malloc(w->ctx, &x, N * sizeof *hx));
    TRY(w, "crk_malloc", crk_malloc(w->ctx, &y, N * sizeof *hx));
    TRY(w, "crk_malloc", crk_malloc(w->ctx, &z, N * sizeof *hx));
    for (int it = 0; it < w->iterations; it++) {
        for (int i = 0; i < N; i++) hx[i] = (float)((i * 7 + w->id * 13 + it) % 101) / 50.0f - 1.0f;
        TRY(w, "crk_memcpy_htod", crk_memcpy_htod(w->ctx, x, hx, N * sizeof *hx));
        TRY(w, "crk_unary uexp_f32 (strided)", crk_unary(w->ctx, NULL, "uexp_f32", &t, x, y, 0));
        TRY(w, "crk_binary badd_f32", crk_binary(w->ctx, NULL, "badd_f32", &c, y, &c, y, z));
        TRY(w, "crk_synchronize", crk_synchronize(w->ctx));
        TRY(w, "crk_memcpy_dtoh", crk_memcpy_dtoh(w->ctx, hz, z, N * sizeof *hz));
        for (int r = 0; r < R; r++)
            for (int k = 0; k < C; k++) {
                const float want = 2.0f * expf(hx[k * R + r]), got = hz[r * C + k];
                if (!(fabsf(got - want) <= 1e-5f * fabsf(want) + 1e-6f)) {
                    snprintf(w->err, sizeof w->err, "thread %d iteration %d: element [%d,%d] is %g, want %g", w->id,
                             it, r, k, got, want);
                    return (void *)1;
                }
            }
    }
    TRY(w, "crk_free", crk_free(w->ctx, x));
    TRY(w, "crk_free", crk_free(w->ctx, y));
    TRY(w, "crk_free", crk_free(w->ctx, z));
    free(hx), free(hy), free(hz);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = 16, iterations = 20;
    crk_options o = {.device = 0, .source = CRK_SOURCE_EMBEDDED};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--iterations")) iterations = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--device")) o.device = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--dir")) o.source = CRK_SOURCE_DIR, o.path = argv[i + 1];
        else return fprintf(stderr, "usage: %s [--threads N] [--iterations N] [--device D] [--dir DIR]\n", argv[0]), 2;
    }
    if (threads < 1 || threads > 1024 || iterations < 0) return fprintf(stderr, "threads: bad counts\n"), 2;
    crk_ctx *ctx = NULL;
    crk_status st = crk_open(&ctx, &o);
    if (st != CRK_OK) return printf("threads: skipped: %s\n", crk_last_error()), st == CRK_E_NO_DEVICE ? 0 : 1;
    worker *w = calloc((size_t)threads, sizeof *w);
    pthread_t *th = calloc((size_t)threads, sizeof *th);
    void *sx = NULL, *sy = NULL;
    enum { N = 33 * 65 };
    if (!w || !th || crk_malloc(ctx, &sx, N * sizeof(float)) || crk_malloc(ctx, &sy, N * sizeof(float)) ||
        crk_memset(ctx, sx, 0, N * sizeof(float)))
        return fprintf(stderr, "threads: setup: %s\n", crk_last_error()), 1;
    for (int i = 0; i < threads; i++) {
        w[i] = (worker){.ctx = ctx, .id = i, .iterations = iterations, .shared_x = sx, .shared_y = sy};
        if (pthread_create(&th[i], NULL, run, &w[i])) return fprintf(stderr, "threads: pthread_create\n"), 1;
    }
    int bad = 0;
    for (int i = 0; i < threads; i++) {
        void *r = NULL;
        pthread_join(th[i], &r);
        if (r && !bad++) fprintf(stderr, "threads: %s\n", w[i].err);
    }
    /* The opening thread still works after the workers loaded the modules. */
    crk_layout l;
    const size_t n = N;
    crk_layout_contiguous(&l, 1, &n);
    if (!bad && (st = crk_unary(ctx, NULL, "uneg_f32", &l, sx, sy, 0)) == CRK_OK) st = crk_synchronize(ctx);
    if (!bad && st != CRK_OK) bad = 1, fprintf(stderr, "threads: main thread after the workers: %s\n", crk_last_error());
    printf("threads: %s (%d threads x %d iterations on %s, %s)\n", bad ? "FAILED" : "ok", threads, iterations,
           crk_device_name(ctx), crk_device_target(ctx));
    crk_free(ctx, sx), crk_free(ctx, sy);
    crk_close(ctx);
    free(w), free(th);
    return bad ? 1 : 0;
}
