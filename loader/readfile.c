/* readfile.c — a whole file into memory, with one-line errors. */
#define _POSIX_C_SOURCE 200809L
#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *crk_file_kind(unsigned mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFLNK: return "a symbolic link";
    }
    return "not a regular file";
}

int crk_read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t n)
{
    *buf = NULL;
    *len = 0;
    struct stat st;
    /* stat first, and O_NONBLOCK: opening a FIFO would wait for a writer. */
    if (stat(path, &st) != 0) {
        const int missing = errno == ENOENT;
        snprintf(err, n, "cannot open: %s", strerror(errno));
        return missing ? CRK_READ_MISSING : CRK_READ_ERROR;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, n, "is %s, not a regular file; give the path of a code object file",
                 crk_file_kind(st.st_mode));
        return CRK_READ_ERROR;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, n, "cannot open: %s", strerror(errno));
        return CRK_READ_ERROR;
    }
    /* The path may have been replaced since stat: check what was opened. */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, n, "is %s, not a regular file", crk_file_kind(st.st_mode));
        close(fd);
        return CRK_READ_ERROR;
    }
    if ((uint64_t)st.st_size > CRK_MAX_FILE) {
        snprintf(err, n, "file too large (%lld bytes, at most %zu)", (long long)st.st_size,
                 CRK_MAX_FILE);
        close(fd);
        return CRK_READ_TOO_BIG;
    }
    size_t sz = (size_t)st.st_size, got = 0;
    uint8_t *b = malloc(sz ? sz : 1);
    if (!b) {
        snprintf(err, n, "out of memory");
        close(fd);
        return CRK_READ_ERROR;
    }
    while (got < sz) {
        ssize_t r = read(fd, b + got, sz - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            snprintf(err, n, "read error: %s", r < 0 ? strerror(errno) : "short read");
            free(b);
            close(fd);
            return CRK_READ_ERROR;
        }
        got += (size_t)r;
    }
    close(fd);
    *buf = b;
    *len = sz;
    return CRK_READ_OK;
}

char *crk_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0)
        return NULL;
    char *s = malloc((size_t)need + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)need + 1, fmt, ap);
    va_end(ap);
    return s;
}
