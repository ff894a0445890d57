/* decode_gfx.c — binary encodings of gfx9 (gfx90a/gfx942) and gfx11
 * (gfx1100) into isa_inst. Field layouts from the AMD ISA documents
 * (Vega/CDNA3 and RDNA3 "Microcode Formats"), checked against llvm-mc-22. */
#include <stdio.h>
#include <string.h>
#include "isa.h"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Operand from a 9-bit source code (or 8-bit scalar field), n dwords. */
static isa_operand src_opd(emu_isa isa, unsigned code, unsigned n)
{
    isa_operand o = { ISA_OPD_SPECIAL, (uint8_t)n, (uint16_t)code, 0 };
    unsigned nsgpr = isa == EMU_GFX11 ? 106 : 102;
    if (code >= 256) {
        o.kind = ISA_OPD_VGPR;
        o.reg = (uint16_t)(code - 256);
    } else if (code < nsgpr) {
        o.kind = ISA_OPD_SGPR;
        o.reg = (uint16_t)code;
    } else if (code == 106 || code == 107) {
        o.kind = ISA_OPD_VCC;
    } else if (code == 126 || code == 127) {
        o.kind = ISA_OPD_EXEC;
    } else if (code == (isa == EMU_GFX11 ? 125u : 124u)) {
        o.kind = ISA_OPD_M0;
    } else if (isa == EMU_GFX11 && code == 124) {
        o.kind = ISA_OPD_NULL;
    } else if ((code >= 128 && code <= 208) || (code >= 240 && code <= 248)) {
        o.kind = ISA_OPD_INLINE;
    } else if (code == 255) {
        o.kind = ISA_OPD_LITERAL;
    } else if (code == 251) {
        o.kind = ISA_OPD_VCCZ;
    } else if (code == 252) {
        o.kind = ISA_OPD_EXECZ;
    } else if (code == 253) {
        o.kind = ISA_OPD_SCC;
    }
    return o;
}

static isa_operand vreg(unsigned r, unsigned n)
{
    isa_operand o = { ISA_OPD_VGPR, (uint8_t)n, (uint16_t)(256 + r), (uint16_t)r };
    return o;
}

static isa_operand sreg(emu_isa isa, unsigned r, unsigned n)
{
    return src_opd(isa, r, n);
}

/* Format of the instruction starting with dword d0. */
static isa_fmt format_of(emu_isa isa, uint32_t d0, int *seg)
{
    if (!(d0 >> 31)) {
        if ((d0 >> 25) == 0x3F)
            return ISA_FMT_VOP1;
        if ((d0 >> 25) == 0x3E)
            return ISA_FMT_VOPC;
        return ISA_FMT_VOP2;
    }
    if ((d0 >> 30) == 2) {
        if ((d0 >> 28) != 0xB)
            return ISA_FMT_SOP2;
        switch (d0 >> 23) {
        case 0x17D: return ISA_FMT_SOP1;
        case 0x17E: return ISA_FMT_SOPC;
        case 0x17F: return ISA_FMT_SOPP;
        default: return ISA_FMT_SOPK;
        }
    }
    unsigned top6 = d0 >> 26;
    if (top6 == 0x36)
        return ISA_FMT_DS;
    if (top6 == 0x37) {
        *seg = isa == EMU_GFX11 ? (d0 >> 16) & 3 : (d0 >> 14) & 3;
        return *seg == 0 ? ISA_FMT_FLAT : *seg == 1 ? ISA_FMT_SCRATCH : ISA_FMT_GLOBAL;
    }
    if (isa == EMU_GFX11) {
        if (top6 == 0x32)
            return ISA_FMT_VOPD;
        if (top6 == 0x3D)
            return ISA_FMT_SMEM;
        if (top6 == 0x35)
            return ISA_FMT_VOP3;
        if ((d0 >> 24) == 0xCC)
            return ISA_FMT_VOP3P;
    } else {
        if (top6 == 0x30)
            return ISA_FMT_SMEM;
        if ((d0 >> 23) == 0x1A7)
            return ISA_FMT_VOP3P;
        if (top6 == 0x34)
            return ISA_FMT_VOP3;
    }
    return ISA_FMT_INVALID;
}

static unsigned opcode_of(emu_isa isa, isa_fmt f, uint32_t d0)
{
    switch (f) {
    case ISA_FMT_SOP2: return (d0 >> 23) & 0x7F;
    case ISA_FMT_SOPK: return (d0 >> 23) & 0x1F;
    case ISA_FMT_SOP1: return (d0 >> 8) & 0xFF;
    case ISA_FMT_SOPC: case ISA_FMT_SOPP: return (d0 >> 16) & 0x7F;
    case ISA_FMT_SMEM: return (d0 >> 18) & 0xFF;
    case ISA_FMT_VOP1: return (d0 >> 9) & 0xFF;
    case ISA_FMT_VOP2: return (d0 >> 25) & 0x3F;
    case ISA_FMT_VOPC: return (d0 >> 17) & 0xFF;
    case ISA_FMT_VOP3: return (d0 >> 16) & 0x3FF;
    case ISA_FMT_VOP3P: return (d0 >> 16) & 0x7F;
    case ISA_FMT_DS: return isa == EMU_GFX11 ? (d0 >> 18) & 0xFF : (d0 >> 17) & 0xFF;
    case ISA_FMT_FLAT: case ISA_FMT_GLOBAL: case ISA_FMT_SCRATCH: return (d0 >> 18) & 0x7F;
    default: return 0;
    }
}

static int fail(char *err, size_t elen, const char *why, uint64_t pc, const uint8_t *p, size_t avail)
{
    char hex[40] = "";
    size_t k = 0;
    for (size_t i = 0; i < avail && i < 8; i += 4)
        k += (size_t)snprintf(hex + k, sizeof hex - k, "%s%08X", i ? " " : "", rd32(p + i));
    snprintf(err, elen, "%s at pc 0x%llx: %s", why, (unsigned long long)pc, hex);
    return -1;
}

/* Reads the trailing 32-bit literal if any source uses one. */
static int take_literal(isa_inst *in, const uint8_t *p, size_t avail)
{
    for (int i = 0; i < in->nsrc; i++)
        if (in->src[i].kind == ISA_OPD_LITERAL) {
            if (avail < (size_t)in->size + 4)
                return -1;
            in->literal = rd32(p + in->size);
            in->size += 4;
            return 0;
        }
    return 0;
}

int isa_decode_vopd(isa_inst *in, uint32_t d0, uint32_t d1, const uint8_t *litp, size_t avail);

/* gfx11 true16 e32 forms: bit 7 of a 16-bit VGPR operand's number picks
 * the high half (template role ".l" marks 16-bit operands). */
static void fold_t16(isa_inst *in)
{
    const char *t = in->info->tmpl;
    isa_operand *o[4] = { &in->dst, &in->src[0], &in->src[1], &in->src[2] };
    const char roles[4] = { 'D', '0', '1', '2' };
    for (int i = 0; i < 4; i++) {
        const char *r = t;
        while ((r = strchr(r, roles[i])) && r[1] != '.')
            r++;
        if (!r || o[i]->kind != ISA_OPD_VGPR)
            continue;
        if (o[i]->reg & 0x80) {
            o[i]->reg &= 0x7F;
            o[i]->code = (uint16_t)(256 + o[i]->reg);
            in->hi16 |= (uint8_t)(i == 0 ? 8 : 1 << (i - 1));
        }
    }
}

static int sext(uint32_t v, int bits)
{
    return (int)(v << (32 - bits)) >> (32 - bits);
}

int isa_decode(emu_isa isa, const uint8_t *code, size_t code_size, uint64_t pc,
               isa_inst *in, char *err, size_t elen)
{
    memset(in, 0, sizeof *in);
    emu_isa tabs = isa; /* which opcode map; the rest only tells gfx9 from gfx11 */
    if (isa == ISA_GFX90A)
        isa = EMU_GFX9;
    if (pc + 4 > code_size || (pc & 3))
        return fail(err, elen, "pc outside the code", pc, code, 0);
    const uint8_t *p = code + pc;
    size_t avail = code_size - pc;
    uint32_t d0 = rd32(p), d1 = avail >= 8 ? rd32(p + 4) : 0;
    int seg = 0;
    isa_fmt f = format_of(isa, d0, &seg);
    in->raw[0] = d0;
    in->fmt = (uint8_t)f;
    if (f == ISA_FMT_INVALID && isa == EMU_GFX11 && (d0 >> 26) == 0x38 && avail >= 8 && d1 == 0 &&
        (d0 & 0x3FFFF) == 0) {
        /* buffer_gl0_inv / buffer_gl1_inv (MUBUF, no operands), which gfx11
         * places after a barrier: the emulator's memory is coherent, so
         * they run as s_nop. No other MUBUF instruction is decoded. */
        static const isa_opinfo gl0 = { "buffer_gl0_inv", ISA_OP_s_nop, ISA_FMT_SOPP, 0x2B, { 0 }, "" };
        static const isa_opinfo gl1 = { "buffer_gl1_inv", ISA_OP_s_nop, ISA_FMT_SOPP, 0x2C, { 0 }, "" };
        const unsigned opc = (d0 >> 18) & 0xFF;
        if (opc == 0x2B || opc == 0x2C) {
            in->info = opc == 0x2B ? &gl0 : &gl1;
            in->op = ISA_OP_s_nop, in->fmt = ISA_FMT_SOPP, in->size = 8, in->raw[1] = d1;
            return 0;
        }
    }
    if (f == ISA_FMT_INVALID)
        return fail(err, elen, "unknown encoding", pc, p, avail);
    if (f == ISA_FMT_VOPD) {
        static const isa_opinfo vopd_info = { "v_dual", ISA_OP_v_dual, ISA_FMT_VOPD, 0, { 0 }, "" };
        if (avail < 8 || isa_decode_vopd(in, d0, d1, p + 8, avail))
            return fail(err, elen, "bad VOPD", pc, p, avail);
        in->info = &vopd_info;
        for (unsigned k = 1; k < in->size / 4 && k < 3; k++)
            in->raw[k] = rd32(p + 4 * k);
        return 0;
    }
    unsigned opc = opcode_of(isa, f, d0);
    const isa_opinfo *info = isa_lookup(tabs, f, opc);
    if (!info)
        return fail(err, elen, "unknown opcode", pc, p, avail);
    in->info = info;
    in->op = info->op;
    in->size = 4;
    const uint8_t *w = info->w;
    switch (f) {
    case ISA_FMT_SOP2:
        in->dst = sreg(isa, (d0 >> 16) & 0x7F, w[0]);
        in->src[0] = src_opd(isa, d0 & 0xFF, w[2]);
        in->src[1] = src_opd(isa, (d0 >> 8) & 0xFF, w[3]);
        in->nsrc = 2;
        if (take_literal(in, p, avail))
            return fail(err, elen, "truncated literal", pc, p, avail);
        break;
    case ISA_FMT_SOPK:
        in->dst = sreg(isa, (d0 >> 16) & 0x7F, w[0]);
        in->simm16 = (int16_t)(d0 & 0xFFFF);
        break;
    case ISA_FMT_SOP1:
        in->dst = sreg(isa, (d0 >> 16) & 0x7F, w[0]);
        in->src[0] = src_opd(isa, d0 & 0xFF, w[2]);
        in->nsrc = w[2] ? 1 : 0;
        if (take_literal(in, p, avail))
            return fail(err, elen, "truncated literal", pc, p, avail);
        break;
    case ISA_FMT_SOPC:
        in->src[0] = src_opd(isa, d0 & 0xFF, w[2]);
        in->src[1] = src_opd(isa, (d0 >> 8) & 0xFF, w[3]);
        in->nsrc = 2;
        if (take_literal(in, p, avail))
            return fail(err, elen, "truncated literal", pc, p, avail);
        break;
    case ISA_FMT_SOPP:
        in->simm16 = (int16_t)(d0 & 0xFFFF);
        break;
    case ISA_FMT_SMEM:
        if (avail < 8)
            return fail(err, elen, "truncated", pc, p, avail);
        in->size = 8;
        in->raw[1] = d1;
        in->dst = sreg(isa, (d0 >> 6) & 0x7F, w[0]);
        in->src[0] = sreg(isa, (d0 & 0x3F) << 1, 2);
        in->nsrc = 1;
        if (isa == EMU_GFX11) {
            in->dlc = (d0 >> 13) & 1;
            in->glc = (d0 >> 14) & 1;
            in->offset = sext(d1 & 0x1FFFFF, 21);
            in->smem_imm = 1;
            if (((d1 >> 25) & 0x7F) != 124) {
                in->src[1] = sreg(isa, (d1 >> 25) & 0x7F, 1);
                in->nsrc = 2;
            }
        } else {
            in->glc = (d0 >> 16) & 1;
            in->smem_imm = (d0 >> 17) & 1;
            in->offset = sext(d1 & 0x1FFFFF, 21);
            if ((d0 >> 14) & 1) { /* SOE: soffset sgpr as well */
                in->src[1] = sreg(isa, (d1 >> 25) & 0x7F, 1);
                in->nsrc = 2;
            } else if (!in->smem_imm) { /* offset field names an sgpr */
                in->src[1] = sreg(isa, d1 & 0xFF, 1);
                in->nsrc = 2;
                in->offset = 0;
            }
        }
        break;
    case ISA_FMT_VOP1: case ISA_FMT_VOP2: case ISA_FMT_VOPC: {
        unsigned s0 = d0 & 0x1FF;
        in->dst = info->tmpl[0] == 's' ? sreg(isa, (d0 >> 17) & 0xFF, w[0]) : vreg((d0 >> 17) & 0xFF, w[0]);
        in->src[0] = src_opd(isa, s0, w[2]);
        in->nsrc = 1;
        if (f != ISA_FMT_VOP1) {
            in->src[1] = vreg((d0 >> 9) & 0xFF, w[3]);
            in->nsrc = 2;
        }
        if (f == ISA_FMT_VOPC)
            in->dst.kind = ISA_OPD_VCC, in->dst.n = isa == EMU_GFX11 ? 1 : 2;
        if (s0 == 249 && isa == EMU_GFX9) { /* SDWA */
            if (avail < 8)
                return fail(err, elen, "truncated", pc, p, avail);
            in->raw[1] = d1;
            in->size = 8;
            in->enc = ISA_ENC_SDWA;
            in->src[0] = (d1 >> 23) & 1 ? src_opd(isa, d1 & 0xFF, w[2]) : vreg(d1 & 0xFF, w[2]);
            in->sdwa_src_sel[0] = (d1 >> 16) & 7;
            in->sdwa_sext = (uint8_t)(((d1 >> 19) & 1) | ((d1 >> 27) & 1) << 1);
            in->sdwa_neg = (uint8_t)(((d1 >> 20) & 1) | ((d1 >> 28) & 1) << 1);
            in->sdwa_abs = (uint8_t)(((d1 >> 21) & 1) | ((d1 >> 29) & 1) << 1);
            in->sdwa_src_sel[1] = (d1 >> 24) & 7;
            if ((d1 >> 31) & 1)
                in->src[1] = src_opd(isa, (d0 >> 9) & 0xFF, w[3]);
            if (f == ISA_FMT_VOPC) {
                in->sdwa_dst_sel = 6;
                if ((d1 >> 15) & 1)
                    in->dst = sreg(isa, (d1 >> 8) & 0x7F, 2);
            } else {
                in->sdwa_dst_sel = (d1 >> 8) & 7;
                in->sdwa_dst_unused = (d1 >> 11) & 3;
                in->clamp = (d1 >> 13) & 1;
                in->omod = (d1 >> 14) & 3;
            }
        } else if (s0 == 250) { /* DPP16 */
            if (avail < 8)
                return fail(err, elen, "truncated", pc, p, avail);
            in->raw[1] = d1;
            in->size = 8;
            in->enc = ISA_ENC_DPP;
            in->src[0] = vreg(d1 & 0xFF, w[2]);
            in->dpp_ctrl = (d1 >> 8) & 0x1FF;
            in->fi = (d1 >> 18) & 1;
            in->bound_ctrl = (d1 >> 19) & 1;
            in->neg = (uint8_t)(((d1 >> 20) & 1) | ((d1 >> 22) & 1) << 1);
            in->abs = (uint8_t)(((d1 >> 21) & 1) | ((d1 >> 23) & 1) << 1);
            in->bank_mask = (d1 >> 24) & 0xF;
            in->row_mask = (d1 >> 28) & 0xF;
        } else if (isa == EMU_GFX11 && (s0 == 233 || s0 == 234)) { /* DPP8 */
            if (avail < 8)
                return fail(err, elen, "truncated", pc, p, avail);
            in->raw[1] = d1;
            in->size = 8;
            in->enc = ISA_ENC_DPP8;
            in->fi = s0 == 234;
            in->src[0] = vreg(d1 & 0xFF, w[2]);
            in->dpp8 = d1 >> 8;
        } else if (strchr(info->tmpl, 'L')) { /* madmk/madak: K follows */
            if (avail < 8)
                return fail(err, elen, "truncated", pc, p, avail);
            in->literal = d1;
            in->size = 8;
        } else if (take_literal(in, p, avail)) {
            return fail(err, elen, "truncated literal", pc, p, avail);
        }
        if (isa == EMU_GFX11 && in->enc != ISA_ENC_DPP && in->enc != ISA_ENC_DPP8)
            fold_t16(in);
        break;
    }
    case ISA_FMT_VOP3: case ISA_FMT_VOP3P: {
        if (avail < 8)
            return fail(err, elen, "truncated", pc, p, avail);
        in->raw[1] = d1;
        in->size = 8;
        in->dst = vreg(d0 & 0xFF, w[0]);
        if (info->tmpl[0] == 's')
            in->dst = sreg(isa, d0 & 0xFF, w[0]);
        in->nsrc = (uint8_t)(w[4] ? 3 : w[3] ? 2 : w[2] ? 1 : 0);
        in->src[0] = src_opd(isa, d1 & 0x1FF, w[2]);
        in->src[1] = src_opd(isa, (d1 >> 9) & 0x1FF, w[3]);
        in->src[2] = src_opd(isa, (d1 >> 18) & 0x1FF, w[4]);
        in->neg = (d1 >> 29) & 7;
        in->clamp = (d0 >> 15) & 1;
        if (f == ISA_FMT_VOP3P) {
            in->neg_hi = (d0 >> 8) & 7;
            in->op_sel = (d0 >> 11) & 7;
            in->op_sel_hi = (uint8_t)(((d1 >> 27) & 3) | ((d0 >> 14) & 1) << 2);
        } else if (w[1]) { /* VOP3b: carry-out / scale sdst */
            in->sdst = sreg(isa, (d0 >> 8) & 0x7F, w[1]);
            in->omod = (d1 >> 27) & 3;
        } else {
            in->abs = (d0 >> 8) & 7;
            in->op_sel = (d0 >> 11) & 0xF;
            in->omod = (d1 >> 27) & 3;
            if (isa == EMU_GFX11)
                in->hi16 = in->op_sel;
        }
        if (isa == EMU_GFX11 && f == ISA_FMT_VOP3 && ((d1 & 0x1FF) == 250 || (d1 & 0x1FF) == 233 || (d1 & 0x1FF) == 234)) {
            if (avail < 12)
                return fail(err, elen, "truncated", pc, p, avail);
            uint32_t d2 = rd32(p + 8);
            in->size = 12;
            in->src[0] = vreg(d2 & 0xFF, w[2]);
            if ((d1 & 0x1FF) == 250) {
                in->enc = ISA_ENC_DPP;
                in->dpp_ctrl = (d2 >> 8) & 0x1FF;
                in->fi = (d2 >> 18) & 1;
                in->bound_ctrl = (d2 >> 19) & 1;
                in->bank_mask = (d2 >> 24) & 0xF;
                in->row_mask = (d2 >> 28) & 0xF;
            } else {
                in->enc = ISA_ENC_DPP8;
                in->fi = (d1 & 0x1FF) == 234;
                in->dpp8 = d2 >> 8;
            }
        } else if (take_literal(in, p, avail)) {
            return fail(err, elen, "truncated literal", pc, p, avail);
        }
        break;
    }
    case ISA_FMT_DS:
        if (avail < 8)
            return fail(err, elen, "truncated", pc, p, avail);
        in->raw[1] = d1;
        in->size = 8;
        in->offset = d0 & 0xFF;
        in->offset1 = (d0 >> 8) & 0xFF;
        in->gds = isa == EMU_GFX11 ? (d0 >> 17) & 1 : (d0 >> 16) & 1;
        in->dst = vreg(d1 >> 24, w[0]);
        in->src[0] = vreg(d1 & 0xFF, w[2]);
        in->src[1] = vreg((d1 >> 8) & 0xFF, w[3]);
        in->src[2] = vreg((d1 >> 16) & 0xFF, w[4]);
        in->nsrc = (uint8_t)(w[4] ? 3 : w[3] ? 2 : w[2] ? 1 : 0);
        break;
    case ISA_FMT_FLAT: case ISA_FMT_GLOBAL: case ISA_FMT_SCRATCH: {
        if (avail < 8)
            return fail(err, elen, "truncated", pc, p, avail);
        in->raw[1] = d1;
        in->size = 8;
        unsigned saddr = (d1 >> 16) & 0x7F, off = isa == EMU_GFX11 ? 124 : 127;
        in->dst = vreg(d1 >> 24, w[0]);
        int has_saddr = f != ISA_FMT_FLAT && saddr != off;
        if (f == ISA_FMT_SCRATCH && isa == EMU_GFX9 && ((d0 >> 13) & 1) == 0 && saddr == off)
            has_saddr = 0;
        in->src[0] = vreg(d1 & 0xFF, f == ISA_FMT_SCRATCH ? 1 : has_saddr ? 1 : 2);
        if (f == ISA_FMT_SCRATCH && isa == EMU_GFX11 && !((d1 >> 23) & 1))
            in->src[0].kind = ISA_OPD_OFF;
        in->src[1] = vreg((d1 >> 8) & 0xFF, w[3]);
        in->src[2] = has_saddr ? sreg(isa, saddr, f == ISA_FMT_SCRATCH ? 1 : 2)
                               : (isa_operand){ ISA_OPD_OFF, 0, (uint16_t)saddr, 0 };
        in->nsrc = 3;
        if (isa == EMU_GFX11) {
            in->offset = f == ISA_FMT_FLAT ? (int)(d0 & 0xFFF) : sext(d0 & 0x1FFF, 13);
            in->dlc = (d0 >> 13) & 1;
            in->glc = (d0 >> 14) & 1;
            in->slc = (d0 >> 15) & 1;
        } else {
            in->offset = f == ISA_FMT_FLAT ? (int)(d0 & 0xFFF) : sext(d0 & 0x1FFF, 13);
            in->lds = (d0 >> 13) & 1;
            in->glc = (d0 >> 16) & 1;  /* sc0 on gfx942 */
            in->slc = (d0 >> 17) & 1;  /* nt on gfx942  */
            in->nt = (d0 >> 25) & 1;   /* sc1 on gfx942, scc on gfx90a */
        }
        break;
    }
    default:
        return fail(err, elen, "unsupported format", pc, p, avail);
    }
    if (pc + in->size > code_size)
        return fail(err, elen, "truncated", pc, p, avail);
    for (unsigned k = 1; k < in->size / 4 && k < 3; k++)
        in->raw[k] = rd32(p + 4 * k);
    return 0;
}
