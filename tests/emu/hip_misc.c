/* hip_misc.c — events (host-side timestamps: work is done when a call
 * returns), error names and strings, last error, and the statistics line
 * (CRK_EMU_STATS=1) printed at exit. */
#include "rt_hip.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
    unsigned flags;
    double t;     /* seconds, when recorded */
    int recorded;
} event;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

HIP_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *ev, unsigned flags)
{
    if (!ev) return rt_hip_ret(hipErrorInvalidValue);
    event *e = calloc(1, sizeof *e);
    if (!e) return rt_hip_ret(hipErrorOutOfMemory);
    e->flags = flags;
    *ev = (hipEvent_t)(void *)e;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipEventCreate(hipEvent_t *ev) { return hipEventCreateWithFlags(ev, 0); }

HIP_EXPORT hipError_t hipEventRecord(hipEvent_t ev, hipStream_t stream)
{
    (void)stream;
    event *e = (event *)(void *)ev;
    if (!e) return rt_hip_ret(hipErrorInvalidResourceHandle);
    e->t = now(), e->recorded = 1;
    return hipSuccess;
}

HIP_EXPORT hipError_t hipEventSynchronize(hipEvent_t ev) { return ev ? hipSuccess : rt_hip_ret(hipErrorInvalidResourceHandle); }
HIP_EXPORT hipError_t hipEventQuery(hipEvent_t ev) { return ev ? hipSuccess : rt_hip_ret(hipErrorInvalidResourceHandle); }

HIP_EXPORT hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop)
{
    event *a = (event *)(void *)start, *b = (event *)(void *)stop;
    if (!ms || !a || !b) return rt_hip_ret(hipErrorInvalidValue);
    if ((a->flags | b->flags) & hipEventDisableTiming) return rt_hip_ret(hipErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded) return rt_hip_ret(hipErrorNotReady);
    *ms = (float)((b->t - a->t) * 1e3);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipEventDestroy(hipEvent_t ev)
{
    if (!ev) return rt_hip_ret(hipErrorInvalidResourceHandle);
    free((event *)(void *)ev);
    return hipSuccess;
}

HIP_EXPORT hipError_t hipGetLastError(void)
{
    hipError_t e = rt_hip.last;
    rt_hip.last = hipSuccess;
    return e;
}

HIP_EXPORT hipError_t hipPeekAtLastError(void) { return rt_hip.last; }

#define ERRORS(X)                                                                                 \
    X(hipSuccess, "no error")                                                                     \
    X(hipErrorInvalidValue, "invalid argument")                                                   \
    X(hipErrorOutOfMemory, "out of memory")                                                       \
    X(hipErrorNotInitialized, "initialization error")                                             \
    X(hipErrorInvalidConfiguration, "invalid configuration argument")                             \
    X(hipErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")                        \
    X(hipErrorNoDevice, "no ROCm-capable device is detected")                                     \
    X(hipErrorInvalidDevice, "invalid device ordinal")                                            \
    X(hipErrorInvalidImage, "device kernel image is invalid")                                     \
    X(hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device")         \
    X(hipErrorInvalidResourceHandle, "invalid resource handle")                                   \
    X(hipErrorNotFound, "named symbol not found")                                                 \
    X(hipErrorNotReady, "device not ready")                                                       \
    X(hipErrorLaunchFailure, "unspecified launch failure")                                        \
    X(hipErrorNotSupported, "operation not supported")

HIP_EXPORT const char *hipGetErrorName(hipError_t e)
{
#define NAME(c, s) if (e == c) return #c;
    ERRORS(NAME)
#undef NAME
    return "hipErrorUnknown";
}

HIP_EXPORT const char *hipGetErrorString(hipError_t e)
{
#define STR(c, s) if (e == c) return s;
    ERRORS(STR)
#undef STR
    return "unknown error";
}

/* CRK_EMU_STATS=1: one line at exit with the emulator's throughput. */
__attribute__((destructor)) static void print_stats(void)
{
    const char *s = getenv("CRK_EMU_STATS");
    if (!s || *s != '1' || !rt_stat.launches) return;
    fprintf(stderr,
            "crk-emu: %llu launches, %llu workgroups, %llu waves, %llu wave-instructions, %llu lane-instructions "
            "in %.2f s (%.1f M wave-inst/s, %.1f M lane-inst/s)\n",
            (unsigned long long)rt_stat.launches, (unsigned long long)rt_stat.workgroups,
            (unsigned long long)rt_stat.waves, (unsigned long long)rt_stat.wave_insts,
            (unsigned long long)rt_stat.lane_insts, rt_stat.seconds,
            rt_stat.seconds > 0 ? 1e-6 * (double)rt_stat.wave_insts / rt_stat.seconds : 0.0,
            rt_stat.seconds > 0 ? 1e-6 * (double)rt_stat.lane_insts / rt_stat.seconds : 0.0);
}
