/* optable.h — the op table: the one source of truth for every kernel.
 * Dtypes, families (module, kernel template, parameter list), the ops of
 * each family and which names exist upstream in Candle's CUDA kernels. */
#ifndef GEN_OPTABLE_H
#define GEN_OPTABLE_H
#include <stddef.h>
#include <stdint.h>
#include "crk.h"

typedef struct {
    const char *name;     /* Candle's DType::as_str(): "f8e4m3"            */
    const char *dev_type; /* storage type in kernels/: "crk::f8"           */
    const char *c_type;   /* type as in Candle's CUDA source               */
    uint8_t size;
} gen_dtype;

/* Parameter roles; A/B are the kernel's first/second dtype. */
typedef enum { R_NUMEL, R_NUM_DIMS, R_INFO, R_CPTR_A, R_PTR_A, R_CPTR_B, R_PTR_B, R_SCALAR_A } gen_role;
typedef struct { const char *name; gen_role role; } gen_param;
#define GEN_MAX_PARAMS 8

/* The families are libcrk's crk_family (include/crk.h), in the same order. */
typedef crk_family gen_family_id;
#define FAM_UNARY CRK_FAMILY_UNARY
#define FAM_CAST CRK_FAMILY_CAST
#define FAM_TERNARY CRK_FAMILY_TERNARY
#define FAM_AFFINE CRK_FAMILY_AFFINE
#define FAM_COUNT CRK_FAMILY_COUNT

/* Candle's modules, in kernels::Id order; the value is the module id. One
 * code object per module and arch, holding every family that points at it. */
typedef enum {
    MOD_AFFINE, MOD_BINARY, MOD_CAST, MOD_CONV, MOD_FILL, MOD_INDEXING,
    MOD_QUANTIZED, MOD_REDUCE, MOD_SORT, MOD_TERNARY, MOD_UNARY, MOD_COUNT
} gen_module_id;

typedef struct {
    const char *name;        /* family, as in the parity TSV               */
    gen_module_id module;    /* Candle module (one code object per arch)   */
    const char *header;      /* template under kernels/                    */
    const char *root;        /* name root: cast_<s>_<d>, where_<c>_<t>; unary: u<op> */
    uint8_t info_arrays;     /* dims + stride sets in the info buffer      */
} gen_family;

typedef struct {
    const char *op;          /* "exp" -> uexp_<dt>                          */
    const char *functor;     /* crk::Op* in kernels/unary.h                 */
    int has_param;           /* UNARY_OP1: scalar before inp               */
    int math;                /* 0: every dtype (ucopy); 1: float dtypes    */
} gen_unary_op;

extern const gen_dtype GEN_DTYPES[CRK_DTYPE_COUNT];
extern const gen_family GEN_FAMILIES[FAM_COUNT];
extern const gen_unary_op GEN_UNARY_OPS[];
extern const size_t GEN_N_UNARY_OPS;
extern const char *const GEN_MODULES[MOD_COUNT]; /* names, by gen_module_id */
#define GEN_N_MODULES ((size_t)MOD_COUNT)
extern const gen_param GEN_SIG_UNARY[], GEN_SIG_UNARY1[], GEN_SIG_CAST[], GEN_SIG_WHERE[],
    GEN_SIG_AFFINE[];

/* Name of a family's module; 1 if some family points at module m. */
const char *gen_family_module(gen_family_id fam);
int gen_module_used(gen_module_id m);

/* Upstream (Candle 0.11 CUDA) coverage, for the `upstream` flag. */
int gen_upstream_unary(const gen_unary_op *op, crk_dtype dt);
int gen_upstream_cast(crk_dtype src, crk_dtype dst);
int gen_upstream_where(crk_dtype cond, crk_dtype dt);
/* Upstream's spelling of the fp8 suffix in a family ("f8_e4m3"/"fp8_e4m3"). */
const char *gen_fp8_upstream_suffix(gen_family_id fam, const char *unary_op);

#endif
