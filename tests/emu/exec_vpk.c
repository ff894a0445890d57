/* exec_vpk.c — VOP3P: packed 2 x f32 (gfx90a/gfx942), packed 2 x 16-bit,
 * and the f16/f32 mix FMAs. op_sel picks each source's half (or dword)
 * for the low result, op_sel_hi for the high one; neg_lo/neg_hi negate
 * per half (for mix ops they are neg and abs of each source). */
#include "exec_valu.h"
#include <stdint.h>

static int prep(ex_ctx *c, ex_src *s, int n, ex_ty t)
{
    for (int i = 0; i < n; i++)
        if (ex_src_prep(c, &c->in->src[i], t, &s[i]))
            return -1;
    return 0;
}

/* 2 x 32-bit sources: registers give two dwords; a constant is one 32-bit
 * value (f32 for the float ops) standing for both. */
static int prep_pk32(ex_ctx *c, ex_src *s, int n, ex_ty t32)
{
    for (int i = 0; i < n; i++) {
        const isa_operand *o = &c->in->src[i];
        int k = o->kind == ISA_OPD_INLINE || o->kind == ISA_OPD_LITERAL;
        if (ex_src_prep(c, o, k ? t32 : TY_B64, &s[i]))
            return -1;
        if (k)
            s[i].uni[1] = s[i].uni[0];
    }
    return 0;
}

static int dst_rows(ex_ctx *c, unsigned n, uint32_t **d)
{
    const isa_inst *in = c->in;
    if (in->dst.kind != ISA_OPD_VGPR || in->dst.reg + n > EMU_NVGPR)
        return ex_error(c, "bad destination"), -1;
    for (unsigned k = 0; k < n; k++)
        d[k] = c->w->vgpr[in->dst.reg + k];
    return 0;
}

static float clampf(const isa_inst *in, float r)
{
    if (!in->clamp)
        return r;
    return isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
}

/* 2 x f32 in 64-bit registers */
static int pk_f32(ex_ctx *c)
{
    const isa_inst *in = c->in;
    ex_src s[3];
    uint32_t *d[2];
    int n = in->op == ISA_OP_v_pk_fma_f32 ? 3 : 2;
    if (prep_pk32(c, s, n, TY_F32) || dst_rows(c, 2, d))
        return EMU_STEP_ERROR;
    LANES {
        float r[2];
        for (int h = 0; h < 2; h++) {
            float x[3] = { 0, 0, 0 };
            for (int i = 0; i < n; i++) {
                unsigned sel = ((h ? in->op_sel_hi : in->op_sel) >> i) & 1;
                uint32_t u = (uint32_t)(ex_s64(&s[i], l) >> (32 * sel));
                if ((((h ? in->neg_hi : in->neg) >> i) & 1))
                    u ^= 0x80000000u;
                x[i] = ex_f(u);
            }
            switch (in->op) {
            case ISA_OP_v_pk_add_f32: r[h] = x[0] + x[1]; break;
            case ISA_OP_v_pk_mul_f32: r[h] = x[0] * x[1]; break;
            default: r[h] = fmaf(x[0], x[1], x[2]); break;
            }
            r[h] = clampf(in, r[h]);
        }
        d[0][l] = ex_u(r[0]);
        d[1][l] = ex_u(r[1]);
    } END
    return EMU_STEP_OK;
}

static int pk_mov(ex_ctx *c)
{
    const isa_inst *in = c->in;
    ex_src s[2];
    uint32_t *d[2];
    if (prep_pk32(c, s, 2, TY_B32) || dst_rows(c, 2, d))
        return EMU_STEP_ERROR;
    LANES {
        uint32_t lo = (uint32_t)(ex_s64(&s[0], l) >> (32 * (in->op_sel & 1)));
        uint32_t hi = (uint32_t)(ex_s64(&s[1], l) >> (32 * ((in->op_sel >> 1) & 1)));
        d[0][l] = lo;
        d[1][l] = hi;
    } END
    return EMU_STEP_OK;
}

/* 2 x 16-bit */
static int pk_16(ex_ctx *c)
{
    const isa_inst *in = c->in;
    unsigned op = in->op;
    int n = in->nsrc;
    int fl = op == ISA_OP_v_pk_add_f16 || op == ISA_OP_v_pk_mul_f16 || op == ISA_OP_v_pk_fma_f16 ||
             op == ISA_OP_v_pk_max_f16 || op == ISA_OP_v_pk_min_f16;
    ex_src s[3];
    uint32_t *d[1];
    if (prep(c, s, n, fl ? TY_PKF16 : TY_PK16) || dst_rows(c, 1, d))
        return EMU_STEP_ERROR;
    for (int i = 0; i < n; i++) /* inline constants fill both halves */
        if (!s[i].row[0] && in->src[i].kind == ISA_OPD_INLINE)
            s[i].uni[0] = (s[i].uni[0] & 0xFFFF) * 0x10001u;
    LANES {
        uint32_t out = 0;
        for (int h = 0; h < 2; h++) {
            uint32_t x[3] = { 0, 0, 0 };
            for (int i = 0; i < n; i++) {
                unsigned sel = ((h ? in->op_sel_hi : in->op_sel) >> i) & 1;
                x[i] = (ex_s32(&s[i], l) >> (16 * sel)) & 0xFFFF;
                if (fl && (((h ? in->neg_hi : in->neg) >> i) & 1))
                    x[i] ^= 0x8000;
            }
            uint32_t r;
            double a = fl ? ex_h2f((uint16_t)x[0]) : 0, b = fl ? ex_h2f((uint16_t)x[1]) : 0,
                   cc = fl ? ex_h2f((uint16_t)x[2]) : 0;
            switch (op) {
            case ISA_OP_v_pk_add_u16: case ISA_OP_v_pk_add_i16: r = x[0] + x[1]; break;
            case ISA_OP_v_pk_sub_u16: case ISA_OP_v_pk_sub_i16: r = x[0] - x[1]; break;
            case ISA_OP_v_pk_mul_lo_u16: r = x[0] * x[1]; break;
            case ISA_OP_v_pk_mad_u16: case ISA_OP_v_pk_mad_i16: r = x[0] * x[1] + x[2]; break;
            case ISA_OP_v_pk_min_i16: r = (int16_t)x[0] < (int16_t)x[1] ? x[0] : x[1]; break;
            case ISA_OP_v_pk_max_i16: r = (int16_t)x[0] > (int16_t)x[1] ? x[0] : x[1]; break;
            case ISA_OP_v_pk_min_u16: r = x[0] < x[1] ? x[0] : x[1]; break;
            case ISA_OP_v_pk_max_u16: r = x[0] > x[1] ? x[0] : x[1]; break;
            case ISA_OP_v_pk_lshlrev_b16: r = x[1] << (x[0] & 15); break;
            case ISA_OP_v_pk_lshrrev_b16: r = x[1] >> (x[0] & 15); break;
            case ISA_OP_v_pk_ashrrev_i16: r = (uint32_t)((int16_t)x[1] >> (x[0] & 15)); break;
            case ISA_OP_v_pk_add_f16: r = ex_d2h(a + b); break;
            case ISA_OP_v_pk_mul_f16: r = ex_d2h(a * b); break;
            case ISA_OP_v_pk_fma_f16: r = ex_d2h(fma(a, b, cc)); break;
            case ISA_OP_v_pk_max_f16: r = ex_d2h(fmax(a, b)); break;
            case ISA_OP_v_pk_min_f16: r = ex_d2h(fmin(a, b)); break;
            default: return EX_UNIMPL;
            }
            out |= (r & 0xFFFF) << (16 * h);
        }
        d[0][l] = out;
    } END
    return EMU_STEP_OK;
}

/* v_dot4_i32_i8 / v_dot4_u32_u8 (gfx9) and v_dot4_i32_iu8 (gfx11, where
 * neg_lo bit i makes source i signed): the four byte products of src0 and
 * src1 added to the 32-bit src2; clamp saturates to the result's range,
 * else the sum wraps. The integer dot products of the quantized matmuls. */
static int dot4(ex_ctx *c)
{
    const isa_inst *in = c->in;
    const unsigned op = in->op;
    ex_src s[3];
    uint32_t *d[1];
    if (prep(c, s, 3, TY_B32) || dst_rows(c, 1, d))
        return EMU_STEP_ERROR;
    const int u = op == ISA_OP_v_dot4_u32_u8;
    const int sa = op == ISA_OP_v_dot4_i32_i8 || (op == ISA_OP_v_dot4_i32_iu8 && (in->neg & 1));
    const int sb = op == ISA_OP_v_dot4_i32_i8 || (op == ISA_OP_v_dot4_i32_iu8 && (in->neg & 2));
    LANES {
        const uint32_t a = ex_s32(&s[0], l), b = ex_s32(&s[1], l), cc = ex_s32(&s[2], l);
        int64_t acc = u ? (int64_t)cc : (int64_t)(int32_t)cc;
        for (int k = 0; k < 4; k++) {
            const uint32_t x = (a >> (8 * k)) & 0xFF, y = (b >> (8 * k)) & 0xFF;
            acc += (int64_t)(sa ? (int8_t)x : (int)x) * (sb ? (int8_t)y : (int)y);
        }
        if (in->clamp)
            acc = u ? (acc > 0xFFFFFFFFll ? 0xFFFFFFFFll : acc)
                    : (acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc);
        d[0][l] = (uint32_t)acc;
    } END
    return EMU_STEP_OK;
}

/* v_fma_mix*: each source is f32, or (op_sel_hi) an f16 half picked by op_sel */
static int mix(ex_ctx *c)
{
    const isa_inst *in = c->in;
    ex_src s[3];
    uint32_t *d[1];
    for (int i = 0; i < 3; i++)
        if (ex_src_prep(c, &in->src[i], (in->op_sel_hi >> i) & 1 ? TY_F16 : TY_F32, &s[i]))
            return EMU_STEP_ERROR;
    if (dst_rows(c, 1, d))
        return EMU_STEP_ERROR;
    LANES {
        double x[3];
        for (int i = 0; i < 3; i++) {
            uint32_t u = ex_s32(&s[i], l);
            double f = (in->op_sel_hi >> i) & 1 ? (double)ex_h2f((uint16_t)(u >> (16 * ((in->op_sel >> i) & 1))))
                                                : (double)ex_f(u);
            if ((in->neg_hi >> i) & 1)
                f = fabs(f);
            if ((in->neg >> i) & 1)
                f = -f;
            x[i] = f;
        }
        if (in->op == ISA_OP_v_fma_mix_f32) {
            d[0][l] = ex_u(clampf(in, fmaf((float)x[0], (float)x[1], (float)x[2])));
        } else {
            double r = fma(x[0], x[1], x[2]);
            if (in->clamp)
                r = isnan(r) ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
            uint32_t h = ex_d2h(r);
            if (in->op == ISA_OP_v_fma_mixlo_f16)
                d[0][l] = (d[0][l] & 0xFFFF0000u) | h;
            else
                d[0][l] = (d[0][l] & 0xFFFFu) | h << 16;
        }
    } END
    return EMU_STEP_OK;
}

int ex_vop3p(ex_ctx *c)
{
    switch (c->in->op) {
    case ISA_OP_v_pk_add_f32: case ISA_OP_v_pk_mul_f32: case ISA_OP_v_pk_fma_f32:
        return pk_f32(c);
    case ISA_OP_v_pk_mov_b32:
        return pk_mov(c);
    case ISA_OP_v_fma_mix_f32: case ISA_OP_v_fma_mixlo_f16: case ISA_OP_v_fma_mixhi_f16:
        return mix(c);
    case ISA_OP_v_dot4_i32_i8: case ISA_OP_v_dot4_u32_u8: case ISA_OP_v_dot4_i32_iu8:
        return dot4(c);
    default:
        return pk_16(c);
    }
}
