/* rt_launch.c — runs one dispatch: places the kernarg segment and the
 * dispatch packet in emulated memory, then runs the workgroups one after
 * another. Inside a workgroup the waves take turns (QUANTUM instructions
 * each, or until s_barrier / s_endpgm); waves at a barrier resume once every
 * wave still running has reached it (a wave that ended no longer counts).
 * Any wave error ends the dispatch with a message naming kernel, workgroup,
 * wave and pc. */
#include "rt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QUANTUM 256
#define MAX_WAVES 32 /* 1024 work-items in wave32 */

rt_stats rt_stat;
emu_step_result (*rt_step)(emu_wave *w, char *err, size_t elen) = emu_step;

enum { RUN, AT_BARRIER, DONE };

/* Register files and LDS, reused by every workgroup (one runs at a time). */
static uint32_t (*regfiles)[EMU_NVGPR][EMU_MAX_LANES];
static uint8_t *lds_buf;
static uint32_t lds_cap;

static int ensure_buffers(uint32_t lds_bytes)
{
    if (!regfiles && !(regfiles = malloc(MAX_WAVES * sizeof *regfiles))) return -1;
    if (lds_bytes > lds_cap) {
        uint8_t *p = realloc(lds_buf, lds_bytes);
        if (!p) return -1;
        lds_buf = p, lds_cap = lds_bytes;
    }
    return 0;
}

/* Released when the library is unloaded (leak checkers stay quiet). */
__attribute__((destructor)) static void free_buffers(void)
{
    free(regfiles), free(lds_buf);
    regfiles = NULL, lds_buf = NULL, lds_cap = 0;
}

static uint64_t wave_limit(void)
{
    const char *s = getenv("CRK_EMU_MAX_WAVE_INSTS"); /* runaway-loop guard */
    return s && *s ? strtoull(s, NULL, 0) : (uint64_t)1 << 32;
}

/* Runs the waves of one workgroup to the end. 0 or -1 with err. */
static int run_workgroup(rt_kernel *k, const rt_dims *d, const rt_dispatch *ds, const unsigned wg[3],
                         uint32_t lds_bytes, uint64_t limit, char *err, size_t n)
{
    emu_wave waves[MAX_WAVES];
    int state[MAX_WAVES];
    uint64_t ran[MAX_WAVES] = {0}; /* instructions per wave */
    const unsigned threads = d->block[0] * d->block[1] * d->block[2];
    const unsigned ws = (unsigned)rt_kernel_wave_size(k);
    const unsigned nwaves = (threads + ws - 1) / ws;
    memset(lds_buf, 0, lds_bytes);
    for (unsigned i = 0; i < nwaves; i++) {
        emu_wave *w = &waves[i];
        memset(w, 0, sizeof *w);
        w->vgpr = regfiles[i];
        w->lds = lds_buf, w->lds_size = lds_bytes;
        w->mem = k->mod->mem;
        rt_wave_init(w, k, d, ds, wg, i, nwaves);
        state[i] = RUN;
    }
    unsigned live = nwaves, waiting = 0;
    uint64_t lane_insts = 0, insts = 0;
    char why[512];
    while (live) {
        for (unsigned i = 0; i < nwaves; i++) {
            if (state[i] != RUN) continue;
            emu_wave *w = &waves[i];
            int q = 0;
            for (; q < QUANTUM; q++) {
                const uint64_t pc = w->pc, exec = w->exec;
                why[0] = 0;
                emu_step_result r = rt_step(w, why, sizeof why);
                lane_insts += (uint64_t)__builtin_popcountll(exec);
                if (r == EMU_STEP_OK) continue;
                if (r == EMU_STEP_END) state[i] = DONE, live--;
                else if (r == EMU_STEP_BARRIER) state[i] = AT_BARRIER, waiting++;
                else {
                    snprintf(err, n, "kernel %s, workgroup (%u,%u,%u) wave %u, pc 0x%" PRIx64 ": %s", k->name,
                             wg[0], wg[1], wg[2], i, pc, why[0] ? why : "emu_step failed");
                    return -1;
                }
                q++;
                break;
            }
            insts += (uint64_t)q;
            if ((ran[i] += (uint64_t)q) > limit) {
                snprintf(err, n, "kernel %s, workgroup (%u,%u,%u): more than %" PRIu64
                         " instructions per wave (runaway loop? CRK_EMU_MAX_WAVE_INSTS raises it)",
                         k->name, wg[0], wg[1], wg[2], limit);
                return -1;
            }
        }
        if (waiting && waiting == live) { /* every running wave is at the barrier */
            for (unsigned i = 0; i < nwaves; i++)
                if (state[i] == AT_BARRIER) state[i] = RUN;
            waiting = 0;
        }
    }
    rt_stat.waves += nwaves, rt_stat.wave_insts += insts, rt_stat.lane_insts += lane_insts;
    return 0;
}

static int check_dims(const rt_kernel *k, const rt_dims *d, uint32_t lds, char *err, size_t n)
{
    uint64_t threads = (uint64_t)d->block[0] * d->block[1] * d->block[2];
    uint32_t maxwg = k->md->max_flat_workgroup_size;
    for (int i = 0; i < 3; i++)
        if (!d->grid[i] || !d->block[i] || (uint64_t)d->grid[i] * d->block[i] > UINT32_MAX)
            return snprintf(err, n, "%s: bad launch shape grid %u,%u,%u block %u,%u,%u", k->name, d->grid[0],
                            d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2]), -1;
    if (threads > 1024 || (maxwg != CRK_CO_UNSET && threads > maxwg))
        return snprintf(err, n, "%s: %" PRIu64 " work-items per workgroup (max %u)", k->name, threads,
                        maxwg != CRK_CO_UNSET && maxwg < 1024 ? maxwg : 1024), -1;
    if (lds > k->mod->dev->lds_bytes)
        return snprintf(err, n, "%s: %u bytes of LDS (static %u + dynamic %u) exceed %u", k->name, lds,
                        k->kd.group_segment_fixed_size, d->dyn_lds, k->mod->dev->lds_bytes), -1;
    return 0;
}

int rt_launch(rt_kernel *k, const rt_dims *d, void **params, void **extra, char *err, size_t n)
{
    static uint64_t dispatch_id;
    emu_mem *m = k->mod->mem;
    const uint32_t lds = k->kd.group_segment_fixed_size + d->dyn_lds;
    if (check_dims(k, d, lds, err, n)) return RT_E_CONFIG;
    if (ensure_buffers(lds ? lds : 1)) return snprintf(err, n, "out of host memory"), RT_E_NOMEM;
    uint32_t ksize = k->kd.kernarg_size;
    if (k->md->kernarg_segment_size != CRK_CO_UNSET && k->md->kernarg_segment_size > ksize)
        ksize = k->md->kernarg_segment_size;
    /* Rounded up to 64 bytes: s_load_dwordx16 of the last arguments stays inside. */
    const size_t kbytes = ksize ? (ksize + 63u) / 64u * 64u : 64;
    rt_dispatch ds = {0};
    ds.dispatch_id = dispatch_id++;
    ds.kernarg = rt_mem_alloc(m, kbytes, RT_MEM_RO, "kernarg segment");
    ds.packet = rt_mem_alloc(m, 64, RT_MEM_RO, "dispatch packet");
    ds.queue = k->kd.queue_ptr ? rt_mem_alloc(m, 256, RT_MEM_RO, "queue") : 0;
    uint8_t *ka = ds.kernarg ? rt_mem_host(m, ds.kernarg, kbytes, NULL, 0) : NULL;
    uint8_t *pkt = ds.packet ? rt_mem_host(m, ds.packet, 64, NULL, 0) : NULL;
    int r = RT_E_NOMEM;
    if (!ka || !pkt || (k->kd.queue_ptr && !ds.queue)) snprintf(err, n, "out of emulated memory");
    else if (rt_kernarg_build(k, d, params, extra, ka, kbytes, err, n)) r = RT_E_ARGS;
    else {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        rt_dispatch_packet(pkt, k, d, ds.kernarg, k->kd.private_segment_fixed_size);
        ds.kernarg_host = ka, ds.kernarg_bytes = kbytes;
        const uint64_t limit = wave_limit();
        unsigned wg[3];
        r = 0;
        for (wg[2] = 0; !r && wg[2] < d->grid[2]; wg[2]++)
            for (wg[1] = 0; !r && wg[1] < d->grid[1]; wg[1]++)
                for (wg[0] = 0; !r && wg[0] < d->grid[0]; wg[0]++) {
                    r = run_workgroup(k, d, &ds, wg, lds, limit, err, n);
                    rt_stat.workgroups++;
                }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        rt_stat.seconds += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        rt_stat.launches++;
    }
    if (ds.kernarg) rt_mem_free(m, ds.kernarg);
    if (ds.packet) rt_mem_free(m, ds.packet);
    if (ds.queue) rt_mem_free(m, ds.queue);
    return r;
}
