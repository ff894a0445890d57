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
    k->dt[0] = k->dt[1] = -1;
    return k;
}

/* Name with dtype suffixes; fp8 spelled `f8` (Candle's "f8e4m3" or an
 * upstream spelling). */
static void make_name(char *buf, size_t n, const char *root, int8_t a, int8_t b, const char *f8) {
    const char *sa = a == CRK_F8E4M3 ? f8 : GEN_DTYPES[a].name;
    if (b < 0) snprintf(buf, n, "%s_%s", root, sa);
    else snprintf(buf, n, "%s_%s_%s", root, sa, b == CRK_F8E4M3 ? f8 : GEN_DTYPES[b].name);
}

/* Adds the kernel under Candle's spelling and, when fp8 is involved, under
 * upstream's spelling too (both point at the same template instance). */
static void add(klist *l, gen_family_id fam, const char *root, int8_t a, int8_t b,
                const gen_param *sig, const gen_unary_op *op, int upstream) {
    const int has_f8 = a == CRK_F8E4M3 || b == CRK_F8E4M3;
    gen_kernel *k = push(l);
    k->fam = fam, k->dt[0] = a, k->dt[1] = b, k->sig = sig, k->op = op;
    k->upstream = upstream && !has_f8;
    make_name(k->name, sizeof k->name, root, a, b, "f8e4m3");
    if (!has_f8) return;
    const size_t first = l->n - 1;
    gen_kernel *u = push(l);
    *u = l->k[first];
    u->upstream = upstream;
    make_name(u->name, sizeof u->name, root, a, b, gen_fp8_upstream_suffix(fam, op ? op->op : ""));
    u->alias = (int)first;
    l->k[first].alias = (int)(l->n - 1);
}

size_t gen_expand(gen_kernel **out) {
    klist l = {0};
    char root[32];
    for (size_t i = 0; i < GEN_N_UNARY_OPS; i++) {
        const gen_unary_op *op = &GEN_UNARY_OPS[i];
        snprintf(root, sizeof root, "%s%s", GEN_FAMILIES[FAM_UNARY].root, op->op);
        for (int dt = 0; dt < CRK_DTYPE_COUNT; dt++) {
            if (op->math && dt < CRK_BF16) continue; /* math ops: float dtypes */
            add(&l, FAM_UNARY, root, (int8_t)dt, -1, op->has_param ? GEN_SIG_UNARY1 : GEN_SIG_UNARY,
                op, gen_upstream_unary(op, dt));
        }
    }
    for (int s = 0; s < CRK_DTYPE_COUNT; s++)
        for (int d = 0; d < CRK_DTYPE_COUNT; d++)
            add(&l, FAM_CAST, GEN_FAMILIES[FAM_CAST].root, (int8_t)s, (int8_t)d, GEN_SIG_CAST, NULL, gen_upstream_cast(s, d));
    const crk_dtype conds[] = {CRK_U8, CRK_U32, CRK_I16, CRK_I32, CRK_I64};
    for (size_t c = 0; c < sizeof conds / sizeof conds[0]; c++)
        for (int dt = 0; dt < CRK_DTYPE_COUNT; dt++)
            add(&l, FAM_TERNARY, GEN_FAMILIES[FAM_TERNARY].root, (int8_t)conds[c], (int8_t)dt, GEN_SIG_WHERE, NULL,
                gen_upstream_where(conds[c], dt));
    for (int dt = 0; dt < CRK_DTYPE_COUNT; dt++)
        add(&l, FAM_AFFINE, GEN_FAMILIES[FAM_AFFINE].root, (int8_t)dt, -1, GEN_SIG_AFFINE, NULL, 1);
    *out = l.k;
    return l.n;
}

/* The dtype a parameter's role refers to. */
int gen_param_dtype(const gen_kernel *k, const gen_param *p) {
    switch (p->role) {
    case R_CPTR_A: case R_PTR_A: case R_SCALAR_A: return k->dt[0];
    case R_CPTR_B: case R_PTR_B: return k->dt[1];
    default: return -1;
    }
}

const char *gen_param_ctype(const gen_kernel *k, const gen_param *p, char *buf, size_t n) {
    const int dt = gen_param_dtype(k, p);
    const char *t = dt >= 0 ? GEN_DTYPES[dt].c_type : "size_t";
    switch (p->role) {
    case R_NUMEL: case R_NUM_DIMS: snprintf(buf, n, "const size_t"); break;
    case R_INFO: snprintf(buf, n, "const size_t *"); break;
    case R_CPTR_A: case R_CPTR_B: snprintf(buf, n, "const %s *", t); break;
    case R_PTR_A: case R_PTR_B: snprintf(buf, n, "%s *", t); break;
    case R_SCALAR_A: snprintf(buf, n, "const %s", t); break;
    }
    return buf;
}

int gen_param_kind(const gen_param *p) {
    switch (p->role) {
    case R_NUMEL: case R_NUM_DIMS: return CRK_ARG_SIZE;
    case R_SCALAR_A: return CRK_ARG_SCALAR;
    default: return CRK_ARG_PTR;
    }
}

int gen_param_size(const gen_kernel *k, const gen_param *p) {
    return p->role == R_SCALAR_A ? GEN_DTYPES[k->dt[0]].size : 8;
}

size_t gen_sig_len(const gen_param *sig) {
    size_t n = 0;
    while (sig[n].name) n++;
    return n;
}

/* The role libcrk's launchers read, and its index among the kernel's
 * inputs or scalars (counted in parameter order). */
int gen_param_role(const gen_kernel *k, const gen_param *p, int *index) {
    int in = 0, sc = 0;
    for (const gen_param *q = k->sig; q != p; q++) {
        in += q->role == R_CPTR_A || q->role == R_CPTR_B;
        sc += q->role == R_SCALAR_A;
    }
    switch (p->role) {
    case R_NUMEL: *index = 0; return CRK_ROLE_NUMEL;
    case R_NUM_DIMS: *index = 0; return CRK_ROLE_NUM_DIMS;
    case R_INFO: *index = 0; return CRK_ROLE_INFO;
    case R_CPTR_A: case R_CPTR_B: *index = in; return CRK_ROLE_INPUT;
    case R_PTR_A: case R_PTR_B: *index = 0; return CRK_ROLE_OUTPUT;
    case R_SCALAR_A: *index = sc; return CRK_ROLE_SCALAR;
    }
    *index = 0;
    return -1;
}
