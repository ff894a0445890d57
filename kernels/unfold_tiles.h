/* unfold_tiles.h — how libcrk's im2col tiles split dst (kernels/conv.h
 * unfold_tiles): a tile is UNFOLD_TILE_ROWS consecutive rows (output
 * positions) by a span of channels whose windows fit a row of the tile
 * in shared memory. Plain C too: crk_im2col sizes its grid with the same
 * numbers the kernel walks (loader/launch_conv.c). */
#ifndef CRK_UNFOLD_TILES_H
#define CRK_UNFOLD_TILES_H
#include <stdint.h>
#ifndef CRK_HD
#define CRK_HD static inline
#endif

/* Whether NVIDIA builds take the tiles: not until they are measured against
 * the row walk on a GPU (the eighteenth session got no GPU time). AMD
 * takes them: no AMD GPU measures either path here, and a tile holds 8
 * loads a lane in flight where the walk waits on each run's. */
#define UNFOLD_TILES_NV 0

#define UNFOLD_TILE_ROWS 32u
/* A tile row's bytes in shared memory: 32 rows x 512 = 16 KiB a block on
 * NVIDIA; on AMD 256 (8 KiB), so that a 64 KiB LDS holds six blocks. */
#define UNFOLD_TILE_PITCH_NV 512u
#define UNFOLD_TILE_PITCH_AMD 256u
/* The window taps a tile's table holds (h_k * w_k). */
#define UNFOLD_TILE_TAPS 128u

/* Whether positions out·stride + (k − 1)·dilation − pad of an axis stay
 * exact in int (the kernel's 32-bit bounds tests). */
CRK_HD int unfold_tile_axis_fits(uint64_t out, uint64_t k, uint64_t stride, uint64_t dilation, uint64_t pad,
                                 uint64_t in) {
    const uint64_t lim = (uint64_t)1 << 30;
    return out < lim && k < lim && stride < lim && dilation < lim && pad < lim && in < lim &&
           out * stride + (k - 1) * dilation + pad + in < 2 * lim;
}

/* Channels a tile takes for c_in channels of kk taps of `size` bytes in
 * rows of `pitch` bytes, 0 if one channel's window does not fit (the
 * kernel then walks rows). A multiple of the channels whose windows fill
 * 16 bytes, where one fits, so that a tile's span of a row starts 16-byte
 * aligned; spread evenly over the tiles a row needs. */
CRK_HD uint32_t unfold_tile_channels(uint32_t c_in, uint32_t kk, uint32_t size, uint32_t pitch) {
    if (kk == 0 || kk > UNFOLD_TILE_TAPS || kk * size > pitch || c_in == 0) return 0;
    uint32_t most = pitch / (kk * size), g = 16, w = kk * size;
    while (w % 2 == 0 && g > 1) w /= 2, g /= 2; /* g = 16 / gcd(kk * size, 16) */
    if (most < g) return most < c_in ? most : c_in;
    most -= most % g;
    const uint32_t tiles = (c_in + most - 1) / most, even = (c_in + tiles - 1) / tiles;
    const uint32_t cc = (even + g - 1) / g * g;
    return cc < c_in ? cc : c_in;
}

/* The channels a tile takes for an unfold of c_in channels by (h_k, w_k)
 * windows, 0 where the kernel walks rows instead (a window over the
 * tile's taps or row, positions past int): the one test the kernel
 * (conv.h tile_channels) and crk_im2col's grid both make. */
CRK_HD uint32_t unfold_tile_plan(uint64_t c_in, uint64_t h_out, uint64_t h_k, uint64_t w_out, uint64_t w_k,
                                 uint64_t stride, uint64_t dilation, uint64_t pad_h, uint64_t pad_w, uint64_t h_in,
                                 uint64_t w_in, uint32_t size, uint32_t pitch) {
    if (c_in > 0xFFFFFFFFull || h_k > UNFOLD_TILE_TAPS || w_k > UNFOLD_TILE_TAPS || h_k * w_k > UNFOLD_TILE_TAPS ||
        !unfold_tile_axis_fits(h_out, h_k, stride, dilation, pad_h, h_in) ||
        !unfold_tile_axis_fits(w_out, w_k, stride, dilation, pad_w, w_in))
        return 0;
    return unfold_tile_channels((uint32_t)c_in, (uint32_t)(h_k * w_k), size, pitch);
}
#endif
