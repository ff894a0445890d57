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
    const int rc = crk_read_file(path, buf, &len, err, n);
    if (rc != CRK_READ_OK)
        return rc == CRK_READ_MISSING ? 1 : -1;
    if (crk_codeobj_open(*buf, len, co, err, n)) {
        free(*buf);
        *buf = NULL;
        return -1;
    }
    return 0;
}

/* Length of the valid UTF-8 sequence at p (1-4), 0 if invalid: no overlong
 * forms, no surrogates, nothing above U+10FFFF. */
static int utf8_len(const unsigned char *p)
{
    int n;
    unsigned cp;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
        n = 2, cp = p[0] & 0x1f;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        n = 3, cp = p[0] & 0x0f;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        n = 4, cp = p[0] & 0x07;
    else
        return 0;
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) /* also stops at the NUL */
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
        const int n = utf8_len(p);
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\u%04x", *p);
        else if (n == 0)
            fputs("\\ufffd", f); /* not UTF-8: JSON text must be */
        else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
            fprintf(f, "\\u%04x", p[1]); /* C1 controls: escaped like C0 */
        else
            fwrite(p, 1, (size_t)n, f);
        p += n ? n : 1;
    }
    fputc('"', f);
}

void cli_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p >= 0x20 && *p < 0x7f)
            fputc(*p, f);
        else
            fprintf(f, "\\x%02x", *p);
    }
}

void cli_file_error(const char *path, const char *msg)
{
    fputs("crk: ", stderr);
    cli_text(stderr, path);
    fputs(": ", stderr);
    cli_text(stderr, msg);
    fputc('\n', stderr);
}

int cli_is_codeobj_name(const char *name)
{
    const size_t len = strlen(name);
    return (len > 6 && strcmp(name + len - 6, ".hsaco") == 0) ||
           (len > 7 && strcmp(name + len - 7, ".fatbin") == 0);
}

void cli_module_of(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (cli_is_codeobj_name(base))
        len = (size_t)(strrchr(base, '.') - base);
    snprintf(out, cap, "%.*s", (int)len, base);
}

/* A generic target's family as a number: gfx10-3-generic 1003, gfx9-generic 900. */
static unsigned long generic_family(const char *s)
{
    char *e;
    const unsigned long major = strtoul(s + 3, &e, 10);
    return major * 100 + (*e == '-' && e[1] >= '0' && e[1] <= '9' ? strtoul(e + 1, NULL, 10) : 0);
}

int cli_arch_cmp(const char *a, const char *b)
{
    const int ga = strncmp(a, "gfx", 3) == 0, gb = strncmp(b, "gfx", 3) == 0;
    if (ga != gb)
        return gb - ga;
    const int xa = ga && strstr(a, "-generic") != NULL, xb = gb && strstr(b, "-generic") != NULL;
    if (xa != xb) /* exact targets, then generic ones by family (scripts/arch_order.sh) */
        return xa - xb;
    if (xa && generic_family(a) != generic_family(b))
        return generic_family(a) < generic_family(b) ? -1 : 1;
    const size_t la = strcspn(a, ":"), lb = strcspn(b, ":");
    if (ga && la != lb)
        return la < lb ? -1 : 1;
    return strcmp(a, b);
}

static int cmp_entries(const void *a, const void *b)
{
    return cli_arch_cmp(((const cli_dirent *)a)->name, ((const cli_dirent *)b)->name);
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

int cli_read_dir(const char *path, cli_dir *d)
{
    memset(d, 0, sizeof *d);
    DIR *dir = opendir(path);
    if (!dir)
        return -1;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (d->n == cap) {
            cap = cap ? 2 * cap : 64;
            cli_dirent *grown = realloc(d->e, cap * sizeof *grown);
            if (!grown)
                break;
            d->e = grown;
        }
        cli_dirent *de = &d->e[d->n];
        struct stat st;
        char *full = malloc(strlen(path) + strlen(e->d_name) + 2);
        if (!full || !(de->name = strdup(e->d_name))) {
            free(full);
            break;
        }
        sprintf(full, "%s/%s", path, e->d_name);
        de->type = stat(full, &st) != 0 ? '?' : S_ISDIR(st.st_mode) ? 'd' : S_ISREG(st.st_mode) ? 'f' : 'o';
        free(full);
        d->n++;
    }
    const int lost = e != NULL; /* out of memory: an incomplete listing is an error */
    closedir(dir);
    if (lost) {
        cli_dir_free(d);
        errno = ENOMEM;
        return -1;
    }
    if (d->n)
        qsort(d->e, d->n, sizeof *d->e, cmp_entries);
    return 0;
}

void cli_dir_free(cli_dir *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->e[i].name);
    free(d->e);
    memset(d, 0, sizeof *d);
}

int cli_check_arch_dir(const char *cmd, const char *dir, const char *arch)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "crk %s: cannot read directory '", cmd);
        cli_text(stderr, dir);
        fprintf(stderr, "' (%s; --dir: code objects as DIR/ARCH/MODULE.hsaco; run make to build hsaco/)\n",
                stat(dir, &st) != 0 ? strerror(errno) : "not a directory");
        return EXIT_CORRUPT;
    }
    if (!arch)
        return EXIT_OK;
    char *path = malloc(strlen(dir) + strlen(arch) + 2);
    if (!path) {
        fprintf(stderr, "crk %s: out of memory\n", cmd);
        return EXIT_CORRUPT;
    }
    sprintf(path, "%s/%s", dir, arch);
    const int found = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    free(path);
    if (found)
        return EXIT_OK;
    cli_dir d;
    int n = 0;
    fprintf(stderr, "crk %s: no code objects for arch '", cmd);
    cli_text(stderr, arch);
    fputs("' in ", stderr);
    cli_text(stderr, dir);
    fputs(" (archs there:", stderr);
    if (cli_read_dir(dir, &d) == 0) {
        for (size_t i = 0; i < d.n; i++)
            if (d.e[i].type == 'd') {
                fputc(' ', stderr);
                cli_text(stderr, d.e[i].name);
                n++;
            }
        cli_dir_free(&d);
    }
    fprintf(stderr, "%s; build it with make ARCHS=", n > 0 ? "" : " none");
    cli_text(stderr, arch);
    fputs(")\n", stderr);
    return EXIT_FAIL;
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
