//! Just enough of ELF64 to check an AMDGPU code object without a GPU: its
//! target (e_flags' EF_AMDGPU_MACH) and its kernel symbols.

const EM_AMDGPU: u16 = 224;
const SHT_SYMTAB: u32 = 2;
const SHT_DYNSYM: u32 = 11;
const STT_FUNC: u8 = 2;

/// EF_AMDGPU_MACH_* values (LLVM's BinaryFormat/ELF.h), as libcrk's table.
const MACHS: &[(u32, &str)] = &[
    (0x02c, "gfx900"), (0x02f, "gfx906"), (0x030, "gfx908"), (0x033, "gfx1010"), (0x034, "gfx1011"),
    (0x035, "gfx1012"), (0x036, "gfx1030"), (0x037, "gfx1031"), (0x038, "gfx1032"), (0x039, "gfx1033"),
    (0x03d, "gfx1035"), (0x03e, "gfx1034"), (0x03f, "gfx90a"), (0x040, "gfx940"), (0x041, "gfx1100"),
    (0x043, "gfx1150"), (0x044, "gfx1103"), (0x045, "gfx1036"), (0x046, "gfx1101"), (0x047, "gfx1102"),
    (0x048, "gfx1200"), (0x04a, "gfx1151"), (0x04b, "gfx941"), (0x04c, "gfx942"), (0x04e, "gfx1201"),
    (0x04f, "gfx950"), (0x051, "gfx9-generic"), (0x052, "gfx10-1-generic"), (0x053, "gfx10-3-generic"),
    (0x054, "gfx11-generic"), (0x055, "gfx1152"), (0x058, "gfx1153"), (0x059, "gfx12-generic"),
    (0x05f, "gfx9-4-generic"),
];

fn rd(b: &[u8], at: usize, n: usize) -> Result<u64, String> {
    let s = b.get(at..at + n).ok_or_else(|| format!("truncated ELF (reading {} bytes at {})", n, at))?;
    Ok(s.iter().rev().fold(0u64, |v, &x| (v << 8) | x as u64))
}

fn check_header(b: &[u8]) -> Result<(), String> {
    if !b.starts_with(b"\x7fELF") {
        return Err("not an ELF file".into());
    }
    if b.get(4) != Some(&2) || b.get(5) != Some(&1) {
        return Err("not a little-endian ELF64 file".into());
    }
    if rd(b, 18, 2)? as u16 != EM_AMDGPU {
        return Err(format!("e_machine {} is not EM_AMDGPU", rd(b, 18, 2)?));
    }
    Ok(())
}

/// The processor of an AMDGPU code object (`gfx90a`), from its e_flags.
pub fn target(b: &[u8]) -> Result<&'static str, String> {
    check_header(b)?;
    let mach = rd(b, 48, 4)? as u32 & 0xff;
    MACHS.iter().find(|m| m.0 == mach).map(|m| m.1).ok_or_else(|| format!("unknown EF_AMDGPU_MACH 0x{:x}", mach))
}

/// Names of the function symbols (the kernels) of an AMDGPU code object,
/// from its .dynsym (or .symtab).
pub fn kernel_symbols(b: &[u8]) -> Result<Vec<&str>, String> {
    check_header(b)?;
    let (shoff, shentsize, shnum) = (rd(b, 40, 8)? as usize, rd(b, 58, 2)? as usize, rd(b, 60, 2)? as usize);
    let section = |i: usize| -> Result<(u32, usize, usize, usize, usize), String> {
        let at = shoff + i * shentsize;
        // sh_type, sh_offset, sh_size, sh_link, sh_entsize
        Ok((rd(b, at + 4, 4)? as u32, rd(b, at + 24, 8)? as usize, rd(b, at + 32, 8)? as usize, rd(b, at + 40, 4)? as usize, rd(b, at + 56, 8)? as usize))
    };
    let mut table = None;
    for i in 0..shnum {
        let s = section(i)?;
        if s.0 == SHT_DYNSYM || (s.0 == SHT_SYMTAB && table.is_none()) {
            table = Some(s);
        }
    }
    let (_, off, size, link, entsize) = table.ok_or("no symbol table")?;
    let (_, stroff, strsize, _, _) = section(link)?;
    let strtab = b.get(stroff..stroff + strsize).ok_or("string table outside the file")?;
    let mut names = Vec::new();
    for at in (off..off + size).step_by(entsize.max(24)) {
        let (name, info) = (rd(b, at, 4)? as usize, rd(b, at + 4, 1)? as u8);
        if info & 0xf != STT_FUNC {
            continue;
        }
        let s = strtab.get(name..).ok_or("symbol name outside the string table")?;
        let end = s.iter().position(|&c| c == 0).ok_or("unterminated symbol name")?;
        names.push(std::str::from_utf8(&s[..end]).map_err(|_| "symbol name is not UTF-8")?);
    }
    Ok(names)
}
