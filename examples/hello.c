/* uexp_f32 on a transposed tensor, cast_f32_bf16 on a sliced one, checked. */
#include <crk.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    crk_ctx *ctx; crk_layout t, s; float x[6] = {0, 1, 2, 3, 4, 5}, y[6]; uint16_t b[4];
    void *dx, *dy, *db; const size_t dims[2] = {2, 3}, four = 4;
    if (crk_open(&ctx, NULL)) return printf("%s\n", crk_last_error()), 1;
    crk_malloc(ctx, &dx, sizeof x), crk_malloc(ctx, &dy, sizeof y), crk_malloc(ctx, &db, sizeof b);
    crk_memcpy_htod(ctx, dx, x, sizeof x);
    crk_layout_contiguous(&t, 2, dims), crk_layout_transpose(&t, 0, 1);  /* 3x2 view */
    if (crk_unary(ctx, NULL, "uexp_f32", &t, dx, dy, 0)) return printf("%s\n", crk_last_error()), 1;
    crk_layout_contiguous(&s, 1, &four), s.start_offset = 2;              /* x[2..6] */
    if (crk_cast(ctx, NULL, "cast_f32_bf16", &s, dx, db)) return printf("%s\n", crk_last_error()), 1;
    crk_memcpy_dtoh(ctx, y, dy, sizeof y), crk_memcpy_dtoh(ctx, b, db, sizeof b);
    int ok = 1;
    for (int i = 0; i < 6; i++) ok &= fabsf(y[i] - expf(x[(i % 2) * 3 + i / 2])) < 1e-5f * y[i];
    for (int i = 0; i < 4; i++) { float f; uint32_t u = (uint32_t)b[i] << 16; memcpy(&f, &u, 4); ok &= f == x[i + 2]; }
    printf("%s on %s: %s\n", crk_device_name(ctx), crk_device_target(ctx), ok ? "ok" : "WRONG");
    crk_close(ctx);
    return !ok;
}
