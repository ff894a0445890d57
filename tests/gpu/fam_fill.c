/* fam_fill.c — const_set_<dt> (writes a value through a strided view in
 * place: every byte the view does not reach must keep its poison) and
 * fill_<dt> (a contiguous range; the case gives its size and start). */
#include "suite.h"
#include <stdio.h>
#include <string.h>

/* A random non-poison value of the dtype. */
static void pick_value(suite_t *S, const crk_kernel_info *ki, crk_dtype dt, unsigned char poison, void *v) {
    const size_t sz = crk_dtype_size(dt);
    do fill_inputs(ki, dt, 0, v, 1, &S->rng);
    while (sz == 1 && *(unsigned char *)v == poison);
}

/* Index of the first element where got and want differ, or total. */
static size_t first_diff(const unsigned char *got, const unsigned char *want, size_t total, size_t sz) {
    size_t i = 0;
    while (i < total && !memcmp(got + i * sz, want + i * sz, sz)) i++;
    return i;
}

int run_const_set(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const size_t sz = crk_dtype_size(dt);
    char cn[128];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout l;
    const size_t span = case_layout(lc, lc->kind, &l), numel = crk_layout_numel(&l);
    const size_t total = l.start_offset + span + GUARD; /* elements of the buffer checked */
    unsigned char *got = S->host[1], *want = S->host[2], value[8];
    const unsigned char poison = poison_byte(S);
    pick_value(S, ki, dt, poison, value);
    memset(want, poison, total * sz);
    for (size_t i = 0; i < numel; i++) memcpy(want + offset_of(&l, i) * sz, value, sz);
    memset(got, poison, total * sz);
    if (upload(S, S->dev[1], got, total * sz)) return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st;
    if (S->shape == SHAPE_CANDLE) { /* out = slice_ptr(self, start_offset) */
        const crk_layout *ls[1] = {&l};
        const raw_launch r = {ls, 1, 0, 0, NULL, (char *)S->dev[1] + l.start_offset * sz, NULL, value, 0, {0, 0, 0}, 0};
        st = launch_raw(S, ki, &r, 1024);
    } else {
        st = crk_const_set(S->ctx, NULL, ki->name, &l, S->dev[1], value);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], total * sz)) return 1;
    const size_t i = first_diff(got, want, total, sz);
    if (i == total) return 0;
    printf("FAIL %s [%s] element %zu of the buffer: %s\n", ki->name, cname, i,
           memcmp(want + i * sz, value, sz) ? "written, but the view does not reach it" : "not written");
    return 1;
}

int run_fill(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const size_t sz = crk_dtype_size(dt);
    char cn[128];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout l;
    case_layout(lc, K_CONTIG, &l);
    const size_t numel = crk_layout_numel(&l), start = l.start_offset, total = start + numel + GUARD;
    unsigned char *got = S->host[1], *want = S->host[2], value[8];
    const unsigned char poison = poison_byte(S);
    pick_value(S, ki, dt, poison, value);
    memset(want, poison, total * sz);
    for (size_t i = 0; i < numel; i++) memcpy(want + (start + i) * sz, value, sz);
    memset(got, poison, total * sz);
    if (upload(S, S->dev[1], got, total * sz)) return gpu_ok(CRK_E_GPU, ki, cname), 1;
    void *buf = (char *)S->dev[1] + start * sz;
    crk_status st;
    if (S->shape == SHAPE_CANDLE) {
        const double sc[1] = {0};
        const raw_launch r = {NULL, 0, 0, numel, NULL, buf, sc, value, 0, {0, 0, 0}, 0};
        st = launch_raw(S, ki, &r, 1024);
    } else {
        st = crk_fill(S->ctx, NULL, ki->name, buf, numel, value);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], total * sz)) return 1;
    const size_t i = first_diff(got, want, total, sz);
    if (i == total) return 0;
    printf("FAIL %s [%s] element %zu: %s\n", ki->name, cname, i,
           i < start ? "written before the start" : i >= start + numel ? "written past the end" : "not filled");
    return 1;
}

/* In-place cases belong to unary and affine; fill takes each size once. */
int fill_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return !lc->inplace && (ki->family_id != CRK_FAMILY_FILL || lc->kind == K_CONTIG);
}
