/* rt_wave.c — a wave's registers at kernel entry (AMDGPUUsage "Initial
 * Kernel Execution State").
 *
 * User SGPRs from s0, each only if kernel_code_properties enables it, in
 * this order: private segment buffer (4), dispatch ptr (2), queue ptr (2),
 * kernarg segment ptr (2), dispatch id (2), flat scratch init (2), private
 * segment size (1), then the preloaded kernarg dwords (gfx90a+). System
 * SGPRs start at USER_SGPR_COUNT: workgroup id x, y, z, workgroup info,
 * private segment wave byte offset, each if compute_pgm_rsrc2 enables it.
 * VGPRs: work-item IDs, packed in v0 (x | y << 10 | z << 20) on gfx90a,
 * gfx94x/950 and gfx11, else v0, v1, v2; only the components
 * ENABLE_VGPR_WORKITEM_ID asks for. EXEC: the lanes that exist. */
#include "rt.h"

#include <string.h>

static void put64(emu_wave *w, int s, uint64_t v)
{
    w->sgpr[s] = (uint32_t)v, w->sgpr[s + 1] = (uint32_t)(v >> 32);
}

static void init_sgprs(emu_wave *w, const rt_kd *kd, const rt_dispatch *ds, const unsigned wg[3], unsigned wave,
                       unsigned nwaves)
{
    int s = 0;
    memset(w->sgpr, 0, sizeof w->sgpr);
    if (kd->private_segment_buffer) s += 4; /* V# of a scratch buffer we do not have: 0 */
    if (kd->dispatch_ptr) put64(w, s, ds->packet), s += 2;
    if (kd->queue_ptr) put64(w, s, ds->queue), s += 2;
    if (kd->kernarg_segment_ptr) put64(w, s, ds->kernarg), s += 2;
    if (kd->dispatch_id) put64(w, s, ds->dispatch_id), s += 2;
    if (kd->flat_scratch_init) s += 2; /* no scratch: 0 */
    if (kd->private_segment_size) w->sgpr[s++] = kd->private_segment_fixed_size;
    for (int i = 0; i < kd->preload_dwords && s < EMU_NSGPR; i++, s++) {
        size_t off = 4 * (size_t)(kd->preload_offset_dwords + i);
        if (off + 4 <= ds->kernarg_bytes) memcpy(&w->sgpr[s], ds->kernarg_host + off, 4);
    }
    s = kd->user_sgpr_count;
    if (kd->wgid_x) w->sgpr[s++] = wg[0];
    if (kd->wgid_y) w->sgpr[s++] = wg[1];
    if (kd->wgid_z) w->sgpr[s++] = wg[2];
    /* {first_wave[31], ordered_append_term[16:6], waves_in_workgroup[5:0]} */
    if (kd->wg_info) w->sgpr[s++] = (wave == 0 ? 1u << 31 : 0) | (nwaves & 0x3f);
    if (kd->scratch_en) w->sgpr[s++] = 0; /* private segment wave byte offset */
}

void rt_wave_init(emu_wave *w, const rt_kernel *k, const rt_dims *d, const rt_dispatch *ds, const unsigned wg[3],
                  unsigned wave, unsigned nwaves)
{
    const rt_kd *kd = &k->kd;
    const rt_device *dev = k->mod->dev;
    w->isa = dev->isa;
    w->wave_size = rt_kernel_wave_size(k);
    init_sgprs(w, kd, ds, wg, wave, nwaves);

    /* Zero the registers the kernel says it uses (not all 512 x 64: cost). */
    uint32_t vg = k->md->vgpr_count, ag = k->md->agpr_count;
    vg = vg == CRK_CO_UNSET || vg > 256 ? 256 : vg;
    ag = ag == CRK_CO_UNSET || ag > 256 ? 0 : ag;
    memset(w->vgpr, 0, (size_t)vg * sizeof w->vgpr[0]);
    if (ag) memset(w->vgpr + 256, 0, (size_t)ag * sizeof w->vgpr[0]);

    const unsigned ws = (unsigned)w->wave_size, threads = d->block[0] * d->block[1] * d->block[2];
    const unsigned first = wave * ws, lanes = threads - first < ws ? threads - first : ws;
    for (unsigned l = 0; l < lanes; l++) {
        unsigned t = first + l, x = t % d->block[0], y = t / d->block[0] % d->block[1],
                 z = t / (d->block[0] * d->block[1]);
        y = kd->tid_comp_cnt >= 1 ? y : 0;
        z = kd->tid_comp_cnt >= 2 ? z : 0;
        if (dev->packed_tid) {
            w->vgpr[0][l] = x | y << 10 | z << 20;
        } else {
            w->vgpr[0][l] = x;
            if (kd->tid_comp_cnt >= 1) w->vgpr[1][l] = y;
            if (kd->tid_comp_cnt >= 2) w->vgpr[2][l] = z;
        }
    }
    w->exec = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
    w->vcc = 0, w->m0 = 0, w->scc = 0;
    w->mode = rt_kd_mode(kd, dev->isa);
    w->code = k->mod->host, w->code_size = k->mod->size, w->code_base = k->mod->base;
    w->pc = k->entry;
    w->flat_scratch = 0;
    w->kernel = k->name;
}
