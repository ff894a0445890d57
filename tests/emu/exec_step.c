/* exec_step.c — emu_step(): fetch (through a per-code-object decode
 * cache), dispatch to the format's executor, advance the pc. Also the
 * operand access helpers every executor uses. */
#include <stdarg.h>
#include <stdlib.h>
#include "exec.h"

/* ---- decode cache: one slot per dword of each code object, filled on
 * first execution of that address; keyed by the code pointer and size. */
typedef struct {
    const uint8_t *code;
    size_t size;
    isa_inst **slot;
    int gfx90a;     /* the image's ELF header names gfx90a/gfx908 */
} dcache;
#define NCACHE 64
static dcache caches[NCACHE];

static int last = -1; /* the cache of the previous step: almost always this one */

/* gfx90a and gfx908 share gfx9's encodings but not all its VALU opcodes.
 * The loaded image starts with its ELF header: e_flags' EF_AMDGPU_MACH
 * (0x30 gfx908, 0x3f gfx90a) tells, where the runtime did not set
 * w->gfx90a. */
static int elf_gfx90a(const uint8_t *code, size_t n)
{
    if (n < 64 || memcmp(code, "\x7f" "ELF", 4) || code[4] != 2 /* ELFCLASS64 */)
        return 0;
    unsigned mach = code[48]; /* low byte of e_flags: EF_AMDGPU_MACH */
    return mach == 0x30 || mach == 0x3f;
}

static dcache *cache_for(const emu_wave *w)
{
    if (last >= 0 && caches[last].code == w->code && caches[last].size == w->code_size)
        return &caches[last];
    int free_i = -1;
    for (int i = 0; i < NCACHE; i++) {
        if (caches[i].code == w->code && caches[i].size == w->code_size)
            return &caches[last = i];
        if (!caches[i].code && free_i < 0)
            free_i = i;
    }
    if (free_i < 0) { /* full: drop the first one (rare) */
        free_i = 0;
        for (size_t k = 0; k < caches[0].size / 4 + 1; k++)
            free(caches[0].slot[k]);
        free(caches[0].slot);
    }
    caches[free_i].code = w->code;
    caches[free_i].size = w->code_size;
    caches[free_i].slot = calloc(w->code_size / 4 + 1, sizeof(isa_inst *));
    if (!caches[free_i].slot) {
        caches[free_i].code = NULL;
        return NULL;
    }
    caches[free_i].gfx90a = elf_gfx90a(w->code, w->code_size);
    last = free_i;
    return &caches[free_i];
}

/* Forget cached decodes of a code object (call when unloading it; a new
 * object at the same address would otherwise be caught only by the raw
 * check below). */
void emu_isa_forget(const uint8_t *code)
{
    for (int i = 0; i < NCACHE; i++)
        if (caches[i].code == code) {
            for (size_t k = 0; k < caches[i].size / 4 + 1; k++)
                free(caches[i].slot[k]);
            free(caches[i].slot);
            memset(&caches[i], 0, sizeof caches[i]);
            last = -1;
        }
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const isa_inst *fetch(emu_wave *w, char *err, size_t elen)
{
    if (w->pc + 4 > w->code_size || (w->pc & 3)) {
        snprintf(err, elen, "%s: pc 0x%llx outside the code (%zu bytes)", w->kernel ? w->kernel : "?",
                 (unsigned long long)w->pc, w->code_size);
        return NULL;
    }
    dcache *dc = cache_for(w);
    if (!dc) {
        snprintf(err, elen, "out of memory");
        return NULL;
    }
    isa_inst **slot = dc->slot;
    isa_inst *in = slot[w->pc / 4];
    /* a hit must still be the same bytes (another object may now live at
     * this address): dwords 0 and 1, and a 12-byte form's third */
    if (in && in->raw[0] == rd32(w->code + w->pc) &&
        (in->size < 8 || in->raw[1] == rd32(w->code + w->pc + 4)) &&
        (in->size < 12 || in->raw[2] == rd32(w->code + w->pc + 8)))
        return in;
    if (!in) {
        in = malloc(sizeof *in);
        if (!in) {
            snprintf(err, elen, "out of memory");
            return NULL;
        }
        slot[w->pc / 4] = in;
    }
    char why[160];
    if (isa_decode(w->isa == EMU_GFX9 && (w->gfx90a || dc->gfx90a) ? ISA_GFX90A : w->isa, w->code, w->code_size, w->pc, in, why, sizeof why)) {
        snprintf(err, elen, "%s: %s", w->kernel ? w->kernel : "?", why);
        free(in);
        slot[w->pc / 4] = NULL;
        return NULL;
    }
    return in;
}

int ex_error(ex_ctx *c, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char text[160] = "";
    if (c->in->info)
        isa_disasm(c->w->isa, c->in, text, sizeof text);
    snprintf(c->err, c->elen, "%s: pc 0x%llx: %s [%s] (%08X %08X)", c->w->kernel ? c->w->kernel : "?",
             (unsigned long long)c->w->pc, msg, text, c->in->raw[0], c->in->raw[1]);
    return EMU_STEP_ERROR;
}

emu_step_result emu_step(emu_wave *w, char *err, size_t elen)
{
    if (elen)
        err[0] = 0;
    const isa_inst *in = fetch(w, err, elen);
    if (!in)
        return EMU_STEP_ERROR;
    ex_ctx c = { w, in, err, elen, w->pc + in->size, 0, 0 };
    c.lanes = w->wave_size >= 64 ? ~0ull : (1ull << w->wave_size) - 1;
    w->exec &= c.lanes;
    c.exec = w->exec;
    int r;
    switch (in->fmt) {
    case ISA_FMT_SOP1: case ISA_FMT_SOP2: case ISA_FMT_SOPK: case ISA_FMT_SOPC: case ISA_FMT_SOPP:
        r = ex_salu(&c);
        break;
    case ISA_FMT_SMEM:
        r = ex_smem(&c);
        break;
    case ISA_FMT_FLAT: case ISA_FMT_GLOBAL: case ISA_FMT_SCRATCH:
        r = ex_vmem(&c);
        break;
    case ISA_FMT_DS:
        r = ex_ds(&c);
        break;
    default:
        r = ex_valu(&c);
        break;
    }
    if (r == EX_UNIMPL)
        r = ex_error(&c, "instruction not implemented in the emulator");
    if (r == EMU_STEP_ERROR)
        return EMU_STEP_ERROR;
    w->pc = c.next_pc;
    w->ninst++;
    return (emu_step_result)r;
}

/* ---- operands ---- */

static const uint32_t f32c[9] = { 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983 };
static const uint16_t f16c[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118 };
static const uint64_t f64c[9] = { 0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
                                  0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
                                  0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull };

/* Value of a constant operand (inline or literal) for type t, 64 bits. */
static uint64_t constant(ex_ctx *c, const isa_operand *o, ex_ty t)
{
    unsigned code = o->code;
    if (o->kind == ISA_OPD_LITERAL) {
        uint32_t l = c->in->literal;
        if (t == TY_F64)
            return (uint64_t)l << 32;
        if (t == TY_F16 || t == TY_B16)
            return l & 0xFFFF;
        return l;
    }
    if (code >= 128 && code <= 208) {
        int64_t v = code <= 192 ? (int64_t)code - 128 : 192 - (int64_t)code;
        if (t == TY_F16 || t == TY_B16)
            return (uint16_t)v;
        if (t == TY_PK16 || t == TY_PKF16) /* low half only */
            return (uint16_t)v;
        if (t == TY_F64 || t == TY_B64)
            return (uint64_t)v;
        return (uint32_t)v;
    }
    if (code >= 240 && code <= 248) {
        unsigned i = code - 240;
        switch (t) {
        case TY_F16: case TY_B16: case TY_PK16: case TY_PKF16: return f16c[i];
        case TY_F64: case TY_B64: return f64c[i];
        default: return f32c[i];
        }
    }
    return 0;
}

uint32_t ex_sread(ex_ctx *c, const isa_operand *o, int k, ex_ty t)
{
    emu_wave *w = c->w;
    unsigned code = o->code + (unsigned)k;
    switch (o->kind) {
    case ISA_OPD_SGPR:
        return o->reg + k < EMU_NSGPR ? w->sgpr[o->reg + k] : 0;
    case ISA_OPD_VCC:
        return code == 106 ? (uint32_t)w->vcc : (uint32_t)(w->vcc >> 32);
    case ISA_OPD_EXEC:
        return code == 126 ? (uint32_t)w->exec : (uint32_t)(w->exec >> 32);
    case ISA_OPD_M0:
        return w->m0;
    case ISA_OPD_NULL:
        return 0;
    case ISA_OPD_SCC:
        return k ? 0 : (uint32_t)w->scc;
    case ISA_OPD_VCCZ:
        return k ? 0 : w->vcc == 0;
    case ISA_OPD_EXECZ:
        return k ? 0 : w->exec == 0;
    case ISA_OPD_INLINE: case ISA_OPD_LITERAL: {
        uint64_t v = constant(c, o, t);
        return k ? (uint32_t)(v >> 32) : (uint32_t)v;
    }
    default:
        return 0;
    }
}

uint64_t ex_sread64(ex_ctx *c, const isa_operand *o, ex_ty t)
{
    if (o->kind == ISA_OPD_INLINE || o->kind == ISA_OPD_LITERAL)
        return constant(c, o, t);
    return (uint64_t)ex_sread(c, o, 1, t) << 32 | ex_sread(c, o, 0, t);
}

int ex_swrite(ex_ctx *c, const isa_operand *o, int k, uint32_t v)
{
    emu_wave *w = c->w;
    unsigned code = o->code + (unsigned)k;
    switch (o->kind) {
    case ISA_OPD_SGPR:
        if (o->reg + k >= EMU_NSGPR)
            return ex_error(c, "sgpr %u out of range", o->reg + k), -1;
        w->sgpr[o->reg + k] = v;
        return 0;
    case ISA_OPD_VCC:
        if (code == 106)
            w->vcc = (w->vcc & ~0xFFFFFFFFull) | v;
        else
            w->vcc = (w->vcc & 0xFFFFFFFFull) | (uint64_t)v << 32;
        w->vcc &= c->lanes;
        return 0;
    case ISA_OPD_EXEC:
        if (code == 126)
            w->exec = (w->exec & ~0xFFFFFFFFull) | v;
        else
            w->exec = (w->exec & 0xFFFFFFFFull) | (uint64_t)v << 32;
        w->exec &= c->lanes;
        return 0;
    case ISA_OPD_M0:
        w->m0 = v;
        return 0;
    case ISA_OPD_NULL:
        return 0;
    default:
        return ex_error(c, "cannot write this destination operand"), -1;
    }
}

int ex_swrite64(ex_ctx *c, const isa_operand *o, uint64_t v)
{
    if (ex_swrite(c, o, 0, (uint32_t)v))
        return -1;
    return ex_swrite(c, o, 1, (uint32_t)(v >> 32));
}

uint64_t ex_mask_read(ex_ctx *c, const isa_operand *o)
{
    if (c->w->wave_size <= 32)
        return ex_sread(c, o, 0, TY_B32);
    return ex_sread64(c, o, TY_B64);
}

int ex_mask_write(ex_ctx *c, const isa_operand *o, uint64_t m)
{
    m &= c->lanes;
    if (c->w->wave_size <= 32)
        return ex_swrite(c, o, 0, (uint32_t)m);
    return ex_swrite64(c, o, m);
}

int ex_src_prep(ex_ctx *c, const isa_operand *o, ex_ty t, ex_src *s)
{
    s->row[0] = s->row[1] = NULL;
    s->uni[0] = s->uni[1] = 0;
    switch (o->kind) {
    case ISA_OPD_VGPR: case ISA_OPD_AGPR: {
        unsigned r = o->kind == ISA_OPD_AGPR ? o->reg + 256u : o->reg;
        unsigned n = (t == TY_F64 || t == TY_B64) ? 2 : 1;
        if (r + n > EMU_NVGPR)
            return ex_error(c, "vgpr %u out of range", r), -1;
        s->row[0] = c->w->vgpr[r];
        if (n == 2)
            s->row[1] = c->w->vgpr[r + 1];
        return 0;
    }
    case ISA_OPD_SGPR: case ISA_OPD_VCC: case ISA_OPD_EXEC: case ISA_OPD_M0: case ISA_OPD_NULL:
    case ISA_OPD_SCC: case ISA_OPD_VCCZ: case ISA_OPD_EXECZ: case ISA_OPD_INLINE: case ISA_OPD_LITERAL: {
        uint64_t v = (t == TY_F64 || t == TY_B64) ? ex_sread64(c, o, t) : ex_sread(c, o, 0, t);
        s->uni[0] = (uint32_t)v;
        s->uni[1] = (uint32_t)(v >> 32);
        return 0;
    }
    default:
        return ex_error(c, "unsupported source operand"), -1;
    }
}
