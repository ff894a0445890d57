/* codeobj_fatbin.c — NVIDIA fatbins: one image per embedded cubin/PTX.
 *
 * Container header (16 bytes): u32 magic 0xBA55ED50, u16 version, u16 header
 * size, u64 size of the entries that follow. Several containers may be
 * concatenated (as in a .nv_fatbin section). Entry header (at least 64 bytes
 * here): u16 kind (1 PTX, 2 ELF), u16 version, u32 header size, u64 payload
 * size, ..., u32 sm arch at 28, u64 flags at 40 (0x2000: compressed). */
#include "codeobj.h"

#include <stdio.h>
#include <string.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_COMPRESSED 0xA000u /* 0x2000 LZ4-style, 0x8000 newer (nvcc -compress-all) */
#define ENTRY_HDR_MIN 64
#define MAX_CONTAINERS 256

/* Walks every entry; with imgs == NULL only counts them. */
static int walk(crk_codeobj *co, const uint8_t *buf, size_t len, crk_co_image *imgs,
                uint32_t *count, char *err, size_t n)
{
    uint64_t pos = 0;
    uint32_t k = 0;
    for (int c = 0; c < MAX_CONTAINERS && len - pos >= 16; c++) {
        const uint8_t *h = buf + pos;
        if (crk_co_le32(h) != FATBIN_MAGIC) {
            if (c == 0) {
                crk_co_errf(err, n, "bad magic: not a fatbin");
                return -1;
            }
            break; /* trailing padding after the last container */
        }
        uint16_t hsize = crk_co_le16(h + 6);
        uint64_t fsize = crk_co_le64(h + 8);
        if (hsize < 16 || !crk_co_in_range(pos + hsize, fsize, len)) {
            crk_co_errf(err, n, "truncated: fatbin container at 0x%llx (header %u, size "
                        "0x%llx) past end of file (0x%zx bytes)", (unsigned long long)pos,
                        hsize, (unsigned long long)fsize, len);
            return -1;
        }
        uint64_t q = pos + hsize, end = q + fsize;
        while (end - q >= 16) {
            const uint8_t *e = buf + q;
            uint16_t kind = crk_co_le16(e);
            uint32_t ehsize = crk_co_le32(e + 4);
            uint64_t psize = crk_co_le64(e + 8);
            if (ehsize < ENTRY_HDR_MIN || !crk_co_in_range(q, ehsize, end) ||
                !crk_co_in_range(q + ehsize, psize, end)) {
                crk_co_errf(err, n, "truncated: fatbin entry %u at 0x%llx (header %u, "
                            "payload 0x%llx) past end of its container", k,
                            (unsigned long long)q, ehsize, (unsigned long long)psize);
                return -1;
            }
            if (k >= CRK_CO_MAX_IMAGES) {
                crk_co_errf(err, n, "fatbin has more than %u entries", CRK_CO_MAX_IMAGES);
                return -1;
            }
            if (imgs) {
                crk_co_image *img = &imgs[k];
                const uint8_t *p = e + ehsize;
                uint32_t arch = crk_co_le32(e + 28);
                uint64_t flags = crk_co_le64(e + 40);
                int elf = psize >= 4 && memcmp(p, "\177ELF", 4) == 0;
                img->data = p;
                img->size = (size_t)psize;
                if (kind == KIND_ELF && elf && !(flags & FLAG_COMPRESSED)) {
                    char sub[256];
                    if (crk_co_parse_cubin(co, img, p, (size_t)psize, sub, sizeof sub)) {
                        crk_co_errf(err, n, "fatbin entry %u (sm_%u): %s", k, arch, sub);
                        return -1;
                    }
                } else {
                    img->kind = kind == KIND_PTX ? CRK_CO_IMG_PTX
                              : kind == KIND_ELF ? CRK_CO_IMG_CUBIN : CRK_CO_IMG_OPAQUE;
                    img->compressed = (flags & FLAG_COMPRESSED) != 0 || (kind == KIND_ELF);
                    snprintf(img->target, sizeof img->target, "%s_%u",
                             kind == KIND_PTX ? "compute" : "sm", arch);
                }
            }
            k++;
            q += ehsize + psize;
        }
        pos = end;
    }
    *count = k;
    return 0;
}

int crk_co_parse_fatbin(crk_codeobj *co, const uint8_t *buf, size_t len, char *err, size_t n)
{
    uint32_t count = 0;
    if (walk(co, buf, len, NULL, &count, err, n))
        return -1;
    if (count == 0) {
        crk_co_errf(err, n, "fatbin has zero entries");
        return -1;
    }
    crk_co_image *imgs = crk_co_alloc(co, count, sizeof *imgs);
    if (!imgs) {
        crk_co_errf(err, n, "out of memory");
        return -1;
    }
    if (walk(co, buf, len, imgs, &count, err, n))
        return -1;
    co->format = CRK_CO_FMT_FATBIN;
    co->images = imgs;
    co->nimages = count;
    return 0;
}
