/* test_layout.c — the layout and info-buffer API on hostile input (issue 11,
 * defects 3 and 4): NULL layouts, ranks above CRK_MAX_DIMS, element counts
 * and offsets past 64 bits, buffers too small. Every case is an error with a
 * message, never an out-of-bounds access (run under ASan by check-asan) or
 * a silent answer. No GPU. */
#include <stdint.h>
#include <string.h>
#include "crk.h"
#include "unit.h"
#include "../../loader/layout_merge.h"

#define HAS(s) ck_assert_msg(strstr(crk_last_error(), s) != NULL, "'%s' not in: %s", s, crk_last_error())

START_TEST(null_layouts_are_errors) {
    ck_assert_uint_eq(crk_layout_numel(NULL), 0);
    HAS("NULL");
    ck_assert_int_eq(crk_layout_is_contiguous(NULL), 0);
    ck_assert_int_eq(crk_layout_transpose(NULL, 0, 1), CRK_E_INVALID);
    size_t n = 7;
    ck_assert_int_eq(crk_layout_check(NULL, &n), CRK_E_INVALID);
    ck_assert_uint_eq(n, 0);
    crk_layout a;
    const size_t d = 4;
    ck_assert_int_eq(crk_layout_contiguous(&a, 1, &d), CRK_OK);
    const crk_layout *with_null[2] = {&a, NULL};
    size_t info[64], len = 99;
    ck_assert_int_eq(crk_info_pack_checked(with_null, 2, 0, info, 64, &len), CRK_E_INVALID);
    ck_assert_uint_eq(len, 0);
    HAS("layout 1");
    ck_assert_uint_eq(crk_info_pack(with_null, 2, 0, info, 64), 0);
    ck_assert_int_eq(crk_info_pack_checked(NULL, 1, 0, info, 64, &len), CRK_E_INVALID);
    ck_assert_int_eq(crk_info_pack_checked(with_null, 1, 0, info, 64, NULL), CRK_E_INVALID);
}
END_TEST

START_TEST(ranks_above_the_limit_are_errors) {
    crk_layout l;
    memset(&l, 0, sizeof l);
    l.rank = 1000; /* dims[] has CRK_MAX_DIMS entries: nothing past them is read or written */
    ck_assert_uint_eq(crk_layout_numel(&l), 0);
    HAS("CRK_MAX_DIMS");
    ck_assert_int_eq(crk_layout_check(&l, NULL), CRK_E_TOO_MANY_DIMS);
    ck_assert_int_eq(crk_layout_is_contiguous(&l), 0);
    const crk_layout before = l;
    ck_assert_int_eq(crk_layout_transpose(&l, 999, 0), CRK_E_TOO_MANY_DIMS);
    ck_assert_mem_eq(&l, &before, sizeof l);
    size_t info[4 * CRK_MAX_DIMS];
    const crk_layout *one[1] = {&l};
    size_t len = 5;
    for (size_t rank = CRK_MAX_DIMS + 1; rank <= 40; rank += 23) { /* 17 and 40 */
        l.rank = rank;
        ck_assert_int_eq(crk_info_pack_checked(one, 1, 0, info, 4 * CRK_MAX_DIMS, &len), CRK_E_TOO_MANY_DIMS);
        ck_assert_uint_eq(len, 0);
        ck_assert_uint_eq(crk_info_pack(one, 1, 1, info, 4 * CRK_MAX_DIMS), 0);
    }
}
END_TEST

START_TEST(element_counts_past_64_bits_are_errors) {
    crk_layout l;
    const size_t two32[2] = {(size_t)1 << 32, (size_t)1 << 32};      /* 2^64: wraps to 0 */
    const size_t wraps[2] = {(size_t)1 << 33, ((size_t)1 << 31) + 1}; /* wraps to 2^33 */
    ck_assert_int_eq(crk_layout_contiguous(&l, 2, two32), CRK_E_INVALID);
    HAS("overflows");
    ck_assert_int_eq(crk_layout_contiguous(&l, 2, wraps), CRK_E_INVALID);
    memset(&l, 0, sizeof l); /* the same dims written by hand */
    l.rank = 2, l.dims[0] = two32[0], l.dims[1] = two32[1], l.strides[0] = two32[1], l.strides[1] = 1;
    size_t n = 1;
    ck_assert_int_eq(crk_layout_check(&l, &n), CRK_E_INVALID);
    ck_assert_uint_eq(crk_layout_numel(&l), 0);
    l.dims[0] = wraps[0], l.dims[1] = wraps[1];
    ck_assert_int_eq(crk_layout_check(&l, &n), CRK_E_INVALID);
    /* the largest count that fits is fine, offsets too (stride 0) */
    l.dims[0] = (size_t)1 << 32, l.dims[1] = ((size_t)1 << 32) - 1, l.strides[0] = 0, l.strides[1] = 0;
    ck_assert_int_eq(crk_layout_check(&l, &n), CRK_OK);
    ck_assert_uint_eq(n, ((size_t)1 << 32) * (((size_t)1 << 32) - 1));
    /* offsets that overflow: the last element's offset does not fit */
    l.dims[0] = 3, l.dims[1] = 1, l.strides[0] = SIZE_MAX / 2 + 1;
    ck_assert_int_eq(crk_layout_check(&l, &n), CRK_E_INVALID);
    HAS("offsets overflow");
    l.strides[0] = 1, l.start_offset = SIZE_MAX - 1;
    ck_assert_int_eq(crk_layout_check(&l, &n), CRK_E_INVALID);
    l.dims[0] = 0; /* empty: no element, no offset */
    ck_assert_int_eq(crk_layout_check(&l, &n), CRK_OK);
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(info_pack_checks_shapes_and_room) {
    crk_layout a, b;
    const size_t dims[2] = {3, 5}, other[2] = {5, 3};
    ck_assert_int_eq(crk_layout_contiguous(&a, 2, dims), CRK_OK);
    ck_assert_int_eq(crk_layout_contiguous(&b, 2, other), CRK_OK);
    const crk_layout *ab[2] = {&a, &b};
    size_t info[16], len = 1;
    ck_assert_int_eq(crk_info_pack_checked(ab, 2, 0, info, 16, &len), CRK_E_INVALID);
    HAS("shape");
    ck_assert_int_eq(crk_layout_transpose(&b, 0, 1), CRK_OK); /* now 3x5, strides {1, 3} */
    ck_assert_int_eq(crk_info_pack_checked(ab, 2, 1, info, 5, &len), CRK_E_INVALID);
    HAS("needs 6");
    ck_assert_int_eq(crk_info_pack_checked(ab, 2, 1, info, 6, &len), CRK_OK);
    const size_t want[6] = {3, 5, 5, 1, 1, 3};
    ck_assert_uint_eq(len, 6);
    ck_assert_mem_eq(info, want, sizeof want);
    const crk_layout *aa[2] = {&a, &a}; /* contiguous: SlicePtrOrNull::Null, OK */
    ck_assert_int_eq(crk_info_pack_checked(aa, 2, 1, NULL, 0, &len), CRK_OK);
    ck_assert_uint_eq(len, 0);
}
END_TEST

/* A layout of rank r from dims and strides (start offset 7: kept). */
static crk_layout mk(size_t r, const size_t *dims, const size_t *strides) {
    crk_layout l;
    memset(&l, 0, sizeof l);
    l.rank = r, l.start_offset = 7;
    memcpy(l.dims, dims, r * sizeof *dims);
    memcpy(l.strides, strides, r * sizeof *strides);
    return l;
}
#define EXPECT(l, r, ...)                                                                                              \
    do {                                                                                                               \
        const size_t want_[] = {__VA_ARGS__};                                                                          \
        ck_assert_uint_eq((l).rank, r);                                                                                \
        ck_assert_mem_eq((l).dims, want_, r * sizeof(size_t));                                                         \
        ck_assert_mem_eq((l).strides, want_ + r, r * sizeof(size_t));                                                  \
        ck_assert_uint_eq((l).start_offset, 7);                                                                        \
    } while (0)

/* libcrk's element-wise launches walk the fewest dims: contiguous runs
 * joined, dims of size 1 dropped, views that cannot join left alone. */
START_TEST(launch_layouts_merge_their_dims) {
    crk_layout out[3];
    const crk_layout c = mk(3, (size_t[]){2, 3, 4}, (size_t[]){12, 4, 1}), *pc = &c;
    ck_assert_uint_eq(crk_layouts_merge(&pc, 1, out), 1);
    EXPECT(out[0], 1, 24, 1);
    const crk_layout t = mk(2, (size_t[]){3, 2}, (size_t[]){1, 3}), *pt = &t; /* transposed: stays */
    ck_assert_uint_eq(crk_layouts_merge(&pt, 1, out), 2);
    EXPECT(out[0], 2, 3, 2, 1, 3);
    const crk_layout u = mk(3, (size_t[]){4, 1, 5}, (size_t[]){5, 99, 1}), *pu = &u; /* size 1: any stride */
    ck_assert_uint_eq(crk_layouts_merge(&pu, 1, out), 1);
    EXPECT(out[0], 1, 20, 1);
    /* lhs contiguous, rhs [1,3,4] broadcast over dim 0: dims 1 and 2 join for both, dim 0 cannot */
    const crk_layout l2 = mk(3, (size_t[]){2, 3, 4}, (size_t[]){12, 4, 1}),
                     r2 = mk(3, (size_t[]){2, 3, 4}, (size_t[]){0, 4, 1}), *p2[2] = {&l2, &r2};
    ck_assert_uint_eq(crk_layouts_merge(p2, 2, out), 2);
    EXPECT(out[0], 2, 2, 12, 12, 1);
    EXPECT(out[1], 2, 2, 12, 0, 1);
    /* a column broadcast [R,1] -> [R,C] never joins its zero stride with the rows */
    const crk_layout l3 = mk(2, (size_t[]){5, 6}, (size_t[]){6, 1}), r3 = mk(2, (size_t[]){5, 6}, (size_t[]){1, 0}),
                     *p3[2] = {&l3, &r3};
    ck_assert_uint_eq(crk_layouts_merge(p3, 2, out), 2);
    EXPECT(out[1], 2, 5, 6, 1, 0);
    const crk_layout one = mk(3, (size_t[]){1, 1, 1}, (size_t[]){5, 6, 7}), *po = &one; /* one element */
    ck_assert_uint_eq(crk_layouts_merge(&po, 1, out), 1);
    EXPECT(out[0], 1, 1, 1);
    /* stride x dim past 64 bits: no join, and no overflow */
    const crk_layout big = mk(2, (size_t[]){2, 3}, (size_t[]){SIZE_MAX / 2, SIZE_MAX / 4}), *pb = &big;
    ck_assert_uint_eq(crk_layouts_merge(&pb, 1, out), 2);
    EXPECT(out[0], 2, 2, 3, SIZE_MAX / 2, SIZE_MAX / 4);
}
END_TEST

/* const_set writes in memory order: a transposed view is contiguous, dims
 * of stride 0 rewrite the same elements and go. */
START_TEST(fill_layouts_take_memory_order) {
    crk_layout out;
    size_t n = 0;
    const crk_layout t = mk(3, (size_t[]){4, 3, 2}, (size_t[]){1, 8, 4}); /* a permuted [3,2,4] buffer */
    ck_assert_uint_eq(crk_layout_for_fill(&t, &out, &n), 1);
    EXPECT(out, 1, 24, 1);
    ck_assert_uint_eq(n, 24);
    const crk_layout b = mk(2, (size_t[]){4, 5}, (size_t[]){0, 1}); /* one row written 4 times */
    ck_assert_uint_eq(crk_layout_for_fill(&b, &out, &n), 1);
    EXPECT(out, 1, 5, 1);
    ck_assert_uint_eq(n, 5);
    const crk_layout g = mk(2, (size_t[]){3, 4}, (size_t[]){2, 12}); /* gaps stay gaps */
    ck_assert_uint_eq(crk_layout_for_fill(&g, &out, &n), 2);
    EXPECT(out, 2, 4, 3, 12, 2);
    ck_assert_uint_eq(n, 12);
    const crk_layout z = mk(2, (size_t[]){3, 4}, (size_t[]){0, 0}); /* one element */
    ck_assert_uint_eq(crk_layout_for_fill(&z, &out, &n), 1);
    EXPECT(out, 1, 1, 1);
    ck_assert_uint_eq(n, 1);
}
END_TEST

int main(void) {
    unit_t u = unit_begin("layout");
    UNIT_ADD(&u, null_layouts_are_errors);
    UNIT_ADD(&u, ranks_above_the_limit_are_errors);
    UNIT_ADD(&u, element_counts_past_64_bits_are_errors);
    UNIT_ADD(&u, info_pack_checks_shapes_and_room);
    UNIT_ADD(&u, launch_layouts_merge_their_dims);
    UNIT_ADD(&u, fill_layouts_take_memory_order);
    return unit_run(&u);
}
