/* peer.c — runs bench/torch_peer.py (PyTorch, same GPU, same sizes and
 * layouts) and merges its JSON lines into the rows. */
#include "bench.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Value of "key" in a flat one-line JSON object written by json.dumps. */
static const char *find_key(const char *line, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    if (!p) return NULL;
    p += strlen(pat);
    while (*p == ' ') p++;
    return p;
}
static int get_str(const char *line, const char *key, char *out, size_t cap) {
    const char *p = find_key(line, key);
    if (!p || *p != '"') return -1;
    size_t k = 0;
    for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1]) p++;
        if (k + 1 < cap) out[k++] = *p;
    }
    out[k] = 0;
    return 0;
}
static int get_num(const char *line, const char *key, double *v) {
    const char *p = find_key(line, key);
    if (!p) return -1;
    char *e;
    *v = strtod(p, &e);
    return e == p ? -1 : 0;
}

static int python_has_torch(const char *python) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' -c 'import torch' >/dev/null 2>&1", python);
    const int rc = system(cmd);
    return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

void peer_run(bench_report *r, const char *python, const char *script, const char *sizes, const char *ops, int tiny) {
    if (!python_has_torch(python)) {
        snprintf(r->torch_info, sizeof r->torch_info, "unavailable (%s cannot import torch)", python);
        return;
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' '%s' --sizes '%s'%s%s%s%s", python, script, sizes, ops ? " --ops '" : "",
             ops ? ops : "", ops ? "'" : "", tiny ? " --tiny-index" : "");
    printf("torch peer: %s\n", cmd);
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(r->torch_info, sizeof r->torch_info, "unavailable (cannot run %s)", script);
        return;
    }
    char *line = NULL, kind[32], op[64], layout[32], kernel[64], tmp[200];
    size_t cap = 0;
    int matched = 0, unmatched = 0, meta = 0;
    while (getline(&line, &cap, p) > 0) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] != '{' || get_str(line, "kind", kind, sizeof kind)) {
            printf("  torch| %s\n", line);
            continue;
        }
        if (!strcmp(kind, "meta")) {
            char ver[64] = "?", dev[128] = "?", timer[64] = "?";
            get_str(line, "torch", ver, sizeof ver), get_str(line, "device", dev, sizeof dev);
            get_str(line, "timer", timer, sizeof timer);
            snprintf(r->torch_info, sizeof r->torch_info, "torch %s on %s, timer %s", ver, dev, timer);
            meta = 1;
            continue;
        }
        if (!strcmp(kind, "error")) {
            get_str(line, "msg", tmp, sizeof tmp);
            printf("  torch| error: %s\n", tmp);
            if (!meta) snprintf(r->torch_info, sizeof r->torch_info, "unavailable (%s)", tmp);
            continue;
        }
        double log2n, ms;
        if (strcmp(kind, "row") || get_str(line, "op", op, sizeof op) || get_str(line, "layout", layout, sizeof layout) ||
            get_num(line, "log2n", &log2n) || get_num(line, "ms", &ms)) {
            printf("  torch| %s\n", line);
            continue;
        }
        /* the kernel too where the peer names it (ops with several dtypes) */
        const int by_kernel = !get_str(line, "kernel", kernel, sizeof kernel);
        bench_row *w = NULL;
        for (size_t i = 0; i < r->nrows && !w; i++)
            if (!strcmp(r->rows[i].op, op) && !strcmp(r->rows[i].label, layout) && r->rows[i].log2n == (int)log2n &&
                (!by_kernel || !strcmp(r->rows[i].kernel, kernel)))
                w = &r->rows[i];
        if (!w) {
            unmatched++;
            continue;
        }
        w->torch_state = 1, w->torch_ms = ms;
        snprintf(tmp, sizeof tmp, "2^%d", w->log2n);
        if (get_str(line, "torch_op", w->torch_op, sizeof w->torch_op)) snprintf(w->torch_op, sizeof w->torch_op, "?");
        printf("  torch  %-14s %-13s %-5s %9.4f ms  %8.1f GB/s  (%s)\n", op, layout, w->log2n ? tmp : "-", ms,
               w->bytes / (ms * 1e6), w->torch_op);
        fflush(stdout);
        matched++;
    }
    free(line);
    const int rc = pclose(p);
    if (!meta && !r->torch_info[0]) snprintf(r->torch_info, sizeof r->torch_info, "unavailable (peer printed no header)");
    if (rc != 0) {
        const size_t l = strlen(r->torch_info);
        snprintf(r->torch_info + l, sizeof r->torch_info - l, "; peer exited with status %d", WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
    }
    if (unmatched) printf("torch peer: %d rows without a crk row of the same op, layout and size (ignored)\n", unmatched);
    if (meta && !matched) {
        const size_t l = strlen(r->torch_info);
        snprintf(r->torch_info + l, sizeof r->torch_info - l, "; no rows");
    }
}
