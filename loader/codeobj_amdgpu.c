/* codeobj_amdgpu.c — AMDGPU ELF code objects: header, notes, e_flags target. */
#include "codeobj.h"

#include <stdio.h>
#include <string.h>

#define EM_AMDGPU 224
#define ELFOSABI_AMDGPU_HSA 64
#define SHT_NOTE 7
#define PT_NOTE 4
#define NT_AMDGPU_METADATA 32

const char *crk_co_amdgpu_mach_name(uint32_t mach)
{
    /* EF_AMDGPU_MACH_* values from LLVM's BinaryFormat/ELF.h. */
    static const struct { uint16_t mach; const char *name; } tab[] = {
        {0x020, "gfx600"},  {0x021, "gfx601"},  {0x022, "gfx700"},  {0x023, "gfx701"},
        {0x024, "gfx702"},  {0x025, "gfx703"},  {0x026, "gfx704"},  {0x028, "gfx801"},
        {0x029, "gfx802"},  {0x02a, "gfx803"},  {0x02b, "gfx810"},  {0x02c, "gfx900"},
        {0x02d, "gfx902"},  {0x02e, "gfx904"},  {0x02f, "gfx906"},  {0x030, "gfx908"},
        {0x031, "gfx909"},  {0x032, "gfx90c"},  {0x033, "gfx1010"}, {0x034, "gfx1011"},
        {0x035, "gfx1012"}, {0x036, "gfx1030"}, {0x037, "gfx1031"}, {0x038, "gfx1032"},
        {0x039, "gfx1033"}, {0x03a, "gfx602"},  {0x03b, "gfx705"},  {0x03c, "gfx805"},
        {0x03d, "gfx1035"}, {0x03e, "gfx1034"}, {0x03f, "gfx90a"},  {0x040, "gfx940"},
        {0x041, "gfx1100"}, {0x042, "gfx1013"}, {0x043, "gfx1150"}, {0x044, "gfx1103"},
        {0x045, "gfx1036"}, {0x046, "gfx1101"}, {0x047, "gfx1102"}, {0x048, "gfx1200"},
        {0x049, "gfx1250"}, {0x04a, "gfx1151"}, {0x04b, "gfx941"},  {0x04c, "gfx942"},
        {0x04e, "gfx1201"}, {0x04f, "gfx950"},  {0x051, "gfx9-generic"},
        {0x052, "gfx10-1-generic"}, {0x053, "gfx10-3-generic"}, {0x054, "gfx11-generic"},
        {0x055, "gfx1152"}, {0x058, "gfx1153"}, {0x059, "gfx12-generic"},
        {0x05a, "gfx1251"}, {0x05f, "gfx9-4-generic"},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (tab[i].mach == mach)
            return tab[i].name;
    return NULL;
}

/* Code object version from e_ident (ELFABIVERSION_AMDGPU_HSA_V3..V6). */
static int co_version(const crk_elf *e)
{
    if (e->osabi != ELFOSABI_AMDGPU_HSA || e->abiversion < 1 || e->abiversion > 10)
        return 0;
    return e->abiversion + 2;
}

/* Target ID from e_flags: processor plus sramecc/xnack settings. */
static int flags_target(const crk_elf *e, char *out, size_t cap, char *err, size_t n)
{
    const char *mach = crk_co_amdgpu_mach_name(e->flags & 0xff);
    if (!mach) {
        crk_co_errf(err, n, "unknown AMDGPU processor in e_flags (mach 0x%02x)",
                    (unsigned)(e->flags & 0xff));
        return -1;
    }
    const char *sramecc = "", *xnack = "";
    if (co_version(e) >= 4) {
        static const char *const s[4] = {"", "", ":sramecc-", ":sramecc+"};
        static const char *const x[4] = {"", "", ":xnack-", ":xnack+"};
        sramecc = s[(e->flags >> 10) & 3];
        xnack = x[(e->flags >> 8) & 3];
    } else if (co_version(e) == 3) {
        sramecc = (e->flags & 0x200) ? ":sramecc+" : "";
        xnack = (e->flags & 0x100) ? ":xnack+" : "";
    }
    snprintf(out, cap, "%s%s%s", mach, sramecc, xnack);
    return 0;
}

/* Finds the NT_AMDGPU_METADATA descriptor in one note area. *budget is the
 * number of notes left to walk in the whole file: sections may all point at
 * one large note area, and walking it once per section would be quadratic. */
static int find_note(const uint8_t *p, uint64_t size, const uint8_t **desc, size_t *dlen,
                     uint64_t *budget)
{
    uint64_t pos = 0;
    while (size - pos >= 12) {
        if ((*budget)-- == 0)
            return -2;
        uint32_t namesz = crk_co_le32(p + pos), descsz = crk_co_le32(p + pos + 4);
        uint32_t type = crk_co_le32(p + pos + 8);
        uint64_t name_off = pos + 12;
        uint64_t name_pad = ((uint64_t)namesz + 3) & ~(uint64_t)3;
        uint64_t desc_off = name_off + name_pad;
        uint64_t desc_pad = ((uint64_t)descsz + 3) & ~(uint64_t)3;
        if (!crk_co_in_range(name_off, name_pad, size) ||
            !crk_co_in_range(desc_off, descsz, size))
            return -1; /* malformed note area */
        if (type == NT_AMDGPU_METADATA && namesz == 7 && memcmp(p + name_off, "AMDGPU", 7) == 0) {
            *desc = p + desc_off;
            *dlen = descsz;
            return 1;
        }
        if (!crk_co_in_range(desc_off, desc_pad, size))
            return 0; /* last note, padding cut short */
        pos = desc_off + desc_pad;
    }
    return 0;
}

/* Metadata note from SHT_NOTE sections, else PT_NOTE segments. */
static int metadata_note(const crk_elf *e, const uint8_t **md, size_t *mdlen, char *err,
                         size_t n)
{
    /* Every note takes 12 bytes: a file holds at most len/12, and sections
     * and segments may cover the same ones (PT_NOTE spans the .note sections). */
    uint64_t budget = 2 * (e->len / 12) + 2;
    for (uint16_t i = 0; i < e->shnum; i++) {
        crk_elf_shdr sh;
        crk_elf_shdr_at(e, i, &sh);
        if (sh.type != SHT_NOTE)
            continue;
        int r = find_note(e->buf + sh.offset, sh.size, md, mdlen, &budget);
        if (r == -2)
            break;
        if (r < 0) {
            crk_co_errf(err, n, "malformed note in section %u", i);
            return -1;
        }
        if (r > 0)
            return 0;
    }
    for (uint16_t i = 0; i < e->phnum && budget != UINT64_MAX; i++) {
        const uint8_t *ph = e->buf + e->phoff + (uint64_t)i * 56;
        if (crk_co_le32(ph) != PT_NOTE)
            continue;
        int r = find_note(e->buf + crk_co_le64(ph + 8), crk_co_le64(ph + 32), md, mdlen, &budget);
        if (r == -2)
            break;
        if (r < 0) {
            crk_co_errf(err, n, "malformed note in segment %u", i);
            return -1;
        }
        if (r > 0)
            return 0;
    }
    if (budget == UINT64_MAX) /* wrapped: the walk stopped */
        crk_co_errf(err, n, "note sections overlap: more notes than the file holds");
    else
        crk_co_errf(err, n, "no AMDGPU metadata note (NT_AMDGPU_METADATA) in code object");
    return -1;
}

static int open_amdgpu(crk_elf *e, const uint8_t *buf, size_t len, char *err, size_t n)
{
    if (crk_elf_open(e, buf, len, err, n))
        return -1;
    if (e->machine != EM_AMDGPU) {
        crk_co_errf(err, n, "ELF machine %u is not AMDGPU (224)", e->machine);
        return -1;
    }
    return 0;
}

int crk_co_parse_amdgpu(crk_codeobj *co, crk_co_image *img, const uint8_t *buf, size_t len,
                        char *err, size_t n)
{
    crk_elf e;
    const uint8_t *md;
    size_t mdlen;
    if (open_amdgpu(&e, buf, len, err, n) || metadata_note(&e, &md, &mdlen, err, n))
        return -1;
    img->kind = CRK_CO_IMG_AMDGPU;
    img->data = buf;
    img->size = len;
    img->code_object_version = co_version(&e);
    img->target[0] = 0;
    if (crk_co_parse_amdgpu_metadata(co, img, md, mdlen, err, n))
        return -1;
    if (!img->target[0] && flags_target(&e, img->target, sizeof img->target, err, n))
        return -1;
    return 0;
}

int crk_codeobj_amdgpu_target(const uint8_t *buf, size_t len, char *target, size_t tlen,
                              char *err, size_t errlen)
{
    crk_elf e;
    if (!buf || !target || tlen == 0) {
        crk_co_errf(err, errlen, "invalid argument");
        return -1;
    }
    target[0] = 0;
    if (open_amdgpu(&e, buf, len, err, errlen))
        return -1;
    /* The metadata carries the exact target ID; e_flags is the fallback. */
    const uint8_t *md;
    size_t mdlen;
    if (metadata_note(&e, &md, &mdlen, NULL, 0) == 0) {
        crk_codeobj tmp = {0};
        crk_co_image img;
        memset(&img, 0, sizeof img);
        int r = crk_co_parse_amdgpu_metadata(&tmp, &img, md, mdlen, NULL, 0);
        if (r == 0 && img.target[0])
            crk_co_copy(target, tlen, img.target, sizeof img.target);
        crk_codeobj_free(&tmp);
        if (target[0])
            return 0;
    }
    char t[CRK_CO_TARGET_MAX];
    if (flags_target(&e, t, sizeof t, err, errlen))
        return -1;
    crk_co_copy(target, tlen, t, sizeof t);
    return 0;
}
