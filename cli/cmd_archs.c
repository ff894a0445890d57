/* cmd_archs.c — `crk archs FILE`: the targets inside a code object file. */
#include "cli.h"

#include <stdlib.h>

static const char *kind_name(crk_co_image_kind k)
{
    switch (k) {
    case CRK_CO_IMG_AMDGPU: return "amdgpu";
    case CRK_CO_IMG_CUBIN: return "cubin";
    case CRK_CO_IMG_PTX: return "ptx";
    case CRK_CO_IMG_OPAQUE: return "opaque";
    }
    return "unknown";
}

/* Image indices in the one arch order (cli_arch_cmp); insertion sort: a
 * file holds a few dozen images at most. */
static void arch_order(const crk_codeobj *co, uint32_t *idx)
{
    for (uint32_t i = 0; i < co->nimages; i++) {
        uint32_t j = i;
        while (j > 0 && cli_arch_cmp(co->images[idx[j - 1]].target, co->images[i].target) > 0) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
}

int cmd_archs(const cli_opts *o)
{
    if (o->npositional != 1) {
        fprintf(stderr, "crk archs: expected one FILE (see crk archs --help)\n");
        return EXIT_USAGE;
    }
    const char *path = o->positional[0];
    crk_codeobj co;
    uint8_t *buf;
    char err[512];
    if (cli_open_codeobj(path, &co, &buf, err, sizeof err)) {
        cli_file_error(path, err);
        return EXIT_CORRUPT;
    }
    if (co.nimages == 0) { /* e.g. a bundle with a host entry only */
        cli_file_error(path, "no device code in it (only host entries); nothing to list");
        crk_codeobj_free(&co);
        free(buf);
        return EXIT_FAIL;
    }
    uint32_t *idx = malloc((co.nimages ? co.nimages : 1) * sizeof *idx);
    if (!idx) {
        fprintf(stderr, "crk: out of memory\n");
        crk_codeobj_free(&co);
        free(buf);
        return EXIT_FAIL;
    }
    arch_order(&co, idx);
    if (o->json) {
        printf("{\"file\":");
        cli_json_str(stdout, path);
        printf(",\"format\":\"%s\",\"images\":[", crk_co_format_name(co.format));
        for (uint32_t i = 0; i < co.nimages; i++) {
            const crk_co_image *im = &co.images[idx[i]];
            printf("%s{\"target\":", i ? "," : "");
            cli_json_str(stdout, im->target);
            printf(",\"kind\":\"%s\",\"bundle_id\":", kind_name(im->kind));
            cli_json_str(stdout, im->bundle_id);
            printf(",\"code_object_version\":%d,\"compressed\":%s,\"size\":%zu,\"kernels\":%u}",
                   im->code_object_version, im->compressed ? "true" : "false", im->size,
                   im->nkernels);
        }
        printf("]}\n");
    } else {
        for (uint32_t i = 0; i < co.nimages; i++) {
            const crk_co_image *im = &co.images[idx[i]];
            cli_text(stdout, im->target);
            printf("\t%s", kind_name(im->kind));
            if (im->code_object_version)
                printf(" v%d", im->code_object_version);
            if (im->compressed)
                printf(" compressed");
            printf("\t%u kernels\n", im->nkernels);
        }
    }
    free(idx);
    crk_codeobj_free(&co);
    free(buf);
    return EXIT_OK;
}
