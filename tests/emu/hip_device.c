/* hip_device.c — device discovery: one emulated device (CRK_EMU_ARCH). */
#include "rt_hip.h"

#include <hip/hip_deprecated.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rt_hip_state rt_hip;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void rt_hip_lock(void) { pthread_mutex_lock(&lock); }
void rt_hip_unlock(void) { pthread_mutex_unlock(&lock); }

void rt_hip_report(const char *api, const char *msg) { fprintf(stderr, "crk-emu: %s: %s\n", api, msg); }

hipError_t rt_hip_ret(hipError_t e)
{
    if (e != hipSuccess) rt_hip.last = e;
    return e;
}

hipError_t rt_hip_done(hipError_t e)
{
    rt_hip_unlock();
    return rt_hip_ret(e);
}

hipError_t rt_hip_ready(void)
{
    static int reported;
    if (rt_hip.dev) return hipSuccess;
    char why[256];
    const rt_device *d = rt_device_get(why, sizeof why);
    if (!d) {
        if (!reported++) rt_hip_report("hipInit", why);
        return hipErrorNoDevice;
    }
    if (!rt_hip.mem && !(rt_hip.mem = rt_mem_new())) return hipErrorOutOfMemory;
    rt_hip.dev = d;
    return hipSuccess;
}

/* The emulated memory goes with the library (modules still loaded keep
 * their host-side records, as a real runtime's would at exit). */
__attribute__((destructor)) static void release(void)
{
    rt_mem_destroy(rt_hip.mem);
    rt_hip.mem = NULL, rt_hip.dev = NULL;
}

HIP_EXPORT hipError_t hipInit(unsigned int flags)
{
    rt_hip_lock();
    return rt_hip_done(flags ? hipErrorInvalidValue : rt_hip_ready());
}

HIP_EXPORT hipError_t hipGetDeviceCount(int *count)
{
    if (!count) return rt_hip_ret(hipErrorInvalidValue);
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    *count = e == hipSuccess;
    return rt_hip_done(e);
}

HIP_EXPORT hipError_t hipSetDevice(int device)
{
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    return rt_hip_done(e ? e : device == 0 ? hipSuccess : hipErrorInvalidDevice);
}

HIP_EXPORT hipError_t hipGetDevice(int *device)
{
    if (!device) return rt_hip_ret(hipErrorInvalidValue);
    *device = 0;
    return hipSuccess;
}

/* The fields both property layouts (R0600, R0000) share, by name. */
#define FILL_PROPS(p, d)                                                                          \
    do {                                                                                          \
        memset(p, 0, sizeof *p);                                                                  \
        snprintf(p->name, sizeof p->name, "%s", d->name);                                         \
        snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s", d->target);                         \
        p->totalGlobalMem = (size_t)64 << 30;                                                     \
        p->sharedMemPerBlock = 64 << 10;                                                          \
        p->maxSharedMemoryPerMultiProcessor = d->lds_bytes;                                       \
        p->regsPerBlock = 65536;                                                                  \
        p->warpSize = d->wave_size;                                                               \
        p->maxThreadsPerBlock = 1024;                                                             \
        p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;                   \
        p->maxGridSize[0] = 0x7fffffff, p->maxGridSize[1] = p->maxGridSize[2] = 65536;            \
        p->clockRate = 2100000;                                                                   \
        p->totalConstMem = (size_t)2 << 30;                                                       \
        p->major = d->isa == EMU_GFX9 ? 9 : 11;                                                   \
        p->minor = d->isa == EMU_GFX9 ? 4 : 0;                                                    \
        p->multiProcessorCount = d->cus;                                                          \
        p->l2CacheSize = 4 << 20;                                                                 \
        p->maxThreadsPerMultiProcessor = 2048;                                                    \
        p->concurrentKernels = 1;                                                                 \
        p->memPitch = (size_t)1 << 31;                                                            \
        p->textureAlignment = 256;                                                                \
        p->pciBusID = 1;                                                                          \
    } while (0)

HIP_EXPORT hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600 *prop, int device)
{
    if (!prop) return rt_hip_ret(hipErrorInvalidValue);
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    if (!e && device != 0) e = hipErrorInvalidDevice;
    if (!e) FILL_PROPS(prop, rt_hip.dev);
    return rt_hip_done(e);
}

/* The HIP 5 layout: hipGetDevicePropertiesR0000, and the unversioned
 * symbol HIP 5 libraries exported under that layout. */
HIP_EXPORT hipError_t hipGetDevicePropertiesR0000(hipDeviceProp_tR0000 *prop, int device)
{
    if (!prop) return rt_hip_ret(hipErrorInvalidValue);
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    if (!e && device != 0) e = hipErrorInvalidDevice;
    if (!e) FILL_PROPS(prop, rt_hip.dev);
    return rt_hip_done(e);
}

#undef hipGetDeviceProperties
HIP_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_tR0000 *prop, int device);
HIP_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_tR0000 *prop, int device)
{
    return hipGetDevicePropertiesR0000(prop, device);
}

/* The one attribute libcrk asks for: hipDeviceAttributeMultiprocessorCount. */
HIP_EXPORT hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t attr, int device)
{
    if (!v) return rt_hip_ret(hipErrorInvalidValue);
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    if (!e && device != 0) e = hipErrorInvalidDevice;
    if (!e && attr != hipDeviceAttributeMultiprocessorCount) e = hipErrorInvalidValue;
    if (!e) *v = rt_hip.dev->cus;
    return rt_hip_done(e);
}

HIP_EXPORT hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device)
{
    if (!name || len <= 0) return rt_hip_ret(hipErrorInvalidValue);
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    if (!e && device != 0) e = hipErrorInvalidDevice;
    if (!e) snprintf(name, (size_t)len, "%s", rt_hip.dev->name);
    return rt_hip_done(e);
}

/* 6.4: new enough for generic targets (code object v6; libcrk allows them from 6.4). */
HIP_EXPORT hipError_t hipRuntimeGetVersion(int *v)
{
    if (!v) return rt_hip_ret(hipErrorInvalidValue);
    *v = 60400000;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipDriverGetVersion(int *v)
{
    if (!v) return rt_hip_ret(hipErrorInvalidValue);
    *v = 60400000;
    return hipSuccess;
}

/* Launches and copies finish inside their calls: nothing to wait for. */
HIP_EXPORT hipError_t hipDeviceSynchronize(void) { return hipSuccess; }
HIP_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream)
{
    (void)stream;
    return hipSuccess;
}
HIP_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t ev, unsigned int flags)
{
    (void)stream;
    if (!ev || flags) return rt_hip_ret(hipErrorInvalidValue);
    return hipSuccess;
}
