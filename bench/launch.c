/* launch.c — the two ways the benchmark launches our kernels: libcrk's
 * helpers (crk shape), and Candle's own launch (for_num_elems: 1024 threads
 * x ceil(n/1024) blocks, info buffer uploaded once) with arguments
 * assembled from the registry's parameter roles, launched as a Candle
 * backend launches them and as the bench launches Candle's cubin kernels
 * (same arguments, bench.c): the driver's launch of a function resolved
 * once, no libcrk call between (crk_launch's name lookup and checks cost
 * about 0.2 us a launch, 5% of the launch-bound rows). */
#include "bench.h"
#include "context.h"
#include <stdio.h>
#include <string.h>

void candle_grid(size_t work, unsigned grid[3], unsigned block[3]) {
    grid[0] = (unsigned)((work + 1023) / 1024), grid[1] = grid[2] = 1;
    block[0] = 1024, block[1] = block[2] = 1;
}

void prep_grid(const bench_prep *P, unsigned grid[3], unsigned block[3]) {
    if (!P->grid[0]) return candle_grid(P->work, grid, block);
    memcpy(grid, P->grid, sizeof P->grid), memcpy(block, P->block, sizeof P->block);
}

/* A scalar as the kernel parameter's bytes (only the dtypes the ops use;
 * dtype < 0: a size_t, the indexing kernels' sizes). */
static int scalar_bytes(int dt, double v, unsigned char out[8]) {
    if (dt < 0) { const size_t z = (size_t)v; memcpy(out, &z, sizeof z); }
    else if (dt == CRK_F32) { const float f = (float)v; memcpy(out, &f, 4); }
    else if (dt == CRK_F64) memcpy(out, &v, 8);
    else if (dt == CRK_U32) { const uint32_t u = (uint32_t)v; memcpy(out, &u, 4); }
    else if (dt == CRK_I32) { const int32_t i = (int32_t)v; memcpy(out, &i, 4); } /* argsort's ncols */
    else if (dt == CRK_I64) { const int64_t i = (int64_t)v; memcpy(out, &i, 8); } /* get_rows' ne00 */
    else if (dt == CRK_U8) out[0] = (unsigned char)(v != 0); /* a bool (upsample_bilinear2d's flags) */
    else return -1;
    return 0;
}

/* Fills c's arguments from the roles; -1 (printed) if a role is out of range. */
int prep_assemble(const crk_kernel_info *ki, raw_call *c, const double *sc, int nsc) {
    if (ki->nparams > 16) return printf("ERROR: %s: %u parameters\n", ki->name, ki->nparams), -1;
    for (unsigned i = 0; i < ki->nparams; i++) {
        const crk_param *p = &ki->params[i];
        c->sizes[i] = p->size;
        switch ((crk_param_role)p->role) {
        case CRK_ROLE_NUMEL: c->args[i] = &c->numel; break;
        case CRK_ROLE_NUM_DIMS: c->args[i] = &c->num_dims; break;
        case CRK_ROLE_INFO: c->args[i] = &c->info; break;
        case CRK_ROLE_INPUT:
            if (p->index >= 3) return printf("ERROR: %s: input %u\n", ki->name, p->index), -1;
            c->args[i] = (void *)&c->in[p->index];
            break;
        case CRK_ROLE_OUTPUT: c->args[i] = &c->out; break;
        case CRK_ROLE_SCALAR:
            if (p->index >= nsc || p->index >= 8 || scalar_bytes(p->dtype, sc[p->index], c->scalar[p->index]))
                return printf("ERROR: %s: scalar '%s' unsupported here\n", ki->name, p->name), -1;
            c->args[i] = c->scalar[p->index];
            break;
        default: return printf("ERROR: %s: parameter %u has an unknown role\n", ki->name, i), -1;
        }
    }
    return 0;
}

int prep_make(const bench_state *S, const op_def *op, int lay, bench_prep *P) {
    memset(P, 0, sizeof *P);
    P->op = op, P->lay = lay;
    if (!(P->ki = crk_kernel_find(op->kernel))) return printf("ERROR: %s: %s\n", op->kernel, crk_last_error()), -1;
    op_layouts(S, op, lay, P->in_l, &P->out_l);
    P->work = S->n;
    /* Candle's info: NULL iff every layout is contiguous, where's always */
    const crk_layout *ls[3] = {&P->in_l[0], &P->in_l[1], &P->in_l[2]};
    size_t nl = 0, info[4 * CRK_MAX_DIMS], len = 0;
    for (int k = 0; k < 3; k++) nl += op->pool[k] >= 0;
    if (op->family == F_CONST_SET) ls[0] = &P->out_l, nl = 1;
    if (P->ki->info_param >= 0) len = crk_info_pack(ls, nl, op->family != F_WHERE, info, 4 * CRK_MAX_DIMS);
    if (len) {
        if (crk_malloc(S->ctx, &P->info_dev, len * sizeof(size_t)) != CRK_OK ||
            crk_memcpy_htod(S->ctx, P->info_dev, info, len * sizeof(size_t)) != CRK_OK)
            return printf("ERROR: info buffer: %s\n", crk_last_error()), -1;
    }
    double sc[4] = {0};
    const int nsc = op_scalars(S, op, sc);
    for (int s = 0; s < S->sets; s++) {
        raw_call *c = &P->call[s];
        c->numel = S->n, c->num_dims = 2, c->info = P->info_dev, c->out = S->out[s];
        for (int k = 0; k < 3; k++) c->in[k] = op->pool[k] >= 0 ? S->dev[op->pool[k]][s] : NULL;
        if (prep_assemble(P->ki, c, sc, nsc)) return -1;
    }
    return 0;
}

void prep_free(const bench_state *S, bench_prep *P) {
    if (P->info_dev) crk_free(S->ctx, P->info_dev), P->info_dev = NULL;
}

crk_status launch_crk(const bench_state *S, const bench_prep *P, int set) {
    const raw_call *c = &P->call[set];
    const crk_layout *l = P->in_l;
    const char *k = P->op->kernel;
    switch (P->op->family) {
    case F_UNARY: return crk_unary(S->ctx, NULL, k, &l[0], c->in[0], c->out, 0.0);
    case F_AFFINE: return crk_affine(S->ctx, NULL, k, &l[0], c->in[0], c->out, AFFINE_MUL, AFFINE_ADD);
    case F_CAST: return crk_cast(S->ctx, NULL, k, &l[0], c->in[0], c->out);
    case F_WHERE: return crk_where(S->ctx, NULL, k, &l[0], c->in[0], &l[1], c->in[1], &l[2], c->in[2], c->out);
    case F_BINARY:
        if (P->ki->family_id == CRK_FAMILY_CMP) return crk_cmp(S->ctx, NULL, k, &l[0], c->in[0], &l[1], c->in[1], c->out);
        return crk_binary(S->ctx, NULL, k, &l[0], c->in[0], &l[1], c->in[1], c->out);
    case F_CONST_SET: return crk_const_set(S->ctx, NULL, k, &P->out_l, c->out, c->scalar[0]);
    /* indexing: input 0 = ids, 1 = src; out_l: ia/sa's dst */
    case F_INDEX_SELECT: return crk_index_select(S->ctx, NULL, k, &l[1], c->in[1], &l[0], c->in[0], P->ic->dim, c->out);
    case F_GATHER: return crk_gather(S->ctx, NULL, k, &l[1], c->in[1], &l[0], c->in[0], P->ic->dim, c->out);
    case F_INDEX_ADD:
        return crk_index_add(S->ctx, NULL, k, &P->out_l, c->out, &l[0], c->in[0], &l[1], c->in[1], P->ic->dim);
    case F_SCATTER_ADD:
        return crk_scatter(S->ctx, NULL, k, &P->out_l, c->out, &l[0], c->in[0], &l[1], c->in[1], P->ic->dim);
    case F_ARGSORT: /* left = rows, dim_size = cols; the preallocated workspace */
        return crk_argsort(S->ctx, NULL, k, c->in[0], c->out, P->ic->left, P->ic->dim_size, S->as_ws, S->as_ws_bytes);
    case F_SOFTMAX:
    case F_NORM:
    case F_FAST:
    case F_ROPE: return reduce_launch_crk(S, P, set);
    case F_IM2COL:
    case F_POOL:
    case F_UPSAMPLE:
    case F_CONVD: return conv_launch_crk(S, P, set);
    case F_DEQUANT:
    case F_GET_ROWS:
    case F_MMVQ: return quant_launch_crk(S, P, set);
    default: return crk_copy2d(S->ctx, NULL, k, c->in[0], c->out, S->rows, S->cols, S->cols, S->pitch, 0, 0);
    }
}

crk_status launch_candle_shape(const bench_state *S, const bench_prep *P, int set) {
    unsigned grid[3], block[3];
    prep_grid(P, grid, block);
    raw_call *c = (raw_call *)&P->call[set]; /* the launch takes void **: it only reads */
    if (!P->our_fn) { /* the first launch: crk_launch's checks, then the function */
        crk_status st = crk_check_launch(P->ki, grid, block, c->args, c->sizes, P->ki->nparams);
        if (st != CRK_OK) return st;
        if (!(((bench_prep *)P)->our_fn = crk_function(S->ctx, P->ki, &st))) return st;
    }
    const int e = S->ctx->gpu.launch(&S->ctx->gpu, P->our_fn, grid, block, P->shared, NULL, c->args);
    return e ? crk_gpu_error(S->ctx, e, P->ki->name) : CRK_OK;
}
