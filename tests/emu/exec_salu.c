/* exec_salu.c — scalar ALU (SOP1, SOP2, SOPK, SOPC) and program control
 * (SOPP). SCC as the ISA documents define it per opcode. */
#include "exec.h"

#define S0 ex_sread(c, &in->src[0], 0, TY_B32)
#define S1 ex_sread(c, &in->src[1], 0, TY_B32)
#define S0_64 ex_sread64(c, &in->src[0], TY_B64)
#define S1_64 ex_sread64(c, &in->src[1], TY_B64)
#define D32(v) do { if (ex_swrite(c, &in->dst, 0, (v))) return EMU_STEP_ERROR; } while (0)
#define D64(v) do { if (ex_swrite64(c, &in->dst, (v))) return EMU_STEP_ERROR; } while (0)

static int branch(ex_ctx *c, int taken)
{
    if (taken)
        c->next_pc = c->w->pc + 4 + (int64_t)c->in->simm16 * 4;
    return EMU_STEP_OK;
}

static int sopp(ex_ctx *c)
{
    emu_wave *w = c->w;
    switch (c->in->op) {
    case ISA_OP_s_endpgm: return EMU_STEP_END;
    case ISA_OP_s_barrier: return EMU_STEP_BARRIER;
    case ISA_OP_s_branch: return branch(c, 1);
    case ISA_OP_s_cbranch_scc0: return branch(c, !w->scc);
    case ISA_OP_s_cbranch_scc1: return branch(c, w->scc);
    case ISA_OP_s_cbranch_vccz: return branch(c, (w->vcc & c->lanes) == 0);
    case ISA_OP_s_cbranch_vccnz: return branch(c, (w->vcc & c->lanes) != 0);
    case ISA_OP_s_cbranch_execz: return branch(c, c->exec == 0);
    case ISA_OP_s_cbranch_execnz: return branch(c, c->exec != 0);
    /* scheduling hints and counters: nothing to do one wave at a time */
    case ISA_OP_s_nop: case ISA_OP_s_waitcnt: case ISA_OP_s_delay_alu: case ISA_OP_s_clause:
    case ISA_OP_s_set_inst_prefetch_distance: case ISA_OP_s_waitcnt_depctr: case ISA_OP_s_sleep:
    case ISA_OP_s_setprio: case ISA_OP_s_icache_inv:
        return EMU_STEP_OK;
    case ISA_OP_s_sendmsg:
        /* gfx11 MSG_DEALLOC_VGPRS before s_endpgm: harmless */
        if (w->isa == EMU_GFX11 && (c->in->simm16 & 0xFF) == 3)
            return EMU_STEP_OK;
        return EX_UNIMPL;
    default:
        return EX_UNIMPL;
    }
}

static int sopk(ex_ctx *c)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    uint32_t k = (uint16_t)in->simm16;
    int32_t ks = in->simm16;
    uint32_t d = in->dst.kind == ISA_OPD_SGPR ? w->sgpr[in->dst.reg] : ex_sread(c, &in->dst, 0, TY_B32);
    switch (in->op) {
    case ISA_OP_s_movk_i32: D32((uint32_t)ks); return EMU_STEP_OK;
    case ISA_OP_s_cmovk_i32: if (w->scc) D32((uint32_t)ks); return EMU_STEP_OK;
    case ISA_OP_s_cmpk_eq_i32: w->scc = (int32_t)d == ks; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_lg_i32: w->scc = (int32_t)d != ks; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_gt_i32: w->scc = (int32_t)d > ks; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_ge_i32: w->scc = (int32_t)d >= ks; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_lt_i32: w->scc = (int32_t)d < ks; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_le_i32: w->scc = (int32_t)d <= ks; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_eq_u32: w->scc = d == k; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_lg_u32: w->scc = d != k; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_gt_u32: w->scc = d > k; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_ge_u32: w->scc = d >= k; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_lt_u32: w->scc = d < k; return EMU_STEP_OK;
    case ISA_OP_s_cmpk_le_u32: w->scc = d <= k; return EMU_STEP_OK;
    case ISA_OP_s_addk_i32: {
        int64_t r = (int64_t)(int32_t)d + ks;
        w->scc = r != (int32_t)r; /* signed overflow */
        D32((uint32_t)r);
        return EMU_STEP_OK;
    }
    case ISA_OP_s_mulk_i32: D32((uint32_t)((int32_t)d * ks)); return EMU_STEP_OK;
    case ISA_OP_s_waitcnt_vscnt: case ISA_OP_s_waitcnt_vmcnt: case ISA_OP_s_waitcnt_expcnt:
    case ISA_OP_s_waitcnt_lgkmcnt:
        return EMU_STEP_OK;
    default:
        return EX_UNIMPL;
    }
}

static uint32_t bfe32(uint32_t v, uint32_t ctl, int sgn)
{
    unsigned off = ctl & 31, wd = (ctl >> 16) & 127;
    if (wd == 0)
        return 0;
    if (off + wd >= 32)
        return sgn ? (uint32_t)((int32_t)v >> off) : v >> off;
    uint32_t r = (v >> off) & ((1u << wd) - 1);
    if (sgn && (r >> (wd - 1)) & 1)
        r |= ~0u << wd;
    return r;
}

static uint64_t bfe64(uint64_t v, uint32_t ctl, int sgn)
{
    unsigned off = ctl & 63, wd = (ctl >> 16) & 127;
    if (wd == 0)
        return 0;
    if (off + wd >= 64)
        return sgn ? (uint64_t)((int64_t)v >> off) : v >> off;
    uint64_t r = (v >> off) & ((1ull << wd) - 1);
    if (sgn && (r >> (wd - 1)) & 1)
        r |= ~0ull << wd;
    return r;
}

static int sop1(ex_ctx *c)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    switch (in->op) {
    case ISA_OP_s_mov_b32: D32(S0); return EMU_STEP_OK;
    case ISA_OP_s_mov_b64: D64(S0_64); return EMU_STEP_OK;
    case ISA_OP_s_sendmsg_rtn_b64:
        /* gfx11 MSG_RTN_GET_REALTIME (ssrc0 holds the message id): the
         * wave's own count of instructions, a clock that moves forward */
        if ((in->raw[0] & 0xFF) != 0x83)
            return EX_UNIMPL;
        D64(w->ninst);
        return EMU_STEP_OK;
    case ISA_OP_s_cmov_b32: if (w->scc) D32(S0); return EMU_STEP_OK;
    case ISA_OP_s_cmov_b64: if (w->scc) D64(S0_64); return EMU_STEP_OK;
    case ISA_OP_s_not_b32: { uint32_t r = ~S0; w->scc = r != 0; D32(r); return EMU_STEP_OK; }
    case ISA_OP_s_not_b64: { uint64_t r = ~S0_64; w->scc = r != 0; D64(r); return EMU_STEP_OK; }
    case ISA_OP_s_brev_b32: {
        uint32_t v = S0, r = 0;
        for (int i = 0; i < 32; i++)
            r |= ((v >> i) & 1) << (31 - i);
        D32(r);
        return EMU_STEP_OK;
    }
    case ISA_OP_s_bcnt1_i32_b32: { uint32_t r = (uint32_t)__builtin_popcount(S0); w->scc = r != 0; D32(r); return EMU_STEP_OK; }
    case ISA_OP_s_bcnt1_i32_b64: { uint32_t r = (uint32_t)__builtin_popcountll(S0_64); w->scc = r != 0; D32(r); return EMU_STEP_OK; }
    case ISA_OP_s_ff1_i32_b32: case ISA_OP_s_ctz_i32_b32: { uint32_t v = S0; D32(v ? (uint32_t)__builtin_ctz(v) : ~0u); return EMU_STEP_OK; }
    case ISA_OP_s_ff1_i32_b64: case ISA_OP_s_ctz_i32_b64: { uint64_t v = S0_64; D32(v ? (uint32_t)__builtin_ctzll(v) : ~0u); return EMU_STEP_OK; }
    case ISA_OP_s_flbit_i32_b32: case ISA_OP_s_clz_i32_u32: { uint32_t v = S0; D32(v ? (uint32_t)__builtin_clz(v) : ~0u); return EMU_STEP_OK; }
    case ISA_OP_s_flbit_i32_b64: case ISA_OP_s_clz_i32_u64: { uint64_t v = S0_64; D32(v ? (uint32_t)__builtin_clzll(v) : ~0u); return EMU_STEP_OK; }
    case ISA_OP_s_flbit_i32: case ISA_OP_s_cls_i32: {
        uint32_t v = S0;
        if (v == 0 || v == ~0u) { D32(~0u); return EMU_STEP_OK; }
        D32((uint32_t)__builtin_clz((int32_t)v < 0 ? ~v : v));
        return EMU_STEP_OK;
    }
    case ISA_OP_s_sext_i32_i8: D32((uint32_t)(int32_t)(int8_t)S0); return EMU_STEP_OK;
    case ISA_OP_s_sext_i32_i16: D32((uint32_t)(int32_t)(int16_t)S0); return EMU_STEP_OK;
    case ISA_OP_s_abs_i32: {
        int32_t v = (int32_t)S0;
        uint32_t r = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
        w->scc = r != 0;
        D32(r);
        return EMU_STEP_OK;
    }
    /* pc is an offset into code; code_base is code[0]'s device address */
    case ISA_OP_s_getpc_b64: D64(w->code_base + c->next_pc); return EMU_STEP_OK;
    case ISA_OP_s_setpc_b64: c->next_pc = S0_64 - w->code_base; return EMU_STEP_OK;
    case ISA_OP_s_swappc_b64: {
        uint64_t to = S0_64 - w->code_base;
        D64(w->code_base + c->next_pc);
        c->next_pc = to;
        return EMU_STEP_OK;
    }
    default:
        break;
    }
    /* saveexec family: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0 */
    int wide = c->w->wave_size > 32;
    uint64_t s0 = wide ? S0_64 : S0, ex = c->exec, nx;
    switch (in->op) {
    case ISA_OP_s_and_saveexec_b64: case ISA_OP_s_and_saveexec_b32: nx = s0 & ex; break;
    case ISA_OP_s_or_saveexec_b64: case ISA_OP_s_or_saveexec_b32: nx = s0 | ex; break;
    case ISA_OP_s_xor_saveexec_b64: case ISA_OP_s_xor_saveexec_b32: nx = s0 ^ ex; break;
    case ISA_OP_s_andn2_saveexec_b64: case ISA_OP_s_andn2_saveexec_b32: nx = s0 & ~ex; break;
    case ISA_OP_s_orn2_saveexec_b64: case ISA_OP_s_orn2_saveexec_b32: nx = s0 | ~ex; break;
    case ISA_OP_s_nand_saveexec_b64: case ISA_OP_s_nand_saveexec_b32: nx = ~(s0 & ex); break;
    case ISA_OP_s_nor_saveexec_b64: case ISA_OP_s_nor_saveexec_b32: nx = ~(s0 | ex); break;
    case ISA_OP_s_xnor_saveexec_b64: case ISA_OP_s_xnor_saveexec_b32: nx = ~(s0 ^ ex); break;
    default: return EX_UNIMPL;
    }
    int is64 = in->info->name[strlen(in->info->name) - 2] == '6';
    if ((is64 && !wide) || (!is64 && wide))
        return ex_error(c, "saveexec width does not match the wave size");
    nx &= c->lanes;
    if (wide) D64(ex); else D32((uint32_t)ex);
    w->exec = nx;
    w->scc = nx != 0;
    return EMU_STEP_OK;
}

static int sop2(ex_ctx *c)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    switch (in->op) {
    case ISA_OP_s_add_u32: { uint64_t r = (uint64_t)S0 + S1; w->scc = r >> 32; D32((uint32_t)r); return EMU_STEP_OK; }
    case ISA_OP_s_addc_u32: { uint64_t r = (uint64_t)S0 + S1 + (unsigned)w->scc; w->scc = r >> 32; D32((uint32_t)r); return EMU_STEP_OK; }
    case ISA_OP_s_sub_u32: { uint32_t a = S0, b = S1; w->scc = b > a; D32(a - b); return EMU_STEP_OK; }
    case ISA_OP_s_subb_u32: {
        uint32_t a = S0, b = S1, ci = (unsigned)w->scc;
        w->scc = (uint64_t)b + ci > a;
        D32(a - b - ci);
        return EMU_STEP_OK;
    }
    case ISA_OP_s_add_i32: {
        int32_t a = (int32_t)S0, b = (int32_t)S1;
        int64_t r = (int64_t)a + b;
        w->scc = r != (int32_t)r;
        D32((uint32_t)r);
        return EMU_STEP_OK;
    }
    case ISA_OP_s_sub_i32: {
        int32_t a = (int32_t)S0, b = (int32_t)S1;
        int64_t r = (int64_t)a - b;
        w->scc = r != (int32_t)r;
        D32((uint32_t)r);
        return EMU_STEP_OK;
    }
    case ISA_OP_s_mul_i32: D32(S0 * S1); return EMU_STEP_OK;
    case ISA_OP_s_mul_hi_u32: D32((uint32_t)(((uint64_t)S0 * S1) >> 32)); return EMU_STEP_OK;
    case ISA_OP_s_mul_hi_i32: D32((uint32_t)(((int64_t)(int32_t)S0 * (int32_t)S1) >> 32)); return EMU_STEP_OK;
    case ISA_OP_s_min_i32: { int32_t a = (int32_t)S0, b = (int32_t)S1; w->scc = a < b; D32((uint32_t)(a < b ? a : b)); return EMU_STEP_OK; }
    case ISA_OP_s_min_u32: { uint32_t a = S0, b = S1; w->scc = a < b; D32(a < b ? a : b); return EMU_STEP_OK; }
    case ISA_OP_s_max_i32: { int32_t a = (int32_t)S0, b = (int32_t)S1; w->scc = a > b; D32((uint32_t)(a > b ? a : b)); return EMU_STEP_OK; }
    case ISA_OP_s_max_u32: { uint32_t a = S0, b = S1; w->scc = a > b; D32(a > b ? a : b); return EMU_STEP_OK; }
    case ISA_OP_s_cselect_b32: D32(w->scc ? S0 : S1); return EMU_STEP_OK;
    case ISA_OP_s_cselect_b64: D64(w->scc ? S0_64 : S1_64); return EMU_STEP_OK;
#define LOG32(OP, E) case OP: { uint32_t a = S0, b = S1, r = (E); w->scc = r != 0; D32(r); return EMU_STEP_OK; }
#define LOG64(OP, E) case OP: { uint64_t a = S0_64, b = S1_64, r = (E); w->scc = r != 0; D64(r); return EMU_STEP_OK; }
    LOG32(ISA_OP_s_and_b32, a & b)
    LOG32(ISA_OP_s_or_b32, a | b)
    LOG32(ISA_OP_s_xor_b32, a ^ b)
    LOG32(ISA_OP_s_andn2_b32, a & ~b)
    LOG32(ISA_OP_s_orn2_b32, a | ~b)
    LOG32(ISA_OP_s_nand_b32, ~(a & b))
    LOG32(ISA_OP_s_nor_b32, ~(a | b))
    LOG32(ISA_OP_s_xnor_b32, ~(a ^ b))
    LOG64(ISA_OP_s_and_b64, a & b)
    LOG64(ISA_OP_s_or_b64, a | b)
    LOG64(ISA_OP_s_xor_b64, a ^ b)
    LOG64(ISA_OP_s_andn2_b64, a & ~b)
    LOG64(ISA_OP_s_orn2_b64, a | ~b)
    LOG64(ISA_OP_s_nand_b64, ~(a & b))
    LOG64(ISA_OP_s_nor_b64, ~(a | b))
    LOG64(ISA_OP_s_xnor_b64, ~(a ^ b))
    LOG32(ISA_OP_s_lshl_b32, a << (b & 31))
    LOG32(ISA_OP_s_lshr_b32, a >> (b & 31))
    LOG32(ISA_OP_s_ashr_i32, (uint32_t)((int32_t)a >> (b & 31)))
    LOG32(ISA_OP_s_bfe_u32, bfe32(a, b, 0))
    LOG32(ISA_OP_s_bfe_i32, bfe32(a, b, 1))
#undef LOG32
#undef LOG64
    case ISA_OP_s_lshl_b64: { uint64_t r = S0_64 << (S1 & 63); w->scc = r != 0; D64(r); return EMU_STEP_OK; }
    case ISA_OP_s_lshr_b64: { uint64_t r = S0_64 >> (S1 & 63); w->scc = r != 0; D64(r); return EMU_STEP_OK; }
    case ISA_OP_s_ashr_i64: { uint64_t r = (uint64_t)((int64_t)S0_64 >> (S1 & 63)); w->scc = r != 0; D64(r); return EMU_STEP_OK; }
    case ISA_OP_s_bfe_u64: { uint64_t r = bfe64(S0_64, S1, 0); w->scc = r != 0; D64(r); return EMU_STEP_OK; }
    case ISA_OP_s_bfe_i64: { uint64_t r = bfe64(S0_64, S1, 1); w->scc = r != 0; D64(r); return EMU_STEP_OK; }
    case ISA_OP_s_bfm_b32: D32(((1u << (S0 & 31)) - 1) << (S1 & 31)); return EMU_STEP_OK;
    case ISA_OP_s_bfm_b64: D64(((1ull << (S0 & 63)) - 1) << (S1 & 63)); return EMU_STEP_OK;
    case ISA_OP_s_pack_ll_b32_b16: D32((S0 & 0xFFFF) | S1 << 16); return EMU_STEP_OK;
    case ISA_OP_s_pack_lh_b32_b16: D32((S0 & 0xFFFF) | (S1 & 0xFFFF0000u)); return EMU_STEP_OK;
    case ISA_OP_s_pack_hh_b32_b16: D32(S0 >> 16 | (S1 & 0xFFFF0000u)); return EMU_STEP_OK;
    case ISA_OP_s_lshl1_add_u32: case ISA_OP_s_lshl2_add_u32: case ISA_OP_s_lshl3_add_u32:
    case ISA_OP_s_lshl4_add_u32: {
        unsigned sh = in->op == ISA_OP_s_lshl1_add_u32 ? 1 : in->op == ISA_OP_s_lshl2_add_u32 ? 2
                    : in->op == ISA_OP_s_lshl3_add_u32 ? 3 : 4;
        uint64_t r = ((uint64_t)S0 << sh) + S1;
        w->scc = r >> 32 != 0;
        D32((uint32_t)r);
        return EMU_STEP_OK;
    }
    default:
        return EX_UNIMPL;
    }
}

static int sopc(ex_ctx *c)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    switch (in->op) {
    case ISA_OP_s_cmp_eq_i32: case ISA_OP_s_cmp_eq_u32: w->scc = S0 == S1; break;
    case ISA_OP_s_cmp_lg_i32: case ISA_OP_s_cmp_lg_u32: w->scc = S0 != S1; break;
    case ISA_OP_s_cmp_gt_i32: w->scc = (int32_t)S0 > (int32_t)S1; break;
    case ISA_OP_s_cmp_ge_i32: w->scc = (int32_t)S0 >= (int32_t)S1; break;
    case ISA_OP_s_cmp_lt_i32: w->scc = (int32_t)S0 < (int32_t)S1; break;
    case ISA_OP_s_cmp_le_i32: w->scc = (int32_t)S0 <= (int32_t)S1; break;
    case ISA_OP_s_cmp_gt_u32: w->scc = S0 > S1; break;
    case ISA_OP_s_cmp_ge_u32: w->scc = S0 >= S1; break;
    case ISA_OP_s_cmp_lt_u32: w->scc = S0 < S1; break;
    case ISA_OP_s_cmp_le_u32: w->scc = S0 <= S1; break;
    case ISA_OP_s_cmp_eq_u64: w->scc = S0_64 == S1_64; break;
    case ISA_OP_s_cmp_lg_u64: w->scc = S0_64 != S1_64; break;
    case ISA_OP_s_bitcmp0_b32: w->scc = !((S0 >> (S1 & 31)) & 1); break;
    case ISA_OP_s_bitcmp1_b32: w->scc = (S0 >> (S1 & 31)) & 1; break;
    case ISA_OP_s_bitcmp0_b64: w->scc = !((S0_64 >> (S1 & 63)) & 1); break;
    case ISA_OP_s_bitcmp1_b64: w->scc = (S0_64 >> (S1 & 63)) & 1; break;
    default: return EX_UNIMPL;
    }
    return EMU_STEP_OK;
}

int ex_salu(ex_ctx *c)
{
    switch (c->in->fmt) {
    case ISA_FMT_SOPP: return sopp(c);
    case ISA_FMT_SOPK: return sopk(c);
    case ISA_FMT_SOP1: return sop1(c);
    case ISA_FMT_SOP2: return sop2(c);
    case ISA_FMT_SOPC: return sopc(c);
    default: return EX_UNIMPL;
    }
}
