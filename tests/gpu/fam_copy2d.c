/* fam_copy2d.c — copy2d_<dt>: the case's dims become d1 rows (all leading
 * dims) of d2 elements (the last dim); the layout kind picks padded row
 * strides (transposed kind), a repeated source row (broadcast: src_s = 0),
 * or tight rows; the case's start offset offsets both ends. Every byte of
 * the destination buffer is checked: between rows, before and after. */
#include "suite.h"
#include <stdio.h>
#include <string.h>

int run_copy2d(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const size_t sz = crk_dtype_size(dt);
    char cn[128];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    size_t d2 = lc->rank ? lc->dims[lc->rank - 1] : 1, d1 = 1;
    for (size_t d = 0; d + 1 < lc->rank; d++) d1 *= lc->dims[d];
    if (lc->rank == 1 && d2 > 64) d1 = 7, d2 = d2 / 7; /* 1-D sizes: several rows */
    const size_t src_s = lc->kind == K_BCAST ? 0 : d2 + (lc->kind == K_TRANSPOSE ? 3 : 0);
    const size_t dst_s = d2 + (lc->kind == K_TRANSPOSE || lc->kind == K_SIZE1 ? 5 : 0);
    const size_t src_o = lc->offset, dst_o = lc->offset ? lc->offset + 2 : 0;
    const size_t nsrc = src_o + (d1 ? (d1 - 1) * src_s + d2 : 0), total = dst_o + (d1 ? (d1 - 1) * dst_s + d2 : 0) + GUARD;
    unsigned char *src = S->host[0], *got = S->host[1], *want = S->host[2];
    fill_inputs(ki, dt, 0, src, nsrc, &S->rng);
    const unsigned char poison = poison_byte(S);
    memset(want, poison, total * sz);
    for (size_t r = 0; r < d1; r++) memcpy(want + (dst_o + r * dst_s) * sz, src + (src_o + r * src_s) * sz, d2 * sz);
    memset(got, poison, total * sz);
    if (upload(S, S->dev[0], src, nsrc * sz) || upload(S, S->dev[1], got, total * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st;
    if (S->shape == SHAPE_CANDLE) { /* pointers pre-offset, for_num_elems(d1*d2) */
        const void *in[1] = {(const char *)S->dev[0] + src_o * sz};
        const double sc[4] = {(double)d1, (double)d2, (double)src_s, (double)dst_s};
        const raw_launch r = {NULL, 0, 0, d1 * d2, in, (char *)S->dev[1] + dst_o * sz, sc, NULL, 0, {0, 0, 0}, 0};
        st = launch_raw(S, ki, &r, 1024);
    } else {
        st = crk_copy2d(S->ctx, NULL, ki->name, S->dev[0], S->dev[1], d1, d2, src_s, dst_s, src_o, dst_o);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], total * sz)) return 1;
    for (size_t i = 0; i < total; i++)
        if (memcmp(got + i * sz, want + i * sz, sz)) { /* bit copy: NaN payloads too */
            printf("FAIL %s [%s] d1=%zu d2=%zu src_s=%zu dst_s=%zu: destination element %zu is wrong\n", ki->name,
                   cname, d1, d2, src_s, dst_s, i);
            return 1;
        }
    return 0;
}

/* In-place cases belong to unary and affine. */
int copy2d_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return !lc->inplace;
}
