/* numeric.c — every registry kernel on the GPU present, through libcrk,
 * against the CPU references of tests/ref (written from the fact sheet).
 *
 *   numeric [--seed N] [--source embedded|dir|bundle] [--path P] [--filter GLOB]
 *           [--no-huge] [--json FILE]
 *
 * Each kernel runs on every layout case below with fresh random inputs
 * (specials included) and a poisoned output with a guard zone after it,
 * under both launch shapes of the product: libcrk's helpers (their grid),
 * and a Candle ROCm backend's (LaunchConfig::for_num_elems: 1024 threads x
 * ceil(n/1024) blocks, Candle's info convention; rows "<family>@candle"). */
#include "cases.h"
#include "results.h"
#include "values.h"
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POOL_BYTES ((size_t)96 << 20)

enum { SHAPE_CRK, SHAPE_CANDLE, SHAPES };

typedef struct {
    crk_ctx *ctx;
    void *dev[4]; /* 0: input / cond, 1: out, 2: t, 3: f */
    void *dev_info; /* the info buffer of raw launches */
    int shape;    /* SHAPE_*: how kernels are launched */
    unsigned char *host[5];
    rng_t rng;
    results_t *res;
} suite_t;

/* Result row of a kernel under a launch shape: "unary", "unary@candle". */
static const char *row_family(const crk_kernel_info *ki, int shape) {
    static char buf[32];
    snprintf(buf, sizeof buf, "%s%s", ki->family, shape == SHAPE_CANDLE ? "@candle" : "");
    return buf;
}

static const char *result_dtype(const crk_kernel_info *ki) {
    return crk_dtype_name((crk_dtype)(ki->family_id != CRK_FAMILY_TERNARY ? ki->dtypes[0] : ki->dtypes[1]));
}

/* Element i of a layout -> element offset in its buffer. */
static size_t offset_of(const crk_layout *l, size_t i) {
    size_t off = l->start_offset;
    for (size_t d = l->rank; d-- > 0;) {
        off += (i % l->dims[d]) * l->strides[d];
        i /= l->dims[d];
    }
    return off;
}

static int upload(suite_t *S, void *dev, const void *host, size_t bytes) {
    return crk_memcpy_htod(S->ctx, dev, host, bytes) != CRK_OK;
}

/* The bytes after the output must still hold the poison. */
static int guard_bad(const crk_kernel_info *ki, const char *cname, const unsigned char *g, size_t n,
                     unsigned char poison) {
    for (size_t i = 0; i < n; i++)
        if (g[i] != poison) {
            printf("FAIL %s [%s] wrote past the end: byte %zu of the guard zone\n", ki->name, cname, i);
            return 1;
        }
    return 0;
}

/* Compares out[0..numel) with expected, and the guard zone with the poison. */
static int check_output(const crk_kernel_info *ki, const char *cname, crk_dtype dt, const unsigned char *got,
                        const unsigned char *want, const double *xs, size_t numel, unsigned char poison) {
    const size_t sz = crk_dtype_size(dt);
    const tolerance_t tol = tolerance_for(ki, dt);
    int bad = 0;
    for (size_t i = 0; i < numel && bad < 3; i++) {
        if (value_ok(dt, got + i * sz, want + i * sz, xs[i], tol)) continue;
        uint64_t g = 0, w = 0;
        memcpy(&g, got + i * sz, sz), memcpy(&w, want + i * sz, sz);
        printf("FAIL %s [%s] i=%zu x=%.9g got=0x%0*" PRIx64 " (%.9g) want=0x%0*" PRIx64 " (%.9g)\n", ki->name,
               cname, i, xs[i], (int)(2 * sz), g, ref_value_f64(dt, got + i * sz), (int)(2 * sz), w,
               ref_value_f64(dt, want + i * sz));
        bad++;
    }
    return bad ? bad : guard_bad(ki, cname, got + numel * sz, GUARD * sz, poison);
}

static int gpu_ok(crk_status st, const crk_kernel_info *ki, const char *cname) {
    if (st == CRK_OK) return 1;
    printf("FAIL %s [%s] %s: %s\n", ki->name, cname, crk_status_name(st), crk_last_error());
    return 0;
}

/* A raw launch as a Candle backend makes it: args from the registry's roles,
 * the info buffer uploaded by the caller (NULL when every layout is
 * contiguous, unless always_info: Candle's where always passes one), `block`
 * threads x ceil(n/block) blocks. in[i] are the inputs (start offsets
 * applied; in[0] == NULL is Candle's in-place form). */
static crk_status launch_raw(suite_t *S, const crk_kernel_info *ki, const crk_layout *const *ls, size_t nls,
                             int always_info, const void *const *in, void *out, const double *sc, unsigned block) {
    size_t numel = crk_layout_numel(ls[0]), nd = ls[0]->rank, info[4 * CRK_MAX_DIMS];
    if (numel == 0) return CRK_OK; /* for_num_elems(0) is no launch */
    const size_t len = crk_info_pack(ls, nls, !always_info, info, 4 * CRK_MAX_DIMS);
    const void *info_dev = NULL;
    if (len) {
        crk_status st = crk_memcpy_htod(S->ctx, S->dev_info, info, len * sizeof(size_t));
        if (st != CRK_OK) return st;
        info_dev = S->dev_info;
    }
    const void *inp[4] = {0};
    for (size_t i = 0; i < nls && i < 4; i++) inp[i] = in[i];
    void *args[16];
    size_t sizes[16];
    unsigned char scb[4][8];
    for (unsigned i = 0; i < ki->nparams && i < 16; i++) {
        const crk_param *p = &ki->params[i];
        switch ((crk_param_role)p->role) {
        case CRK_ROLE_NUMEL: args[i] = &numel; break;
        case CRK_ROLE_NUM_DIMS: args[i] = &nd; break;
        case CRK_ROLE_INFO: args[i] = &info_dev; break;
        case CRK_ROLE_INPUT: args[i] = (void *)&inp[p->index & 3]; break;
        case CRK_ROLE_OUTPUT: args[i] = &out; break;
        case CRK_ROLE_SCALAR:
            ref_scalar_from_f64((crk_dtype)p->dtype, sc[p->index & 1], scb[p->index & 3]);
            args[i] = scb[p->index & 3];
            break;
        }
        sizes[i] = p->size;
    }
    const unsigned grid[3] = {(unsigned)((numel + block - 1) / block), 1, 1}, blk[3] = {block, 1, 1};
    return crk_launch(S->ctx, NULL, ki->name, grid, blk, 0, args, sizes, ki->nparams);
}

/* The case's name, with the launch shape when it is Candle's. */
static const char *case_name(const suite_t *S, const layout_case *lc, char *buf, size_t n) {
    snprintf(buf, n, "%s%s", lc->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    return buf;
}

/* unary / cast / affine */
static int run_map1(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const crk_dtype in_dt = (crk_dtype)ki->dtypes[0];
    const crk_dtype out_dt = (crk_dtype)(ki->family_id != CRK_FAMILY_CAST ? ki->dtypes[0] : ki->dtypes[1]);
    const size_t isz = crk_dtype_size(in_dt), osz = crk_dtype_size(out_dt);
    char cn[128];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout l;
    size_t span = case_layout(lc, lc->kind, &l);
    const size_t numel = crk_layout_numel(&l), in_elems = l.start_offset + span;
    unsigned char *in = S->host[0], *got = S->host[1], *want = S->host[2];
    double *xs = (double *)S->host[3];
    fill_inputs(ki, in_dt, 0, in, in_elems, &S->rng);
    const unsigned char poison = (unsigned char)(rng_next(&S->rng) | 1);
    memset(got, poison, (numel + GUARD) * osz);
    double p0 = 0, p1 = 0;
    if (!strcmp(ki->op, "elu")) p0 = (const double[]){0.5, 1.0, 1.7}[rng_next(&S->rng) % 3];
    if (!strcmp(ki->op, "powf")) p0 = (const double[]){2, 0.5, -1.5, 3.3, 1.0 / 3}[rng_next(&S->rng) % 5];
    if (ki->family_id == CRK_FAMILY_AFFINE) {
        const int ints = in_dt < CRK_BF16;
        p0 = ints ? (double)((int)(rng_next(&S->rng) % 11) - 5) : rng_unit(&S->rng) * 8 - 4;
        p1 = ints ? (double)((int)(rng_next(&S->rng) % 201) - 100) : rng_unit(&S->rng) * 20 - 10;
    }
    if (lc->inplace) memcpy(got, in, numel * isz); /* in-place: the output holds the input */
    if (upload(S, S->dev[0], in, in_elems * isz) || upload(S, S->dev[1], got, (numel + GUARD) * osz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st;
    const void *src = lc->inplace ? S->dev[1] : S->dev[0];
    if (lc->inplace == 2 || S->shape == SHAPE_CANDLE) { /* inplace 2: Candle's inp == NULL reads out */
        const double sc[2] = {p0, p1};
        const crk_layout *ls[1] = {&l};
        const void *in0 = lc->inplace == 2 ? NULL : (const char *)src + l.start_offset * isz;
        st = launch_raw(S, ki, ls, 1, 0, &in0, S->dev[1], sc, S->shape == SHAPE_CANDLE ? 1024 : 256);
    } else if (ki->family_id == CRK_FAMILY_UNARY) {
        st = crk_unary(S->ctx, NULL, ki->name, &l, src, S->dev[1], p0);
    } else if (ki->family_id == CRK_FAMILY_AFFINE) {
        st = crk_affine(S->ctx, NULL, ki->name, &l, src, S->dev[1], p0, p1);
    } else {
        st = crk_cast(S->ctx, NULL, ki->name, &l, src, S->dev[1]);
    }
    if (st == CRK_OK) st = crk_synchronize(S->ctx);
    if (!gpu_ok(st, ki, cname)) return 1;
    if (crk_memcpy_dtoh(S->ctx, got, S->dev[1], (numel + GUARD) * osz) != CRK_OK)
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    for (size_t i = 0; i < numel; i++) {
        const unsigned char *x = in + (lc->inplace ? i : offset_of(&l, i)) * isz;
        xs[i] = ref_value_f64(in_dt, x);
        if (ki->family_id == CRK_FAMILY_UNARY) ref_unary(ki->op, in_dt, x, want + i * osz, p0);
        else if (ki->family_id == CRK_FAMILY_AFFINE) ref_affine(in_dt, x, want + i * osz, p0, p1);
        else ref_cast(in_dt, out_dt, x, want + i * osz);
    }
    return check_output(ki, cname, out_dt, got, want, xs, numel, poison);
}

/* where: cond, t and f each get their own layout kind over the same dims. */
static int run_where(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const crk_dtype cdt = (crk_dtype)ki->dtypes[0], dt = (crk_dtype)ki->dtypes[1];
    const size_t csz = crk_dtype_size(cdt), sz = crk_dtype_size(dt);
    char cn[128];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout lcnd, lt, lf;
    const size_t sc = case_layout(lc, lc->kind, &lcnd), st_ = case_layout(lc, (lc->kind + 1) % CASE_KINDS, &lt),
                 sf = case_layout(lc, (lc->kind + 2) % CASE_KINDS, &lf);
    const size_t numel = crk_layout_numel(&lcnd);
    unsigned char *cond = S->host[0], *got = S->host[1], *t = S->host[3], *f = S->host[4];
    fill_inputs(ki, cdt, 1, cond, lcnd.start_offset + sc, &S->rng);
    fill_inputs(ki, dt, 0, t, lt.start_offset + st_, &S->rng);
    fill_inputs(ki, dt, 0, f, lf.start_offset + sf, &S->rng);
    const unsigned char poison = (unsigned char)(rng_next(&S->rng) | 1);
    memset(got, poison, (numel + GUARD) * sz);
    if (upload(S, S->dev[0], cond, (lcnd.start_offset + sc) * csz) || upload(S, S->dev[2], t, (lt.start_offset + st_) * sz) ||
        upload(S, S->dev[3], f, (lf.start_offset + sf) * sz) || upload(S, S->dev[1], got, (numel + GUARD) * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st;
    if (S->shape == SHAPE_CANDLE) {
        const crk_layout *ls[3] = {&lcnd, &lt, &lf};
        const void *in[3] = {(const char *)S->dev[0] + lcnd.start_offset * csz,
                             (const char *)S->dev[2] + lt.start_offset * sz, (const char *)S->dev[3] + lf.start_offset * sz};
        st = launch_raw(S, ki, ls, 3, 1, in, S->dev[1], NULL, 1024);
    } else {
        st = crk_where(S->ctx, NULL, ki->name, &lcnd, S->dev[0], &lt, S->dev[2], &lf, S->dev[3], S->dev[1]);
    }
    if (st == CRK_OK) st = crk_synchronize(S->ctx);
    if (!gpu_ok(st, ki, cname)) return 1;
    if (crk_memcpy_dtoh(S->ctx, got, S->dev[1], (numel + GUARD) * sz) != CRK_OK)
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    for (size_t i = 0; i < numel; i++) {
        const unsigned char *c = cond + offset_of(&lcnd, i) * csz;
        const unsigned char *src = ref_is_true(cdt, c) ? t + offset_of(&lt, i) * sz : f + offset_of(&lf, i) * sz;
        if (memcmp(got + i * sz, src, sz)) { /* a bit copy: NaN payloads too */
            printf("FAIL %s [%s] i=%zu: not the bits of the selected element\n", ki->name, cname, i);
            return 1;
        }
    }
    return guard_bad(ki, cname, got + numel * sz, GUARD * sz, poison);
}

int run_huge(crk_ctx *ctx, rng_t *rng, results_t *res); /* huge.c */

static int usage(void) {
    fprintf(stderr, "usage: numeric [--seed N] [--source embedded|dir|bundle] [--path P] [--filter GLOB] "
                    "[--no-huge] [--json FILE]\n");
    return 2;
}

int main(int argc, char **argv) {
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    const char *filter = NULL, *json = NULL;
    int huge = 1;
    crk_options opt = {0, CRK_SOURCE_EMBEDDED, NULL};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--path") && i + 1 < argc) opt.path = argv[++i];
        else if (!strcmp(argv[i], "--no-huge")) huge = 0;
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
    if (st != CRK_OK) {
        const int nogpu = st == CRK_E_NO_DEVICE;
        printf("%s%s\n", nogpu ? "skipped: " : "error: ", crk_last_error()); /* it starts "no GPU: " */
        for (size_t k = 0; k < crk_kernel_count(); k++) {
            const crk_kernel_info *ki = crk_kernel_at(k);
            if (filter && fnmatch(filter, ki->name, 0)) continue;
            for (int shape = 0; shape < SHAPES; shape++)
                for (size_t c = 0; c < N_CASES; c++)
                    if (case_applies(&CASES[c], ki))
                        results_add(&res, row_family(ki, shape), result_dtype(ki), nogpu ? 2 : 1);
        }
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
                if (!case_applies(&CASES[c], ki)) continue;
                const int bad = ki->family_id != CRK_FAMILY_TERNARY ? run_map1(&S, ki, &CASES[c])
                                                                     : run_where(&S, ki, &CASES[c]);
                results_add(&res, row_family(ki, S.shape), result_dtype(ki), bad ? 1 : 0);
            }
    }
    printf("-- huge tensors (%lds)\n", (long)(time(NULL) - t0));
    if (huge) run_huge(S.ctx, &S.rng, &res);
    printf("-- done (%lds)\n", (long)(time(NULL) - t0));
    for (int i = 0; i < 4; i++) crk_free(S.ctx, S.dev[i]);
    crk_free(S.ctx, S.dev_info);
    for (int i = 0; i < 5; i++) free(S.host[i]);
    crk_close(S.ctx);
    return results_print(&res, res.device, json) ? 1 : 0;
}
