/* decode_vopd.c — gfx11 VOPD (dual issue): two VALU ops in one 64-bit
 * word, X from opx[25:22], Y from opy[21:17]. Table from the RDNA3 ISA
 * document, checked with llvm-mc-22 --disassemble. */
#include <stdio.h>
#include "isa.h"

typedef struct { const char *name; uint16_t op; uint8_t nsrc; uint8_t k; } vopd_op;
/* k: 0 none, 1 = fmaak (K is src2), 2 = fmamk (K is src1, vsrc1 moves to src2) */
static const vopd_op ops[19] = {
    [0] = { "v_dual_fmac_f32", ISA_OP_v_fmac_f32, 2, 0 },
    [1] = { "v_dual_fmaak_f32", ISA_OP_v_fmaak_f32, 2, 1 },
    [2] = { "v_dual_fmamk_f32", ISA_OP_v_fmamk_f32, 2, 2 },
    [3] = { "v_dual_mul_f32", ISA_OP_v_mul_f32, 2, 0 },
    [4] = { "v_dual_add_f32", ISA_OP_v_add_f32, 2, 0 },
    [5] = { "v_dual_sub_f32", ISA_OP_v_sub_f32, 2, 0 },
    [6] = { "v_dual_subrev_f32", ISA_OP_v_subrev_f32, 2, 0 },
    [7] = { "v_dual_mul_dx9_zero_f32", ISA_OP_v_mul_dx9_zero_f32, 2, 0 },
    [8] = { "v_dual_mov_b32", ISA_OP_v_mov_b32, 1, 0 },
    [9] = { "v_dual_cndmask_b32", ISA_OP_v_cndmask_b32, 2, 0 },
    [10] = { "v_dual_max_f32", ISA_OP_v_max_f32, 2, 0 },
    [11] = { "v_dual_min_f32", ISA_OP_v_min_f32, 2, 0 },
    [12] = { "v_dual_dot2acc_f32_f16", ISA_OP_v_dot2acc_f32_f16, 2, 0 },
    [13] = { "v_dual_dot2acc_f32_bf16", ISA_OP_v_dot2_f32_bf16, 2, 0 },
    [16] = { "v_dual_add_nc_u32", ISA_OP_v_add_u32, 2, 0 },
    [17] = { "v_dual_lshlrev_b32", ISA_OP_v_lshlrev_b32, 2, 0 },
    [18] = { "v_dual_and_b32", ISA_OP_v_and_b32, 2, 0 },
};

static isa_operand src9(unsigned code)
{
    isa_operand o = { ISA_OPD_SPECIAL, 1, (uint16_t)code, 0 };
    if (code >= 256)
        o.kind = ISA_OPD_VGPR, o.reg = (uint16_t)(code - 256);
    else if (code < 106)
        o.kind = ISA_OPD_SGPR, o.reg = (uint16_t)code;
    else if (code == 106 || code == 107)
        o.kind = ISA_OPD_VCC;
    else if (code == 126 || code == 127)
        o.kind = ISA_OPD_EXEC;
    else if (code == 125)
        o.kind = ISA_OPD_M0;
    else if (code == 124)
        o.kind = ISA_OPD_NULL;
    else if ((code >= 128 && code <= 208) || (code >= 240 && code <= 248))
        o.kind = ISA_OPD_INLINE;
    else if (code == 255)
        o.kind = ISA_OPD_LITERAL;
    return o;
}

static isa_operand v(unsigned r)
{
    isa_operand o = { ISA_OPD_VGPR, 1, (uint16_t)(256 + r), (uint16_t)r };
    return o;
}

/* d0/d1: the two dwords; lit: the dword after them (if present). */
int isa_decode_vopd(isa_inst *in, uint32_t d0, uint32_t d1, const uint8_t *litp, size_t avail)
{
    unsigned ox = (d0 >> 22) & 0xF, oy = (d0 >> 17) & 0x1F;
    if (ox >= 19 || oy >= 19 || !ops[ox].name || !ops[oy].name || ox > 13)
        return -1;
    unsigned vdx = d1 >> 24, vdy = (((d1 >> 17) & 0x7F) << 1) | ((vdx & 1) ^ 1);
    unsigned sx[2] = { d0 & 0x1FF, 256 + ((d0 >> 9) & 0xFF) };
    unsigned sy[2] = { d1 & 0x1FF, 256 + ((d1 >> 9) & 0xFF) };
    const vopd_op *o[2] = { &ops[ox], &ops[oy] };
    unsigned dst[2] = { vdx, vdy };
    unsigned *s[2] = { sx, sy };
    int uses_lit = 0;
    in->size = 8;
    for (int h = 0; h < 2; h++) {
        in->vopd[h].op = o[h]->op;
        in->vopd[h].name = o[h]->name;
        in->vopd[h].dst = v(dst[h]);
        in->vopd[h].src[0] = src9(s[h][0]);
        in->vopd[h].nsrc = o[h]->nsrc;
        if (o[h]->nsrc > 1)
            in->vopd[h].src[1] = src9(s[h][1]);
        if (o[h]->k) { /* K literal: src2 for fmaak, src1 for fmamk */
            isa_operand k = { ISA_OPD_LITERAL, 1, 255, 0 };
            if (o[h]->k == 1) {
                in->vopd[h].src[2] = k;
            } else {
                in->vopd[h].src[2] = in->vopd[h].src[1];
                in->vopd[h].src[1] = k;
            }
            in->vopd[h].nsrc = 3;
            uses_lit = 1;
        }
        for (int i = 0; i < in->vopd[h].nsrc; i++)
            if (in->vopd[h].src[i].kind == ISA_OPD_LITERAL)
                uses_lit = 1;
    }
    if (uses_lit) {
        if (avail < 12)
            return -1;
        in->literal = (uint32_t)litp[0] | (uint32_t)litp[1] << 8 | (uint32_t)litp[2] << 16 | (uint32_t)litp[3] << 24;
        in->size = 12;
    }
    in->op = ISA_OP_v_dual;
    in->fmt = ISA_FMT_VOPD;
    return 0;
}
