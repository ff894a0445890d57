/* select.c — which shipped code object serves this device, and its bytes.
 * Sources: blobs embedded in the library, <dir>/<arch>/<module>.hsaco, or
 * <dir>/<module>.hsaco offload bundles; NVIDIA: <dir>/nvidia/<module>.fatbin
 * (embedded: target "nvidia"). Files are parsed before the runtime sees
 * them, so a damaged or misplaced file is an error message, never a runtime
 * crash. Paths are built to any length (crk_strf). */
#include "candidates.h"
#include "codeobj.h"
#include "context.h"
#include "embedded.h"
#include "error.h"
#include "registry.h"
#include "readfile.h"
#include "target_id.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_nvidia(const crk_ctx *ctx) { return !strcmp(ctx->gpu.image_kind, "nvidia"); }

static crk_status read_file(const char *path, uint8_t **buf, size_t *len) {
    char err[256];
    const int rc = crk_read_file(path, buf, len, err, sizeof err);
    if (rc == CRK_READ_TOO_BIG) return crk_fail(CRK_E_CORRUPT, "%s: %s", path, err);
    return rc ? crk_fail(CRK_E_IO, "cannot read %s: %s", path, err) : CRK_OK;
}

static crk_status nomem(void) { return crk_fail(CRK_E_NOMEM, "crk_open: out of memory"); }

/* A module present in the registry (the first one serves for listings). */
static const char *first_module(void) { return crk_registry_count ? crk_registry[0].module : "unary"; }

/* Arch directories of ctx->path holding the first module as a regular file. */
static crk_status list_dir_targets(crk_ctx *ctx, const char *kind, crk_candidates *c) {
    DIR *d = opendir(ctx->path);
    if (!d)
        return crk_fail(CRK_E_IO, "cannot open directory %s: %s (options.path: code objects as "
                        "<path>/<arch>/<module>.hsaco, e.g. an hsaco/ directory built by make)", ctx->path,
                        strerror(errno));
    crk_status st = CRK_OK;
    struct dirent *e;
    while (st == CRK_OK && (e = readdir(d))) {
        if (strncmp(e->d_name, kind, strlen(kind))) continue;
        char *p = crk_strf("%s/%s/%s.%s", ctx->path, e->d_name, first_module(), is_nvidia(ctx) ? "fatbin" : "hsaco");
        struct stat sb;
        if (!p) st = nomem();
        else if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && crk_candidates_add(c, e->d_name, kind) < 0) st = nomem();
        free(p);
    }
    closedir(d);
    return st;
}

/* The AMDGPU entries of the first module's bundle; a bundle that cannot be
 * read or parsed is that error (not "no code object"). */
static crk_status list_bundle_targets(crk_ctx *ctx, crk_candidates *c) {
    char err[256];
    uint8_t *buf;
    size_t len;
    crk_codeobj co;
    char *p = crk_strf("%s/%s.hsaco", ctx->path, first_module());
    if (!p) return nomem();
    crk_status st = read_file(p, &buf, &len);
    if (st == CRK_OK && crk_codeobj_open(buf, len, &co, err, sizeof err) != 0)
        st = crk_fail(CRK_E_CORRUPT, "%s: %s; rebuild or reinstall it (make builds hsaco/<module>.hsaco)", p, err);
    else if (st == CRK_OK) {
        for (uint32_t i = 0; i < co.nimages && st == CRK_OK; i++)
            if (co.images[i].kind == CRK_CO_IMG_AMDGPU && crk_candidates_add(c, co.images[i].target, "gfx") < 0)
                st = nomem();
        crk_codeobj_free(&co);
    }
    free(buf);
    free(p);
    return st;
}

static crk_status list_targets(crk_ctx *ctx, crk_candidates *c) {
    const char *kind = is_nvidia(ctx) ? "nvidia" : "gfx";
    crk_status st = CRK_OK;
    if (ctx->opt.source == CRK_SOURCE_EMBEDDED) {
        for (size_t i = 0; i < crk_embedded_count && st == CRK_OK; i++)
            if (crk_candidates_add(c, crk_embedded[i].target, kind) < 0) st = nomem();
    } else if (ctx->opt.source == CRK_SOURCE_DIR || is_nvidia(ctx)) {
        st = list_dir_targets(ctx, kind, c);
    } else {
        st = list_bundle_targets(ctx, c);
    }
    crk_candidates_finish(c);
    return st;
}

crk_status crk_select_target(crk_ctx *ctx) {
    crk_candidates c = {0};
    crk_status st = list_targets(ctx, &c);
    if (st != CRK_OK) return crk_candidates_free(&c), st;
    char have[1024];
    crk_candidates_join(&c, have, sizeof have);
    int pick = -1;
    if (is_nvidia(ctx)) pick = c.n ? 0 : -1; /* the driver picks the sm_ inside the fatbin */
    else pick = crk_target_pick(ctx->device_target, (const char *const *)c.names, c.n, ctx->gpu.supports_generic);
    const char *src = ctx->opt.source == CRK_SOURCE_EMBEDDED ? "embedded in libcrk" : ctx->path;
    if (pick >= 0) {
        snprintf(ctx->code_object_target, sizeof ctx->code_object_target, "%s", c.names[pick]);
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
        const char *generic = crk_target_generic_for(arch);
        if (crk_target_pick(ctx->device_target, (const char *const *)c.names, c.n, 1) >= 0) /* so generic != NULL */
            st = crk_fail(CRK_E_NO_CODE_OBJECT,
                          "no code object for %s that this HIP runtime loads (%s has: %s): %s needs ROCm >= 6.4 "
                          "(code object v6); update ROCm, or rebuild with ARCHS=%s",
                          ctx->device_target, src, have, generic, arch);
        else
            st = crk_fail(CRK_E_NO_CODE_OBJECT,
                          "no code object for %s (%s has: %s); rebuild with ARCHS=%s%s%s%s, or set "
                          "HSA_OVERRIDE_GFX_VERSION to a shipped arch of the same family at your own risk",
                          ctx->device_target, src, c.n ? have : "nothing", arch, generic ? " or ARCHS=" : "",
                          generic ? generic : "", generic ? " (any chip of the family, ROCm >= 6.4)" : "");
    }
    crk_candidates_free(&c);
    return st;
}

/* The image may go to this device's runtime: an AMDGPU object compatible
 * with the device's target ID for HIP (DIR mode trusts no directory name),
 * NVIDIA code for CUDA. */
static crk_status image_fits(const crk_ctx *ctx, const char *path, const crk_co_image *img) {
    if (is_nvidia(ctx)) {
        if (img->kind != CRK_CO_IMG_AMDGPU) return CRK_OK;
        return crk_fail(CRK_E_CORRUPT, "%s holds AMDGPU code (%s), not NVIDIA code; reinstall the NVIDIA build",
                        path, img->target);
    }
    if (img->kind != CRK_CO_IMG_AMDGPU)
        return crk_fail(CRK_E_CORRUPT, "%s holds NVIDIA code (%s), not an AMDGPU code object for %s; rebuild or "
                        "reinstall it", path, img->target, ctx->code_object_target);
    if (!crk_target_compatible(img->target, ctx->device_target, ctx->gpu.supports_generic))
        return crk_fail(CRK_E_CORRUPT, "%s is a code object for %s, which cannot run on this %s (its directory "
                        "says %s); rebuild or reinstall it", path, img->target, ctx->device_target,
                        ctx->code_object_target);
    return CRK_OK;
}

/* Validates a file's bytes and returns the image to load (a bundle entry is
 * copied out). Takes ownership of buf. */
static crk_status image_from_file(crk_ctx *ctx, const char *path, uint8_t *buf, size_t *len,
                                  const void **image, int *owned) {
    char err[256];
    crk_codeobj co;
    if (crk_codeobj_open(buf, *len, &co, err, sizeof err)) {
        free(buf);
        return crk_fail(CRK_E_CORRUPT, "%s: %s; rebuild or reinstall it", path, err);
    }
    crk_status st = CRK_OK;
    if (co.format == CRK_CO_FMT_BUNDLE || co.format == CRK_CO_FMT_CCOB) {
        const crk_co_image *img = NULL;
        for (uint32_t i = 0; i < co.nimages && !img; i++)
            if (!strcmp(co.images[i].target, ctx->code_object_target)) img = &co.images[i];
        uint8_t *copy = NULL;
        if (!img) st = crk_fail(CRK_E_NO_CODE_OBJECT, "%s has no entry for %s", path, ctx->code_object_target);
        else if ((st = image_fits(ctx, path, img)) == CRK_OK && !(copy = malloc(img->size))) st = nomem();
        if (copy) memcpy(copy, img->data, img->size), *len = img->size;
        free(buf);
        buf = copy;
    } else if (co.format != CRK_CO_FMT_FATBIN) {
        st = image_fits(ctx, path, &co.images[0]);
    }
    crk_codeobj_free(&co);
    if (st != CRK_OK) free(buf), buf = NULL;
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
    char *path;
    if (is_nvidia(ctx)) path = crk_strf("%s/nvidia/%s.fatbin", ctx->path, module);
    else if (ctx->opt.source == CRK_SOURCE_DIR) path = crk_strf("%s/%s/%s.hsaco", ctx->path, ctx->code_object_target, module);
    else path = crk_strf("%s/%s.hsaco", ctx->path, module);
    if (!path) return nomem();
    uint8_t *buf;
    crk_status st = read_file(path, &buf, size);
    if (st == CRK_OK) st = image_from_file(ctx, path, buf, size, image, owned);
    free(path);
    return st;
}
