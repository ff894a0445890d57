/* numeric.c — every registry kernel on the GPU present, through libcrk,
 * against the CPU references of tests/ref (written from the fact sheet).
 *
 *   numeric [--seed N] [--source embedded|dir|bundle] [--path P] [--filter GLOB]
 *           [--no-huge] [--max-numel N] [--shape crk|candle] [--json FILE]
 *           [--slowest N]
 *
 * --shape runs one launch shape (the other is reported as skipped): with
 * --source dir --path holding Candle's own cubins, `--shape candle` runs
 * Candle's kernels under Candle's launches against our references.
 * --max-numel skips (and reports as skipped) the cases whose largest tensor
 * has more than N elements (a family's own sizes: FAMILY_TESTS' elements):
 * make check's emulated AMD runs leave the 2^20-element rows to the GPU.
 * --slowest N prints the N slowest (kernel, case, shape) runs at the end:
 * what to look at when the emulated runs grow past CI's time.
 *
 * Each kernel runs on every layout case below with fresh random inputs
 * (specials included) and a poisoned output with a guard zone after it,
 * under both launch shapes of the product: libcrk's helpers (their grid),
 * and a Candle ROCm backend's (LaunchConfig::for_num_elems: 1024 threads x
 * ceil(n/1024) blocks, Candle's info convention; rows "<family>@candle"). */
#include "crk_libmoe.h"
#include "suite.h"
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Result row of a kernel under a launch shape: "unary", "unary@candle". */
const char *row_family(const crk_kernel_info *ki, int shape) {
    static char buf[32];
    snprintf(buf, sizeof buf, "%s%s", ki->family, shape == SHAPE_CANDLE ? "@candle" : "");
    return buf;
}

/* The dtype a result row is filed under: the value dtype (where: t/f's). */
const char *result_dtype(const crk_kernel_info *ki) {
    return crk_dtype_name((crk_dtype)(ki->family_id != CRK_FAMILY_TERNARY ? ki->dtypes[0] : ki->dtypes[1]));
}

static int applies(const layout_case *lc, const crk_kernel_info *ki) {
    const family_test *t = &FAMILY_TESTS[ki->family_id];
    return !t->applies || t->applies(lc, ki);
}

static size_t elements(const layout_case *lc, const crk_kernel_info *ki) {
    const family_test *t = &FAMILY_TESTS[ki->family_id];
    return t->elements ? t->elements(lc, ki) : case_numel(lc);
}

int run_huge(crk_ctx *ctx, rng_t *rng, results_t *res, const char *filter); /* huge.c */

/* The slowest runs so far, slowest first (--slowest). */
typedef struct {
    double s;
    const char *kernel, *lcase;
    int shape;
} slow_run;
#define SLOWEST_MAX 64

static void slow_note(slow_run *t, size_t n, double s, const char *kernel, const char *lcase, int shape) {
    if (!n || s <= t[n - 1].s) return;
    size_t i = n - 1;
    for (; i > 0 && t[i - 1].s < s; i--) t[i] = t[i - 1];
    t[i] = (slow_run){s, kernel, lcase, shape};
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(void) {
    fprintf(stderr, "usage: numeric [--seed N] [--source embedded|dir|bundle] [--path P] [--filter GLOB] "
                    "[--no-huge] [--max-numel N] [--shape crk|candle] [--json FILE] [--slowest N]\n");
    return 2;
}

int main(int argc, char **argv) {
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    const char *filter = NULL, *json = NULL;
    int huge = 1, only = -1; /* only: one SHAPE_* */
    size_t max_numel = SIZE_MAX, n_slow = 0;
    slow_run slow[SLOWEST_MAX] = {{0}};
    crk_options opt = {0, CRK_SOURCE_EMBEDDED, NULL};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--path") && i + 1 < argc) opt.path = argv[++i];
        else if (!strcmp(argv[i], "--no-huge")) huge = 0;
        else if (!strcmp(argv[i], "--shape") && i + 1 < argc) {
            const char *s = argv[++i];
            if (strcmp(s, "crk") && strcmp(s, "candle")) return usage();
            only = !strcmp(s, "candle") ? SHAPE_CANDLE : SHAPE_CRK;
        }
        else if (!strcmp(argv[i], "--max-numel") && i + 1 < argc) max_numel = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--slowest") && i + 1 < argc) {
            n_slow = strtoull(argv[++i], NULL, 0);
            if (n_slow > SLOWEST_MAX) n_slow = SLOWEST_MAX;
        }
        else if (!strcmp(argv[i], "--source") && i + 1 < argc) {
            const char *s = argv[++i];
            opt.source = !strcmp(s, "dir") ? CRK_SOURCE_DIR : !strcmp(s, "bundle") ? CRK_SOURCE_BUNDLE : CRK_SOURCE_EMBEDDED;
        } else return usage();
    }
    if (!seed) seed = 1;
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress survives a timeout */
    results_t res;
    results_init(&res, seed);
    suite_t S = {0};
    S.rng.s = seed;
    S.res = &res;
    printf("numeric suite: seed %" PRIu64 " (rerun with --seed %" PRIu64 ")\n", seed, seed);
    crk_status st = crk_open(&S.ctx, &opt);
    if (st == CRK_OK) st = crk_libmoe_options(&opt); /* Candle's launchers (fam_mmvq.c): the same code objects */
    if (st != CRK_OK) {
        const int nogpu = st == CRK_E_NO_DEVICE;
        printf("%s%s\n", nogpu ? "skipped: " : "error: ", crk_last_error()); /* it starts "no GPU: " */
        for (size_t k = 0; k < crk_kernel_count(); k++) {
            const crk_kernel_info *ki = crk_kernel_at(k);
            if (filter && fnmatch(filter, ki->name, 0)) continue;
            for (int shape = 0; shape < SHAPES; shape++)
                for (size_t c = 0; c < N_CASES; c++)
                    if (applies(&CASES[c], ki))
                        results_add(&res, row_family(ki, shape), result_dtype(ki), nogpu ? 2 : 1);
        }
        run_spaced(&S, filter, nogpu ? 2 : 1);
        results_print(&res, "none", json);
        return nogpu ? 0 : 1;
    }
    snprintf(res.device, sizeof res.device, "%s (%s, code object %s)", crk_device_name(S.ctx),
             crk_device_target(S.ctx), crk_code_object_target(S.ctx));
    printf("device: %s\n", res.device);
    for (int i = 0; i < 4; i++)
        if (crk_malloc(S.ctx, &S.dev[i], POOL_BYTES) != CRK_OK) return printf("error: %s\n", crk_last_error()), 1;
    if (crk_malloc(S.ctx, &S.dev_info, 4 * CRK_MAX_DIMS * sizeof(size_t)) != CRK_OK)
        return printf("error: %s\n", crk_last_error()), 1;
    for (int i = 0; i < 5; i++)
        if (!(S.host[i] = malloc(POOL_BYTES))) return printf("error: out of host memory\n"), 1;
    const char *family = "";
    for (int f = 0; f < CRK_FAMILY_COUNT; f++)
        if (!FAMILY_TESTS[f].run) return printf("error: family %d has no test (tests/gpu/families.c)\n", f), 1;
    time_t t0 = time(NULL);
    for (size_t k = 0; k < crk_kernel_count(); k++) {
        const crk_kernel_info *ki = crk_kernel_at(k);
        if (filter && fnmatch(filter, ki->name, 0)) continue;
        if (strcmp(family, ki->family)) {
            printf("-- %s (%lds)\n", ki->family, (long)(time(NULL) - t0));
            family = ki->family;
        }
        for (S.shape = 0; S.shape < SHAPES; S.shape++)
            for (size_t c = 0; c < N_CASES; c++) {
                if (!applies(&CASES[c], ki)) continue;
                if (elements(&CASES[c], ki) > max_numel || (only >= 0 && S.shape != only)) {
                    results_add(&res, row_family(ki, S.shape), result_dtype(ki), 2);
                    continue;
                }
                const double t1 = now_s();
                const int bad = FAMILY_TESTS[ki->family_id].run(&S, ki, &CASES[c]);
                slow_note(slow, n_slow, now_s() - t1, ki->name, CASES[c].name, S.shape);
                results_add(&res, row_family(ki, S.shape), result_dtype(ki), bad ? 1 : 0);
            }
    }
    printf("-- Candle's grid in spaced runs (%lds)\n", (long)(time(NULL) - t0));
    run_spaced(&S, filter, only == SHAPE_CRK ? 2 : 0);
    printf("-- huge tensors (%lds)\n", (long)(time(NULL) - t0));
    if (huge) run_huge(S.ctx, &S.rng, &res, filter);
    printf("-- done (%lds)\n", (long)(time(NULL) - t0));
    for (size_t i = 0; i < n_slow && slow[i].kernel; i++)
        printf("slowest %2zu: %8.2f s  %s  %s%s\n", i + 1, slow[i].s, slow[i].kernel, slow[i].lcase,
               slow[i].shape == SHAPE_CANDLE ? " (candle)" : "");
    for (int i = 0; i < 4; i++) crk_free(S.ctx, S.dev[i]);
    crk_free(S.ctx, S.dev_info);
    for (int i = 0; i < 5; i++) free(S.host[i]);
    crk_close(S.ctx);
    return results_print(&res, res.device, json) ? 1 : 0;
}
