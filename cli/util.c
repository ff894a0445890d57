/* util.c — file reading, JSON and formatting helpers for the CLI. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "readfile.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_open_codeobj(const char *path, crk_codeobj *co, uint8_t **buf, char *err, size_t n)
{
    size_t len;
    memset(co, 0, sizeof *co);
    if (crk_read_file(path, buf, &len, err, n))
        return -1;
    if (crk_codeobj_open(*buf, len, co, err, n)) {
        free(*buf);
        *buf = NULL;
        return -1;
    }
    return 0;
}

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void cli_module_of(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 6 && strcmp(base + len - 6, ".hsaco") == 0)
        len -= 6;
    snprintf(out, cap, "%.*s", (int)len, base);
}

int cli_arch_cmp(const char *a, const char *b)
{
    const int ga = strncmp(a, "gfx", 3) == 0, gb = strncmp(b, "gfx", 3) == 0;
    if (ga != gb)
        return gb - ga;
    const size_t la = strcspn(a, ":"), lb = strcspn(b, ":");
    if (ga && la != lb)
        return la < lb ? -1 : 1;
    return strcmp(a, b);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_archs(const void *a, const void *b)
{
    return cli_arch_cmp(*(char *const *)a, *(char *const *)b);
}

/* Family/module name of registry kernel i. */
static const char *field(size_t i, int module)
{
    const crk_kernel_info *ki = crk_kernel_at(i);
    return ki ? (module ? ki->module : ki->family) : NULL;
}

const char *cli_registry_name(const char *cmd, const char *what, const char *name)
{
    const int module = strcmp(what, "module") == 0;
    if (!module && strcmp(name, "where") == 0)
        name = "ternary";
    for (size_t i = 0; i < crk_kernel_count(); i++)
        if (field(i, module) && strcmp(field(i, module), name) == 0)
            return field(i, module);
    fprintf(stderr, "crk %s: unknown %s '%s' (%s:", cmd, what, name, module ? "modules" : "families");
    for (size_t i = 0; i < crk_kernel_count(); i++) {
        const char *f = field(i, module);
        size_t j = 0;
        while (j < i && strcmp(field(j, module), f) != 0)
            j++;
        if (j == i)
            fprintf(stderr, " %s%s", f, !module && strcmp(f, "ternary") == 0 ? " (or where)" : "");
    }
    fprintf(stderr, ")\n");
    return NULL;
}

int cli_list_dir(const char *dir, int want_dirs, char **names, int cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < cap) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            stat(path, &st) != 0)
            continue;
        if (want_dirs ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
            continue;
        char *s = strdup(e->d_name);
        if (s)
            names[n++] = s;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, want_dirs ? cmp_archs : cmp_names);
    return n;
}

int cli_check_arch_dir(const char *cmd, const char *dir, const char *arch)
{
    char path[4096];
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "crk %s: cannot read directory '%s' (--dir: code objects as DIR/ARCH/MODULE.hsaco; "
                "run make to build hsaco/)\n", cmd, dir);
        return EXIT_CORRUPT;
    }
    if (!arch)
        return EXIT_OK;
    snprintf(path, sizeof path, "%s/%s", dir, arch);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return EXIT_OK;
    char *names[256];
    int n = cli_list_dir(dir, 1, names, 256);
    fprintf(stderr, "crk %s: no code objects for arch '%s' in %s (archs there:", cmd, arch, dir);
    for (int i = 0; i < n; i++)
        fprintf(stderr, " %s", names[i]);
    fprintf(stderr, "%s; build it with make ARCHS=%s)\n", n > 0 ? "" : " none", arch);
    if (n > 0)
        cli_free_names(names, n);
    return EXIT_FAIL;
}

void cli_free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
}

void cli_params_str(const crk_kernel_info *ki, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = 0;
    for (unsigned i = 0; i < ki->nparams && used < cap; i++) {
        const crk_param *p = &ki->params[i];
        const char *ct = p->ctype ? p->ctype : "?";
        size_t ctl = strlen(ct);
        /* "const float *" + "inp" -> "const float *inp" */
        int r = snprintf(out + used, cap - used, "%s%s%s%s", i ? ", " : "", ct,
                         ctl && ct[ctl - 1] == '*' ? "" : " ", p->name ? p->name : "?");
        if (r < 0)
            break;
        used += (size_t)r;
    }
}

void cli_dtypes_str(const crk_kernel_info *ki, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < 3 && used < cap; i++) {
        if (ki->dtypes[i] < 0 || ki->dtypes[i] >= CRK_DTYPE_COUNT)
            continue;
        const char *name = crk_dtype_name((crk_dtype)ki->dtypes[i]);
        int r = snprintf(out + used, cap - used, "%s%s", used ? "," : "", name ? name : "?");
        if (r < 0)
            break;
        used += (size_t)r;
    }
}
