/* results.h — family x dtype pass/fail/skip table, text and JSON. */
#ifndef CRK_TEST_RESULTS_H
#define CRK_TEST_RESULTS_H
#include <stdint.h>

typedef struct {
    char family[32], dtype[16];
    unsigned long n[3]; /* passed, failed, skipped */
} res_row;

typedef struct {
    uint64_t seed;
    char device[512];
    res_row *rows; /* grows as needed: no row is ever dropped */
    int nrows, cap;
} results_t;

void results_init(results_t *r, uint64_t seed);
/* outcome: 0 passed, 1 failed, 2 skipped. Out of memory ends the program
 * with a message (a result is never lost). */
void results_add(results_t *r, const char *family, const char *dtype, int outcome);
/* Prints the table and the closing "N passed, N failed, N skipped" line;
 * writes JSON to json_path if given. Returns the number of failures. */
unsigned long results_print(const results_t *r, const char *device, const char *json_path);
void results_free(results_t *r);
#endif
