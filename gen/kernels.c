/* kernels.c — expansion of the op table into concrete kernels. */
#include "kernels.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    gen_kernel *k;
    size_t n, cap;
} klist;

static gen_kernel *push(klist *l) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->k = realloc(l->k, l->cap * sizeof *l->k);
        if (!l->k) { perror("crk-gen"); exit(1); }
    }
    gen_kernel *k = &l->k[l->n++];
    memset(k, 0, sizeof *k);
    k->alias = -1;
    k->dt[0] = k->dt[1] = k->dt[2] = -1;
    return k;
}

/* prefix + op + "_<dt>" per axis (libcrk's own "crk_" ops spell their
 * whole name); fp8 spelled `f8` (Candle's "f8e4m3" or an upstream spelling). */
static void make_name(char *buf, size_t n, const gen_family *F, const gen_op *op, const int8_t *dt,
                      const char *f8) {
    size_t len = (size_t)snprintf(buf, n, "%s%s", strncmp(op->op, "crk_", 4) ? F->prefix : "", op->op);
    for (int a = 0; a < F->naxes && len < n; a++)
        len += (size_t)snprintf(buf + len, n - len, "_%s", dt[a] == CRK_F8E4M3 ? f8 : GEN_DTYPES[dt[a]].name);
    if (len >= n) { fprintf(stderr, "crk-gen: kernel name '%s...' too long\n", buf); exit(1); }
}

/* Adds the kernel under Candle's spelling and, when fp8 is involved, under
 * upstream's spelling too (both point at the same template instance). */
static void add(klist *l, gen_family_id fam, const gen_op *op, const int8_t *dt) {
    const gen_family *F = &GEN_FAMILIES[fam];
    int has_f8 = 0;
    for (int a = 0; a < F->naxes; a++) has_f8 |= dt[a] == CRK_F8E4M3;
    const int upstream = F->upstream(op, dt);
    gen_kernel *k = push(l);
    k->fam = fam, k->op = op, k->sig = op->sig ? op->sig : F->sig;
    memcpy(k->dt, dt, sizeof k->dt);
    k->upstream = upstream && !has_f8;
    make_name(k->name, sizeof k->name, F, op, dt, "f8e4m3");
    if (!has_f8) return;
    const size_t first = l->n - 1;
    gen_kernel *u = push(l);
    *u = l->k[first];
    u->upstream = upstream;
    make_name(u->name, sizeof u->name, F, op, dt, op->fp8 ? op->fp8 : F->fp8);
    u->alias = (int)first;
    l->k[first].alias = (int)(l->n - 1);
}

/* Every dtype combination of the family's axes, first axis outermost. */
static void add_axes(klist *l, gen_family_id fam, const gen_op *op, int8_t *dt, int axis) {
    const gen_family *F = &GEN_FAMILIES[fam];
    if (axis == F->naxes) { add(l, fam, op, dt); return; }
    for (int d = 0; d < CRK_DTYPE_COUNT; d++) {
        if (!(F->axes[axis] & DT_BIT(d))) continue;
        if (axis == 0 && op->float_only && d < CRK_BF16) continue;
        dt[axis] = (int8_t)d;
        add_axes(l, fam, op, dt, axis + 1);
    }
    dt[axis] = -1;
}

size_t gen_expand(gen_kernel **out) {
    klist l = {0};
    for (int f = 0; f < FAM_COUNT; f++)
        for (size_t o = 0; o < GEN_FAMILIES[f].nops; o++) {
            int8_t dt[3] = {-1, -1, -1};
            add_axes(&l, (gen_family_id)f, &GEN_FAMILIES[f].ops[o], dt, 0);
        }
    *out = l.k;
    return l.n;
}

/* Fixed C types: as in Candle's source, and their dtype (-1: none). */
static const struct { const char *c; int8_t dtype; uint8_t size; const char *dev; } FIXED[PT_COUNT] = {
    [PT_SIZE] = {"size_t", -1, 8},     [PT_INT] = {"int", CRK_I32, 4},     [PT_U32] = {"uint32_t", CRK_U32, 4},
    [PT_U8] = {"uint8_t", CRK_U8, 1},  [PT_FLOAT] = {"float", CRK_F32, 4}, [PT_DOUBLE] = {"double", CRK_F64, 8},
    [PT_BOOL] = {"bool", CRK_U8, 1},   [PT_VOID] = {"void", -1, 0},        [PT_I64] = {"int64_t", CRK_I64, 8},
    /* module quantized's get_rows_f16/_bf16: Candle's spelling, kernels/' storage type */
    [PT_F16] = {"__half", CRK_F16, 2, "crk::f16"}, [PT_BF16] = {"__nv_bfloat16", CRK_BF16, 2, "crk::bf16"},
    [PT_UINT] = {"unsigned int", CRK_U32, 4}, /* indexed_moe_forward_*'s indices */
};

int gen_param_dtype(const gen_kernel *k, const gen_param *p) {
    return p->type <= PT_AXIS2 ? k->dt[p->type] : FIXED[p->type].dtype;
}

const char *gen_param_ctype(const gen_kernel *k, const gen_param *p, int dev, char *buf, size_t n) {
    const int dt = gen_param_dtype(k, p);
    const char *t = p->type <= PT_AXIS2 ? (dev ? GEN_DTYPES[dt].dev_type : GEN_DTYPES[dt].c_type)
                    : dev && FIXED[p->type].dev ? FIXED[p->type].dev : FIXED[p->type].c;
    switch ((gen_pmode)p->mode) {
    case PM_VALUE: snprintf(buf, n, "%s", t); break;
    case PM_CONST_VALUE: snprintf(buf, n, "const %s", t); break;
    case PM_CONST_PTR: snprintf(buf, n, "const %s *", t); break;
    case PM_PTR: snprintf(buf, n, "%s *", t); break;
    }
    return buf;
}

int gen_param_kind(const gen_param *p) {
    if (p->mode == PM_CONST_PTR || p->mode == PM_PTR) return CRK_ARG_PTR;
    return p->role == CRK_ROLE_SCALAR ? CRK_ARG_SCALAR : CRK_ARG_SIZE;
}

int gen_param_size(const gen_kernel *k, const gen_param *p) {
    if (gen_param_kind(p) == CRK_ARG_PTR) return 8;
    const int dt = gen_param_dtype(k, p);
    return p->type > PT_AXIS2 ? FIXED[p->type].size : GEN_DTYPES[dt].size;
}

size_t gen_sig_len(const gen_param *sig) {
    size_t n = 0;
    while (sig[n].name) n++;
    return n;
}

/* The index of an input or scalar among its kind, in parameter order
 * (where: ids 0, t 1, f 2; affine: mul 0, add 1); 0 for the other roles. */
int gen_param_index(const gen_kernel *k, const gen_param *p) {
    int idx = 0;
    if (p->role != CRK_ROLE_INPUT && p->role != CRK_ROLE_SCALAR) return 0;
    for (const gen_param *q = k->sig; q != p; q++) idx += q->role == p->role;
    return idx;
}
