/* fam_rope.c — rope_i_<dt>, rope_<dt>, rope_thd_<dt> and libcrk's
 * crk_rope{_i,,_thd}_vec_<dt>: rope case i (one per layout case index)
 * gives (b, h, t, d), the rows of cos/sin (t_cs >= t: only the first t are
 * read) or batched cos/sin (b, t, d/2), and a source sliced by i % 3
 * elements (whole 16-byte runs for the vec kernels, their contract). The
 * expected values come from the meaning of each variant (interleaved pairs,
 * rotate-half over (b,h,t,d) or (b,t,h,d)), not from the kernels' index
 * arithmetic. Candle's shape: for_num_elems(el/2) (vec kernels: a thread a
 * run of pairs); the other slot: crk_rope (which takes the vec kernel
 * where it can), and the vec kernels alone on 3 blocks of 64 (grid-stride). */
#include "suite.h"
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    size_t b, h, t, d, t_cs;
    int batched;
} rope_case;
static const rope_case ROPE[] = {
    {"1x1x1x2", 1, 1, 1, 2, 1, 0},         {"2x3x5x8", 2, 3, 5, 8, 5, 0},
    {"1x4x7x64 t_cs=10", 1, 4, 7, 64, 10, 0}, {"2x2x3x16 batched", 2, 2, 3, 16, 3, 1},
    {"3x5x33x128", 3, 5, 33, 128, 40, 0},  {"1x32x129x128", 1, 32, 129, 128, 129, 0},
    {"4x8x17x6 batched", 4, 8, 17, 6, 17, 1}, {"2x1x1x2 batched", 2, 1, 1, 2, 1, 1},
    {"0x4x4x8", 0, 4, 4, 8, 4, 0},
    /* 9, 12: aligned (i % 3 == 0) and many blocks: Candle's kernels take 16
     * bytes of pairs a thread under their shape (rope_grouped); 10, 11 not */
    {"2x8x257x128", 2, 8, 257, 128, 257, 0}, {"1x16x65x64", 1, 16, 65, 64, 65, 0},
    {"3x4x31x32 batched", 3, 4, 31, 32, 31, 1}, {"2x4x100x128 batched", 2, 4, 100, 128, 100, 1},
};
#define N_ROPE (sizeof ROPE / sizeof ROPE[0])

/* 0 interleaved (rope_i), 1 rotate-half (rope), 2 rotate-half over
 * (b, t, h, d) (rope_thd); libcrk's crk_<op>_vec as Candle's <op>. */
static int rope_variant(const crk_kernel_info *ki) {
    const char *op = ki->op + (strncmp(ki->op, "crk_", 4) ? 0 : 4);
    return !strncmp(op, "rope_i", 6) ? 0 : !strncmp(op, "rope_thd", 8) ? 2 : 1;
}
/* Pairs a thread: 1 (Candle's kernels), 16 bytes' worth (crk_*_vec). */
static size_t pairs_a_thread(const crk_kernel_info *ki) {
    return strncmp(ki->op, "crk_", 4) ? 1 : 16 / crk_dtype_size((crk_dtype)ki->dtypes[0]);
}

/* Element offsets of pair j of row (bi, hi, ti) and its cos/sin entry. */
static void pair_at(int variant, const rope_case *rc, size_t bi, size_t hi, size_t ti, size_t j, size_t *i1,
                    size_t *i2, size_t *cs) {
    const size_t row = variant == 2 ? (bi * rc->t + ti) * rc->h + hi : (bi * rc->h + hi) * rc->t + ti;
    if (variant == 0) *i1 = row * rc->d + 2 * j, *i2 = *i1 + 1; /* interleaved */
    else *i1 = row * rc->d + j, *i2 = *i1 + rc->d / 2;           /* rotate-half */
    *cs = ((rc->batched ? bi * rc->t : 0) + ti) * (rc->d / 2) + j;
}

int run_rope(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const rope_case *rc = &ROPE[lc - CASES];
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const int variant = rope_variant(ki);
    const size_t sz = crk_dtype_size(dt), per = pairs_a_thread(ki), n = rc->b * rc->h * rc->t * rc->d;
    const size_t off = (size_t)(lc - CASES) % 3 * per;
    const size_t ncs = (rc->batched ? rc->b * rc->t : rc->t_cs) * (rc->d / 2), sin_at = (ncs * sz + 15) / 16 * 16;
    char cname[160];
    snprintf(cname, sizeof cname, "rope %s%s", rc->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    unsigned char *src = S->host[0], *got = S->host[1], *want = S->host[2], *cs = S->host[3];
    fill_inputs(ki, dt, 0, src, off + n, &S->rng);
    for (size_t i = 0; i < 2 * ncs; i++) { /* cos, then sin (16-byte aligned): values in [-1, 1] */
        const double v = 2 * rng_unit(&S->rng) - 1;
        ref_cast(CRK_F64, dt, &v, cs + (i < ncs ? i * sz : sin_at + (i - ncs) * sz));
    }
    const unsigned char *x = src + off * sz, *cosv = cs, *sinv = cs + sin_at;
    for (size_t bi = 0; bi < rc->b; bi++)
        for (size_t hi = 0; hi < rc->h; hi++)
            for (size_t ti = 0; ti < rc->t; ti++)
                for (size_t j = 0; j < rc->d / 2; j++) {
                    size_t i1, i2, c;
                    pair_at(variant, rc, bi, hi, ti, j, &i1, &i2, &c);
                    ref_rope_pair(dt, x + i1 * sz, x + i2 * sz, cosv + c * sz, sinv + c * sz, want + i1 * sz,
                                  want + i2 * sz);
                }
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (n + GUARD) * sz);
    if (upload(S, S->dev[0], src, (off + n) * sz) || upload(S, S->dev[2], cs, sin_at + ncs * sz) ||
        upload(S, S->dev[1], got, (n + GUARD) * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    const void *dsrc = (const char *)S->dev[0] + off * sz, *dcos = S->dev[2],
               *dsin = (const char *)S->dev[2] + sin_at;
    crk_status st;
    if (S->shape == SHAPE_CANDLE || per > 1) {
        const double stride_b = rc->batched ? (double)(rc->h * rc->t * rc->d) : 0;
        const double sc_i[3] = {(double)(rc->b * rc->h), (double)(rc->t * rc->d), stride_b};
        const double sc_r[4] = {(double)(rc->b * rc->h), (double)(rc->t * rc->d), (double)rc->d, stride_b};
        const double sc_t[5] = {(double)rc->b, (double)rc->t, (double)rc->h, (double)rc->d, stride_b};
        const void *in[3] = {dsrc, dcos, dsin};
        raw_launch rl = {NULL, 0, 0, n / 2 / per, in, S->dev[1], variant == 0 ? sc_i : variant == 1 ? sc_r : sc_t,
                         NULL, 0, {0, 0, 0}, 0};
        if (S->shape != SHAPE_CANDLE) rl.grid_x = 3, rl.block3[0] = 64, rl.block3[1] = rl.block3[2] = 1;
        st = launch_raw(S, ki, &rl, 1024);
    } else {
        st = crk_rope(S->ctx, NULL, ki->name, dsrc, dcos, dsin, S->dev[1], rc->b, rc->h, rc->t, rc->d, rc->batched);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], (n + GUARD) * sz)) return 1;
    return check_output(ki, cname, dt, got, want, NULL, n, poison);
}

size_t rope_elements(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    const size_t i = (size_t)(lc - CASES);
    return i < N_ROPE ? ROPE[i].b * ROPE[i].h * ROPE[i].t * ROPE[i].d : 0;
}

int rope_applies(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t i = (size_t)(lc - CASES);
    if (i >= N_ROPE) return 0;
    const rope_case *rc = &ROPE[i]; /* the vec kernels' contract: a thread's pairs in one row */
    return (rope_variant(ki) == 0 ? rc->t * rc->d / 2 : rc->d / 2) % pairs_a_thread(ki) == 0;
}
