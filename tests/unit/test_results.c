/* test_results.c — the numeric suite's result table keeps every row: more
 * family x dtype rows than any fixed limit, totals that add them all up, and
 * a JSON copy with every row. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "unit.h"

START_TEST(no_row_is_dropped) {
    results_t r;
    results_init(&r, 42);
    char fam[16], dt[16];
    /* 1000 rows, each with one failure and two passes: every failure counts. */
    for (int i = 0; i < 1000; i++) {
        snprintf(fam, sizeof fam, "fam%d", i / 10);
        snprintf(dt, sizeof dt, "dt%d", i % 10);
        results_add(&r, fam, dt, 0);
        results_add(&r, fam, dt, 1);
        results_add(&r, fam, dt, 0);
    }
    results_add(&r, "fam0", "dt0", 2);
    ck_assert_int_eq(r.nrows, 1000);
    ck_assert_uint_eq(r.rows[0].n[0], 2);
    ck_assert_uint_eq(r.rows[0].n[2], 1);
    ck_assert_uint_eq(r.rows[999].n[1], 1);
    char path[] = "/tmp/crk-results-XXXXXX";
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    /* The 1000-row table itself goes to /dev/null; the JSON copy is read back. */
    fflush(stdout);
    const int saved = dup(1), nul = open("/dev/null", O_WRONLY);
    ck_assert(saved >= 0 && nul >= 0 && dup2(nul, 1) == 1);
    const unsigned long failures = results_print(&r, "test", path);
    fflush(stdout);
    dup2(saved, 1);
    close(saved), close(nul);
    ck_assert_uint_eq(failures, 1000);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    int rows = 0;
    char line[256];
    while (fgets(line, sizeof line, f))
        rows += strstr(line, "\"family\": \"fam") != NULL;
    fclose(f);
    unlink(path);
    ck_assert_int_eq(rows, 1000);
    results_free(&r);
}
END_TEST

int main(void) {
    unit_t u = unit_begin("results");
    UNIT_ADD(&u, no_row_is_dropped);
    return unit_run(&u);
}
