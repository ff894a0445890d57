/* datadir.h — where `make install` put the artifacts. */
#ifndef CRK_DATADIR_H
#define CRK_DATADIR_H
#include <stddef.h>

/* The installed hsaco/ directory (one holding manifest.json), written to buf:
 * LIBDIR/../share/crk/hsaco next to this libcrk, else CRK_DATADIR/hsaco
 * (PREFIX/share/crk at build time). NULL if neither exists. */
const char *crk_installed_hsaco_dir(char *buf, size_t n);
#endif
