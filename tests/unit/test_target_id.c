/* test_target_id.c — LLVM target-ID compatibility and selection rules. */
#include <stdlib.h>

#include "unit.h"

#include "target_id.h"

static const struct {
    const char *co, *dev;
    int generic, want;
} compat_cases[] = {
    {"gfx942", "gfx942", 0, 1},
    {"gfx942", "gfx942:sramecc+:xnack-", 0, 1},             /* any matches anything */
    {"gfx90a:xnack-", "gfx90a:sramecc+:xnack-", 0, 1},
    {"gfx90a:xnack+", "gfx90a:sramecc+:xnack-", 0, 0},
    {"gfx90a:sramecc+:xnack-", "gfx90a:sramecc+:xnack-", 0, 1},
    {"gfx90a:sramecc-:xnack-", "gfx90a:sramecc+:xnack-", 0, 0},
    {"gfx90a:sramecc+", "gfx90a", 0, 0},                     /* device reports none */
    {"gfx90a", "gfx90a", 0, 1},
    {"gfx90a", "gfx942", 0, 0},
    {"gfx1100", "gfx1100", 0, 1},
    {"gfx1100", "gfx1101", 0, 0},
    {"gfx11-generic", "gfx1100", 1, 1},
    {"gfx11-generic", "gfx1100", 0, 0},                      /* runtime lacks generic */
    {"gfx11-generic", "gfx1151", 1, 1},
    {"gfx11-generic", "gfx1030", 1, 0},
    {"gfx10-3-generic", "gfx1030", 1, 1},
    {"gfx10-3-generic", "gfx1036", 1, 1},
    {"gfx10-1-generic", "gfx1030", 1, 0},
    {"gfx9-generic", "gfx906:sramecc+:xnack-", 1, 1},
    {"gfx9-generic:xnack-", "gfx906:sramecc+:xnack-", 1, 1},
    {"gfx9-generic:xnack+", "gfx906:sramecc+:xnack-", 1, 0},
    {"gfx9-generic", "gfx90a", 1, 0},                        /* gfx90a not in gfx9-generic */
    {"gfx9-4-generic", "gfx942:sramecc+:xnack-", 1, 1},
    {"gfx12-generic", "gfx1201", 1, 1},
    {"gfx12-generic", "gfx1100", 1, 0},
    {"amdgcn-amd-amdhsa--gfx942", "gfx942", 0, 1},           /* triple prefix */
    {"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", "amdgcn-amd-amdhsa--gfx90a:xnack-", 0, 1},
    {"gfx942:xnack", "gfx942", 0, 0},                        /* malformed */
    {"", "gfx942", 0, 0},
    {"gfx942::", "gfx942", 0, 0},
    {"gfx942:xnack+:xnack+", "gfx942:xnack+", 0, 0},         /* repeated feature */
    {"gfx1100", "gfx11-generic", 1, 0},                      /* device is never generic */
};

START_TEST(test_compat_table)
{
    for (size_t i = 0; i < sizeof compat_cases / sizeof compat_cases[0]; i++) {
        int got = crk_target_compatible(compat_cases[i].co, compat_cases[i].dev,
                                        compat_cases[i].generic);
        ck_assert_msg(got == compat_cases[i].want, "case %zu: co=%s dev=%s generic=%d: got %d",
                      i, compat_cases[i].co, compat_cases[i].dev, compat_cases[i].generic, got);
    }
}
END_TEST

START_TEST(test_parse)
{
    crk_target_id t;
    ck_assert_int_eq(crk_target_parse("gfx90a:sramecc+:xnack-", &t), 0);
    ck_assert_str_eq(t.processor, "gfx90a");
    ck_assert_int_eq((int)t.nfeatures, 2);
    ck_assert_int_eq(crk_target_feature(&t, "sramecc"), CRK_FEAT_ON);
    ck_assert_int_eq(crk_target_feature(&t, "xnack"), CRK_FEAT_OFF);
    ck_assert_int_eq(crk_target_parse("gfx10-3-generic", &t), 0);
    ck_assert_str_eq(t.processor, "gfx10-3-generic");
    ck_assert_int_eq(crk_target_feature(&t, "xnack"), CRK_FEAT_ANY);
    ck_assert(crk_target_is_generic("gfx10-3-generic"));
    ck_assert(!crk_target_is_generic("gfx1030"));
    ck_assert_int_eq(crk_target_parse("gfx942:", &t), -1);
    ck_assert_int_eq(crk_target_parse("GFX942", &t), -1);
    ck_assert_int_eq(crk_target_parse(NULL, &t), -1);
    ck_assert_int_eq(crk_target_parse("gfx942:a+:b+:c+:d+:e+", &t), -1);
}
END_TEST

START_TEST(test_pick)
{
    const char *c1[] = {"gfx11-generic", "gfx90a", "gfx942", "gfx942:xnack-"};
    ck_assert_int_eq(crk_target_pick("gfx942:sramecc+:xnack-", c1, 4, 1), 3);
    ck_assert_int_eq(crk_target_pick("gfx942:sramecc+:xnack+", c1, 4, 1), 2);
    ck_assert_int_eq(crk_target_pick("gfx1100", c1, 4, 1), 0);
    ck_assert_int_eq(crk_target_pick("gfx1100", c1, 4, 0), -1);
    const char *c2[] = {"gfx11-generic", "gfx1100"};
    ck_assert_int_eq(crk_target_pick("gfx1100", c2, 2, 1), 1);   /* exact beats generic */
    const char *c3[] = {"gfx9-generic:xnack-", "gfx906"};
    ck_assert_int_eq(crk_target_pick("gfx906:xnack-", c3, 2, 1), 1);
    const char *c4[] = {NULL, "bad::", "gfx90a:sramecc+:xnack-", "gfx90a:sramecc+"};
    ck_assert_int_eq(crk_target_pick("gfx90a:sramecc+:xnack-", c4, 4, 0), 2);
    ck_assert_int_eq(crk_target_pick("gfx90a", c4, 4, 0), -1);
    ck_assert_int_eq(crk_target_pick("gfx90a", NULL, 0, 0), -1);
}
END_TEST

/* The default ARCHS (Makefile): a chip no exact object covers gets its
 * family's generic one, and the error names that family. */
START_TEST(test_generic_for)
{
    ck_assert_str_eq(crk_target_generic_for("gfx1103"), "gfx11-generic");
    ck_assert_str_eq(crk_target_generic_for("gfx1150"), "gfx11-generic");
    ck_assert_str_eq(crk_target_generic_for("gfx1034"), "gfx10-3-generic");
    ck_assert_str_eq(crk_target_generic_for("gfx1010"), "gfx10-1-generic");
    ck_assert_str_eq(crk_target_generic_for("gfx906"), "gfx9-generic");
    ck_assert_str_eq(crk_target_generic_for("gfx942"), "gfx9-4-generic");
    ck_assert_ptr_null(crk_target_generic_for("gfx90a"));
    ck_assert_ptr_null(crk_target_generic_for("gfx1250"));
    ck_assert_ptr_null(crk_target_generic_for(""));
    const char *shipped[] = {"gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1101", "gfx1102",
                             "gfx1151", "gfx1200", "gfx1201", "gfx9-generic", "gfx10-1-generic", "gfx10-3-generic",
                             "gfx11-generic"};
    const size_t n = sizeof shipped / sizeof shipped[0];
    ck_assert_int_eq(crk_target_pick("gfx1103", shipped, n, 1), 14);
    ck_assert_int_eq(crk_target_pick("gfx1100", shipped, n, 1), 5); /* exact first */
    ck_assert_int_eq(crk_target_pick("gfx1034", shipped, n, 1), 13);
    ck_assert_int_eq(crk_target_pick("gfx906:sramecc+:xnack-", shipped, n, 1), 11);
    ck_assert_int_eq(crk_target_pick("gfx1103", shipped, n, 0), -1); /* runtime before 6.4 */
}
END_TEST

int main(void)
{
    unit_t u = unit_begin("target_id");
    UNIT_ADD(&u, test_compat_table);
    UNIT_ADD(&u, test_parse);
    UNIT_ADD(&u, test_pick);
    UNIT_ADD(&u, test_generic_for);
    return unit_run(&u);
}
