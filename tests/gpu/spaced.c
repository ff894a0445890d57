/* spaced.c — Candle's grid (a thread an element, 1024 x ceil(n/1024)) over
 * launches of kSpacedRuns (2^21) runs of 16 bytes and more, where the
 * element-wise kernels take their runs in every R-th block and the other
 * blocks exit (walk_of, kernels/elementwise.h). The case table's sizes
 * stay below that, so these cases run here: each path of the spaced walk
 * once (contiguous runs with a one-element tail, tiles with rows of odd
 * length, the column and row walks, binary, copy2d) and the launches that
 * keep an element a thread (a misaligned view, rows of odd length, where
 * and const_set, which lost in runs). Each through its
 * family's own test (reference, poisoned output, guard zone), sized so
 * that every buffer fits the suite's pools (POOL_BYTES: the family tests
 * hold an f64 a value of the input, so 2^21 runs of 4- and 8-byte types;
 * the runs of 1- and 2-byte types, 8 and 16 values, are the same code). */
#include "suite.h"
#include <fnmatch.h>
#include <stdio.h>

typedef struct {
    const char *kernel;
    layout_case lc;
} spaced_case;

static const spaced_case SPACED[] = {
    {"ucopy_f32", {"spaced 2^23+5 (runs + tail)", 1, {8388613}, K_CONTIG, 0, 0}},
    {"ucopy_f64", {"spaced 2^22+3", 1, {4194307}, K_CONTIG, 0, 0}},
    {"ugelu_f32", {"spaced 2^23+3", 1, {8388611}, K_CONTIG, 0, 0}},
    {"ucopy_f32", {"spaced 2052x4099 transposed (tiles, odd rows)", 2, {2052, 4099}, K_TRANSPOSE, 0, 0}},
    {"uexp_f32", {"spaced 2048x4100 transposed (columns)", 2, {2048, 4100}, K_TRANSPOSE, 0, 0}},
    {"ucopy_f32", {"spaced 2048x4100 broadcast (rows)", 2, {2048, 4100}, K_BCAST, 0, 0}},
    {"cast_f32_bf16", {"spaced 2048x4104 broadcast column (rows of 8)", 2, {2048, 4104}, K_BCAST_COL, 0, 0}},
    {"affine_f32", {"spaced 2^23+8 sliced +1 (misaligned: an element a thread)", 1, {8388616}, K_CONTIG, 1, 0}},
    {"uexp_f32", {"spaced 2049x4099 broadcast, odd rows (an element a thread)", 2, {2049, 4099}, K_BCAST, 0, 0}},
    {"badd_f32", {"spaced 2048x4100 transposed", 2, {2048, 4100}, K_TRANSPOSE, 0, 0}},
    {"badd_f32", {"spaced 2048x4100 broadcast", 2, {2048, 4100}, K_BCAST, 0, 0}},
    {"where_u8_f32", {"spaced 2^23+7 (an element a thread)", 1, {8388615}, K_CONTIG, 0, 0}},
    {"copy2d_f32", {"spaced 2048x4104 rows", 2, {2048, 4104}, K_CONTIG, 0, 0}},
    {"copy2d_f32", {"spaced 2048x4099 padded rows (an element a thread)", 2, {2048, 4099}, K_TRANSPOSE, 0, 0}},
    {"const_set_f32", {"spaced 2048x4100 transposed (an element a thread)", 2, {2048, 4100}, K_TRANSPOSE, 0, 0}},
};

/* Runs the cases of the kernels filter matches (all without one) under
 * Candle's launch shape, or files them as `skip`; returns the number failed. */
int run_spaced(suite_t *S, const char *filter, int skip) {
    int failed = 0;
    const int shape = S->shape;
    S->shape = SHAPE_CANDLE;
    for (size_t c = 0; c < sizeof SPACED / sizeof SPACED[0]; c++) {
        const spaced_case *sc = &SPACED[c];
        if (filter && fnmatch(filter, sc->kernel, 0)) continue;
        const crk_kernel_info *ki = crk_kernel_find(sc->kernel);
        if (!ki) {
            printf("FAIL %s [%s]: not in the registry\n", sc->kernel, sc->lc.name);
            results_add(S->res, "spaced@candle", "?", 1), failed++;
            continue;
        }
        if (!skip && case_numel(&sc->lc) * sizeof(double) > POOL_BYTES) { /* the pools would overflow */
            printf("FAIL %s [%s]: larger than the suite's buffers (POOL_BYTES)\n", sc->kernel, sc->lc.name);
            results_add(S->res, row_family(ki, SHAPE_CANDLE), result_dtype(ki), 1), failed++;
            continue;
        }
        const int bad = skip ? skip : FAMILY_TESTS[ki->family_id].run(S, ki, &sc->lc) ? 1 : 0;
        results_add(S->res, row_family(ki, SHAPE_CANDLE), result_dtype(ki), bad);
        if (!skip) printf("%s %s [%s, Candle's launch shape]\n", bad ? "FAIL" : "ok  ", sc->kernel, sc->lc.name);
        failed += bad == 1;
    }
    S->shape = shape;
    return failed;
}
