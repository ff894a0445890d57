//! Clang offload bundles (`__CLANG_OFFLOAD_BUNDLE__`) and the header of
//! compressed ones (`CCOB`), as `clang-offload-bundler` writes them.
//!
//! Plain layout, little-endian: 24-byte magic, u64 entry count, then per
//! entry u64 offset, u64 size, u64 id length and the id
//! (`hipv4-amdgcn-amd-amdhsa--gfx90a`, `host-x86_64-unknown-linux-gnu-`).

/// Magic of a plain offload bundle.
pub const MAGIC: &[u8; 24] = b"__CLANG_OFFLOAD_BUNDLE__";
/// Magic of a compressed offload bundle.
pub const CCOB_MAGIC: &[u8; 4] = b"CCOB";

/// One entry of a plain bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The bundle id, e.g. `hipv4-amdgcn-amd-amdhsa--gfx90a`.
    pub id: &'a str,
    pub data: &'a [u8],
}

impl<'a> Entry<'a> {
    /// The AMD target of an amdgcn entry (`gfx90a`, `gfx90a:xnack-`), else None.
    pub fn target(&self) -> Option<&'a str> {
        let i = self.id.find("amdgcn-amd-amdhsa-")?;
        let rest = &self.id[i + "amdgcn-amd-amdhsa-".len()..];
        // environment field (empty) then the target ID
        Some(rest.strip_prefix('-').unwrap_or(rest))
    }
}

fn le64(b: &[u8], at: usize) -> Option<u64> {
    let s = b.get(at..at.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(s);
    Some(u64::from_le_bytes(a))
}

/// The entries of a plain bundle; an error names what is wrong.
pub fn entries(b: &[u8]) -> Result<Vec<Entry<'_>>, String> {
    if b.starts_with(CCOB_MAGIC) {
        return Err("compressed bundle (CCOB): use ccob_header(), or the per-arch code objects".into());
    }
    if !b.starts_with(MAGIC) {
        return Err("not a clang offload bundle (bad magic)".into());
    }
    let n = le64(b, 24).ok_or("truncated: no entry count")?;
    let mut at = 32usize;
    let mut out = Vec::new();
    for i in 0..n {
        let trunc = || format!("truncated in entry {}", i);
        let (off, size, idlen) = (le64(b, at).ok_or_else(trunc)?, le64(b, at + 8).ok_or_else(trunc)?, le64(b, at + 16).ok_or_else(trunc)?);
        at += 24;
        let id = b.get(at..at + idlen as usize).ok_or_else(trunc)?;
        at += idlen as usize;
        let id = std::str::from_utf8(id).map_err(|_| format!("entry {}: id is not UTF-8", i))?;
        let end = off.checked_add(size).filter(|&e| e <= b.len() as u64);
        let end = end.ok_or_else(|| format!("entry {} ({}): data outside the file", i, id))?;
        out.push(Entry { id, data: &b[off as usize..end as usize] });
    }
    Ok(out)
}

/// The code object for `arch` in a plain bundle: `gfx90a` matches the entry
/// `gfx90a` and any `gfx90a:<features>`; a full target ID must match exactly.
pub fn find<'a>(b: &'a [u8], arch: &str) -> Option<&'a [u8]> {
    let es = entries(b).ok()?;
    let hit = |t: &str| t == arch || (!arch.contains(':') && t.split(':').next() == Some(arch));
    es.iter().find(|e| e.target().map_or(false, hit)).map(|e| e.data)
}

/// Header of a compressed bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CcobHeader {
    /// Format version: 1, 2 (32-bit sizes) or 3 (64-bit sizes).
    pub version: u16,
    /// 0 zlib, 1 zstd.
    pub method: u16,
    /// Bytes of the whole compressed bundle (v1: the file's length).
    pub total_size: u64,
    /// Bytes of the plain bundle inside.
    pub uncompressed_size: u64,
}

/// The header of a CCOB, or None if `b` is not one (or is truncated).
pub fn ccob_header(b: &[u8]) -> Option<CcobHeader> {
    if !b.starts_with(CCOB_MAGIC) || b.len() < 8 {
        return None;
    }
    let le16 = |at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
    let le32 = |at: usize| b.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as u64);
    let (version, method) = (le16(4), le16(6));
    let (total_size, uncompressed_size) = match version {
        1 => (b.len() as u64, le32(8)?),
        2 => (le32(8)?, le32(12)?),
        3 => (le64(b, 8)?, le64(b, 16)?),
        _ => return None,
    };
    Some(CcobHeader { version, method, total_size, uncompressed_size })
}
