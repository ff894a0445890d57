/* info_ring.h — the info-buffer ring and its cache (info_ring.c). */
#ifndef CRK_INFO_RING_H
#define CRK_INFO_RING_H
#include "context.h"

/* One launch whose kernel reads an info buffer. */
typedef struct {
    void *fn, *stream;
    const unsigned *grid, *block; /* 3 each */
    unsigned shared;              /* dynamic shared-memory bytes */
    void **args, **info_arg;      /* info_arg: where args[] reads the info pointer */
    const size_t *info;
    size_t info_len;              /* 1 .. CRK_INFO_SLOT_BYTES / sizeof(size_t) */
} crk_ring_launch;

crk_status crk_info_ring_init(crk_ctx *ctx); /* CRK_E_NOMEM, no message set */
void crk_info_ring_free(crk_ctx *ctx);       /* the events and host copies   */
/* Puts the info in a slot (one already holding these bytes for this stream,
 * or a fresh upload), launches, and keeps the slot until the kernel is done.
 * 0 or the runtime's error code. */
int crk_info_ring_launch(crk_ctx *ctx, const crk_ring_launch *l);
#endif
