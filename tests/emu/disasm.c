/* disasm.c — prints a decoded instruction in llvm-objdump-22's syntax
 * (mnemonic, operands, modifiers; no trailing comment). The operand order
 * comes from the opcode table's template (what llvm-mc printed for that
 * opcode); modifiers are printed here, per format. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "isa.h"

static int gfx940; /* cache-bit spelling of the instruction being printed */

typedef struct { char *b; size_t n, k; } out_t;

static void put(out_t *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (o->k < o->n) {
        int r = vsnprintf(o->b + o->k, o->n - o->k, fmt, ap);
        if (r > 0)
            o->k += (size_t)r;
        if (o->k > o->n)
            o->k = o->n;
    }
    va_end(ap);
}

static void regs(out_t *o, char c, unsigned r, unsigned n)
{
    if (n <= 1)
        put(o, "%c%u", c, r);
    else
        put(o, "%c[%u:%u]", c, r, r + n - 1);
}

static const char *const fconst[9] = { "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494" };

/* An f64 operand's literal is the high half of the double: objdump names
 * the doubles an inline constant gives (0 prints as an integer). */
static const char *f64_literal_name(uint32_t hi)
{
    static const uint32_t h[8] = { 0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000,
                                   0x40000000, 0xc0000000, 0x40100000, 0xc0100000 };
    if (hi == 0)
        return "0";
    for (int k = 0; k < 8; k++)
        if (hi == h[k])
            return fconst[k];
    return NULL;
}

/* The source type of an op: its name's last type token (v_cvt_f16_f32:
 * f32), as 'f' 16 for f16; 0 when none. */
static int src_type(const char *nm, char *kind)
{
    int bits = 0;
    for (const char *c = nm; (c = strchr(c, '_')) != NULL; c++)
        if (strchr("fuib", c[1]) && (c[2] == '1' || c[2] == '3' || c[2] == '6') && (c[3] == '6' || c[3] == '2' || c[3] == '4')
            && (c[4] == 0 || c[4] == '_'))
            *kind = c[1], bits = (c[2] - '0') * 10 + (c[3] - '0');
    return bits;
}

/* A 32-bit literal whose value an inline constant could have given
 * (objdump 22 prints it as lit(V) so that it reassembles as a literal):
 * integers -16..64 (0..64 for a 64-bit operand, whose literal is
 * zero-extended), and the float constants of a 32-bit operand (any type
 * but 16-bit integers) or of an f16 one. f64 operands: f64_literal_name. */
static int literal_is_inline(const isa_inst *in, const isa_operand *p, int f64)
{
    static const uint32_t f32c[9] = { 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                      0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983 };
    static const uint16_t f16c[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118 };
    uint32_t v = in->literal;
    if (f64)
        return 0;
    if (p->n == 2)
        return v <= 64;
    if ((int32_t)v >= -16 && (int32_t)v <= 64)
        return 1;
    char kind = 0;
    int bits = src_type(in->info->name, &kind);
    if (bits == 16 && kind != 'f')
        return 0;
    for (int k = 0; k < 9; k++)
        if (bits == 16 ? v == f16c[k] : v == f32c[k])
            return 1;
    return 0;
}

/* An operand without modifiers. f64: inline 1/(2pi) prints in full. */
static void opd(out_t *o, emu_isa isa, const isa_inst *in, const isa_operand *p, int f64, int hi, int t16)
{
    unsigned c = p->code, n = p->n ? p->n : 1;
    switch (p->kind) {
    case ISA_OPD_SGPR: regs(o, 's', p->reg, n); return;
    case ISA_OPD_VGPR:
        regs(o, 'v', p->reg, n);
        if (t16)
            put(o, hi ? ".h" : ".l");
        return;
    case ISA_OPD_AGPR: regs(o, 'a', p->reg, n); return;
    case ISA_OPD_VCC: put(o, n == 2 ? "vcc" : c == 106 ? "vcc_lo" : "vcc_hi"); return;
    case ISA_OPD_EXEC: put(o, n == 2 ? "exec" : c == 126 ? "exec_lo" : "exec_hi"); return;
    case ISA_OPD_M0: put(o, "m0"); return;
    case ISA_OPD_NULL: put(o, "null"); return;
    case ISA_OPD_SCC: put(o, "scc"); return;
    case ISA_OPD_VCCZ: put(o, "src_vccz"); return;
    case ISA_OPD_EXECZ: put(o, "src_execz"); return;
    case ISA_OPD_OFF: put(o, "off"); return;
    case ISA_OPD_LITERAL:
        if (f64 && f64_literal_name(in->literal))
            put(o, "%s", f64_literal_name(in->literal)); /* the high half of a double */
        else if (literal_is_inline(in, p, f64))
            put(o, "lit(0x%x)", in->literal); /* objdump keeps the encoding visible */
        else
            put(o, "0x%x", t16 ? in->literal & 0xFFFF : in->literal);
        return;
    case ISA_OPD_INLINE:
        if (c <= 192)
            put(o, "%d", (int)c - 128);
        else if (c <= 208)
            put(o, "%d", 192 - (int)c);
        else if (c == 248 && f64)
            put(o, "0.15915494309189532");
        else
            put(o, "%s", fconst[c - 240]);
        return;
    default:
        break;
    }
    if (c >= 108 && c <= 123) {
        if (n <= 1)
            put(o, "ttmp%u", c - 108);
        else
            put(o, "ttmp[%u:%u]", c - 108, c - 108 + n - 1);
    } else if (isa == EMU_GFX9 && (c == 102 || c == 103)) {
        put(o, n == 2 ? "flat_scratch" : c == 102 ? "flat_scratch_lo" : "flat_scratch_hi");
    } else if (isa == EMU_GFX9 && (c == 104 || c == 105)) {
        put(o, n == 2 ? "xnack_mask" : c == 104 ? "xnack_mask_lo" : "xnack_mask_hi");
    } else if (c >= 235 && c <= 239) {
        static const char *const sn[5] = { "src_shared_base", "src_shared_limit", "src_private_base",
                                           "src_private_limit", "src_pops_exiting_wave_id" };
        put(o, "%s", sn[c - 235]);
    } else if (c == 254) {
        put(o, "src_lds_direct");
    } else {
        put(o, "<bad operand %u>", c);
    }
}

static const char *const selname[8] = { "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "?" };

/* Does the name end in f64-ish type (for the 1/(2pi) constant)? */
static int is_f64(const isa_inst *in, const isa_operand *p)
{
    return p->n == 2 && strstr(in->info->name, "f64") != NULL;
}

/* Source i with its modifiers (VOP3 neg/abs, SDWA sext/neg/abs, DPP). */
static void src(out_t *o, emu_isa isa, const isa_inst *in, int i, int t16)
{
    const isa_operand *p = &in->src[i];
    int neg = 0, abs = 0, sx = 0, f64 = is_f64(in, p);
    int hi = (in->hi16 >> i) & 1;
    if (in->enc == ISA_ENC_SDWA) {
        neg = (in->sdwa_neg >> i) & 1, abs = (in->sdwa_abs >> i) & 1, sx = (in->sdwa_sext >> i) & 1;
    } else if (in->fmt == ISA_FMT_VOP3P) {
        const char *nm = in->info->name;
        if (strstr(nm, "_mix")) /* mix ops: neg_lo = neg, neg_hi = abs */
            neg = (in->neg >> i) & 1, abs = (in->neg_hi >> i) & 1;
    } else if (in->fmt == ISA_FMT_VOP3 || in->enc == ISA_ENC_DPP || in->enc == ISA_ENC_DPP8) {
        neg = (in->neg >> i) & 1, abs = (in->abs >> i) & 1;
    }
    if (sx)
        put(o, "sext(");
    if (neg)
        put(o, "-");
    if (abs)
        put(o, "|");
    opd(o, isa, in, p, f64, hi, t16);
    if (abs)
        put(o, "|");
    if (sx)
        put(o, ")");
}

static void bits_list(out_t *o, const char *name, unsigned v, int n)
{
    put(o, " %s:[", name);
    for (int i = 0; i < n; i++)
        put(o, "%s%u", i ? "," : "", (v >> i) & 1);
    put(o, "]");
}

static void dpp_mods(out_t *o, emu_isa isa, const isa_inst *in)
{
    if (in->enc == ISA_ENC_DPP8) {
        put(o, " dpp8:[");
        for (int i = 0; i < 8; i++)
            put(o, "%s%u", i ? "," : "", (in->dpp8 >> (3 * i)) & 7);
        put(o, "]");
        if (in->fi)
            put(o, " fi:1");
        return;
    }
    unsigned c = in->dpp_ctrl;
    if (c <= 0xFF)
        put(o, " quad_perm:[%u,%u,%u,%u]", c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3);
    else if (c >= 0x101 && c <= 0x10F)
        put(o, " row_shl:%u", c & 0xF);
    else if (c >= 0x111 && c <= 0x11F)
        put(o, " row_shr:%u", c & 0xF);
    else if (c >= 0x121 && c <= 0x12F)
        put(o, " row_ror:%u", c & 0xF);
    else if (c == 0x130)
        put(o, " wave_shl:1");
    else if (c == 0x134)
        put(o, " wave_rol:1");
    else if (c == 0x138)
        put(o, " wave_shr:1");
    else if (c == 0x13C)
        put(o, " wave_ror:1");
    else if (c == 0x140)
        put(o, " row_mirror");
    else if (c == 0x141)
        put(o, " row_half_mirror");
    else if (c == 0x142)
        put(o, " row_bcast:15");
    else if (c == 0x143)
        put(o, " row_bcast:31");
    else if (c >= 0x150 && c <= 0x15F)
        put(o, " row_share:%u", c & 0xF);
    else if (c >= 0x160 && c <= 0x16F)
        put(o, " row_xmask:%u", c & 0xF);
    else
        put(o, " dpp_ctrl:0x%x", c);
    put(o, " row_mask:0x%x bank_mask:0x%x", in->row_mask, in->bank_mask);
    if (in->bound_ctrl)
        put(o, " bound_ctrl:1");
    if (in->fi && isa == EMU_GFX11)
        put(o, " fi:1");
}

static void waitcnt(out_t *o, emu_isa isa, unsigned s)
{
    unsigned vm, ex, lg, vmmax = 63, lgmax = isa == EMU_GFX11 ? 63 : 15;
    if (isa == EMU_GFX11)
        ex = s & 7, lg = (s >> 4) & 0x3F, vm = (s >> 10) & 0x3F;
    else
        vm = (s & 0xF) | ((s >> 14) & 3) << 4, ex = (s >> 4) & 7, lg = (s >> 8) & 0xF;
    int any = 0;
    if (vm != vmmax)
        put(o, " vmcnt(%u)", vm), any = 1;
    if (ex != 7)
        put(o, " expcnt(%u)", ex), any = 1;
    if (lg != lgmax)
        put(o, " lgkmcnt(%u)", lg), any = 1;
    if (!any)
        put(o, " vmcnt(%u) expcnt(%u) lgkmcnt(%u)", vm, ex, lg);
}

static void delay_alu(out_t *o, unsigned s)
{
    static const char *const id[12] = { "NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4",
                                        "TRANS32_DEP_1", "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
                                        "SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3" };
    static const char *const sk[6] = { "SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4" };
    unsigned i0 = s & 0xF, skip = (s >> 4) & 7, i1 = (s >> 7) & 0xF;
    const char *sep = " ";
    if (i0) {
        put(o, "%sinstid0(%s)", sep, i0 < 12 ? id[i0] : "?");
        sep = " | ";
    }
    if (skip) {
        put(o, "%sinstskip(%s)", sep, skip < 6 ? sk[skip] : "?");
        sep = " | ";
    }
    if (i1)
        put(o, "%sinstid1(%s)", sep, i1 < 12 ? id[i1] : "?");
}

static void depctr(out_t *o, unsigned s)
{
    /* fields not at their all-ones default are printed */
    struct { const char *n; unsigned sh, w; } f[] = {
        { "depctr_hold_cnt", 7, 1 }, { "depctr_sa_sdst", 0, 1 }, { "depctr_va_vdst", 12, 4 },
        { "depctr_va_sdst", 9, 3 }, { "depctr_va_ssrc", 8, 1 }, { "depctr_va_vcc", 1, 1 },
        { "depctr_vm_vsrc", 2, 3 },
    };
    int any = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        unsigned v = (s >> f[i].sh) & ((1u << f[i].w) - 1);
        if (v != (1u << f[i].w) - 1)
            put(o, "%s%s(%u)", any ? " " : " ", f[i].n, v), any = 1;
    }
    if (!any)
        put(o, " 0x%x", s);
}

static void sopp(out_t *o, emu_isa isa, const isa_inst *in)
{
    const char *nm = in->info->name;
    unsigned s = (uint16_t)in->simm16;
    if (!strcmp(nm, "s_waitcnt"))
        waitcnt(o, isa, s);
    else if (!strcmp(nm, "s_delay_alu"))
        delay_alu(o, s);
    else if (!strcmp(nm, "s_waitcnt_depctr"))
        depctr(o, s);
    else if (!strcmp(nm, "s_sendmsg") && isa == EMU_GFX11 && s == 3)
        put(o, " sendmsg(MSG_DEALLOC_VGPRS)");
    else if (!strcmp(nm, "s_clause") || !strcmp(nm, "s_set_inst_prefetch_distance"))
        put(o, " 0x%x", s);
    else if (!strncmp(nm, "s_cbranch", 9) || !strcmp(nm, "s_branch"))
        put(o, " %u", s);
    else if (in->info->tmpl[0] == 'K')
        put(o, " %u", s);
}

static void flat_cache(out_t *o, emu_isa isa, const isa_inst *in)
{
    if (isa == EMU_GFX11) {
        if (in->glc) put(o, " glc");
        if (in->slc) put(o, " slc");
        if (in->dlc) put(o, " dlc");
    } else if (gfx940) {
        if (in->glc) put(o, " sc0");
        if (in->nt) put(o, " sc1");
        if (in->slc) put(o, " nt");
    } else {
        if (in->glc) put(o, " glc");
        if (in->slc) put(o, " slc");
        if (in->nt) put(o, " scc");
    }
}

static const char *name_of(const isa_inst *in, char *tmp, size_t n)
{
    const char *nm = in->info->name;
    if (in->enc == ISA_ENC_PLAIN)
        return nm;
    size_t l = strlen(nm);
    const char *suf = in->enc == ISA_ENC_SDWA ? "_sdwa" : "_dpp";
    if (in->fmt != ISA_FMT_VOP3 && l > 4 && !strcmp(nm + l - 4, "_e32"))
        l -= 4;
    snprintf(tmp, n, "%.*s%s", (int)l, nm, suf);
    return tmp;
}

static void vopd_half(out_t *o, const isa_inst *in, int h)
{
    put(o, "%s ", in->vopd[h].name);
    opd(o, EMU_GFX11, in, &in->vopd[h].dst, 0, 0, 0);
    for (int i = 0; i < in->vopd[h].nsrc; i++) {
        put(o, ", ");
        opd(o, EMU_GFX11, in, &in->vopd[h].src[i], 0, 0, 0);
    }
}

int isa_disasm(emu_isa isa, const isa_inst *in, char *buf, size_t blen)
{
    out_t o = { buf, blen, 0 };
    char tmp[96];
    buf[0] = 0;
    gfx940 = isa == EMU_GFX9;
    if (isa == ISA_GFX90A)
        isa = EMU_GFX9;
    if (!in->info)
        return -1;
    if (in->fmt == ISA_FMT_VOPD) {
        vopd_half(&o, in, 0);
        put(&o, " :: ");
        vopd_half(&o, in, 1);
        return 0;
    }
    put(&o, "%s", name_of(in, tmp, sizeof tmp));
    if (in->fmt == ISA_FMT_SOPP) {
        sopp(&o, isa, in);
        return 0;
    }
    const char *t = in->info->tmpl;
    if (t[0] && t[1] == ':')
        t += 2;
    int first = 1;
    /* A FLAT/GLOBAL atomic with GLC (sc0) returns the old value: vdst,
     * as wide as the data (cmpswap: half of it, the data holds the compare) */
    if ((in->fmt == ISA_FMT_FLAT || in->fmt == ISA_FMT_GLOBAL) && in->glc && strstr(in->info->name, "_atomic_")) {
        isa_operand d = in->dst;
        d.n = strstr(in->info->name, "cmpswap") ? in->src[1].n / 2 : in->src[1].n;
        put(&o, " ");
        opd(&o, isa, in, &d, 0, 0, 0);
        first = 0;
    }
    while (*t) {
        char item[48];
        size_t k = strcspn(t, ",");
        snprintf(item, sizeof item, "%.*s", (int)k, t);
        t += k + (t[k] == ',');
        int t16 = strstr(item, ".l") != NULL;
        put(&o, first ? " " : ", ");
        first = 0;
        if (!strncmp(item, "sendmsg(", 8)) { /* s_sendmsg_rtn: ssrc0 holds the message id */
            static const char *const rtn[] = {"GET_DOORBELL", "GET_DDID", "GET_TMA", "GET_REALTIME",
                                              "SAVE_WAVE", "GET_TBA", "GET_TBA_TO_PC"};
            const unsigned id = in->raw[0] & 0xFF;
            if (id >= 128 && id < 128 + sizeof rtn / sizeof rtn[0])
                put(&o, "sendmsg(MSG_RTN_%s)", rtn[id - 128]);
            else
                put(&o, "sendmsg(%u, 0, 0)", id);
            break;
        }
        switch (item[0]) {
        case 'D':
            opd(&o, isa, in, &in->dst, 0, (in->hi16 >> 3) & 1, t16);
            continue;
        case 'S':
            opd(&o, isa, in, &in->sdst, 0, 0, 0);
            continue;
        case '0': case '1': case '2':
            if (item[1] == 0 || item[1] == '.') {
                src(&o, isa, in, item[0] - '0', t16);
                continue;
            }
            break;
        case 'L':
            put(&o, "0x%x", in->literal);
            continue;
        case 'O':
            if (in->fmt == ISA_FMT_SMEM && isa == EMU_GFX11) {
                /* objdump shows soffset (null) in place of a zero offset */
                if (in->nsrc > 1) {
                    opd(&o, isa, in, &in->src[1], 0, 0, 0);
                    if (in->offset)
                        put(&o, " offset:0x%x", (unsigned)in->offset & 0x1FFFFF);
                } else if (in->offset) {
                    put(&o, "0x%x", (unsigned)in->offset & 0x1FFFFF);
                } else {
                    put(&o, "null");
                }
            } else if (in->fmt == ISA_FMT_SMEM) {
                if (in->nsrc > 1 && !(in->smem_imm && isa == EMU_GFX9 && !((in->raw[0] >> 14) & 1))) {
                    opd(&o, isa, in, &in->src[1], 0, 0, 0);
                    if (in->offset)
                        put(&o, " offset:0x%x", (unsigned)in->offset);
                } else {
                    put(&o, "0x%x", (unsigned)in->offset & 0x1FFFFF);
                }
            } else {
                put(&o, "0x%x", (unsigned)(uint16_t)in->simm16);
            }
            continue;
        default:
            break;
        }
        if (!strcmp(item, "off") && (in->fmt == ISA_FMT_GLOBAL || in->fmt == ISA_FMT_SCRATCH || in->fmt == ISA_FMT_FLAT)) {
            opd(&o, isa, in, &in->src[2], 0, 0, 0);
        } else if ((!strcmp(item, "vcc") || !strcmp(item, "vcc_lo")) && in->fmt == ISA_FMT_VOPC &&
                   in->enc == ISA_ENC_SDWA && in->dst.kind != ISA_OPD_VCC) {
            opd(&o, isa, in, &in->dst, 0, 0, 0);
        } else {
            put(&o, "%s", item);
        }
    }
    /* modifiers */
    switch (in->fmt) {
    case ISA_FMT_SMEM:
        if (in->glc) put(&o, isa == EMU_GFX9 && gfx940 ? " sc0" : " glc");
        if (in->dlc) put(&o, " dlc");
        break;
    case ISA_FMT_DS: {
        const char *nm = in->info->name;
        if (strstr(nm, "2_b") || strstr(nm, "2st64") || strstr(nm, "2addr")) {
            if (in->offset) put(&o, " offset0:%d", in->offset);
            if (in->offset1) put(&o, " offset1:%u", in->offset1);
        } else {
            unsigned off = (unsigned)in->offset | (unsigned)in->offset1 << 8;
            if (off) put(&o, " offset:%u", off);
        }
        if (in->gds) put(&o, " gds");
        break;
    }
    case ISA_FMT_FLAT: case ISA_FMT_GLOBAL: case ISA_FMT_SCRATCH:
        if (in->offset) put(&o, " offset:%d", in->offset);
        flat_cache(&o, isa, in);
        if (in->lds) put(&o, " lds");
        break;
    case ISA_FMT_VOP1: case ISA_FMT_VOP2: case ISA_FMT_VOPC:
        if (in->enc == ISA_ENC_SDWA) {
            if (in->clamp) put(&o, " clamp");
            if (in->omod) put(&o, in->omod == 1 ? " mul:2" : in->omod == 2 ? " mul:4" : " div:2");
            if (in->fmt != ISA_FMT_VOPC)
                put(&o, " dst_sel:%s dst_unused:%s", selname[in->sdwa_dst_sel],
                    in->sdwa_dst_unused == 0 ? "UNUSED_PAD" : in->sdwa_dst_unused == 1 ? "UNUSED_SEXT" : "UNUSED_PRESERVE");
            put(&o, " src0_sel:%s", selname[in->sdwa_src_sel[0]]);
            if (in->fmt != ISA_FMT_VOP1)
                put(&o, " src1_sel:%s", selname[in->sdwa_src_sel[1]]);
        } else if (in->enc != ISA_ENC_PLAIN) {
            dpp_mods(&o, isa, in);
        }
        break;
    case ISA_FMT_VOP3: {
        int n = in->nsrc;
        /* v_cndmask_b16 carries its halves in the .h names only */
        if (in->op_sel && !in->info->w[1] && in->op != ISA_OP_v_cndmask_b16)
            bits_list(&o, "op_sel", (in->op_sel & ((1u << n) - 1)) | ((in->op_sel >> 3) & 1) << n, n + 1);
        if (in->clamp) put(&o, " clamp");
        if (in->omod) put(&o, in->omod == 1 ? " mul:2" : in->omod == 2 ? " mul:4" : " div:2");
        if (in->enc != ISA_ENC_PLAIN)
            dpp_mods(&o, isa, in);
        break;
    }
    case ISA_FMT_VOP3P: {
        int n = in->nsrc;
        const char *nm = in->info->name;
        int mix = strstr(nm, "_mix") != NULL, pkmov = strstr(nm, "pk_mov") != NULL;
        unsigned full = (1u << n) - 1;
        if (in->op_sel)
            bits_list(&o, "op_sel", in->op_sel, n);
        if (!pkmov && (mix ? (in->op_sel_hi & full) != 0 : (in->op_sel_hi & full) != full))
            bits_list(&o, "op_sel_hi", in->op_sel_hi, n);
        if (!mix && in->neg)
            bits_list(&o, "neg_lo", in->neg, n);
        if (!mix && in->neg_hi)
            bits_list(&o, "neg_hi", in->neg_hi, n);
        if (in->clamp) put(&o, " clamp");
        break;
    }
    default:
        break;
    }
    return 0;
}
