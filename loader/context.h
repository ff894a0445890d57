/* context.h — what a crk_ctx holds; shared by context.c, select.c, launch.c. */
#ifndef CRK_CONTEXT_H
#define CRK_CONTEXT_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "crk.h"
#include "gpu.h"

#define CRK_INFO_SLOTS 1024
#define CRK_INFO_SLOT_BYTES (4 * CRK_MAX_DIMS * sizeof(size_t))
#define CRK_INFO_INDEX 4096 /* buckets of the cache's index */

typedef struct {
    pthread_mutex_t lock;        /* first use loads once, even from many threads */
    _Atomic(void *) module;      /* NULL until loaded; a failed load is retried  */
} crk_module_slot;

/* An info slot's state: whether a kernel may still read its device bytes. */
typedef enum {
    CRK_SLOT_FREE = 0,   /* no kernel reads it                                 */
    CRK_SLOT_EVENT,      /* read by kernels up to its recorded event           */
    CRK_SLOT_UNTRACKED   /* a kernel was launched but no event recorded: reuse
                            only after a device-wide synchronize               */
} crk_slot_state;

struct crk_ctx {
    crk_gpu gpu;
    crk_options opt;
    char *path;                    /* opt.path, copied (any length)        */
    char device_target[128], device_name[256];
    char code_object_target[128];  /* target picked among what is shipped */
    crk_module_slot *modules;      /* one per Candle module id             */
    _Atomic(void *) *functions;    /* one per registry kernel              */
    _Atomic(uint64_t) *resident;   /* per kernel: its last occupancy query (launch.c) */
    /* info buffers (info_ring.c): a ring of device slots; a slot is
     * overwritten after the kernels that read it have finished (its event),
     * and reused by launches with the same bytes on the same stream. */
    void *info_dev;
    void *info_event[CRK_INFO_SLOTS];
    crk_slot_state info_state[CRK_INFO_SLOTS];
    pthread_mutex_t info_lock[CRK_INFO_SLOTS];
    atomic_uint info_next;
    void *info_host;                        /* each slot's bytes, CRK_INFO_SLOT_BYTES apart */
    size_t info_len[CRK_INFO_SLOTS];        /* size_t in the slot; 0: nothing to reuse      */
    void *info_stream[CRK_INFO_SLOTS];      /* the stream of its last reader                 */
    _Atomic(uint64_t) info_used[CRK_INFO_SLOTS]; /* info_uses at its last launch             */
    _Atomic(uint64_t) info_uses;            /* launches through the ring so far             */
    atomic_uint info_index[CRK_INFO_INDEX]; /* bytes' hash -> slot + 1 (0: none)            */
    atomic_int index_checks;       /* crk_set_index_checks                 */
};

/* select.c: picks the shipped target for the device (at open) and returns
 * a module's image bytes (malloc'ed or embedded; *owned says which). */
crk_status crk_select_target(crk_ctx *ctx);
crk_status crk_module_image(crk_ctx *ctx, const char *module, const void **image, size_t *size,
                            int *owned);
/* launch.c: raw-launch argument check against the registry signature. */
crk_status crk_check_launch(const crk_kernel_info *ki, const unsigned grid[3], const unsigned block[3],
                            void **args, const size_t *sizes, size_t nargs);
/* context.c */
crk_status crk_gpu_error(crk_ctx *ctx, int err, const char *what);
/* Makes the context's device/context current on the calling thread: the
 * first step of every call that touches the GPU. */
crk_status crk_ctx_enter(crk_ctx *ctx, const char *what);
void *crk_function(crk_ctx *ctx, const crk_kernel_info *ki, crk_status *st);
#endif
