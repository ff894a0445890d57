/* context.c — opening a device, memory helpers, lazy module and function
 * caches. */
#include "context.h"
#include "datadir.h"
#include "error.h"
#include "info_ring.h"
#include "registry.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

crk_status crk_gpu_error(crk_ctx *ctx, int err, const char *what) {
    return crk_fail(CRK_E_GPU, "%s failed on %s: %s (%s error %d)", what, ctx->device_name,
                    ctx->gpu.error_string(&ctx->gpu, err), ctx->gpu.api, err);
}

crk_status crk_open(crk_ctx **out, const crk_options *opt) {
    if (!out) return crk_fail(CRK_E_INVALID, "crk_open: ctx pointer is NULL");
    *out = NULL;
    if (opt && (unsigned)opt->source > CRK_SOURCE_BUNDLE)
        return crk_fail(CRK_E_INVALID, "crk_open: options.source is %d; use CRK_SOURCE_EMBEDDED, CRK_SOURCE_DIR or "
                        "CRK_SOURCE_BUNDLE", (int)opt->source);
    crk_options installed; /* DIR/BUNDLE without a path: the installed artifacts */
    char dir[4096];
    if (opt && opt->source != CRK_SOURCE_EMBEDDED && (!opt->path || !*opt->path) &&
        crk_installed_hsaco_dir(dir, sizeof dir))
        installed = *opt, installed.path = dir, opt = &installed;
    if (opt && opt->source != CRK_SOURCE_EMBEDDED && (!opt->path || !*opt->path))
        return crk_fail(CRK_E_INVALID, "crk_open: source DIR/BUNDLE needs options.path (e.g. \"hsaco\")");
    crk_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return crk_fail(CRK_E_NOMEM, "crk_open: out of memory");
    if (opt) ctx->opt = *opt;
    if (ctx->opt.source != CRK_SOURCE_EMBEDDED) {
        if (!(ctx->path = strdup(ctx->opt.path))) {
            free(ctx);
            return crk_fail(CRK_E_NOMEM, "crk_open: out of memory");
        }
        ctx->opt.path = ctx->path;
    }
    char why[512];
    const int gr = crk_gpu_open(&ctx->gpu, ctx->opt.device, ctx->device_target, sizeof ctx->device_target,
                                ctx->device_name, sizeof ctx->device_name, why, sizeof why);
    if (gr) {
        free(ctx->path);
        free(ctx);
        return crk_fail(gr == CRK_GPU_BAD_CONFIG ? CRK_E_INVALID : CRK_E_NO_DEVICE, "%s", why);
    }
    crk_status st = crk_select_target(ctx);
    if (st == CRK_OK) {
        ctx->modules = calloc(crk_registry_module_count, sizeof *ctx->modules);
        ctx->functions = calloc(crk_registry_count, sizeof *ctx->functions);
        ctx->resident = calloc(crk_registry_count, sizeof *ctx->resident);
        if (!ctx->modules || !ctx->functions || !ctx->resident) st = crk_fail(CRK_E_NOMEM, "crk_open: out of memory");
    }
    if (st == CRK_OK) {
        for (size_t i = 0; i < crk_registry_module_count; i++) pthread_mutex_init(&ctx->modules[i].lock, NULL);
        if (crk_info_ring_init(ctx) != CRK_OK) st = crk_fail(CRK_E_NOMEM, "crk_open: out of memory");
    }
    if (st == CRK_OK) {
        int e = ctx->gpu.malloc(&ctx->gpu, &ctx->info_dev, CRK_INFO_SLOTS * CRK_INFO_SLOT_BYTES);
        if (e) st = crk_gpu_error(ctx, e, "allocating the info-buffer ring");
    }
    if (st != CRK_OK) {
        char keep[1024];
        snprintf(keep, sizeof keep, "%s", crk_last_error());
        crk_close(ctx);
        return crk_fail(st, "%s", keep);
    }
    *out = ctx;
    return CRK_OK;
}

void crk_close(crk_ctx *ctx) {
    if (!ctx) return;
    if (ctx->gpu.lib) {
        ctx->gpu.make_current(&ctx->gpu);
        ctx->gpu.synchronize(&ctx->gpu);
        crk_info_ring_free(ctx);
        if (ctx->info_dev) ctx->gpu.free(&ctx->gpu, ctx->info_dev);
        for (size_t i = 0; ctx->modules && i < crk_registry_module_count; i++) {
            void *m = atomic_load(&ctx->modules[i].module);
            if (m) ctx->gpu.module_unload(&ctx->gpu, m);
            pthread_mutex_destroy(&ctx->modules[i].lock);
        }
        ctx->gpu.close(&ctx->gpu);
    }
    free(ctx->modules);
    free((void *)ctx->functions);
    free((void *)ctx->resident);
    free(ctx->path);
    free(ctx);
}

const char *crk_device_target(const crk_ctx *ctx) { return ctx ? ctx->device_target : ""; }
const char *crk_device_name(const crk_ctx *ctx) { return ctx ? ctx->device_name : ""; }
const char *crk_code_object_target(const crk_ctx *ctx) { return ctx ? ctx->code_object_target : ""; }

crk_status crk_ctx_enter(crk_ctx *ctx, const char *what) {
    const int e = ctx->gpu.make_current(&ctx->gpu);
    if (!e) return CRK_OK;
    char w[192];
    snprintf(w, sizeof w, "%s: making device %d current on this thread", what, ctx->opt.device);
    return crk_gpu_error(ctx, e, w);
}

/* Loads a module on first use; concurrent first users wait on its lock. A
 * failure is returned, not kept: it may be transient (out of memory, a
 * thread without the context), and the next call tries again. */
static void *module_of(crk_ctx *ctx, const crk_kernel_info *ki, crk_status *st) {
    crk_module_slot *ms = &ctx->modules[ki->module_id];
    void *m = atomic_load_explicit(&ms->module, memory_order_acquire);
    if (m) return m;
    pthread_mutex_lock(&ms->lock);
    m = atomic_load(&ms->module);
    if (!m) {
        const void *img;
        size_t size;
        int owned = 0;
        *st = crk_module_image(ctx, ki->module, &img, &size, &owned);
        if (*st == CRK_OK) {
            int e = ctx->gpu.module_load(&ctx->gpu, &m, img);
            if (e) {
                char what[160];
                snprintf(what, sizeof what, "loading module '%s' (%s)", ki->module, ctx->code_object_target);
                *st = crk_gpu_error(ctx, e, what);
                m = NULL;
            } else {
                atomic_store_explicit(&ms->module, m, memory_order_release);
            }
            if (owned) free((void *)img);
        }
    }
    pthread_mutex_unlock(&ms->lock);
    return m;
}

/* The kernel's function, with the context current on this thread (loads
 * run on the caller's thread, so the context must be current first). */
void *crk_function(crk_ctx *ctx, const crk_kernel_info *ki, crk_status *st) {
    if ((*st = crk_ctx_enter(ctx, ki->name)) != CRK_OK) return NULL;
    const size_t idx = (size_t)(ki - crk_registry);
    void *f = atomic_load_explicit(&ctx->functions[idx], memory_order_acquire);
    if (f) return f;
    void *m = module_of(ctx, ki, st);
    if (!m) return NULL;
    int e = ctx->gpu.get_function(&ctx->gpu, &f, m, ki->name);
    if (e) {
        char what[160];
        snprintf(what, sizeof what, "finding kernel '%s' in module '%s'", ki->name, ki->module);
        *st = crk_gpu_error(ctx, e, what);
        return NULL;
    }
    atomic_store_explicit(&ctx->functions[idx], f, memory_order_release);
    return f;
}

/* ------------------------------------------------------ memory helpers */
/* A NULL ctx is an error; otherwise its device is made current. */
#define CHECK_CTX(ctx, what)                                                        \
    do {                                                                            \
        if (!(ctx)) return crk_fail(CRK_E_INVALID, "%s: ctx is NULL", what);        \
        crk_status enter_ = crk_ctx_enter(ctx, what);                               \
        if (enter_ != CRK_OK) return enter_;                                        \
    } while (0)

crk_status crk_malloc(crk_ctx *ctx, void **p, size_t bytes) {
    CHECK_CTX(ctx, "crk_malloc");
    if (!p) return crk_fail(CRK_E_INVALID, "crk_malloc: result pointer is NULL");
    int e = ctx->gpu.malloc(&ctx->gpu, p, bytes ? bytes : 1);
    if (e) return crk_fail(CRK_E_NOMEM, "crk_malloc(%zu bytes) on %s: %s", bytes, ctx->device_name,
                           ctx->gpu.error_string(&ctx->gpu, e));
    return CRK_OK;
}
crk_status crk_free(crk_ctx *ctx, void *p) {
    CHECK_CTX(ctx, "crk_free");
    if (!p) return CRK_OK;
    int e = ctx->gpu.free(&ctx->gpu, p);
    return e ? crk_gpu_error(ctx, e, "crk_free") : CRK_OK;
}
typedef int (*copy_fn)(crk_gpu *g, void *dst, const void *src, size_t bytes);
static crk_status copy(crk_ctx *ctx, const char *what, copy_fn fn, void *dst, const void *src, size_t bytes) {
    CHECK_CTX(ctx, what);
    if (bytes && (!dst || !src)) return crk_fail(CRK_E_INVALID, "%s: NULL pointer", what);
    int e = bytes ? fn(&ctx->gpu, dst, src, bytes) : 0;
    return e ? crk_gpu_error(ctx, e, what) : CRK_OK;
}
crk_status crk_memcpy_htod(crk_ctx *ctx, void *dst, const void *src, size_t bytes) {
    return copy(ctx, "crk_memcpy_htod", ctx ? ctx->gpu.htod : NULL, dst, src, bytes);
}
crk_status crk_memcpy_dtoh(crk_ctx *ctx, void *dst, const void *src, size_t bytes) {
    return copy(ctx, "crk_memcpy_dtoh", ctx ? ctx->gpu.dtoh : NULL, dst, src, bytes);
}
crk_status crk_memset(crk_ctx *ctx, void *p, int byte, size_t bytes) {
    CHECK_CTX(ctx, "crk_memset");
    if (bytes && !p) return crk_fail(CRK_E_INVALID, "crk_memset: NULL pointer");
    int e = bytes ? ctx->gpu.memset(&ctx->gpu, p, byte, bytes) : 0;
    return e ? crk_gpu_error(ctx, e, "crk_memset") : CRK_OK;
}
crk_status crk_synchronize(crk_ctx *ctx) {
    CHECK_CTX(ctx, "crk_synchronize");
    int e = ctx->gpu.synchronize(&ctx->gpu);
    return e ? crk_gpu_error(ctx, e, "synchronize (a kernel may have faulted)") : CRK_OK;
}
