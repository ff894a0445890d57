/* error.h — thread-local last error of the public API. */
#ifndef CRK_ERROR_H
#define CRK_ERROR_H
#include "crk.h"

/* Records the message for crk_last_error() and returns s. */
crk_status crk_fail(crk_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
