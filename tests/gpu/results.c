/* results.c — the table at the end of the numeric suite. */
#include "results.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void results_init(results_t *r, uint64_t seed) {
    memset(r, 0, sizeof *r);
    r->seed = seed;
}

void results_add(results_t *r, const char *family, const char *dtype, int outcome) {
    int i = 0;
    while (i < r->nrows && (strcmp(r->rows[i].family, family) || strcmp(r->rows[i].dtype, dtype))) i++;
    if (i == r->nrows) {
        if (r->nrows == r->cap) {
            const int cap = r->cap ? 2 * r->cap : 64;
            res_row *rows = realloc(r->rows, (size_t)cap * sizeof *rows);
            if (!rows) {
                fprintf(stderr, "results: out of memory for %d rows\n", cap);
                exit(2);
            }
            r->rows = rows, r->cap = cap;
        }
        memset(&r->rows[i], 0, sizeof r->rows[i]);
        snprintf(r->rows[i].family, sizeof r->rows[i].family, "%s", family);
        snprintf(r->rows[i].dtype, sizeof r->rows[i].dtype, "%s", dtype);
        r->nrows++;
    }
    r->rows[i].n[outcome]++;
}

unsigned long results_print(const results_t *r, const char *device, const char *json_path) {
    unsigned long tot[3] = {0};
    printf("\n%-16s %-8s %8s %8s %8s\n", "family", "dtype", "passed", "failed", "skipped");
    for (int i = 0; i < r->nrows; i++) {
        const res_row *w = &r->rows[i];
        printf("%-16s %-8s %8lu %8lu %8lu\n", w->family, w->dtype, w->n[0], w->n[1], w->n[2]);
        for (int k = 0; k < 3; k++) tot[k] += w->n[k];
    }
    printf("device: %s; seed: %" PRIu64 "\n", device, r->seed);
    FILE *f = json_path ? fopen(json_path, "w") : NULL;
    if (f) {
        fprintf(f, "{\"device\": \"%s\", \"seed\": %" PRIu64 ", \"passed\": %lu, \"failed\": %lu, \"skipped\": %lu, \"rows\": [",
                device, r->seed, tot[0], tot[1], tot[2]);
        for (int i = 0; i < r->nrows; i++)
            fprintf(f, "%s\n  {\"family\": \"%s\", \"dtype\": \"%s\", \"passed\": %lu, \"failed\": %lu, \"skipped\": %lu}",
                    i ? "," : "", r->rows[i].family, r->rows[i].dtype, r->rows[i].n[0], r->rows[i].n[1], r->rows[i].n[2]);
        fprintf(f, "\n]}\n");
        fclose(f);
    }
    printf("numeric: %lu passed, %lu failed, %lu skipped\n", tot[0], tot[1], tot[2]);
    return tot[1];
}

void results_free(results_t *r) {
    free(r->rows);
    r->rows = NULL, r->nrows = r->cap = 0;
}
