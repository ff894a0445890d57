/* hip_memory.c — hipMalloc / hipFree / hipMemcpy / hipMemset on emulated
 * memory (rt_mem.c). Device pointers are emulated addresses, never host
 * pointers: every copy is bounds-checked against its allocation and a bad
 * one is reported on stderr with the address. */
#include "rt_hip.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static uint64_t addr_of(const void *p) { return (uint64_t)(uintptr_t)p; }

HIP_EXPORT hipError_t hipMalloc(void **ptr, size_t size)
{
    if (!ptr) return rt_hip_ret(hipErrorInvalidValue);
    *ptr = NULL;
    if (!size) return hipSuccess; /* HIP: a 0-byte request succeeds with NULL */
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    uint64_t a = e ? 0 : rt_mem_alloc(rt_hip.mem, size, RT_MEM_USER, "allocation");
    if (!e && !a) e = hipErrorOutOfMemory;
    *ptr = (void *)(uintptr_t)a;
    return rt_hip_done(e);
}

HIP_EXPORT hipError_t hipFree(void *ptr)
{
    if (!ptr) return hipSuccess;
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    if (!e && (rt_mem_flags(rt_hip.mem, addr_of(ptr)) != RT_MEM_USER || rt_mem_free(rt_hip.mem, addr_of(ptr)))) {
        char msg[128];
        snprintf(msg, sizeof msg, "%p is not the start of a live allocation", ptr);
        rt_hip_report("hipFree", msg);
        e = hipErrorInvalidValue;
    }
    return rt_hip_done(e);
}

/* Host address of device range [p, p+bytes), or NULL after a report. */
static void *device_host(const char *api, const void *p, size_t bytes)
{
    char why[256];
    void *h = rt_mem_host(rt_hip.mem, addr_of(p), bytes, why, sizeof why);
    if (!h) rt_hip_report(api, why);
    return h;
}

static hipError_t copy(const char *api, void *dst, const void *src, size_t bytes, hipMemcpyKind kind)
{
    if (!bytes) return hipSuccess;
    if (!dst || !src) return hipErrorInvalidValue;
    if (kind == hipMemcpyDefault) { /* unified addressing: the table tells */
        int dd = rt_mem_contains(rt_hip.mem, addr_of(dst)), sd = rt_mem_contains(rt_hip.mem, addr_of(src));
        kind = dd ? (sd ? hipMemcpyDeviceToDevice : hipMemcpyHostToDevice)
                  : (sd ? hipMemcpyDeviceToHost : hipMemcpyHostToHost);
    }
    void *d = dst;
    const void *s = src;
    switch (kind) {
    case hipMemcpyHostToHost: break;
    case hipMemcpyHostToDevice: d = device_host(api, dst, bytes); break;
    case hipMemcpyDeviceToHost: s = device_host(api, src, bytes); break;
    case hipMemcpyDeviceToDevice:
        d = device_host(api, dst, bytes);
        s = d ? device_host(api, src, bytes) : NULL;
        break;
    default: return hipErrorInvalidMemcpyDirection;
    }
    if (!d || !s) return hipErrorInvalidValue;
    memmove(d, s, bytes);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind)
{
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    return rt_hip_done(e ? e : copy("hipMemcpy", dst, src, sizeBytes, kind));
}

HIP_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                                     hipStream_t stream)
{
    (void)stream; /* done before returning: the stream has nothing left to do */
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    return rt_hip_done(e ? e : copy("hipMemcpyAsync", dst, src, sizeBytes, kind));
}

static hipError_t fill(const char *api, void *dst, int value, size_t bytes)
{
    if (!bytes) return hipSuccess;
    void *h = device_host(api, dst, bytes);
    if (!h) return hipErrorInvalidValue;
    memset(h, value, bytes);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipMemset(void *dst, int value, size_t sizeBytes)
{
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    return rt_hip_done(e ? e : fill("hipMemset", dst, value, sizeBytes));
}

HIP_EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream)
{
    (void)stream;
    rt_hip_lock();
    hipError_t e = rt_hip_ready();
    return rt_hip_done(e ? e : fill("hipMemsetAsync", dst, value, sizeBytes));
}
