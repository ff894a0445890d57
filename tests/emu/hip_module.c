/* hip_module.c — hipModuleLoadData / GetFunction / LaunchKernel / Unload on
 * rt_module.c and rt_launch.c. Handles are checked against the live ones, so
 * a stale handle is an error code, not a crash. A failed launch prints its
 * message once on stderr and returns hipErrorLaunchFailure; unlike a real
 * GPU the error is not sticky: later calls work. */
#include "rt_hip.h"

#include <stdlib.h>

typedef struct live {
    rt_module *mod;
    struct live *next;
} live;
static live *modules;

static int is_module(const rt_module *m)
{
    for (live *l = modules; l; l = l->next)
        if (l->mod == m) return 1;
    return 0;
}

static int is_kernel(const rt_kernel *k)
{
    for (live *l = modules; l; l = l->next)
        for (size_t i = 0; i < l->mod->nkernels; i++)
            if (l->mod->kernels[i] == k) return 1;
    return 0;
}

HIP_EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
    if (!module || !image) return rt_hip_ret(hipErrorInvalidValue);
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    if (e) return rt_hip_done(e);
    char why[512];
    rt_module *mod;
    live *l = malloc(sizeof *l);
    int r = l ? rt_module_load(&mod, rt_hip.mem, rt_hip.dev, image, why, sizeof why) : -1;
    if (r) {
        rt_hip_report("hipModuleLoadData", l ? why : "out of memory");
        free(l);
        return rt_hip_done(r == -2 ? hipErrorNoBinaryForGpu : hipErrorInvalidImage);
    }
    *l = (live){mod, modules};
    modules = l;
    *module = (hipModule_t)(void *)mod;
    return rt_hip_done(hipSuccess);
}

HIP_EXPORT hipError_t hipModuleUnload(hipModule_t module)
{
    rt_hip_lock();
    for (live **p = &modules; *p; p = &(*p)->next)
        if ((*p)->mod == (rt_module *)(void *)module) {
            live *l = *p;
            *p = l->next;
            rt_module_free(l->mod);
            free(l);
            return rt_hip_done(hipSuccess);
        }
    return rt_hip_done(hipErrorInvalidResourceHandle);
}

HIP_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname)
{
    if (!function || !kname) return rt_hip_ret(hipErrorInvalidValue);
    rt_hip_lock();
    rt_module *mod = (rt_module *)(void *)module;
    if (!is_module(mod)) return rt_hip_done(hipErrorInvalidResourceHandle);
    char why[512];
    rt_kernel *k = rt_module_kernel(mod, kname, why, sizeof why);
    if (!k) {
        rt_hip_report("hipModuleGetFunction", why);
        return rt_hip_done(hipErrorNotFound);
    }
    *function = (hipFunction_t)(void *)k;
    return rt_hip_done(hipSuccess);
}

HIP_EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                            unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                            unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                            void **kernelParams, void **extra)
{
    (void)stream; /* runs to the end inside this call */
    rt_hip_lock();
    rt_kernel *k = (rt_kernel *)(void *)f;
    if (!is_kernel(k)) return rt_hip_done(hipErrorInvalidResourceHandle);
    rt_dims d = {{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes};
    char why[1024];
    int r = rt_launch(k, &d, kernelParams, extra, why, sizeof why);
    if (r) rt_hip_report("hipModuleLaunchKernel", why);
    return rt_hip_done(r == 0               ? hipSuccess
                       : r == RT_E_CONFIG   ? hipErrorInvalidConfiguration
                       : r == RT_E_ARGS     ? hipErrorInvalidValue
                       : r == RT_E_NOMEM    ? hipErrorOutOfMemory
                                            : hipErrorLaunchFailure);
}
