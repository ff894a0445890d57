/* fuzz_bundle.c — clang offload bundles and compressed (CCOB) bundles. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    crk_codeobj co = {0};
    /* Both parsers directly (no magic needed), then through the sniffer. */
    if (crk_co_parse_bundle(&co, data, size, err, sizeof err) == 0)
        fuzz_touch(&co, data, size);
    crk_codeobj_free(&co);
    if (size >= 4 && crk_co_parse_ccob(&co, data, size, err, sizeof err) == 0)
        fuzz_touch(&co, data, size);
    crk_codeobj_free(&co);
    if (crk_codeobj_open(data, size, &co, err, sizeof err) == 0)
        fuzz_touch(&co, data, size);
    crk_codeobj_free(&co);
    return 0;
}
