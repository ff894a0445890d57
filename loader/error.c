/* error.c — one message per thread, so a context can be shared. */
#include "error.h"
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[1024];

crk_status crk_fail(crk_status s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return s;
}

const char *crk_last_error(void) { return last_error; }

const char *crk_status_name(crk_status s) {
    static const char *const names[] = {
        "ok", "invalid argument", "kernel not found", "no code object for this GPU",
        "corrupt code object", "signature mismatch", "too many dims", "no GPU",
        "GPU runtime error", "out of memory", "I/O error"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown status";
}
