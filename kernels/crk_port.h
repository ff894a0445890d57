/* crk_port.h — the one place where AMD (clang -x hip) and NVIDIA (nvcc)
 * differ. Every template under kernels/ includes only this for platform
 * services: kernel qualifiers, thread indices, bit casts, 16-bit floats. */
#ifndef CRK_PORT_H
#define CRK_PORT_H

/* The target's wave (warp) size, from the target itself: 64 on gfx9
 * (GCN/CDNA), 32 on RDNA (we compile wave32) and NVIDIA. Cross-lane code
 * states its width with it, never with warpSize at run time. */
#if defined(__HIP__) && defined(__GFX9__)
#define CRK_WAVE 64
#else
#define CRK_WAVE 32
#endif

#if defined(__HIP__)
/* clang 22 no longer predefines it; HIP 6.4's headers still read it. */
#ifndef __AMDGCN_WAVEFRONT_SIZE
#define __AMDGCN_WAVEFRONT_SIZE CRK_WAVE
#endif
#include <hip/hip_runtime.h>
#define CRK_AMD 1
#elif defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#define CRK_NV 1
#else
#error "kernels/ compile with clang -x hip (AMD) or nvcc (NVIDIA)"
#endif

#define CRK_DEV __device__ __forceinline__
#define CRK_HD static __device__ __forceinline__ /* headers shared with host C (f8_encode.h) */
/* A rare path kept out of line on NVIDIA, so that its registers do not
 * spill into the kernel's other paths; inline on AMD (a call there needs a
 * stack in scratch memory, which crk verify refuses). */
#if CRK_NV
#define CRK_DEV_OUTLINE __device__ __noinline__
#else
#define CRK_DEV_OUTLINE CRK_DEV
#endif
/* Kernels take Candle's blocks of up to 1024 threads; the compilers budget
 * registers for `resident` such blocks an SM on NVIDIA. Element-wise
 * kernels: two (32 registers a thread). Under Candle's shape (one element
 * per thread) a single resident block halves the loads in flight (measured
 * on the H100: our ucopy_f32 at 44 registers ran at 0.57x Candle's
 * 16-register kernel). The reductions too, since their strided decode
 * loop stays rolled (reduce.h, reduce_offset; unrolled at 32 registers it
 * spilled: 1.5 M local-memory requests for sum over 8192x4096 f32, Nsight
 * Compute on the H100); the atomic sum_<dt>, one (64-bit divisions spilled
 * at 32). HIP reads a second argument
 * differently (waves per EU), so AMD gets the plain bound. */
#if defined(__CUDACC__)
#define CRK_KERNEL_BOUNDED(threads, resident) extern "C" __global__ void __launch_bounds__(threads, resident)
#else
#define CRK_KERNEL_BOUNDED(threads, resident) extern "C" __global__ void __launch_bounds__(threads)
#endif
#define CRK_KERNEL_RESIDENT(resident) CRK_KERNEL_BOUNDED(1024, resident)
/* Families whose kernels take smaller blocks (MMVQ: at most 256 threads)
 * say so in the op table (gen_family.max_threads), and get registers for it. */

namespace crk {

CRK_DEV void block_barrier() { __syncthreads(); }

/* A clock that only moves forward, for a block to time its own work
 * (softmax_wide's stagger): the SM's cycles on NVIDIA; on AMD the constant
 * 100 MHz counter (s_memrealtime, gfx11+ s_sendmsg_rtn_b64 REALTIME),
 * which every target has (gfx11's cycle counter has 20 bits). The low 32
 * bits: a difference is right up to 2^32 - 1 ticks (2 s at 2 GHz), and a
 * start held over a row is one register, not two. */
CRK_DEV unsigned clock_ticks() {
#if CRK_NV
    return (unsigned)clock64();
#else
    return (unsigned)__builtin_readsteadycounter();
#endif
}
/* Spins until `ticks` of clock_ticks() have passed. */
CRK_DEV void pause_ticks(unsigned ticks) {
    for (const unsigned a = clock_ticks(); clock_ticks() - a < ticks;) {
    }
}

/* x, hidden from the optimiser's pattern matching (no instruction). clang
 * turns fptrunc(fmul(fpext a, fpext b)) of 16-bit values into
 * v_fma_mix(a, b, +0), which makes a product of -0 into +0 (found by the
 * emulated gfx942/gfx1100 runs of bmul_f16); a 16-bit product passes
 * through here before it is rounded. */
CRK_DEV float opaque(float x) {
#if CRK_AMD
    __asm__("" : "+v"(x));
#endif
    return x;
}

/* Butterfly exchange among groups of W lanes (W <= CRK_WAVE, a power of
 * two): lane l gets lane l ^ mask of its group. The width is always
 * explicit; W = 32 is half a wave64 on gfx9 and a whole wave elsewhere. */
template <int W, class V> CRK_DEV V shfl_xor_w(V v, int mask) {
    static_assert(W <= CRK_WAVE && (W & (W - 1)) == 0, "shuffle width: a power of two within the wave");
#if CRK_AMD
    return __shfl_xor(v, mask, W);
#else
    return __shfl_xor_sync(0xFFFFFFFFu, v, mask, W);
#endif
}
template <class V> CRK_DEV V shfl_xor_w32(V v, int mask) { return shfl_xor_w<32>(v, mask); }
/* Any value of 1 to 8 bytes (16-bit floats, u8, argmin's pairs' parts)
 * exchanged as its bits. */
template <int W, class V> CRK_DEV V shfl_xor_bits(V v, int mask) {
    static_assert(sizeof(V) <= 8, "a value of at most 8 bytes");
    if constexpr (sizeof(V) <= 4) {
        int u = 0;
        __builtin_memcpy(&u, &v, sizeof v);
        u = shfl_xor_w<W>(u, mask);
        __builtin_memcpy(&v, &u, sizeof v);
    } else {
        long long u = 0;
        __builtin_memcpy(&u, &v, sizeof v);
        u = shfl_xor_w<W>(u, mask);
        __builtin_memcpy(&v, &u, sizeof v);
    }
    return v;
}

/* Products that must stay rounded on their own (no fma contraction): CUDA's
 * _rn intrinsics; on AMD the product passes through opaque(). */
CRK_DEV float mul_rn(float a, float b) {
#if CRK_AMD
    return opaque(a * b);
#else
    return __fmul_rn(a, b);
#endif
}
CRK_DEV double mul_rn(double a, double b) {
#if CRK_AMD
    double p = a * b;
    __asm__("" : "+v"(p));
    return p;
#else
    return __dmul_rn(a, b);
#endif
}
/* c + Σ a_i·b_i over the four signed bytes of a and b (GGML's dp4a). One
 * instruction where the target has it: v_dot4_i32_i8 (CDNA, gfx906,
 * RDNA2: dot1-insts), v_dot4_i32_iu8 with both operands signed (RDNA3/4:
 * dot8-insts), __dp4a (NVIDIA sm_61+); the generic gfx9 and gfx10-1
 * targets cover chips without them, and add the bytes one by one. */
CRK_DEV int dot4_i8(int a, int b, int c) {
#if CRK_NV
    return __dp4a(a, b, c);
#elif defined(__gfx906__) || defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx942__) || \
    defined(__gfx950__) || defined(__gfx1030__) || defined(__gfx10_3_generic__)
    return __builtin_amdgcn_sdot4(a, b, c, false);
#elif defined(__GFX11__) || defined(__GFX12__)
    return __builtin_amdgcn_sudot4(true, a, true, b, c, false);
#else
#define CRK_DOT4_SOFT 1 /* kernels may shape their loops for it (mmvq.h) */
    for (int i = 0; i < 32; i += 8) c += (int)(int8_t)(a >> i) * (int)(int8_t)(b >> i);
    return c;
#endif
}

CRK_DEV float fma(float a, float b, float c) { return fmaf(a, b, c); }
CRK_DEV double fma(double a, double b, double c) { return ::fma(a, b, c); }

CRK_DEV uint32_t f32_bits(float f) { return __float_as_uint(f); }
CRK_DEV float bits_f32(uint32_t u) { return __uint_as_float(u); }
CRK_DEV uint64_t f64_bits(double d) { return (uint64_t)__double_as_longlong(d); }
CRK_DEV int clz64(uint64_t v) { return __clzll((long long)v); }
/* Position of the lowest set bit of a non-zero v (CUDA and HIP: __ffs is 1-based). */
CRK_DEV int ctz32(uint32_t v) { return __ffs((int)v) - 1; }

/* IEEE binary16 <-> binary32 with the hardware converter (RNE). NaN is made
 * canonical (0x7FFF) as CUDA's cvt.rn.f16.f32 does: on NVIDIA the
 * instruction itself (every NaN pattern gave 0x7FFF on sm_90, for f16 and
 * bf16, single and paired: docs/runs/2026-12-02b-h200-norm-conversions.txt),
 * so no compare and branch an output there; AMD's converter keeps the
 * payload, so it is tested. */
CRK_DEV float f16_to_f32(uint16_t h) {
#if CRK_AMD
    return (float)__builtin_bit_cast(_Float16, h);
#else
    return __half2float(__ushort_as_half(h));
#endif
}
CRK_DEV uint16_t f32_to_f16(float f) {
#if CRK_AMD
    if (f != f) return 0x7FFF;
    return __builtin_bit_cast(uint16_t, (_Float16)f);
#else
    return __half_as_ushort(__float2half_rn(f));
#endif
}

/* binary32 -> bfloat16, RNE, NaN -> 0x7FFF. NVIDIA (sm_80+) has it as one
 * instruction; elsewhere it is the rounding add on the bits. */
CRK_DEV uint16_t f32_to_bf16(float f) {
#if CRK_NV && __CUDA_ARCH__ >= 800
    return __bfloat16_as_ushort(__float2bfloat16_rn(f));
#else
    if (f != f) return 0x7FFF;
    const uint32_t u = f32_bits(f);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
#endif
}

} // namespace crk
#endif
