/* exec_vopd.c — gfx11 VOPD: two VALU ops issued together. Both read
 * their sources before either writes (results go through temporaries). */
#include "exec_valu.h"

static int half(ex_ctx *c, int h, uint32_t *out)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    ex_src s[3];
    int n = in->vopd[h].nsrc;
    for (int i = 0; i < n; i++)
        if (ex_src_prep(c, &in->vopd[h].src[i], TY_B32, &s[i]))
            return EMU_STEP_ERROR;
    const isa_operand *d = &in->vopd[h].dst;
    if (d->reg >= EMU_NVGPR)
        return ex_error(c, "bad destination");
    const uint32_t *dr = w->vgpr[d->reg];
    uint64_t vcc = w->vcc;
    LANES {
        uint32_t a = ex_s32(&s[0], l), b = n > 1 ? ex_s32(&s[1], l) : 0, k = n > 2 ? ex_s32(&s[2], l) : 0, r;
        float fa = ex_f(a), fb = ex_f(b), fk = ex_f(k);
        switch (in->vopd[h].op) {
        case ISA_OP_v_fmac_f32: r = ex_u(fmaf(fa, fb, ex_f(dr[l]))); break;
        case ISA_OP_v_fmaak_f32: case ISA_OP_v_fmamk_f32: r = ex_u(fmaf(fa, fb, fk)); break;
        case ISA_OP_v_mul_f32: r = ex_u(fa * fb); break;
        case ISA_OP_v_add_f32: r = ex_u(fa + fb); break;
        case ISA_OP_v_sub_f32: r = ex_u(fa - fb); break;
        case ISA_OP_v_subrev_f32: r = ex_u(fb - fa); break;
        case ISA_OP_v_mul_dx9_zero_f32: r = ex_u(fa == 0.0f || fb == 0.0f ? 0.0f : fa * fb); break;
        case ISA_OP_v_mov_b32: r = a; break;
        case ISA_OP_v_cndmask_b32: r = (vcc >> l) & 1 ? b : a; break;
        case ISA_OP_v_max_f32: r = ex_u(fmaxf(fa, fb)); break;
        case ISA_OP_v_min_f32: r = ex_u(fminf(fa, fb)); break;
        case ISA_OP_v_add_u32: r = a + b; break;
        case ISA_OP_v_lshlrev_b32: r = b << (a & 31); break;
        case ISA_OP_v_and_b32: r = a & b; break;
        case ISA_OP_v_dot2acc_f32_f16: {
            double acc = (double)ex_f(dr[l]) + (double)ex_h2f((uint16_t)a) * ex_h2f((uint16_t)b) +
                         (double)ex_h2f((uint16_t)(a >> 16)) * ex_h2f((uint16_t)(b >> 16));
            r = ex_u((float)acc);
            break;
        }
        default:
            return ex_error(c, "VOPD half %s not implemented", in->vopd[h].name);
        }
        out[l] = r;
    } END
    return EMU_STEP_OK;
}

int ex_vopd(ex_ctx *c)
{
    uint32_t x[EMU_MAX_LANES], y[EMU_MAX_LANES];
    if (half(c, 0, x) || half(c, 1, y))
        return EMU_STEP_ERROR;
    uint32_t *dx = c->w->vgpr[c->in->vopd[0].dst.reg], *dy = c->w->vgpr[c->in->vopd[1].dst.reg];
    LANES dx[l] = x[l], dy[l] = y[l]; END
    return EMU_STEP_OK;
}
