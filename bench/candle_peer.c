/* candle_peer.c — Candle's own CUDA kernels (cubins built from candle-kernels)
 * as the benchmark's same-GPU peer: libcuda opened at run time, each needed
 * <module>.cubin loaded into the primary context, which is where libcrk's CUDA
 * back end allocates (loader/gpu_cuda.c), so the same device buffers serve
 * both. Launches go to the default stream, as libcrk's do. Every driver call
 * is checked; a missing driver, directory or cubin makes the peer unavailable,
 * never a crash. */
#include "bench.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { INIT, DEVGET, RETAIN, RELEASE, SETCUR, GETCUR, MLOAD, MUNLOAD, GETFN, LAUNCH, ERRSTR, NFN };
static const char *const fn_names[NFN] = {
    "cuInit", "cuDeviceGet", "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease_v2", "cuCtxSetCurrent",
    "cuCtxGetCurrent", "cuModuleLoadData", "cuModuleUnload", "cuModuleGetFunction", "cuLaunchKernel",
    "cuGetErrorString"};

#define MAX_MODULES 16
struct candle_peer {
    void *lib, *fn[NFN], *ctx;
    int dev;
    char dir[512];
    struct { char name[32]; void *mod, *img; } mods[MAX_MODULES]; /* img: kept while loaded */
    int nmods;
    void *mmvq_lib;     /* libcandle_mmvq.so, opened on first use */
    int mmvq_tried;
};

typedef int (*fn_p)(void *);
#define CU(p, i, T) ((T)(p)->fn[i])

static const char *err(const candle_peer *p, int e) {
    const char *s = NULL;
    if (p->fn[ERRSTR]) CU(p, ERRSTR, int (*)(int, const char **))(e, &s);
    return s ? s : "unknown CUDA error";
}

void candle_peer_close(candle_peer *p) {
    if (!p) return;
    for (int i = 0; i < p->nmods; i++) {
        if (p->mods[i].mod) CU(p, MUNLOAD, fn_p)(p->mods[i].mod);
        free(p->mods[i].img);
    }
    if (p->mmvq_lib) dlclose(p->mmvq_lib);
    if (p->ctx) CU(p, RELEASE, int (*)(int))(p->dev);
    if (p->lib) dlclose(p->lib);
    free(p);
}

static candle_peer *fail(candle_peer *p, char *why, size_t cap, const char *what, int e) {
    snprintf(why, cap, "%s: %s", what, err(p, e));
    candle_peer_close(p);
    return NULL;
}

candle_peer *candle_peer_open(crk_ctx *ctx, const char *dir, int device, char *why, size_t cap) {
    if (strncmp(crk_device_target(ctx), "sm_", 3)) return snprintf(why, cap, "not an NVIDIA GPU"), NULL;
    candle_peer *p = calloc(1, sizeof *p);
    if (!p) return snprintf(why, cap, "out of memory"), NULL;
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    if (!(p->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)))
        return snprintf(why, cap, "libcuda.so.1 not found"), candle_peer_close(p), NULL;
    for (int i = 0; i < NFN; i++)
        if (!(p->fn[i] = dlsym(p->lib, fn_names[i])))
            return snprintf(why, cap, "libcuda lacks %s", fn_names[i]), candle_peer_close(p), NULL;
    int e;
    if ((e = CU(p, INIT, int (*)(unsigned))(0))) return fail(p, why, cap, "cuInit", e);
    if ((e = CU(p, DEVGET, int (*)(int *, int))(&p->dev, device))) return fail(p, why, cap, "cuDeviceGet", e);
    if ((e = CU(p, RETAIN, int (*)(void **, int))(&p->ctx, p->dev)))
        return p->ctx = NULL, fail(p, why, cap, "cuDevicePrimaryCtxRetain", e);
    /* libcrk makes its context current on every call: it must be this one,
     * or its pointers mean nothing to Candle's kernels */
    void *cur = NULL;
    if (crk_synchronize(ctx) != CRK_OK) return snprintf(why, cap, "crk_synchronize: %s", crk_last_error()), candle_peer_close(p), NULL;
    if ((e = CU(p, GETCUR, int (*)(void **))(&cur))) return fail(p, why, cap, "cuCtxGetCurrent", e);
    if (cur != p->ctx) return snprintf(why, cap, "libcrk's CUDA context is not the primary context"), candle_peer_close(p), NULL;
    if ((e = CU(p, SETCUR, fn_p)(p->ctx))) return fail(p, why, cap, "cuCtxSetCurrent", e);
    return p;
}

/* The loaded module `name`, loading <dir>/<name>.cubin on first use. */
static void *module(candle_peer *p, const char *name, char *why, size_t cap) {
    for (int i = 0; i < p->nmods; i++)
        if (!strcmp(p->mods[i].name, name)) {
            if (!p->mods[i].mod) snprintf(why, cap, "%s.cubin did not load (above)", name);
            return p->mods[i].mod;
        }
    if (p->nmods == MAX_MODULES) return snprintf(why, cap, "too many modules"), NULL;
    int slot = p->nmods++; /* a failure is remembered: no retry per row */
    snprintf(p->mods[slot].name, sizeof p->mods[slot].name, "%s", name);
    char path[600];
    snprintf(path, sizeof path, "%s/%s.cubin", p->dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(why, cap, "cannot open %s", path), NULL;
    long len = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    void *img = len > 0 ? malloc((size_t)len) : NULL;
    const int ok = img && !fseek(f, 0, SEEK_SET) && fread(img, 1, (size_t)len, f) == (size_t)len;
    fclose(f);
    if (!ok) return free(img), snprintf(why, cap, "cannot read %s", path), NULL;
    p->mods[slot].img = img;
    int e = CU(p, SETCUR, fn_p)(p->ctx);
    if (!e) e = CU(p, MLOAD, int (*)(void **, const void *))(&p->mods[slot].mod, img);
    if (e) return p->mods[slot].mod = NULL, snprintf(why, cap, "cuModuleLoadData(%s): %s", path, err(p, e)), NULL;
    return p->mods[slot].mod;
}

void *candle_peer_function(candle_peer *p, const char *mod_name, const char *name, char *why, size_t cap) {
    void *m = module(p, mod_name, why, cap), *f = NULL;
    if (!m) return NULL;
    const int e = CU(p, GETFN, int (*)(void **, void *, const char *))(&f, m, name);
    if (e) return snprintf(why, cap, "no %s in %s.cubin: %s", name, mod_name, err(p, e)), NULL;
    return f;
}

int candle_peer_launch(candle_peer *p, void *fn, const unsigned grid[3], const unsigned block[3], unsigned shared,
                       void **args, char *why, size_t cap) {
    const int e = CU(p, LAUNCH, int (*)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                        void *, void **, void **))(fn, grid[0], grid[1], grid[2], block[0], block[1],
                                                                   block[2], shared, NULL, args, NULL);
    if (e) snprintf(why, cap, "cuLaunchKernel: %s", err(p, e));
    return e;
}

void *candle_peer_launcher(candle_peer *p, const char *name, char *why, size_t cap) {
    char path[600];
    snprintf(path, sizeof path, "%s/libcandle_mmvq.so", p->dir);
    if (!p->mmvq_tried) p->mmvq_tried = 1, p->mmvq_lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!p->mmvq_lib) return snprintf(why, cap, "cannot open %s", path), NULL;
    void *f = dlsym(p->mmvq_lib, name);
    if (!f) snprintf(why, cap, "no %s in %s", name, path);
    return f;
}
