/* exec_mem.c — memory instructions: SMEM (scalar loads), FLAT/GLOBAL
 * (per-lane loads/stores, EXEC-masked) and DS (LDS). Memory only through
 * emu_mem_read/emu_mem_write; LDS through the wave's lds buffer. */
#include "exec.h"

static int mem_rd(ex_ctx *c, uint64_t a, void *dst, unsigned n, int lane)
{
    char e[160];
    if (emu_mem_read(c->w->mem, a, dst, n, e, sizeof e))
        return ex_error(c, "lane %d: read of %u bytes at 0x%llx: %s", lane, n, (unsigned long long)a, e), -1;
    return 0;
}

static int mem_wr(ex_ctx *c, uint64_t a, const void *src, unsigned n, int lane)
{
    char e[160];
    if (emu_mem_write(c->w->mem, a, src, n, e, sizeof e))
        return ex_error(c, "lane %d: write of %u bytes at 0x%llx: %s", lane, n, (unsigned long long)a, e), -1;
    return 0;
}

int ex_smem(ex_ctx *c)
{
    const isa_inst *in = c->in;
    unsigned n;
    switch (in->op) {
    case ISA_OP_s_load_dword: n = 1; break;
    case ISA_OP_s_load_dwordx2: n = 2; break;
    case ISA_OP_s_load_dwordx4: n = 4; break;
    case ISA_OP_s_load_dwordx8: n = 8; break;
    case ISA_OP_s_load_dwordx16: n = 16; break;
    case ISA_OP_s_memtime: case ISA_OP_s_memrealtime:
        /* clocks: the wave's own count of instructions, which moves
         * forward as a clock does (a spin on it ends) */
        return ex_swrite64(c, &in->dst, c->w->ninst) ? EMU_STEP_ERROR : EMU_STEP_OK;
    default: return EX_UNIMPL;
    }
    uint64_t a = ex_sread64(c, &in->src[0], TY_B64) + (int64_t)in->offset;
    if (in->nsrc > 1)
        a += ex_sread(c, &in->src[1], 0, TY_B32);
    a &= ~3ull; /* scalar loads ignore the low two address bits */
    uint32_t buf[16];
    if (mem_rd(c, a, buf, 4 * n, -1))
        return EMU_STEP_ERROR;
    if (in->dst.kind != ISA_OPD_SGPR || in->dst.reg + n > EMU_NSGPR)
        return ex_error(c, "bad scalar load destination");
    memcpy(&c->w->sgpr[in->dst.reg], buf, 4 * n);
    return EMU_STEP_OK;
}

/* What a FLAT/GLOBAL op moves. kind: 'L' load, 'S' store. */
typedef struct { char kind; unsigned bytes; int sext; int d16; /* 0, 1 lo, 2 hi */ } vm_shape;

static int vm_shape_of(unsigned op, vm_shape *s)
{
    vm_shape z = { 0, 0, 0, 0 };
    *s = z;
    switch (op) {
#define L(A, B, SX, D) case ISA_OP_global_load_##A: case ISA_OP_flat_load_##A: s->kind = 'L', s->bytes = B, s->sext = SX, s->d16 = D; return 0;
#define S(A, B, D) case ISA_OP_global_store_##A: case ISA_OP_flat_store_##A: s->kind = 'S', s->bytes = B, s->d16 = D; return 0;
    L(dword, 4, 0, 0) L(dwordx2, 8, 0, 0) L(dwordx3, 12, 0, 0) L(dwordx4, 16, 0, 0)
    L(ubyte, 1, 0, 0) L(sbyte, 1, 1, 0) L(ushort, 2, 0, 0) L(sshort, 2, 1, 0)
    L(ubyte_d16, 1, 0, 1) L(sbyte_d16, 1, 1, 1) L(short_d16, 2, 0, 1)
    L(ubyte_d16_hi, 1, 0, 2) L(sbyte_d16_hi, 1, 1, 2) L(short_d16_hi, 2, 0, 2)
    S(dword, 4, 0) S(dwordx2, 8, 0) S(dwordx3, 12, 0) S(dwordx4, 16, 0)
    S(byte, 1, 0) S(short, 2, 0) S(byte_d16_hi, 1, 2) S(short_d16_hi, 2, 2)
#undef L
#undef S
    default: return -1;
    }
}

/* A lane's FLAT/GLOBAL address: saddr + the VGPR offset, or the VGPR
 * pair, plus the instruction's offset. */
typedef struct { int saddr; uint64_t base; } vm_base;
static vm_base vm_base_of(ex_ctx *c)
{
    vm_base b = { c->in->src[2].kind == ISA_OPD_SGPR, 0 };
    if (b.saddr)
        b.base = ex_sread64(c, &c->in->src[2], TY_B64);
    return b;
}
static uint64_t vm_addr(const ex_ctx *c, const vm_base *b, unsigned va, int l)
{
    const emu_wave *w = c->w;
    const uint64_t a = b->saddr ? b->base + w->vgpr[va][l] : ((uint64_t)w->vgpr[va + 1][l] << 32 | w->vgpr[va][l]);
    return a + (uint64_t)(int64_t)c->in->offset;
}

/* FLAT/GLOBAL atomics: what they do and on how many bytes (4 or 8). The
 * waves run one at a time, so read-modify-write is atomic here; with GLC
 * (sc0 on gfx942) the memory's old value comes back in vdst. */
typedef enum { AT_SWAP, AT_CMPSWAP, AT_ADD, AT_SUB, AT_SMIN, AT_UMIN, AT_SMAX, AT_UMAX, AT_AND, AT_OR, AT_XOR,
               AT_INC, AT_DEC, AT_FADD } at_kind;

static int atomic_of(unsigned op, at_kind *k, unsigned *bytes)
{
    switch (op) {
#define A(NAME, K, B) case ISA_OP_global_atomic_##NAME: case ISA_OP_flat_atomic_##NAME: *k = K, *bytes = B; return 0;
    /* gfx9 names */
    A(swap, AT_SWAP, 4) A(cmpswap, AT_CMPSWAP, 4) A(add, AT_ADD, 4) A(sub, AT_SUB, 4) A(smin, AT_SMIN, 4)
    A(umin, AT_UMIN, 4) A(smax, AT_SMAX, 4) A(umax, AT_UMAX, 4) A(and, AT_AND, 4) A(or, AT_OR, 4)
    A(xor, AT_XOR, 4) A(inc, AT_INC, 4) A(dec, AT_DEC, 4)
    A(swap_x2, AT_SWAP, 8) A(cmpswap_x2, AT_CMPSWAP, 8) A(add_x2, AT_ADD, 8) A(sub_x2, AT_SUB, 8)
    A(smin_x2, AT_SMIN, 8) A(umin_x2, AT_UMIN, 8) A(smax_x2, AT_SMAX, 8) A(umax_x2, AT_UMAX, 8)
    A(and_x2, AT_AND, 8) A(or_x2, AT_OR, 8) A(xor_x2, AT_XOR, 8) A(inc_x2, AT_INC, 8) A(dec_x2, AT_DEC, 8)
    A(add_f32, AT_FADD, 4) A(add_f64, AT_FADD, 8)
    /* gfx11 names */
    A(swap_b32, AT_SWAP, 4) A(cmpswap_b32, AT_CMPSWAP, 4) A(add_u32, AT_ADD, 4) A(sub_u32, AT_SUB, 4)
    A(min_i32, AT_SMIN, 4) A(min_u32, AT_UMIN, 4) A(max_i32, AT_SMAX, 4) A(max_u32, AT_UMAX, 4)
    A(and_b32, AT_AND, 4) A(or_b32, AT_OR, 4) A(xor_b32, AT_XOR, 4) A(inc_u32, AT_INC, 4) A(dec_u32, AT_DEC, 4)
    A(swap_b64, AT_SWAP, 8) A(cmpswap_b64, AT_CMPSWAP, 8) A(add_u64, AT_ADD, 8) A(sub_u64, AT_SUB, 8)
    A(min_i64, AT_SMIN, 8) A(min_u64, AT_UMIN, 8) A(max_i64, AT_SMAX, 8) A(max_u64, AT_UMAX, 8)
    A(and_b64, AT_AND, 8) A(or_b64, AT_OR, 8) A(xor_b64, AT_XOR, 8) A(inc_u64, AT_INC, 8) A(dec_u64, AT_DEC, 8)
#undef A
    default: return -1;
    }
}

/* The new memory value of op k on old value m with data d (cmp: compare). */
static uint64_t atomic_apply(at_kind k, unsigned bytes, uint64_t m, uint64_t d, uint64_t cmp)
{
    const int w = bytes == 8;
    const int64_t sm = w ? (int64_t)m : (int32_t)m, sd = w ? (int64_t)d : (int32_t)d;
    switch (k) {
    case AT_SWAP: return d;
    case AT_CMPSWAP: return m == cmp ? d : m;
    case AT_ADD: return m + d;
    case AT_SUB: return m - d;
    case AT_SMIN: return sd < sm ? d : m;
    case AT_UMIN: return d < m ? d : m;
    case AT_SMAX: return sd > sm ? d : m;
    case AT_UMAX: return d > m ? d : m;
    case AT_AND: return m & d;
    case AT_OR: return m | d;
    case AT_XOR: return m ^ d;
    case AT_INC: return m >= d ? 0 : m + 1;          /* wraps to 0 past d */
    case AT_DEC: return m == 0 || m > d ? d : m - 1; /* wraps to d below 0 */
    case AT_FADD:
        if (w)
            return ex_ud(ex_d(m) + ex_d(d));
        return ex_u(ex_f((uint32_t)m) + ex_f((uint32_t)d));
    }
    return m;
}

static int ex_atomic(ex_ctx *c, at_kind k, unsigned bytes)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    const unsigned nd = bytes / 4, va = in->src[0].reg, vd = in->dst.reg, vs = in->src[1].reg;
    const unsigned ns = k == AT_CMPSWAP ? 2 * nd : nd;
    if (va + 2 > EMU_NVGPR || vd + nd > EMU_NVGPR || vs + ns > EMU_NVGPR)
        return ex_error(c, "vgpr out of range");
    const uint64_t mask = bytes == 8 ? ~0ull : 0xFFFFFFFFull;
    const vm_base vb = vm_base_of(c);
    for (uint64_t m = c->exec; m; m &= m - 1) {
        int l = __builtin_ctzll(m);
        const uint64_t a = vm_addr(c, &vb, va, l);
        if (a & (bytes - 1))
            return ex_error(c, "lane %d: atomic of %u bytes at 0x%llx: misaligned", l, bytes, (unsigned long long)a);
        uint64_t old = 0, d = w->vgpr[vs][l], cmp = 0;
        if (nd == 2)
            d |= (uint64_t)w->vgpr[vs + 1][l] << 32;
        if (k == AT_CMPSWAP)
            cmp = nd == 2 ? (uint64_t)w->vgpr[vs + 3][l] << 32 | w->vgpr[vs + 2][l] : w->vgpr[vs + 1][l];
        if (mem_rd(c, a, &old, bytes, l))
            return EMU_STEP_ERROR;
        const uint64_t nv = atomic_apply(k, bytes, old, d, cmp) & mask;
        if (mem_wr(c, a, &nv, bytes, l))
            return EMU_STEP_ERROR;
        if (in->glc) {
            w->vgpr[vd][l] = (uint32_t)old;
            if (nd == 2)
                w->vgpr[vd + 1][l] = (uint32_t)(old >> 32);
        }
    }
    return EMU_STEP_OK;
}

int ex_vmem(ex_ctx *c)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    vm_shape sh;
    at_kind ak;
    unsigned abytes;
    if (in->fmt != ISA_FMT_SCRATCH && !atomic_of(in->op, &ak, &abytes))
        return ex_atomic(c, ak, abytes);
    if (in->fmt == ISA_FMT_SCRATCH || vm_shape_of(in->op, &sh))
        return EX_UNIMPL;
    unsigned va = in->src[0].reg, vd = in->dst.reg, vs = in->src[1].reg;
    unsigned nd = (sh.bytes + 3) / 4;
    if (va + 2 > EMU_NVGPR || vd + nd > EMU_NVGPR || vs + nd > EMU_NVGPR)
        return ex_error(c, "vgpr out of range");
    const vm_base vb = vm_base_of(c);
    for (uint64_t m = c->exec; m; m &= m - 1) {
        int l = __builtin_ctzll(m);
        const uint64_t a = vm_addr(c, &vb, va, l);
        if (sh.kind == 'L') {
            uint32_t buf[4] = { 0, 0, 0, 0 };
            if (mem_rd(c, a, buf, sh.bytes, l))
                return EMU_STEP_ERROR;
            uint32_t v = buf[0];
            if (sh.bytes == 1)
                v = sh.sext ? (uint32_t)(int32_t)(int8_t)v : (v & 0xFF);
            else if (sh.bytes == 2)
                v = sh.sext ? (uint32_t)(int32_t)(int16_t)v : (v & 0xFFFF);
            if (sh.d16 == 1)
                w->vgpr[vd][l] = (w->vgpr[vd][l] & 0xFFFF0000u) | (v & 0xFFFF);
            else if (sh.d16 == 2)
                w->vgpr[vd][l] = (w->vgpr[vd][l] & 0xFFFF) | v << 16;
            else if (sh.bytes <= 4)
                w->vgpr[vd][l] = v;
            else
                for (unsigned k = 0; k < nd; k++)
                    w->vgpr[vd + k][l] = buf[k];
        } else {
            uint32_t buf[4];
            for (unsigned k = 0; k < nd; k++)
                buf[k] = w->vgpr[vs + k][l];
            if (sh.d16 == 2)
                buf[0] >>= 16;
            if (mem_wr(c, a, buf, sh.bytes, l))
                return EMU_STEP_ERROR;
        }
    }
    return EMU_STEP_OK;
}

/* ---- DS (LDS) ---- */

static int lds_chk(ex_ctx *c, uint32_t a, unsigned n, int l)
{
    if ((uint64_t)a + n > c->w->lds_size || !c->w->lds)
        return ex_error(c, "lane %d: LDS access of %u bytes at 0x%x outside %u bytes", l, n, a, c->w->lds_size), -1;
    return 0;
}

int ex_ds(ex_ctx *c)
{
    const isa_inst *in = c->in;
    emu_wave *w = c->w;
    unsigned va = in->src[0].reg, d0 = in->src[1].reg, d1 = in->src[2].reg, vd = in->dst.reg;
    uint32_t off = (uint32_t)in->offset | (uint32_t)in->offset1 << 8;
    unsigned n = 0, two = 0, st = 0, sx = 0, d16 = 0; /* d16: 1 low half, 2 high half of the VGPR */
    unsigned unit = 1; /* read2/write2 offsets count n bytes, st64 forms 64 n */
    switch (in->op) {
    case ISA_OP_ds_read2st64_b32: n = 4, two = 1, unit = 64; break;
    case ISA_OP_ds_read2st64_b64: n = 8, two = 1, unit = 64; break;
    case ISA_OP_ds_write2st64_b32: n = 4, two = 1, st = 1, unit = 64; break;
    case ISA_OP_ds_write2st64_b64: n = 8, two = 1, st = 1, unit = 64; break;
    case ISA_OP_ds_read_u8_d16: n = 1, d16 = 1; break;
    case ISA_OP_ds_read_u8_d16_hi: n = 1, d16 = 2; break;
    case ISA_OP_ds_read_i8_d16: n = 1, sx = 1, d16 = 1; break;
    case ISA_OP_ds_read_i8_d16_hi: n = 1, sx = 1, d16 = 2; break;
    case ISA_OP_ds_read_u16_d16: n = 2, d16 = 1; break;
    case ISA_OP_ds_read_u16_d16_hi: n = 2, d16 = 2; break;
    case ISA_OP_ds_write_b8_d16_hi: n = 1, st = 1, d16 = 2; break;
    case ISA_OP_ds_write_b16_d16_hi: n = 2, st = 1, d16 = 2; break;
    case ISA_OP_ds_read_b32: n = 4; break;
    case ISA_OP_ds_read_b64: n = 8; break;
    case ISA_OP_ds_read_b96: n = 12; break;
    case ISA_OP_ds_read_b128: n = 16; break;
    case ISA_OP_ds_read_u8: n = 1; break;
    case ISA_OP_ds_read_i8: n = 1, sx = 1; break;
    case ISA_OP_ds_read_u16: n = 2; break;
    case ISA_OP_ds_read_i16: n = 2, sx = 1; break;
    case ISA_OP_ds_read2_b32: n = 4, two = 1; break;
    case ISA_OP_ds_read2_b64: n = 8, two = 1; break;
    case ISA_OP_ds_write_b32: n = 4, st = 1; break;
    case ISA_OP_ds_write_b64: n = 8, st = 1; break;
    case ISA_OP_ds_write_b96: n = 12, st = 1; break;
    case ISA_OP_ds_write_b128: n = 16, st = 1; break;
    case ISA_OP_ds_write_b8: n = 1, st = 1; break;
    case ISA_OP_ds_write_b16: n = 2, st = 1; break;
    case ISA_OP_ds_write2_b32: n = 4, two = 1, st = 1; break;
    case ISA_OP_ds_write2_b64: n = 8, two = 1, st = 1; break;
    case ISA_OP_ds_bpermute_b32: {
        /* dst[l] = data0[(addr[l] + offset) / 4 % wave], sources read first */
        uint32_t tmp[EMU_MAX_LANES];
        for (int l = 0; l < w->wave_size; l++)
            tmp[l] = w->vgpr[d0][l];
        for (uint64_t m = c->exec; m; m &= m - 1) {
            int l = __builtin_ctzll(m);
            unsigned src = ((w->vgpr[va][l] + off) >> 2) % (unsigned)w->wave_size;
            w->vgpr[vd][l] = (c->exec >> src) & 1 ? tmp[src] : 0;
        }
        return EMU_STEP_OK;
    }
    case ISA_OP_ds_add_u32: case ISA_OP_ds_max_u32: case ISA_OP_ds_min_u32: {
        for (uint64_t m = c->exec; m; m &= m - 1) {
            int l = __builtin_ctzll(m);
            uint32_t a = w->vgpr[va][l] + off, v, x = w->vgpr[d0][l];
            if (lds_chk(c, a, 4, l))
                return EMU_STEP_ERROR;
            memcpy(&v, w->lds + a, 4);
            v = in->op == ISA_OP_ds_add_u32 ? v + x : in->op == ISA_OP_ds_max_u32 ? (v > x ? v : x) : (v < x ? v : x);
            memcpy(w->lds + a, &v, 4);
        }
        return EMU_STEP_OK;
    }
    default:
        return EX_UNIMPL;
    }
    unsigned nd = (n + 3) / 4;
    for (uint64_t m = c->exec; m; m &= m - 1) {
        int l = __builtin_ctzll(m);
        uint32_t base = w->vgpr[va][l];
        for (unsigned h = 0; h <= two; h++) {
            uint32_t a = two ? base + (h ? in->offset1 : (uint32_t)in->offset) * n * unit : base + off;
            unsigned data = h ? d1 : d0, dst = vd + h * nd;
            if (lds_chk(c, a, n, l))
                return EMU_STEP_ERROR;
            if (st) {
                uint32_t buf[4];
                for (unsigned k = 0; k < nd; k++)
                    buf[k] = w->vgpr[data + k][l];
                if (d16 == 2)
                    buf[0] >>= 16;
                memcpy(w->lds + a, buf, n);
            } else if (d16) { /* 16 bits into one half, the other half kept */
                uint32_t v = 0;
                memcpy(&v, w->lds + a, n);
                if (n == 1)
                    v = sx ? (uint32_t)(uint16_t)(int16_t)(int8_t)v : v;
                const uint32_t old_v = w->vgpr[dst][l];
                w->vgpr[dst][l] = d16 == 1 ? (old_v & 0xFFFF0000u) | (v & 0xFFFF) : (old_v & 0xFFFF) | v << 16;
            } else {
                uint32_t buf[4] = { 0, 0, 0, 0 };
                memcpy(buf, w->lds + a, n);
                if (n == 1)
                    buf[0] = sx ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0];
                else if (n == 2)
                    buf[0] = sx ? (uint32_t)(int32_t)(int16_t)buf[0] : buf[0];
                for (unsigned k = 0; k < nd; k++)
                    w->vgpr[dst + k][l] = buf[k];
            }
        }
    }
    return EMU_STEP_OK;
}
