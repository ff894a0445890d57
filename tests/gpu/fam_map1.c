/* fam_map1.c — unary, cast and affine: one input layout, a contiguous
 * output; in-place cases for unary and affine (Candle's in-place families). */
#include "suite.h"
#include <stdio.h>
#include <string.h>

/* unary / cast / affine */
int run_map1(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const crk_dtype in_dt = (crk_dtype)ki->dtypes[0];
    const crk_dtype out_dt = output_dtype(ki);
    const size_t isz = crk_dtype_size(in_dt), osz = crk_dtype_size(out_dt);
    char cn[128];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout l;
    size_t span = case_layout(lc, lc->kind, &l);
    const size_t numel = crk_layout_numel(&l), in_elems = l.start_offset + span;
    unsigned char *in = S->host[0], *got = S->host[1], *want = S->host[2];
    double *xs = (double *)S->host[3];
    fill_inputs(ki, in_dt, 0, in, in_elems, &S->rng);
    const unsigned char poison = poison_byte(S);
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
        const raw_launch r = {ls, 1, 0, 0, &in0, S->dev[1], sc, NULL, 0, {0, 0, 0}, 0};
        st = launch_raw(S, ki, &r, S->shape == SHAPE_CANDLE ? 1024 : 256);
    } else if (ki->family_id == CRK_FAMILY_UNARY) {
        st = crk_unary(S->ctx, NULL, ki->name, &l, src, S->dev[1], p0);
    } else if (ki->family_id == CRK_FAMILY_AFFINE) {
        st = crk_affine(S->ctx, NULL, ki->name, &l, src, S->dev[1], p0, p1);
    } else {
        st = crk_cast(S->ctx, NULL, ki->name, &l, src, S->dev[1]);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], (numel + GUARD) * osz)) return 1;
    for (size_t i = 0; i < numel; i++) {
        const unsigned char *x = in + (lc->inplace ? i : offset_of(&l, i)) * isz;
        xs[i] = ref_value_f64(in_dt, x);
        if (ki->family_id == CRK_FAMILY_UNARY) ref_unary(ki->op, in_dt, x, want + i * osz, p0);
        else if (ki->family_id == CRK_FAMILY_AFFINE) ref_affine(in_dt, x, want + i * osz, p0, p1);
        else ref_cast(in_dt, out_dt, x, want + i * osz);
    }
    return check_output(ki, cname, out_dt, got, want, xs, numel, poison);
}

/* Candle's in-place convention exists for unary and affine only. */
int map1_applies(const layout_case *lc, const crk_kernel_info *ki) {
    return !lc->inplace || ki->family_id == CRK_FAMILY_UNARY || ki->family_id == CRK_FAMILY_AFFINE;
}
