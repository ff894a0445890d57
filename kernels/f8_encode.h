/* f8_encode.h — the one binary32 -> OCP e4m3fn encoder, as CUDA's
 * __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3): RNE, saturate to
 * +-448 (inf too), NaN -> 0x7F. Integer arithmetic on the f32 bits only, so
 * the kernels (device code, crk_port.h defines CRK_HD) and libcrk's host
 * scalars (plain C) share it and give the same bits. */
#ifndef CRK_F8_ENCODE_H
#define CRK_F8_ENCODE_H
#include <stdint.h>
#ifndef CRK_HD
#define CRK_HD static inline
#endif

CRK_HD uint8_t crk_f8_from_f32_bits(uint32_t u) {
    const uint32_t a = u & 0x7FFFFFFFu;
    const uint8_t sign = (uint8_t)((u >> 24) & 0x80);
    if (a > 0x7F800000u) return 0x7F;                /* NaN, either sign */
    if (a > 0x43E00000u) return sign | 0x7E;         /* |x| > 448: saturate */
    if (a < 0x3C800000u) {                           /* |x| < 2^-6: subnormal */
        const uint32_t e = a >> 23;
        if (e < 100) return sign;                    /* below 2^-27: rounds to 0 */
        /* |x| * 2^9 = mant * 2^(e - 141); round that to an integer, RNE */
        const uint64_t mant = (a & 0x7FFFFFu) | 0x800000u;
        const uint32_t shift = 141 - e;              /* 21 .. 41 */
        const uint64_t q = mant >> shift, rest = mant & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        return sign | (uint8_t)(q + (rest > half || (rest == half && (q & 1))));
    }
    const uint32_t r = (a + 0x7FFFFu + ((a >> 20) & 1u)) >> 20; /* RNE to 3 mantissa bits */
    return sign | (uint8_t)(r - (120u << 3));
}
#endif
