/* exec.h — internals shared by the exec_*.c files (ISA half): operand
 * access on a wave, error reporting, the per-format executors. */
#ifndef CRK_EMU_EXEC_H
#define CRK_EMU_EXEC_H
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "isa.h"

/* Operand value types: they decide what an inline constant or a literal
 * means (AMD ISA "inline constants": float constants are encoded per type;
 * a 32-bit literal in a 64-bit float operand is its high half). */
typedef enum { TY_NONE, TY_B32, TY_F32, TY_F16, TY_B16, TY_F64, TY_B64, TY_PK16, TY_PKF16 } ex_ty;

#define EX_PI 3.14159265358979323846

/* Status an executor returns: EMU_STEP_* values, plus "not handled". */
#define EX_UNIMPL (-2)

typedef struct {
    emu_wave *w;
    const isa_inst *in;
    char *err;
    size_t elen;
    uint64_t next_pc;   /* pc of the following instruction                */
    uint64_t exec;      /* active lanes (wave-size masked)                */
    uint64_t lanes;     /* all lanes of the wave                          */
} ex_ctx;

/* A source for lane loops: VGPR rows, or one uniform value. */
typedef struct {
    const uint32_t *row[2];
    uint32_t uni[2];
} ex_src;

int ex_error(ex_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Scalar read of operand o (dword k of it), typed for constants. */
uint32_t ex_sread(ex_ctx *c, const isa_operand *o, int k, ex_ty t);
uint64_t ex_sread64(ex_ctx *c, const isa_operand *o, ex_ty t);
/* Scalar write; returns -1 (with c->err) for an operand that cannot be written. */
int ex_swrite(ex_ctx *c, const isa_operand *o, int k, uint32_t v);
int ex_swrite64(ex_ctx *c, const isa_operand *o, uint64_t v);
/* Lane-mask operand (vcc, sgpr pair / one sgpr on wave32). */
uint64_t ex_mask_read(ex_ctx *c, const isa_operand *o);
int ex_mask_write(ex_ctx *c, const isa_operand *o, uint64_t m);
/* Prepares a VALU source. */
int ex_src_prep(ex_ctx *c, const isa_operand *o, ex_ty t, ex_src *s);

static inline uint32_t ex_s32(const ex_src *s, int l) { return s->row[0] ? s->row[0][l] : s->uni[0]; }
static inline uint64_t ex_s64(const ex_src *s, int l)
{
    uint32_t lo = s->row[0] ? s->row[0][l] : s->uni[0];
    uint32_t hi = s->row[1] ? s->row[1][l] : s->uni[1];
    return (uint64_t)hi << 32 | lo;
}

/* Bit casts. */
static inline float ex_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t ex_u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double ex_d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t ex_ud(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* IEEE half <-> float (exact widening; RNE narrowing as the hardware). */
float ex_h2f(uint16_t h);
uint16_t ex_f2h(float f);      /* round to nearest even, NaN quieted      */
uint16_t ex_d2h(double d);     /* f64 -> f16 with one rounding            */

/* Executors by format: EMU_STEP_* or EX_UNIMPL. */
int ex_salu(ex_ctx *c);
int ex_smem(ex_ctx *c);
int ex_vmem(ex_ctx *c);   /* FLAT/GLOBAL/SCRATCH */
int ex_ds(ex_ctx *c);
int ex_valu(ex_ctx *c);   /* VOP1/2/C/3/3P, SDWA, VOPD */

#endif
