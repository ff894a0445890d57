/* codeobj_bundle.c — uncompressed clang offload bundles.
 *
 * Layout: "__CLANG_OFFLOAD_BUNDLE__", u64 entry count, then per entry
 * u64 offset, u64 size, u64 id length, id bytes ("hipv4-amdgcn-amd-amdhsa--gfx90a");
 * offsets are from the start of the bundle. */
#include "codeobj.h"

#include <string.h>

#define MAGIC_LEN 24
#define MAX_ID_LEN 1024

typedef struct {
    uint64_t off, size;
    const char *id;
    uint64_t idlen;
} entry;

static int is_host(const entry *en)
{
    return en->idlen >= 5 && memcmp(en->id, "host-", 5) == 0;
}

/* Reads the entry table; returns the end of the header area or 0. */
static uint64_t read_table(const uint8_t *buf, size_t len, entry *ents, uint64_t count,
                           char *err, size_t n)
{
    uint64_t pos = MAGIC_LEN + 8;
    for (uint64_t i = 0; i < count; i++) {
        if (!crk_co_in_range(pos, 24, len)) {
            crk_co_errf(err, n, "truncated: bundle entry %llu header at 0x%llx past end of "
                        "file (0x%zx bytes)", (unsigned long long)i,
                        (unsigned long long)pos, len);
            return 0;
        }
        entry *en = &ents[i];
        en->off = crk_co_le64(buf + pos);
        en->size = crk_co_le64(buf + pos + 8);
        en->idlen = crk_co_le64(buf + pos + 16);
        pos += 24;
        if (en->idlen == 0 || en->idlen > MAX_ID_LEN) {
            crk_co_errf(err, n, "bundle entry %llu: bad id length %llu",
                        (unsigned long long)i, (unsigned long long)en->idlen);
            return 0;
        }
        if (!crk_co_in_range(pos, en->idlen, len)) {
            crk_co_errf(err, n, "truncated: bundle entry %llu id at 0x%llx+0x%llx past end "
                        "of file (0x%zx bytes)", (unsigned long long)i,
                        (unsigned long long)pos, (unsigned long long)en->idlen, len);
            return 0;
        }
        en->id = (const char *)buf + pos;
        if (memchr(en->id, 0, (size_t)en->idlen)) {
            crk_co_errf(err, n, "bundle entry %llu: id contains a NUL byte",
                        (unsigned long long)i);
            return 0;
        }
        pos += en->idlen;
    }
    return pos;
}

static int check_ranges(const entry *ents, uint64_t count, uint64_t hdr_end, size_t len,
                        char *err, size_t n)
{
    for (uint64_t i = 0; i < count; i++) {
        const entry *a = &ents[i];
        int idl = (int)a->idlen;
        if (!crk_co_in_range(a->off, a->size, len)) {
            crk_co_errf(err, n, "truncated: bundle entry %llu (%.*s) at 0x%llx+0x%llx past "
                        "end of file (0x%zx bytes)", (unsigned long long)i, idl, a->id,
                        (unsigned long long)a->off, (unsigned long long)a->size, len);
            return -1;
        }
        if (a->size == 0)
            continue;
        if (a->off < hdr_end) {
            crk_co_errf(err, n, "bundle entry %llu (%.*s) overlaps the bundle header",
                        (unsigned long long)i, idl, a->id);
            return -1;
        }
        for (uint64_t j = 0; j < i; j++) {
            const entry *b = &ents[j];
            if (b->size && a->off < b->off + b->size && b->off < a->off + a->size) {
                crk_co_errf(err, n, "bundle entry %llu overlaps entry %llu",
                            (unsigned long long)i, (unsigned long long)j);
                return -1;
            }
        }
    }
    return 0;
}

int crk_co_parse_bundle(crk_codeobj *co, const uint8_t *buf, size_t len, char *err, size_t n)
{
    if (len < MAGIC_LEN + 8) {
        crk_co_errf(err, n, "truncated: offload bundle header needs 32 bytes, file has %zu",
                    len);
        return -1;
    }
    uint64_t count = crk_co_le64(buf + MAGIC_LEN);
    if (count == 0) {
        crk_co_errf(err, n, "offload bundle has zero entries");
        return -1;
    }
    /* Each entry header takes at least 25 bytes: bounds count by the file. */
    if (count > CRK_CO_MAX_IMAGES || count > (len - MAGIC_LEN - 8) / 25) {
        crk_co_errf(err, n, "offload bundle entry count %llu exceeds what the file can hold",
                    (unsigned long long)count);
        return -1;
    }
    entry *ents = crk_co_alloc(co, (size_t)count, sizeof *ents);
    crk_co_image *imgs = crk_co_alloc(co, (size_t)count, sizeof *imgs);
    if (!ents || !imgs) {
        crk_co_errf(err, n, "out of memory");
        return -1;
    }
    uint64_t hdr_end = read_table(buf, len, ents, count, err, n);
    if (!hdr_end || check_ranges(ents, count, hdr_end, len, err, n))
        return -1;

    uint32_t nimg = 0;
    for (uint64_t i = 0; i < count; i++) {
        const entry *en = &ents[i];
        if (is_host(en))
            continue; /* host stub, usually empty */
        crk_co_image *img = &imgs[nimg];
        const uint8_t *p = buf + en->off;
        char sub[256];
        int r;
        if (en->size < 20 || memcmp(p, "\177ELF", 4) != 0) {
            crk_co_errf(err, n, "bundle entry %llu (%.*s) is not an ELF code object",
                        (unsigned long long)i, (int)en->idlen, en->id);
            return -1;
        }
        if (crk_co_le16(p + 18) == 190)
            r = crk_co_parse_cubin(co, img, p, (size_t)en->size, sub, sizeof sub);
        else
            r = crk_co_parse_amdgpu(co, img, p, (size_t)en->size, sub, sizeof sub);
        if (r) {
            crk_co_errf(err, n, "bundle entry %llu (%.*s): %s", (unsigned long long)i,
                        (int)en->idlen, en->id, sub);
            return -1;
        }
        crk_co_copy(img->bundle_id, sizeof img->bundle_id, en->id, (size_t)en->idlen);
        nimg++;
    }
    co->format = CRK_CO_FMT_BUNDLE;
    co->images = imgs;
    co->nimages = nimg;
    return 0;
}
