/* ggml_parity.c — the CPU reference of GGML's quantized blocks
 * (tests/ref/ref_ggml.c) against Candle's own CUDA kernels (peers/
 * candle-0.11-sm90/quantized.cubin) on the lent NVIDIA GPU: every
 * dequantize_block_<type>_{f32,f16} under Candle's launch shape (fact sheet
 * §4.18, item 1) on random blocks, get_rows_* (item 2) on random rows and
 * ids, and quantize_q8_1 on random rows; the
 * values must agree bit for bit. Proves that the reference reads the block
 * layouts and rounds as upstream does, before our kernels are held to it.
 *   ggml_parity [CUBIN]   (default: peers/candle-0.11-sm90/quantized.cubin)
 * Prints one line per kernel and "ggml_parity: N kernels, M mismatching"; exit
 * 0 iff M is 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "context.h"
#include "crk.h"
#include "readfile.h"
#include "ref.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint32_t rnd(void) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}
static uint32_t next_bits(void *state) { (void)state; return rnd(); }

static int check(crk_gpu *g, int e, const char *what) {
    if (e) fprintf(stderr, "ggml_parity: %s: %s\n", what, g->error_string(g, e));
    return e;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "peers/candle-0.11-sm90/quantized.cubin";
    uint8_t *image;
    size_t len;
    char err[256];
    const int rd = crk_read_file(path, &image, &len, err, sizeof err);
    if (rd == CRK_READ_MISSING) return printf("ggml_parity: skipped: no %s\n", path), 0;
    if (rd != CRK_READ_OK) return printf("ggml_parity: %s\n", err), 1;
    crk_options opt = {0, CRK_SOURCE_EMBEDDED, NULL};
    crk_ctx *ctx;
    if (crk_open(&ctx, &opt) != CRK_OK) return printf("ggml_parity: skipped: %s\n", crk_last_error()), 0;
    crk_gpu *g = &ctx->gpu;
    void *mod;
    if (check(g, g->make_current(g), "context") || check(g, g->module_load(g, &mod, image), "loading the cubin")) return 1;

    /* 999 whole 256-value superblocks and, for the 32-value types, 3 more
     * 32-blocks (Candle's nb = ceil(el/256) blocks; the kernels stop at k) */
    const size_t el_k = 256 * 999, el_32 = el_k + 96, max_bytes = (el_32 / 32) * 36 + (el_k / 256) * 292;
    uint8_t *blocks = malloc(max_bytes);
    float *want = malloc(el_32 * sizeof *want);
    uint8_t *got = malloc(el_32 * 4);
    void *d_src, *d_dst;
    if (!blocks || !want || !got || check(g, g->malloc(g, &d_src, max_bytes), "malloc") ||
        check(g, g->malloc(g, &d_dst, el_32 * 4), "malloc"))
        return 1;
    static const ref_ggml_type TYPES[] = {REF_Q4_0, REF_Q4_1, REF_Q5_0, REF_Q5_1, REF_Q8_0, REF_Q2_K,
                                          REF_Q3_K, REF_Q4_K, REF_Q5_K, REF_Q6_K, REF_Q8_K};
    int kernels = 0, bad_kernels = 0;
    for (size_t ti = 0; ti < sizeof TYPES / sizeof TYPES[0]; ti++) {
        const ref_ggml_type t = TYPES[ti];
        const int legacy = ref_ggml_block_values(t) == 32;
        const size_t el = legacy ? el_32 : el_k, nblocks = el / ref_ggml_block_values(t), nb = (el + 255) / 256;
        ref_ggml_random_blocks(t, blocks, nblocks, next_bits, NULL);
        ref_ggml_dequantize(t, blocks, nblocks, want);
        if (check(g, g->htod(g, d_src, blocks, nblocks * ref_ggml_block_bytes(t)), "upload")) return 1;
        for (int out16 = 0; out16 < 2; out16++) {
            char name[64];
            snprintf(name, sizeof name, "dequantize_block_%s_%s", ref_ggml_name(t), out16 ? "f16" : "f32");
            void *fn;
            if (check(g, g->get_function(g, &fn, mod, name), name)) return 1;
            /* Candle's shapes: q4_0/q4_1/q8_0 block 32, grid nb, k = el/32; q5_0/q5_1
             * block 256, grid ceil(el/512), k = el; q4_K/q8_K block 32, the other K 64 */
            int k = (t == REF_Q5_0 || t == REF_Q5_1) ? (int)el : (int)(el / 32);
            unsigned grid[3] = {(unsigned)nb, 1, 1}, block[3] = {32, 1, 1};
            if (t == REF_Q5_0 || t == REF_Q5_1) grid[0] = (unsigned)((el + 511) / 512), block[0] = 256;
            else if (!legacy && t != REF_Q4_K && t != REF_Q8_K) block[0] = 64;
            void *args[3] = {&d_src, &d_dst, &k};
            if (check(g, g->memset(g, d_dst, 0xFF, el * 4), "memset") ||
                check(g, g->launch(g, fn, grid, block, 0, NULL, args), name) || check(g, g->synchronize(g), name) ||
                check(g, g->dtoh(g, got, d_dst, el * (out16 ? 2 : 4)), "download"))
                return 1;
            size_t bad = 0, first = 0;
            for (size_t i = 0; i < el; i++) {
                uint32_t gv, wv;
                if (out16) gv = (uint32_t)(got[2 * i] | got[2 * i + 1] << 8), wv = ref_f32_to_f16(want[i]);
                else memcpy(&gv, got + 4 * i, 4), memcpy(&wv, &want[i], 4);
                if (gv != wv && !bad++) first = i;
            }
            kernels++, bad_kernels += bad != 0;
            printf("%-28s %7zu values  %s", name, el, bad ? "MISMATCH" : "ok");
            if (bad) {
                uint32_t gv;
                memcpy(&gv, got + (out16 ? 2 : 4) * first, out16 ? 2 : 4);
                printf(" (%zu values; first at %zu: got 0x%x want %a)", bad, first, out16 ? gv & 0xFFFF : gv,
                       (double)want[first]);
            }
            printf("\n");
        }
    }

    /* get_rows_<t>(src0, src1, dst, int64 ne00, size_t nb01): 50 random ids
     * into 37 rows; Candle's shapes: grid (ids, y), floats and 32-value types
     * block 256, y = ceil(hidden/256) and ceil(hidden/512); K types block 64
     * (q4_K 32), y = hidden/256 */
    for (int ti = 0; ti < 13; ti++) {
        static const char *const PLAIN[3] = {"f32", "f16", "bf16"};
        const int plain = ti >= 10;
        const ref_ggml_type t = plain ? REF_Q8_0 : TYPES[ti];
        const size_t nrows = 37, nids = 50, hidden = plain ? 1000 : ref_ggml_block_values(t) == 32 ? 416 : 768;
        const size_t esz = plain ? (ti == 10 ? 4 : 2) : 0;
        const size_t nb01 = plain ? hidden * esz : hidden / ref_ggml_block_values(t) * ref_ggml_block_bytes(t);
        uint32_t ids[50];
        float *rowv = malloc(hidden * sizeof *rowv), *gotf = malloc(nids * hidden * sizeof *gotf);
        void *d_ids, *fn;
        if (!rowv || !gotf) return 1;
        for (size_t i = 0; i < nrows * nb01; i++) blocks[i] = (uint8_t)rnd();
        if (!plain) ref_ggml_random_blocks(t, blocks, nrows * hidden / ref_ggml_block_values(t), next_bits, NULL);
        for (size_t i = 0; i < nids; i++) ids[i] = rnd() % nrows;
        for (size_t i = 0; i < nrows * hidden && plain && ti > 10; i++) /* finite 16-bit values */
            blocks[2 * i + 1] &= ti == 11 ? 0xBB : 0xBF;
        char name[32];
        snprintf(name, sizeof name, "get_rows_%s", plain ? PLAIN[ti - 10] : ref_ggml_name(t));
        if (check(g, g->malloc(g, &d_ids, sizeof ids), "malloc") || check(g, g->htod(g, d_ids, ids, sizeof ids), "upload") ||
            check(g, g->htod(g, d_src, blocks, nrows * nb01), "upload") ||
            check(g, g->memset(g, d_dst, 0xFF, nids * hidden * 4), "memset") ||
            check(g, g->get_function(g, &fn, mod, name), name))
            return 1;
        int64_t ne00 = (int64_t)hidden;
        size_t nb = nb01;
        unsigned grid[3] = {(unsigned)nids, (unsigned)((hidden + 255) / 256), 1}, block[3] = {256, 1, 1};
        if (!plain && ref_ggml_block_values(t) == 32) grid[1] = (unsigned)((hidden + 511) / 512);
        if (!plain && ref_ggml_block_values(t) == 256) grid[1] = (unsigned)(hidden / 256), block[0] = t == REF_Q4_K ? 32 : 64;
        void *args[5] = {&d_src, &d_ids, &d_dst, &ne00, &nb};
        if (check(g, g->launch(g, fn, grid, block, 0, NULL, args), name) || check(g, g->synchronize(g), name) ||
            check(g, g->dtoh(g, gotf, d_dst, nids * hidden * 4), "download"))
            return 1;
        size_t bad = 0, first = 0;
        for (size_t r = 0; r < nids; r++) {
            const uint8_t *src = blocks + ids[r] * nb01;
            if (!plain) ref_ggml_get_rows(t, src, hidden / ref_ggml_block_values(t), rowv);
            for (size_t i = 0; i < hidden && plain; i++)
                rowv[i] = ti == 10 ? ((const float *)src)[i]
                          : ti == 11 ? ref_f16_to_f32((uint16_t)(src[2 * i] | src[2 * i + 1] << 8))
                                     : ref_bf16_to_f32((uint16_t)(src[2 * i] | src[2 * i + 1] << 8));
            for (size_t i = 0; i < hidden; i++)
                if (memcmp(&gotf[r * hidden + i], &rowv[i], 4) && !bad++) first = r * hidden + i;
        }
        kernels++, bad_kernels += bad != 0;
        printf("%-28s %7zu values  %s", name, nids * hidden, bad ? "MISMATCH" : "ok");
        if (bad) printf(" (%zu values; first at %zu: got %a)", bad, first, (double)gotf[first]);
        printf("\n");
        g->free(g, d_ids), free(rowv), free(gotf);
    }

    /* quantize_q8_1(x, vy, kx, kx_padded): block 256, grid (kx_padded/256, rows) */
    {
        int kx = 4000, kx_padded = 4096;
        const int rows = 3;
        float *x = malloc((size_t)rows * (size_t)kx * sizeof *x);
        const size_t qbytes = (size_t)rows * (size_t)kx_padded / 32 * 36;
        uint8_t *wq = malloc(qbytes), *gq = malloc(qbytes);
        void *d_x, *d_q, *fn;
        if (!x || !wq || !gq) return 1;
        for (int i = 0; i < rows * kx; i++) x[i] = ((float)(rnd() % 200001) - 100000.0f) / 3000.0f;
        for (int i = 0; i < 32; i++) x[64 + i] = 0.0f; /* one all-zero block: d = 0, q = 0 */
        for (int r = 0; r < rows; r++) ref_quantize_q8_1(x + (size_t)r * (size_t)kx, (size_t)kx, (size_t)kx_padded, wq + (size_t)r * (size_t)kx_padded / 32 * 36);
        if (check(g, g->malloc(g, &d_x, (size_t)rows * (size_t)kx * 4), "malloc") || check(g, g->malloc(g, &d_q, qbytes), "malloc") ||
            check(g, g->htod(g, d_x, x, (size_t)rows * (size_t)kx * 4), "upload") || check(g, g->memset(g, d_q, 0, qbytes), "memset") ||
            check(g, g->get_function(g, &fn, mod, "quantize_q8_1"), "quantize_q8_1"))
            return 1;
        unsigned grid[3] = {(unsigned)(kx_padded / 256), (unsigned)rows, 1}, block[3] = {256, 1, 1};
        void *args[4] = {&d_x, &d_q, &kx, &kx_padded};
        if (check(g, g->launch(g, fn, grid, block, 0, NULL, args), "quantize_q8_1") || check(g, g->synchronize(g), "sync") ||
            check(g, g->dtoh(g, gq, d_q, qbytes), "download"))
            return 1;
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < qbytes; i++)
            if (gq[i] != wq[i] && !bad++) first = i;
        kernels++, bad_kernels += bad != 0;
        printf("%-28s %7d values  %s", "quantize_q8_1", rows * kx_padded, bad ? "MISMATCH" : "ok");
        if (bad) printf(" (%zu bytes; first at block %zu byte %zu: got 0x%02x want 0x%02x)", bad, first / 36, first % 36, gq[first], wq[first]);
        printf("\n");
        g->free(g, d_x), g->free(g, d_q), free(x), free(wq), free(gq);
    }
    printf("ggml_parity: %d kernels, %d mismatching (%s)\n", kernels, bad_kernels, path);
    g->free(g, d_src), g->free(g, d_dst), g->module_unload(g, mod);
    free(blocks), free(want), free(got), free(image);
    crk_close(ctx);
    return bad_kernels != 0;
}
