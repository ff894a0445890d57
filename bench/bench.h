/* bench.h — shared declarations of the bandwidth benchmark (bench/README.md). */
#ifndef CRK_BENCH_H
#define CRK_BENCH_H

#include <crk.h>
#include <stddef.h>

/* Layouts of an R x C problem (ops.c says which operand takes which). */
enum { LAY_CONTIG, LAY_STRIDED, LAY_BCAST, LAY_BCAST_COL, LAY_PITCHED, LAY_COUNT };
extern const char *const bench_layout_names[LAY_COUNT];

/* How a kernel is launched: libcrk's helpers, Candle's for_num_elems shape
 * through crk_launch, and Candle's own kernel (cubin) in Candle's shape. */
enum { SHAPE_CRK, SHAPE_CANDLE, SHAPE_PEER, SHAPE_COUNT };
extern const char *const bench_shape_names[SHAPE_COUNT];

#define MAX_SETS 8
#define ROTATE_BYTES (256u << 20) /* rotate sets until this many bytes a launch set (L2 is 50 MB) */
#define PITCH_PAD 64 /* copy2d: dst row stride = C + PITCH_PAD (a kv-cache append) */

/* Input pools: random data, one buffer per rotated set. */
enum { P_F32, P_F32B, P_F32POS, P_BF16, P_BF16B, P_F16, P_U8, P_COUNT };
extern const crk_dtype bench_pool_dtype[P_COUNT];

enum { F_UNARY, F_AFFINE, F_CAST, F_WHERE, F_BINARY, F_CONST_SET, F_COPY2D,
       F_INDEX_SELECT, F_GATHER, F_INDEX_ADD, F_SCATTER_ADD, /* F_INDEX_*..: index.c */
       F_ARGSORT,                                            /* argsort.c, through index.c's entry points */
       F_SOFTMAX, F_NORM, F_FAST, F_ROPE,                    /* module reduce: reduce.c, likewise */
       F_IM2COL, F_POOL, F_UPSAMPLE, F_CONVD,                /* module conv: conv.c, likewise */
       F_DEQUANT, F_GET_ROWS, F_MMVQ };                      /* module quantized: quant.c, likewise */
#define IS_INDEX_FAMILY(f) ((f) >= F_INDEX_SELECT) /* fixed shapes, their own cases */
#define IS_REDUCE_FAMILY(f) ((f) >= F_SOFTMAX && (f) <= F_ROPE)
#define IS_CONV_FAMILY(f) ((f) >= F_IM2COL && (f) <= F_CONVD)
#define IS_QUANT_FAMILY(f) ((f) >= F_DEQUANT)

typedef struct {
    const char *op, *kernel, *dtype; /* bench name, crk/Candle kernel, label   */
    int family;
    int pool[3];                     /* input pools by role index, -1: none    */
    crk_dtype out_dt;
    unsigned layouts;                /* bit mask of the LAY_* measured (indexing: 0) */
} op_def;

extern const op_def bench_ops[];
extern const size_t bench_nops;

/* One problem size and its device buffers. */
typedef struct {
    crk_ctx *ctx;
    size_t n, rows, cols, pitch;
    int sets;                      /* input/output sets rotated over       */
    void *dev[P_COUNT][MAX_SETS];  /* input pools                          */
    void *host[P_COUNT];           /* host copy of set 0                   */
    void *out[MAX_SETS];           /* outputs, out_bytes each              */
    size_t out_bytes;
    /* indexing rows (index.c): the op's source, shared by its cases and
     * sets; each set's ids (set 0's kept on the host to check results) */
    void *ix_src;
    void *ix_ids[MAX_SETS];
    void *ix_ids_host;
    int ix_src_op;                 /* bench_ops index the source was made for, -1 */
    /* argsort rows (argsort.c): each set's x, and one workspace for all
     * sets (launches are serialised on the stream) */
    void *as_x[MAX_SETS];
    void *as_ws;
    size_t as_ws_bytes;
    /* reduce rows (reduce.c; x and outputs in as_x and out): alpha then
     * beta (norms) or cos then sin (rope), shared by the sets */
    void *rd_aux;
    /* MMVQ rows (quant.c): each set's weights (rotated past the L2), the
     * q8_1 columns (shared) and their host copy, to check results */
    void *q_w[MAX_SETS], *q_y, *q_y_host;
} bench_state;

/* ops.c */
int op_selected(const op_def *op, const char *list);        /* list NULL: all */
int op_name_known(const char *name, size_t len);
void op_layouts(const bench_state *S, const op_def *op, int lay, crk_layout in[3], crk_layout *out);
size_t layout_offset(const crk_layout *l, size_t i);         /* logical index -> element offset */
double op_bytes(const bench_state *S, const op_def *op, int lay);
size_t op_out_extent(const bench_state *S, const op_def *op); /* elements the output spans */
int op_scalars(const bench_state *S, const op_def *op, double sc[4]);
#define AFFINE_MUL 1.5
#define AFFINE_ADD -0.25
#define CONST_VALUE 1.5

/* One (op, layout) ready to launch: layouts, and for the raw shapes the
 * kernel arguments of each set, assembled from the registry's roles, with
 * the info buffer uploaded once (as Candle caches it). launch.c */
typedef struct {
    size_t numel, num_dims;
    const void *in[3];
    void *out;
    void *info;                   /* device pointer, or NULL (SlicePtrOrNull::Null) */
    unsigned char scalar[8][8];   /* index_add takes 5 */
    void *args[16];               /* point into this struct: never copy it */
    size_t sizes[16];
} raw_call;

typedef struct {
    const op_def *op;
    int lay;
    const crk_kernel_info *ki;
    crk_layout in_l[3], out_l;
    size_t work;                  /* elements Candle sizes the grid for   */
    void *info_dev;
    raw_call call[MAX_SETS];
    void *peer_fn;                /* Candle's CUfunction, NULL: none      */
    void *our_fn;                 /* our kernel's function, resolved at its first Candle-shape launch */
    const struct idx_case *ic;    /* indexing rows: the case, else NULL   */
    /* Candle's launch when it is not for_num_elems (argsort: a block per
     * row, shared memory); grid[0] 0: candle_grid(work), no shared memory */
    unsigned grid[3], block[3], shared;
    const char *shape_na;         /* why Candle's launch cannot run the row, or NULL */
} bench_prep;

int prep_make(const bench_state *S, const op_def *op, int lay, bench_prep *P);
int prep_assemble(const crk_kernel_info *ki, raw_call *c, const double *sc, int nsc);
void prep_free(const bench_state *S, bench_prep *P);
crk_status launch_crk(const bench_state *S, const bench_prep *P, int set);
crk_status launch_candle_shape(const bench_state *S, const bench_prep *P, int set);
void candle_grid(size_t work, unsigned grid[3], unsigned block[3]);
void prep_grid(const bench_prep *P, unsigned grid[3], unsigned block[3]); /* Candle's launch of P */

/* check.c */
void fill_pool(int pool, void *p, size_t n, uint64_t seed);
float bench_bf16_to_f32(uint16_t b);
uint16_t bench_f32_to_bf16(float f); /* round to nearest even, finite inputs */
uint16_t bench_f32_to_f16(float f);  /* round to nearest even, 0 or normal in f16's range */
uint64_t bench_mix(uint64_t x);      /* splitmix64's finalizer: data as a function of an index */
/* Element i of buf as a double: f32, bf16, f16, else u8. */
double bench_value(crk_dtype t, const void *buf, size_t i);
/* Element i of buf = v, rounded to t: bf16, f16 (0 or normal values), else f32. */
void bench_put(crk_dtype t, void *buf, size_t i, float v);
uint64_t bench_rand(uint64_t *s);
/* Checks the output element of logical index i (its bytes at got); 0 if right. */
int check_one(const bench_state *S, const bench_prep *P, size_t i, const void *got, const char *who);

/* index.c: the indexing rows, at fixed model-like shapes (not --sizes). A
 * case indexes a (left, dim_size, right) tensor along `dim` with n ids
 * (is/gather: the source, n rows out; ia/sa: dst, n rows of src in). */
/* A conv-module case (conv.c): src (b, c, h, w) (1-D: h = 1, w = the
 * length), weights (c_out, c, kh, kw) (1-D: kw), windows kh x kw, upsample
 * targets out_h x out_w. */
typedef struct conv_case {
    size_t b, c, h, w, c_out, kh, kw, stride, pad, dil, out_h, out_w;
} conv_case;
typedef struct idx_case {
    const char *label;  /* the table's layout column, e.g. "ids 1024" */
    size_t left, dim_size, n, right, dim;
    const conv_case *cv; /* module conv's rows: the case; else NULL */
} idx_case;
const idx_case *index_cases(const op_def *op, int tiny, size_t *count);
void index_describe(const op_def *op, const idx_case *c, char *buf, size_t cap); /* shapes, for JSON */
double index_bytes(const op_def *op, const idx_case *c); /* ids + elements read + written */
/* Uploads the source (once per op) and the case's ids and outputs, and
 * fills P as prep_make does; -1 (printed) on an error. */
int index_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P, int op_index);
void index_free(bench_state *S, int all); /* the case's buffers; all: the source too */
/* Before a checked launch: poisons the output (is/gather) or restores dst
 * (ia/sa) of set 0. After it: 0 right, 1 wrong, -1 GPU error. */
int index_reset(const bench_state *S, const bench_prep *P);
int index_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who);

/* argsort.c: the argsort rows, a case = rows x cols (left = rows,
 * dim_size = n = cols, right = 1, dim 1); index.c's functions call these
 * for F_ARGSORT, with the same contracts. */
const idx_case *argsort_cases(int tiny, size_t *count);
void argsort_describe(const op_def *op, const idx_case *c, char *buf, size_t cap);
double argsort_bytes(const idx_case *c); /* rows·cols·4 read + rows·cols·4 written */
int argsort_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P);
void argsort_free(bench_state *S);
int argsort_reset(const bench_state *S, const bench_prep *P);
int argsort_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who);

/* reduce.c: the rows of module reduce (softmax, rmsnorm/layernorm,
 * fast_sum/max/argmax over the last dim, rope), a case = rows x cols
 * (left = rows, dim_size = cols; rope: left = b·h, dim_size = t, n = d);
 * index.c's functions call these for IS_REDUCE_FAMILY, same contracts. */
const idx_case *reduce_cases(const op_def *op, int tiny, size_t *count);
void reduce_describe(const op_def *op, const idx_case *c, char *buf, size_t cap);
double reduce_bytes(const op_def *op, const idx_case *c); /* read once + written once */
int reduce_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P);
void reduce_free(bench_state *S);
int reduce_reset(const bench_state *S, const bench_prep *P);
int reduce_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who);
crk_status reduce_launch_crk(const bench_state *S, const bench_prep *P, int set);

/* conv.c: the rows of module conv (im2col, pool, upsample, direct conv),
 * a case = idx_case.cv; index.c's functions call these for
 * IS_CONV_FAMILY, same contracts. */
const idx_case *conv_cases(const op_def *op, int tiny, size_t *count);
void conv_describe(const op_def *op, const idx_case *c, char *buf, size_t cap);
double conv_bytes(const op_def *op, const idx_case *c); /* im2col: written; others: read once + written */
int conv_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P);
int conv_reset(const bench_state *S, const bench_prep *P);
int conv_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who);
crk_status conv_launch_crk(const bench_state *S, const bench_prep *P, int set);

/* quant.c: the rows of module quantized (dequantize_block_* of a weight
 * matrix: left = values; get_rows_* of an embedding table: dim_size =
 * rows, n = ids, right = hidden); index.c's functions call these for
 * IS_QUANT_FAMILY, same contracts. */
const idx_case *quant_cases(const op_def *op, int tiny, size_t *count);
void quant_describe(const op_def *op, const idx_case *c, char *buf, size_t cap);
double quant_bytes(const op_def *op, const idx_case *c); /* weights read + values written (get_rows: + ids) */
int quant_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P);
int quant_reset(const bench_state *S, const bench_prep *P);
int quant_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who);
crk_status quant_launch_crk(const bench_state *S, const bench_prep *P, int set);
/* MMVQ's peer: Candle's launch_mmvq_gguf_* (libcandle_mmvq.so); 0 or -1 */
int quant_launch_peer(const bench_state *S, const bench_prep *P, int set);
void quant_free(bench_state *S);

/* candle_peer.c: Candle's cubins through the CUDA driver, in libcrk's context. */
typedef struct candle_peer candle_peer;
candle_peer *candle_peer_open(crk_ctx *ctx, const char *dir, int device, char *why, size_t cap);
void *candle_peer_function(candle_peer *p, const char *module, const char *name, char *why, size_t cap);
int candle_peer_launch(candle_peer *p, void *fn, const unsigned grid[3], const unsigned block[3], unsigned shared,
                       void **args, char *why, size_t cap);
void candle_peer_close(candle_peer *p);
/* A host launcher of Candle's static library, from <dir>/libcandle_mmvq.so
 * (launch_mmvq_gguf_*: the fast_mmvq path), or NULL with why. */
void *candle_peer_launcher(candle_peer *p, const char *name, char *why, size_t cap);

/* One measured launch shape of a cell. */
typedef struct {
    int state;          /* 0 not run, 1 ok, -1 wrong result, -2 launch error, -3 unavailable */
    double ms, min_ms, max_ms; /* median, min, max per launch                          */
    long launches;      /* launches per timed sample                                      */
    double gbps, pct_copy; /* derived; < 0: unavailable                                  */
} bench_meas;

/* One measured (op, layout, size) cell: ours under both shapes, Candle's
 * kernel and the PyTorch peer. */
typedef struct {
    const char *op, *kernel, *dtype;
    int layout;
    const char *label;   /* layout column: the layout's name, or an indexing case's */
    char shape[160];     /* indexing rows: the tensors' shapes, else empty */
    int log2n;           /* indexing rows: 0 (fixed shapes)             */
    size_t n, rows, cols;
    double bytes;        /* unique bytes read + bytes written                 */
    bench_meas m[SHAPE_COUNT];
    int samples, rotate;
    int torch_state;     /* 0 none, 1 ok                                      */
    double torch_ms, torch_gbps;
    char torch_op[96];
    double ratio;        /* crk shape / torch, < 0: unavailable               */
    double ratio_candle; /* candle shape / Candle's kernel                    */
    double copy_gbps;    /* fixed shapes: a copy of the same bytes (copyref.c), else 0 */
    double pct_copy_same; /* crk shape against it, < 0: unavailable           */
} bench_row;

typedef struct {
    char device[256];
    char torch_info[256];  /* "torch 2.x on NVIDIA H100 ..., timer do_bench" or why unavailable */
    char candle_info[320]; /* "Candle's cubins from DIR" or why unavailable                  */
    const char *copy_ref;  /* "torch copy_" or "crk ucopy_f32 (contiguous)"                  */
    bench_row *rows;
    size_t nrows;
    int failed;
} bench_report;

/* bench.c: times fire(arg, set) over `sets` rotated sets: warm-up, N
 * launches a sample (>= 20 ms), the median of 15 samples per launch. 0, or
 * -1 with the error printed. */
typedef int (*bench_fire)(const void *arg, int set);
int bench_measure(crk_ctx *ctx, bench_fire fire, const void *arg, int sets, bench_meas *m);

/* copyref.c: the device's copy bandwidth (GB/s, read + written) for a
 * transfer of `bytes`, as a fixed-shape row moves them; -1 if it cannot be
 * measured (printed). Measured once a size. */
double copy_same_bytes(crk_ctx *ctx, double bytes);

/* report.c */
void report_derive(bench_report *r);
int report_write_json(const bench_report *r, const char *path);
int report_write_csv(const bench_report *r, const char *path);
void report_print_table(const bench_report *r);

/* peer.c: runs the PyTorch peer and merges its lines into the rows. */
void peer_run(bench_report *r, const char *python, const char *script, const char *sizes, const char *ops, int tiny);

#endif
