/* exec_vmisc.c — VALU operations that do not fit the plain lane shapes
 * of exec_valu.c: carry in/out (VOP2 via VCC, VOP3b via an SGPR mask),
 * v_cndmask, 64-bit results, the division helpers, ldexp/frexp/trig_preop,
 * accumulating and literal-constant FMAs, cross-lane moves and v_swap. */
#include "exec_valu.h"
#include "exec_fp.h"

/* Carry-in mask (e32/SDWA: VCC; VOP3: src2) and carry-out writer. */
static uint64_t carry_in(ex_ctx *c)
{
    return c->in->fmt == ISA_FMT_VOP3 ? ex_mask_read(c, &c->in->src[2]) : c->w->vcc;
}

static int carry_out(ex_ctx *c, uint64_t m)
{
    if (c->in->fmt == ISA_FMT_VOP3)
        return ex_mask_write(c, &c->in->sdst, m) ? EMU_STEP_ERROR : EMU_STEP_OK;
    c->w->vcc = m & c->lanes;
    return EMU_STEP_OK;
}

/* Ops that do not fit the plain lane shapes above. */
int ex_vmisc(ex_ctx *c)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    vctx v;
    switch (in->op) {
    case ISA_OP_v_cndmask_b32: {
        uint64_t m = in->fmt == ISA_FMT_VOP3 ? ex_mask_read(c, &in->src[2]) : w->vcc;
        P(TY_B32, TY_B32, TY_NONE, TY_B32);
        LANES W32(&v, l, (m >> l) & 1 ? R32(&v, 1, l) : R32(&v, 0, l)); END
        return EMU_STEP_OK;
    }
    case ISA_OP_v_cndmask_b16: {
        uint64_t m = ex_mask_read(c, &in->src[2]);
        P(TY_B16, TY_B16, TY_NONE, TY_B16);
        LANES W32(&v, l, (m >> l) & 1 ? R32(&v, 1, l) : R32(&v, 0, l)); END
        return EMU_STEP_OK;
    }
    case ISA_OP_v_add_co_u32: case ISA_OP_v_sub_co_u32: case ISA_OP_v_subrev_co_u32: {
        P(TY_B32, TY_B32, TY_NONE, TY_B32);
        uint64_t co = 0;
        LANES {
            uint32_t a = R32(&v, 0, l), b = R32(&v, 1, l);
            if (in->op == ISA_OP_v_subrev_co_u32) { uint32_t t = a; a = b; b = t; }
            if (in->op == ISA_OP_v_add_co_u32) {
                uint64_t r = (uint64_t)a + b;
                co |= (uint64_t)(r >> 32) << l;
                W32(&v, l, (uint32_t)r);
            } else {
                co |= (uint64_t)(b > a) << l;
                W32(&v, l, a - b);
            }
        } END
        return carry_out(c, co);
    }
    case ISA_OP_v_addc_co_u32: case ISA_OP_v_subb_co_u32: case ISA_OP_v_subbrev_co_u32: {
        uint64_t ci = carry_in(c), co = 0;
        P(TY_B32, TY_B32, TY_NONE, TY_B32);
        LANES {
            uint32_t a = R32(&v, 0, l), b = R32(&v, 1, l), k = (ci >> l) & 1;
            if (in->op == ISA_OP_v_subbrev_co_u32) { uint32_t t = a; a = b; b = t; }
            if (in->op == ISA_OP_v_addc_co_u32) {
                uint64_t r = (uint64_t)a + b + k;
                co |= (uint64_t)(r >> 32) << l;
                W32(&v, l, (uint32_t)r);
            } else {
                co |= (uint64_t)((uint64_t)b + k > a) << l;
                W32(&v, l, a - b - k);
            }
        } END
        return carry_out(c, co);
    }
    case ISA_OP_v_mad_u64_u32: case ISA_OP_v_mad_i64_i32: {
        P(TY_B32, TY_B32, TY_B64, TY_B64);
        uint64_t co = 0;
        LANES {
            uint32_t a = R32(&v, 0, l), b = R32(&v, 1, l);
            uint64_t cc = R64(&v, 2, l);
            if (in->op == ISA_OP_v_mad_u64_u32) {
                unsigned __int128 r = (unsigned __int128)a * b + cc;
                co |= (uint64_t)(r >> 64 != 0) << l;
                W64(&v, l, (uint64_t)r);
            } else {
                __int128 r = (__int128)(int64_t)(int32_t)a * (int32_t)b + (__int128)(int64_t)cc;
                co |= (uint64_t)(r != (int64_t)r) << l;
                W64(&v, l, (uint64_t)r);
            }
        } END
        return carry_out(c, co);
    }
    case ISA_OP_v_div_scale_f32: {
        P(TY_F32, TY_F32, TY_F32, TY_F32);
        uint64_t m = 0;
        LANES {
            int f;
            v.d0[l] = ex_u(ex_div_scale_f32(RF(&v, 0, l), RF(&v, 1, l), RF(&v, 2, l), &f));
            m |= (uint64_t)f << l;
        } END
        return carry_out(c, m);
    }
    case ISA_OP_v_div_scale_f64: {
        P(TY_F64, TY_F64, TY_F64, TY_F64);
        uint64_t m = 0;
        LANES {
            int f;
            W64(&v, l, ex_ud(ex_div_scale_f64(RD(&v, 0, l), RD(&v, 1, l), RD(&v, 2, l), &f)));
            m |= (uint64_t)f << l;
        } END
        return carry_out(c, m);
    }
    case ISA_OP_v_div_fmas_f32: {
        uint64_t m = w->vcc;
        P(TY_F32, TY_F32, TY_F32, TY_F32);
        LANES WF(&v, l, ex_div_fmas_f32(RF(&v, 0, l), RF(&v, 1, l), RF(&v, 2, l), (int)((m >> l) & 1))); END
        return EMU_STEP_OK;
    }
    case ISA_OP_v_div_fmas_f64: {
        uint64_t m = w->vcc;
        P(TY_F64, TY_F64, TY_F64, TY_F64);
        LANES WD(&v, l, ex_div_fmas_f64(RD(&v, 0, l), RD(&v, 1, l), RD(&v, 2, l), (int)((m >> l) & 1))); END
        return EMU_STEP_OK;
    }
    case ISA_OP_v_div_fixup_f32:
        P(TY_F32, TY_F32, TY_F32, TY_F32);
        LANES WF(&v, l, ex_div_fixup_f32(RF(&v, 0, l), RF(&v, 1, l), RF(&v, 2, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_div_fixup_f64:
        P(TY_F64, TY_F64, TY_F64, TY_F64);
        LANES WD(&v, l, ex_div_fixup_f64(RD(&v, 0, l), RD(&v, 1, l), RD(&v, 2, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_ldexp_f32:
        P(TY_F32, TY_B32, TY_NONE, TY_F32);
        LANES {
            int32_t e = (int32_t)R32(&v, 1, l);
            e = e > 1000 ? 1000 : e < -1000 ? -1000 : e;
            WF(&v, l, ldexpf(RF(&v, 0, l), e));
        } END
        return EMU_STEP_OK;
    case ISA_OP_v_ldexp_f64:
        P(TY_F64, TY_B32, TY_NONE, TY_F64);
        LANES {
            int32_t e = (int32_t)R32(&v, 1, l);
            e = e > 5000 ? 5000 : e < -5000 ? -5000 : e;
            WD(&v, l, ldexp(RD(&v, 0, l), e));
        } END
        return EMU_STEP_OK;
    case ISA_OP_v_ldexp_f16:
        P(TY_F16, TY_B32, TY_NONE, TY_F16);
        LANES {
            int32_t e = (int32_t)(int16_t)R32(&v, 1, l);
            WH(&v, l, ldexp(RH(&v, 0, l), e));
        } END
        return EMU_STEP_OK;
    case ISA_OP_v_frexp_exp_i32_f32:
        P(TY_F32, TY_NONE, TY_NONE, TY_B32);
        LANES W32(&v, l, (uint32_t)ex_frexp_exp_f32(RF(&v, 0, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_frexp_exp_i32_f64:
        P(TY_F64, TY_NONE, TY_NONE, TY_B32);
        LANES W32(&v, l, (uint32_t)ex_frexp_exp_f64(RD(&v, 0, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_trig_preop_f64:
        P(TY_F64, TY_B32, TY_NONE, TY_F64);
        LANES WD(&v, l, ex_trig_preop_f64(RD(&v, 0, l), R32(&v, 1, l))); END
        return EMU_STEP_OK;
    case ISA_OP_v_fmac_f32: case ISA_OP_v_mac_f32: {
        P(TY_F32, TY_F32, TY_NONE, TY_F32);
        int fused = in->op == ISA_OP_v_fmac_f32;
        LANES {
            float a = RF(&v, 0, l), b = RF(&v, 1, l), d = ex_f(v.d0[l]);
            WF(&v, l, fused ? fmaf(a, b, d) : ex_mad_f32(a, b, d));
        } END
        return EMU_STEP_OK;
    }
    case ISA_OP_v_dot4c_i32_i8: { /* gfx90a/gfx940: D += the four signed byte products of S0, S1 (wraps) */
        P(TY_B32, TY_B32, TY_NONE, TY_B32);
        LANES {
            const uint32_t a = R32(&v, 0, l), b = R32(&v, 1, l);
            int64_t acc = (int32_t)v.d0[l];
            for (int k = 0; k < 4; k++) acc += (int64_t)(int8_t)(a >> (8 * k)) * (int8_t)(b >> (8 * k));
            if (in->clamp) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
            W32(&v, l, (uint32_t)acc);
        } END
        return EMU_STEP_OK;
    }
    case ISA_OP_v_fmac_f64:
        P(TY_F64, TY_F64, TY_NONE, TY_F64);
        LANES WD(&v, l, fma(RD(&v, 0, l), RD(&v, 1, l), ex_d((uint64_t)v.d1[l] << 32 | v.d0[l]))); END
        return EMU_STEP_OK;
    case ISA_OP_v_fmamk_f32: case ISA_OP_v_fmaak_f32: {
        P(TY_F32, TY_F32, TY_NONE, TY_F32);
        float k = ex_f(in->literal);
        int mk = in->op == ISA_OP_v_fmamk_f32;
        LANES {
            float a = RF(&v, 0, l), b = RF(&v, 1, l);
            WF(&v, l, mk ? fmaf(a, k, b) : fmaf(a, b, k));
        } END
        return EMU_STEP_OK;
    }
    case ISA_OP_v_madmk_f32: case ISA_OP_v_madak_f32: { /* gfx90a: unfused */
        P(TY_F32, TY_F32, TY_NONE, TY_F32);
        float k = ex_f(in->literal);
        int mk = in->op == ISA_OP_v_madmk_f32;
        LANES {
            float a = RF(&v, 0, l), b = RF(&v, 1, l);
            WF(&v, l, mk ? ex_mad_f32(a, k, b) : ex_mad_f32(a, b, k));
        } END
        return EMU_STEP_OK;
    }
    /* ---- 64-bit integer ---- */
    case ISA_OP_v_mov_b64:
        P(TY_B64, TY_NONE, TY_NONE, TY_B64);
        LANES W64(&v, l, R64(&v, 0, l)); END
        return EMU_STEP_OK;
    case ISA_OP_v_lshlrev_b64:
        P(TY_B32, TY_B64, TY_NONE, TY_B64);
        LANES W64(&v, l, R64(&v, 1, l) << (R32(&v, 0, l) & 63)); END
        return EMU_STEP_OK;
    case ISA_OP_v_lshrrev_b64:
        P(TY_B32, TY_B64, TY_NONE, TY_B64);
        LANES W64(&v, l, R64(&v, 1, l) >> (R32(&v, 0, l) & 63)); END
        return EMU_STEP_OK;
    case ISA_OP_v_ashrrev_i64:
        P(TY_B32, TY_B64, TY_NONE, TY_B64);
        LANES W64(&v, l, (uint64_t)((int64_t)R64(&v, 1, l) >> (R32(&v, 0, l) & 63))); END
        return EMU_STEP_OK;
    case ISA_OP_v_lshl_add_u64:
        P(TY_B64, TY_B32, TY_B64, TY_B64);
        LANES W64(&v, l, (R64(&v, 0, l) << (R32(&v, 1, l) & 63)) + R64(&v, 2, l)); END
        return EMU_STEP_OK;
    /* ---- cross-lane ---- */
    case ISA_OP_v_readfirstlane_b32: {
        P(TY_B32, TY_NONE, TY_NONE, TY_NONE);
        int l = c->exec ? __builtin_ctzll(c->exec) : 0;
        return ex_swrite(c, &in->dst, 0, R32(&v, 0, l)) ? EMU_STEP_ERROR : EMU_STEP_OK;
    }
    case ISA_OP_v_readlane_b32: {
        P(TY_B32, TY_NONE, TY_NONE, TY_NONE);
        int l = (int)(ex_sread(c, &in->src[1], 0, TY_B32) & (unsigned)(w->wave_size - 1));
        return ex_swrite(c, &in->dst, 0, R32(&v, 0, l)) ? EMU_STEP_ERROR : EMU_STEP_OK;
    }
    case ISA_OP_v_writelane_b32: {
        int l = (int)(ex_sread(c, &in->src[1], 0, TY_B32) & (unsigned)(w->wave_size - 1));
        if (in->dst.kind != ISA_OPD_VGPR)
            return ex_error(c, "bad destination");
        w->vgpr[in->dst.reg][l] = ex_sread(c, &in->src[0], 0, TY_B32);
        return EMU_STEP_OK;
    }
    case ISA_OP_v_swap_b32: { /* exchange two VGPRs in the active lanes */
        if (in->dst.kind != ISA_OPD_VGPR || in->src[0].kind != ISA_OPD_VGPR || in->fmt != ISA_FMT_VOP1)
            return ex_error(c, "v_swap_b32 needs two VGPRs (VOP1)");
        for (int l = 0; l < w->wave_size; l++)
            if ((c->exec >> l) & 1) {
                const uint32_t t = w->vgpr[in->dst.reg][l];
                w->vgpr[in->dst.reg][l] = w->vgpr[in->src[0].reg][l];
                w->vgpr[in->src[0].reg][l] = t;
            }
        return EMU_STEP_OK;
    }
    default:
        return EX_UNIMPL;
    }
}

