/* fam_where.c — where_<cond>_<dt>: three layouts, a bit-exact select. */
#include "suite.h"
#include <stdio.h>
#include <string.h>

/* where: cond, t and f each get their own layout kind over the same dims. */
int run_where(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
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
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (numel + GUARD) * sz);
    if (upload(S, S->dev[0], cond, (lcnd.start_offset + sc) * csz) || upload(S, S->dev[2], t, (lt.start_offset + st_) * sz) ||
        upload(S, S->dev[3], f, (lf.start_offset + sf) * sz) || upload(S, S->dev[1], got, (numel + GUARD) * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st;
    if (S->shape == SHAPE_CANDLE) {
        const crk_layout *ls[3] = {&lcnd, &lt, &lf};
        const void *in[3] = {(const char *)S->dev[0] + lcnd.start_offset * csz,
                             (const char *)S->dev[2] + lt.start_offset * sz, (const char *)S->dev[3] + lf.start_offset * sz};
        const raw_launch r = {ls, 3, 1, 0, in, S->dev[1], NULL, NULL, 0, {0, 0, 0}, 0};
        st = launch_raw(S, ki, &r, 1024);
    } else {
        st = crk_where(S->ctx, NULL, ki->name, &lcnd, S->dev[0], &lt, S->dev[2], &lf, S->dev[3], S->dev[1]);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], (numel + GUARD) * sz)) return 1;
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

