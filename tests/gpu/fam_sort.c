/* fam_sort.c — module sort: sort case i (SORTS, one per layout case index)
 * gives contiguous rows x cols of random inputs (NaN, infinities, raw bits;
 * "ties" cases draw from 7 values and NaN), the output poisoned with a guard
 * zone after it.
 *
 * asort_{asc,desc}_<dt> (rows up to 16385 columns):
 *   Candle's launch: grid (rows), block min(ncols_pad, 1024), ncols_pad·4
 *     bytes of shared memory; indices compared bit for bit with Candle's
 *     network simulated (ref_asort_candle). Where ncols_pad·4 exceeds the
 *     device's shared memory (64 KiB on AMD, 48 KiB on NVIDIA), the launch
 *     must fail cleanly, as Candle's does.
 *   libcrk's: crk_argsort (caller's workspace on even cases, NULL on odd);
 *     rows it gives Candle's kernel compare with the network, longer rows
 *     with ref_argsort_stable (its documented total order).
 * crk_asort_keyed_* (Candle's network, keys in shared memory; up to 16385
 *   columns): libcrk's launch (block min(ncols_pad/2, 1024), ncols_pad·
 *   sizeof(T) rounded up to 8, + ncols_pad·2 bytes) and, under the other shape, blocks of 64 threads;
 *   compared with the network like Candle's; past shared memory the launch
 *   must fail cleanly.
 * crk_asort_chunk_* (16385, 33000): the chunk kernel alone, libcrk's grid
 *   (a block per chunk, 1024 threads) and, under the other shape, 3 blocks of
 *   256 threads; every 2048-column chunk compared with ref_argsort_stable.
 * crk_asort_merge_* (16385, 33000; 65536 for f32, u8; 2^20 for
 *   asc f32): libcrk's shape
 *   runs the whole crk_argsort (NULL workspace); the other shape runs one
 *   pass alone (width 2048, from reference-sorted chunks, 5 blocks of 192). */
#include "suite.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    size_t rows, cols;
    int ties;
} sort_case;
static const sort_case SORTS[] = {
    {"0x16", 0, 16, 0},          {"1x1", 1, 1, 0},           {"3x2", 3, 2, 1},
    {"2x1023", 2, 1023, 0},      {"2x1024", 2, 1024, 1},     {"2x1025 ties", 2, 1025, 1},
    {"300x7 ties", 300, 7, 1},   {"1x12288", 1, 12288, 0},   {"1x12289 ties", 1, 12289, 1},
    {"1x16384", 1, 16384, 0},    {"2x16385 ties", 2, 16385, 1}, {"1x65536", 1, 65536, 0},
    {"2x33000 ties", 2, 33000, 1}, {"4x0", 4, 0, 0},         {"1x2^20 ties", 1, 1 << 20, 1},
};
#define N_SORTS (sizeof SORTS / sizeof SORTS[0])
#define CHUNK 2048u /* kernels/sort.h SORT_CHUNK */
#define LONG_COLS 16384 /* rows above it are long on every device */

enum { K_CANDLE, K_KEYED, K_CHUNK, K_MERGE };
static int kind_of(const crk_kernel_info *ki) {
    return strncmp(ki->op, "crk_", 4) ? K_CANDLE
           : strstr(ki->op, "keyed")  ? K_KEYED
           : strstr(ki->op, "chunk")  ? K_CHUNK
                                      : K_MERGE;
}
static int is_asc(const crk_kernel_info *ki) { return strstr(ki->op, "asc") != NULL; }

static void fill_sort_inputs(const crk_kernel_info *ki, crk_dtype dt, const sort_case *sc, unsigned char *buf,
                             size_t n, rng_t *r) {
    fill_inputs(ki, dt, 0, buf, n, r);
    if (!sc->ties) return;
    const size_t sz = crk_dtype_size(dt);
    for (size_t i = 0; i < n; i++) { /* 7 values, and NaN for float dtypes */
        const unsigned pick = (unsigned)(rng_next(r) % 8);
        const double v = pick == 7 && ref_dtype_is_float(dt) ? NAN : (double)pick - 3.0 + (pick == 7 ? -3 : 0);
        if (ref_dtype_is_float(dt)) ref_cast(CRK_F64, dt, &v, buf + i * sz);
        else ref_scalar_from_f64(dt, v, buf + i * sz);
    }
}

/* got vs want, then the guard zone. */
static int check_indices(const crk_kernel_info *ki, const char *cname, const uint32_t *got, const uint32_t *want,
                         size_t n, unsigned char poison) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < 5)
            printf("FAIL %s [%s] index %zu: got %u, want %u\n", ki->name, cname, i, got[i], want[i]);
    if (bad) return printf("FAIL %s [%s]: %zu of %zu indices differ\n", ki->name, cname, bad, n), 1;
    return guard_bad(ki, cname, (const unsigned char *)(got + n), GUARD * 4, poison);
}

/* Raw launch of ki with its parameters' values in order (sizes from the
 * registry). */
static crk_status launch_args(suite_t *S, const crk_kernel_info *ki, unsigned grid, unsigned block, unsigned shared,
                              void **args) {
    size_t sizes[8];
    for (unsigned i = 0; i < ki->nparams && i < 8; i++) sizes[i] = ki->params[i].size;
    const unsigned g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    return crk_launch(S->ctx, NULL, ki->name, g, b, shared, args, sizes, ki->nparams);
}

/* The Candle-named kernel of the same order and dtype (crk_argsort's name). */
static const char *candle_name(const crk_kernel_info *ki, char *buf, size_t n) {
    snprintf(buf, n, "asort_%s_%s", is_asc(ki) ? "asc" : "desc", crk_dtype_name((crk_dtype)ki->dtypes[0]));
    return buf;
}

/* What crk_argsort or the chunk/merge kernels must give, row by row
 * (window: stable order within windows of that many columns; 0: whole rows). */
static void expected(crk_dtype dt, int asc, int network, const unsigned char *src, const sort_case *sc,
                     size_t window, uint32_t *want) {
    const size_t sz = crk_dtype_size(dt);
    for (size_t r = 0; r < sc->rows; r++) {
        const unsigned char *row = src + r * sc->cols * sz;
        uint32_t *w = want + r * sc->cols;
        if (network) {
            ref_asort_candle(dt, asc, row, sc->cols, w);
            continue;
        }
        const size_t win = window ? window : sc->cols;
        for (size_t c0 = 0; c0 < sc->cols; c0 += win) {
            const size_t len = sc->cols - c0 < win ? sc->cols - c0 : win;
            ref_argsort_stable(dt, asc, row + c0 * sz, len, w + c0);
            for (size_t i = 0; i < len; i++) w[c0 + i] += (uint32_t)c0;
        }
    }
}

/* crk_argsort's refusals, for a long row: a workspace one byte short, our
 * own step kernels by name, more columns than u32 indices hold. Each must
 * be CRK_E_INVALID naming the problem; 1 (printed) if one is not. */
static int misuse_ok(suite_t *S, const crk_kernel_info *ki, const char *cname, size_t rows, size_t cols, size_t ws) {
    char own[96];
    snprintf(own, sizeof own, "crk_asort_chunk_asc_%s", crk_dtype_name((crk_dtype)ki->dtypes[0]));
    static const char *const why[3] = {"below", "own steps", "u32 indices"};
    for (int i = 0; i < 3; i++) {
        const crk_status st =
            i == 0   ? crk_argsort(S->ctx, NULL, ki->name, S->dev[0], S->dev[1], rows, cols, S->dev[2], ws - 1)
            : i == 1 ? crk_argsort(S->ctx, NULL, own, S->dev[0], S->dev[1], rows, cols, NULL, 0)
                     : crk_argsort(S->ctx, NULL, ki->name, S->dev[0], S->dev[1], 1, (size_t)1 << 32, NULL, 0);
        if (st != CRK_E_INVALID || !strstr(crk_last_error(), why[i]))
            return printf("FAIL %s [%s]: misuse %d gave %s (%s)\n", ki->name, cname, i, crk_status_name(st),
                          crk_last_error()), 1;
    }
    return 0;
}

int run_sort(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const sort_case *sc = &SORTS[lc - CASES];
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const size_t sz = crk_dtype_size(dt), n = sc->rows * sc->cols;
    const int kind = kind_of(ki), asc = is_asc(ki), candle = S->shape == SHAPE_CANDLE;
    char cname[160], cn[64];
    snprintf(cname, sizeof cname, "sort %s%s", sc->name, candle ? ", Candle's launch shape" : "");
    unsigned char *src = S->host[0];
    uint32_t *got = (uint32_t *)S->host[1], *want = (uint32_t *)S->host[2], *aux = (uint32_t *)S->host[3];
    fill_sort_inputs(ki, dt, sc, src, n, &S->rng);
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (n + GUARD) * 4);
    if (upload(S, S->dev[0], src, n * sz) || upload(S, S->dev[1], got, (n + GUARD) * 4))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    int cols_i = (int)sc->cols, pad_i = 1;
    while ((size_t)pad_i < sc->cols) pad_i *= 2;
    size_t cols = sc->cols, rows = sc->rows, width = CHUNK;
    void *x = S->dev[0], *dst = S->dev[1], *aux_dev = S->dev[2];
    crk_status st = CRK_OK;
    int network = 0;
    size_t window = 0;
    if ((kind == K_CANDLE && candle) || kind == K_KEYED) {
        const size_t limit = strncmp(crk_device_target(S->ctx), "sm_", 3) ? 65536 : 49152;
        const size_t bytes = kind == K_KEYED ? ((size_t)pad_i * sz + 7) / 8 * 8 + (size_t)pad_i * 2 : (size_t)pad_i * 4;
        const unsigned half = pad_i > 1 ? (unsigned)pad_i / 2 : 1;
        const unsigned block = kind == K_CANDLE ? (pad_i < 1024 ? (unsigned)pad_i : 1024)
                               : candle         ? 64
                                                : (half < 1024 ? half : 1024);
        void *args[4] = {&x, &dst, &cols_i, &pad_i};
        if (rows == 0) return 0; /* Candle launches nothing for no rows */
        st = launch_args(S, ki, (unsigned)rows, block, (unsigned)bytes, args);
        if (bytes > limit) { /* as Candle's: the launch fails, cleanly */
            if (st != CRK_OK) return crk_synchronize(S->ctx), 0;
            return printf("FAIL %s [%s]: %zu bytes of shared memory launched\n", ki->name, cname, bytes), 1;
        }
        network = 1;
    } else if (kind == K_CANDLE) {
        const size_t ws = crk_argsort_workspace_size(S->ctx, rows, cols);
        network = ws == 0;
        const int own = (lc - CASES) % 2 == 0;
        if (ws && misuse_ok(S, ki, cname, rows, cols, ws)) return 1;
        st = crk_argsort(S->ctx, NULL, ki->name, x, dst, rows, cols, own ? aux_dev : NULL, own ? POOL_BYTES : 0);
    } else if (kind == K_CHUNK) {
        void *args[4] = {&x, &dst, &cols, &rows};
        const size_t chunks = rows * ((cols + CHUNK - 1) / CHUNK);
        st = launch_args(S, ki, candle ? 3 : (unsigned)chunks, candle ? 256 : 1024, 0, args);
        window = CHUNK;
    } else if (!candle) {
        st = crk_argsort(S->ctx, NULL, candle_name(ki, cn, sizeof cn), x, dst, rows, cols, NULL, 0);
    } else { /* one merge pass alone, from reference-sorted chunks */
        expected(dt, asc, 0, src, sc, CHUNK, aux);
        if (upload(S, aux_dev, aux, n * 4)) return gpu_ok(CRK_E_GPU, ki, cname), 1;
        void *args[6] = {&x, &aux_dev, &dst, &cols, &rows, &width};
        st = launch_args(S, ki, 5, 192, 0, args);
        window = 2 * CHUNK;
    }
    if (finish(S, st, ki, cname, got, dst, (n + GUARD) * 4)) return 1;
    expected(dt, asc, network, src, sc, window, want);
    return check_indices(ki, cname, got, want, n, poison);
}

size_t sort_elements(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    const size_t i = (size_t)(lc - CASES);
    return i < N_SORTS ? SORTS[i].rows * SORTS[i].cols : 0;
}

/* Sort case i runs with layout case i. The emulator runs every kernel of
 * both AMD targets, so the long rows are spread: Candle's kernels up to
 * 16385 columns (the first row crk_argsort sorts as long on AMD), the chunk
 * kernels on 16385 and 33000, the merge kernels on those (4 and 5 passes:
 * the result lands in dst from either buffer), f32 and u8 (ties: 256
 * values) on 65536, and crk_asort_merge_asc_f32 on 2^20. */
int sort_applies(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t i = (size_t)(lc - CASES);
    if (i >= N_SORTS) return 0;
    const size_t cols = SORTS[i].cols;
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    switch (kind_of(ki)) {
    case K_CANDLE:
    case K_KEYED: return cols <= LONG_COLS + 1;
    case K_CHUNK: return cols > LONG_COLS && cols <= 33000;
    default:
        if (cols == (1u << 20)) return ki == crk_kernel_find("crk_asort_merge_asc_f32");
        return cols > LONG_COLS && (cols <= 33000 || dt == CRK_F32 || dt == CRK_U8);
    }
}
