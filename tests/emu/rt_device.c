/* rt_device.c — the device the stand-in runtime pretends to be, chosen by
 * CRK_EMU_ARCH (default gfx942). Target IDs are what ROCm reports for these
 * parts (gcnArchName); wave size is the one the kernels are compiled for
 * (gfx9: 64, gfx11: 32). Packed work-item IDs: gfx90a, gfx94x/gfx950, gfx11. */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const rt_device devices[] = {
    {"gfx942", "gfx942:sramecc+:xnack-", "AMD Instinct MI300X (crk emulator)", EMU_GFX9, 64, 304, 1, 65536},
    {"gfx90a", "gfx90a:sramecc+:xnack-", "AMD Instinct MI210 (crk emulator)", EMU_GFX9, 64, 104, 1, 65536},
    {"gfx950", "gfx950:sramecc+:xnack-", "AMD Instinct MI355X (crk emulator)", EMU_GFX9, 64, 256, 1, 65536},
    {"gfx1100", "gfx1100", "AMD Radeon RX 7900 XTX (crk emulator)", EMU_GFX11, 32, 96, 1, 65536},
    {"gfx1101", "gfx1101", "AMD Radeon RX 7800 XT (crk emulator)", EMU_GFX11, 32, 60, 1, 65536},
    {"gfx1102", "gfx1102", "AMD Radeon RX 7600 (crk emulator)", EMU_GFX11, 32, 32, 1, 65536},
    {"gfx1151", "gfx1151", "AMD Radeon 8060S (crk emulator)", EMU_GFX11, 32, 40, 1, 65536},
    /* no exact object ships for it: libcrk takes gfx11-generic (ROCm >= 6.4) */
    {"gfx1103", "gfx1103", "AMD Radeon 780M (crk emulator)", EMU_GFX11, 32, 12, 1, 65536},
};

const rt_device *rt_device_find(const char *arch)
{
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
        if (!strcmp(devices[i].arch, arch)) return &devices[i];
    return NULL;
}

const rt_device *rt_device_get(char *why, size_t n)
{
    const char *arch = getenv("CRK_EMU_ARCH");
    if (!arch || !*arch) arch = "gfx942";
    const rt_device *d = rt_device_find(arch);
    if (!d) {
        size_t l = (size_t)snprintf(why, n, "CRK_EMU_ARCH=%s is not emulated (have:", arch);
        for (size_t i = 0; i < sizeof devices / sizeof devices[0] && l < n; i++)
            l += (size_t)snprintf(why + l, n - l, " %s", devices[i].arch);
        if (l < n) snprintf(why + l, n - l, ")");
    }
    return d;
}
