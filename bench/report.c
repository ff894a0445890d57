/* report.c — derived numbers, results.json, results.csv and the final table. */
#include "bench.h"
#include <stdio.h>
#include <string.h>

static double gbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : -1.0; }

/* Copy bandwidth at size log2n: PyTorch's contiguous copy_ if it ran, else ours. */
static double copy_ref(const bench_report *r, int log2n, int *from_torch) {
    double ours = -1, theirs = -1;
    for (size_t i = 0; i < r->nrows; i++) {
        const bench_row *w = &r->rows[i];
        if (w->log2n != log2n || w->layout != LAY_CONTIG || strcmp(w->op, "copy")) continue;
        if (w->ours_state == 1) ours = w->ours_gbps;
        if (w->torch_state == 1) theirs = w->torch_gbps;
    }
    *from_torch = theirs > 0;
    return theirs > 0 ? theirs : ours;
}

void report_derive(bench_report *r) {
    for (size_t i = 0; i < r->nrows; i++) {
        bench_row *w = &r->rows[i];
        w->ours_gbps = w->ours_state == 1 ? gbps(w->bytes, w->ours_ms) : -1;
        w->torch_gbps = w->torch_state == 1 ? gbps(w->bytes, w->torch_ms) : -1;
    }
    int any_torch = 0, any_ours = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        bench_row *w = &r->rows[i];
        int from_torch = 0;
        const double ref = copy_ref(r, w->log2n, &from_torch);
        any_torch |= from_torch, any_ours |= !from_torch && ref > 0;
        w->pct_copy = w->ours_gbps > 0 && ref > 0 ? 100.0 * w->ours_gbps / ref : -1;
        w->ratio = w->ours_gbps > 0 && w->torch_gbps > 0 ? w->ours_gbps / w->torch_gbps : -1;
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
static const char *state_name(int s) { return s == 1 ? "ok" : s == -1 ? "WRONG" : s == -2 ? "error" : "not run"; }

int report_write_json(const bench_report *r, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return printf("ERROR: cannot write %s\n", path), -1;
    fprintf(f, "{\n  \"device\": ");
    json_str(f, r->device);
    fprintf(f, ",\n  \"torch\": ");
    json_str(f, r->torch_info);
    fprintf(f, ",\n  \"copy_reference\": ");
    json_str(f, r->copy_ref);
    fprintf(f, ",\n  \"timing\": \"host clock over N back-to-back launches + synchronize, N so a sample >= 20 ms, "
               "median of 15 samples\",\n  \"rows\": [\n");
    for (size_t i = 0; i < r->nrows; i++) {
        const bench_row *w = &r->rows[i];
        fprintf(f, "    {\"op\": ");
        json_str(f, w->op);
        fprintf(f, ", \"kernel\": ");
        json_str(f, w->kernel);
        fprintf(f, ", \"dtype\": ");
        json_str(f, w->dtype);
        fprintf(f, ", \"layout\": \"%s\", \"log2n\": %d, \"n\": %zu, \"rows\": %zu, \"cols\": %zu, \"bytes\": %.0f,\n",
                bench_layout_names[w->layout], w->log2n, w->n, w->rows, w->cols, w->bytes);
        fprintf(f, "     \"ours_status\": \"%s\", \"ours_ms\": ", state_name(w->ours_state));
        json_num(f, w->ours_state == 1 ? w->ours_ms : -1);
        fprintf(f, ", \"ours_min_ms\": ");
        json_num(f, w->ours_state == 1 ? w->ours_min_ms : -1);
        fprintf(f, ", \"ours_max_ms\": ");
        json_num(f, w->ours_state == 1 ? w->ours_max_ms : -1);
        fprintf(f, ", \"ours_gbps\": ");
        json_num(f, w->ours_gbps);
        fprintf(f, ", \"launches_per_sample\": %ld, \"samples\": %d, \"buffer_sets\": %d,\n", w->launches, w->samples,
                w->rotate);
        fprintf(f, "     \"pct_of_copy\": ");
        json_num(f, w->pct_copy);
        fprintf(f, ", \"torch_ms\": ");
        json_num(f, w->torch_state == 1 ? w->torch_ms : -1);
        fprintf(f, ", \"torch_gbps\": ");
        json_num(f, w->torch_gbps);
        fprintf(f, ", \"torch_op\": ");
        if (w->torch_state == 1) json_str(f, w->torch_op);
        else fputs("null", f);
        fprintf(f, ", \"ours_over_torch\": ");
        json_num(f, w->ratio);
        fprintf(f, "}%s\n", i + 1 < r->nrows ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return fclose(f) ? -1 : 0;
}

static void csv_num(FILE *f, double v) {
    if (v >= 0) fprintf(f, "%.6g", v);
}

int report_write_csv(const bench_report *r, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return printf("ERROR: cannot write %s\n", path), -1;
    fprintf(f, "op,kernel,dtype,layout,log2n,n,bytes,ours_status,ours_ms,ours_gbps,pct_of_copy,torch_ms,torch_gbps,"
               "ours_over_torch,torch_op\n");
    for (size_t i = 0; i < r->nrows; i++) {
        const bench_row *w = &r->rows[i];
        fprintf(f, "%s,%s,%s,%s,%d,%zu,%.0f,%s,", w->op, w->kernel, w->dtype, bench_layout_names[w->layout], w->log2n,
                w->n, w->bytes, state_name(w->ours_state));
        csv_num(f, w->ours_state == 1 ? w->ours_ms : -1), fputc(',', f);
        csv_num(f, w->ours_gbps), fputc(',', f);
        csv_num(f, w->pct_copy), fputc(',', f);
        csv_num(f, w->torch_state == 1 ? w->torch_ms : -1), fputc(',', f);
        csv_num(f, w->torch_gbps), fputc(',', f);
        csv_num(f, w->ratio), fputc(',', f);
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

void report_print_table(const bench_report *r) {
    printf("\n== crk vs PyTorch, %s\n", r->device);
    printf("   GB/s = (unique bytes read + bytes written) / median time; %%copy vs %s\n", r->copy_ref);
    printf("   torch: %s\n", r->torch_info);
    printf("%-14s %-11s %-10s %-5s %10s %10s %7s %10s %10s %11s\n", "op", "dtype", "layout", "n", "ours ms", "ours GB/s",
           "%copy", "torch ms", "torch GB/s", "ours/torch");
    for (size_t i = 0; i < r->nrows; i++) {
        const bench_row *w = &r->rows[i];
        char n[16], a[24], b[24], c[24], d[24], e[24], g[24];
        snprintf(n, sizeof n, "2^%d", w->log2n);
        if (w->ours_state == 1 || w->ours_state == 0) cell(a, sizeof a, "%.4f", w->ours_state == 1 ? w->ours_ms : -1);
        else snprintf(a, sizeof a, "%s", state_name(w->ours_state));
        cell(b, sizeof b, "%.1f", w->ours_gbps);
        cell(c, sizeof c, "%.1f", w->pct_copy);
        cell(d, sizeof d, "%.4f", w->torch_state == 1 ? w->torch_ms : -1);
        cell(e, sizeof e, "%.1f", w->torch_gbps);
        cell(g, sizeof g, "%.3f", w->ratio);
        printf("%-14s %-11s %-10s %-5s %10s %10s %7s %10s %10s %11s\n", w->op, w->dtype, bench_layout_names[w->layout],
               n, a, b, c, d, e, g);
    }
    if (r->failed) printf("\nbench: FAILED (wrong results or GPU errors above)\n");
}
