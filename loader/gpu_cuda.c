/* gpu_cuda.c — gpu.h mapped onto the CUDA driver API (libcuda, opened at
 * run time), to run the NVIDIA build of the same kernels. */
#include "gpu.h"
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { INIT, COUNT, DEVGET, ATTR, NAME, CTXRETAIN, CTXSET, CTXRELEASE, MLOAD, MUNLOAD, GETFN, LAUNCH,
       MALLOC, FREE, HTOD, DTOH, HTODASYNC, MEMSET, SYNC, EVCREATE, EVRECORD, EVSYNC, EVDESTROY,
       STREAMWAIT, ERRSTR, NFN, OCC = NFN /* optional, after the required ones */ };
static const char *const names[NFN] = {
    "cuInit", "cuDeviceGetCount", "cuDeviceGet", "cuDeviceGetAttribute", "cuDeviceGetName",
    "cuDevicePrimaryCtxRetain", "cuCtxSetCurrent", "cuDevicePrimaryCtxRelease_v2", "cuModuleLoadData",
    "cuModuleUnload", "cuModuleGetFunction", "cuLaunchKernel", "cuMemAlloc_v2", "cuMemFree_v2",
    "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemcpyHtoDAsync_v2", "cuMemsetD8_v2",
    "cuCtxSynchronize", "cuEventCreate", "cuEventRecord", "cuEventSynchronize", "cuEventDestroy_v2",
    "cuStreamWaitEvent", "cuGetErrorString"};

typedef unsigned long long dptr; /* CUdeviceptr */
typedef int (*fn_p)(void *);
#define F(g, i, T) ((T)(g)->fn[i])

static int make_current(crk_gpu *g) { return F(g, CTXSET, fn_p)(g->ctx); }
#include "gpu_module.h"
static int gmalloc(crk_gpu *g, void **p, size_t b) {
    dptr d = 0;
    int e = F(g, MALLOC, int (*)(dptr *, size_t))(&d, b);
    *p = (void *)(uintptr_t)d;
    return e;
}
static int gfree(crk_gpu *g, void *p) { return F(g, FREE, int (*)(dptr))((dptr)(uintptr_t)p); }
static int htod(crk_gpu *g, void *d, const void *s, size_t b) {
    return F(g, HTOD, int (*)(dptr, const void *, size_t))((dptr)(uintptr_t)d, s, b);
}
static int dtoh(crk_gpu *g, void *d, const void *s, size_t b) {
    return F(g, DTOH, int (*)(void *, dptr, size_t))(d, (dptr)(uintptr_t)s, b);
}
static int htod_async(crk_gpu *g, void *d, const void *s, size_t b, void *st) {
    return F(g, HTODASYNC, int (*)(dptr, const void *, size_t, void *))((dptr)(uintptr_t)d, s, b, st);
}
static int gmemset(crk_gpu *g, void *p, int v, size_t b) {
    return F(g, MEMSET, int (*)(dptr, unsigned char, size_t))((dptr)(uintptr_t)p, (unsigned char)v, b);
}
static int sync(crk_gpu *g) { return F(g, SYNC, int (*)(void))(); }
static int ev_create(crk_gpu *g, void **e) { return F(g, EVCREATE, int (*)(void **, unsigned))(e, 0x2 /* disable timing */); }
static int ev_record(crk_gpu *g, void *e, void *s) { return F(g, EVRECORD, int (*)(void *, void *))(e, s); }
static int ev_sync(crk_gpu *g, void *e) { return F(g, EVSYNC, fn_p)(e); }
static int ev_destroy(crk_gpu *g, void *e) { return F(g, EVDESTROY, fn_p)(e); }
static int stream_wait(crk_gpu *g, void *s, void *e) {
    return F(g, STREAMWAIT, int (*)(void *, void *, unsigned))(s, e, 0);
}
static const char *err_str(crk_gpu *g, int e) {
    const char *s = NULL;
    if (g->fn[ERRSTR]) F(g, ERRSTR, int (*)(int, const char **))(e, &s);
    return s ? s : "unknown CUDA error";
}
static int occupancy(crk_gpu *g, void *fn, unsigned block, unsigned shm, int *n) {
    if (!g->fn[OCC]) return -1;
    return F(g, OCC, int (*)(int *, void *, int, size_t))(n, fn, (int)block, shm);
}
static void gclose(crk_gpu *g) {
    if (g->ctx) F(g, CTXRELEASE, int (*)(int))(g->device);
    if (g->lib) dlclose(g->lib);
    g->lib = g->ctx = NULL;
}

int crk_gpu_current_cuda(int *device) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return -1;
    int (*get)(int *) = (int (*)(int *))dlsym(lib, "cuCtxGetDevice"); /* CUdevice is an int */
    const int e = get ? get(device) : -1;
    dlclose(lib);
    return e ? -1 : 0;
}

int crk_gpu_open_cuda(crk_gpu *g, int device, char *target, size_t tlen, char *name, size_t nlen,
                      char *why, size_t wlen) {
    memset(g, 0, sizeof *g);
    g->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!g->lib) return snprintf(why, wlen, "CUDA driver not found (libcuda.so.1)"), -1;
    for (int i = 0; i < NFN; i++)
        if (!(g->fn[i] = dlsym(g->lib, names[i]))) {
            snprintf(why, wlen, "CUDA driver lacks %s", names[i]);
            return gclose(g), -1;
        }
    g->fn[OCC] = dlsym(g->lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    int count = 0, dev = 0, major = 0, minor = 0, e;
    if ((e = F(g, INIT, int (*)(unsigned))(0)) || (e = F(g, COUNT, int (*)(int *))(&count)) || !count) {
        snprintf(why, wlen, "no NVIDIA GPU visible (%s)", e ? err_str(g, e) : "0 devices");
        return gclose(g), -1;
    }
    if (device < 0 || device >= count || F(g, DEVGET, int (*)(int *, int))(&dev, device)) {
        snprintf(why, wlen, "CUDA device %d does not exist (%d present)", device, count);
        return gclose(g), -1;
    }
    F(g, ATTR, int (*)(int *, int, int))(&major, 75 /* COMPUTE_CAPABILITY_MAJOR */, dev);
    F(g, ATTR, int (*)(int *, int, int))(&minor, 76 /* COMPUTE_CAPABILITY_MINOR */, dev);
    snprintf(target, tlen, "sm_%d%d", major, minor);
    if (F(g, ATTR, int (*)(int *, int, int))(&g->sm_count, 16 /* MULTIPROCESSOR_COUNT */, dev)) g->sm_count = 0;
    int khz = 0, bits = 0;
    if (F(g, ATTR, int (*)(int *, int, int))(&khz, 36 /* MEMORY_CLOCK_RATE */, dev) ||
        F(g, ATTR, int (*)(int *, int, int))(&bits, 37 /* GLOBAL_MEMORY_BUS_WIDTH */, dev))
        khz = 0;
    g->dram_gbps = crk_gpu_dram_gbps(khz, bits);
    F(g, NAME, int (*)(char *, int, int))(name, (int)nlen, dev);
    if ((e = F(g, CTXRETAIN, int (*)(void **, int))(&g->ctx, dev))) {
        snprintf(why, wlen, "cuDevicePrimaryCtxRetain: %s", err_str(g, e));
        return gclose(g), -1;
    }
    g->api = "cuda", g->image_kind = "nvidia", g->device = dev;
    CRK_GPU_BIND(g);
    return make_current(g) ? (snprintf(why, wlen, "cuCtxSetCurrent failed"), gclose(g), -1) : 0;
}
