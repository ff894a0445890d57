/* fuzz_nv.c — NVIDIA cubin and fatbin parsers. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    crk_codeobj co = {0};
    crk_co_image img;
    memset(&img, 0, sizeof img);
    if (crk_co_parse_cubin(&co, &img, data, size, err, sizeof err) == 0) {
        co.images = &img;
        co.nimages = 1;
        fuzz_touch(&co, data, size);
    }
    crk_codeobj_free(&co);
    if (crk_co_parse_fatbin(&co, data, size, err, sizeof err) == 0)
        fuzz_touch(&co, data, size);
    crk_codeobj_free(&co);
    return 0;
}
