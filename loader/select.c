/* select.c — which shipped code object serves this device, and its bytes.
 * Sources: blobs embedded in the library, <dir>/<arch>/<module>.hsaco, or
 * <dir>/<module>.hsaco offload bundles; NVIDIA: <dir>/nvidia/<module>.fatbin
 * (embedded: target "nvidia"). Files are parsed before the runtime sees
 * them, so a damaged file is an error message, never a runtime crash. */
#include "codeobj.h"
#include "context.h"
#include "embedded.h"
#include "error.h"
#include "registry.h"
#include "readfile.h"
#include "target_id.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_CANDIDATES 64

static int is_nvidia(const crk_ctx *ctx) { return !strcmp(ctx->gpu.image_kind, "nvidia"); }

static crk_status read_file(const char *path, uint8_t **buf, size_t *len) {
    char err[256];
    const int rc = crk_read_file(path, buf, len, err, sizeof err);
    if (rc == -2) return crk_fail(CRK_E_CORRUPT, "%s: %s", path, err);
    return rc ? crk_fail(CRK_E_IO, "cannot read %s: %s", path, err) : CRK_OK;
}

/* A module present in the registry (the first one serves for listings). */
static const char *first_module(void) { return crk_registry_count ? crk_registry[0].module : "unary"; }

static size_t list_targets(crk_ctx *ctx, char names[][CRK_CO_TARGET_MAX]) {
    size_t n = 0;
    const char *kind = is_nvidia(ctx) ? "nvidia" : "gfx";
    if (ctx->opt.source == CRK_SOURCE_EMBEDDED) {
        for (size_t i = 0; i < crk_embedded_count && n < MAX_CANDIDATES; i++) {
            if (strncmp(crk_embedded[i].target, kind, strlen(kind))) continue;
            size_t j = 0;
            while (j < n && strcmp(names[j], crk_embedded[i].target)) j++;
            if (j == n) snprintf(names[n++], CRK_CO_TARGET_MAX, "%s", crk_embedded[i].target);
        }
    } else if (ctx->opt.source == CRK_SOURCE_DIR || is_nvidia(ctx)) {
        DIR *d = opendir(ctx->path);
        struct dirent *e;
        while (d && (e = readdir(d)) && n < MAX_CANDIDATES) {
            char p[2048];
            struct stat sb;
            snprintf(p, sizeof p, "%s/%s/%s.%s", ctx->path, e->d_name, first_module(),
                     is_nvidia(ctx) ? "fatbin" : "hsaco");
            if (strncmp(e->d_name, kind, strlen(kind)) == 0 && stat(p, &sb) == 0)
                snprintf(names[n++], CRK_CO_TARGET_MAX, "%s", e->d_name);
        }
        if (d) closedir(d);
    } else { /* AMD bundle: its entries */
        char p[2048], err[256];
        uint8_t *buf;
        size_t len;
        crk_codeobj co;
        snprintf(p, sizeof p, "%s/%s.hsaco", ctx->path, first_module());
        if (read_file(p, &buf, &len) != CRK_OK) return 0;
        if (crk_codeobj_open(buf, len, &co, err, sizeof err) == 0) {
            for (uint32_t i = 0; i < co.nimages && n < MAX_CANDIDATES; i++)
                if (co.images[i].kind == CRK_CO_IMG_AMDGPU)
                    snprintf(names[n++], CRK_CO_TARGET_MAX, "%s", co.images[i].target);
            crk_codeobj_free(&co);
        }
        free(buf);
    }
    return n;
}

crk_status crk_select_target(crk_ctx *ctx) {
    char names[MAX_CANDIDATES][CRK_CO_TARGET_MAX];
    size_t n = list_targets(ctx, names);
    const char *ptrs[MAX_CANDIDATES];
    char have[1024] = "";
    for (size_t i = 0; i < n; i++) {
        ptrs[i] = names[i];
        size_t l = strlen(have);
        snprintf(have + l, sizeof have - l, "%s%s", i ? " " : "", names[i]);
    }
    int pick = -1;
    if (is_nvidia(ctx)) pick = n ? 0 : -1; /* the driver picks the sm_ inside the fatbin */
    else pick = crk_target_pick(ctx->device_target, ptrs, n, ctx->gpu.supports_generic);
    crk_status st = CRK_OK;
    const char *src = ctx->opt.source == CRK_SOURCE_EMBEDDED ? "embedded in libcrk" : ctx->path;
    if (pick >= 0) {
        snprintf(ctx->code_object_target, sizeof ctx->code_object_target, "%s", names[pick]);
    } else if (ctx->opt.source == CRK_SOURCE_EMBEDDED && crk_embedded_count == 0) {
        st = crk_fail(CRK_E_NO_CODE_OBJECT, "this libcrk has no embedded code objects (the small build, "
                      "EMBED=none): open with source CRK_SOURCE_DIR or CRK_SOURCE_BUNDLE and the path of "
                      "an hsaco/ directory");
    } else if (is_nvidia(ctx)) {
        st = crk_fail(CRK_E_NO_CODE_OBJECT, "no NVIDIA build of the kernels (%s) for %s; build it with nvcc "
                      "(make, hsaco/nvidia/) and open with source DIR or BUNDLE", src, ctx->device_target);
    } else {
        char arch[64];
        snprintf(arch, sizeof arch, "%s", ctx->device_target);
        arch[strcspn(arch, ":")] = 0;
        st = crk_fail(CRK_E_NO_CODE_OBJECT,
                      "no code object for %s (%s has: %s); rebuild with ARCHS=%s, or set "
                      "HSA_OVERRIDE_GFX_VERSION to a shipped arch of the same family at your own risk",
                      ctx->device_target, src, n ? have : "nothing", arch);
    }
    return st;
}

/* Validates a file's bytes and returns the image to load (a bundle entry is
 * copied out). Takes ownership of buf. */
static crk_status image_from_file(crk_ctx *ctx, const char *path, uint8_t *buf, size_t len,
                                  const void **image, int *owned) {
    char err[256];
    crk_codeobj co;
    if (crk_codeobj_open(buf, len, &co, err, sizeof err)) {
        free(buf);
        return crk_fail(CRK_E_CORRUPT, "%s: %s; rebuild or reinstall it", path, err);
    }
    crk_status st = CRK_OK;
    if (co.format == CRK_CO_FMT_BUNDLE || co.format == CRK_CO_FMT_CCOB) {
        const crk_co_image *img = NULL;
        for (uint32_t i = 0; i < co.nimages && !img; i++)
            if (!strcmp(co.images[i].target, ctx->code_object_target)) img = &co.images[i];
        uint8_t *copy = img ? malloc(img->size) : NULL;
        if (copy) memcpy(copy, img->data, img->size);
        else st = crk_fail(CRK_E_NO_CODE_OBJECT, "%s has no entry for %s", path, ctx->code_object_target);
        free(buf);
        buf = copy;
    }
    crk_codeobj_free(&co);
    *image = buf, *owned = buf != NULL;
    return st;
}

crk_status crk_module_image(crk_ctx *ctx, const char *module, const void **image, size_t *size,
                            int *owned) {
    *owned = 0;
    if (ctx->opt.source == CRK_SOURCE_EMBEDDED) {
        for (size_t i = 0; i < crk_embedded_count; i++) {
            const crk_blob *b = &crk_embedded[i];
            if (strcmp(b->module, module) || strcmp(b->target, ctx->code_object_target)) continue;
            *image = b->data, *size = (size_t)(b->end - b->data);
            return CRK_OK;
        }
        return crk_fail(CRK_E_NO_CODE_OBJECT, "module '%s' has no embedded code object for %s", module,
                        ctx->code_object_target);
    }
    char path[2048];
    if (is_nvidia(ctx)) snprintf(path, sizeof path, "%s/nvidia/%s.fatbin", ctx->path, module);
    else if (ctx->opt.source == CRK_SOURCE_DIR)
        snprintf(path, sizeof path, "%s/%s/%s.hsaco", ctx->path, ctx->code_object_target, module);
    else snprintf(path, sizeof path, "%s/%s.hsaco", ctx->path, module);
    uint8_t *buf;
    crk_status st = read_file(path, &buf, size);
    if (st != CRK_OK) return st;
    return image_from_file(ctx, path, buf, *size, image, owned);
}
