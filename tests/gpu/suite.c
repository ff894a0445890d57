/* suite.c — the numeric suite's shared steps (see suite.h). */
#include "suite.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

size_t offset_of(const crk_layout *l, size_t i) {
    size_t off = l->start_offset;
    for (size_t d = l->rank; d-- > 0;) {
        off += (i % l->dims[d]) * l->strides[d];
        i /= l->dims[d];
    }
    return off;
}

int upload(suite_t *S, void *dev, const void *host, size_t bytes) {
    return crk_memcpy_htod(S->ctx, dev, host, bytes) != CRK_OK;
}

const char *case_name(const suite_t *S, const layout_case *lc, char *buf, size_t n) {
    snprintf(buf, n, "%s%s", lc->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    return buf;
}

int gpu_ok(crk_status st, const crk_kernel_info *ki, const char *cname) {
    if (st == CRK_OK) return 1;
    printf("FAIL %s [%s] %s: %s\n", ki->name, cname, crk_status_name(st), crk_last_error());
    return 0;
}

int finish(suite_t *S, crk_status st, const crk_kernel_info *ki, const char *cname, void *host, const void *dev,
           size_t bytes) {
    if (st == CRK_OK) st = crk_synchronize(S->ctx);
    if (st == CRK_OK) st = crk_memcpy_dtoh(S->ctx, host, dev, bytes);
    return !gpu_ok(st, ki, cname);
}

unsigned char poison_byte(suite_t *S) { return (unsigned char)(rng_next(&S->rng) | 1); }

int guard_bad(const crk_kernel_info *ki, const char *cname, const unsigned char *g, size_t n, unsigned char poison) {
    for (size_t i = 0; i < n; i++)
        if (g[i] != poison) {
            printf("FAIL %s [%s] wrote past the end: byte %zu of the guard zone\n", ki->name, cname, i);
            return 1;
        }
    return 0;
}

int check_output(const crk_kernel_info *ki, const char *cname, crk_dtype dt, const unsigned char *got,
                 const unsigned char *want, const double *xs, size_t numel, unsigned char poison) {
    const size_t sz = crk_dtype_size(dt);
    const tolerance_t tol = tolerance_for(ki, dt);
    int bad = 0;
    for (size_t i = 0; i < numel && bad < 3; i++) {
        if (value_ok(dt, got + i * sz, want + i * sz, xs ? xs[i] : 0, tol)) continue;
        uint64_t g = 0, w = 0;
        memcpy(&g, got + i * sz, sz), memcpy(&w, want + i * sz, sz);
        printf("FAIL %s [%s] i=%zu x=%.9g got=0x%0*" PRIx64 " (%.9g) want=0x%0*" PRIx64 " (%.9g)\n", ki->name,
               cname, i, xs ? xs[i] : 0, (int)(2 * sz), g, ref_value_f64(dt, got + i * sz), (int)(2 * sz), w,
               ref_value_f64(dt, want + i * sz));
        bad++;
    }
    return bad ? bad : guard_bad(ki, cname, got + numel * sz, GUARD * sz, poison);
}

crk_dtype output_dtype(const crk_kernel_info *ki) {
    for (unsigned i = 0; i < ki->nparams; i++)
        if (ki->params[i].role == CRK_ROLE_OUTPUT) return (crk_dtype)ki->params[i].dtype;
    return CRK_U8;
}

static crk_status launch_raw_y(suite_t *S, const crk_kernel_info *ki, const raw_launch *r, unsigned block,
                               unsigned grid_y, const size_t *info_in, size_t info_len) {
    size_t numel = r->numel ? r->numel : r->nls ? crk_layout_numel(r->ls[0]) : r->work, nd = r->nls ? r->ls[0]->rank : 0;
    size_t info[4 * CRK_MAX_DIMS];
    const size_t work = r->work ? r->work : numel;
    if (work == 0 && !r->grid_x) return CRK_OK; /* for_num_elems(0) is no launch */
    const size_t len = info_in ? info_len
                       : r->nls ? crk_info_pack(r->ls, r->nls, !r->always_info, info, 4 * CRK_MAX_DIMS)
                                : 0;
    const void *info_dev = NULL;
    if (len) {
        crk_status st = crk_memcpy_htod(S->ctx, S->dev_info, info_in ? info_in : info, len * sizeof(size_t));
        if (st != CRK_OK) return st;
        info_dev = S->dev_info;
    }
    const void *inp[4] = {0};
    void *out = r->out, *args[16];
    size_t sizes[16];
    unsigned char scb[8][8];
    for (unsigned i = 0; i < ki->nparams && i < 16; i++) {
        const crk_param *p = &ki->params[i];
        switch ((crk_param_role)p->role) {
        case CRK_ROLE_NUMEL: args[i] = &numel; break;
        case CRK_ROLE_NUM_DIMS: args[i] = &nd; break;
        case CRK_ROLE_INFO: args[i] = &info_dev; break;
        case CRK_ROLE_INPUT:
            inp[p->index & 3] = r->in[p->index];
            args[i] = (void *)&inp[p->index & 3];
            break;
        case CRK_ROLE_OUTPUT: args[i] = &out; break;
        case CRK_ROLE_SCALAR:
            if (p->index == 0 && r->raw0) memcpy(scb[0], r->raw0, p->size);
            else if (p->dtype < 0) { /* a size_t: el_to_sum_per_block */
                const size_t v = (size_t)r->sc[p->index & 7];
                memcpy(scb[p->index & 7], &v, sizeof v);
            } else ref_scalar_from_f64((crk_dtype)p->dtype, r->sc[p->index & 7], scb[p->index & 7]);
            args[i] = scb[p->index & 7];
            break;
        }
        sizes[i] = p->size;
    }
    unsigned grid[3] = {(unsigned)((work + block - 1) / block), 1, 1}, blk[3] = {block, 1, 1};
    if (r->grid_x) grid[0] = r->grid_x, grid[1] = grid_y, memcpy(blk, r->block3, sizeof blk);
    return crk_launch(S->ctx, NULL, ki->name, grid, blk, ki->shared_bytes, args, sizes, ki->nparams);
}

crk_status launch_raw(suite_t *S, const crk_kernel_info *ki, const raw_launch *r, unsigned block) {
    return launch_raw_y(S, ki, r, block, 1, NULL, 0);
}

crk_status launch_raw_info(suite_t *S, const crk_kernel_info *ki, const raw_launch *r, unsigned block,
                           const size_t *info, size_t info_len) {
    return launch_raw_y(S, ki, r, block, 1, info, info_len);
}

crk_status launch_raw_2d(suite_t *S, const crk_kernel_info *ki, const raw_launch *r, unsigned grid_y) {
    return launch_raw_y(S, ki, r, r->block3[0], grid_y, NULL, 0);
}
