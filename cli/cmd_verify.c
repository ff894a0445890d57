/* cmd_verify.c — `crk verify FILE|DIR`: code objects against the registry. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_ENTRIES 4096

typedef struct {
    int json;
    int nproblems;      /* printed so far (JSON needs commas) */
    int files, corrupt, failed;
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
        printf("%s%s%s: %s\n", path, target[0] ? " " : "", target, msg);
    }
    st->nproblems++;
}

/* Checks one AMDGPU or CUDA image against the registry kernels of module. */
static int check_image(verify_state *st, const char *path, const char *module,
                       const crk_co_image *im)
{
    char why[512];
    int bad = 0, nreg = 0;
    if (im->kind != CRK_CO_IMG_AMDGPU && im->kind != CRK_CO_IMG_CUBIN)
        return 0; /* PTX / compressed: nothing to compare */
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
        if (st->json)
            problem(st, path, "", err);
        else
            fprintf(stderr, "crk: %s: %s\n", path, err);
        st->corrupt++;
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

/* Verifies the .hsaco files directly in dir; 0, or -1 if unreadable. */
static int verify_files_in(verify_state *st, const char *dir)
{
    char *files[MAX_ENTRIES];
    int nf = cli_list_dir(dir, 0, files, MAX_ENTRIES);
    if (nf < 0)
        return -1;
    for (int f = 0; f < nf; f++) {
        size_t l = strlen(files[f]);
        if (l <= 6 || strcmp(files[f] + l - 6, ".hsaco") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        verify_file(st, path);
    }
    cli_free_names(files, nf);
    return 0;
}

/* The .hsaco files in DIR (an arch directory, or the bundles), then those in
 * each DIR/ARCH. */
static void verify_dir(verify_state *st, const char *dir)
{
    char *archs[MAX_ENTRIES];
    int na = cli_list_dir(dir, 1, archs, MAX_ENTRIES);
    if (na < 0 || verify_files_in(st, dir) < 0) {
        fprintf(stderr, "crk: %s: cannot read directory\n", dir);
        st->corrupt++;
        if (na > 0)
            cli_free_names(archs, na);
        return;
    }
    for (int a = 0; a < na; a++) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", dir, archs[a]);
        verify_files_in(st, sub);
    }
    cli_free_names(archs, na);
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
        verify_dir(&st, path);
    else
        verify_file(&st, path);
    int ok = st.corrupt == 0 && st.failed == 0 && st.files > 0;
    if (o->json)
        printf("],\"files\":%d,\"failed\":%d,\"corrupt\":%d,\"ok\":%s}\n", st.files, st.failed,
               st.corrupt, ok ? "true" : "false");
    else if (ok)
        printf("ok: %d file%s verified\n", st.files, st.files == 1 ? "" : "s");
    else if (st.files == 0)
        fprintf(stderr, "crk: %s: no .hsaco files found in it or in its subdirectories\n", path);
    else if (st.failed)
        fprintf(stderr, "crk: verify failed: %d of %d file%s with problems\n", st.failed,
                st.files, st.files == 1 ? "" : "s");
    if (st.corrupt)
        return EXIT_CORRUPT;
    return ok ? EXIT_OK : EXIT_FAIL;
}
