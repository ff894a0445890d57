/* test_context.c — libcrk's contexts on a stand-in HIP runtime
 * (tests/unit/standin_hip.c: per-thread devices as strict as CUDA's
 * contexts, modules tied to a device, kernels that run until waited for):
 * threads (issue 11 defect 2), module loads that fail once (2), the info
 * ring after event errors (11) and its reuse of slots holding the same bytes, launches with overflowing layouts (4), what
 * DIR and BUNDLE mode do with FIFOs, wrong-arch files, missing or damaged
 * bundles, long paths and bad options (5, 9, 13). Needs the stand-in
 * ($CRK_TEST_STANDIN_HIP, default build/unit/libstandin_hip.so) and the
 * build's code objects ($CRK_TEST_HSACO_DIR and $CRK_TEST_HSACO, as the
 * other unit tests); skipped without them. make check-tsan runs it under
 * ThreadSanitizer. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "codeobj.h"
#include "crk.h"
#include "readfile.h"
#include "unit.h"

#define HAS(s) ck_assert_msg(strstr(crk_last_error(), s) != NULL, "'%s' not in: %s", s, crk_last_error())

static char standin[PATH_MAX], hsaco_dir[PATH_MAX];
static char arch[CRK_CO_TARGET_MAX]; /* processor of $CRK_TEST_HSACO, e.g. gfx908 */
static char target[CRK_CO_TARGET_MAX]; /* its full target ID: the stand-in device's */

/* The prerequisites, found once in main (before libcheck forks). */
static const char *prerequisites(void) {
    const char *s = getenv("CRK_TEST_STANDIN_HIP"), *d = getenv("CRK_TEST_HSACO_DIR"), *h = getenv("CRK_TEST_HSACO");
    if (!realpath(s && *s ? s : "build/unit/libstandin_hip.so", standin)) return "stand-in HIP runtime not built";
    if (!d || !h || !realpath(d, hsaco_dir)) return "set CRK_TEST_HSACO_DIR and CRK_TEST_HSACO";
    uint8_t *buf;
    size_t len;
    char err[256];
    if (crk_read_file(h, &buf, &len, err, sizeof err)) return "CRK_TEST_HSACO unreadable";
    const int r = crk_codeobj_amdgpu_target(buf, len, target, sizeof target, err, sizeof err);
    free(buf);
    if (r) return "CRK_TEST_HSACO is no AMDGPU code object";
    const char *t = strstr(target, "--"); /* amdgcn-amd-amdhsa--gfx908 */
    if (t) memmove(target, t + 2, strlen(t + 2) + 1);
    snprintf(arch, sizeof arch, "%.*s", (int)strcspn(target, ":"), target);
    return NULL;
}

/* The stand-in's controls, from the instance libcrk opened. */
static void (*fail_next)(const char *call, int err, int count);
static long (*count)(const char *what, int device);

static crk_status open_on(crk_ctx **ctx, int device, crk_source src, const char *path, const char *dev_target) {
    setenv("CRK_GPU_API", "hip", 1);
    setenv("CRK_HIP_LIBRARY", standin, 1);
    setenv("STANDIN_HIP_ARCH", dev_target ? dev_target : target, 1);
    crk_options o = {.device = device, .source = src, .path = path};
    const crk_status st = crk_open(ctx, &o);
    void *h = dlopen(standin, RTLD_NOW);
    ck_assert_msg(h != NULL, "%s", dlerror());
    fail_next = (void (*)(const char *, int, int))dlsym(h, "standin_hip_fail");
    count = (long (*)(const char *, int))dlsym(h, "standin_hip_count");
    ck_assert(fail_next && count);
    return st;
}

/* A 2x3 f32 tensor viewed transposed (strided: an info buffer is uploaded),
 * and a contiguous one; buffers on the context's device. */
typedef struct {
    crk_layout t, c;
    void *x, *y;
} tensors;

static void make_tensors(crk_ctx *ctx, tensors *ts) {
    const size_t dims[2] = {2, 3};
    ck_assert_int_eq(crk_layout_contiguous(&ts->c, 2, dims), CRK_OK);
    ts->t = ts->c;
    ck_assert_int_eq(crk_layout_transpose(&ts->t, 0, 1), CRK_OK);
    ck_assert_int_eq(crk_malloc(ctx, &ts->x, 6 * sizeof(float)), CRK_OK);
    ck_assert_int_eq(crk_malloc(ctx, &ts->y, 6 * sizeof(float)), CRK_OK);
}

static void free_tensors(crk_ctx *ctx, tensors *ts) {
    ck_assert_int_eq(crk_free(ctx, ts->x), CRK_OK);
    ck_assert_int_eq(crk_free(ctx, ts->y), CRK_OK);
}

typedef struct {
    crk_ctx *ctx;
    const tensors *ts;
    int iterations;
    crk_status st;
    char err[512];
} worker_arg;

/* Launches as a thread's first use of the context. */
static void *first_use(void *p) {
    worker_arg *w = p;
    w->st = crk_unary(w->ctx, NULL, "uexp_f32", &w->ts->t, w->ts->x, w->ts->y, 0);
    snprintf(w->err, sizeof w->err, "%s", crk_last_error());
    return NULL;
}

START_TEST(module_first_used_from_another_thread) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 1, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    worker_arg w = {.ctx = ctx, .ts = &ts};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, first_use, &w), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    ck_assert_msg(w.st == CRK_OK, "worker thread: %s", w.err);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &ts.t, ts.x, ts.y, 0), CRK_OK);
    ck_assert_int_eq(count("launch", 1), 2); /* on the context's device, */
    ck_assert_int_eq(count("launch", 0), 0); /* never on device 0 */
    ck_assert_int_eq(count("module_load", 1), 1);
    ck_assert_int_eq(count("module_load", 0), 0);
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

START_TEST(a_failed_module_load_is_retried) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    fail_next("hipModuleLoadData", 2 /* out of memory */, 1);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &ts.c, ts.x, ts.y, 0), CRK_E_GPU);
    HAS("loading module 'unary'");
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &ts.c, ts.x, ts.y, 0), CRK_OK);
    ck_assert_int_eq(count("module_load", 0), 1);
    ck_assert_int_eq(count("launch", 0), 1);
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

/* The transposed view with its outer stride grown by a number never used
 * before: new info bytes, which no slot holds (the stand-in reads no
 * memory, so the view need not fit the buffer). */
static crk_layout fresh_view(const tensors *ts) {
    static size_t n;
    crk_layout l = ts->t;
    l.strides[1] += ++n;
    return l;
}

/* Launches that go round the info ring (1024 slots) twice, each with new
 * info bytes. */
static void go_round_the_ring(crk_ctx *ctx, const tensors *ts) {
    for (int i = 0; i < 2 * 1024; i++) {
        const crk_layout l = fresh_view(ts);
        ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &l, ts->x, ts->y, 0), CRK_OK);
    }
}

START_TEST(info_slots_are_not_reused_while_a_kernel_may_read_them) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    /* launched, but its event not recorded: the slot must wait for the device */
    fail_next("hipEventRecord", 1, 1);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &ts.t, ts.x, ts.y, 0), CRK_E_GPU);
    go_round_the_ring(ctx, &ts);
    ck_assert_int_eq(count("unsafe", -1), 0);
    ck_assert_int_ge(count("sync", -1), 1);
    /* waiting for a slot's event failed: the slot stays busy */
    fail_next("hipEventSynchronize", 1, 1);
    crk_status st = CRK_OK;
    for (int i = 0; i < 1024 && st == CRK_OK; i++) {
        const crk_layout l = fresh_view(&ts);
        st = crk_unary(ctx, NULL, "uexp_f32", &l, ts.x, ts.y, 0);
    }
    ck_assert_int_eq(st, CRK_E_GPU);
    go_round_the_ring(ctx, &ts);
    ck_assert_int_eq(count("unsafe", -1), 0);
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

/* uexp_f32 of view l of ts's x into its y. */
static crk_status uexp(crk_ctx *ctx, crk_stream s, const crk_layout *l, const tensors *ts) {
    return crk_unary(ctx, s, "uexp_f32", l, ts->x, ts->y, 0);
}

/* A layout launched again reuses the slot holding its info: one upload,
 * then a wait for the slot's event before each launch. Another stream, or
 * other bytes, take a slot of their own. */
START_TEST(repeated_layouts_reuse_their_info_slot) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    const crk_layout a = fresh_view(&ts), b = fresh_view(&ts);
    crk_stream other = (crk_stream)(uintptr_t)0x5000; /* the stand-in takes any stream */
    for (int i = 0; i < 100; i++) ck_assert_int_eq(uexp(ctx, NULL, &a, &ts), CRK_OK);
    ck_assert_int_eq(count("upload", -1), 1);
    ck_assert_int_eq(count("wait", -1), 99);
    ck_assert_int_eq(count("launch", 0), 100);
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(uexp(ctx, NULL, &b, &ts), CRK_OK);
        ck_assert_int_eq(uexp(ctx, NULL, &a, &ts), CRK_OK);
    }
    ck_assert_int_eq(count("upload", -1), 2);
    ck_assert_int_eq(uexp(ctx, other, &a, &ts), CRK_OK);
    ck_assert_int_eq(uexp(ctx, other, &a, &ts), CRK_OK);
    ck_assert_int_eq(count("upload", -1), 3);
    /* every stream its own slot (the index's 4096 buckets collide many
     * times over), every other layout too */
    for (uintptr_t i = 1; i <= 2000; i++)
        ck_assert_int_eq(uexp(ctx, (crk_stream)(0x5000 + 64 * i), &a, &ts), CRK_OK);
    ck_assert_int_eq(count("upload", -1), 2003);
    go_round_the_ring(ctx, &ts);
    ck_assert_int_eq(count("upload", -1), 2003 + 2048);
    /* a contiguous launch passes NULL and uploads nothing */
    ck_assert_int_eq(uexp(ctx, NULL, &ts.c, &ts), CRK_OK);
    ck_assert_int_eq(count("upload", -1), 2003 + 2048);
    ck_assert_int_eq(count("unsafe", -1), 0);
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

/* A reused slot is read by its latest launch: going round the ring must
 * wait for that one before overwriting it (the stand-in counts an upload
 * into a slot a running kernel reads as unsafe). Failed calls leave no slot
 * that is reused or overwritten unsafely. */
START_TEST(reused_slots_are_overwritten_only_after_their_last_reader) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    const crk_layout a = fresh_view(&ts);
    for (int i = 0; i < 50; i++) ck_assert_int_eq(uexp(ctx, NULL, &a, &ts), CRK_OK);
    go_round_the_ring(ctx, &ts);
    ck_assert_int_eq(count("unsafe", -1), 0);
    /* the wait fails: nothing is launched, and the slot stays as it was */
    ck_assert_int_eq(uexp(ctx, NULL, &a, &ts), CRK_OK);
    long launches = count("launch", 0), uploads = count("upload", -1);
    fail_next("hipStreamWaitEvent", 1, 1);
    ck_assert_int_eq(uexp(ctx, NULL, &a, &ts), CRK_E_GPU);
    ck_assert_int_eq(count("launch", 0), launches);
    ck_assert_int_eq(uexp(ctx, NULL, &a, &ts), CRK_OK);
    ck_assert_int_eq(count("upload", -1), uploads);
    /* the event after a reuse fails: the slot is not reused again, and is
     * overwritten only after the device is synchronized */
    fail_next("hipEventRecord", 1, 1);
    ck_assert_int_eq(uexp(ctx, NULL, &a, &ts), CRK_E_GPU);
    const long syncs = count("sync", -1);
    ck_assert_int_eq(uexp(ctx, NULL, &a, &ts), CRK_OK);
    ck_assert_int_eq(count("upload", -1), uploads + 1);
    go_round_the_ring(ctx, &ts);
    ck_assert_int_eq(count("unsafe", -1), 0);
    ck_assert_int_gt(count("sync", -1), syncs);
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

/* The end of a test of two buffers: its work finished, both freed, ctx closed. */
static void finish_two(crk_ctx *ctx, void *x, void *y) {
    ck_assert_int_eq(crk_synchronize(ctx), CRK_OK);
    ck_assert_int_eq(crk_free(ctx, x), CRK_OK);
    ck_assert_int_eq(crk_free(ctx, y), CRK_OK);
    crk_close(ctx);
}

/* Strided element-wise launches take at most 16 blocks a CU (the
 * stand-in's 2 CUs: 32), the kernels walking the rest grid-stride;
 * contiguous and transposed launches a thread a 16-byte run. */
START_TEST(strided_grids_are_capped_by_the_cus) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    const size_t dims[2] = {1024, 1024}, small[2] = {8, 64};
    crk_layout c, b, t, bs, small_t;
    ck_assert_int_eq(crk_layout_contiguous(&c, 2, dims), CRK_OK);
    b = c, b.strides[0] = 0; /* a [1,1024] row broadcast */
    t = c;
    ck_assert_int_eq(crk_layout_transpose(&t, 0, 1), CRK_OK);
    ck_assert_int_eq(crk_layout_contiguous(&bs, 2, small), CRK_OK);
    bs.strides[0] = 0;
    small_t = bs, small_t.strides[0] = 1, small_t.strides[1] = 8; /* 8x64 read from a 64x8 */
    void *x, *y;
    ck_assert_int_eq(crk_malloc(ctx, &x, 1024 * 1024 * sizeof(float)), CRK_OK);
    ck_assert_int_eq(crk_malloc(ctx, &y, 1024 * 1024 * sizeof(float)), CRK_OK);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &b, x, y, 0), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 32);
    ck_assert_int_eq(crk_binary(ctx, NULL, "badd_f32", &c, x, &b, x, y), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 32);
    const crk_kernel_info *ki = crk_kernel_find("uexp_f32");
    ck_assert_ptr_nonnull(ki);
    const long full = (1L << 20) / 4 / (long)ki->block; /* 4 f32 a thread, the registry's blocks */
    ck_assert_int_gt(full, 32);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &c, x, y, 0), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), full);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &t, x, y, 0), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), full);
    ck_assert_int_eq(count("block_x", -1), (long)ki->block);
    /* a transposed operand of a copy, cast, affine or binary op on 4-byte
     * values: 1024-thread blocks walking tiles, 8 an SM/CU (launch.c,
     * tiled_transpose); 8 bf16 a thread, fp8 and two transposed operands
     * keep the registry's blocks */
    ck_assert_int_eq(crk_unary(ctx, NULL, "ucopy_f32", &t, x, y, 0), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 16);
    ck_assert_int_eq(count("block_x", -1), 1024);
    ck_assert_int_eq(crk_cast(ctx, NULL, "cast_bf16_f32", &t, x, y), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 16);
    ck_assert_int_eq(crk_affine(ctx, NULL, "affine_f64", &small_t, x, y, 2, 1), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 1); /* 512 f64: one tile of 32x64 */
    ck_assert_int_eq(count("block_x", -1), 1024);
    ck_assert_int_eq(crk_binary(ctx, NULL, "badd_f32", &t, x, &c, x, y), CRK_OK); /* a transposed lhs */
    ck_assert_int_eq(count("grid_x", -1), 16);
    ck_assert_int_eq(count("block_x", -1), 1024);
    ck_assert_int_eq(crk_binary(ctx, NULL, "badd_f32", &t, x, &t, x, y), CRK_OK); /* both: the row walk */
    ck_assert_int_eq(count("block_x", -1), (long)crk_kernel_find("badd_f32")->block);
    ck_assert_int_eq(crk_unary(ctx, NULL, "ucopy_bf16", &t, x, y, 0), CRK_OK);
    ck_assert_int_eq(count("block_x", -1), (long)ki->block);
    ck_assert_int_eq(crk_cast(ctx, NULL, "cast_f32_f8e4m3", &t, x, y), CRK_OK);
    ck_assert_int_eq(count("block_x", -1), (long)ki->block);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &bs, x, y, 0), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 1);
    finish_two(ctx, x, y);
}
END_TEST

/* crk_softmax's rows of 2049..8192 chunks run in the blocks the device
 * holds at once where a block fills an SM/CU (the stand-in's occupancy,
 * 1024 / threads, times its 2 CUs), asked once for each kernel and block
 * size, not every launch; no more blocks than rows. Two blocks a CU (512
 * threads) keep a block a row. */
START_TEST(softmax_persistent_grid_asks_occupancy_once) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    void *x, *y;
    const size_t bytes = 4 * 32768 * sizeof(float);
    ck_assert_int_eq(crk_malloc(ctx, &x, bytes), CRK_OK);
    ck_assert_int_eq(crk_malloc(ctx, &y, bytes), CRK_OK);
    const long asked = count("occupancy", -1);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(crk_softmax(ctx, NULL, "softmax_f32", x, y, 4, 32768), CRK_OK);
        ck_assert_int_eq(count("grid_x", -1), 2);
        ck_assert_int_eq(count("block_x", -1), 1024);
        ck_assert_int_eq(count("occupancy", -1), asked + 1);
    }
    for (int i = 0; i < 2; i++) { /* 4096 chunks: 512 threads, two a CU, a second question */
        ck_assert_int_eq(crk_softmax(ctx, NULL, "softmax_f32", x, y, 4, 16384), CRK_OK);
        ck_assert_int_eq(count("grid_x", -1), 4);
        ck_assert_int_eq(count("block_x", -1), 512);
        ck_assert_int_eq(count("occupancy", -1), asked + 2);
    }
    /* 16-bit: 8192 chunks fill a CU (persistent), 4096 do not */
    ck_assert_int_eq(crk_softmax(ctx, NULL, "softmax_bf16", x, y, 4, 65536), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 2);
    ck_assert_int_eq(count("block_x", -1), 1024);
    ck_assert_int_eq(crk_softmax(ctx, NULL, "softmax_bf16", x, y, 4, 32768), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 4);
    ck_assert_int_eq(count("block_x", -1), 512);
    ck_assert_int_eq(crk_softmax(ctx, NULL, "softmax_f32", x, y, 1, 32768), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 1);
    /* longer rows (10000 chunks, too few to split): 1024 threads a block a row, no question */
    const long before = count("occupancy", -1);
    ck_assert_int_eq(crk_softmax(ctx, NULL, "softmax_f32", x, y, 2, 40000), CRK_OK);
    ck_assert_int_eq(count("grid_x", -1), 2);
    ck_assert_int_eq(count("block_x", -1), 1024);
    ck_assert_int_eq(count("occupancy", -1), before);
    finish_two(ctx, x, y);
}
END_TEST

/* Every kind of call, from a thread whose first call is any of them. */
static void *busy(void *p) {
    worker_arg *w = p;
    tensors ts;
    crk_status st = CRK_OK;
    const size_t dims[2] = {2, 3};
    crk_layout_contiguous(&ts.c, 2, dims);
    ts.t = ts.c;
    crk_layout_transpose(&ts.t, 0, 1);
    float host[6] = {1, 2, 3, 4, 5, 6};
    if ((st = crk_malloc(w->ctx, &ts.x, sizeof host)) == CRK_OK && (st = crk_malloc(w->ctx, &ts.y, sizeof host)) == CRK_OK)
        for (int i = 0; i < w->iterations && st == CRK_OK; i++) {
            size_t n = 6;
            void *args[3] = {&n, &ts.x, &ts.y};
            const size_t sizes[3] = {sizeof n, sizeof ts.x, sizeof ts.y};
            const unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
            const crk_kernel_info *ki = crk_kernel_find("ucopy_f32");
            if (!ki || ki->nparams != 3) ki = NULL; /* raw launch only with that signature */
            if ((st = crk_memcpy_htod(w->ctx, ts.x, host, sizeof host)) == CRK_OK &&
                (st = crk_unary(w->ctx, NULL, "uexp_f32", &ts.t, ts.x, ts.y, 0)) == CRK_OK &&
                (st = crk_unary(w->ctx, NULL, "uneg_f32", &ts.c, ts.x, ts.y, 0)) == CRK_OK &&
                (st = crk_binary(w->ctx, NULL, "badd_f32", &ts.t, ts.x, &ts.t, ts.y, ts.y)) == CRK_OK && ki)
                st = crk_launch(w->ctx, NULL, "ucopy_f32", grid, block, 0, args, sizes, 3);
        }
    if (st == CRK_OK) st = crk_free(w->ctx, ts.x);
    if (st == CRK_OK) st = crk_free(w->ctx, ts.y);
    w->st = st;
    snprintf(w->err, sizeof w->err, "%s", crk_last_error());
    return NULL;
}

START_TEST(many_threads_share_a_context) {
    enum { THREADS = 8, ITER = 150 };
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 1, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    pthread_t th[THREADS];
    worker_arg w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker_arg){.ctx = ctx, .iterations = ITER};
        ck_assert_int_eq(pthread_create(&th[i], NULL, busy, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < THREADS; i++) ck_assert_msg(w[i].st == CRK_OK, "thread %d: %s", i, w[i].err);
    const crk_kernel_info *ki = crk_kernel_find("ucopy_f32");
    ck_assert_int_eq(count("launch", 1), (long)THREADS * ITER * (ki && ki->nparams == 3 ? 4 : 3));
    ck_assert_int_eq(count("launch", 0), 0);
    ck_assert_int_eq(count("module_load", 1), 2); /* unary and binary, once each */
    ck_assert_int_eq(count("unsafe", -1), 0);
    crk_close(ctx);
}
END_TEST

START_TEST(overflowing_layouts_launch_nothing) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    crk_layout l;
    memset(&l, 0, sizeof l);
    l.rank = 2, l.strides[0] = (size_t)1 << 32, l.strides[1] = 1;
    l.dims[0] = (size_t)1 << 32, l.dims[1] = (size_t)1 << 32; /* numel wraps to 0 */
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &l, ts.x, ts.y, 0), CRK_E_INVALID);
    HAS("overflows");
    l.dims[0] = (size_t)1 << 33, l.dims[1] = ((size_t)1 << 31) + 1; /* wraps to 2^33 */
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &l, ts.x, ts.y, 0), CRK_E_INVALID);
    l = ts.c, l.start_offset = SIZE_MAX / 2; /* a byte offset past the address space */
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &l, ts.x, ts.y, 0), CRK_E_INVALID);
    ck_assert_int_eq(crk_copy2d(ctx, NULL, "copy2d_f32", ts.x, ts.y, 1, 2, 2, 2, SIZE_MAX / 4, 0), CRK_E_INVALID);
    /* batched rope: stride_b = h*t*d is a uint32_t (unbatched, the element count may pass 2^32: numeric's huge case) */
    ck_assert_int_eq(crk_rope(ctx, NULL, "rope_bf16", ts.x, ts.x, ts.x, ts.y, 1, 4097, 8192, 128, 1), CRK_E_INVALID);
    HAS("stride_b");
    l = ts.c, l.rank = 17;
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &l, ts.x, ts.y, 0), CRK_E_TOO_MANY_DIMS);
    ck_assert_int_eq(crk_unary(ctx, NULL, NULL, &ts.c, ts.x, ts.y, 0), CRK_E_INVALID);
    HAS("NULL");
    const unsigned g[3] = {1, 1, 1};
    ck_assert_int_eq(crk_launch(ctx, NULL, NULL, g, g, 0, NULL, NULL, 0), CRK_E_INVALID);
    ck_assert_int_eq(count("launch", 0), 0);
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

/* Module conv's helpers refuse what Candle's host code refuses, with the
 * problem named, and launch nothing; a good call launches once and reports
 * Candle's output dims. */
START_TEST(conv_helpers_refuse_bad_shapes) {
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, hsaco_dir, NULL), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    crk_layout src, k, l3;
    const size_t sd[4] = {1, 2, 5, 6}, kd[4] = {3, 2, 3, 3}, d3[3] = {1, 2, 5};
    crk_layout_contiguous(&src, 4, sd), crk_layout_contiguous(&k, 4, kd), crk_layout_contiguous(&l3, 3, d3);
    const crk_conv_params p = {1, 1, 1, 0}, zero = {0, 0, 1, 0};
    size_t out[6] = {0};
    ck_assert_int_eq(crk_conv(ctx, NULL, "conv2d_f32", &l3, ts.x, &k, ts.x, &p, ts.y, out), CRK_E_INVALID);
    HAS("rank 3");
    ck_assert_int_eq(crk_conv(ctx, NULL, "conv2d_f32", &src, ts.x, &k, ts.x, &zero, ts.y, out), CRK_E_INVALID);
    HAS("at least 1");
    ck_assert_int_eq(crk_conv(ctx, NULL, "conv2d_f32", &src, ts.x, &k, ts.x, NULL, ts.y, out), CRK_E_INVALID);
    HAS("params is NULL");
    crk_layout kc = k;
    kc.dims[1] = 3; /* 3 input channels against src's 2 */
    ck_assert_int_eq(crk_conv(ctx, NULL, "conv2d_f32", &src, ts.x, &kc, ts.x, &p, ts.y, out), CRK_E_INVALID);
    HAS("channels");
    crk_layout big = k;
    big.dims[2] = 8; /* 8 rows do not fit 5 + 2·1 */
    ck_assert_int_eq(crk_conv(ctx, NULL, "conv2d_f32", &src, ts.x, &big, ts.x, &p, ts.y, out), CRK_E_INVALID);
    HAS("does not fit");
    ck_assert_int_eq(crk_conv(ctx, NULL, "im2col_f32", &src, ts.x, &k, ts.x, &p, ts.y, out), CRK_E_INVALID);
    HAS("crk_im2col");
    ck_assert_int_eq(crk_conv(ctx, NULL, "uexp_f32", &src, ts.x, &k, ts.x, &p, ts.y, out), CRK_E_INVALID);
    ck_assert_int_eq(crk_pool2d(ctx, NULL, "max_pool2d_f32", &src, ts.x, 6, 2, 1, 1, ts.y), CRK_E_INVALID);
    HAS("does not fit");
    ck_assert_int_eq(crk_pool2d(ctx, NULL, "avg_pool2d_f32", &src, ts.x, 2, 2, 0, 1, ts.y), CRK_E_INVALID);
    ck_assert_int_eq(crk_upsample2d(ctx, NULL, "upsample_nearest2d_f32", &src, ts.x, 4, 4, 1, NULL, NULL, ts.y),
                     CRK_E_INVALID);
    HAS("nearest takes no");
    const double neg = -2;
    ck_assert_int_eq(crk_upsample2d(ctx, NULL, "upsample_bilinear2d_f32", &src, ts.x, 4, 4, 0, &neg, NULL, ts.y),
                     CRK_E_INVALID);
    HAS("positive");
    crk_layout tr = src;
    ck_assert_int_eq(crk_layout_transpose(&tr, 2, 3), CRK_OK);
    ck_assert_int_eq(crk_col2im1d(ctx, NULL, "col2im1d_f32", &tr, ts.x, 1, ts.y), CRK_E_INVALID);
    HAS("contiguous");
    ck_assert_int_eq(crk_im2col(ctx, NULL, "im2col_f32", &src, NULL, 3, 3, &p, ts.y, out), CRK_E_INVALID);
    HAS("NULL");
    ck_assert_int_eq(count("launch", 0), 0);
    /* conv2d 1x2x5x6 * 3x2x3x3, padding 1: 1x3x5x6, one launch */
    ck_assert_int_eq(crk_conv(ctx, NULL, "conv2d_f32", &src, ts.x, &k, ts.x, &p, ts.y, out), CRK_OK);
    ck_assert(out[0] == 1 && out[1] == 3 && out[2] == 5 && out[3] == 6);
    /* conv_transpose1d (1, 2, 5) * (2, 3, 3), stride 2, padding 1, output_padding 1: (5 − 1)·2 + 2 + 1 + 1 − 2 = 10 */
    const crk_conv_params pt = {2, 1, 1, 1};
    crk_layout k3;
    const size_t kt[3] = {2, 3, 3};
    crk_layout_contiguous(&k3, 3, kt);
    ck_assert_int_eq(crk_conv(ctx, NULL, "conv_transpose1d_f32", &l3, ts.x, &k3, ts.x, &pt, ts.y, out), CRK_OK);
    ck_assert(out[0] == 1 && out[1] == 3 && out[2] == 10);
    /* im2col1d: (b, l_out, c_in, k) */
    ck_assert_int_eq(crk_im2col(ctx, NULL, "im2col1d_f32", &l3, ts.x, 3, 0, &p, ts.y, out), CRK_OK);
    ck_assert(out[0] == 1 && out[1] == 5 && out[2] == 2 && out[3] == 3);
    ck_assert_int_eq(count("launch", 0), 3);
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

static void tmpdir(char *out, size_t n) {
    snprintf(out, n, "/tmp/crk-test-context-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(out));
}

START_TEST(dir_mode_checks_the_arch_of_each_file) {
    char t[PATH_MAX], link[PATH_MAX + 32], src[PATH_MAX + 128];
    tmpdir(t, sizeof t);
    const char *other = strcmp(arch, "gfx90a") ? "gfx90a" : "gfx942"; /* a directory named for another arch */
    snprintf(link, sizeof link, "%s/%s", t, other);
    snprintf(src, sizeof src, "%s/%s", hsaco_dir, arch);
    ck_assert_int_eq(symlink(src, link), 0);
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, t, other), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &ts.c, ts.x, ts.y, 0), CRK_E_CORRUPT);
    char want[128];
    snprintf(want, sizeof want, "code object for %s", arch);
    HAS(want);
    ck_assert_int_eq(count("module_load", 0), 0); /* never reached the runtime */
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

START_TEST(fifos_are_refused_not_waited_on) {
    alarm(60); /* a hang is a failure, not a stuck check */
    char t[PATH_MAX], p[PATH_MAX + 64], src[2 * PATH_MAX];
    tmpdir(t, sizeof t);
    snprintf(p, sizeof p, "%s/%s", t, arch);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    for (size_t m = 0; m < crk_module_count(); m++) { /* every module linked, binary a FIFO */
        snprintf(p, sizeof p, "%s/%s/%s.hsaco", t, arch, crk_module_name(m));
        snprintf(src, sizeof src, "%s/%s/%s.hsaco", hsaco_dir, arch, crk_module_name(m));
        ck_assert_int_eq(strcmp(crk_module_name(m), "binary") ? symlink(src, p) : mkfifo(p, 0644), 0);
    }
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, t, NULL), CRK_OK);
    tensors ts;
    make_tensors(ctx, &ts);
    ck_assert_int_eq(crk_binary(ctx, NULL, "badd_f32", &ts.c, ts.x, &ts.c, ts.x, ts.y), CRK_E_IO);
    HAS("is a FIFO");
    free_tensors(ctx, &ts);
    crk_close(ctx);
    /* BUNDLE mode: the bundle read at open is a FIFO */
    snprintf(p, sizeof p, "%s/%s.hsaco", t, crk_kernel_at(0)->module);
    ck_assert_int_eq(mkfifo(p, 0644), 0);
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_BUNDLE, t, NULL), CRK_E_IO);
    HAS("is a FIFO");
}
END_TEST

START_TEST(missing_damaged_and_misnamed_sources_say_what_they_are) {
    crk_ctx *ctx = NULL;
    char t[PATH_MAX], p[PATH_MAX + 64];
    tmpdir(t, sizeof t);
    snprintf(p, sizeof p, "%s/none", t);
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_BUNDLE, p, NULL), CRK_E_IO); /* was "has: nothing" */
    HAS("No such file");
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, p, NULL), CRK_E_IO);
    ck_assert_ptr_null(strstr(crk_last_error(), "ARCHS="));
    HAS("cannot open directory");
    snprintf(p, sizeof p, "%s/%s.hsaco", t, crk_kernel_at(0)->module);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs("garbage, not a bundle", f);
    fclose(f);
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_BUNDLE, t, NULL), CRK_E_CORRUPT);
    HAS("bad magic");
    crk_options o = {.source = (crk_source)42, .path = hsaco_dir};
    ck_assert_int_eq(crk_open(&ctx, &o), CRK_E_INVALID);
    HAS("source is 42");
    setenv("CRK_GPU_API", "junk", 1);
    ck_assert_int_eq(crk_open(&ctx, NULL), CRK_E_INVALID);
    HAS("CRK_GPU_API=junk");
    ck_assert_ptr_null(ctx);
}
END_TEST

START_TEST(paths_of_any_length) {
    /* <t>/././.../real, longer than the 1023 bytes paths were cut to; cut,
     * it named <t> itself, which has no arch directory */
    char t[PATH_MAX], link[PATH_MAX + 16];
    tmpdir(t, sizeof t);
    snprintf(link, sizeof link, "%s/real", t);
    ck_assert_int_eq(symlink(hsaco_dir, link), 0);
    char *path = malloc(strlen(t) + 2 * 700 + 8);
    ck_assert_ptr_nonnull(path);
    strcpy(path, t);
    for (int i = 0; i < 700; i++) strcat(path, "/.");
    strcat(path, "/real");
    crk_ctx *ctx = NULL;
    ck_assert_int_eq(open_on(&ctx, 0, CRK_SOURCE_DIR, path, NULL), CRK_OK);
    free(path); /* libcrk keeps its own copy */
    tensors ts;
    make_tensors(ctx, &ts);
    ck_assert_int_eq(crk_unary(ctx, NULL, "uexp_f32", &ts.c, ts.x, ts.y, 0), CRK_OK);
    free_tensors(ctx, &ts);
    crk_close(ctx);
}
END_TEST

int main(void) {
    unit_t u = unit_begin("context");
    tcase_set_timeout(u.tc, 300); /* sanitizer builds: thousands of launches */
    const char *missing = prerequisites();
#define ADD(t) UNIT_ADD_IF(&u, !missing, missing, t)
    ADD(module_first_used_from_another_thread);
    ADD(a_failed_module_load_is_retried);
    ADD(info_slots_are_not_reused_while_a_kernel_may_read_them);
    ADD(repeated_layouts_reuse_their_info_slot);
    ADD(reused_slots_are_overwritten_only_after_their_last_reader);
    ADD(strided_grids_are_capped_by_the_cus);
    ADD(softmax_persistent_grid_asks_occupancy_once);
    ADD(many_threads_share_a_context);
    ADD(overflowing_layouts_launch_nothing);
    ADD(conv_helpers_refuse_bad_shapes);
    ADD(dir_mode_checks_the_arch_of_each_file);
    ADD(fifos_are_refused_not_waited_on);
    ADD(missing_damaged_and_misnamed_sources_say_what_they_are);
    ADD(paths_of_any_length);
    return unit_run(&u);
}
