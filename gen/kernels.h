/* kernels.h — the op table expanded into the flat list of kernels that
 * every emitter walks (sources, registry, manifest, test list). */
#ifndef GEN_KERNELS_H
#define GEN_KERNELS_H
#include "optable.h"

typedef struct {
    char name[64];
    gen_family_id fam;
    int8_t dt[3];            /* the family's dtype axes, -1 past naxes */
    const gen_param *sig;
    const gen_op *op;
    int upstream;            /* this exact name exists in Candle's CUDA kernels */
    int alias;               /* index of the other fp8 spelling, or -1 */
} gen_kernel;

/* Expands the op table; returns the count, *out is malloc'ed. */
size_t gen_expand(gen_kernel **out);
/* C type of parameter p of kernel k: as in Candle's source ("const float *")
 * or with the kernels' own storage types (dev != 0: "const crk::bf16 *"). */
const char *gen_param_ctype(const gen_kernel *k, const gen_param *p, int dev, char *buf, size_t n);
int gen_param_size(const gen_kernel *k, const gen_param *p);
int gen_param_dtype(const gen_kernel *k, const gen_param *p);
int gen_param_kind(const gen_param *p); /* crk_arg_kind */
int gen_param_index(const gen_kernel *k, const gen_param *p); /* among the inputs / scalars */
size_t gen_sig_len(const gen_param *sig);
#endif
