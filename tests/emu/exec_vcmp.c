/* exec_vcmp.c — v_cmp_*, v_cmpx_*, v_cmp_class_* in VOPC (e32, SDWA)
 * and VOP3 forms. The condition and type come from the operation's name
 * (table built once): the ISA's compare families differ only in those. */
#include "exec_valu.h"

enum { C_LT = 1, C_EQ = 2, C_GT = 4, C_UN = 8 };
enum { K_NONE, K_F16, K_F32, K_F64, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64 };

typedef struct { uint8_t kind, cond, x, cls; } cmp_info;
static cmp_info tab[ISA_OP_COUNT];
static int built;

static void build(void)
{
    static const struct { const char *n; uint8_t c; } conds[] = {
        { "f", 0 }, { "lt", C_LT }, { "eq", C_EQ }, { "le", C_LT | C_EQ }, { "gt", C_GT },
        { "lg", C_LT | C_GT }, { "ne", C_LT | C_GT }, { "ge", C_GT | C_EQ }, { "o", C_LT | C_EQ | C_GT },
        { "u", C_UN }, { "nge", C_LT | C_UN }, { "nlg", C_EQ | C_UN }, { "ngt", C_LT | C_EQ | C_UN },
        { "nle", C_GT | C_UN }, { "neq", C_LT | C_GT | C_UN }, { "nlt", C_EQ | C_GT | C_UN },
        { "tru", 15 }, { "t", 15 }, { "class", 0 },
    };
    static const char *const kinds[] = { "", "f16", "f32", "f64", "i16", "u16", "i32", "u32", "i64", "u64" };
    for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
        const char *n = isa_op_name(op);
        int x;
        if (!strncmp(n, "v_cmpx_", 7))
            x = 1, n += 7;
        else if (!strncmp(n, "v_cmp_", 6))
            x = 0, n += 6;
        else
            continue;
        const char *us = strrchr(n, '_');
        if (!us)
            continue;
        size_t cl = (size_t)(us - n);
        for (unsigned k = 1; k < sizeof kinds / sizeof kinds[0]; k++) {
            if (strcmp(us + 1, kinds[k]))
                continue;
            for (size_t j = 0; j < sizeof conds / sizeof conds[0]; j++)
                if (strlen(conds[j].n) == cl && !strncmp(n, conds[j].n, cl)) {
                    tab[op].kind = (uint8_t)k;
                    tab[op].cond = conds[j].c;
                    tab[op].x = (uint8_t)x;
                    tab[op].cls = !strcmp(conds[j].n, "class");
                }
        }
    }
    built = 1;
}

/* v_cmp_class bit from raw bits: exponent width ew, mantissa width mw */
static unsigned cls_bits(uint64_t u, unsigned ew, unsigned mw)
{
    unsigned neg = (unsigned)(u >> (ew + mw)) & 1;
    uint64_t e = (u >> mw) & ((1ull << ew) - 1), m = u & ((1ull << mw) - 1);
    if (e == (1ull << ew) - 1) {
        if (!m)
            return neg ? 2 : 9;
        return (m >> (mw - 1)) & 1 ? 1 : 0; /* quiet : signalling */
    }
    if (e == 0)
        return m ? (neg ? 4 : 7) : (neg ? 5 : 6);
    return neg ? 3 : 8;
}

static unsigned rel_f(double a, double b)
{
    return a < b ? C_LT : a == b ? C_EQ : a > b ? C_GT : C_UN;
}

int ex_vcmp(ex_ctx *c)
{
    if (!built)
        build();
    const isa_inst *in = c->in;
    const cmp_info *ci = &tab[in->op];
    if (!ci->kind)
        return EX_UNIMPL;
    emu_wave *w = c->w;
    vctx v;
    ex_ty t;
    switch (ci->kind) {
    case K_F16: t = TY_F16; break;
    case K_F32: t = TY_F32; break;
    case K_F64: t = TY_F64; break;
    case K_I16: case K_U16: t = TY_B16; break;
    case K_I32: case K_U32: t = TY_B32; break;
    default: t = TY_B64; break;
    }
    int r = ex_vprep(c, &v, t, ci->cls ? TY_B32 : t, TY_NONE, TY_NONE);
    if (r)
        return r;
    /* class compares look at raw bits: no denormal flush there */
    if (ci->cls)
        v.ftz_in[0] = 0;
    uint64_t m = 0;
    const unsigned cond = ci->cond;
    if (ci->cls) {
        LANES {
            unsigned k;
            if (ci->kind == K_F64)
                k = cls_bits(R64(&v, 0, l), 11, 52);
            else if (ci->kind == K_F32)
                k = cls_bits(R32(&v, 0, l), 8, 23);
            else
                k = cls_bits(R32(&v, 0, l) & 0xFFFF, 5, 10);
            m |= (uint64_t)((R32(&v, 1, l) >> k) & 1) << l;
        } END
    } else {
        switch (ci->kind) {
        case K_F16:
            LANES m |= (uint64_t)((cond >> __builtin_ctz(rel_f(RH(&v, 0, l), RH(&v, 1, l)))) & 1) << l; END
            break;
        case K_F32:
            LANES m |= (uint64_t)((cond >> __builtin_ctz(rel_f(RF(&v, 0, l), RF(&v, 1, l)))) & 1) << l; END
            break;
        case K_F64:
            LANES m |= (uint64_t)((cond >> __builtin_ctz(rel_f(RD(&v, 0, l), RD(&v, 1, l)))) & 1) << l; END
            break;
        case K_I16: case K_U16: case K_I32: case K_U32: {
            int sg = ci->kind == K_I16 || ci->kind == K_I32, h = ci->kind <= K_U16;
            LANES {
                uint32_t a = R32(&v, 0, l), b = R32(&v, 1, l);
                int64_t x, y;
                if (h)
                    x = sg ? (int16_t)a : (uint16_t)a, y = sg ? (int16_t)b : (uint16_t)b;
                else
                    x = sg ? (int32_t)a : (int64_t)a, y = sg ? (int32_t)b : (int64_t)b;
                unsigned rl = x < y ? C_LT : x == y ? C_EQ : C_GT;
                m |= (uint64_t)((cond >> __builtin_ctz(rl)) & 1) << l;
            } END
            break;
        }
        default: {
            int sg = ci->kind == K_I64;
            LANES {
                uint64_t a = R64(&v, 0, l), b = R64(&v, 1, l);
                unsigned rl = sg ? ((int64_t)a < (int64_t)b ? C_LT : a == b ? C_EQ : C_GT)
                                 : (a < b ? C_LT : a == b ? C_EQ : C_GT);
                m |= (uint64_t)((cond >> __builtin_ctz(rl)) & 1) << l;
            } END
            break;
        }
        }
    }
    /* where the result goes */
    int gfx11 = w->isa == EMU_GFX11;
    if (in->fmt == ISA_FMT_VOPC && in->enc != ISA_ENC_SDWA) {
        if (!(gfx11 && ci->x))
            w->vcc = m;
    } else if (!(gfx11 && ci->x)) {
        if (in->dst.kind == ISA_OPD_VCC && in->dst.n == (gfx11 ? 1 : 2))
            w->vcc = m;
        else if (ex_mask_write(c, &in->dst, m))
            return EMU_STEP_ERROR;
    }
    if (ci->x)
        w->exec = m & c->lanes;
    return EMU_STEP_OK;
}
