/* values.h — random inputs and per-op tolerances for the numeric suite. */
#ifndef CRK_TEST_VALUES_H
#define CRK_TEST_VALUES_H
#include "crk.h"
#include "ref.h"

/* Elements after every output that must keep their poison (overrun check). */
#define GUARD 64

typedef struct { uint64_t s; } rng_t;
uint64_t rng_next(rng_t *r);
double rng_unit(rng_t *r); /* [0, 1) */

/* Inputs for kernel ki's operand of dtype dt: a mix of random values in the
 * op's interesting range and specials (NaN, +-inf, +-0, subnormals, ties,
 * values beyond the u8/i64/f8 ranges). cond = where-condition operand. */
void fill_inputs(const crk_kernel_info *ki, crk_dtype dt, int cond, void *buf, size_t n, rng_t *r);

typedef struct {
    int exact;       /* bit-exact (NaN matches any NaN)                         */
    double ulps;     /* else: |got - want| <= ulps ULPs ...                      */
    double abs_eps;  /* ... or <= abs_eps * eps(dtype) * (1 + |x|)               */
    int zero_sign;   /* +0 and -0 compare equal (unary max/sign-style results)   */
} tolerance_t;

tolerance_t tolerance_for(const crk_kernel_info *ki, crk_dtype out_dt);
/* 1 if got is acceptable for want (x: the input value, for the abs bound). */
int value_ok(crk_dtype dt, const void *got, const void *want, double x, tolerance_t t);
#endif
