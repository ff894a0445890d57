/* suite.h — what the numeric suite's family tests share: the device pools,
 * the two launch shapes, uploads, output checks and raw launches. Each
 * family's test is one source (fam_*.c), listed in FAMILY_TESTS by the
 * registry's family enum. */
#ifndef CRK_TEST_SUITE_H
#define CRK_TEST_SUITE_H
#include "cases.h"
#include "results.h"
#include "values.h"

#define POOL_BYTES ((size_t)96 << 20)

enum { SHAPE_CRK, SHAPE_CANDLE, SHAPES };

typedef struct {
    crk_ctx *ctx;
    void *dev[4];     /* 0: input / cond / lhs, 1: out, 2: t / rhs, 3: f */
    void *dev_info;   /* the info buffer of raw launches */
    int shape;        /* SHAPE_*: how kernels are launched */
    unsigned char *host[5];
    rng_t rng;
    results_t *res;
} suite_t;

/* One family's test of kernel ki on layout case lc; returns failures (0 ok). */
typedef int (*family_run_fn)(suite_t *S, const crk_kernel_info *ki, const layout_case *lc);
typedef struct {
    family_run_fn run;
    /* 1 if the case applies to the kernel (NULL: every case) */
    int (*applies)(const layout_case *lc, const crk_kernel_info *ki);
    /* The elements of the largest tensor the case makes, which --max-numel
     * compares (NULL: the layout case's; families with their own size
     * tables tell theirs) */
    size_t (*elements)(const layout_case *lc, const crk_kernel_info *ki);
} family_test;
extern const family_test FAMILY_TESTS[CRK_FAMILY_COUNT];

/* Element i of a layout -> element offset in its buffer. */
size_t offset_of(const crk_layout *l, size_t i);
int upload(suite_t *S, void *dev, const void *host, size_t bytes);
/* The case's name, with the launch shape when it is Candle's. */
const char *case_name(const suite_t *S, const layout_case *lc, char *buf, size_t n);
/* 1 if st is CRK_OK, else prints the failure and returns 0. */
int gpu_ok(crk_status st, const crk_kernel_info *ki, const char *cname);
/* Synchronises, then downloads bytes of dev into host; 0 on success. */
int finish(suite_t *S, crk_status st, const crk_kernel_info *ki, const char *cname, void *host, const void *dev,
           size_t bytes);
/* The bytes after an output must still hold the poison. */
int guard_bad(const crk_kernel_info *ki, const char *cname, const unsigned char *g, size_t n, unsigned char poison);
/* Compares out[0..numel) with expected under the kernel's tolerance, then
 * the guard zone with the poison. xs: input values for the abs bound. */
int check_output(const crk_kernel_info *ki, const char *cname, crk_dtype dt, const unsigned char *got,
                 const unsigned char *want, const double *xs, size_t numel, unsigned char poison);
/* A random poison byte, odd so that it is never a zero fill. */
unsigned char poison_byte(suite_t *S);

/* Result row of a kernel under a launch shape ("unary@candle"), and the
 * dtype the row is filed under (numeric.c). */
const char *row_family(const crk_kernel_info *ki, int shape);
const char *result_dtype(const crk_kernel_info *ki);
/* Candle's grid over launches of 2^21 runs and more (spaced.c): runs them,
 * or with skip != 0 files each as that outcome (2 skipped, 1 failed). */
int run_spaced(suite_t *S, const char *filter, int skip);

/* A raw launch as a Candle backend makes it: args from the registry's
 * roles, the info buffer of layouts ls uploaded (NULL when every layout is
 * contiguous, unless always_info), `block` threads x ceil(work/block)
 * blocks, or grid_x x block3 when grid_x is set. in[i]: the inputs (start offsets applied); sc: scalars as doubles,
 * raw0: scalar 0 as bytes of its dtype (or NULL). */
typedef struct {
    const crk_layout *const *ls;
    size_t nls;
    int always_info;
    size_t work;                 /* for_num_elems(work); 0: numel of ls[0] */
    const void *const *in;
    void *out;
    const double *sc;
    const void *raw0;
    unsigned grid_x;             /* != 0: this grid (even for no work) ... */
    unsigned block3[3];          /* ... and this block, instead of for_num_elems */
    size_t numel;                /* != 0: the numel argument (index_select: the output's) */
} raw_launch;
crk_status launch_raw(suite_t *S, const crk_kernel_info *ki, const raw_launch *r, unsigned block);
/* The same with this info buffer (info_len entries; module conv packs its
 * own: a source's and a kernel's dims and strides) instead of ls's. */
crk_status launch_raw_info(suite_t *S, const crk_kernel_info *ki, const raw_launch *r, unsigned block,
                           const size_t *info, size_t info_len);
/* The same with grid_x x grid_y blocks (r->grid_x set). */
crk_status launch_raw_2d(suite_t *S, const crk_kernel_info *ki, const raw_launch *r, unsigned grid_y);

/* The dtype of the kernel's output (CRK_ROLE_OUTPUT parameter). */
crk_dtype output_dtype(const crk_kernel_info *ki);
#endif
