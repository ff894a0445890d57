/* codeobj_ccob.c — compressed clang offload bundles ("CCOB").
 *
 * Header (little-endian), after the 4-byte magic and u16 version, u16 method
 * (0 zlib, 1 zstd):
 *   v1: u32 uncompressed size, u64 hash                      (20 bytes)
 *   v2: u32 total file size, u32 uncompressed size, u64 hash (24 bytes)
 *   v3: u64 total file size, u64 uncompressed size, u64 hash (32 bytes)
 * The compressed stream follows and ends at the total size (v1: end of file).
 * The hash (truncated MD5 of the payload) is not verified: the inner bundle
 * is fully validated instead. */
#include "codeobj.h"

#include <string.h>
#include <zlib.h>
#include <zstd.h>

enum { METHOD_ZLIB = 0, METHOD_ZSTD = 1 };

typedef struct {
    unsigned version, method;
    uint64_t hdr, total, raw;
} ccob_hdr;

static int read_header(const uint8_t *buf, size_t len, ccob_hdr *h, char *err, size_t n)
{
    if (len < 8) {
        crk_co_errf(err, n, "truncated: CCOB header needs 8 bytes, file has %zu", len);
        return -1;
    }
    h->version = crk_co_le16(buf + 4);
    h->method = crk_co_le16(buf + 6);
    switch (h->version) {
    case 1: h->hdr = 20; break;
    case 2: h->hdr = 24; break;
    case 3: h->hdr = 32; break;
    default:
        crk_co_errf(err, n, "unsupported CCOB version %u", h->version);
        return -1;
    }
    if (len < h->hdr) {
        crk_co_errf(err, n, "truncated: CCOB v%u header needs %llu bytes, file has %zu",
                    h->version, (unsigned long long)h->hdr, len);
        return -1;
    }
    if (h->version == 1) {
        h->total = len;
        h->raw = crk_co_le32(buf + 8);
    } else if (h->version == 2) {
        h->total = crk_co_le32(buf + 8);
        h->raw = crk_co_le32(buf + 12);
    } else {
        h->total = crk_co_le64(buf + 8);
        h->raw = crk_co_le64(buf + 16);
    }
    if (h->method != METHOD_ZLIB && h->method != METHOD_ZSTD) {
        crk_co_errf(err, n, "unsupported CCOB compression method %u", h->method);
        return -1;
    }
    if (h->total < h->hdr || h->total > len) {
        crk_co_errf(err, n, "truncated: CCOB total size %llu outside file (%zu bytes)",
                    (unsigned long long)h->total, len);
        return -1;
    }
    if (h->raw > CRK_CO_MAX_UNCOMPRESSED) {
        crk_co_errf(err, n, "CCOB uncompressed size %llu exceeds limit %llu",
                    (unsigned long long)h->raw, (unsigned long long)CRK_CO_MAX_UNCOMPRESSED);
        return -1;
    }
    if (h->raw < 32) {
        crk_co_errf(err, n, "CCOB uncompressed size %llu too small for a bundle",
                    (unsigned long long)h->raw);
        return -1;
    }
    return 0;
}

static int inflate_zstd(const uint8_t *src, size_t slen, uint8_t *dst, size_t dlen,
                        char *err, size_t n)
{
    unsigned long long fcs = ZSTD_getFrameContentSize(src, slen);
    if (fcs == ZSTD_CONTENTSIZE_ERROR) {
        crk_co_errf(err, n, "CCOB zstd frame header is invalid");
        return -1;
    }
    if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != dlen) {
        crk_co_errf(err, n, "CCOB zstd frame content size %llu does not match header size %zu",
                    fcs, dlen);
        return -1;
    }
    size_t r = ZSTD_decompress(dst, dlen, src, slen);
    if (ZSTD_isError(r)) {
        crk_co_errf(err, n, "CCOB zstd decompression failed: %s", ZSTD_getErrorName(r));
        return -1;
    }
    if (r != dlen) {
        crk_co_errf(err, n, "CCOB decompressed to %zu bytes, header says %zu", r, dlen);
        return -1;
    }
    return 0;
}

static int inflate_zlib(const uint8_t *src, size_t slen, uint8_t *dst, size_t dlen,
                        char *err, size_t n)
{
    uLongf out = (uLongf)dlen;
    if (slen > (uLong)-1 || dlen > (uLongf)-1) {
        crk_co_errf(err, n, "CCOB zlib stream too large");
        return -1;
    }
    int r = uncompress(dst, &out, src, (uLong)slen);
    if (r != Z_OK) {
        crk_co_errf(err, n, "CCOB zlib decompression failed (%s)", zError(r));
        return -1;
    }
    if (out != dlen) {
        crk_co_errf(err, n, "CCOB decompressed to %lu bytes, header says %zu",
                    (unsigned long)out, dlen);
        return -1;
    }
    return 0;
}

int crk_co_parse_ccob(crk_codeobj *co, const uint8_t *buf, size_t len, char *err, size_t n)
{
    ccob_hdr h;
    if (read_header(buf, len, &h, err, n))
        return -1;
    const uint8_t *src = buf + h.hdr;
    size_t slen = (size_t)(h.total - h.hdr);
    size_t dlen = (size_t)h.raw;
    /* Owned by co: image data pointers refer into it. */
    uint8_t *dst = crk_co_alloc_raw(co, dlen);
    if (!dst) {
        crk_co_errf(err, n, "out of memory for %zu-byte CCOB payload", dlen);
        return -1;
    }
    int r = h.method == METHOD_ZSTD ? inflate_zstd(src, slen, dst, dlen, err, n)
                                    : inflate_zlib(src, slen, dst, dlen, err, n);
    if (r)
        return -1;
    if (memcmp(dst, "__CLANG_OFFLOAD_BUNDLE__", 24) != 0) {
        crk_co_errf(err, n, "CCOB payload is not an offload bundle (bad magic)");
        return -1;
    }
    char sub[512];
    if (crk_co_parse_bundle(co, dst, dlen, sub, sizeof sub)) {
        crk_co_errf(err, n, "CCOB payload: %s", sub);
        return -1;
    }
    co->format = CRK_CO_FMT_CCOB;
    return 0;
}
