/* readfile.h — reading a whole code-object file (loader and CLI). */
#ifndef CRK_READFILE_H
#define CRK_READFILE_H
#include <stddef.h>
#include <stdint.h>

/* Largest file accepted: far above any code object, below absurd. */
#define CRK_MAX_FILE ((size_t)1 << 31)

/* Reads a regular file into a malloc'ed buffer. 0 ok; -1 cannot read
 * (message in err); -2 larger than CRK_MAX_FILE. */
int crk_read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t n);
#endif
