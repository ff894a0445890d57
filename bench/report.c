/* report.c — derived numbers, results.json, results.csv and the final table. */
#include "bench.h"
#include <stdio.h>
#include <string.h>

/* Field prefixes of the shapes in JSON and CSV ("ours_" kept for the crk shape). */
static const char *const PREFIX[SHAPE_COUNT] = {"ours_", "candle_shape_", "candle_kernel_"};

static double gbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : -1.0; }
static double ratio(double a, double b) { return a > 0 && b > 0 ? a / b : -1; }

/* Copy bandwidth at size log2n: PyTorch's contiguous copy_ if it ran, else
 * ours. log2n 0 (the indexing rows' fixed shapes): the largest size run. */
static double copy_ref(const bench_report *r, int log2n, int *from_torch) {
    double ours = -1, theirs = -1;
    const int fixed = !log2n;
    for (size_t i = 0; fixed && i < r->nrows; i++) /* every row: the sizes run in the order given */
        if (r->rows[i].log2n > log2n && !strcmp(r->rows[i].op, "copy")) log2n = r->rows[i].log2n;
    for (size_t i = 0; i < r->nrows; i++) {
        const bench_row *w = &r->rows[i];
        if (w->log2n != log2n || w->layout != LAY_CONTIG || strcmp(w->op, "copy")) continue;
        if (w->m[SHAPE_CRK].state == 1) ours = w->m[SHAPE_CRK].gbps;
        if (w->torch_state == 1) theirs = w->torch_gbps;
    }
    *from_torch = theirs > 0;
    return theirs > 0 ? theirs : ours;
}

void report_derive(bench_report *r) {
    for (size_t i = 0; i < r->nrows; i++) {
        bench_row *w = &r->rows[i];
        for (int s = 0; s < SHAPE_COUNT; s++) w->m[s].gbps = w->m[s].state == 1 ? gbps(w->bytes, w->m[s].ms) : -1;
        w->torch_gbps = w->torch_state == 1 ? gbps(w->bytes, w->torch_ms) : -1;
    }
    int any_torch = 0, any_ours = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        bench_row *w = &r->rows[i];
        int from_torch = 0;
        const double ref = copy_ref(r, w->log2n, &from_torch);
        any_torch |= from_torch, any_ours |= !from_torch && ref > 0;
        for (int s = 0; s < SHAPE_COUNT; s++) {
            const double p = ratio(w->m[s].gbps, ref);
            w->m[s].pct_copy = p > 0 ? 100.0 * p : -1;
        }
        const double same = ratio(w->m[SHAPE_CRK].gbps, w->copy_gbps);
        w->pct_copy_same = same > 0 ? 100.0 * same : -1;
        w->ratio = ratio(w->m[SHAPE_CRK].gbps, w->torch_gbps);
        w->ratio_candle = ratio(w->m[SHAPE_CANDLE].gbps, w->m[SHAPE_PEER].gbps);
    }
    r->copy_ref = any_torch && any_ours ? "torch copy_ (contiguous f32) where it ran, else crk ucopy_f32 (contiguous)"
                  : any_torch           ? "torch copy_ (contiguous f32, same n)"
                  : any_ours            ? "crk ucopy_f32 (contiguous, same n)"
                                        : "none";
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else fputc(*s, f);
    }
    fputc('"', f);
}
static void json_num(FILE *f, double v) {
    if (v < 0) fputs("null", f);
    else fprintf(f, "%.6g", v);
}
/* `lead` "key": value */
static void json_kstr(FILE *f, const char *lead, const char *key, const char *v) {
    fprintf(f, "%s\"%s\": ", lead, key);
    json_str(f, v);
}
static void json_knum(FILE *f, const char *lead, const char *pre, const char *key, double v) {
    fprintf(f, "%s\"%s%s\": ", lead, pre, key);
    json_num(f, v);
}
static const char *state_name(int s) {
    return s == 1 ? "ok" : s == -1 ? "WRONG" : s == -2 ? "error" : s == -3 ? "unavailable" : "not run";
}

/* "<prefix>status", ms, min, max, GB/s, %copy and launches of one shape. */
static void json_meas(FILE *f, const char *pre, const bench_meas *m) {
    const int ok = m->state == 1;
    fprintf(f, "     \"%sstatus\": \"%s\"", pre, state_name(m->state));
    json_knum(f, ", ", pre, "ms", ok ? m->ms : -1);
    json_knum(f, ", ", pre, "min_ms", ok ? m->min_ms : -1);
    json_knum(f, ", ", pre, "max_ms", ok ? m->max_ms : -1);
    json_knum(f, ", ", pre, "gbps", m->gbps);
    json_knum(f, ", ", pre, "pct_of_copy", m->pct_copy);
    fprintf(f, ", \"%slaunches_per_sample\": %ld,\n", pre, ok ? m->launches : 0L);
}

int report_write_json(const bench_report *r, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return printf("ERROR: cannot write %s\n", path), -1;
    json_kstr(f, "{\n  ", "device", r->device);
    json_kstr(f, ",\n  ", "torch", r->torch_info);
    json_kstr(f, ",\n  ", "candle", r->candle_info);
    json_kstr(f, ",\n  ", "copy_reference", r->copy_ref);
    fprintf(f, ",\n  \"shapes\": {\"ours\": \"libcrk helpers\", \"candle_shape\": \"our kernels, the driver's launch with "
               "1024 threads x ceil(n/1024) blocks, info uploaded once\", \"candle_kernel\": \"Candle's cubin, same "
               "shape and arguments\"},\n");
    fprintf(f, "  \"timing\": \"host clock over N back-to-back launches + synchronize, N so a sample >= 20 ms, "
               "median of 15 samples\",\n  \"rows\": [\n");
    for (size_t i = 0; i < r->nrows; i++) {
        const bench_row *w = &r->rows[i];
        json_kstr(f, "    {", "op", w->op);
        json_kstr(f, ", ", "kernel", w->kernel);
        json_kstr(f, ", ", "dtype", w->dtype);
        json_kstr(f, ", ", "layout", w->label);
        if (w->shape[0]) json_kstr(f, ", ", "shape", w->shape); /* indexing rows */
        fprintf(f, ", \"log2n\": %d, \"n\": %zu, \"rows\": %zu, \"cols\": %zu, \"bytes\": %.0f,\n", w->log2n, w->n,
                w->rows, w->cols, w->bytes);
        for (int s = 0; s < SHAPE_COUNT; s++) json_meas(f, PREFIX[s], &w->m[s]);
        fprintf(f, "     \"samples\": %d, \"buffer_sets\": %d", w->samples, w->rotate);
        json_knum(f, ", ", "", "pct_of_copy", w->m[SHAPE_CRK].pct_copy);
        json_knum(f, ", ", "", "same_bytes_copy_gbps", w->copy_gbps > 0 ? w->copy_gbps : -1);
        json_knum(f, ", ", "", "pct_of_same_bytes_copy", w->pct_copy_same);
        json_knum(f, ", ", "", "torch_ms", w->torch_state == 1 ? w->torch_ms : -1);
        json_knum(f, ", ", "", "torch_gbps", w->torch_gbps);
        if (w->torch_state == 1) json_kstr(f, ", ", "torch_op", w->torch_op);
        else fputs(", \"torch_op\": null", f);
        json_knum(f, ", ", "", "ours_over_torch", w->ratio);
        json_knum(f, ", ", "", "candle_shape_over_candle_kernel", w->ratio_candle);
        fprintf(f, "}%s\n", i + 1 < r->nrows ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return fclose(f) ? -1 : 0;
}

static void csv_num(FILE *f, double v) {
    if (v >= 0) fprintf(f, "%.6g", v);
    fputc(',', f);
}

int report_write_csv(const bench_report *r, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return printf("ERROR: cannot write %s\n", path), -1;
    fprintf(f, "op,kernel,dtype,layout,log2n,n,bytes,");
    for (int s = 0; s < SHAPE_COUNT; s++)
        fprintf(f, "%sstatus,%sms,%sgbps,%spct_of_copy,", PREFIX[s], PREFIX[s], PREFIX[s], PREFIX[s]);
    fprintf(f, "same_bytes_copy_gbps,pct_of_same_bytes_copy,torch_ms,torch_gbps,ours_over_torch,"
               "candle_shape_over_candle_kernel,torch_op\n");
    for (size_t i = 0; i < r->nrows; i++) {
        const bench_row *w = &r->rows[i];
        fprintf(f, "%s,%s,%s,%s,%d,%zu,%.0f,", w->op, w->kernel, w->dtype, w->label, w->log2n,
                w->n, w->bytes);
        for (int s = 0; s < SHAPE_COUNT; s++) {
            fprintf(f, "%s,", state_name(w->m[s].state));
            csv_num(f, w->m[s].state == 1 ? w->m[s].ms : -1);
            csv_num(f, w->m[s].gbps);
            csv_num(f, w->m[s].pct_copy);
        }
        csv_num(f, w->copy_gbps > 0 ? w->copy_gbps : -1);
        csv_num(f, w->pct_copy_same);
        csv_num(f, w->torch_state == 1 ? w->torch_ms : -1);
        csv_num(f, w->torch_gbps);
        csv_num(f, w->ratio);
        csv_num(f, w->ratio_candle);
        fputc('"', f);
        for (const char *s = w->torch_state == 1 ? w->torch_op : ""; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputs("\"\n", f);
    }
    return fclose(f) ? -1 : 0;
}

static void cell(char *buf, size_t cap, const char *fmt, double v) {
    if (v >= 0) snprintf(buf, cap, fmt, v);
    else snprintf(buf, cap, "-");
}
/* GB/s of a shape, or why there is none. */
static void gbps_cell(char *buf, size_t cap, const bench_meas *m) {
    if (m->state == 1) cell(buf, cap, "%.1f", m->gbps);
    else snprintf(buf, cap, "%s", m->state == -3 ? "n/a" : m->state == 0 ? "-" : state_name(m->state));
}

void report_print_table(const bench_report *r) {
    printf("\n== crk vs Candle's kernels vs PyTorch, %s\n", r->device);
    printf("   GB/s = (unique bytes read + bytes written) / median time; %%copy vs %s\n", r->copy_ref);
    printf("   crk = libcrk's helpers; cshape = our kernels in Candle's launch (1024 x ceil(n/1024), info cached)\n");
    for (size_t i = 0; i < r->nrows; i++)
        if (!r->rows[i].log2n) { /* once, if there are indexing rows */
            printf("   indexing rows (n -): fixed shapes, layout = case (results.json 'shape'), bytes = ids + elements\n"
                   "   read + written, dtype = ids:T (argsort: rows x cols, bytes = 4 read + 4 written per element); %%copy\n"
                   "   vs the largest size's copy, %%cp= vs a copy of the row's own bytes (ucopy_f32, same run)\n");
            break;
        }
    printf("   candle: %s\n   torch: %s\n", r->candle_info, r->torch_info);
    const char *fmt = "%-13s %-10s %-13s %-4s %9s %6s %6s %9s %6s %9s %9s %10s %9s\n";
    printf(fmt, "op", "dtype", "layout", "n", "crk GB/s", "%copy", "%cp=", "cshp GB/s", "%copy", "cndl GB/s",
           "cshp/cndl", "torch GB/s", "crk/torch");
    for (size_t i = 0; i < r->nrows; i++) {
        const bench_row *w = &r->rows[i];
        char n[16], a[24], b[24], q[24], c[24], d[24], e[24], g[24], h[24], k[24];
        if (w->log2n) snprintf(n, sizeof n, "2^%d", w->log2n);
        else snprintf(n, sizeof n, "-"); /* indexing: the layout column names the case */
        gbps_cell(a, sizeof a, &w->m[SHAPE_CRK]);
        cell(b, sizeof b, "%.1f", w->m[SHAPE_CRK].pct_copy);
        cell(q, sizeof q, "%.1f", w->pct_copy_same);
        gbps_cell(c, sizeof c, &w->m[SHAPE_CANDLE]);
        cell(d, sizeof d, "%.1f", w->m[SHAPE_CANDLE].pct_copy);
        gbps_cell(e, sizeof e, &w->m[SHAPE_PEER]);
        cell(g, sizeof g, "%.3f", w->ratio_candle);
        cell(h, sizeof h, "%.1f", w->torch_gbps);
        cell(k, sizeof k, "%.3f", w->ratio);
        printf(fmt, w->op, w->dtype, w->label, n, a, b, q, c, d, e, g, h, k);
    }
    if (r->failed) printf("\nbench: FAILED (wrong results or GPU errors above)\n");
}
