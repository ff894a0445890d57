/* rt_hip.h — state shared by the stand-in HIP entry points (hip_*.c).
 * Declarations come from ROCm's own hip_runtime_api.h (the toolchain's copy),
 * so every exported function is checked against HIP's real signature. */
#ifndef CRK_EMU_RT_HIP_H
#define CRK_EMU_RT_HIP_H
#include <hip/hip_runtime_api.h>

#include "rt.h"

/* Only the hip* functions leave the library (built -fvisibility=hidden). */
#define HIP_EXPORT __attribute__((visibility("default")))

typedef struct {
    const rt_device *dev; /* NULL until the first call that needs it */
    emu_mem *mem;
    hipError_t last;      /* hipGetLastError */
} rt_hip_state;
extern rt_hip_state rt_hip;

/* Serialises every API call (launches run inside the call). */
void rt_hip_lock(void);
void rt_hip_unlock(void);
/* Opens the emulated device on first use (HIP allows calls without
 * hipInit). hipSuccess or hipErrorNoDevice. Call with the lock held. */
hipError_t rt_hip_ready(void);
/* One line "crk-emu: <api>: <msg>" on stderr. */
void rt_hip_report(const char *api, const char *msg);
/* Records e as the last error; returns it. */
hipError_t rt_hip_ret(hipError_t e);
/* Unlocks, records and returns e. */
hipError_t rt_hip_done(hipError_t e);
#endif
