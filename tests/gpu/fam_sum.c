/* fam_sum.c — sum_<dt>, upstream's atomicAdd sum (kernels/sum.h). Each
 * layout case is summed over its last dim, its first dim, every dim and no
 * dim (out += x); row case i (ROWS) adds a contiguous rows x cols tensor
 * summed over its columns and over its rows. The output already holds
 * values (the kernel adds into it), then a poisoned guard zone.
 *
 * The adds come in the hardware's order, so each case runs twice:
 *  - exact: positive integers x <= m with |init| + k·m inside T's exact
 *    integers (2^8 bf16, 2^11 f16, 2^24 f32, 2^53 f64): every partial sum
 *    is exact in any order, so the output must be init + Σx bit for bit,
 *    and Σx >= k, so a lost, doubled or misplaced add always shows.
 *    Integers: random values of the whole range, wrapping, exact;
 *  - real (floats): values in ±[1/64, 4); k adds in T, each rounding once
 *    (u = 2^-p), stay within k·u·(|init| + Σ|x|) of the exact sum
 *    (Higham's γ_k bound; k adds reach an output, folded in a thread or
 *    atomic). The reference sums in long double (at least 64 bits: its own
 *    error, k·2^-64·Σ, is added to the bound; in double it was not
 *    negligible for f64: sum_f64 k = 3 on the H100, seed 20261201). NaN
 *    never passes. */
#include "suite.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    size_t rows, cols;
} rows_case;
static const rows_case ROWS[] = {
    {"1x1", 1, 1}, {"3x1025", 3, 1025}, {"3000x7", 3000, 7}, {"1x2^20", 1, 1 << 20}, {"4x0", 4, 0}, {"0x5", 0, 5},
};
#define N_ROWS (sizeof ROWS / sizeof ROWS[0])

/* Significand bits of a float dtype (its exact integers reach 2^p); 0 for integers. */
static int precision(crk_dtype dt) {
    switch (dt) {
    case CRK_BF16: return 8;
    case CRK_F16: return 11;
    case CRK_F32: return 24;
    case CRK_F64: return 53;
    default: return 0;
    }
}

/* Output index of logical element i: i without the summed dims (mask). */
static size_t kept_index(const crk_layout *l, unsigned mask, size_t i) {
    size_t j = 0, scale = 1;
    for (size_t d = l->rank; d-- > 0;) {
        const size_t idx = i % l->dims[d];
        i /= l->dims[d];
        if (!(mask >> d & 1u)) j += idx * scale, scale *= l->dims[d];
    }
    return j;
}

/* Upstream's info: dims, strides, then the summed dims' extents and
 * contiguous strides in increasing dim order. Returns its length. */
static size_t sum_info(const crk_layout *l, unsigned mask, size_t *info, size_t *n_sum) {
    size_t n = 0, ext[CRK_MAX_DIMS], str[CRK_MAX_DIMS];
    for (size_t d = 0; d < l->rank; d++) {
        info[d] = l->dims[d], info[l->rank + d] = l->strides[d];
        if (mask >> d & 1u) {
            size_t after = 1;
            for (size_t e = d + 1; e < l->rank; e++) after *= l->dims[e];
            ext[n] = l->dims[d], str[n] = after, n++;
        }
    }
    for (size_t k = 0; k < n; k++) info[2 * l->rank + k] = ext[k], info[2 * l->rank + n + k] = str[k];
    *n_sum = n;
    return 2 * l->rank + 2 * n;
}

static crk_status launch_candle(suite_t *S, const crk_kernel_info *ki, const crk_layout *l, unsigned mask,
                                const void *src) {
    size_t info[4 * CRK_MAX_DIMS], n_sum, numel = crk_layout_numel(l), nd = l->rank;
    const size_t len = sum_info(l, mask, info, &n_sum);
    if (numel == 0) return CRK_OK; /* for_num_elems(0): no launch */
    crk_status st = crk_memcpy_htod(S->ctx, S->dev_info, info, len * sizeof(size_t));
    if (st != CRK_OK) return st;
    void *info_dev = S->dev_info, *out = S->dev[1];
    const void *inp = src;
    void *args[6] = {&numel, &nd, &n_sum, &info_dev, &inp, &out};
    size_t sizes[6];
    for (unsigned i = 0; i < ki->nparams && i < 6; i++) sizes[i] = ki->params[i].size;
    /* Candle's for_num_elems: 1024 threads, a thread per element */
    const unsigned grid[3] = {(unsigned)((numel + 1023) / 1024), 1, 1}, block[3] = {1024, 1, 1};
    return crk_launch(S->ctx, NULL, ki->name, grid, block, 0, args, sizes, ki->nparams);
}

/* One sum of the view l over the dims of mask, its buffer start_offset +
 * span elements (span: past the start, as case_layout returns it); exact:
 * the data are the exact kind. Returns failures. */
static int sum_case(suite_t *S, const crk_kernel_info *ki, const char *cname, const crk_layout *l, size_t span,
                    unsigned mask, int exact) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const size_t sz = crk_dtype_size(dt), numel = crk_layout_numel(l);
    size_t dst_el = 1, k = 1, sum_dims[CRK_MAX_DIMS], nsum = 0;
    for (size_t d = 0; d < l->rank; d++) {
        if (mask >> d & 1u) k *= l->dims[d], sum_dims[nsum++] = d;
        else dst_el *= l->dims[d];
    }
    if (!ref_dtype_is_float(dt) && !exact) return 0; /* integers: one (exact) run */
    const int p = precision(dt);
    /* positive values up to m with |init| <= m: (k + 1)·m within 2^p */
    double m = 8;
    if (p && exact && (double)(k + 1) * m > ldexp(1.0, p)) m = floor(ldexp(1.0, p) / (double)(k + 1));
    if (m < 1) return 0; /* k past T's exact integers (bf16 rows of 2^20): the real run covers it */
    unsigned char *src = S->host[0], *out = S->host[1], *want = S->host[2];
    span += l->start_offset;
    for (size_t i = 0; i < span; i++) { /* every element of the buffer, read or not */
        double v;
        if (!p) {
            const uint64_t r = rng_next(&S->rng);
            memcpy(src + i * sz, &r, sz);
            continue;
        }
        if (exact) v = (double)(1 + rng_next(&S->rng) % (uint64_t)m);
        else v = ldexp(1.0 + rng_unit(&S->rng), (int)(rng_next(&S->rng) % 8) - 6) * (rng_next(&S->rng) & 1 ? -1 : 1);
        ref_scalar_from_f64(dt, v, src + i * sz);
    }
    /* out: init values, then the poisoned guard zone */
    const unsigned char poison = poison_byte(S);
    for (size_t j = 0; j < dst_el; j++) {
        double v;
        if (!p) {
            const uint64_t r = rng_next(&S->rng);
            memcpy(out + j * sz, &r, sz);
            continue;
        }
        v = exact ? (double)((int64_t)(rng_next(&S->rng) % (2 * (uint64_t)m + 1)) - (int64_t)m)
                  : 4 * (2 * rng_unit(&S->rng) - 1);
        ref_scalar_from_f64(dt, v, out + j * sz);
    }
    memset(out + dst_el * sz, poison, GUARD * sz);
    if (upload(S, S->dev[0], src, span * sz) || upload(S, S->dev[1], out, (dst_el + GUARD) * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    /* the reference: exact sums (integers: wrapping, in 64 bits) */
    long double *acc = calloc(2 * (dst_el ? dst_el : 1), sizeof(long double)), *mag = acc + (dst_el ? dst_el : 1);
    uint64_t *iacc = calloc(dst_el ? dst_el : 1, sizeof(uint64_t));
    if (!acc || !iacc) return free(acc), free(iacc), printf("FAIL %s [%s]: out of host memory\n", ki->name, cname), 1;
    for (size_t j = 0; j < dst_el; j++) {
        if (p) acc[j] = ref_value_f64(dt, out + j * sz), mag[j] = fabsl(acc[j]);
        else memcpy(&iacc[j], out + j * sz, sz); /* little-endian: the low bytes */
    }
    for (size_t i = 0; i < numel; i++) {
        const size_t j = kept_index(l, mask, i);
        const unsigned char *x = src + offset_of(l, i) * sz;
        if (p) {
            const double v = ref_value_f64(dt, x);
            acc[j] += v, mag[j] += fabs(v);
        } else {
            uint64_t v = 0;
            memcpy(&v, x, sz);
            iacc[j] += v; /* the low sz bytes wrap as the type's */
        }
    }
    const crk_status st = S->shape == SHAPE_CANDLE
                              ? launch_candle(S, ki, l, mask, (const char *)S->dev[0] + l->start_offset * sz)
                              : crk_sum_atomic(S->ctx, NULL, ki->name, l, S->dev[0], sum_dims, nsum, S->dev[1]);
    unsigned char *got = S->host[3];
    int bad = finish(S, st, ki, cname, got, S->dev[1], (dst_el + GUARD) * sz);
    const double u = p ? ldexp(1.0, -p) + ldexp(1.0, -64) : 0;
    for (size_t j = 0; j < dst_el && !bad; j++) {
        const unsigned char *g = got + j * sz;
        if (!p) {
            if (memcmp(g, &iacc[j], sz)) {
                uint64_t gv = 0;
                memcpy(&gv, g, sz);
                printf("FAIL %s [%s] output %zu: got 0x%llx, want 0x%llx (k = %zu)\n", ki->name, cname, j,
                       (unsigned long long)gv, (unsigned long long)(iacc[j] & (sz == 8 ? ~0ull : (1ull << 8 * sz) - 1)),
                       k);
                bad = 1;
            }
            continue;
        }
        const double gv = ref_value_f64(dt, g);
        const double a = (double)acc[j], tol = (double)k * u * (double)mag[j];
        if (exact) {
            ref_scalar_from_f64(dt, a, want);
            if (!memcmp(g, want, sz)) continue;
            printf("FAIL %s [%s] output %zu: got %.17g, want exactly %.17g (k = %zu)\n", ki->name, cname, j, gv, a,
                   k);
            bad = 1;
        } else if (!(fabsl((long double)gv - acc[j]) <= tol)) { /* NaN fails */
            printf("FAIL %s [%s] output %zu: got %.17g, want %.17g within %.3g (k = %zu)\n", ki->name, cname, j, gv, a,
                   tol, k);
            bad = 1;
        }
    }
    free(acc), free(iacc);
    return bad ? bad : guard_bad(ki, cname, got + dst_el * sz, GUARD * sz, poison);
}

static int both(suite_t *S, const crk_kernel_info *ki, const char *cname, const char *over, const crk_layout *l,
                size_t span, unsigned mask) {
    char what[240];
    int bad = 0;
    for (int exact = 1; exact >= 0; exact--) {
        snprintf(what, sizeof what, "%s, over %s, %s data", cname, over, exact ? "exact" : "real");
        bad += sum_case(S, ki, what, l, span, mask, exact);
    }
    return bad;
}

int run_sum(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    char cn[160];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout l;
    const size_t span = case_layout(lc, lc->kind, &l);
    int bad = both(S, ki, cname, "the last dim", &l, span, 1u << (l.rank - 1));
    if (l.rank > 1) bad += both(S, ki, cname, "the first dim", &l, span, 1u);
    bad += both(S, ki, cname, "every dim", &l, span, (1u << l.rank) - 1);
    bad += both(S, ki, cname, "no dim", &l, span, 0);
    const size_t c = (size_t)(lc - CASES);
    if (c < N_ROWS) {
        const rows_case *rc = &ROWS[c];
        const size_t dims[2] = {rc->rows, rc->cols};
        char what[200];
        crk_layout_contiguous(&l, 2, dims);
        l.start_offset = c % 3; /* sliced: a misaligned start */
        snprintf(what, sizeof what, "rows %s%s", rc->name, S->shape ? ", Candle's shape" : "");
        bad += both(S, ki, what, "the columns", &l, rc->rows * rc->cols, 2u);
        if (rc->rows > 1) bad += both(S, ki, what, "the rows", &l, rc->rows * rc->cols, 1u);
    }
    return bad;
}

size_t sum_elements(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    const size_t c = (size_t)(lc - CASES), n = case_numel(lc);
    const size_t rc = c < N_ROWS ? ROWS[c].rows * ROWS[c].cols : 0;
    return rc > n ? rc : n;
}

/* Every layout case but the in-place ones (the sum writes a new tensor). */
int sum_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return !lc->inplace;
}
