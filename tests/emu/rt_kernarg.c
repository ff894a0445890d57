/* rt_kernarg.c — the kernarg segment and the dispatch packet of a launch.
 *
 * Explicit arguments go at the offsets and sizes the metadata (.args) gives;
 * hidden arguments as in AMDGPUUsage "Code Object V5 Metadata": block
 * counts, group sizes, remainders (0: HIP grids are whole workgroups),
 * global offsets (0), grid dims, dynamic LDS size; every other hidden_* is
 * a pointer or value this runtime does not provide and reads as 0. */
#include "rt.h"

#include <stdio.h>
#include <string.h>

static void put(uint8_t *p, uint32_t size, uint64_t v)
{
    for (uint32_t i = 0; i < size && i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

unsigned rt_grid_dims(const rt_dims *d)
{
    if (d->grid[2] > 1 || d->block[2] > 1) return 3;
    if (d->grid[1] > 1 || d->block[1] > 1) return 2;
    return 1;
}

/* Value of a hidden argument; 0 for the ones not provided. */
static uint64_t hidden_value(const char *kind, const rt_dims *d)
{
    static const char *const xyz[] = {"_x", "_y", "_z"};
    for (int i = 0; i < 3; i++) {
        char name[40];
        snprintf(name, sizeof name, "hidden_block_count%s", xyz[i]);
        if (!strcmp(kind, name)) return d->grid[i];
        snprintf(name, sizeof name, "hidden_group_size%s", xyz[i]);
        if (!strcmp(kind, name)) return d->block[i];
    }
    if (!strcmp(kind, "hidden_grid_dims")) return rt_grid_dims(d);
    if (!strcmp(kind, "hidden_dynamic_lds_size")) return d->dyn_lds;
    return 0; /* remainders, global offsets, printf/hostcall/heap/queue pointers... */
}

int rt_kernarg_build(const rt_kernel *k, const rt_dims *d, void **params, void **extra, uint8_t *ka,
                     size_t kasize, char *err, size_t n)
{
    memset(ka, 0, kasize);
    if (extra) { /* HIP_LAUNCH_PARAM_BUFFER_POINTER (1), _SIZE (2), _END (3) */
        const void *buf = NULL;
        const size_t *bsize = NULL;
        for (size_t i = 0; extra[i] != (void *)3; i += 2) {
            if (extra[i] == (void *)1) buf = extra[i + 1];
            else if (extra[i] == (void *)2) bsize = extra[i + 1];
            else return crk_co_errf(err, n, "unknown launch parameter %p in extra", extra[i]), -1;
        }
        if (!buf || !bsize || *bsize > kasize)
            return crk_co_errf(err, n, "extra: argument buffer missing or larger than the kernarg segment"), -1;
        memcpy(ka, buf, *bsize);
    }
    uint32_t explicit_i = 0;
    for (uint32_t i = 0; i < k->md->nargs; i++) {
        const crk_co_arg *a = &k->md->args[i];
        if ((uint64_t)a->offset + a->size > kasize)
            return crk_co_errf(err, n, "argument %u at %u+%u outside the kernarg segment", i, a->offset, a->size), -1;
        if (crk_co_arg_is_hidden(a)) {
            put(ka + a->offset, a->size, hidden_value(a->value_kind, d));
        } else if (!extra) {
            if (!params || !params[explicit_i])
                return crk_co_errf(err, n, "kernelParams[%u] missing for %s", explicit_i, k->name), -1;
            memcpy(ka + a->offset, params[explicit_i], a->size);
            explicit_i++;
        }
    }
    return 0;
}

void rt_dispatch_packet(uint8_t pkt[64], const rt_kernel *k, const rt_dims *d, uint64_t kernarg,
                        uint64_t private_size)
{
    memset(pkt, 0, 64);
    /* header: type KERNEL_DISPATCH (2), barrier, system-scope acquire/release */
    put(pkt + 0, 2, 2u | 1u << 8 | 2u << 9 | 2u << 11);
    put(pkt + 2, 2, rt_grid_dims(d)); /* setup: dimensions */
    for (int i = 0; i < 3; i++) {
        put(pkt + 4 + 2 * i, 2, d->block[i]);
        put(pkt + 12 + 4 * i, 4, (uint64_t)d->grid[i] * d->block[i]); /* work-items */
    }
    put(pkt + 24, 4, private_size);
    put(pkt + 28, 4, k->kd.group_segment_fixed_size + d->dyn_lds);
    put(pkt + 32, 8, k->kd_addr);
    put(pkt + 40, 8, kernarg);
}
