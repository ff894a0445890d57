/* fuzz_select.c — DIR-mode target selection without a directory: the
 * input's lines are a device target ID then directory entry names; they go
 * through the candidate list (candidates.c: any number, names too long for a
 * target skipped, sorted, repeats dropped) and the pick (target_id.c). A
 * pick must be a listed candidate compatible with the device. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "candidates.h"
#include "target_id.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const int generic = data[0] & 1;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char *save = NULL, *device = strtok_r(text, "\n", &save);
    crk_candidates c = {0};
    for (char *name = strtok_r(NULL, "\n", &save); name; name = strtok_r(NULL, "\n", &save))
        if (crk_candidates_add(&c, name, "gfx") < 0)
            break;
    crk_candidates_finish(&c);
    for (size_t i = 1; i < c.n; i++)
        if (strcmp(c.names[i - 1], c.names[i]) >= 0) /* sorted, no repeats */
            abort();
    char have[128];
    crk_candidates_join(&c, have, sizeof have);
    const int pick = device ? crk_target_pick(device, (const char *const *)c.names, c.n, generic) : -1;
    if (pick >= 0 && ((size_t)pick >= c.n || !crk_target_compatible(c.names[pick], device, generic) ||
                      strlen(c.names[pick]) >= 96 /* CRK_CO_TARGET_MAX */))
        abort();
    crk_candidates_free(&c);
    free(text);
    return 0;
}
