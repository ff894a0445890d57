/* exec_valu.h — lane-loop machinery of the VALU executors: per-instruction
 * prepared sources (with SDWA selects, half selects and abs/neg folded into
 * masks) and destination writers (SDWA dst_sel, 16-bit halves, omod,
 * clamp). Everything here is inline so lane loops stay tight. */
#ifndef CRK_EMU_EXEC_VALU_H
#define CRK_EMU_EXEC_VALU_H
#include "exec.h"

enum { DM_FULL, DM_LO16_ZERO, DM_HALF, DM_SDWA };

typedef struct {
    ex_src s[3];
    uint32_t andm[3], xorm[3];  /* applied after the select/shift          */
    uint64_t and64[3], xor64[3];
    uint8_t shift[3];           /* 16-bit operand: 0 or 16                  */
    uint8_t sdwa, sel[2], sext[2];
    uint8_t ftz_in[3];          /* f32 source: flush subnormals             */
    /* destination */
    uint32_t *d0, *d1;
    uint8_t dmode, dshift, dsel, dunused;
    uint8_t ftz_out, clamp;
    float omod;                 /* 1, 2, 4 or 0.5                           */
} vctx;

static inline uint32_t sdwa_sel(uint32_t x, unsigned sel, unsigned sx)
{
    switch (sel) {
    case 0: case 1: case 2: case 3: {
        uint32_t b = (x >> (8 * sel)) & 0xFF;
        return sx ? (uint32_t)(int32_t)(int8_t)b : b;
    }
    case 4: case 5: {
        uint32_t h = (x >> (16 * (sel - 4))) & 0xFFFF;
        return sx ? (uint32_t)(int32_t)(int16_t)h : h;
    }
    default:
        return x;
    }
}

static inline uint32_t R32(const vctx *v, int i, int l)
{
    uint32_t x = ex_s32(&v->s[i], l);
    if (v->sdwa && i < 2)
        x = sdwa_sel(x, v->sel[i], v->sext[i]);
    x = ((x >> v->shift[i]) & v->andm[i]) ^ v->xorm[i];
    if (v->ftz_in[i] && (x & 0x7f800000u) == 0)
        x &= 0x80000000u;
    return x;
}
static inline float RF(const vctx *v, int i, int l) { return ex_f(R32(v, i, l)); }
static inline uint64_t R64(const vctx *v, int i, int l) { return (ex_s64(&v->s[i], l) & v->and64[i]) ^ v->xor64[i]; }
static inline double RD(const vctx *v, int i, int l) { return ex_d(R64(v, i, l)); }
static inline double RH(const vctx *v, int i, int l) { return (double)ex_h2f((uint16_t)R32(v, i, l)); }

static inline void W32(const vctx *v, int l, uint32_t x)
{
    switch (v->dmode) {
    case DM_FULL: v->d0[l] = x; return;
    case DM_LO16_ZERO: v->d0[l] = x & 0xFFFF; return;
    case DM_HALF: {
        uint32_t keep = v->dshift ? 0xFFFFu : 0xFFFF0000u;
        v->d0[l] = (v->d0[l] & keep) | (x & 0xFFFF) << v->dshift;
        return;
    }
    default: { /* SDWA dst_sel / dst_unused */
        unsigned sel = v->dsel;
        if (sel >= 6) { v->d0[l] = x; return; }
        unsigned sh = sel < 4 ? 8 * sel : 16 * (sel - 4), w = sel < 4 ? 8 : 16;
        uint32_t fm = ((1u << w) - 1) << sh, old = v->d0[l], r;
        if (v->dunused == 2)            /* UNUSED_PRESERVE */
            r = (old & ~fm) | ((x << sh) & fm);
        else if (v->dunused == 1) {     /* UNUSED_SEXT: sign-extend upward */
            r = (x << sh) & fm;
            if ((x >> (w - 1)) & 1)
                r |= ~0u << (sh + w);
        } else
            r = (x << sh) & fm;         /* UNUSED_PAD */
        v->d0[l] = r;
        return;
    }
    }
}

static inline void W64(const vctx *v, int l, uint64_t x)
{
    v->d0[l] = (uint32_t)x;
    v->d1[l] = (uint32_t)(x >> 32);
}

static inline float outf(const vctx *v, float r)
{
    if (v->omod != 1.0f)
        r *= v->omod;
    if (v->clamp)
        r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
    if (v->ftz_out && fpclassify(r) == FP_SUBNORMAL)
        r = copysignf(0.0f, r);
    return r;
}
static inline void WF(const vctx *v, int l, float r) { W32(v, l, ex_u(outf(v, r))); }
static inline void WD(const vctx *v, int l, double r)
{
    if (v->omod != 1.0f)
        r *= v->omod;
    if (v->clamp)
        r = isnan(r) ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    W64(v, l, ex_ud(r));
}
static inline void WH(const vctx *v, int l, double r)
{
    if (v->omod != 1.0f)
        r *= v->omod;
    if (v->clamp)
        r = isnan(r) ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    W32(v, l, ex_d2h(r));
}

/* Prepares sources/destination of the instruction in c into vctx v, or
 * returns from the calling executor with the error. */
#define P(a, b, d2, dt)                                    \
    do {                                                   \
        int r_ = ex_vprep(c, &v, a, b, d2, dt);            \
        if (r_)                                            \
            return r_;                                     \
    } while (0)

#define LANES                                                   \
    for (uint64_t m_ = c->exec; m_; m_ &= m_ - 1) {             \
        const int l = __builtin_ctzll(m_);
#define END }

/* exec_valu.c */
int ex_vprep(ex_ctx *c, vctx *v, ex_ty t0, ex_ty t1, ex_ty t2, ex_ty td);
float ex_mad_f32(float a, float b, float c); /* gfx90a v_mad/v_mac: unfused, no subnormals */
/* exec_vmisc.c: carries, division helpers, 64-bit, cross-lane, madmk... */
int ex_vmisc(ex_ctx *c);
/* exec_vcmp.c: v_cmp / v_cmpx / v_cmp_class (returns EX_UNIMPL if not one) */
int ex_vcmp(ex_ctx *c);
/* exec_vpk.c: VOP3P packed and mix ops */
int ex_vop3p(ex_ctx *c);
/* exec_vopd.c: gfx11 dual issue */
int ex_vopd(ex_ctx *c);

#endif
