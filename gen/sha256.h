/* sha256.h — SHA-256 of a file, for the manifest. */
#ifndef GEN_SHA256_H
#define GEN_SHA256_H
#include <stddef.h>
/* Writes 64 hex digits + NUL to hex; returns the file size or -1. */
long sha256_file(const char *path, char hex[65]);
#endif
