/* fuzz_msgpack.c — msgpack reader and the AMDGPU metadata walker. */
#include "fuzz_common.h"
#include "msgpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    crk_mp_reader r;
    crk_mp_init(&r, data, size);
    /* Skip objects until the end or an error; each step consumes input. */
    while (r.pos < r.len && crk_mp_skip(&r) == 0)
        ;
    crk_mp_init(&r, data, size);
    crk_mp_obj o;
    while (crk_mp_read(&r, &o) == 0) {
        if (o.type == CRK_MP_STR || o.type == CRK_MP_BIN || o.type == CRK_MP_EXT) {
            volatile char c = o.len ? o.ptr[o.len - 1] : 0;
            (void)c;
        }
    }
    char err[256];
    crk_codeobj co = {0};
    crk_co_image img;
    memset(&img, 0, sizeof img);
    if (crk_co_parse_amdgpu_metadata(&co, &img, data, size, err, sizeof err) == 0) {
        img.data = data;
        img.size = size;
        co.images = &img;
        co.nimages = 1;
        fuzz_touch(&co, data, size);
    }
    crk_codeobj_free(&co);
    return 0;
}
