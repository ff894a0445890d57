/* fuzz_common.h — walks a parsed crk_codeobj touching every field, so ASan
 * flags any pointer the parsers left dangling or out of bounds. */
#ifndef CRK_FUZZ_COMMON_H
#define CRK_FUZZ_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "codeobj.h"

static void fuzz_touch(const crk_codeobj *co, const uint8_t *buf, size_t len)
{
    static const crk_param params[3] = {
        {"numel", "size_t", CRK_ARG_SIZE, 8, -1, CRK_ROLE_NUMEL, 0},
        {"inp", "const float *", CRK_ARG_PTR, 8, CRK_F32, CRK_ROLE_INPUT, 0},
        {"x", "__half", CRK_ARG_SCALAR, 2, CRK_F16, CRK_ROLE_SCALAR, 0},
    };
    const crk_kernel_info ki = {.name = "k", .family = "unary", .op = "copy", .module = "m", .nparams = 3,
                                .info_arrays = 2, .dtypes = {CRK_F32, -1, -1}, .upstream = 1, .params = params,
                                .family_id = CRK_FAMILY_UNARY, .info_param = -1};
    char why[256];
    volatile size_t sink = 0;
    for (uint32_t i = 0; i < co->nimages; i++) {
        const crk_co_image *im = &co->images[i];
        sink += strlen(im->target) + strlen(im->bundle_id);
        /* Image bytes lie in the input or in the owned CCOB payload. */
        if (im->size && im->data >= buf && im->data < buf + len &&
            (size_t)(buf + len - im->data) < im->size)
            abort();
        if (im->size)
            sink += im->data[0] + im->data[im->size - 1];
        for (uint32_t k = 0; k < im->nkernels; k++) {
            const crk_co_kernel *kk = &im->kernels[k];
            sink += strlen(kk->name) + strlen(kk->symbol);
            for (uint32_t a = 0; a < kk->nargs; a++)
                sink += strlen(kk->args[a].name) + strlen(kk->args[a].value_kind) +
                        strlen(kk->args[a].address_space);
            if (kk->nargs)
                (void)crk_check_kernel_abi(&ki, kk, why, sizeof why);
            (void)crk_check_kernel_resources(kk, why, sizeof why);
            /* lookup is linear per name: a few only, or large inputs go quadratic */
            if (k < 64 && crk_co_find_kernel(im, kk->name) == NULL)
                abort();
        }
    }
    (void)sink;
}

#endif
