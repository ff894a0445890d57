/* readfile.c — a whole file into memory, with one-line errors. */
#define _POSIX_C_SOURCE 200809L
#include "readfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int crk_read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t n)
{
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, n, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, n, "not a regular file");
        fclose(f);
        return -1;
    }
    if ((uint64_t)st.st_size > CRK_MAX_FILE) {
        snprintf(err, n, "file too large (%lld bytes)", (long long)st.st_size);
        fclose(f);
        return -2;
    }
    size_t sz = (size_t)st.st_size;
    uint8_t *b = malloc(sz ? sz : 1);
    if (!b) {
        snprintf(err, n, "out of memory");
        fclose(f);
        return -1;
    }
    if (fread(b, 1, sz, f) != sz) {
        snprintf(err, n, "read error: %s", ferror(f) ? strerror(errno) : "short read");
        free(b);
        fclose(f);
        return -1;
    }
    fclose(f);
    *buf = b;
    *len = sz;
    return 0;
}
