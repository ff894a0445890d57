/* rt.h — the runtime half of the AMDGPU emulator, inside the stand-in HIP
 * runtime (build/emu/libamdhip64.so). The files, one job each:
 *   rt_device.c      the emulated device, chosen by CRK_EMU_ARCH
 *   rt_mem.c         emulated memory: allocation table, bounds-checked access
 *   rt_image_size.c  the byte size of an image hipModuleLoadData gets (no length)
 *   rt_kd.c          the 64-byte kernel descriptor, decoded
 *   rt_module.c      code object load: bundle entry, segments, kernels
 *   rt_kernarg.c     kernarg segment (explicit + hidden args), dispatch packet
 *   rt_wave.c        a wave's initial registers
 *   rt_launch.c      runs the workgroups of a dispatch, wave by wave
 * Written from LLVM's AMDGPUUsage (kernel descriptor, initial kernel
 * execution state, code object V5 metadata) and HSA's dispatch packet. */
#ifndef CRK_EMU_RT_H
#define CRK_EMU_RT_H
#include "codeobj.h"
#include "emu.h"

/* ------------------------------------------------------------ device */
typedef struct {
    const char *arch;    /* "gfx942" (what CRK_EMU_ARCH names)           */
    const char *target;  /* gcnArchName: "gfx942:sramecc+:xnack-"         */
    const char *name;    /* device name                                  */
    emu_isa isa;
    int wave_size;       /* 64 or 32                                     */
    int cus;             /* multiProcessorCount                          */
    int packed_tid;      /* work-item IDs packed in v0 (gfx90a+, gfx11+) */
    uint32_t lds_bytes;  /* LDS a workgroup may use                      */
} rt_device;

/* The device CRK_EMU_ARCH names (gfx942 when unset); NULL with why if unknown. */
const rt_device *rt_device_get(char *why, size_t n);
const rt_device *rt_device_find(const char *arch);

/* ------------------------------------------------------------ memory */
enum {
    RT_MEM_RO = 1,  /* kernel may read, not write (kernargs, packet) */
    RT_MEM_USER = 2 /* hipMalloc'ed: hipFree may free it              */
};

emu_mem *rt_mem_new(void);
void rt_mem_destroy(emu_mem *m);
/* A new region of `bytes` (zeroed), at an address that looks like a device
 * address (never 0, 64 KiB aligned, a guard gap after it, never reused).
 * `what` names it in error messages ("hipMalloc", "kernarg segment"); it must
 * outlive the region. 0 on failure. */
uint64_t rt_mem_alloc(emu_mem *m, size_t bytes, int flags, const char *what);
/* Frees the region starting at addr; -1 if addr starts none. */
int rt_mem_free(emu_mem *m, uint64_t addr);
/* Flags of the region starting at addr; -1 if addr starts none. */
int rt_mem_flags(emu_mem *m, uint64_t addr);
/* Host memory behind [addr, addr+bytes) inside one region, or NULL with a
 * message naming the address. */
void *rt_mem_host(emu_mem *m, uint64_t addr, size_t bytes, char *err, size_t n);
/* 1 if addr lies in some region. */
int rt_mem_contains(emu_mem *m, uint64_t addr);

/* ------------------------------------------------------- image size */
/* Size of the ELF / offload bundle / CCOB (v2, v3) at p, from its headers. */
int rt_image_size(const uint8_t *p, size_t *size, char *err, size_t n);

/* ------------------------------------------------- kernel descriptor */
typedef struct {
    uint32_t group_segment_fixed_size, private_segment_fixed_size, kernarg_size;
    int64_t entry_offset;  /* from the descriptor's address to the code   */
    uint32_t rsrc1, rsrc2, rsrc3;
    uint16_t code_props, kernarg_preload;
    /* kernel_code_properties: enabled user SGPRs, in their order */
    int private_segment_buffer, dispatch_ptr, queue_ptr, kernarg_segment_ptr, dispatch_id,
        flat_scratch_init, private_segment_size, wave32;
    int preload_dwords, preload_offset_dwords; /* kernarg preload (gfx90a+) */
    /* compute_pgm_rsrc2 */
    int scratch_en, user_sgpr_count, wgid_x, wgid_y, wgid_z, wg_info, tid_comp_cnt;
} rt_kd;

int rt_kd_decode(const uint8_t kd[64], rt_kd *out, char *err, size_t n);
/* MODE register at wave start: FP_ROUND[3:0], FP_DENORM[7:4], DX10_CLAMP[8],
 * IEEE[9] from compute_pgm_rsrc1 (gfx9 also FP16_OVFL[23]). */
uint32_t rt_kd_mode(const rt_kd *kd, emu_isa isa);

/* ------------------------------------------------------------ module */
typedef struct rt_module rt_module;
typedef struct {
    rt_module *mod;
    const crk_co_kernel *md;  /* metadata: args, kernarg size...         */
    rt_kd kd;
    uint64_t kd_addr;         /* device address of the descriptor         */
    uint64_t entry;           /* byte offset of the first instruction in code */
    char name[128];
} rt_kernel;

struct rt_module {
    const rt_device *dev;
    emu_mem *mem;
    uint8_t *file;            /* our copy of the bytes we were given      */
    crk_codeobj co;
    const crk_co_image *img;  /* the entry chosen for the device          */
    uint64_t base;            /* loaded image: device address...          */
    uint8_t *host;            /* ...its bytes (code for the waves)        */
    size_t size;
    rt_kernel **kernels;      /* looked up so far                         */
    size_t nkernels;
};

int rt_module_load(rt_module **out, emu_mem *m, const rt_device *dev, const void *image, char *err,
                   size_t n);
/* Lanes per wave the kernel runs with: 64 on gfx9; gfx11 per its
 * descriptor's ENABLE_WAVEFRONT_SIZE32. */
int rt_kernel_wave_size(const rt_kernel *k);
/* The kernel by name (cached); NULL with err if absent or malformed. */
rt_kernel *rt_module_kernel(rt_module *mod, const char *name, char *err, size_t n);
void rt_module_free(rt_module *mod);

/* ----------------------------------------------------------- dispatch */
typedef struct {
    unsigned grid[3];      /* workgroups per dimension                    */
    unsigned block[3];     /* work-items per workgroup                    */
    unsigned dyn_lds;      /* sharedMemBytes                              */
} rt_dims;

/* Kernarg segment bytes (kasize >= kernarg size): explicit arguments from
 * kernelParams (one pointer per explicit argument) or from `extra`
 * (HIP_LAUNCH_PARAM_BUFFER_POINTER/SIZE), then the hidden ones. */
int rt_kernarg_build(const rt_kernel *k, const rt_dims *d, void **params, void **extra, uint8_t *ka,
                     size_t kasize, char *err, size_t n);
/* hsa_kernel_dispatch_packet_t (64 bytes). */
void rt_dispatch_packet(uint8_t pkt[64], const rt_kernel *k, const rt_dims *d, uint64_t kernarg,
                        uint64_t private_size);
/* Dimensions HIP reports for a launch (hidden_grid_dims, packet setup). */
unsigned rt_grid_dims(const rt_dims *d);

/* Addresses of one dispatch's regions, shared by all its waves. */
typedef struct {
    uint64_t packet, queue, kernarg, dispatch_id;
    const uint8_t *kernarg_host;  /* for preloaded kernarg SGPRs          */
    size_t kernarg_bytes;
} rt_dispatch;

/* Initial state of wave `wave` (of `nwaves`) of workgroup `wg`: SGPRs in
 * AMDGPUUsage order, work-item IDs in VGPRs, EXEC, MODE. w->vgpr must point
 * at the wave's register file. */
void rt_wave_init(emu_wave *w, const rt_kernel *k, const rt_dims *d, const rt_dispatch *ds,
                  const unsigned wg[3], unsigned wave, unsigned nwaves);

/* Runs a dispatch to the end. 0, or with a message naming kernel, pc, why:
 * RT_E_EXEC (a wave failed), RT_E_CONFIG (launch shape, LDS), RT_E_ARGS
 * (kernel arguments), RT_E_NOMEM. */
enum { RT_E_EXEC = -1, RT_E_CONFIG = -2, RT_E_ARGS = -3, RT_E_NOMEM = -4 };
int rt_launch(rt_kernel *k, const rt_dims *d, void **params, void **extra, char *err, size_t n);

/* The instruction stepper rt_launch uses: emu_step (tests swap in a fake
 * to drive the scheduler). */
extern emu_step_result (*rt_step)(emu_wave *w, char *err, size_t elen);

/* Statistics since load (CRK_EMU_STATS=1 prints them at exit). */
typedef struct {
    uint64_t launches, workgroups, waves, wave_insts, lane_insts;
    double seconds;
} rt_stats;
extern rt_stats rt_stat;

#endif
