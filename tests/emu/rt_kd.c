/* rt_kd.c — the 64-byte AMDHSA kernel descriptor (AMDGPUUsage, "Kernel
 * Descriptor"):
 *    0 u32 group_segment_fixed_size     4 u32 private_segment_fixed_size
 *    8 u32 kernarg_size                16 i64 kernel_code_entry_byte_offset
 *   44 u32 compute_pgm_rsrc3           48 u32 compute_pgm_rsrc1
 *   52 u32 compute_pgm_rsrc2           56 u16 kernel_code_properties
 *   58 u16 kernarg_preload (length[6:0], offset[15:7], in dwords) */
#include "rt.h"

static unsigned bits(uint32_t v, unsigned lo, unsigned width) { return (v >> lo) & ((1u << width) - 1); }

int rt_kd_decode(const uint8_t kd[64], rt_kd *o, char *err, size_t n)
{
    *o = (rt_kd){0};
    o->group_segment_fixed_size = crk_co_le32(kd + 0);
    o->private_segment_fixed_size = crk_co_le32(kd + 4);
    o->kernarg_size = crk_co_le32(kd + 8);
    o->entry_offset = (int64_t)crk_co_le64(kd + 16);
    o->rsrc3 = crk_co_le32(kd + 44);
    o->rsrc1 = crk_co_le32(kd + 48);
    o->rsrc2 = crk_co_le32(kd + 52);
    o->code_props = crk_co_le16(kd + 56);
    o->kernarg_preload = crk_co_le16(kd + 58);

    const uint32_t p = o->code_props;
    o->private_segment_buffer = bits(p, 0, 1);
    o->dispatch_ptr = bits(p, 1, 1);
    o->queue_ptr = bits(p, 2, 1);
    o->kernarg_segment_ptr = bits(p, 3, 1);
    o->dispatch_id = bits(p, 4, 1);
    o->flat_scratch_init = bits(p, 5, 1);
    o->private_segment_size = bits(p, 6, 1);
    o->wave32 = bits(p, 10, 1);
    o->preload_dwords = (int)bits(o->kernarg_preload, 0, 7);
    o->preload_offset_dwords = (int)bits(o->kernarg_preload, 7, 9);

    const uint32_t r2 = o->rsrc2;
    o->scratch_en = bits(r2, 0, 1);
    o->user_sgpr_count = (int)bits(r2, 1, 5);
    o->wgid_x = bits(r2, 7, 1);
    o->wgid_y = bits(r2, 8, 1);
    o->wgid_z = bits(r2, 9, 1);
    o->wg_info = bits(r2, 10, 1);
    o->tid_comp_cnt = (int)bits(r2, 11, 2);

    if (o->entry_offset == 0) return crk_co_errf(err, n, "kernel descriptor has no code entry offset"), -1;
    int user = 4 * o->private_segment_buffer + 2 * (o->dispatch_ptr + o->queue_ptr + o->kernarg_segment_ptr +
                                                     o->dispatch_id + o->flat_scratch_init) +
               o->private_segment_size + o->preload_dwords;
    if (user > o->user_sgpr_count)
        return crk_co_errf(err, n, "kernel descriptor enables %d user SGPRs but USER_SGPR_COUNT is %d", user,
                           o->user_sgpr_count), -1;
    if (o->tid_comp_cnt == 3) return crk_co_errf(err, n, "ENABLE_VGPR_WORKITEM_ID is 3 (reserved)"), -1;
    return 0;
}

uint32_t rt_kd_mode(const rt_kd *kd, emu_isa isa)
{
    const uint32_t r1 = kd->rsrc1;
    uint32_t mode = bits(r1, 12, 8);      /* FLOAT_ROUND_MODE_32/16_64, FLOAT_DENORM_MODE_32/16_64 */
    mode |= bits(r1, 21, 1) << 8;         /* ENABLE_DX10_CLAMP */
    mode |= bits(r1, 23, 1) << 9;         /* ENABLE_IEEE_MODE */
    if (isa == EMU_GFX9 || isa == EMU_GFX11) mode |= bits(r1, 26, 1) << 23; /* FP16_OVFL */
    return mode;
}
