/* copyref.c — the device's copy bandwidth for the bytes a fixed-shape row
 * moves (bench/README.md, "%cp="). A 128 MiB row is not a 2 GiB copy: a
 * launch's ramp and tail weigh more on fewer bytes, for a copy as for any
 * kernel, so a row is also compared with a copy of its own size: libcrk's
 * ucopy_f32 of bytes / 8 elements (half the bytes read, half written),
 * rotating buffer sets past the L2 as the rows do, timed as the rows are
 * (bench_measure). Measured once a size. */
#include "bench.h"
#include <stdint.h>
#include <stdio.h>

#define MAX_SIZES 64

static struct {
    size_t n;
    double gbps;
} seen[MAX_SIZES];
static size_t nseen;

typedef struct {
    crk_ctx *ctx;
    crk_layout l;
    void *src[MAX_SETS], *dst[MAX_SETS];
} copy_job;

static int fire_copy(const void *arg, int set) {
    const copy_job *j = arg;
    if (crk_unary(j->ctx, NULL, "ucopy_f32", &j->l, j->src[set], j->dst[set], 0) == CRK_OK) return 0;
    printf("ERROR: the copy reference (ucopy_f32): %s\n", crk_last_error());
    return -1;
}

/* 0x3F3F3F3F (0.747f) everywhere: not zeros, which can run faster. */
static double measure_copy(crk_ctx *ctx, size_t n) {
    copy_job j = {.ctx = ctx};
    crk_layout_contiguous(&j.l, 1, &n);
    const size_t bytes = n * 4;
    int sets = (int)((ROTATE_BYTES + 2 * bytes - 1) / (2 * bytes)), bad = 0;
    if (sets < 1) sets = 1;
    if (sets > MAX_SETS) sets = MAX_SETS;
    for (int s = 0; s < sets && !bad; s++)
        bad = crk_malloc(ctx, &j.src[s], bytes) != CRK_OK || crk_malloc(ctx, &j.dst[s], bytes) != CRK_OK ||
              crk_memset(ctx, j.src[s], 0x3F, bytes) != CRK_OK || crk_memset(ctx, j.dst[s], 0, bytes) != CRK_OK;
    bench_meas m = {0};
    uint32_t last = 0;
    if (bad) printf("ERROR: the copy reference's buffers (%zu bytes): %s\n", bytes, crk_last_error());
    else if (!(bad = bench_measure(ctx, fire_copy, &j, sets, &m)) &&
             (crk_memcpy_dtoh(ctx, &last, (const char *)j.dst[0] + bytes - 4, 4) != CRK_OK || last != 0x3F3F3F3Fu))
        bad = 1, printf("ERROR: the copy reference (ucopy_f32, n = %zu) did not copy: %08x\n", n, (unsigned)last);
    for (int s = 0; s < sets; s++) {
        if (j.src[s]) crk_free(ctx, j.src[s]);
        if (j.dst[s]) crk_free(ctx, j.dst[s]);
    }
    return bad ? -1 : (double)(2 * bytes) / (m.ms * 1e6);
}

double copy_same_bytes(crk_ctx *ctx, double bytes) {
    const size_t n = (size_t)(bytes / 8) / 4 * 4; /* elements: whole 16-byte runs */
    if (n == 0) return -1;
    for (size_t i = 0; i < nseen; i++)
        if (seen[i].n == n) return seen[i].gbps;
    const double g = measure_copy(ctx, n);
    if (g > 0) printf("  copy of the same bytes: %zu f32 elements, %.1f GB/s\n", n, g);
    if (nseen < MAX_SIZES) seen[nseen].n = n, seen[nseen++].gbps = g;
    return g;
}
