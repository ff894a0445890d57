/* fuzz_elf.c — AMDGPU ELF parser (header, sections, notes, metadata). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256], target[CRK_CO_TARGET_MAX];
    crk_codeobj co = {0};
    crk_co_image img;
    memset(&img, 0, sizeof img);
    /* Directly, so inputs need not carry the machine number. */
    if (crk_co_parse_amdgpu(&co, &img, data, size, err, sizeof err) == 0) {
        co.images = &img;
        co.nimages = 1;
        fuzz_touch(&co, data, size);
    }
    crk_codeobj_free(&co);
    (void)crk_codeobj_amdgpu_target(data, size, target, sizeof target, err, sizeof err);
    if (crk_codeobj_open(data, size, &co, err, sizeof err) == 0)
        fuzz_touch(&co, data, size);
    crk_codeobj_free(&co);
    return 0;
}
