/* exec_valu.c — VALU entry (ex_valu), operand preparation (ex_vprep) and
 * the plain-shaped operations of VOP1/VOP2/VOP3 (SDWA included): n sources
 * in, one 16/32/64-bit result out, one case per operation with its own lane
 * loop. Compares: exec_vcmp.c; packed/mix: exec_vpk.c; VOPD: exec_vopd.c;
 * the rest: exec_vmisc.c. */
#include "exec_valu.h"
#include "exec_fp.h"

static int is16(ex_ty t) { return t == TY_F16 || t == TY_B16; }
static int is64(ex_ty t) { return t == TY_F64 || t == TY_B64; }

/* gfx9 VOP3 16-bit ops whose op_sel picks halves (the rest zero the high
 * half of the destination). */
static int gfx9_opsel_op(unsigned op)
{
    return op == ISA_OP_v_mad_u16 || op == ISA_OP_v_mad_i16 || op == ISA_OP_v_fma_f16 ||
           op == ISA_OP_v_mad_f16 || op == ISA_OP_v_div_fixup_f16;
}

int ex_vprep(ex_ctx *c, vctx *v, ex_ty t0, ex_ty t1, ex_ty t2, ex_ty td)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    ex_ty t[3] = { t0, t1, t2 };
    memset(v, 0, sizeof *v);
    unsigned d32 = (w->mode >> 4) & 3;
    int gfx11 = w->isa == EMU_GFX11;
    uint8_t half = gfx11 ? in->hi16 : (in->fmt == ISA_FMT_VOP3 ? in->op_sel : 0);
    uint8_t neg = in->enc == ISA_ENC_SDWA ? in->sdwa_neg : in->neg;
    uint8_t abs = in->enc == ISA_ENC_SDWA ? in->sdwa_abs : in->abs;
    if (in->enc == ISA_ENC_DPP || in->enc == ISA_ENC_DPP8)
        return EX_UNIMPL;
    for (int i = 0; i < 3; i++) {
        if (t[i] == TY_NONE)
            continue;
        if (ex_src_prep(c, &in->src[i], t[i], &v->s[i]))
            return EMU_STEP_ERROR;
        int ng = (neg >> i) & 1, ab = (abs >> i) & 1;
        if (is64(t[i])) {
            v->and64[i] = ab ? ~(1ull << 63) : ~0ull;
            v->xor64[i] = ng ? 1ull << 63 : 0;
        } else if (is16(t[i])) {
            v->shift[i] = (half >> i) & 1 ? 16 : 0;
            v->andm[i] = ab ? 0x7FFF : 0xFFFF;
            v->xorm[i] = ng ? 0x8000 : 0;
        } else {
            v->andm[i] = ab ? 0x7FFFFFFFu : ~0u;
            v->xorm[i] = ng ? 0x80000000u : 0;
            v->ftz_in[i] = t[i] == TY_F32 && !(d32 & 1);
        }
    }
    if (in->enc == ISA_ENC_SDWA) {
        v->sdwa = 1;
        v->sel[0] = in->sdwa_src_sel[0], v->sel[1] = in->sdwa_src_sel[1];
        v->sext[0] = in->sdwa_sext & 1, v->sext[1] = (in->sdwa_sext >> 1) & 1;
    }
    v->omod = in->omod == 0 ? 1.0f : in->omod == 1 ? 2.0f : in->omod == 2 ? 4.0f : 0.5f;
    v->clamp = in->clamp;
    if (td == TY_NONE)
        return 0;
    if ((in->clamp || in->omod) && td != TY_F32 && td != TY_F64 && td != TY_F16)
        return EX_UNIMPL; /* integer clamp (saturation) not used by our kernels */
    if (in->dst.kind != ISA_OPD_VGPR || in->dst.reg + (is64(td) ? 2u : 1u) > EMU_NVGPR)
        return ex_error(c, "bad VALU destination"), EMU_STEP_ERROR;
    v->d0 = w->vgpr[in->dst.reg];
    v->d1 = is64(td) ? w->vgpr[in->dst.reg + 1] : NULL;
    v->ftz_out = td == TY_F32 && !(d32 & 2);
    if (in->enc == ISA_ENC_SDWA && in->fmt != ISA_FMT_VOPC) {
        v->dmode = DM_SDWA, v->dsel = in->sdwa_dst_sel, v->dunused = in->sdwa_dst_unused;
    } else if (is16(td)) {
        if (gfx11)
            v->dmode = DM_HALF, v->dshift = (in->hi16 >> 3) & 1 ? 16 : 0;
        else if (in->fmt == ISA_FMT_VOP3 && gfx9_opsel_op(in->op))
            v->dmode = DM_HALF, v->dshift = (in->op_sel >> 3) & 1 ? 16 : 0;
        else
            v->dmode = DM_LO16_ZERO;
    }
    return 0;
}

static uint32_t bfe_u(uint32_t x, uint32_t off, uint32_t wd)
{
    off &= 31, wd &= 31;
    if (!wd)
        return 0;
    return off + wd < 32 ? (x >> off) & ((1u << wd) - 1) : x >> off;
}

static uint32_t bfe_i(uint32_t x, uint32_t off, uint32_t wd)
{
    off &= 31, wd &= 31;
    if (!wd)
        return 0;
    if (off + wd >= 32)
        return (uint32_t)((int32_t)x >> off);
    return (uint32_t)((int32_t)(x << (32 - off - wd)) >> (32 - wd));
}

/* Three-operand min/max/median of signed or unsigned values (the
 * v_{min,max,med}3 family; clang forms them from unrolled reductions). */
static int64_t min3_s(int64_t a, int64_t b, int64_t c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }
static int64_t max3_s(int64_t a, int64_t b, int64_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }
static int64_t med3_s(int64_t a, int64_t b, int64_t c) { return a + b + c - min3_s(a, b, c) - max3_s(a, b, c); }

static uint32_t perm_byte(uint64_t v, unsigned sel)
{
    if (sel < 8)
        return (uint32_t)(v >> (8 * sel)) & 0xFF;
    switch (sel) {
    case 8: return (v >> 15) & 1 ? 0xFF : 0;  /* sign of byte 1 */
    case 9: return (v >> 31) & 1 ? 0xFF : 0;
    case 10: return (v >> 47) & 1 ? 0xFF : 0;
    case 11: return (v >> 63) & 1 ? 0xFF : 0;
    case 12: return 0;
    default: return 0xFF;
    }
}

static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1) << (31 - i);
    return r;
}

static double fract_d(double x, double below1)
{
    if (isnan(x))
        return x;
    if (isinf(x))
        return NAN;
    double f = x - floor(x);
    return f < below1 ? f : below1;
}

/* f32 transcendental results go through double and are flushed like the
 * hardware's (its rcp/rsq/sqrt/exp/log do not produce subnormals). */
static float tr32(double r)
{
    float f = (float)r;
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}
static double tr_in(float x) /* and they read subnormal inputs as zero */
{
    return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : (double)x;
}

/* v_mad/v_mac f32 (gfx90a): multiply rounded, then add; no subnormals */
static float ftz(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }
float ex_mad_f32(float a, float b, float c)
{
    volatile float p = ftz(a) * ftz(b); /* volatile: no contraction into an fma */
    return ftz(ftz(p) + ftz(c));
}

static double rnde(double x) { return nearbyint(x); } /* default RNE mode */

#define OP32(OPC, T0, T1, T2, EXPR)                        \
    case OPC:                                              \
        P(T0, T1, T2, TY_B32);                             \
        LANES uint32_t a = R32(&v, 0, l), b = T1 ? R32(&v, 1, l) : 0, cc = T2 ? R32(&v, 2, l) : 0; \
        (void)a; (void)b; (void)cc;                        \
        W32(&v, l, (EXPR)); END                            \
        return EMU_STEP_OK;
#define OPF(OPC, N, EXPR)                                  \
    case OPC:                                              \
        P(TY_F32, N > 1 ? TY_F32 : TY_NONE, N > 2 ? TY_F32 : TY_NONE, TY_F32); \
        LANES float a = RF(&v, 0, l), b = N > 1 ? RF(&v, 1, l) : 0.0f, cc = N > 2 ? RF(&v, 2, l) : 0.0f; \
        (void)a; (void)b; (void)cc;                        \
        WF(&v, l, (EXPR)); END                             \
        return EMU_STEP_OK;
#define OPD(OPC, N, EXPR)                                  \
    case OPC:                                              \
        P(TY_F64, N > 1 ? TY_F64 : TY_NONE, N > 2 ? TY_F64 : TY_NONE, TY_F64); \
        LANES double a = RD(&v, 0, l), b = N > 1 ? RD(&v, 1, l) : 0.0, cc = N > 2 ? RD(&v, 2, l) : 0.0; \
        (void)a; (void)b; (void)cc;                        \
        WD(&v, l, (EXPR)); END                             \
        return EMU_STEP_OK;
#define OPH(OPC, N, EXPR)                                  \
    case OPC:                                              \
        P(TY_F16, N > 1 ? TY_F16 : TY_NONE, N > 2 ? TY_F16 : TY_NONE, TY_F16); \
        LANES double a = RH(&v, 0, l), b = N > 1 ? RH(&v, 1, l) : 0.0, cc = N > 2 ? RH(&v, 2, l) : 0.0; \
        (void)a; (void)b; (void)cc;                        \
        WH(&v, l, (EXPR)); END                             \
        return EMU_STEP_OK;
#define OP16(OPC, N, EXPR)                                 \
    case OPC:                                              \
        P(TY_B16, N > 1 ? TY_B16 : TY_NONE, N > 2 ? TY_B16 : TY_NONE, TY_B16); \
        LANES uint32_t a = R32(&v, 0, l), b = N > 1 ? R32(&v, 1, l) : 0, cc = N > 2 ? R32(&v, 2, l) : 0; \
        (void)a; (void)b; (void)cc;                        \
        W32(&v, l, (uint32_t)(EXPR)); END                  \
        return EMU_STEP_OK;

static int lane_ops(ex_ctx *c)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    vctx v;
    switch (in->op) {
    /* ---- moves, bit ops, integer arithmetic (32-bit) ---- */
    OP32(ISA_OP_v_mov_b32, TY_B32, 0, 0, a)
    OP32(ISA_OP_v_not_b32, TY_B32, 0, 0, ~a)
    OP32(ISA_OP_v_bfrev_b32, TY_B32, 0, 0, brev32(a))
    OP32(ISA_OP_v_ffbh_u32, TY_B32, 0, 0, a ? (uint32_t)__builtin_clz(a) : ~0u)
    OP32(ISA_OP_v_clz_i32_u32, TY_B32, 0, 0, a ? (uint32_t)__builtin_clz(a) : ~0u)
    OP32(ISA_OP_v_ffbl_b32, TY_B32, 0, 0, a ? (uint32_t)__builtin_ctz(a) : ~0u)
    OP32(ISA_OP_v_ctz_i32_b32, TY_B32, 0, 0, a ? (uint32_t)__builtin_ctz(a) : ~0u)
    OP32(ISA_OP_v_ffbh_i32, TY_B32, 0, 0, (a == 0 || a == ~0u) ? ~0u : (uint32_t)__builtin_clz((int32_t)a < 0 ? ~a : a))
    OP32(ISA_OP_v_cls_i32, TY_B32, 0, 0, (a == 0 || a == ~0u) ? ~0u : (uint32_t)__builtin_clz((int32_t)a < 0 ? ~a : a))
    OP32(ISA_OP_v_and_b32, TY_B32, TY_B32, 0, a & b)
    OP32(ISA_OP_v_or_b32, TY_B32, TY_B32, 0, a | b)
    OP32(ISA_OP_v_xor_b32, TY_B32, TY_B32, 0, a ^ b)
    OP32(ISA_OP_v_xnor_b32, TY_B32, TY_B32, 0, ~(a ^ b))
    OP32(ISA_OP_v_lshlrev_b32, TY_B32, TY_B32, 0, b << (a & 31))
    OP32(ISA_OP_v_lshrrev_b32, TY_B32, TY_B32, 0, b >> (a & 31))
    OP32(ISA_OP_v_ashrrev_i32, TY_B32, TY_B32, 0, (uint32_t)((int32_t)b >> (a & 31)))
    OP32(ISA_OP_v_add_u32, TY_B32, TY_B32, 0, a + b)
    OP32(ISA_OP_v_sub_u32, TY_B32, TY_B32, 0, a - b)
    OP32(ISA_OP_v_subrev_u32, TY_B32, TY_B32, 0, b - a)
    OP32(ISA_OP_v_mul_lo_u32, TY_B32, TY_B32, 0, a * b)
    OP32(ISA_OP_v_mul_hi_u32, TY_B32, TY_B32, 0, (uint32_t)(((uint64_t)a * b) >> 32))
    OP32(ISA_OP_v_mul_hi_i32, TY_B32, TY_B32, 0, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32))
    OP32(ISA_OP_v_mul_u32_u24, TY_B32, TY_B32, 0, (a & 0xFFFFFF) * (b & 0xFFFFFF))
    OP32(ISA_OP_v_mul_i32_i24, TY_B32, TY_B32, 0, (uint32_t)(((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)))
    OP32(ISA_OP_v_mul_hi_u32_u24, TY_B32, TY_B32, 0, (uint32_t)(((uint64_t)(a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32))
    OP32(ISA_OP_v_mul_hi_i32_i24, TY_B32, TY_B32, 0,
         (uint32_t)(((int64_t)((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)) >> 32))
    OP32(ISA_OP_v_mad_u32_u24, TY_B32, TY_B32, TY_B32, (a & 0xFFFFFF) * (b & 0xFFFFFF) + cc)
    OP32(ISA_OP_v_mad_i32_i24, TY_B32, TY_B32, TY_B32, (uint32_t)(((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)) + cc)
    OP32(ISA_OP_v_min_u32, TY_B32, TY_B32, 0, a < b ? a : b)
    OP32(ISA_OP_v_max_u32, TY_B32, TY_B32, 0, a > b ? a : b)
    OP32(ISA_OP_v_min_i32, TY_B32, TY_B32, 0, (int32_t)a < (int32_t)b ? a : b)
    OP32(ISA_OP_v_max_i32, TY_B32, TY_B32, 0, (int32_t)a > (int32_t)b ? a : b)
    OP32(ISA_OP_v_bcnt_u32_b32, TY_B32, TY_B32, 0, (uint32_t)__builtin_popcount(a) + b)
    OP32(ISA_OP_v_add3_u32, TY_B32, TY_B32, TY_B32, a + b + cc)
    OP32(ISA_OP_v_lshl_add_u32, TY_B32, TY_B32, TY_B32, (a << (b & 31)) + cc)
    OP32(ISA_OP_v_add_lshl_u32, TY_B32, TY_B32, TY_B32, (a + b) << (cc & 31))
    OP32(ISA_OP_v_lshl_or_b32, TY_B32, TY_B32, TY_B32, (a << (b & 31)) | cc)
    OP32(ISA_OP_v_and_or_b32, TY_B32, TY_B32, TY_B32, (a & b) | cc)
    OP32(ISA_OP_v_or3_b32, TY_B32, TY_B32, TY_B32, a | b | cc)
    OP32(ISA_OP_v_xor3_b32, TY_B32, TY_B32, TY_B32, a ^ b ^ cc)
    OP32(ISA_OP_v_xad_u32, TY_B32, TY_B32, TY_B32, (a ^ b) + cc)
    OP32(ISA_OP_v_bfe_u32, TY_B32, TY_B32, TY_B32, bfe_u(a, b, cc))
    OP32(ISA_OP_v_bfe_i32, TY_B32, TY_B32, TY_B32, bfe_i(a, b, cc))
    OP32(ISA_OP_v_bfi_b32, TY_B32, TY_B32, TY_B32, (a & b) | (~a & cc))
    OP32(ISA_OP_v_alignbit_b32, TY_B32, TY_B32, TY_B32, (uint32_t)((((uint64_t)a << 32) | b) >> (cc & 31)))
    OP32(ISA_OP_v_alignbyte_b32, TY_B32, TY_B32, TY_B32, (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (cc & 3))))
    OP32(ISA_OP_v_perm_b32, TY_B32, TY_B32, TY_B32,
         perm_byte((uint64_t)a << 32 | b, cc & 0xFF) | perm_byte((uint64_t)a << 32 | b, (cc >> 8) & 0xFF) << 8 |
         perm_byte((uint64_t)a << 32 | b, (cc >> 16) & 0xFF) << 16 | perm_byte((uint64_t)a << 32 | b, cc >> 24) << 24)
    OP32(ISA_OP_v_min3_i32, TY_B32, TY_B32, TY_B32, (uint32_t)min3_s((int32_t)a, (int32_t)b, (int32_t)cc))
    OP32(ISA_OP_v_max3_i32, TY_B32, TY_B32, TY_B32, (uint32_t)max3_s((int32_t)a, (int32_t)b, (int32_t)cc))
    OP32(ISA_OP_v_med3_i32, TY_B32, TY_B32, TY_B32, (uint32_t)med3_s((int32_t)a, (int32_t)b, (int32_t)cc))
    OP32(ISA_OP_v_med3_u32, TY_B32, TY_B32, TY_B32, (uint32_t)med3_s(a, b, cc))
    OP32(ISA_OP_v_min3_u32, TY_B32, TY_B32, TY_B32, (uint32_t)min3_s(a, b, cc))
    OP32(ISA_OP_v_max3_u32, TY_B32, TY_B32, TY_B32, (uint32_t)max3_s(a, b, cc))
    OP32(ISA_OP_v_mbcnt_lo_u32_b32, TY_B32, TY_B32, 0, (uint32_t)__builtin_popcount(a & (uint32_t)((1ull << l) - 1)) + b)
    OP32(ISA_OP_v_mbcnt_hi_u32_b32, TY_B32, TY_B32, 0, (uint32_t)__builtin_popcount(a & (uint32_t)(l > 32 ? (1ull << (l - 32)) - 1 : 0)) + b)
    OP32(ISA_OP_v_pack_b32_f16, TY_F16, TY_F16, 0, (a & 0xFFFF) | b << 16)

    /* ---- conversions ---- */
    OP32(ISA_OP_v_cvt_u32_f32, TY_F32, 0, 0, ex_cvt_u32(ex_f(a)))
    OP32(ISA_OP_v_cvt_i32_f32, TY_F32, 0, 0, (uint32_t)ex_cvt_i32(ex_f(a)))
    OP32(ISA_OP_v_cvt_flr_i32_f32, TY_F32, 0, 0, (uint32_t)ex_cvt_i32(floor(ex_f(a))))
    OP32(ISA_OP_v_cvt_rpi_i32_f32, TY_F32, 0, 0, (uint32_t)ex_cvt_i32(floor(ex_f(a) + 0.5)))
    OP32(ISA_OP_v_cvt_f32_ubyte0, TY_B32, 0, 0, ex_u((float)(a & 0xFF)))
    OP32(ISA_OP_v_cvt_f32_ubyte1, TY_B32, 0, 0, ex_u((float)((a >> 8) & 0xFF)))
    OP32(ISA_OP_v_cvt_f32_ubyte2, TY_B32, 0, 0, ex_u((float)((a >> 16) & 0xFF)))
    OP32(ISA_OP_v_cvt_f32_ubyte3, TY_B32, 0, 0, ex_u((float)(a >> 24)))
    default:
        break;
    }
    switch (in->op) {
    case ISA_OP_v_cvt_f16_f32:
        P(TY_F32, TY_NONE, TY_NONE, TY_F16);
        LANES W32(&v, l, ex_f2h(RF(&v, 0, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f32_u32:
        P(TY_B32, TY_NONE, TY_NONE, TY_F32);
        LANES WF(&v, l, (float)R32(&v, 0, l)); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f32_i32:
        P(TY_B32, TY_NONE, TY_NONE, TY_F32);
        LANES WF(&v, l, (float)(int32_t)R32(&v, 0, l)); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f32_f16:
        P(TY_F16, TY_NONE, TY_NONE, TY_F32);
        LANES WF(&v, l, ex_h2f((uint16_t)R32(&v, 0, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f32_f64:
        P(TY_F64, TY_NONE, TY_NONE, TY_F32);
        LANES WF(&v, l, (float)RD(&v, 0, l)); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f64_f32:
        P(TY_F32, TY_NONE, TY_NONE, TY_F64);
        LANES WD(&v, l, (double)RF(&v, 0, l)); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f64_i32:
        P(TY_B32, TY_NONE, TY_NONE, TY_F64);
        LANES WD(&v, l, (double)(int32_t)R32(&v, 0, l)); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f64_u32:
        P(TY_B32, TY_NONE, TY_NONE, TY_F64);
        LANES WD(&v, l, (double)R32(&v, 0, l)); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_i32_f64:
        P(TY_F64, TY_NONE, TY_NONE, TY_B32);
        LANES W32(&v, l, (uint32_t)ex_cvt_i32(RD(&v, 0, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_u32_f64:
        P(TY_F64, TY_NONE, TY_NONE, TY_B32);
        LANES W32(&v, l, ex_cvt_u32(RD(&v, 0, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_u16_f16:
        P(TY_F16, TY_NONE, TY_NONE, TY_B16);
        LANES { double d = RH(&v, 0, l); W32(&v, l, isnan(d) || d <= 0 ? 0 : d >= 65535.0 ? 0xFFFF : (uint32_t)d); } END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_i16_f16:
        P(TY_F16, TY_NONE, TY_NONE, TY_B16);
        LANES {
            double d = trunc(RH(&v, 0, l));
            int32_t r = isnan(d) ? 0 : d >= 32767.0 ? 32767 : d <= -32768.0 ? -32768 : (int32_t)d;
            W32(&v, l, (uint32_t)r & 0xFFFF);
        } END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f16_u16:
        P(TY_B16, TY_NONE, TY_NONE, TY_F16);
        LANES WH(&v, l, (double)(R32(&v, 0, l) & 0xFFFF)); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_f16_i16:
        P(TY_B16, TY_NONE, TY_NONE, TY_F16);
        LANES WH(&v, l, (double)(int16_t)R32(&v, 0, l)); END
        return EMU_STEP_OK;
    case ISA_OP_v_cvt_pkrtz_f16_f32: case ISA_OP_v_cvt_pk_rtz_f16_f32:
        P(TY_F32, TY_F32, TY_NONE, TY_B32);
        LANES {
            /* round toward zero: truncate the double result's extra bits */
            uint16_t h[2];
            for (int k = 0; k < 2; k++) {
                float f = RF(&v, k, l);
                uint16_t r = ex_f2h(f);
                if (!isnan(f) && fabs((double)ex_h2f(r)) > fabs((double)f))
                    r = (uint16_t)(r - 1);
                h[k] = r;
            }
            W32(&v, l, h[0] | (uint32_t)h[1] << 16);
        } END
        return EMU_STEP_OK;
    default:
        break;
    }
    switch (in->op) {
    /* ---- f32 ---- */
    OPF(ISA_OP_v_add_f32, 2, a + b)
    OPF(ISA_OP_v_sub_f32, 2, a - b)
    OPF(ISA_OP_v_subrev_f32, 2, b - a)
    OPF(ISA_OP_v_mul_f32, 2, a * b)
    OPF(ISA_OP_v_mul_legacy_f32, 2, (a == 0.0f || b == 0.0f) ? 0.0f : a * b)
    OPF(ISA_OP_v_mul_dx9_zero_f32, 2, (a == 0.0f || b == 0.0f) ? 0.0f : a * b)
    OPF(ISA_OP_v_fma_f32, 3, fmaf(a, b, cc))
    OPF(ISA_OP_v_mad_f32, 3, ex_mad_f32(a, b, cc))
    OPF(ISA_OP_v_min_f32, 2, fminf(a, b))
    OPF(ISA_OP_v_max_f32, 2, fmaxf(a, b))
    OPF(ISA_OP_v_min3_f32, 3, fminf(fminf(a, b), cc))
    OPF(ISA_OP_v_max3_f32, 3, fmaxf(fmaxf(a, b), cc))
    OPF(ISA_OP_v_med3_f32, 3, (isnan(a) || isnan(b) || isnan(cc)) ? fminf(fminf(a, b), cc)
                              : fmaxf(fminf(a, b), fminf(fmaxf(a, b), cc)))
    OPF(ISA_OP_v_rcp_f32, 1, tr32(1.0 / tr_in(a)))
    OPF(ISA_OP_v_rcp_iflag_f32, 1, tr32(1.0 / tr_in(a)))
    OPF(ISA_OP_v_rsq_f32, 1, tr32(1.0 / sqrt(tr_in(a))))
    OPF(ISA_OP_v_sqrt_f32, 1, tr32(sqrt(tr_in(a))))
    OPF(ISA_OP_v_exp_f32, 1, tr32(exp2(tr_in(a))))
    OPF(ISA_OP_v_log_f32, 1, tr32(log2(tr_in(a))))
    OPF(ISA_OP_v_sin_f32, 1, tr32(sin(2.0 * EX_PI * (tr_in(a) - floor(tr_in(a))))))
    OPF(ISA_OP_v_cos_f32, 1, tr32(cos(2.0 * EX_PI * (tr_in(a) - floor(tr_in(a))))))
    OPF(ISA_OP_v_floor_f32, 1, floorf(a))
    OPF(ISA_OP_v_ceil_f32, 1, ceilf(a))
    OPF(ISA_OP_v_trunc_f32, 1, truncf(a))
    OPF(ISA_OP_v_rndne_f32, 1, (float)rnde(a))
    OPF(ISA_OP_v_fract_f32, 1, (float)fract_d(a, 0x1.fffffep-1))
    OPF(ISA_OP_v_frexp_mant_f32, 1, ex_frexp_mant_f32(a))
    /* ---- f64 ---- */
    OPD(ISA_OP_v_add_f64, 2, a + b)
    OPD(ISA_OP_v_mul_f64, 2, a * b)
    OPD(ISA_OP_v_fma_f64, 3, fma(a, b, cc))
    OPD(ISA_OP_v_min_f64, 2, fmin(a, b))
    OPD(ISA_OP_v_max_f64, 2, fmax(a, b))
    OPD(ISA_OP_v_rcp_f64, 1, 1.0 / a)
    OPD(ISA_OP_v_rsq_f64, 1, 1.0 / sqrt(a))
    OPD(ISA_OP_v_sqrt_f64, 1, sqrt(a))
    OPD(ISA_OP_v_floor_f64, 1, floor(a))
    OPD(ISA_OP_v_ceil_f64, 1, ceil(a))
    OPD(ISA_OP_v_trunc_f64, 1, trunc(a))
    OPD(ISA_OP_v_rndne_f64, 1, rnde(a))
    OPD(ISA_OP_v_fract_f64, 1, fract_d(a, 0x1.fffffffffffffp-1))
    OPD(ISA_OP_v_frexp_mant_f64, 1, ex_frexp_mant_f64(a))
    /* ---- f16 (computed in double, rounded once) ---- */
    OPH(ISA_OP_v_add_f16, 2, a + b)
    OPH(ISA_OP_v_sub_f16, 2, a - b)
    OPH(ISA_OP_v_subrev_f16, 2, b - a)
    OPH(ISA_OP_v_mul_f16, 2, a * b)
    OPH(ISA_OP_v_fma_f16, 3, fma(a, b, cc))
    OPH(ISA_OP_v_mad_f16, 3, a * b + cc)
    OPH(ISA_OP_v_min_f16, 2, fmin(a, b))
    OPH(ISA_OP_v_max_f16, 2, fmax(a, b))
    OPH(ISA_OP_v_floor_f16, 1, floor(a))
    OPH(ISA_OP_v_ceil_f16, 1, ceil(a))
    OPH(ISA_OP_v_trunc_f16, 1, trunc(a))
    OPH(ISA_OP_v_rndne_f16, 1, rnde(a))
    OPH(ISA_OP_v_fract_f16, 1, fract_d(a, 0x1.ffcp-1))
    OPH(ISA_OP_v_sqrt_f16, 1, sqrt(a))
    OPH(ISA_OP_v_rcp_f16, 1, 1.0 / a)
    OPH(ISA_OP_v_rsq_f16, 1, 1.0 / sqrt(a))
    OPH(ISA_OP_v_exp_f16, 1, exp2(a))
    OPH(ISA_OP_v_log_f16, 1, log2(a))
    OPH(ISA_OP_v_sin_f16, 1, sin(2.0 * EX_PI * (a - floor(a))))
    OPH(ISA_OP_v_cos_f16, 1, cos(2.0 * EX_PI * (a - floor(a))))
    OPH(ISA_OP_v_frexp_mant_f16, 1, isnan(a) || isinf(a) ? a : frexp(a, &(int){ 0 }))
    /* ---- 16-bit integer ---- */
    OP16(ISA_OP_v_mov_b16, 1, a)
    OP16(ISA_OP_v_not_b16, 1, ~a)
    OP16(ISA_OP_v_and_b16, 2, a & b)
    OP16(ISA_OP_v_or_b16, 2, a | b)
    OP16(ISA_OP_v_xor_b16, 2, a ^ b)
    OP16(ISA_OP_v_add_u16, 2, a + b)
    OP16(ISA_OP_v_sub_u16, 2, a - b)
    OP16(ISA_OP_v_subrev_u16, 2, b - a)
    OP16(ISA_OP_v_mul_lo_u16, 2, a * b)
    OP16(ISA_OP_v_lshlrev_b16, 2, b << (a & 15))
    OP16(ISA_OP_v_lshrrev_b16, 2, (b & 0xFFFF) >> (a & 15))
    OP16(ISA_OP_v_ashrrev_i16, 2, (uint32_t)((int16_t)b >> (a & 15)))
    OP16(ISA_OP_v_max_u16, 2, a > b ? a : b)
    OP16(ISA_OP_v_min_u16, 2, a < b ? a : b)
    OP16(ISA_OP_v_max_i16, 2, (int16_t)a > (int16_t)b ? a : b)
    OP16(ISA_OP_v_min_i16, 2, (int16_t)a < (int16_t)b ? a : b)
    OP16(ISA_OP_v_min3_i16, 3, (uint32_t)min3_s((int16_t)a, (int16_t)b, (int16_t)cc))
    OP16(ISA_OP_v_max3_i16, 3, (uint32_t)max3_s((int16_t)a, (int16_t)b, (int16_t)cc))
    OP16(ISA_OP_v_med3_i16, 3, (uint32_t)med3_s((int16_t)a, (int16_t)b, (int16_t)cc))
    OP16(ISA_OP_v_min3_u16, 3, (uint32_t)min3_s(a & 0xFFFF, b & 0xFFFF, cc & 0xFFFF))
    OP16(ISA_OP_v_max3_u16, 3, (uint32_t)max3_s(a & 0xFFFF, b & 0xFFFF, cc & 0xFFFF))
    OP16(ISA_OP_v_med3_u16, 3, (uint32_t)med3_s(a & 0xFFFF, b & 0xFFFF, cc & 0xFFFF))
    OP16(ISA_OP_v_mad_u16, 3, a * b + cc)
    OP16(ISA_OP_v_mad_legacy_u16, 3, a * b + cc)
    OP16(ISA_OP_v_mad_i16, 3, (uint32_t)((int16_t)a * (int16_t)b + (int16_t)cc))
    OP16(ISA_OP_v_mad_legacy_i16, 3, (uint32_t)((int16_t)a * (int16_t)b + (int16_t)cc))
    default:
        break;
    }
    (void)w;
    return EX_UNIMPL;
}

int ex_valu(ex_ctx *c)
{
    /* MODE: round to nearest even is all we emulate; f32 subnormals either
     * way (FP_DENORM[5:4]); f64/f16 subnormals only kept (FP_DENORM[7:6]=3).
     * Our kernels' descriptors ask for exactly that; anything else stops. */
    uint32_t mode = c->w->mode;
    if (mode & 0xF)
        return ex_error(c, "MODE round bits 0x%x: only round-to-nearest-even is emulated", mode & 0xF);
    if (((mode >> 6) & 3) != 3)
        return ex_error(c, "MODE FP_DENORM f64/f16 = %u: only 3 (keep subnormals) is emulated", (mode >> 6) & 3);
    switch (c->in->fmt) {
    case ISA_FMT_VOPD:
        return ex_vopd(c);
    case ISA_FMT_VOP3P:
        return ex_vop3p(c);
    default:
        break;
    }
    int r = ex_vcmp(c);
    if (r != EX_UNIMPL)
        return r;
    r = lane_ops(c);
    if (r != EX_UNIMPL)
        return r;
    return ex_vmisc(c);
}
