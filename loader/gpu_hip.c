/* gpu_hip.c — gpu.h mapped onto HIP (libamdhip64, opened at run time). */
#include "gpu.h"
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { INIT, COUNT, SETDEV, PROPS6, PROPS5, NAME, VERSION, MLOAD, MUNLOAD, GETFN, LAUNCH, MALLOC,
       FREE, MEMCPY, MEMCPYASYNC, MEMSET, SYNC, EVCREATE, EVRECORD, EVSYNC, EVDESTROY, STREAMWAIT, ERRSTR, ATTR, OCC, NFN };
static const char *const names[NFN] = {
    "hipInit", "hipGetDeviceCount", "hipSetDevice", "hipGetDevicePropertiesR0600",
    "hipGetDeviceProperties", "hipDeviceGetName", "hipRuntimeGetVersion", "hipModuleLoadData",
    "hipModuleUnload", "hipModuleGetFunction", "hipModuleLaunchKernel", "hipMalloc", "hipFree",
    "hipMemcpy", "hipMemcpyAsync", "hipMemset", "hipDeviceSynchronize", "hipEventCreateWithFlags",
    "hipEventRecord", "hipEventSynchronize", "hipEventDestroy", "hipStreamWaitEvent", "hipGetErrorString", "hipDeviceGetAttribute",
    "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor"};

typedef int (*fn_i)(int);
typedef int (*fn_pi)(void *, int);
typedef int (*fn_p)(void *);
#define F(g, i, T) ((T)(g)->fn[i])
enum { H2D = 1, D2H = 2 }; /* hipMemcpyKind */

static int make_current(crk_gpu *g) { return F(g, SETDEV, fn_i)(g->device); }
#include "gpu_module.h"
static int gmalloc(crk_gpu *g, void **p, size_t b) { return F(g, MALLOC, int (*)(void **, size_t))(p, b); }
static int gfree(crk_gpu *g, void *p) { return F(g, FREE, fn_p)(p); }
static int copy(crk_gpu *g, void *d, const void *s, size_t b, int kind) {
    return F(g, MEMCPY, int (*)(void *, const void *, size_t, int))(d, s, b, kind);
}
static int htod(crk_gpu *g, void *d, const void *s, size_t b) { return copy(g, d, s, b, H2D); }
static int dtoh(crk_gpu *g, void *d, const void *s, size_t b) { return copy(g, d, s, b, D2H); }
static int htod_async(crk_gpu *g, void *d, const void *s, size_t b, void *st) {
    return F(g, MEMCPYASYNC, int (*)(void *, const void *, size_t, int, void *))(d, s, b, H2D, st);
}
static int gmemset(crk_gpu *g, void *p, int v, size_t b) { return F(g, MEMSET, int (*)(void *, int, size_t))(p, v, b); }
static int sync(crk_gpu *g) { return F(g, SYNC, int (*)(void))(); }
static int ev_create(crk_gpu *g, void **e) { return F(g, EVCREATE, int (*)(void **, unsigned))(e, 0x2 /* disable timing */); }
static int ev_record(crk_gpu *g, void *e, void *s) { return F(g, EVRECORD, int (*)(void *, void *))(e, s); }
static int ev_sync(crk_gpu *g, void *e) { return F(g, EVSYNC, fn_p)(e); }
static int ev_destroy(crk_gpu *g, void *e) { return F(g, EVDESTROY, fn_p)(e); }
static int stream_wait(crk_gpu *g, void *s, void *e) {
    return F(g, STREAMWAIT, int (*)(void *, void *, unsigned))(s, e, 0);
}
static const char *err_str(crk_gpu *g, int e) {
    const char *s = g->fn[ERRSTR] ? F(g, ERRSTR, const char *(*)(int))(e) : NULL;
    return s ? s : "unknown HIP error";
}
static int occupancy(crk_gpu *g, void *fn, unsigned block, unsigned shm, int *n) {
    if (!g->fn[OCC]) return -1;
    return F(g, OCC, int (*)(int *, void *, int, size_t))(n, fn, (int)block, shm);
}
static void gclose(crk_gpu *g) {
    if (g->lib) dlclose(g->lib);
    g->lib = NULL;
}

/* hipDeviceProp_t changed layout between HIP 5 and 6 (R0000 / R0600). Rather
 * than bake one in, read the struct into a large buffer and find the
 * gcnArchName field by its content: "gfx<hex>" plus optional :feature+/-. */
static int find_arch_name(const char *buf, size_t len, char *out, size_t olen) {
    for (size_t i = 0; i + 4 < len; i++) {
        if ((i && buf[i - 1]) || memcmp(buf + i, "gfx", 3) || !strchr("0123456789", buf[i + 3])) continue;
        size_t n = strnlen(buf + i, len - i);
        if (n >= olen || n >= 256) continue;
        memcpy(out, buf + i, n + 1);
        return 0;
    }
    return -1;
}

/* The HIP runtime: CRK_HIP_LIBRARY (a path tried first, e.g. tests/emu's
 * stand-in), else libamdhip64. NULL with why. */
static void *open_runtime(char *why, size_t wlen) {
    static const char *const libs[] = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"};
    const char *own = getenv("CRK_HIP_LIBRARY");
    void *lib = NULL;
    if (own && *own && !(lib = dlopen(own, RTLD_NOW | RTLD_LOCAL)))
        return snprintf(why, wlen, "CRK_HIP_LIBRARY=%s cannot be opened: %s", own, dlerror()), NULL;
    for (size_t i = 0; i < 3 && !lib; i++) lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) snprintf(why, wlen, "HIP runtime not found (libamdhip64.so)");
    return lib;
}

int crk_gpu_current_hip(int *device) {
    char why[256];
    void *lib = open_runtime(why, sizeof why);
    if (!lib) return -1;
    int (*get)(int *) = (int (*)(int *))dlsym(lib, "hipGetDevice");
    const int e = get ? get(device) : -1;
    dlclose(lib);
    return e ? -1 : 0;
}

int crk_gpu_open_hip(crk_gpu *g, int device, char *target, size_t tlen, char *name, size_t nlen,
                     char *why, size_t wlen) {
    memset(g, 0, sizeof *g);
    if (!(g->lib = open_runtime(why, wlen))) return -1;
    for (int i = 0; i < NFN; i++) g->fn[i] = dlsym(g->lib, names[i]);
    for (int i = 0; i < NFN; i++)
        if (!g->fn[i] && i != PROPS6 && i != PROPS5 && i != VERSION && i != ERRSTR && i != ATTR && i != OCC) {
            snprintf(why, wlen, "HIP runtime lacks %s", names[i]);
            return gclose(g), -1;
        }
    int count = 0, e;
    if ((e = F(g, INIT, int (*)(unsigned))(0)) || (e = F(g, COUNT, int (*)(int *))(&count)) || count == 0) {
        snprintf(why, wlen, "no AMD GPU visible to HIP (%s)", e ? err_str(g, e) : "0 devices");
        return gclose(g), -1;
    }
    if (device < 0 || device >= count) {
        snprintf(why, wlen, "HIP device %d does not exist (%d present)", device, count);
        return gclose(g), -1;
    }
    g->api = "hip", g->image_kind = "amdgpu", g->device = device;
    static _Thread_local char props[16384];
    memset(props, 0, sizeof props);
    void *pf = g->fn[PROPS6] ? g->fn[PROPS6] : g->fn[PROPS5];
    if (!pf || ((fn_pi)pf)(props, device) || find_arch_name(props, sizeof props, target, tlen)) {
        snprintf(why, wlen, "cannot read the GPU's target ID (gcnArchName) from HIP");
        return gclose(g), -1;
    }
    F(g, NAME, int (*)(char *, int, int))(name, (int)nlen, device);
    int ver = 0;
    if (g->fn[VERSION]) F(g, VERSION, int (*)(int *))(&ver);
    g->supports_generic = ver >= 60400000; /* generic targets (code object v6): ROCm 6.4+ */
    /* hipDeviceAttributeMultiprocessorCount: 63 in HIP 5.2 and 6.4 alike */
    if (!g->fn[ATTR] || F(g, ATTR, int (*)(int *, int, int))(&g->sm_count, 63, device)) g->sm_count = 0;
    /* hipDeviceAttributeMemoryClockRate (kHz) 60, MemoryBusWidth 59: both versions */
    int khz = 0, bits = 0;
    if (!g->fn[ATTR] || F(g, ATTR, int (*)(int *, int, int))(&khz, 60, device) ||
        F(g, ATTR, int (*)(int *, int, int))(&bits, 59, device))
        khz = 0;
    g->dram_gbps = crk_gpu_dram_gbps(khz, bits);
    CRK_GPU_BIND(g);
    return make_current(g) ? (snprintf(why, wlen, "hipSetDevice(%d) failed", device), gclose(g), -1) : 0;
}
