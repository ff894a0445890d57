/* test_registry.c — registry lookups, parity with Candle's kernel table
 * (tests/data/candle-cuda-kernels.tsv, a copy of the fact sheet), layouts
 * and info buffers, raw-launch signature checks, error texts. No GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "context.h"
#include "crk.h"
#include "unit.h"

/* "const size_t *" + "info" -> "const size_t *info", as the TSV writes it. */
static void param_text(const crk_param *p, char *buf, size_t n) {
    const size_t l = strlen(p->ctype);
    snprintf(buf, n, "%s%s%s", p->ctype, p->ctype[l - 1] == '*' ? "" : " ", p->name);
}

static void params_text(const crk_kernel_info *ki, char *buf, size_t n) {
    buf[0] = 0;
    for (unsigned i = 0; i < ki->nparams; i++) {
        char one[96];
        param_text(&ki->params[i], one, sizeof one);
        size_t l = strlen(buf);
        snprintf(buf + l, n - l, "%s%s", i ? ", " : "", one);
    }
}

START_TEST(every_name_resolves_to_itself) {
    ck_assert_uint_gt(crk_kernel_count(), 300);
    for (size_t i = 0; i < crk_kernel_count(); i++) {
        const crk_kernel_info *ki = crk_kernel_at(i);
        ck_assert_ptr_eq(crk_kernel_find(ki->name), ki);
        if (ki->alias_of) { /* the other spelling has the same parameters */
            const crk_kernel_info *a = crk_kernel_find(ki->alias_of);
            ck_assert_ptr_nonnull(a);
            ck_assert_str_eq(a->alias_of, ki->name);
            ck_assert_ptr_eq(a->params, ki->params);
        }
    }
    ck_assert_ptr_null(crk_kernel_at(crk_kernel_count()));
}
END_TEST

START_TEST(unknown_names_suggest_the_nearest) {
    ck_assert_ptr_null(crk_kernel_find("uexp_f33"));
    ck_assert_ptr_nonnull(strstr(crk_last_error(), "unknown kernel 'uexp_f33'"));
    ck_assert_ptr_nonnull(strstr(crk_last_error(), "uexp_f32"));
    const char *near[3];
    ck_assert_uint_eq(crk_kernel_suggest("cast_f32_bf61", near, 3), 3);
    ck_assert_str_eq(near[0], "cast_f32_bf16");
    ck_assert_ptr_null(crk_kernel_find(""));
    ck_assert_ptr_null(crk_kernel_find(NULL));
    ck_assert_ptr_nonnull(strstr(crk_last_error(), "NULL"));
    char longname[400];
    memset(longname, 'x', sizeof longname - 1), longname[sizeof longname - 1] = 0;
    ck_assert_ptr_null(crk_kernel_find(longname));
}
END_TEST

static int tsv_family_ours(const char *family, const char *name) {
    /* reduce: the fast_* kernels and upstream's unused atomic sum_* */
    if (!strcmp(family, "reduce")) return !strncmp(name, "fast_", 5) || !strncmp(name, "sum_", 4);
    /* quantized: so far dequantize_block_*, get_rows_*, quantize_q8_1, the DMMV and MMVQ kernels, and
     * the static library's device kernels mmvq_gguf_* (not its host launchers, launch_*) */
    if (!strcmp(family, "quantized"))
        return !strncmp(name, "dequantize_block_", 17) || !strncmp(name, "get_rows_", 9) ||
               !strcmp(name, "quantize_q8_1") || !strncmp(name, "dequantize_mul_mat_vec_", 23) ||
               !strncmp(name, "mul_mat_vec_", 12) || !strncmp(name, "mmvq_gguf_", 10) ||
               !strncmp(name, "indexed_moe_forward_", 20);
    static const char *const ours[] = {"unary", "cast",    "ternary", "affine", "copy", "binary",
                                       "cmp",   "fill",    "softmax", "norm",   "rope", "indexing", "sort",
                                       "conv",  "pool",    "upsample"};
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
        if (!strcmp(family, ours[i])) return 1;
    return 0;
}

/* Every upstream name of our families (the table's copy rows are ucopy
 * and copy2d), and the name Candle requests
 * for it, is in the registry with the same parameter list; nothing is
 * marked upstream that the table lacks. */
START_TEST(parity_with_candle_table) {
    FILE *f = fopen("tests/data/candle-cuda-kernels.tsv", "r");
    ck_assert_msg(f != NULL, "run from the repository root");
    char line[8192];
    size_t upstream_rows = 0;
    int *seen = calloc(crk_kernel_count(), sizeof *seen);
    while (fgets(line, sizeof line, f)) {
        char *cols[11] = {0}, *save = NULL, *tok = strtok_r(line, "\t\n", &save);
        for (int c = 0; tok && c < 11; c++, tok = strtok_r(NULL, "\t\n", &save)) cols[c] = tok;
        if (!cols[9] || !tsv_family_ours(cols[1], cols[0])) continue;
        upstream_rows++;
        const crk_kernel_info *ki = crk_kernel_find(cols[0]);
        ck_assert_msg(ki != NULL, "upstream kernel %s missing", cols[0]);
        ck_assert_msg(ki->upstream, "%s not marked upstream", cols[0]);
        seen[ki - crk_kernel_at(0)] = 1;
        char params[1024];
        params_text(ki, params, sizeof params);
        ck_assert_msg(!strcmp(params, cols[3]), "%s: ours (%s) vs Candle (%s)", cols[0], params, cols[3]);
        if (strcmp(cols[9], "-")) {
            const crk_kernel_info *req = crk_kernel_find(cols[9]);
            ck_assert_msg(req != NULL, "Candle requests %s: missing", cols[9]);
            params_text(req, params, sizeof params);
            ck_assert_str_eq(params, cols[3]);
        }
    }
    fclose(f);
    /* cast, where, affine, unary, copy (ucopy + copy2d), binary, cmp, fill (fill + const_set),
     * fast_* and sum_*, softmax, norm, rope, indexing, sort, conv, pool, upsample, dequantize, get_rows,
     * quantize_q8_1, dequantize_mul_mat_vec, mul_mat_vec_*_q8_1_cuda*, mmvq_gguf_*_plain_cuda*,
     * mmvq_gguf_quantize_q8_1_*, indexed_moe_forward_* */
    ck_assert_uint_eq(upstream_rows, 58 + 26 + 10 + 115 + 16 + 48 + 48 + 16 + 35 + 5 + 4 + 8 + 12 + 125 + 14 + 42 +
                                         12 + 12 + 22 + 13 + 1 + 10 + 80 + 240 + 3 + 6);
    for (size_t i = 0; i < crk_kernel_count(); i++)
        ck_assert_msg(!crk_kernel_at(i)->upstream || seen[i], "%s marked upstream but not in the table",
                      crk_kernel_at(i)->name);
    free(seen);
}
END_TEST

START_TEST(dtypes_and_modules) {
    ck_assert_str_eq(crk_dtype_name(CRK_F8E4M3), "f8e4m3");
    ck_assert_uint_eq(crk_dtype_size(CRK_BF16), 2);
    ck_assert_int_eq(crk_dtype_from_name("i64"), CRK_I64);
    ck_assert_int_eq(crk_dtype_from_name("f8_e4m3"), -1);
    ck_assert_uint_eq(crk_module_count(), 11);
    ck_assert_str_eq(crk_module_name(10), "unary");
    ck_assert_ptr_null(crk_module_name(11));
}
END_TEST

START_TEST(layouts_to_info_buffers) {
    crk_layout a, b, c;
    size_t info[4 * CRK_MAX_DIMS];
    const size_t dims[3] = {2, 3, 4};
    ck_assert_int_eq(crk_layout_contiguous(&a, 3, dims), CRK_OK);
    ck_assert_uint_eq(a.strides[0], 12);
    ck_assert_uint_eq(a.strides[2], 1);
    ck_assert_uint_eq(crk_layout_numel(&a), 24);
    const crk_layout *one[1] = {&a};
    ck_assert_uint_eq(crk_info_pack(one, 1, 1, info, 64), 0); /* contiguous: NULL */
    ck_assert_uint_eq(crk_info_pack(one, 1, 0, info, 64), 6); /* forced */
    b = a; /* transposed */
    ck_assert_int_eq(crk_layout_transpose(&b, 0, 2), CRK_OK);
    ck_assert(!crk_layout_is_contiguous(&b));
    const crk_layout *tb[1] = {&b};
    ck_assert_uint_eq(crk_info_pack(tb, 1, 1, info, 64), 6);
    const size_t want[6] = {4, 3, 2, 1, 4, 12};
    ck_assert_mem_eq(info, want, sizeof want);
    c = a; /* broadcast: stride 0 on a dim > 1 is not contiguous */
    c.strides[0] = 0;
    ck_assert(!crk_layout_is_contiguous(&c));
    c = a; /* size-1 dims: their strides do not matter */
    c.dims[0] = 1, c.strides[0] = 777;
    ck_assert(crk_layout_is_contiguous(&c));
    const crk_layout *three[3] = {&a, &b, &a}; /* where: dims, then 3 stride sets */
    b.dims[0] = 2, b.dims[2] = 4; /* same shape as a, other strides */
    ck_assert_uint_eq(crk_info_pack(three, 3, 1, info, 64), 12);
    ck_assert_uint_eq(info[3], a.strides[0]);
    ck_assert_uint_eq(info[6], b.strides[0]);
    ck_assert_uint_eq(crk_info_pack(three, 3, 1, info, 5), 0); /* too small: nothing written */
    crk_layout r0; /* rank 0: a scalar, numel 1, contiguous */
    ck_assert_int_eq(crk_layout_contiguous(&r0, 0, NULL), CRK_OK);
    ck_assert_uint_eq(crk_layout_numel(&r0), 1);
    ck_assert(crk_layout_is_contiguous(&r0));
    size_t big[CRK_MAX_DIMS + 1];
    for (int i = 0; i <= CRK_MAX_DIMS; i++) big[i] = 1;
    ck_assert_int_eq(crk_layout_contiguous(&r0, CRK_MAX_DIMS, big), CRK_OK);
    ck_assert_int_eq(crk_layout_contiguous(&r0, CRK_MAX_DIMS + 1, big), CRK_E_TOO_MANY_DIMS);
    ck_assert_ptr_nonnull(strstr(crk_last_error(), "CRK_MAX_DIMS"));
    ck_assert_int_eq(crk_layout_transpose(&a, 0, 3), CRK_E_INVALID);
}
END_TEST

START_TEST(raw_launch_signature_is_checked) {
    const crk_kernel_info *ki = crk_kernel_find("affine_f16");
    ck_assert_ptr_nonnull(ki);
    size_t n = 1, nd = 1;
    void *p = NULL;
    uint16_t m = 0, a = 0;
    void *args[7] = {&n, &nd, &p, &p, &p, &m, &a};
    size_t sizes[7] = {8, 8, 8, 8, 8, 2, 2};
    const unsigned g[3] = {1, 1, 1}, b[3] = {256, 1, 1}, huge[3] = {2048, 1, 1};
    ck_assert_int_eq(crk_check_launch(ki, g, b, args, sizes, 7), CRK_OK);
    sizes[5] = 4; /* a 4-byte float where the kernel takes a 2-byte __half */
    ck_assert_int_eq(crk_check_launch(ki, g, b, args, sizes, 7), CRK_E_SIGNATURE);
    ck_assert_ptr_nonnull(strstr(crk_last_error(), "argument 5 (const __half mul) is 2 bytes, 4 given"));
    sizes[5] = 2;
    ck_assert_int_eq(crk_check_launch(ki, g, b, args, sizes, 6), CRK_E_SIGNATURE);
    ck_assert_int_eq(crk_check_launch(ki, g, huge, args, sizes, 7), CRK_E_INVALID);
    args[2] = NULL;
    ck_assert_int_eq(crk_check_launch(ki, g, b, args, sizes, 7), CRK_E_INVALID);
}
END_TEST

/* Every kernel's parameters carry the roles the launchers use, as many of
 * each as its family's Candle signature has (one output always), inputs
 * and scalars numbered 0.. in order, and kinds that fit the roles;
 * family_id names the family. */
START_TEST(parameters_have_roles) {
    static const struct {
        const char *name;
        int numel, num_dims, info, inputs, scalars;
    } fam[CRK_FAMILY_COUNT] = {
        [CRK_FAMILY_UNARY] = {"unary", 1, 1, 1, 1, -1},   [CRK_FAMILY_CAST] = {"cast", 1, 1, 1, 1, 0},
        [CRK_FAMILY_TERNARY] = {"ternary", 1, 1, 1, 3, 0}, [CRK_FAMILY_AFFINE] = {"affine", 1, 1, 1, 1, 2},
        [CRK_FAMILY_BINARY] = {"binary", 1, 1, 1, 2, 0},  [CRK_FAMILY_CMP] = {"cmp", 1, 1, 1, 2, 0},
        [CRK_FAMILY_FILL] = {"fill", 1, 0, 0, 0, 1},      [CRK_FAMILY_CONST_SET] = {"const_set", 1, 1, 1, 0, 1},
        [CRK_FAMILY_COPY2D] = {"copy2d", 0, 0, 0, 1, 4},
        [CRK_FAMILY_REDUCE] = {"reduce", 1, 1, 1, 1, 1}, [CRK_FAMILY_SOFTMAX] = {"softmax", 0, 0, 0, 1, -1},
        [CRK_FAMILY_NORM] = {"norm", 0, 0, 0, -1, 3},     [CRK_FAMILY_ROPE] = {"rope", 0, 0, 0, 3, -1},
        [CRK_FAMILY_INDEXING] = {"indexing", -1, -1, -1, 2, -1},
        [CRK_FAMILY_SORT] = {"sort", 0, 0, 0, -1, -1},    [CRK_FAMILY_SUM] = {"sum", 1, 1, 1, 1, 1},
        [CRK_FAMILY_CONV] = {"conv", 1, 0, -1, -1, -1},   [CRK_FAMILY_POOL] = {"pool", 1, 0, 1, 1, 4},
        [CRK_FAMILY_UPSAMPLE] = {"upsample", 0, 0, 1, 1, -1},
        [CRK_FAMILY_DEQUANTIZE] = {"dequantize", 0, 0, 0, 1, -1}, [CRK_FAMILY_GET_ROWS] = {"get_rows", 0, 0, 0, 2, -1},
        [CRK_FAMILY_QUANTIZE] = {"quantize", 0, 0, 0, 1, 2}, [CRK_FAMILY_DMMV] = {"dmmv", 0, 0, 0, 2, -1},
        [CRK_FAMILY_MMVQ] = {"mmvq", 0, 0, 0, 2, 4},      [CRK_FAMILY_MMVQ_GGUF] = {"mmvq_gguf", 0, 0, 0, 2, 4},
        [CRK_FAMILY_MOE] = {"indexed_moe", 0, 0, 0, 3, 6},
    };
    /* module conv: scalars and inputs per op (fact sheet §4.14-§4.16) */
    static const struct {
        const char *op;
        int scalars, inputs, info;
    } conv_ops[] = {{"conv1d", 4, 2, 1},   {"conv2d", 5, 2, 1},   {"conv_transpose1d", 5, 2, 1},
                    {"conv_transpose2d", 6, 2, 1}, {"im2col1d", 5, 1, 1}, {"im2col", 7, 1, 1},
                    {"col2im1d", 5, 1, 0}, {"upsample_nearest2d", 4, 1, 1}, {"upsample_bilinear2d", 7, 1, 1},
                    /* libcrk's row walks: im2col*'s parameters; bilinear strips: bilinear's */
                    {"crk_im2col1d_rows", 5, 1, 1}, {"crk_im2col_rows", 7, 1, 1},
                    {"crk_upsample_bilinear2d_strips", 7, 1, 1}};
    /* launch policies by family */
    static const uint8_t geometry[CRK_FAMILY_COUNT] = {
        [CRK_FAMILY_REDUCE] = CRK_GEOM_REDUCE, [CRK_FAMILY_SOFTMAX] = CRK_GEOM_ROWS, [CRK_FAMILY_NORM] = CRK_GEOM_ROWS,
        [CRK_FAMILY_SORT] = CRK_GEOM_SORT, [CRK_FAMILY_DEQUANTIZE] = CRK_GEOM_GGML, [CRK_FAMILY_GET_ROWS] = CRK_GEOM_GGML,
        [CRK_FAMILY_QUANTIZE] = CRK_GEOM_GGML, [CRK_FAMILY_DMMV] = CRK_GEOM_GGML, [CRK_FAMILY_MMVQ] = CRK_GEOM_GGML,
        [CRK_FAMILY_MMVQ_GGUF] = CRK_GEOM_GGML, [CRK_FAMILY_MOE] = CRK_GEOM_GGML};
    for (size_t i = 0; i < crk_kernel_count(); i++) {
        const crk_kernel_info *ki = crk_kernel_at(i);
        ck_assert_uint_lt(ki->family_id, CRK_FAMILY_COUNT);
        ck_assert_str_eq(ki->family, fam[ki->family_id].name);
        ck_assert_uint_eq(ki->geometry, geometry[ki->family_id]);
        ck_assert_uint_gt(ki->block, 0);
        int count[CRK_ROLE_SCALAR + 1] = {0}, info_at = -1;
        for (unsigned p = 0; p < ki->nparams; p++) {
            const crk_param *pa = &ki->params[p];
            ck_assert_uint_le(pa->role, CRK_ROLE_SCALAR);
            if (pa->role == CRK_ROLE_INPUT || pa->role == CRK_ROLE_SCALAR)
                ck_assert_msg(pa->index == count[pa->role], "%s: %s has index %u, want %d", ki->name, pa->name,
                              pa->index, count[pa->role]);
            else
                ck_assert_uint_eq(pa->index, 0);
            if (pa->role == CRK_ROLE_INFO) info_at = (int)p;
            const int want_kind = pa->role == CRK_ROLE_NUMEL || pa->role == CRK_ROLE_NUM_DIMS ? CRK_ARG_SIZE
                                  : pa->role == CRK_ROLE_SCALAR                                ? CRK_ARG_SCALAR
                                                                                               : CRK_ARG_PTR;
            ck_assert_msg(pa->kind == want_kind, "%s: %s kind %u for role %u", ki->name, pa->name, pa->kind, pa->role);
            count[pa->role]++;
        }
        /* per op: elu/powf take a scalar; layernorm has beta; rope_i/rope/rope_thd
         * (and their crk_*_vec) take 3/4/5 sizes */
        const int unary1 = !strcmp(ki->op, "elu") || !strcmp(ki->op, "powf");
        const char *rop = ki->op + (strncmp(ki->op, "crk_", 4) ? 0 : 4); /* crk_<op>_vec: Candle's <op> */
        const int rope = !strncmp(rop, "rope_i", 6) ? 3 : !strncmp(rop, "rope_thd", 8) ? 5 : 4;
        /* indexing: is takes numel, num_dims, info; gather numel; ia five sizes.
         * sort: asort_* and crk_asort_chunk_* take (x, dst, 2 sizes), merge (x, src, dst, 3 sizes) */
        const int is = !strcmp(ki->op, "is"), gather = !strcmp(ki->op, "gather");
        const int merge = ki->family_id == CRK_FAMILY_SORT && strstr(ki->op, "merge") != NULL;
        /* softmax: crk_softmax_part/fin take n_cols and pieces, crk_softmax_wide n_cols and n_rows */
        const int split = !strcmp(ki->op, "crk_softmax_part") || !strcmp(ki->op, "crk_softmax_fin") ||
                          !strcmp(ki->op, "crk_softmax_wide");
        int conv_op = -1;
        for (int c = 0; c < (int)(sizeof conv_ops / sizeof conv_ops[0]); c++)
            if (!strcmp(ki->op, conv_ops[c].op)) conv_op = c;
        if (ki->family_id == CRK_FAMILY_CONV || ki->family_id == CRK_FAMILY_UPSAMPLE)
            ck_assert_msg(conv_op >= 0, "%s: op %s not in conv_ops", ki->name, ki->op);
        const int scalars = conv_op >= 0                          ? conv_ops[conv_op].scalars
                            : fam[ki->family_id].scalars >= 0       ? fam[ki->family_id].scalars
                            : ki->family_id == CRK_FAMILY_ROPE     ? rope
                            : ki->family_id == CRK_FAMILY_INDEXING ? 4 + !strcmp(ki->op, "ia")
                            : ki->family_id == CRK_FAMILY_SORT     ? 2 + merge
                            : ki->family_id == CRK_FAMILY_SOFTMAX  ? 1 + split
                            /* dequantize: k of the 32-value types; get_rows: ne00, nb01 (crk_*: nrows) */
                            : ki->family_id == CRK_FAMILY_DEQUANTIZE ? (strchr(ki->op, 'K') == NULL)
                            : ki->family_id == CRK_FAMILY_GET_ROWS   ? 2 + !strncmp(ki->op, "crk_", 4)
                            : ki->family_id == CRK_FAMILY_DMMV       ? 2 - !strcmp(ki->op, "q5_k") /* no nrows */
                                                                   : unary1;
        const int numel = fam[ki->family_id].numel >= 0 ? fam[ki->family_id].numel : is || gather;
        const int num_dims = fam[ki->family_id].num_dims >= 0 ? fam[ki->family_id].num_dims : is;
        const int info = conv_op >= 0 ? conv_ops[conv_op].info : fam[ki->family_id].info >= 0 ? fam[ki->family_id].info : is;
        const int inputs = conv_op >= 0 ? conv_ops[conv_op].inputs
                           : fam[ki->family_id].inputs >= 0 ? fam[ki->family_id].inputs
                           : ki->family_id == CRK_FAMILY_SORT ? 1 + merge
                                                              : 2 + (strstr(ki->op, "layernorm") != NULL);
        ck_assert_msg(count[CRK_ROLE_NUMEL] == numel && count[CRK_ROLE_NUM_DIMS] == num_dims &&
                          count[CRK_ROLE_INFO] == info && count[CRK_ROLE_OUTPUT] == 1 &&
                          count[CRK_ROLE_INPUT] == inputs && count[CRK_ROLE_SCALAR] == scalars,
                      "%s: roles numel %d num_dims %d info %d output %d input %d scalar %d", ki->name, count[0],
                      count[1], count[2], count[4], count[3], count[5]);
        ck_assert_int_eq(ki->info_param, info_at);
    }
}
END_TEST

/* Argument checks that need no GPU: run whether or not one is present. */
START_TEST(null_arguments_are_clear_errors) {
    ck_assert_int_eq(crk_open(NULL, NULL), CRK_E_INVALID);
    ck_assert_int_eq(crk_unary(NULL, NULL, "uexp_f32", NULL, NULL, NULL, 0), CRK_E_INVALID);
    ck_assert_str_ne(crk_last_error(), "");
    ck_assert_str_eq(crk_status_name(CRK_E_NOT_FOUND), "kernel not found");
    /* the new helpers: a NULL context is named, with the kernel */
    ck_assert_int_eq(crk_binary(NULL, NULL, "badd_f32", NULL, NULL, NULL, NULL, NULL), CRK_E_INVALID);
    ck_assert_ptr_nonnull(strstr(crk_last_error(), "badd_f32: ctx is NULL"));
    ck_assert_int_eq(crk_cmp(NULL, NULL, "eq_f32", NULL, NULL, NULL, NULL, NULL), CRK_E_INVALID);
    ck_assert_int_eq(crk_const_set(NULL, NULL, "const_set_f32", NULL, NULL, NULL), CRK_E_INVALID);
    ck_assert_int_eq(crk_fill(NULL, NULL, "fill_f32", NULL, 0, NULL), CRK_E_INVALID);
    ck_assert_int_eq(crk_copy2d(NULL, NULL, "copy2d_f32", NULL, NULL, 1, 1, 1, 1, 0, 0), CRK_E_INVALID);
    ck_assert_ptr_nonnull(strstr(crk_last_error(), "copy2d_f32"));
    ck_assert_int_eq(crk_argsort(NULL, NULL, "asort_asc_f32", NULL, NULL, 1, 1, NULL, 0), CRK_E_INVALID);
    ck_assert_ptr_nonnull(strstr(crk_last_error(), "asort_asc_f32: ctx is NULL"));
    ck_assert_uint_eq(crk_argsort_workspace_size(NULL, 1, 1), SIZE_MAX);
}
END_TEST

/* Registered only without a GPU (main decides, before libcheck forks). */
START_TEST(open_without_gpu_is_a_clear_error) {
    crk_ctx *ctx = NULL;
    crk_status st = crk_open(&ctx, NULL);
    ck_assert_int_ne(st, CRK_OK);
    ck_assert_ptr_null(ctx);
    ck_assert(st == CRK_E_NO_DEVICE || st == CRK_E_NO_CODE_OBJECT);
    ck_assert_str_ne(crk_last_error(), "");
}
END_TEST

int main(void) {
    unit_t u = unit_begin("registry");
    UNIT_ADD(&u, every_name_resolves_to_itself);
    UNIT_ADD(&u, unknown_names_suggest_the_nearest);
    UNIT_ADD(&u, parity_with_candle_table);
    UNIT_ADD(&u, dtypes_and_modules);
    UNIT_ADD(&u, layouts_to_info_buffers);
    UNIT_ADD(&u, raw_launch_signature_is_checked);
    UNIT_ADD(&u, parameters_have_roles);
    UNIT_ADD(&u, null_arguments_are_clear_errors);
    /* A GPU is looked for in a child, so that this process (which libcheck
     * forks for every test) never initialises a GPU runtime. */
    int gpu = 0;
    const pid_t pid = fork();
    if (pid == 0) {
        crk_ctx *ctx = NULL;
        const crk_status st = crk_open(&ctx, NULL);
        _exit(st == CRK_OK ? 0 : 1);
    }
    int wst = 0;
    if (pid > 0 && waitpid(pid, &wst, 0) == pid) gpu = WIFEXITED(wst) && WEXITSTATUS(wst) == 0;
    UNIT_ADD_IF(&u, !gpu, "a GPU is present", open_without_gpu_is_a_clear_error);
    return unit_run(&u);
}
