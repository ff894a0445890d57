/* cmd_list.c — `crk list`: registry kernels, filtered. */
#include "cli.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Code objects of one arch, loaded once per module while listing. */
typedef struct {
    char module[128];
    crk_codeobj co;
    uint8_t *buf;
    int loaded; /* 1 parsed, 0 missing */
} module_cache;

/* 1 if kernel ki is in DIR/ARCH/MODULE.hsaco; -1 on a corrupt file. */
static int in_arch(const cli_opts *o, const crk_kernel_info *ki, module_cache *mc)
{
    if (strcmp(mc->module, ki->module) != 0) {
        if (mc->loaded)
            crk_codeobj_free(&mc->co);
        free(mc->buf);
        mc->buf = NULL;
        mc->loaded = 0;
        snprintf(mc->module, sizeof mc->module, "%s", ki->module);
        char err[512];
        char *path = malloc(strlen(o->dir) + strlen(o->arch) + strlen(ki->module) + 16);
        if (!path) {
            fprintf(stderr, "crk list: out of memory\n");
            return -1;
        }
        sprintf(path, "%s/%s/%s.hsaco", o->dir, o->arch, ki->module);
        const int r = cli_open_codeobj(path, &mc->co, &mc->buf, err, sizeof err);
        if (r < 0) {
            cli_file_error(path, err);
            mc->module[0] = 0;
        }
        free(path);
        if (r != 0)
            return r < 0 ? -1 : 0; /* missing: no code object for this module, kernel absent */
        mc->loaded = 1;
    }
    if (!mc->loaded)
        return 0;
    for (uint32_t i = 0; i < mc->co.nimages; i++)
        if (crk_co_find_kernel(&mc->co.images[i], ki->name))
            return 1;
    return 0;
}

static int has_dtype(const crk_kernel_info *ki, int dt)
{
    for (int i = 0; i < 3; i++)
        if (ki->dtypes[i] == dt)
            return 1;
    return 0;
}

static void print_kernel(const cli_opts *o, const crk_kernel_info *ki, int first)
{
    char params[2048], dts[64];
    cli_params_str(ki, params, sizeof params);
    cli_dtypes_str(ki, dts, sizeof dts);
    if (!o->json) {
        printf("%-28s %-8s %-10s %-10s (%s)\n", ki->name, ki->family, ki->module,
               dts[0] ? dts : "-", params);
        return;
    }
    printf("%s{\"name\":", first ? "\n" : ",\n");
    cli_json_str(stdout, ki->name);
    printf(",\"family\":");
    cli_json_str(stdout, ki->family);
    printf(",\"module\":");
    cli_json_str(stdout, ki->module);
    printf(",\"dtypes\":[");
    int nd = 0;
    for (int i = 0; i < 3; i++)
        if (ki->dtypes[i] >= 0 && ki->dtypes[i] < CRK_DTYPE_COUNT) {
            printf("%s", nd++ ? "," : "");
            cli_json_str(stdout, crk_dtype_name((crk_dtype)ki->dtypes[i]));
        }
    printf("],\"params\":[");
    for (unsigned i = 0; i < ki->nparams; i++) {
        printf("%s{\"name\":", i ? "," : "");
        cli_json_str(stdout, ki->params[i].name);
        printf(",\"ctype\":");
        cli_json_str(stdout, ki->params[i].ctype);
        printf(",\"size\":%u}", ki->params[i].size);
    }
    printf("]}");
}

int cmd_list(const cli_opts *o)
{
    if (o->npositional > 1) {
        fprintf(stderr, "crk list: at most one GLOB (see crk list --help)\n");
        return EXIT_USAGE;
    }
    int dt = -1;
    if (o->dtype && (dt = crk_dtype_from_name(o->dtype)) < 0) {
        fprintf(stderr, "crk list: unknown dtype '%s'\n", o->dtype);
        return EXIT_USAGE;
    }
    const char *family = NULL, *module = NULL;
    if (o->family && !(family = cli_registry_name("list", "family", o->family)))
        return EXIT_USAGE;
    if (o->module && !(module = cli_registry_name("list", "module", o->module)))
        return EXIT_USAGE;
    if (o->arch) {
        int r = cli_check_arch_dir("list", o->dir, o->arch);
        if (r != EXIT_OK)
            return r;
    }
    const char *glob = o->npositional ? o->positional[0] : NULL;
    module_cache mc;
    memset(&mc, 0, sizeof mc);
    int rc = EXIT_OK;
    size_t shown = 0;
    if (o->json)
        printf("[");
    for (size_t i = 0; i < crk_kernel_count(); i++) {
        const crk_kernel_info *ki = crk_kernel_at(i);
        if (!ki || (family && strcmp(ki->family, family) != 0) ||
            (module && strcmp(ki->module, module) != 0) ||
            (dt >= 0 && !has_dtype(ki, dt)) || (glob && fnmatch(glob, ki->name, 0) != 0))
            continue;
        if (o->arch) {
            int r = in_arch(o, ki, &mc);
            if (r < 0) {
                rc = EXIT_CORRUPT;
                break;
            }
            if (r == 0)
                continue;
        }
        print_kernel(o, ki, shown == 0);
        shown++;
    }
    if (o->json)
        printf("%s]\n", shown ? "\n" : "");
    if (mc.loaded)
        crk_codeobj_free(&mc.co);
    free(mc.buf);
    if (rc == EXIT_OK && shown == 0) {
        fprintf(stderr, "crk list: no kernel matches\n");
        rc = EXIT_FAIL;
    }
    return rc;
}
