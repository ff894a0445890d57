/* fam_binary.c — b<op>_<dt> and the comparisons: lhs and rhs each get
 * their own layout kind over the same dims (broadcast, transposed, sliced
 * on either side); integer divisors include 0 and -1, and a quarter of the
 * pairs are equal so that every comparison outcome occurs. */
#include "suite.h"
#include <stdio.h>
#include <string.h>

/* Integer rhs: sometimes 0 (x/0), all ones (-1, or the max), 1. */
static void special_divisors(suite_t *S, crk_dtype dt, unsigned char *buf, size_t n) {
    const size_t sz = crk_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        const unsigned pick = (unsigned)(rng_next(&S->rng) % 16);
        const uint64_t v = pick == 0 ? 0 : pick == 1 ? ~(uint64_t)0 : 1;
        if (pick <= 2) memcpy(buf + i * sz, &v, sz);
    }
}

int run_binary(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0], odt = output_dtype(ki);
    const size_t sz = crk_dtype_size(dt), osz = crk_dtype_size(odt);
    const int cmp = ki->family_id == CRK_FAMILY_CMP;
    char cn[128];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout ll, lr;
    const size_t sl = case_layout(lc, lc->kind, &ll), sr = case_layout(lc, (lc->kind + 1) % CASE_KINDS, &lr);
    const size_t numel = crk_layout_numel(&ll), nl = ll.start_offset + sl, nr = lr.start_offset + sr;
    unsigned char *lhs = S->host[0], *got = S->host[1], *want = S->host[2], *rhs = S->host[3];
    double *xs = (double *)S->host[4];
    fill_inputs(ki, dt, 0, lhs, nl, &S->rng);
    fill_inputs(ki, dt, 0, rhs, nr, &S->rng);
    if (!ref_dtype_is_float(dt) && !strcmp(ki->op, "div")) special_divisors(S, dt, rhs, nr);
    for (size_t i = 0; i < numel; i++) /* equal pairs */
        if (rng_next(&S->rng) % 4 == 0) memcpy(rhs + offset_of(&lr, i) * sz, lhs + offset_of(&ll, i) * sz, sz);
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (numel + GUARD) * osz);
    if (upload(S, S->dev[0], lhs, nl * sz) || upload(S, S->dev[2], rhs, nr * sz) ||
        upload(S, S->dev[1], got, (numel + GUARD) * osz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    const void *l0 = (const char *)S->dev[0] + ll.start_offset * sz, *r0 = (const char *)S->dev[2] + lr.start_offset * sz;
    crk_status st;
    if (S->shape == SHAPE_CANDLE) {
        const crk_layout *ls[2] = {&ll, &lr};
        const void *in[2] = {l0, r0};
        const raw_launch r = {ls, 2, 0, 0, in, S->dev[1], NULL, NULL, 0, {0, 0, 0}, 0};
        st = launch_raw(S, ki, &r, 1024);
    } else {
        st = (cmp ? crk_cmp : crk_binary)(S->ctx, NULL, ki->name, &ll, S->dev[0], &lr, S->dev[2], S->dev[1]);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], (numel + GUARD) * osz)) return 1;
    for (size_t i = 0; i < numel; i++) {
        const unsigned char *a = lhs + offset_of(&ll, i) * sz, *b = rhs + offset_of(&lr, i) * sz;
        xs[i] = ref_value_f64(dt, a);
        if (cmp) ref_cmp(ki->op, dt, a, b, want + i);
        else ref_binary(ki->op, dt, a, b, want + i * sz);
    }
    return check_output(ki, cname, odt, got, want, xs, numel, poison);
}

/* In-place cases belong to unary and affine. */
int binary_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return !lc->inplace;
}
