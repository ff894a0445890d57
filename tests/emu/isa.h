/* isa.h — the decoded form of one AMDGPU instruction (ISA half of the
 * emulator). Two encoding families: gfx9 (gfx90a, gfx942; wave64) and
 * gfx11 (gfx1100; wave32). Written from the AMD ISA documents and what
 * llvm-mc-22 / llvm-objdump-22 print for each encoding.
 *
 * The mnemonic enum (isa_op) is shared across families: one value per
 * operation name; where gfx11 renamed an operation with the same semantics
 * (v_add_nc_u32 = v_add_u32, s_load_b32 = s_load_dword, global_load_b32 =
 * global_load_dword, ...: the generator's ALIAS list) both map to the gfx9
 * name's value. The text llvm-objdump prints comes from the
 * per-family opcode table (isa_opinfo.name), not from the enum. */
#ifndef CRK_ISA_H
#define CRK_ISA_H
#include <stddef.h>
#include <stdint.h>
#include "emu.h"

/* ISA_OP_v_add_f32, ... (generated list: isa_ops.inc, see gen_isa_tables.py) */
typedef enum {
#define ISA_OP(name) ISA_OP_##name,
#include "isa_ops.inc"
#undef ISA_OP
    ISA_OP_v_dual,   /* gfx11 VOPD pair: the two ops are in isa_inst.vopd[0..1] */
    ISA_OP_COUNT
} isa_op;

typedef enum {
    ISA_FMT_INVALID = 0,
    ISA_FMT_SOP1, ISA_FMT_SOP2, ISA_FMT_SOPK, ISA_FMT_SOPC, ISA_FMT_SOPP,
    ISA_FMT_SMEM,
    ISA_FMT_VOP1, ISA_FMT_VOP2, ISA_FMT_VOPC, /* 32-bit forms (+SDWA/DPP) */
    ISA_FMT_VOP3,                             /* 64-bit VALU, incl. VOP3b   */
    ISA_FMT_VOP3P,                            /* packed math, mix           */
    ISA_FMT_VOPD,                             /* gfx11 dual issue           */
    ISA_FMT_DS,
    ISA_FMT_FLAT, ISA_FMT_GLOBAL, ISA_FMT_SCRATCH,
    ISA_FMT_COUNT
} isa_fmt;

/* Extra encoding of a VOP1/VOP2/VOPC (or gfx11 VOP3) instruction. */
typedef enum { ISA_ENC_PLAIN = 0, ISA_ENC_SDWA, ISA_ENC_DPP, ISA_ENC_DPP8 } isa_enc;

/* Operand kinds, resolved at decode time. */
typedef enum {
    ISA_OPD_NONE = 0,
    ISA_OPD_SGPR,    /* s[reg .. reg+n-1]                                  */
    ISA_OPD_VGPR,    /* v[reg .. reg+n-1]                                  */
    ISA_OPD_AGPR,    /* a[reg .. reg+n-1] (gfx90a/942: vgpr index reg+256) */
    ISA_OPD_VCC, ISA_OPD_EXEC, ISA_OPD_M0, ISA_OPD_SCC, /* vcc(_lo), exec(_lo) */
    ISA_OPD_VCCZ, ISA_OPD_EXECZ,
    ISA_OPD_NULL,    /* gfx11 null (reads 0, writes dropped)              */
    ISA_OPD_SPECIAL, /* other hw regs (ttmp, flat_scratch, src_*...)      */
    ISA_OPD_INLINE,  /* inline constant: code 128..248, meaning by type   */
    ISA_OPD_LITERAL, /* 32-bit literal following the instruction          */
    ISA_OPD_OFF      /* "off": no saddr / no vaddr                        */
} isa_opd_kind;

typedef struct {
    uint8_t kind;    /* isa_opd_kind                                        */
    uint8_t n;       /* registers (dwords) the operand spans: 1, 2, 3, 4..  */
    uint16_t code;   /* raw 9-bit source code (0..511), or register number   */
    uint16_t reg;    /* register index for SGPR/VGPR/AGPR                    */
} isa_operand;

/* Static facts about one opcode of one family (generated table). */
typedef struct {
    const char *name;   /* as llvm-objdump prints it, e.g. "v_add_f32_e32"   */
    uint16_t op;        /* isa_op                                             */
    uint8_t fmt;        /* isa_fmt                                            */
    uint16_t opcode;    /* opcode field value in that format                  */
    uint8_t w[5];       /* dwords of: dst, sdst(VOP3b), src0, src1, src2      */
    const char *tmpl;   /* operand order as printed: D S 0 1 2 roles, and
                           fixed words (vcc, off, ...), comma separated      */
} isa_opinfo;

/* Operand slots by format:
 *   VALU/SALU: dst, sdst (VOP3b carry-out / VOP3 cmp dst), src[0..2]
 *   SMEM:  dst = sdata, src[0] = sbase, src[1] = soffset (if any)
 *   DS:    dst = vdst, src[0] = addr, src[1] = data0, src[2] = data1
 *   FLAT/GLOBAL/SCRATCH: dst = vdst, src[0] = vaddr, src[1] = vdata,
 *          src[2] = saddr (kind OFF when none) */
typedef struct {
    const isa_opinfo *info; /* NULL: undecodable (raw holds the bits)         */
    uint16_t op;            /* isa_op (copy of info->op)                      */
    uint8_t fmt, enc;       /* isa_fmt, isa_enc                               */
    uint8_t size;           /* bytes, literal included                        */
    uint8_t nsrc;           /* sources present                                */
    uint32_t raw[3];        /* the instruction's dwords (size / 4 of them)    */
    uint32_t literal;       /* valid when a source is ISA_OPD_LITERAL         */
    isa_operand dst, sdst, src[3];
    /* VOP3/VOP3P modifiers (bit i = source i; bit 3 of op_sel = dst) */
    uint8_t neg, abs, neg_hi, op_sel, op_sel_hi, clamp, omod;
    /* SDWA (gfx9): selects 0..6 = BYTE_0..3, WORD_0..1, DWORD */
    uint8_t sdwa_dst_sel, sdwa_dst_unused, sdwa_src_sel[2], sdwa_sext, sdwa_neg, sdwa_abs;
    /* DPP: dpp_ctrl (9 bits), masks; dpp8 = 8 x 3-bit lane selects */
    uint16_t dpp_ctrl;
    uint8_t row_mask, bank_mask, bound_ctrl, fi;
    uint32_t dpp8;
    /* immediates: SOPP/SOPK simm16; memory offsets */
    int32_t simm16;
    int32_t offset;        /* SMEM/FLAT offset (signed where the format is),
                              DS offset (offset0 for 2-address forms)        */
    uint8_t offset1;       /* DS offset1                                      */
    uint8_t glc, slc, dlc, nt, gds; /* FLAT bits 16/17/25: gfx940 prints sc0/nt/sc1,
                                       gfx90a glc/slc/scc; SMEM glc; gfx11 glc/slc/dlc */
    uint8_t smem_imm;      /* SMEM: offset is an immediate                     */
    uint8_t lds;           /* FLAT lds bit                                     */
    /* gfx11 true16: 16-bit VGPR halves. Bit i set = source i reads the high
     * half, bit 3 = dst writes it (VOP3 op_sel, or bit 7 of an e32 VGPR field,
     * folded in here so execution sees one form). */
    uint8_t hi16;
    /* gfx11 VOPD: the X and Y halves (op, dst, sources; literal shared) */
    struct { uint16_t op; const char *name; isa_operand dst, src[3]; uint8_t nsrc; } vopd[2];
} isa_inst;

/* The isa_* functions take an emu_isa, or ISA_GFX90A: the gfx9 encoding
 * family with gfx90a's (and gfx908's) opcode map, which differs from
 * gfx940+'s in a few VALU opcodes (v_mac_f32, v_madmk_f32, ...). */
#define ISA_GFX90A ((emu_isa)90)

/* Decodes the instruction at code[pc]. Returns 0, or -1 with err set
 * (truncated, unknown format/opcode: the raw encoding and pc are named). */
int isa_decode(emu_isa isa, const uint8_t *code, size_t code_size, uint64_t pc,
               isa_inst *out, char *err, size_t elen);

/* Prints one decoded instruction in llvm-objdump's syntax (no comment).
 * gfx9 cache bits print as gfx940's sc0/sc1/nt, or glc/slc for ISA_GFX90A. */
int isa_disasm(emu_isa isa, const isa_inst *in, char *buf, size_t blen);

/* Drops the decode cache of a code object (exec_step.c); call when the
 * runtime unloads it. */
void emu_isa_forget(const uint8_t *code);

/* Opcode tables (isa_tab_gfx9.c, isa_tab_gfx11.c). */
const isa_opinfo *isa_lookup(emu_isa isa, isa_fmt fmt, unsigned opcode);
const char *isa_op_name(unsigned op);

#endif
