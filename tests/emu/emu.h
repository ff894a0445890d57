/* emu.h — the boundary between the two halves of the AMDGPU emulator.
 *
 *   ISA half (isa_*.c, decode_*.c, exec_*.c): decodes one instruction at
 *   a wave's PC and executes it on that wave's state.
 *   Runtime half (rt_*.c, hip_*.c): the stand-in HIP runtime; loads code
 *   objects, builds kernargs and the initial register state from the kernel
 *   descriptor, owns memory (every access bounds-checked) and LDS, and runs
 *   the waves of each workgroup in turn until all end, meeting at barriers.
 *
 * Written here from LLVM's AMDGPUUsage and the ISA documents. */
#ifndef CRK_EMU_H
#define CRK_EMU_H
#include <stddef.h>
#include <stdint.h>

typedef enum { EMU_GFX9 = 9, EMU_GFX11 = 11 } emu_isa; /* encoding family */

#define EMU_NSGPR 128  /* s0..s127; vcc, exec, m0 and scc are separate below */
#define EMU_NVGPR 512  /* gfx90a/gfx942: v0..v255 then a0..a255 (unified)    */
#define EMU_MAX_LANES 64

/* Memory the runtime owns. Addresses are the 64-bit values the kernel
 * sees (what hipMalloc returned). Returns 0, or -1 with a message naming
 * the address and why (outside every allocation, crosses its end). */
typedef struct emu_mem emu_mem;
int emu_mem_read(emu_mem *m, uint64_t addr, void *dst, unsigned bytes, char *err, size_t elen);
int emu_mem_write(emu_mem *m, uint64_t addr, const void *src, unsigned bytes, char *err, size_t elen);

/* One wave. The runtime fills it from the kernel descriptor and dispatch;
 * the ISA half changes it one instruction at a time. */
typedef struct {
    emu_isa isa;
    int wave_size;                 /* 64 (gfx9) or 32 (gfx11 wave32)        */
    uint32_t sgpr[EMU_NSGPR];
    uint32_t (*vgpr)[EMU_MAX_LANES]; /* [EMU_NVGPR][lane], runtime-owned     */
    uint64_t exec, vcc;            /* wave32: upper 32 bits stay 0          */
    uint32_t m0;
    int scc;
    uint32_t mode;                 /* MODE register (rounding/denormals), from rsrc1 */
    const uint8_t *code;           /* the code object's bytes               */
    size_t code_size;
    uint64_t code_base;            /* (rt) device address of code[0]: s_getpc_b64 = code_base + pc of next inst */
    uint64_t pc;                   /* byte offset into code                 */
    uint8_t *lds;                  /* the workgroup's LDS                   */
    uint32_t lds_size;
    emu_mem *mem;
    uint64_t flat_scratch;         /* scratch is unused by our kernels: zero */
    uint64_t ninst;                /* instructions executed (statistics)    */
    const char *kernel;            /* name, for error messages              */
    int gfx90a;                    /* (isa) gfx9: 1 = gfx90a/gfx908 opcode map; 0 = from the image's ELF e_flags */
} emu_wave;

typedef enum {
    EMU_STEP_OK = 0,      /* executed; pc advanced or branched              */
    EMU_STEP_END = 1,     /* s_endpgm                                       */
    EMU_STEP_BARRIER = 2, /* s_barrier: the runtime resumes the wave once
                             every live wave of the workgroup got here      */
    EMU_STEP_ERROR = -1   /* unknown opcode, bad access, ...: err says which,
                             with mnemonic/encoding and pc                  */
} emu_step_result;

/* Decodes and executes the instruction at w->pc. */
emu_step_result emu_step(emu_wave *w, char *err, size_t elen);

#endif
