/* bench.h — shared declarations of the bandwidth benchmark (bench/README.md). */
#ifndef CRK_BENCH_H
#define CRK_BENCH_H

#include <crk.h>
#include <stddef.h>

enum { LAY_CONTIG, LAY_STRIDED, LAY_BCAST, LAY_COUNT };
extern const char *const bench_layout_names[LAY_COUNT];

/* One measured (op, layout, size) cell: ours and the PyTorch peer's. */
typedef struct {
    const char *op;      /* bench name: "exp", "cast_f32_bf16", ...            */
    const char *kernel;  /* crk kernel: "uexp_f32"                            */
    const char *dtype;   /* "f32", "f32->bf16", "u8?f32:f32"                   */
    int layout;
    int log2n;
    size_t n, rows, cols;
    double bytes;        /* unique bytes read + bytes written                 */
    /* ours */
    int ours_state;      /* 0 not run, 1 ok, -1 wrong result, -2 launch error  */
    double ours_ms;      /* median per launch                                 */
    double ours_min_ms, ours_max_ms;
    long launches;       /* launches per timed sample                         */
    int samples;
    int rotate;          /* input/output sets rotated over                    */
    /* PyTorch peer */
    int torch_state;     /* 0 none, 1 ok                                      */
    double torch_ms;
    char torch_op[96];
    /* derived */
    double ours_gbps, torch_gbps, pct_copy, ratio; /* < 0: unavailable */
} bench_row;

typedef struct {
    char device[256];
    char torch_info[256]; /* "torch 2.x on NVIDIA H100 ..., timer do_bench" or why unavailable */
    const char *copy_ref; /* "torch copy_" or "crk ucopy_f32 (contiguous)"           */
    bench_row *rows;
    size_t nrows;
    int failed;
} bench_report;

/* report.c */
void report_derive(bench_report *r);
int report_write_json(const bench_report *r, const char *path);
int report_write_csv(const bench_report *r, const char *path);
void report_print_table(const bench_report *r);

/* peer.c: runs the PyTorch peer and merges its lines into the rows. */
void peer_run(bench_report *r, const char *python, const char *script, const char *sizes, const char *ops);

#endif
