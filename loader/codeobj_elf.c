/* codeobj_elf.c — validated view of an ELF64 little-endian file. */
#include "codeobj.h"

#include <string.h>

#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define PHDR_SIZE 56
#define SHT_NOBITS 8

static void shdr_read(const uint8_t *p, crk_elf_shdr *sh)
{
    sh->name = crk_co_le32(p + 0);
    sh->type = crk_co_le32(p + 4);
    sh->flags = crk_co_le64(p + 8);
    sh->offset = crk_co_le64(p + 24);
    sh->size = crk_co_le64(p + 32);
    sh->link = crk_co_le32(p + 40);
    sh->entsize = crk_co_le64(p + 56);
}

int crk_elf_open(crk_elf *e, const uint8_t *buf, size_t len, char *err, size_t n)
{
    memset(e, 0, sizeof *e);
    if (len < EHDR_SIZE) {
        crk_co_errf(err, n, "truncated: ELF header needs 64 bytes, file has %zu", len);
        return -1;
    }
    if (memcmp(buf, "\177ELF", 4) != 0) {
        crk_co_errf(err, n, "bad magic: not an ELF file");
        return -1;
    }
    if (buf[4] != 2) {
        crk_co_errf(err, n, "unsupported ELF class %u (need ELFCLASS64)", buf[4]);
        return -1;
    }
    if (buf[5] != 1) {
        crk_co_errf(err, n, "unsupported ELF data encoding %u (need little-endian)", buf[5]);
        return -1;
    }
    e->buf = buf;
    e->len = len;
    e->osabi = buf[7];
    e->abiversion = buf[8];
    e->machine = crk_co_le16(buf + 18);
    e->phoff = crk_co_le64(buf + 32);
    e->shoff = crk_co_le64(buf + 40);
    e->flags = crk_co_le32(buf + 48);
    uint16_t phentsize = crk_co_le16(buf + 54);
    e->phnum = crk_co_le16(buf + 56);
    uint16_t shentsize = crk_co_le16(buf + 58);
    e->shnum = crk_co_le16(buf + 60);
    e->shstrndx = crk_co_le16(buf + 62);

    if (e->shnum == 0 && e->shoff != 0) {
        crk_co_errf(err, n, "ELF extended section numbering is not supported");
        return -1;
    }
    if (e->shnum && shentsize != SHDR_SIZE) {
        crk_co_errf(err, n, "bad ELF section header size %u (need 64)", shentsize);
        return -1;
    }
    if (e->phnum && phentsize != PHDR_SIZE) {
        crk_co_errf(err, n, "bad ELF program header size %u (need 56)", phentsize);
        return -1;
    }
    uint64_t shbytes = (uint64_t)e->shnum * SHDR_SIZE;
    if (!crk_co_in_range(e->shoff, shbytes, len)) {
        crk_co_errf(err, n,
                    "truncated: section header table at 0x%llx+0x%llx past end of file "
                    "(0x%zx bytes)",
                    (unsigned long long)e->shoff, (unsigned long long)shbytes, len);
        return -1;
    }
    uint64_t phbytes = (uint64_t)e->phnum * PHDR_SIZE;
    if (!crk_co_in_range(e->phoff, phbytes, len)) {
        crk_co_errf(err, n,
                    "truncated: program header table at 0x%llx+0x%llx past end of file "
                    "(0x%zx bytes)",
                    (unsigned long long)e->phoff, (unsigned long long)phbytes, len);
        return -1;
    }
    if (e->shnum && e->shstrndx >= e->shnum) {
        crk_co_errf(err, n, "ELF section name table index %u out of range (%u sections)",
                    e->shstrndx, e->shnum);
        return -1;
    }
    for (uint16_t i = 0; i < e->shnum; i++) {
        crk_elf_shdr sh;
        shdr_read(buf + e->shoff + (uint64_t)i * SHDR_SIZE, &sh);
        if (sh.type == 0 || sh.type == SHT_NOBITS)
            continue;
        if (!crk_co_in_range(sh.offset, sh.size, len)) {
            crk_co_errf(err, n,
                        "truncated: section %u at 0x%llx+0x%llx past end of file (0x%zx bytes)",
                        i, (unsigned long long)sh.offset, (unsigned long long)sh.size, len);
            return -1;
        }
    }
    for (uint16_t i = 0; i < e->phnum; i++) {
        const uint8_t *p = buf + e->phoff + (uint64_t)i * PHDR_SIZE;
        uint64_t off = crk_co_le64(p + 8), filesz = crk_co_le64(p + 32);
        if (crk_co_le32(p) != 0 && !crk_co_in_range(off, filesz, len)) {
            crk_co_errf(err, n,
                        "truncated: segment %u at 0x%llx+0x%llx past end of file (0x%zx bytes)",
                        i, (unsigned long long)off, (unsigned long long)filesz, len);
            return -1;
        }
    }
    return 0;
}

void crk_elf_shdr_at(const crk_elf *e, uint16_t i, crk_elf_shdr *sh)
{
    memset(sh, 0, sizeof *sh);
    if (i >= e->shnum)
        return;
    shdr_read(e->buf + e->shoff + (uint64_t)i * SHDR_SIZE, sh);
    /* Only sections with file data were range-checked at open: report the
     * others as empty so no caller can read through their offsets. */
    if (sh->type == 0 || sh->type == SHT_NOBITS)
        sh->offset = sh->size = 0;
}

const char *crk_elf_str(const crk_elf *e, uint16_t strtab, uint64_t off)
{
    if (strtab == 0 || strtab >= e->shnum)
        return NULL;
    crk_elf_shdr sh;
    crk_elf_shdr_at(e, strtab, &sh);
    if (off >= sh.size)
        return NULL;
    const char *s = (const char *)e->buf + sh.offset + off;
    /* Terminated inside the section (ranges checked at open), and within
     * CRK_CO_MAX_NAME bytes: a scan to the section's end for every symbol
     * would make a crafted table quadratic. */
    uint64_t room = sh.size - off;
    if (room > CRK_CO_MAX_NAME + 1)
        room = CRK_CO_MAX_NAME + 1;
    if (!memchr(s, 0, (size_t)room))
        return NULL;
    return s;
}
