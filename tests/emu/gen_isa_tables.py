#!/usr/bin/env python3
"""gen_isa_tables.py - opcode tables for the emulator's decoder, as data.

For each encoding format of each family, builds one canonical encoding per
opcode value (fixed, distinct register numbers in every field), asks
llvm-mc-22 --disassemble what it is, and records the mnemonic and the
operand order/widths it prints. Output (checked in, regenerate after an
LLVM upgrade):  isa_ops.inc  isa_tab_gfx9.inc (gfx942)  isa_tab_gfx90a.inc
isa_tab_gfx11.inc (gfx1100)

Run from tests/emu:  python3 gen_isa_tables.py
"""
import re
import subprocess
import sys

MC = "llvm-mc-22"
# Field values: dst 8, src0 16, src1 24, src2 32, VOP3b sdst 40.
D, S0, S1, S2, SD = 8, 16, 24, 32, 40
ROLE = {D: "D", S0: "0", S1: "1", S2: "2", SD: "S"}

# gfx11 names whose operation is the gfx9 one: share the enum value.
ALIAS = {
    "v_add_nc_u32": "v_add_u32", "v_sub_nc_u32": "v_sub_u32",
    "v_subrev_nc_u32": "v_subrev_u32", "v_add_nc_u16": "v_add_u16",
    "v_sub_nc_u16": "v_sub_u16",
    "v_add_co_ci_u32": "v_addc_co_u32", "v_sub_co_ci_u32": "v_subb_co_u32",
    "v_subrev_co_ci_u32": "v_subbrev_co_u32",
    "v_lshlrev_b16": "v_lshlrev_b16", "v_mad_u32_u16": "v_mad_u32_u16",
    "s_and_not1_b32": "s_andn2_b32", "s_and_not1_b64": "s_andn2_b64",
    "s_or_not1_b32": "s_orn2_b32", "s_or_not1_b64": "s_orn2_b64",
    "s_and_not1_saveexec_b32": "s_andn2_saveexec_b32",
    "s_and_not1_saveexec_b64": "s_andn2_saveexec_b64",
    "s_or_not1_saveexec_b32": "s_orn2_saveexec_b32",
    "s_or_not1_saveexec_b64": "s_orn2_saveexec_b64",
    "s_load_b32": "s_load_dword", "s_load_b64": "s_load_dwordx2",
    "s_load_b128": "s_load_dwordx4", "s_load_b256": "s_load_dwordx8",
    "s_load_b512": "s_load_dwordx16",
    "v_dot2_f32_f16": "v_dot2_f32_f16",
    "v_cvt_pk_norm_i16_f32": "v_cvt_pknorm_i16_f32",
    "v_cvt_pk_norm_u16_f32": "v_cvt_pknorm_u16_f32",
    "v_fma_mix_f32": "v_fma_mix_f32",
}
for seg in ("global", "flat", "scratch"):
    for a, b in (("b32", "dword"), ("b64", "dwordx2"), ("b96", "dwordx3"),
                 ("b128", "dwordx4"), ("u8", "ubyte"), ("i8", "sbyte"),
                 ("u16", "ushort"), ("i16", "sshort"),
                 ("d16_u8", "ubyte_d16"), ("d16_i8", "sbyte_d16"),
                 ("d16_b16", "short_d16"), ("d16_hi_u8", "ubyte_d16_hi"),
                 ("d16_hi_i8", "sbyte_d16_hi"), ("d16_hi_b16", "short_d16_hi")):
        ALIAS[f"{seg}_load_{a}"] = f"{seg}_load_{b}"
    for a, b in (("b8", "byte"), ("b16", "short"), ("b32", "dword"),
                 ("b64", "dwordx2"), ("b96", "dwordx3"), ("b128", "dwordx4"),
                 ("d16_hi_b8", "byte_d16_hi"), ("d16_hi_b16", "short_d16_hi")):
        ALIAS[f"{seg}_store_{a}"] = f"{seg}_store_{b}"
for a, b in (("b32", "b32"), ("b64", "b64"), ("b96", "b96"), ("b128", "b128"),
             ("u8", "u8"), ("i8", "i8"), ("u16", "u16"), ("i16", "i16"),
             ("2addr_b32", "2_b32"), ("2addr_b64", "2_b64"),
             ("2addr_stride64_b32", "2st64_b32"), ("2addr_stride64_b64", "2st64_b64"),
             ("u8_d16", "u8_d16"), ("u8_d16_hi", "u8_d16_hi"),
             ("i8_d16", "i8_d16"), ("i8_d16_hi", "i8_d16_hi"),
             ("u16_d16", "u16_d16"), ("u16_d16_hi", "u16_d16_hi")):
    # ds_load_2addr_b32 is gfx9's ds_read2_b32 (as the stores below)
    ALIAS[f"ds_load_{a}"] = "ds_read" + ("" if b.startswith("2") else "_") + b
for a, b in (("b8", "b8"), ("b16", "b16"), ("b32", "b32"), ("b64", "b64"),
             ("b96", "b96"), ("b128", "b128"), ("2addr_b32", "2_b32"),
             ("2addr_b64", "2_b64"), ("2addr_stride64_b32", "2st64_b32"),
             ("2addr_stride64_b64", "2st64_b64"),
             ("b8_d16_hi", "b8_d16_hi"), ("b16_d16_hi", "b16_d16_hi")):
    ALIAS[f"ds_store_{a}"] = "ds_write" + ("" if b.startswith("2") else "_") + b


def w(*dw):
    out = []
    for d in dw:
        out += [(d >> (8 * i)) & 0xFF for i in range(4)]
    return ",".join("0x%02x" % b for b in out)


VOP3_SRCS = [(256 + S0, 256 + S1, 256 + S2), (S0, S1, S2), (256 + S0, 256 + S1, S2),
             (S0, 256 + S1, 256 + S2), (256 + S0, 256 + S1, 0), (256 + S0, 0, 0),
             (S0, S1, 0), (S0, 0, 0), (256 + S0, S1, 0), (256 + S0, S1, S2)]


def enc(fam, fmt, op, alt=0):
    """Canonical encoding(s) of opcode op in fmt; alt selects a variant."""
    v = lambda r: 256 + r  # vgpr as a 9-bit source code
    if fmt == "SOP2":
        return w((2 << 30) | (op << 23) | (D << 16) | (S1 << 8) | S0)
    if fmt == "SOPK":  # alt 1: no sdst (it must be zero)
        return w((0xB << 28) | (op << 23) | ((D if alt == 0 else 0) << 16) | 0x10)
    if fmt == "SOP1":  # alts: no sdst / no ssrc0 (those fields must be zero)
        d, s0 = [(D, S0), (0, S0), (D, 0)][alt]
        return w(0xBE800000 | (d << 16) | (op << 8) | s0)
    if fmt == "SOPC":
        return w(0xBF000000 | (op << 16) | (S1 << 8) | S0)
    if fmt == "SOPP":
        return w(0xBF800000 | (op << 16) | 0)
    if fmt == "SMEM":  # gfx9 alt 1: no address (s_memtime, s_memrealtime)
        if fam == 9:
            if alt == 1:
                return w((0x30 << 26) | (op << 18) | (D << 6), 0)
            return w((0x30 << 26) | (op << 18) | (1 << 17) | (D << 6) | (S0 >> 1), 0x10)
        return w((0x3D << 26) | (op << 18) | (D << 6) | (S0 >> 1), (0x7C << 25) | 0x10)
    if fmt == "VOP1":
        return w(0x7E000000 | (D << 17) | (op << 9) | (v(S0) if alt == 0 else S0))
    if fmt == "VOP2":
        if alt == 2:  # madmk/madak/fmamk/fmaak: literal constant K
            return w((op << 25) | (D << 17) | (S1 << 9) | v(S0), 0x11223344)
        return w((op << 25) | (D << 17) | (S1 << 9) | (v(S0) if alt == 0 else S0))
    if fmt == "VOPC":
        return w(0x7C000000 | (op << 17) | (S1 << 9) | (v(S0) if alt == 0 else S0))
    if fmt == "VOP3":
        top = 0x34 if fam == 9 else 0x35
        src = VOP3_SRCS[alt]
        return w((top << 26) | (op << 16) | D, (src[2] << 18) | (src[1] << 9) | src[0])
    if fmt == "VOP3B":  # sdst in bits 14:8 (both families)
        top = 0x34 if fam == 9 else 0x35
        src = VOP3_SRCS[alt]
        return w((top << 26) | (op << 16) | (SD << 8) | D, (src[2] << 18) | (src[1] << 9) | src[0])
    if fmt == "VOP3P":
        pre = 0xD3800000 if fam == 9 else 0xCC000000
        return w(pre | (op << 16) | (1 << 14) | D, (3 << 27) | (v(S2) << 18) | (v(S1) << 9) | v(S0))
    if fmt == "DS":  # alts: unused fields must be zero
        d0 = (0x36 << 26) | (op << (17 if fam == 9 else 18))
        vd, d1f, d2f = [(D, S1, S2), (D, 0, 0), (0, S1, 0), (0, S1, S2), (D, S1, 0)][alt]
        return w(d0, (vd << 24) | (d2f << 16) | (d1f << 8) | S0)
    if fmt in ("FLAT", "GLOBAL", "SCRATCH"):
        seg = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}[fmt]
        off = 0x7F if fam == 9 else 0x7C
        if fam == 9:
            d0 = (0x37 << 26) | (op << 18) | (seg << 14)
        else:
            d0 = (0x37 << 26) | (op << 18) | (seg << 16)
        vd, dat = [(D, S1), (D, 0), (0, S1)][alt % 3]  # unused fields must be zero
        if alt >= 3:
            off = 0
        return w(d0, (vd << 24) | (off << 16) | (dat << 8) | S0)
    raise ValueError(fmt)


RANGES = {
    "SOP2": 96, "SOPK": 29, "SOP1": 256, "SOPC": 128, "SOPP": 128,
    "SMEM": 256, "VOP1": 256, "VOP2": 62, "VOPC": 256, "VOP3": 1024,
    "VOP3P": 128, "DS": 256, "FLAT": 128, "GLOBAL": 128, "SCRATCH": 128,
}
ALTS = {"SMEM": 2, "SOP1": 3, "SOPK": 2, "FLAT": 6, "GLOBAL": 6, "SCRATCH": 6, "DS": 5, "VOP1": 2, "VOP2": 3, "VOPC": 2, "VOP3": 10}


def disasm(mcpu, lines):
    """encoding string -> printed text, for those llvm-mc accepts. Each
    encoding is followed by a marker (s_nop i) so output lines pair with
    input lines even where llvm-mc re-encodes unused fields differently."""
    inp = []
    for i, e in enumerate(lines):
        # twice: an instruction that wants a literal eats the first one
        inp += [e, w(0xB0000000 | (i & 0xFFFF)), w(0xB0000000 | (i & 0xFFFF))]  # s_movk_i32 s0, i
    p = subprocess.run([MC, "--disassemble", "-show-encoding", "-triple=amdgcn",
                        "-mcpu=" + mcpu], input="\n".join(inp) + "\n",
                       capture_output=True, text=True)
    res, cur = {}, []
    for ln in p.stdout.splitlines():
        m = re.match(r"\s*(.*?)\s*; encoding: \[(.*)\]", ln)
        if not m:
            continue
        t = re.match(r"s_movk_i32 s0, (0x[0-9a-f]+|\d+)$", m.group(1))
        if t:
            i = int(t.group(1), 0)
            if i < len(lines) and len(cur) == 1 and "/*" not in cur[0][0] and cur[0][1].count(",") == lines[i].count(",") \
                    and cur[0][1][5:19] == lines[i][5:19]:  # same length, opcode bytes
                res[lines[i]] = cur[0][0]
            cur = []
        else:
            cur.append((m.group(1), m.group(2)))
    return res


TOK = re.compile(r"^([sva])(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?$")


def parse(text, fmt):
    """-> (name, tmpl items, widths dict role->n, dst type)"""
    parts = text.split(None, 1)
    name = parts[0]
    rest = parts[1] if len(parts) > 1 else ""
    if fmt == "SOPP":
        return name, ["K"] if rest else [], {}, ""
    # operands are joined by ", "; the first other space starts modifiers
    rest = re.split(r"(?<!,) ", rest, maxsplit=1)[0]
    ops = [o.strip() for o in rest.split(",")] if rest else []
    items, wid, dtype = [], {}, ""
    for o in ops:
        m = TOK.match(o)
        if m:
            lo = int(m.group(2) or m.group(3))
            n = 1 if m.group(2) else int(m.group(4)) - lo + 1
            role = ROLE.get(lo)
            if role is None:
                items.append(o)
                continue
            if role == "D":
                dtype = m.group(1)
            wid[role] = n
            items.append(role + (m.group(5) or ""))
        elif o == "0x11223344":
            items.append("L")
        elif re.match(r"^-?(0x[0-9a-fA-F]+|\d+)$", o):
            items.append("O")
        else:
            items.append(o)
    return name, items, wid, dtype


def unresolved(text, fmt):
    """register tokens in text that no field of the canonical encoding explains"""
    return sum(1 for it in parse(text, fmt)[1] if TOK.match(it))


def base(name):
    for suf in ("_e32", "_e64"):
        if name.endswith(suf):
            name = name[: -len(suf)]
    return ALIAS.get(name, name)


def gen(fam, mcpu, fmts):
    rows = []
    for fmt in fmts:
        nalt = ALTS.get(fmt, 1)
        found = {}
        for alt in range(nalt):
            top = 0x380 if (fmt == "VOP3" and fam == 9) else RANGES[fmt]
            # every alt is tried; the text naming the most fields wins
            todo = [op for op in range(top) if op not in found or unresolved(found[op], fmt)]
            if not todo:
                break
            encs = {op: enc(fam, fmt, op, alt) for op in todo}
            got = disasm(mcpu, list(encs.values()))
            for op, e in encs.items():
                if e in got and (op not in found or unresolved(got[e], fmt) < unresolved(found[op], fmt)):
                    found[op] = got[e]
        if fmt == "VOP3":
            # VOP3b (carry-out sdst) ops: re-read with sdst set, so the
            # table shows it; recognised by the printed sgpr pair/one.
            done = set()
            for alt in range(len(VOP3_SRCS)):
                encs = {op: enc(fam, "VOP3B", op, alt) for op in found if op not in done}
                got = disasm(mcpu, list(encs.values()))
                for op, e in encs.items():
                    t = got.get(e)
                    if t and re.search(r"\bs(\[40:41\]|40)(,|$)", t) and \
                            unresolved(t, fmt) <= unresolved(found[op], fmt):
                        found[op] = t
                        done.add(op)
        for op in sorted(found):
            text = found[op]
            name, items, wid, dtype = parse(text, fmt)
            if fmt in ("FLAT", "GLOBAL", "SCRATCH") and not name.startswith(fmt.lower()):
                continue
            rows.append((fmt, op, name, items, wid, dtype))
    return rows


def main():
    fam9 = gen(9, "gfx942", ["SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP1",
                             "VOP2", "VOPC", "VOP3", "VOP3P", "DS", "FLAT", "GLOBAL"])
    # gfx90a: its own map (v_mac/v_mad*/madmk live where gfx940 has fma ops)
    fam90a = gen(9, "gfx90a", ["SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP1",
                               "VOP2", "VOPC", "VOP3", "VOP3P", "DS", "FLAT", "GLOBAL"])
    fam11 = gen(11, "gfx1100", ["SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP1",
                                "VOP2", "VOPC", "VOP3", "VOP3P", "DS", "FLAT", "GLOBAL"])
    names = sorted({base(r[2]) for r in fam9 + fam90a + fam11})
    with open("isa_ops.inc", "w") as f:
        f.write("/* Generated by gen_isa_tables.py from llvm-mc-22: do not edit. */\n")
        for n in names:
            f.write("ISA_OP(%s)\n" % n)
    for fam, rows in (("9", fam9), ("90a", fam90a), ("11", fam11)):
        with open("isa_tab_gfx%s.inc" % fam, "w") as f:
            f.write("/* Generated by gen_isa_tables.py from llvm-mc-22: do not edit.\n"
                    " * {name, op, fmt, opcode, {dwords of dst, sdst, src0, src1, src2}, [dst type:]operand order} */\n")
            for fmt, op, name, items, wid, dtype in rows:
                ws = ",".join(str(wid.get(k, 0)) for k in ("D", "S", "0", "1", "2"))
                tm = ",".join(items)
                if dtype:
                    tm = dtype + ":" + tm
                f.write('{"%s", ISA_OP_%s, ISA_FMT_%s, %d, {%s}, "%s"},\n'
                        % (name, base(name), fmt, op, ws, tm))
    print("ops %d, gfx942 %d, gfx90a %d, gfx11 %d" % (len(names), len(fam9), len(fam90a), len(fam11)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
