/* overhead.c — what libcrk adds on the host:
 *   lookup: crk_kernel_find over every registry name (median ns per lookup);
 *   launch: host time per launch of a 1-element ucopy_f32, enqueued 20000 times
 *   back to back, for a raw driver launch (the gpu.h call libcrk ends in),
 *   crk_launch (signature check + lookup), crk_unary on a contiguous layout
 *   (info NULL), on one strided layout (its info uploaded once, then its
 *   slot reused) and on 1600 strided layouts in turn (each uploaded). Median
 *   of 7.
 * Needs no GPU for the lookup part. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "context.h"
#include "crk.h"

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}
static int cmp_d(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[n / 2];
}

#define REPS 7
#define LAUNCHES 20000

typedef int (*launch_fn)(crk_ctx *ctx, void *fn, void **args, const crk_layout *l, void *in, void *out);

static int via_raw(crk_ctx *ctx, void *fn, void **args, const crk_layout *l, void *in, void *out) {
    (void)l, (void)in, (void)out;
    static const unsigned g[3] = {1, 1, 1}, b[3] = {256, 1, 1};
    return ctx->gpu.launch(&ctx->gpu, fn, g, b, 0, NULL, args);
}
static int via_crk_launch(crk_ctx *ctx, void *fn, void **args, const crk_layout *l, void *in, void *out) {
    (void)fn, (void)l, (void)in, (void)out;
    static const unsigned g[3] = {1, 1, 1}, b[3] = {256, 1, 1};
    static const size_t sizes[5] = {8, 8, 8, 8, 8};
    return crk_launch(ctx, NULL, "ucopy_f32", g, b, 0, args, sizes, 5);
}
static int via_unary(crk_ctx *ctx, void *fn, void **args, const crk_layout *l, void *in, void *out) {
    (void)fn, (void)args;
    return crk_unary(ctx, NULL, "ucopy_f32", l, in, out, 0);
}
/* 2x2 views with strides (a, b), a in 3..42, b in 0..39: 1600 layouts in
 * turn, more than the info ring's 1024 slots hold, so each one uploads. */
static int via_unary_rotating(crk_ctx *ctx, void *fn, void **args, const crk_layout *l, void *in, void *out) {
    (void)fn, (void)args, (void)l;
    static unsigned k;
    const size_t two[2] = {2, 2};
    crk_layout v;
    crk_layout_contiguous(&v, 2, two);
    k = (k + 1) % 1600;
    v.strides[0] = 3 + k / 40, v.strides[1] = k % 40;
    return crk_unary(ctx, NULL, "ucopy_f32", &v, in, out, 0);
}

static double time_launches(crk_ctx *ctx, launch_fn f, void *fn, void **args, const crk_layout *l, void *in, void *out) {
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        crk_synchronize(ctx);
        const double t0 = now_ns();
        for (int i = 0; i < LAUNCHES; i++)
            if (f(ctx, fn, args, l, in, out)) return printf("launch failed: %s\n", crk_last_error()), -1;
        t[r] = (now_ns() - t0) / LAUNCHES;
        crk_synchronize(ctx);
    }
    return median(t, REPS);
}

int main(int argc, char **argv) {
    /* lookup */
    const size_t n = crk_kernel_count();
    double t[1001];
    volatile size_t sink = 0;
    for (int r = 0; r < 1001; r++) {
        const double t0 = now_ns();
        for (size_t i = 0; i < n; i++) sink += (size_t)crk_kernel_find(crk_kernel_at(i)->name)->nparams;
        t[r] = (now_ns() - t0) / (double)n;
    }
    printf("lookup: crk_kernel_find median %.1f ns per name (%zu names, 1001 rounds)\n", median(t, 1001), n);
    crk_options opt = {0, CRK_SOURCE_EMBEDDED, NULL};
    if (argc == 3 && !strcmp(argv[1], "--dir")) opt.source = CRK_SOURCE_DIR, opt.path = argv[2];
    crk_ctx *ctx;
    if (crk_open(&ctx, &opt) != CRK_OK) return printf("launch overhead: skipped: %s\n", crk_last_error()), 0;
    void *in, *out;
    crk_malloc(ctx, &in, 4096), crk_malloc(ctx, &out, 4096), crk_memset(ctx, in, 1, 4096);
    crk_status st = CRK_OK;
    void *fn = crk_function(ctx, crk_kernel_find("ucopy_f32"), &st);
    if (!fn) return printf("%s\n", crk_last_error()), 1;
    size_t numel = 1, nd = 1;
    void *info = NULL;
    void *args[5] = {&numel, &nd, &info, &in, &out};
    crk_layout lc, ls;
    const size_t one = 1, two[2] = {1, 1};
    crk_layout_contiguous(&lc, 1, &one);
    crk_layout_contiguous(&ls, 2, two);
    ls.dims[1] = 1, ls.dims[0] = 2, ls.strides[0] = 0; /* broadcast: not contiguous -> info upload */
    const double raw = time_launches(ctx, via_raw, fn, args, &lc, in, out);
    const double lau = time_launches(ctx, via_crk_launch, fn, args, &lc, in, out);
    const double con = time_launches(ctx, via_unary, fn, args, &lc, in, out);
    const double str = time_launches(ctx, via_unary, fn, args, &ls, in, out);
    const double rot = time_launches(ctx, via_unary_rotating, fn, args, &ls, in, out);
    printf("launch (host us per launch, %d back-to-back, median of %d) on %s:\n", LAUNCHES, REPS, crk_device_name(ctx));
    printf("  raw %s launch              %7.2f us\n", ctx->gpu.api, raw / 1e3);
    printf("  crk_launch                   %7.2f us  (+%.2f)\n", lau / 1e3, (lau - raw) / 1e3);
    printf("  crk_unary contiguous (NULL)  %7.2f us  (+%.2f)\n", con / 1e3, (con - raw) / 1e3);
    printf("  crk_unary strided (reused)   %7.2f us  (+%.2f)\n", str / 1e3, (str - raw) / 1e3);
    printf("  crk_unary strided (uploaded) %7.2f us  (+%.2f)\n", rot / 1e3, (rot - raw) / 1e3);
    crk_free(ctx, in), crk_free(ctx, out);
    crk_close(ctx);
    return (int)(sink & 0);
}
