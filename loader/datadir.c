/* datadir.c — the installed artifacts' directory, the default of
 * CRK_SOURCE_DIR / CRK_SOURCE_BUNDLE when options.path is NULL. Looked up
 * next to the library first, so a relocated or DESTDIR-staged install works. */
#include "datadir.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CRK_DATADIR
#define CRK_DATADIR "/usr/local/share/crk" /* mk/install.mk passes PREFIX's */
#endif

static int has_manifest(const char *dir) {
    char p[4096];
    struct stat sb;
    return (size_t)snprintf(p, sizeof p, "%s/manifest.json", dir) < sizeof p && stat(p, &sb) == 0;
}

const char *crk_installed_hsaco_dir(char *buf, size_t n) {
    Dl_info info;
    if (dladdr((void *)crk_installed_hsaco_dir, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash && (size_t)snprintf(buf, n, "%.*s/../share/crk/hsaco", (int)(slash - info.dli_fname),
                                      info.dli_fname) < n && has_manifest(buf))
            return buf;
    }
    if ((size_t)snprintf(buf, n, "%s/hsaco", CRK_DATADIR) < n && has_manifest(buf)) return buf;
    return NULL;
}
