/* msgpack.h — bounded, non-recursive msgpack reader.
 *
 * Reads objects one header at a time from a memory buffer. Strings and binary
 * payloads are returned as (pointer, length) views into the buffer, never
 * NUL-terminated. Arrays and maps return only their element count; the caller
 * then reads the elements. crk_mp_skip() skips a whole object iteratively with
 * a fixed nesting limit, so hostile input cannot exhaust the stack.
 */
#ifndef CRK_MSGPACK_H
#define CRK_MSGPACK_H

#include <stddef.h>
#include <stdint.h>

#define CRK_MP_MAX_DEPTH 64

typedef enum {
    CRK_MP_NIL, CRK_MP_BOOL, CRK_MP_INT, CRK_MP_UINT, CRK_MP_FLOAT,
    CRK_MP_STR, CRK_MP_BIN, CRK_MP_ARRAY, CRK_MP_MAP, CRK_MP_EXT
} crk_mp_type;

typedef struct {
    crk_mp_type type;
    union {
        int b;          /* BOOL                                   */
        int64_t i;      /* INT (negative values only)             */
        uint64_t u;     /* UINT                                   */
        double f;       /* FLOAT (float32 widened)                */
    } v;
    const char *ptr;    /* STR / BIN / EXT payload (not NUL-terminated) */
    uint32_t len;       /* STR/BIN/EXT byte length; ARRAY/MAP element count */
} crk_mp_obj;

typedef struct {
    const uint8_t *buf;
    size_t len;
    size_t pos;
} crk_mp_reader;

void crk_mp_init(crk_mp_reader *r, const uint8_t *buf, size_t len);
/* Reads one object header (and the payload of STR/BIN/EXT). 0 ok, -1 on
 * truncation, reserved byte 0xc1, or a container count that cannot fit in
 * the remaining bytes. */
int crk_mp_read(crk_mp_reader *r, crk_mp_obj *o);
/* Skips one complete object (containers included). 0 ok, -1 on error or when
 * nesting exceeds CRK_MP_MAX_DEPTH. */
int crk_mp_skip(crk_mp_reader *r);
/* Skips the elements of a container whose header `o` was just read. */
int crk_mp_skip_body(crk_mp_reader *r, const crk_mp_obj *o);
/* Non-negative integer value of INT/UINT; -1 if not an integer or negative. */
int crk_mp_as_u64(const crk_mp_obj *o, uint64_t *out);
/* 1 if `o` is a STR equal to the NUL-terminated `s`. */
int crk_mp_str_eq(const crk_mp_obj *o, const char *s);

#endif
