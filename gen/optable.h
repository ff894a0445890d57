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
typedef enum { R_SIZE, R_INFO, R_CPTR_A, R_PTR_A, R_CPTR_B, R_PTR_B, R_SCALAR_A } gen_role;
typedef struct { const char *name; gen_role role; } gen_param;
#define GEN_MAX_PARAMS 8

typedef enum { FAM_UNARY, FAM_CAST, FAM_TERNARY, FAM_AFFINE, FAM_COUNT } gen_family_id;

typedef struct {
    const char *name;        /* family, as in the parity TSV               */
    const char *module;      /* Candle module (one code object per arch)   */
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
extern const char *const GEN_MODULES[];   /* Candle's module Id order      */
extern const size_t GEN_N_MODULES;
extern const gen_param GEN_SIG_UNARY[], GEN_SIG_UNARY1[], GEN_SIG_CAST[], GEN_SIG_WHERE[],
    GEN_SIG_AFFINE[];

/* Upstream (Candle 0.11 CUDA) coverage, for the `upstream` flag. */
int gen_upstream_unary(const gen_unary_op *op, crk_dtype dt);
int gen_upstream_cast(crk_dtype src, crk_dtype dst);
int gen_upstream_where(crk_dtype cond, crk_dtype dt);
/* Upstream's spelling of the fp8 suffix in a family ("f8_e4m3"/"fp8_e4m3"). */
const char *gen_fp8_upstream_suffix(gen_family_id fam, const char *unary_op);

#endif
