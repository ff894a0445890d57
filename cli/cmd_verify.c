/* cmd_verify.c — `crk verify FILE|DIR`: code objects against the registry.
 * A DIR is verified whole: its .hsaco and .fatbin files, then those of each
 * subdirectory (DIR/ARCH, DIR/nvidia). Nothing is skipped silently: an
 * unreadable directory or a code object name that is no regular file is a
 * problem, other files are counted as ignored. */
#include "cli.h"
#include "readfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    int json;
    int nproblems;      /* printed so far (JSON needs commas) */
    int files, corrupt, failed, ignored;
} verify_state;

static void problem(verify_state *st, const char *path, const char *target, const char *msg)
{
    if (st->json) {
        printf("%s{\"file\":", st->nproblems ? "," : "");
        cli_json_str(stdout, path);
        printf(",\"target\":");
        cli_json_str(stdout, target);
        printf(",\"problem\":");
        cli_json_str(stdout, msg);
        printf("}");
    } else {
        cli_text(stdout, path);
        if (target[0])
            putchar(' ');
        cli_text(stdout, target);
        fputs(": ", stdout);
        cli_text(stdout, msg);
        putchar('\n');
    }
    st->nproblems++;
}

/* A file that could not be verified: a problem, and the verdict fails. */
static void unreadable(verify_state *st, const char *path, const char *msg)
{
    if (st->json)
        problem(st, path, "", msg);
    else
        cli_file_error(path, msg);
    st->corrupt++;
}

/* Checks one AMDGPU or CUDA image against the registry kernels of module. */
static int check_image(verify_state *st, const char *path, const char *module,
                       const crk_co_image *im)
{
    char why[512];
    int bad = 0, nreg = 0;
    if (im->kind != CRK_CO_IMG_AMDGPU && im->kind != CRK_CO_IMG_CUBIN)
        return 0; /* PTX / opaque: nothing to compare */
    if (im->kind == CRK_CO_IMG_CUBIN && im->compressed && im->nkernels == 0)
        return 0; /* compressed cubin: its kernel names are not readable here */
    for (size_t i = 0; i < crk_kernel_count(); i++) {
        const crk_kernel_info *ki = crk_kernel_at(i);
        if (!ki || strcmp(ki->module, module) != 0)
            continue;
        nreg++;
        const crk_co_kernel *k = crk_co_find_kernel(im, ki->name);
        if (!k) {
            snprintf(why, sizeof why, "%s: missing from the code object", ki->name);
            problem(st, path, im->target, why);
            bad = 1;
            continue;
        }
        if (im->kind != CRK_CO_IMG_AMDGPU)
            continue; /* cubins carry no argument metadata here */
        if (crk_check_kernel_abi(ki, k, why, sizeof why) ||
            crk_check_kernel_resources(k, why, sizeof why)) {
            problem(st, path, im->target, why);
            bad = 1;
        }
    }
    if (nreg == 0) {
        snprintf(why, sizeof why, "module '%s' has no kernels in the registry", module);
        problem(st, path, im->target, why);
        bad = 1;
    }
    return bad;
}

static void verify_file(verify_state *st, const char *path)
{
    crk_codeobj co;
    uint8_t *buf;
    char err[512], module[256];
    st->files++;
    if (cli_open_codeobj(path, &co, &buf, err, sizeof err)) {
        unreadable(st, path, err);
        return;
    }
    cli_module_of(path, module, sizeof module);
    int bad = 0;
    for (uint32_t i = 0; i < co.nimages; i++)
        bad |= check_image(st, path, module, &co.images[i]);
    if (co.nimages == 0) {
        problem(st, path, "", "no device images");
        bad = 1;
    }
    st->failed += bad;
    crk_codeobj_free(&co);
    free(buf);
}

static char *join(const char *dir, const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    if (p)
        sprintf(p, "%s/%s", dir, name);
    return p;
}

/* Verifies the code objects in dir; with depth 0 also its subdirectories. */
static void verify_dir(verify_state *st, const char *dir, int depth)
{
    cli_dir d;
    if (cli_read_dir(dir, &d) != 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot read directory: %s", strerror(errno));
        unreadable(st, dir, msg);
        return;
    }
    for (int pass = 0; pass < 2; pass++) /* files first, then subdirectories */
        for (size_t i = 0; i < d.n; i++) {
            const cli_dirent *e = &d.e[i];
            if ((e->type == 'd') != (pass == 1))
                continue;
            char *path = join(dir, e->name);
            if (!path) {
                unreadable(st, dir, "out of memory");
                break;
            }
            if (e->type == 'd' && depth == 0 && e->name[0] != '.')
                verify_dir(st, path, 1);
            else if (e->type == 'f' && e->name[0] != '.' && cli_is_codeobj_name(e->name))
                verify_file(st, path);
            else if (e->type != 'd' && e->name[0] != '.' && cli_is_codeobj_name(e->name)) {
                struct stat sb;
                char msg[160];
                snprintf(msg, sizeof msg, "is %s, not a regular file: not verified",
                         e->type == '?' || stat(path, &sb) ? "unreadable (stat failed)" : crk_file_kind(sb.st_mode));
                unreadable(st, path, msg);
            } else
                st->ignored++;
            free(path);
        }
    cli_dir_free(&d);
}

int cmd_verify(const cli_opts *o)
{
    if (o->npositional != 1) {
        fprintf(stderr, "crk verify: expected one FILE or DIR (see crk verify --help)\n");
        return EXIT_USAGE;
    }
    const char *path = o->positional[0];
    verify_state st = {.json = o->json};
    struct stat sb;
    if (o->json)
        printf("{\"problems\":[");
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        verify_dir(&st, path, 0);
    else
        verify_file(&st, path);
    int ok = st.corrupt == 0 && st.failed == 0 && st.files > 0;
    if (o->json)
        printf("],\"files\":%d,\"failed\":%d,\"corrupt\":%d,\"ignored\":%d,\"ok\":%s}\n", st.files, st.failed,
               st.corrupt, st.ignored, ok ? "true" : "false");
    else if (ok && st.ignored)
        printf("ok: %d file%s verified (%d other entr%s ignored: not .hsaco or .fatbin)\n", st.files,
               st.files == 1 ? "" : "s", st.ignored, st.ignored == 1 ? "y" : "ies");
    else if (ok)
        printf("ok: %d file%s verified\n", st.files, st.files == 1 ? "" : "s");
    else if (st.files == 0 && !st.corrupt)
        cli_file_error(path, "no .hsaco or .fatbin files in it or in its subdirectories");
    else if (st.failed && !st.corrupt)
        fprintf(stderr, "crk: verify failed: %d of %d file%s with problems\n", st.failed,
                st.files, st.files == 1 ? "" : "s");
    if (st.corrupt)
        return EXIT_CORRUPT;
    return ok ? EXIT_OK : EXIT_FAIL;
}
