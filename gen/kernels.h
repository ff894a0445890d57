/* kernels.h — the op table expanded into the flat list of kernels that
 * every emitter walks (sources, registry, manifest, test list). */
#ifndef GEN_KERNELS_H
#define GEN_KERNELS_H
#include "optable.h"

typedef struct {
    char name[64];
    gen_family_id fam;
    int8_t dt[2];            /* unary/affine: {T,-1}; cast: {S,D}; where: {C,T} */
    const gen_param *sig;
    const gen_unary_op *op;  /* unary only */
    int upstream;            /* this exact name exists in Candle's CUDA kernels */
    int alias;               /* index of the other fp8 spelling, or -1 */
} gen_kernel;

/* Expands the op table; returns the count, *out is malloc'ed. */
size_t gen_expand(gen_kernel **out);
/* C type text of parameter p of kernel k ("const float *"), and its size. */
const char *gen_param_ctype(const gen_kernel *k, const gen_param *p, char *buf, size_t n);
int gen_param_size(const gen_kernel *k, const gen_param *p);
int gen_param_dtype(const gen_kernel *k, const gen_param *p);
int gen_param_kind(const gen_param *p); /* crk_arg_kind */
int gen_param_role(const gen_kernel *k, const gen_param *p, int *index); /* crk_param_role */
size_t gen_sig_len(const gen_param *sig);
#endif
