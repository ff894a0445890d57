/* atomic.h — atomic adds into global memory, one per storage type.
 *
 * 4- and 8-byte types: the hardware's atomicAdd (integers wrap; f32/f64
 * round once); NVIDIA's native f16 (sm_70+) and bf16 (sm_90+) adds, which
 * round once too. Else, 1- and 2-byte types: a compare-and-swap loop on the aligned
 * 4-byte word holding the element (AMD has no 16-bit global CAS), adding
 * as the type's arithmetic does (Arith: bf16/f16 round the exact sum once,
 * as NVIDIA's native atomicAdd does; u8/i16 wrap). The word's other bytes
 * are read and written back unchanged, so the buffer must be readable to
 * its next 4-byte boundary (every hipMalloc/cudaMalloc allocation is). */
#ifndef CRK_ATOMIC_H
#define CRK_ATOMIC_H
#include "numeric.h"

namespace crk {

CRK_DEV void atomic_add(float *p, float v) { atomicAdd(p, v); }
CRK_DEV void atomic_add(double *p, double v) { atomicAdd(p, v); }
CRK_DEV void atomic_add(uint32_t *p, uint32_t v) { atomicAdd((unsigned *)p, (unsigned)v); }
CRK_DEV void atomic_add(int32_t *p, int32_t v) { atomicAdd((int *)p, (int)v); }
CRK_DEV void atomic_add(int64_t *p, int64_t v) {
    atomicAdd((unsigned long long *)p, (unsigned long long)v); /* two's complement: wraps as i64 */
}

template <class T> CRK_DEV void atomic_add_narrow(T *p, T v) {
    static_assert(sizeof(T) < 4, "a narrow type");
    unsigned *word = (unsigned *)((uintptr_t)p & ~(uintptr_t)3);
    const unsigned shift = (unsigned)((uintptr_t)p & 3) * 8, mask = ((1u << (8 * sizeof(T))) - 1) << shift;
    const typename Arith<T>::A add = Arith<T>::in(v);
    unsigned seen = *(volatile unsigned *)word, want;
    do {
        want = seen;
        T cur;
        const unsigned bits = (want & mask) >> shift;
        __builtin_memcpy(&cur, &bits, sizeof(T)); /* little-endian on both vendors */
        const T sum = Arith<T>::out(Arith<T>::in(cur) + add);
        unsigned nb = 0;
        __builtin_memcpy(&nb, &sum, sizeof(T));
        seen = atomicCAS(word, want, (want & ~mask) | (nb << shift));
    } while (seen != want);
}
/* Under contention a CAS loop retries: the hardware's add where it has one. */
CRK_DEV void atomic_add(bf16 *p, bf16 v) {
#if defined(CRK_NV) && __CUDA_ARCH__ >= 900
    asm volatile("red.global.add.noftz.bf16 [%0], %1;" ::"l"(p), "h"(v.b) : "memory");
#else
    atomic_add_narrow(p, v);
#endif
}
CRK_DEV void atomic_add(f16 *p, f16 v) {
#if defined(CRK_NV) && __CUDA_ARCH__ >= 700
    asm volatile("red.global.add.noftz.f16 [%0], %1;" ::"l"(p), "h"(v.b) : "memory");
#else
    atomic_add_narrow(p, v);
#endif
}
CRK_DEV void atomic_add(uint8_t *p, uint8_t v) { atomic_add_narrow(p, v); }
CRK_DEV void atomic_add(int16_t *p, int16_t v) { atomic_add_narrow(p, v); }

} // namespace crk
#endif
