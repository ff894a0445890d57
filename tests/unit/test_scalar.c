/* test_scalar.c — libcrk's host-side scalar conversion (Candle's
 * T::from_f64) against the CPU reference, for every dtype: the fp8 encoder
 * it shares with the kernels (kernels/f8_encode.h) over every f32 bit
 * pattern's neighbourhood classes, and the integer and 16-bit rules on
 * specials and random doubles. */
#include "scalar.h"
#include "ref.h"
#include "unit.h"
#include <math.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* Mismatches so far, and the first one (libcheck's asserts are too slow
 * for a million calls: they are made once, at the end). */
static long bad;
static char first[256];
static void same(crk_dtype dt, double v) {
    unsigned char got[8] = {0}, want[8] = {0};
    const size_t n = crk_scalar_from_f64(dt, v, got);
    ref_scalar_from_f64(dt, v, want);
    if (n == crk_dtype_size(dt) && ((dt == CRK_F32 || dt == CRK_F64) && isnan(v))) return; /* NaN: class only */
    if (n == crk_dtype_size(dt) && !memcmp(got, want, n)) return;
    if (!bad++)
        snprintf(first, sizeof first, "%s from %.17g: got 0x%02x%02x (%zu bytes), want 0x%02x%02x", crk_dtype_name(dt),
                 v, got[1], got[0], n, want[1], want[0]);
}

/* Every f32 exponent, with edge and random mantissas, both signs: the
 * shared fp8 encoder agrees with the reference on all rounding classes. */
START_TEST(f8_encoder_matches_reference) {
    for (uint32_t e = 0; e < 256; e++)
        for (int k = 0; k < 4096; k++) {
            const uint32_t m = k == 0 ? 0 : k == 1 ? 0x7FFFFF : k < 8 ? (1u << (17 + k)) | (k & 1) : (uint32_t)next() & 0x7FFFFF;
            const uint32_t bits = (uint32_t)((next() & 1) << 31) | e << 23 | m;
            float f;
            memcpy(&f, &bits, 4);
            same(CRK_F8E4M3, (double)f);
        }
    ck_assert_msg(bad == 0, "%ld mismatches; first: %s", bad, first);
}
END_TEST

START_TEST(every_dtype_matches_reference) {
    static const double specials[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 255.5, 256.0, 300.7, -1.0, 65504.0, 65520.0,
                                      448.0, 449.0, 464.0, 1e-9, 4294967295.0, 4294967296.0, 9.3e18, -9.3e18, 1e300,
                                      2147483648.0, -2147483649.0, 32767.5, -32768.5, INFINITY, -INFINITY, NAN};
    for (int dt = 0; dt < CRK_DTYPE_COUNT; dt++) {
        for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) same((crk_dtype)dt, specials[i]);
        for (int i = 0; i < 100000; i++) {
            const double v = ldexp((double)(next() >> 11), (int)(next() % 140) - 100) * ((next() & 1) ? -1 : 1);
            same((crk_dtype)dt, v);
        }
    }
    ck_assert_msg(bad == 0, "%ld mismatches; first: %s", bad, first);
}
END_TEST

int main(void) {
    unit_t u = unit_begin("scalar");
    UNIT_ADD(&u, f8_encoder_matches_reference);
    UNIT_ADD(&u, every_dtype_matches_reference);
    return unit_run(&u);
}
