/* ref_sort.c — references of module sort, written from the fact sheet
 * (§4.17) and include/crk.h:
 *   ref_asort_candle: Candle's asort kernel, its bitonic network simulated
 *     compare-exchange by compare-exchange (ties and NaN land where the
 *     network puts them: the sort is not stable, NaN compares false);
 *   ref_argsort_stable: the order crk_argsort guarantees for long rows
 *     (value, ties by column, NaN last in column order). */
#include "ref.h"

#include <stdlib.h>
#include <string.h>

/* a > b as values (i64 exactly, the others through f64, which holds every
 * value of theirs); false when either is NaN. */
static int greater(crk_dtype dt, const void *a, const void *b) {
    if (dt == CRK_I64) {
        int64_t x, y;
        memcpy(&x, a, 8), memcpy(&y, b, 8);
        return x > y;
    }
    return ref_value_f64(dt, a) > ref_value_f64(dt, b);
}

void ref_asort_candle(crk_dtype dt, int asc, const void *row, size_t ncols, uint32_t *out) {
    const size_t sz = ref_dtype_size(dt);
    const unsigned char *x = row;
    size_t pad = 1;
    while (pad < ncols) pad *= 2;
    uint32_t *d = malloc(pad * sizeof *d);
    if (!d) abort();
    for (size_t c = 0; c < pad; c++) d[c] = (uint32_t)c;
    /* "x[a] > x[b]" for asc, "x[a] < x[b]" for desc */
#define OUT_OF_ORDER(a, b) (asc ? greater(dt, x + (a) * sz, x + (b) * sz) : greater(dt, x + (b) * sz, x + (a) * sz))
    for (size_t k = 2; k <= pad; k *= 2)
        for (size_t j = k / 2; j > 0; j /= 2)
            for (size_t col = 0; col < pad; col++) { /* a stage's pairs are disjoint: any order */
                const size_t ixj = col ^ j;
                if (ixj <= col) continue;
                const uint32_t a = d[col], b = d[ixj];
                const int swap = (col & k) == 0 ? a >= ncols || (b < ncols && OUT_OF_ORDER(a, b))
                                                : b >= ncols || (a < ncols && OUT_OF_ORDER(b, a));
                if (swap) d[col] = b, d[ixj] = a;
            }
#undef OUT_OF_ORDER
    memcpy(out, d, ncols * sizeof *d);
    free(d);
}

typedef struct {
    crk_dtype dt;
    int asc;
    const unsigned char *x;
} sort_ctx;
static _Thread_local sort_ctx S;

static int by_order(const void *pa, const void *pb) {
    const uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    const size_t sz = ref_dtype_size(S.dt);
    const void *va = S.x + a * sz, *vb = S.x + b * sz;
    const int na = ref_is_nan(S.dt, va), nb = ref_is_nan(S.dt, vb);
    if (na != nb) return na ? 1 : -1; /* NaN after every number */
    if (!na) {
        if (greater(S.dt, va, vb)) return S.asc ? 1 : -1;
        if (greater(S.dt, vb, va)) return S.asc ? -1 : 1;
    }
    return a < b ? -1 : a > b; /* ties (and NaNs): by column */
}

void ref_argsort_stable(crk_dtype dt, int asc, const void *row, size_t ncols, uint32_t *out) {
    for (size_t c = 0; c < ncols; c++) out[c] = (uint32_t)c;
    S = (sort_ctx){dt, asc, row};
    qsort(out, ncols, sizeof *out, by_order);
}
