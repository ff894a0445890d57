/* optable.h — the op table: the one source of truth for every kernel.
 * Dtypes, Candle's modules, and one row per family: its module, the device
 * function its kernels call, its dtype axes, ops and typed parameter list.
 * The generator writes every kernel's `extern "C"` signature from the row;
 * a header under kernels/ supplies only the body. */
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

/* A parameter's type: one of the family's dtype axes, or a fixed C type. */
typedef enum {
    PT_AXIS0, PT_AXIS1, PT_AXIS2,
    PT_SIZE, PT_INT, PT_U32, PT_U8, PT_FLOAT, PT_DOUBLE, PT_BOOL, PT_VOID, PT_I64, PT_F16, PT_BF16, PT_UINT,
    PT_COUNT
} gen_ptype;
/* How it is passed: by value (const or not), or as a pointer. */
typedef enum { PM_VALUE, PM_CONST_VALUE, PM_CONST_PTR, PM_PTR } gen_pmode;

typedef struct {
    const char *name;  /* as in Candle's source                          */
    uint8_t role;      /* crk_param_role                                 */
    uint8_t type;      /* gen_ptype                                      */
    uint8_t mode;      /* gen_pmode                                      */
} gen_param;

/* The families are libcrk's crk_family (include/crk.h), in the same order. */
typedef crk_family gen_family_id;
#define FAM_COUNT CRK_FAMILY_COUNT

/* Candle's modules, in kernels::Id order; the value is the module id. One
 * code object per module and arch, holding every family that points at it. */
typedef enum {
    MOD_AFFINE, MOD_BINARY, MOD_CAST, MOD_CONV, MOD_FILL, MOD_INDEXING,
    MOD_QUANTIZED, MOD_REDUCE, MOD_SORT, MOD_TERNARY, MOD_UNARY, MOD_COUNT
} gen_module_id;

/* One op of a family: the name part and the functor the body applies. */
typedef struct gen_op {
    const char *op;          /* "exp" -> uexp_<dt>; "" for op-less families */
    const char *functor;     /* template argument of the body, or NULL      */
    const gen_param *sig;    /* NULL: the family's parameter list           */
    uint8_t float_only;      /* kernels for float dtypes only               */
    const char *fp8;         /* upstream's fp8 suffix, NULL: the family's   */
    uint8_t resident;        /* NVIDIA blocks an SM, 0: the family's        */
} gen_op;

#define DT_ALL ((1u << CRK_DTYPE_COUNT) - 1)
#define DT_BIT(d) (1u << (d))

typedef struct {
    const char *name;        /* family, as in the parity TSV                */
    gen_module_id module;    /* Candle module (one code object per arch)    */
    const char *header;      /* under kernels/                              */
    const char *body;        /* device function each kernel calls; NULL:    */
                             /* each op's functor is one of its own       */
    const char *prefix;      /* name = prefix + op + "_" + axis dtypes      */
    uint8_t info_arrays;     /* dims + stride sets in the info buffer       */
    uint8_t naxes;           /* dtype axes, each named in the kernel name   */
    uint16_t axes[3];        /* dtypes allowed on each axis (DT_BIT mask)   */
    const gen_param *sig;
    const gen_op *ops;
    size_t nops;
    const char *fp8;         /* upstream's fp8 suffix: "f8_e4m3"/"fp8_e4m3" */
    /* 1 if this dtype combination exists upstream (Candle 0.11 CUDA). */
    int (*upstream)(const gen_op *op, const int8_t *dt);
    uint8_t geometry;        /* crk_geometry: how libcrk sizes the grid     */
    uint16_t block;          /* threads per block of libcrk's launches      */
    uint32_t shared_bytes;   /* dynamic shared memory per block             */
    uint8_t resident;        /* NVIDIA: blocks of max_threads an SM that
                                the registers are budgeted for (crk_port.h) */
    uint16_t max_threads;    /* the kernels' launch bound: threads a block  */
} gen_family;

extern const gen_dtype GEN_DTYPES[CRK_DTYPE_COUNT];
extern const gen_family GEN_FAMILIES[FAM_COUNT];
extern const char *const GEN_MODULES[MOD_COUNT]; /* names, by gen_module_id */
#define GEN_N_MODULES ((size_t)MOD_COUNT)

/* Name of a family's module; 1 if some family points at module m. */
const char *gen_family_module(gen_family_id fam);
int gen_module_used(gen_module_id m);

#endif
