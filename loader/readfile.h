/* readfile.h — reading a whole code-object file (loader and CLI). */
#ifndef CRK_READFILE_H
#define CRK_READFILE_H
#include <stddef.h>
#include <stdint.h>

/* Largest file accepted: far above any code object, below absurd. */
#define CRK_MAX_FILE ((size_t)1 << 31)

/* crk_read_file's results. */
enum {
    CRK_READ_OK = 0,
    CRK_READ_ERROR = -1,   /* cannot read: not a regular file, I/O error, ... */
    CRK_READ_TOO_BIG = -2, /* larger than CRK_MAX_FILE                        */
    CRK_READ_MISSING = -3  /* no such file (ENOENT)                           */
};

/* Reads a regular file into a malloc'ed buffer; never blocks on a FIFO or a
 * device (they are refused, named by their kind). One of the results above,
 * with a message in err for the failures. */
int crk_read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t n);

/* "a FIFO", "a directory", ... for a stat mode that is not a regular file. */
const char *crk_file_kind(unsigned mode);

/* printf into a malloc'ed string: paths of any length (no fixed buffer to
 * truncate them). NULL when out of memory. */
char *crk_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif
