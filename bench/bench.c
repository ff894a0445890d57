/* bench.c — bandwidth of crk's element-wise and indexing kernels on the GPU present, under
 * libcrk's launch and Candle's, next to Candle's own kernels and PyTorch on
 * the same GPU in the same run (bench/README.md).
 *
 *   bench [--sizes 24,28] [--ops exp,gelu,...] [--out DIR] [--device N]
 *         [--source embedded|dir|bundle --path P] [--candle-dir DIR]
 *         [--no-candle] [--no-torch] [--no-plot]
 *
 * Timing: after warm-up (3 launches + synchronize), N back-to-back launches
 * then crk_synchronize, timed with the host's monotonic clock; N is chosen
 * so that one sample takes >= 20 ms; 15 samples; the median per launch is
 * reported. Launches are asynchronous, so this measures the GPU's rate.
 * Every (row, shape) is checked on sampled elements against a CPU
 * computation first: a wrong kernel is never timed; a wrong one of ours
 * makes the exit status 1. The indexing rows (index.c) run after the
 * sizes, at their own fixed shapes. */
#include "bench.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *const bench_shape_names[SHAPE_COUNT] = {"crk", "candle", "candle_kernel"};

#define SAMPLES 15
#define MIN_SAMPLE_S 0.020
#define MAX_LAUNCHES 200000L
#define CHECK_POINTS 64

static candle_peer *peer;                       /* Candle's cubins; NULL: unavailable */
static const char *peer_off = "unavailable, see 'candle:'"; /* why peer is NULL */

/* ------------------------------------------------------------ launching */
static int fail_gpu(const char *what) {
    printf("ERROR: %s: %s\n", what, crk_last_error());
    fflush(stdout);
    return -1;
}

/* One launch of P on `set` in `shape`; 0, or -1 with the error printed. */
static int launch(const bench_state *S, const bench_prep *P, int shape, int set) {
    if (shape == SHAPE_CRK) return launch_crk(S, P, set) != CRK_OK ? fail_gpu(P->op->kernel) : 0;
    if (shape == SHAPE_CANDLE) return launch_candle_shape(S, P, set) != CRK_OK ? fail_gpu(P->op->kernel) : 0;
    if (P->op->family == F_MMVQ) return quant_launch_peer(S, P, set); /* Candle's host launcher */
    unsigned grid[3], block[3];
    char why[200];
    prep_grid(P, grid, block);
    if (!candle_peer_launch(peer, P->peer_fn, grid, block, P->shared, (void **)P->call[set].args, why, sizeof why))
        return 0;
    printf("ERROR: Candle's %s: %s\n", P->op->kernel, why);
    fflush(stdout);
    return -1;
}

/* ------------------------------------------------------------ checking */
/* Poisons the output, runs once on set 0 and checks CHECK_POINTS elements
 * (copy2d: and that the row padding stays untouched). 0 right, 1 wrong,
 * -1 GPU error. */
static int verify(const bench_state *S, const bench_prep *P, int shape, uint64_t *rng) {
    const size_t osz = crk_dtype_size(P->op->out_dt);
    const char *who = shape == SHAPE_PEER     ? "WARNING: Candle's"
                      : shape == SHAPE_CANDLE ? "ERROR: (candle shape)"
                                              : "ERROR: (crk shape)";
    const int ix = IS_INDEX_FAMILY(P->op->family);
    if (ix ? index_reset(S, P) : crk_memset(S->ctx, S->out[0], 0xFF, op_out_extent(S, P->op) * osz) != CRK_OK)
        return ix ? -1 : fail_gpu("memset");
    if (launch(S, P, shape, 0)) return -1;
    if (crk_synchronize(S->ctx) != CRK_OK) return fail_gpu(P->op->kernel);
    if (ix) return index_check(S, P, rng, who);
    size_t idx[CHECK_POINTS] = {0, 1, S->n - 1, S->n / 2, S->cols - 1, S->cols, S->n - S->cols};
    for (size_t k = 7; k < CHECK_POINTS; k++) idx[k] = bench_rand(rng) % S->n;
    int bad = 0;
    unsigned char got[8];
    for (size_t k = 0; k < CHECK_POINTS && bad < 4; k++) {
        const size_t o = layout_offset(&P->out_l, idx[k]);
        if (crk_memcpy_dtoh(S->ctx, got, (const char *)S->out[0] + o * osz, osz) != CRK_OK) return fail_gpu("dtoh");
        bad += check_one(S, P, idx[k], got, who);
    }
    if (P->op->family == F_COPY2D) { /* row 0's padding, just past its C elements */
        if (crk_memcpy_dtoh(S->ctx, got, (const char *)S->out[0] + S->cols * osz, osz) != CRK_OK) return fail_gpu("dtoh");
        for (size_t b = 0; b < osz; b++)
            if (got[b] != 0xFF) {
                printf("%s %s (n=%zu) wrote the row padding (element %zu)\n", who, P->op->kernel, S->n, S->cols);
                bad++;
                break;
            }
    }
    return bad ? 1 : 0;
}

/* ------------------------------------------------------------ timing */
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Seconds for `count` launches rotating over `sets`, then one synchronize. */
static int timed_batch(crk_ctx *ctx, bench_fire fire, const void *arg, int sets, long count, double *secs) {
    const double t0 = now_s();
    for (long k = 0; k < count; k++)
        if (fire(arg, (int)(k % sets))) return -1;
    if (crk_synchronize(ctx) != CRK_OK) return fail_gpu("synchronize after the timed launches");
    *secs = now_s() - t0;
    return 0;
}

int bench_measure(crk_ctx *ctx, bench_fire fire, const void *arg, int sets, bench_meas *m) {
    double t;
    if (timed_batch(ctx, fire, arg, sets, 3, &t)) return -1; /* warm-up */
    long count = 4;
    for (;;) { /* calibrate: one batch of >= MIN_SAMPLE_S */
        if (timed_batch(ctx, fire, arg, sets, count, &t)) return -1;
        if (t >= MIN_SAMPLE_S || count >= MAX_LAUNCHES) break;
        const double want = count * (1.25 * MIN_SAMPLE_S) / (t > 1e-6 ? t : 1e-6);
        count = want > (double)MAX_LAUNCHES ? MAX_LAUNCHES : (long)want + 1;
    }
    double ms[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
        if (timed_batch(ctx, fire, arg, sets, count, &t)) return -1;
        ms[s] = 1e3 * t / (double)count;
    }
    qsort(ms, SAMPLES, sizeof ms[0], cmp_double);
    m->ms = ms[SAMPLES / 2], m->min_ms = ms[0], m->max_ms = ms[SAMPLES - 1], m->launches = count;
    return 0;
}

/* One shape of a prepared row, as bench_measure fires it. */
typedef struct {
    const bench_state *S;
    const bench_prep *P;
    int shape;
} shape_fire;
static int fire_shape(const void *arg, int set) {
    const shape_fire *f = arg;
    return launch(f->S, f->P, f->shape, set);
}
static int measure(const bench_state *S, const bench_prep *P, int shape, bench_meas *m) {
    const shape_fire f = {S, P, shape};
    return bench_measure(S->ctx, fire_shape, &f, S->sets, m);
}

/* ------------------------------------------------------------ per size */
static void free_state(bench_state *S) {
    for (int p = 0; p < P_COUNT; p++) {
        for (int s = 0; s < MAX_SETS; s++)
            if (S->dev[p][s]) crk_free(S->ctx, S->dev[p][s]), S->dev[p][s] = NULL;
        free(S->host[p]), S->host[p] = NULL;
    }
    for (int s = 0; s < MAX_SETS; s++)
        if (S->out[s]) crk_free(S->ctx, S->out[s]), S->out[s] = NULL;
}

static int wanted(const op_def *op, int lay, const char *ops) {
    if (!(op->layouts & (1u << lay))) return 0;
    if (op_selected(op, ops)) return 1;
    return !strcmp(op->op, "copy") && lay == LAY_CONTIG; /* the reference always runs */
}

/* Why Candle's kernel cannot run this cell, or NULL. */
static const char *peer_unavailable(const bench_state *S, bench_prep *P, char *why, size_t cap) {
    if (!peer) return peer_off;
    if (!P->ki->upstream) return "not a Candle kernel";
    if ((uint64_t)op_out_extent(S, P->op) >= ((uint64_t)1 << 32)) return "n >= 2^32 (Candle indexes with 32 bits)";
    if (P->op->family == F_MMVQ) { /* the static library's kernels: through its launcher */
        char l[96];
        snprintf(l, sizeof l, "launch_%.*s", (int)(strstr(P->ki->name, "_cuda") - P->ki->name), P->ki->name);
        return (P->peer_fn = candle_peer_launcher(peer, l, why, cap)) ? NULL : why;
    }
    if (!(P->peer_fn = candle_peer_function(peer, P->ki->module, P->ki->name, why, cap))) return why;
    return NULL;
}

/* Verifies and times one shape of a row; returns the meas state. */
static int run_shape(const bench_state *S, bench_prep *P, int shape, bench_row *row, uint64_t *rng) {
    bench_meas *m = &row->m[shape];
    char why[300];
    const char *na = shape != SHAPE_CRK && P->shape_na ? P->shape_na /* Candle's launch cannot run it */
                     : shape == SHAPE_PEER             ? peer_unavailable(S, P, why, sizeof why)
                                                       : NULL;
    if (na) {
        printf("  %-14s %-13s %-13s n/a (%s)\n", row->op, row->label, bench_shape_names[shape], na);
        return -3;
    }
    const int v = verify(S, P, shape, rng);
    if (v > 0) printf("%s: not timing %s (%s, %s shape): its results are WRONG\n", shape == SHAPE_PEER ? "WARNING" : "ERROR",
                      P->op->kernel, row->label, bench_shape_names[shape]);
    if (v) return v < 0 ? -2 : -1;
    if (measure(S, P, shape, m)) return -2;
    printf("  %-14s %-13s %-13s %9.4f ms  %8.1f GB/s  (%ld launches x %d)\n", row->op, row->label,
           bench_shape_names[shape], m->ms, row->bytes / (m->ms * 1e6), m->launches, SAMPLES);
    fflush(stdout);
    return 1;
}

/* Every shape of one prepared row. */
static void run_shapes(const bench_state *S, bench_prep *P, bench_row *row, bench_report *R, uint64_t *rng) {
    for (int shape = 0; shape < SHAPE_COUNT; shape++) {
        const int st = row->m[shape].state = run_shape(S, P, shape, row, rng);
        if (shape != SHAPE_PEER && st < 0 && st != -3) R->failed = 1;
        if (shape == SHAPE_PEER && st == -2) { /* its context may be broken: stop using it */
            printf("ERROR: Candle's kernels disabled for the rest of the run\n");
            candle_peer_close(peer), peer = NULL, peer_off = "disabled after a GPU error";
        }
    }
}

static int alloc_inputs(bench_state *S, int log2n, const char *ops) {
    int need[P_COUNT] = {0};
    for (size_t k = 0; k < bench_nops; k++)
        for (int lay = 0; lay < LAY_COUNT; lay++)
            if (wanted(&bench_ops[k], lay, ops))
                for (int i = 0; i < 3; i++)
                    if (bench_ops[k].pool[i] >= 0) need[bench_ops[k].pool[i]] = 1;
    for (int p = 0; p < P_COUNT; p++) {
        if (!need[p]) continue;
        const size_t bytes = S->n * crk_dtype_size(bench_pool_dtype[p]);
        if (!(S->host[p] = malloc(bytes))) return printf("ERROR: out of host memory\n"), -1;
        for (int s = S->sets - 1; s >= 0; s--) { /* set 0 last: the host copy keeps its data */
            fill_pool(p, S->host[p], S->n, ((uint64_t)log2n << 16) ^ ((uint64_t)p << 8) ^ (uint64_t)s);
            if (crk_malloc(S->ctx, &S->dev[p][s], bytes) != CRK_OK) return fail_gpu("crk_malloc (input)");
            if (crk_memcpy_htod(S->ctx, S->dev[p][s], S->host[p], bytes) != CRK_OK) return fail_gpu("htod");
        }
    }
    return 0;
}

static int run_size(bench_state *S, int log2n, const char *ops, bench_report *R, uint64_t *rng) {
    S->n = (size_t)1 << log2n;
    S->rows = (size_t)1 << (log2n / 2), S->cols = S->n / S->rows, S->pitch = S->cols + PITCH_PAD;
    const size_t in_bytes = S->n * 4;
    S->sets = (int)((ROTATE_BYTES + in_bytes - 1) / in_bytes);
    if (S->sets < 1) S->sets = 1;
    if (S->sets > MAX_SETS) S->sets = MAX_SETS;
    printf("n = 2^%d = %zu (%zu x %zu), %d buffer set%s rotated\n", log2n, S->n, S->rows, S->cols, S->sets,
           S->sets > 1 ? "s" : "");
    fflush(stdout);
    if (alloc_inputs(S, log2n, ops)) return -1;
    S->out_bytes = (S->rows * S->pitch) * 4; /* the widest output: f32, pitched rows */
    for (int s = 0; s < S->sets; s++)
        if (crk_malloc(S->ctx, &S->out[s], S->out_bytes) != CRK_OK) return fail_gpu("crk_malloc (output)");

    for (size_t k = 0; k < bench_nops; k++) {
        const op_def *op = &bench_ops[k];
        for (int lay = 0; lay < LAY_COUNT; lay++) {
            if (!wanted(op, lay, ops)) continue;
            bench_row *row = &R->rows[R->nrows++];
            memset(row, 0, sizeof *row);
            row->op = op->op, row->kernel = op->kernel, row->dtype = op->dtype, row->layout = lay;
            row->label = bench_layout_names[lay];
            row->log2n = log2n, row->n = S->n, row->rows = S->rows, row->cols = S->cols;
            row->bytes = op_bytes(S, op, lay), row->samples = SAMPLES, row->rotate = S->sets;
            bench_prep P;
            if (prep_make(S, op, lay, &P)) {
                prep_free(S, &P);
                row->m[SHAPE_CRK].state = row->m[SHAPE_CANDLE].state = -2, R->failed = 1;
                continue;
            }
            run_shapes(S, &P, row, R, rng);
            prep_free(S, &P);
        }
    }
    free_state(S);
    return 0;
}

/* The indexing rows (index.c): each selected op at its cases' shapes. */
static void run_index(bench_state *S, const char *ops, int tiny, bench_report *R, uint64_t *rng) {
    S->ix_src_op = -1;
    for (size_t k = 0; k < bench_nops; k++) {
        const op_def *op = &bench_ops[k];
        size_t nc = 0;
        const idx_case *cs = index_cases(op, tiny, &nc);
        if (!nc || !op_selected(op, ops)) continue;
        for (size_t i = 0; i < nc; i++) {
            bench_row *row = &R->rows[R->nrows++];
            memset(row, 0, sizeof *row);
            row->op = op->op, row->kernel = op->kernel, row->dtype = op->dtype, row->layout = LAY_CONTIG;
            row->label = cs[i].label, row->bytes = index_bytes(op, &cs[i]), row->samples = SAMPLES;
            index_describe(op, &cs[i], row->shape, sizeof row->shape);
            bench_prep P;
            if (index_prep(S, op, &cs[i], &P, (int)k)) {
                prep_free(S, &P);
                index_free(S, 0);
                row->m[SHAPE_CRK].state = row->m[SHAPE_CANDLE].state = -2, R->failed = 1;
                continue;
            }
            row->n = S->n, row->rotate = S->sets;
            printf("%s %s %s: %s; %d buffer set%s rotated\n", op->op, op->kernel, cs[i].label, row->shape, S->sets,
                   S->sets > 1 ? "s" : "");
            fflush(stdout);
            run_shapes(S, &P, row, R, rng);
            prep_free(S, &P);
            index_free(S, 0);
            row->copy_gbps = copy_same_bytes(S->ctx, row->bytes); /* after the row's buffers are freed */
        }
    }
    index_free(S, 1);
}

/* ------------------------------------------------------------ main */
static int mkdirs(const char *path) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

/* `rel` from the working directory, else relative to the executable's directory/.. */
static const char *find_file(const char *argv0, const char *rel, char *buf, size_t cap) {
    if (!access(rel, R_OK)) return rel;
    const char *slash = strrchr(argv0, '/');
    if (slash) {
        snprintf(buf, cap, "%.*s/../%s", (int)(slash - argv0), argv0, rel);
        if (!access(buf, R_OK)) return buf;
    }
    return NULL;
}

/* Opens Candle's cubins: --candle-dir, else peers/candle-0.11-sm90 next to the binary. */
static void open_peer(crk_ctx *ctx, const char *argv0, const char *dir, int device, bench_report *R) {
    char buf[600], why[300];
    if (!dir) {
        const char *slash = strrchr(argv0, '/');
        snprintf(buf, sizeof buf, "%.*s/peers/candle-0.11-sm90", slash ? (int)(slash - argv0) : 1, slash ? argv0 : ".");
        if (access(buf, R_OK)) {
            snprintf(R->candle_info, sizeof R->candle_info, "unavailable (no --candle-dir, no %s)", buf);
            return;
        }
        dir = buf;
    } else if (access(dir, R_OK)) {
        snprintf(R->candle_info, sizeof R->candle_info, "unavailable (--candle-dir %s: %s)", dir, strerror(errno));
        return;
    }
    if (!(peer = candle_peer_open(ctx, dir, device, why, sizeof why)))
        snprintf(R->candle_info, sizeof R->candle_info, "unavailable (%s)", why);
    else snprintf(R->candle_info, sizeof R->candle_info, "Candle's kernels from %s/<module>.cubin", dir);
}

static int usage(FILE *f, int rc) {
    fprintf(f, "usage: bench [--sizes 24,28] [--ops copy,exp,gelu,silu,gelu_bf16,cast_f32_bf16,cast_bf16_f32,\n"
                    "              cast_f32_f16,cast_f16_f32,cast_f32_u8,affine,where,add,mul,maximum_bf16,lt,\n"
                    "              const_set,copy2d,copy2d_bf16,embedding,gather,scatter_add,index_add,argsort,\n"
                    "              softmax,rmsnorm,layernorm,sum,max,argmax,rope,im2col1d,im2col,max_pool2d,\n"
                    "              avg_pool2d,upsample_nearest2d,upsample_bilinear2d,conv1d,conv2d,\n"
                    "              dequantize,get_rows,mmvq]\n"
                    "             [--out DIR] [--device N]\n"
                    "             [--source embedded|dir|bundle] [--path P] [--candle-dir DIR] [--no-candle]\n"
                    "             [--no-torch] [--no-plot]\n");
    return rc;
}

int main(int argc, char **argv) {
    const char *sizes = "24,28", *ops = NULL, *out_dir = "build/bench-results", *candle_dir = NULL;
    int torch = 1, plot = 1, candle = 1, tiny = 0;
    crk_options opt = {0, CRK_SOURCE_EMBEDDED, NULL};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return usage(stdout, 0);
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) sizes = argv[++i];
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc) ops = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out_dir = argv[++i];
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) opt.device = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--path") && i + 1 < argc) opt.path = argv[++i];
        else if (!strcmp(argv[i], "--candle-dir") && i + 1 < argc) candle_dir = argv[++i];
        else if (!strcmp(argv[i], "--no-candle")) candle = 0;
        else if (!strcmp(argv[i], "--no-torch")) torch = 0;
        else if (!strcmp(argv[i], "--no-plot")) plot = 0;
        else if (!strcmp(argv[i], "--tiny-index")) tiny = 1; /* undocumented: small indexing shapes (emulator) */
        else if (!strcmp(argv[i], "--source") && i + 1 < argc) {
            const char *s = argv[++i];
            if (!strcmp(s, "dir")) opt.source = CRK_SOURCE_DIR;
            else if (!strcmp(s, "bundle")) opt.source = CRK_SOURCE_BUNDLE;
            else if (!strcmp(s, "embedded")) opt.source = CRK_SOURCE_EMBEDDED;
            else return usage(stderr, 2);
        } else return usage(stderr, 2);
    }
    int log2s[16], nsizes = 0;
    for (const char *p = sizes; *p && nsizes < 16;) {
        char *e;
        const long v = strtol(p, &e, 10);
        if (e == p || v < 12 || v > 34) return fprintf(stderr, "bench: sizes are log2 element counts, 12..34\n"), 2;
        log2s[nsizes++] = (int)v;
        p = *e == ',' ? e + 1 : e;
        if (*e && *e != ',') return usage(stderr, 2);
    }
    if (ops)
        for (const char *p = ops; *p;) { /* reject unknown names */
            const char *e = strchr(p, ',');
            const size_t len = e ? (size_t)(e - p) : strlen(p);
            if (!op_name_known(p, len)) return fprintf(stderr, "bench: unknown op '%.*s'\n", (int)len, p), usage(stderr, 2);
            p += len + (e ? 1 : 0);
        }

    crk_ctx *ctx = NULL;
    const crk_status st = crk_open(&ctx, &opt);
    if (st != CRK_OK) {
        if (st == CRK_E_NO_DEVICE) return printf("skipped: no GPU (%s)\n", crk_last_error()), 0;
        return printf("ERROR: crk_open: %s: %s\n", crk_status_name(st), crk_last_error()), 1;
    }
    bench_report R;
    memset(&R, 0, sizeof R);
    snprintf(R.device, sizeof R.device, "%s (%s, code object %s)", crk_device_name(ctx), crk_device_target(ctx),
             crk_code_object_target(ctx));
    printf("device: %s\n", R.device);
    if (candle) open_peer(ctx, argv[0], candle_dir, opt.device, &R);
    else snprintf(R.candle_info, sizeof R.candle_info, "unavailable (--no-candle)");
    printf("candle: %s\n", R.candle_info);
    R.rows = calloc((size_t)nsizes * bench_nops * LAY_COUNT + bench_nops * 8, sizeof *R.rows); /* + indexing cases */
    if (!R.rows) return printf("ERROR: out of memory\n"), 1;

    bench_state S;
    memset(&S, 0, sizeof S);
    S.ctx = ctx;
    uint64_t rng = 0x853C49E6748FEA9BULL;
    int k = 0;
    for (; k < nsizes; k++)
        if (run_size(&S, log2s[k], ops, &R, &rng)) {
            free_state(&S);
            R.failed = 1;
            break;
        }
    if (k == nsizes) run_index(&S, ops, tiny, &R, &rng);
    candle_peer_close(peer), peer = NULL;

    char buf[1024], path[1200];
    if (torch) {
        const char *python = getenv("PYTHON") ? getenv("PYTHON") : "python3";
        const char *script = find_file(argv[0], "bench/torch_peer.py", buf, sizeof buf);
        if (!script) snprintf(R.torch_info, sizeof R.torch_info, "unavailable (bench/torch_peer.py not found)");
        else peer_run(&R, python, script, sizes, ops, tiny);
    } else snprintf(R.torch_info, sizeof R.torch_info, "unavailable (--no-torch)");
    printf("torch: %s\n", R.torch_info);

    report_derive(&R);
    if (mkdirs(out_dir)) printf("ERROR: cannot create %s: %s\n", out_dir, strerror(errno)), R.failed = 1;
    snprintf(path, sizeof path, "%s/results.json", out_dir);
    if (report_write_json(&R, path)) R.failed = 1;
    char json_path[1200];
    snprintf(json_path, sizeof json_path, "%s", path);
    snprintf(path, sizeof path, "%s/results.csv", out_dir);
    if (report_write_csv(&R, path)) R.failed = 1;
    printf("wrote %s, %s\n", json_path, path);
    if (plot) {
        const char *python = getenv("PYTHON") ? getenv("PYTHON") : "python3";
        const char *script = find_file(argv[0], "scripts/bench_plot.py", buf, sizeof buf);
        if (!script) printf("plot: scripts/bench_plot.py not found (CSV only)\n");
        else {
            char cmd[4096];
            snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s/bench.png'", python, script, json_path, out_dir);
            fflush(stdout);
            if (system(cmd) != 0) printf("plot: failed (CSV only)\n");
        }
    }
    report_print_table(&R);
    crk_close(ctx);
    free(R.rows);
    return R.failed ? 1 : 0;
}
