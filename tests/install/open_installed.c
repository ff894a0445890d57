/* Opens the GPU with CRK_SOURCE_DIR and CRK_SOURCE_BUNDLE and no path: libcrk
 * must find the installed share/crk/hsaco/ by itself (make check-install). */
#include <crk.h>
#include <stdio.h>
int main(void) {
    const crk_source srcs[2] = {CRK_SOURCE_DIR, CRK_SOURCE_BUNDLE};
    for (int i = 0; i < 2; i++) {
        crk_ctx *ctx;
        crk_options o = {.device = 0, .source = srcs[i], .path = NULL};
        if (crk_open(&ctx, &o)) return printf("crk_open(source %d, path NULL): %s\n", (int)srcs[i], crk_last_error()), 1;
        float x[3] = {1, 2, 3}, y[3];
        void *d;
        crk_layout l;
        const size_t n = 3;
        crk_layout_contiguous(&l, 1, &n);
        int bad = crk_malloc(ctx, &d, sizeof x) || crk_memcpy_htod(ctx, d, x, sizeof x) ||
                  crk_affine(ctx, NULL, "affine_f32", &l, d, d, 2.0, 1.0) || crk_memcpy_dtoh(ctx, y, d, sizeof y);
        if (bad || y[0] != 3 || y[1] != 5 || y[2] != 7) return printf("affine_f32 from the installed files: %s\n", bad ? crk_last_error() : "WRONG"), 1;
        printf("source %s, no path: %s from the installed files: ok\n", i ? "BUNDLE" : "DIR", crk_code_object_target(ctx));
        crk_free(ctx, d);
        crk_close(ctx);
    }
    return 0;
}
