/* codeobj_open.c — format sniffing: the one entry point of the parsers. */
#include "codeobj.h"

#include <string.h>

#define EM_AMDGPU 224
#define EM_CUDA 190

/* One image from a plain ELF file. */
static int open_elf(crk_codeobj *co, const uint8_t *buf, size_t len, char *err, size_t n)
{
    uint16_t machine = len >= 20 ? crk_co_le16(buf + 18) : 0;
    if (machine != EM_AMDGPU && machine != EM_CUDA) {
        if (len < 64) {
            crk_co_errf(err, n, "truncated: ELF header needs 64 bytes, file has %zu", len);
            return -1;
        }
        crk_co_errf(err, n, "unsupported ELF machine %u (need AMDGPU 224 or CUDA 190)",
                    machine);
        return -1;
    }
    crk_co_image *img = crk_co_alloc(co, 1, sizeof *img);
    if (!img) {
        crk_co_errf(err, n, "out of memory");
        return -1;
    }
    co->format = machine == EM_AMDGPU ? CRK_CO_FMT_AMDGPU_ELF : CRK_CO_FMT_CUBIN;
    int r = machine == EM_AMDGPU ? crk_co_parse_amdgpu(co, img, buf, len, err, n)
                                 : crk_co_parse_cubin(co, img, buf, len, err, n);
    if (r)
        return -1;
    co->images = img;
    co->nimages = 1;
    return 0;
}

int crk_codeobj_open(const uint8_t *buf, size_t len, crk_codeobj *out, char *err,
                     size_t errlen)
{
    static const char bundle_magic[] = "__CLANG_OFFLOAD_BUNDLE__";
    static const uint8_t fatbin_magic[4] = {0x50, 0xed, 0x55, 0xba};
    if (err && errlen)
        err[0] = 0;
    if (!out) {
        crk_co_errf(err, errlen, "invalid argument");
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (!buf && len) {
        crk_co_errf(err, errlen, "invalid argument");
        return -1;
    }
    int r;
    if (len >= 4 && memcmp(buf, "\177ELF", 4) == 0)
        r = open_elf(out, buf, len, err, errlen);
    else if (len >= 24 && memcmp(buf, bundle_magic, 24) == 0)
        r = crk_co_parse_bundle(out, buf, len, err, errlen);
    else if (len >= 4 && memcmp(buf, "CCOB", 4) == 0)
        r = crk_co_parse_ccob(out, buf, len, err, errlen);
    else if (len >= 4 && memcmp(buf, fatbin_magic, 4) == 0)
        r = crk_co_parse_fatbin(out, buf, len, err, errlen);
    else {
        if (len == 0)
            crk_co_errf(err, errlen, "empty file");
        else
            crk_co_errf(err, errlen,
                        "bad magic: not an ELF code object, offload bundle, CCOB or fatbin");
        r = -1;
    }
    if (r) {
        crk_codeobj_free(out);
        return -1;
    }
    return 0;
}
