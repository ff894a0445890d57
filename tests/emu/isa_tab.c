/* isa_tab.c — opcode tables (generated data) and their lookup by
 * (family, format, opcode). */
#include "isa.h"

static const isa_opinfo tab9[] = {
#include "isa_tab_gfx9.inc"
};
static const isa_opinfo tab90a[] = {
#include "isa_tab_gfx90a.inc"
};
static const isa_opinfo tab11[] = {
#include "isa_tab_gfx11.inc"
};

static const char *const op_names[] = {
#define ISA_OP(name) #name,
#include "isa_ops.inc"
#undef ISA_OP
    "v_dual",
};

#define NOPC 1024
/* Built on first use: a direct index beats searching on every decode. */
static const isa_opinfo *idx[3][ISA_FMT_COUNT][NOPC]; /* gfx940+, gfx11, gfx90a */
static int built;

static void build(void)
{
    for (size_t i = 0; i < sizeof tab9 / sizeof tab9[0]; i++)
        if (!idx[0][tab9[i].fmt][tab9[i].opcode])
            idx[0][tab9[i].fmt][tab9[i].opcode] = &tab9[i];
    for (size_t i = 0; i < sizeof tab90a / sizeof tab90a[0]; i++)
        if (!idx[2][tab90a[i].fmt][tab90a[i].opcode])
            idx[2][tab90a[i].fmt][tab90a[i].opcode] = &tab90a[i];
    for (size_t i = 0; i < sizeof tab11 / sizeof tab11[0]; i++)
        if (!idx[1][tab11[i].fmt][tab11[i].opcode])
            idx[1][tab11[i].fmt][tab11[i].opcode] = &tab11[i];
    built = 1;
}

const isa_opinfo *isa_lookup(emu_isa isa, isa_fmt fmt, unsigned opcode)
{
    if (!built)
        build();
    if (fmt <= ISA_FMT_INVALID || fmt >= ISA_FMT_COUNT || opcode >= NOPC)
        return NULL;
    return idx[isa == EMU_GFX11 ? 1 : isa == ISA_GFX90A ? 2 : 0][fmt][opcode];
}

const char *isa_op_name(unsigned op)
{
    return op < ISA_OP_COUNT ? op_names[op] : "?";
}
