/* unit.h — runs a libcheck suite and closes with "P passed, F failed, S
 * skipped": a test whose prerequisite is missing is not registered, is named
 * with the reason, and is counted as skipped, never as a pass. */
#ifndef CRK_UNIT_H
#define CRK_UNIT_H
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    Suite *suite;
    TCase *tc;
    int skipped;
} unit_t;

static inline unit_t unit_begin(const char *name)
{
    unit_t u = {suite_create(name), tcase_create(name), 0};
    suite_add_tcase(u.suite, u.tc);
    return u;
}

#define UNIT_ADD(u, test) tcase_add_test((u)->tc, test)
/* Registers test only when cond holds; otherwise reports it skipped. */
#define UNIT_ADD_IF(u, cond, why, test)                              \
    do {                                                             \
        if (cond) {                                                  \
            tcase_add_test((u)->tc, test);                           \
        } else {                                                     \
            (u)->skipped++;                                          \
            printf("%s: skipped (%s)\n", #test, why);                \
        }                                                            \
    } while (0)

/* Runs the suite; the exit status for main. */
static inline int unit_run(unit_t *u)
{
    SRunner *sr = srunner_create(u->suite);
    srunner_run_all(sr, CK_NORMAL);
    const int run = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("%d passed, %d failed, %d skipped\n", run - failed, failed, u->skipped);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
#endif
