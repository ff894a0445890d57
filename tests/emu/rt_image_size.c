/* rt_image_size.c — hipModuleLoadData gets a pointer and no length: the
 * length comes from the image's own headers, read here only as far as the
 * size needs (the full validation is crk_codeobj_open's, on the bytes this
 * measures). Layouts as in loader/codeobj_{elf,bundle,ccob}.c. */
#include "rt.h"

#include <string.h>

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ELF64: the farthest of the header tables, every section with file data
 * and every segment's file bytes. */
static int elf_size(const uint8_t *p, size_t *size, char *err, size_t n)
{
    if (p[4] != 2 || p[5] != 1) return crk_co_errf(err, n, "not a 64-bit little-endian ELF"), -1;
    uint64_t phoff = crk_co_le64(p + 32), shoff = crk_co_le64(p + 40);
    uint16_t phnum = crk_co_le16(p + 56), shnum = crk_co_le16(p + 60);
    uint64_t end = max64(64, max64(phoff + (uint64_t)phnum * 56, shoff + (uint64_t)shnum * 64));
    for (uint16_t i = 0; i < shnum; i++) {
        const uint8_t *sh = p + shoff + (uint64_t)i * 64;
        uint32_t type = crk_co_le32(sh + 4);
        if (type != 0 && type != 8 /* SHT_NOBITS */)
            end = max64(end, crk_co_le64(sh + 24) + crk_co_le64(sh + 32));
    }
    for (uint16_t i = 0; i < phnum; i++) {
        const uint8_t *ph = p + phoff + (uint64_t)i * 56;
        if (crk_co_le32(ph)) end = max64(end, crk_co_le64(ph + 8) + crk_co_le64(ph + 32));
    }
    if (end > ((uint64_t)1 << 32)) return crk_co_errf(err, n, "ELF claims %llu bytes", (unsigned long long)end), -1;
    *size = (size_t)end;
    return 0;
}

/* "__CLANG_OFFLOAD_BUNDLE__", u64 count, {u64 offset, u64 size, u64 idlen, id}. */
static int bundle_size(const uint8_t *p, size_t *size, char *err, size_t n)
{
    uint64_t count = crk_co_le64(p + 24), pos = 32, end = 32;
    if (count > CRK_CO_MAX_IMAGES) return crk_co_errf(err, n, "bundle claims %llu entries", (unsigned long long)count), -1;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t off = crk_co_le64(p + pos), sz = crk_co_le64(p + pos + 8), idlen = crk_co_le64(p + pos + 16);
        if (idlen > 1024) return crk_co_errf(err, n, "bundle entry %llu: bad id length", (unsigned long long)i), -1;
        pos += 24 + idlen;
        end = max64(end, max64(pos, off + sz));
    }
    if (end > ((uint64_t)1 << 32)) return crk_co_errf(err, n, "bundle claims %llu bytes", (unsigned long long)end), -1;
    *size = (size_t)end;
    return 0;
}

int rt_image_size(const uint8_t *p, size_t *size, char *err, size_t n)
{
    if (!p) return crk_co_errf(err, n, "no image"), -1;
    if (!memcmp(p, "\177ELF", 4)) return elf_size(p, size, err, n);
    if (!memcmp(p, "__CLANG_OFFLOAD_BUNDLE__", 24)) return bundle_size(p, size, err, n);
    if (!memcmp(p, "CCOB", 4)) {
        unsigned version = crk_co_le16(p + 4); /* v2: u32 total size at 8, v3: u64 */
        if (version == 2) return *size = crk_co_le32(p + 8), 0;
        if (version == 3) return *size = (size_t)crk_co_le64(p + 8), 0;
        return crk_co_errf(err, n, "CCOB v%u does not record its size (need v2 or v3)", version), -1;
    }
    return crk_co_errf(err, n, "not an AMDGPU code object, offload bundle or CCOB"), -1;
}
