/* cmd_show.c — `crk show NAME`: registry signature and per-arch resources. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void unknown_kernel(const char *name)
{
    const char *near[3];
    size_t n = crk_kernel_suggest(name, near, 3);
    fprintf(stderr, "crk: unknown kernel '%s'", name);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i ? ", " : "; nearest: ", near[i]);
    fprintf(stderr, "\n");
}

/* Prints a metadata value; "-" (text) or null (JSON) when absent. */
static void num(int json, uint32_t v)
{
    if (v == CRK_CO_UNSET)
        printf(json ? "null" : "-");
    else
        printf("%u", v);
}

static void print_resources(int json, const char *arch, const crk_co_image *im,
                            const crk_co_kernel *k, int first)
{
    static const char *const labels[] = {"vgpr", "sgpr", "agpr", "lds", "scratch",
                                         "vgpr_spill", "sgpr_spill", "wavefront_size",
                                         "max_workgroup_size", "kernarg_size"};
    const uint32_t vals[] = {k->vgpr_count, k->sgpr_count, k->agpr_count,
                             k->group_segment_fixed_size, k->private_segment_fixed_size,
                             k->vgpr_spill_count, k->sgpr_spill_count, k->wavefront_size,
                             k->max_flat_workgroup_size, k->kernarg_segment_size};
    if (json) {
        printf("%s{\"arch\":", first ? "" : ",");
        cli_json_str(stdout, arch);
        printf(",\"target\":");
        cli_json_str(stdout, im->target);
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            printf(",\"%s\":", labels[i]);
            num(1, vals[i]);
        }
        printf("}");
        return;
    }
    printf("  ");
    cli_text(stdout, im->target);
    printf("%*s", (int)(strlen(im->target) < 24 ? 24 - strlen(im->target) : 0), "");
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        printf(" %s=", labels[i]);
        num(0, vals[i]);
    }
    printf("\n");
}

int cmd_show(const cli_opts *o)
{
    if (o->npositional != 1) {
        fprintf(stderr, "crk show: expected one kernel NAME (see crk show --help)\n");
        return EXIT_USAGE;
    }
    const char *name = o->positional[0];
    const crk_kernel_info *ki = crk_kernel_find(name);
    if (!ki) {
        unknown_kernel(name);
        return EXIT_FAIL;
    }
    int rc = cli_check_arch_dir("show", o->dir, NULL);
    if (rc != EXIT_OK)
        return rc;
    if (o->json) {
        printf("{\"name\":");
        cli_json_str(stdout, ki->name);
        printf(",\"family\":");
        cli_json_str(stdout, ki->family);
        printf(",\"module\":");
        cli_json_str(stdout, ki->module);
        printf(",\"params\":[");
    } else {
        printf("%s (family %s, module %s)\nparameters:\n", ki->name, ki->family, ki->module);
    }
    for (unsigned i = 0; i < ki->nparams; i++) {
        const crk_param *p = &ki->params[i];
        if (o->json) {
            printf("%s{\"name\":", i ? "," : "");
            cli_json_str(stdout, p->name);
            printf(",\"ctype\":");
            cli_json_str(stdout, p->ctype);
            printf(",\"size\":%u}", p->size);
        } else {
            printf("  %-10s %-22s %u bytes\n", p->name, p->ctype, p->size);
        }
    }
    if (o->json)
        printf("],\"archs\":[");
    else
        printf("code objects (%s/ARCH/%s.hsaco):\n", o->dir, ki->module);

    cli_dir d;
    if (cli_read_dir(o->dir, &d) != 0) {
        fprintf(stderr, "crk show: cannot list directory '");
        cli_text(stderr, o->dir);
        fprintf(stderr, "': %s\n", strerror(errno));
        return EXIT_CORRUPT;
    }
    int shown = 0;
    for (size_t a = 0; a < d.n; a++) {
        if (d.e[a].type != 'd')
            continue;
        char err[512];
        char *path = malloc(strlen(o->dir) + strlen(d.e[a].name) + strlen(ki->module) + 16);
        if (!path) {
            fprintf(stderr, "crk show: out of memory\n");
            rc = EXIT_CORRUPT;
            break;
        }
        sprintf(path, "%s/%s/%s.hsaco", o->dir, d.e[a].name, ki->module);
        crk_codeobj co;
        uint8_t *buf;
        const int r = cli_open_codeobj(path, &co, &buf, err, sizeof err);
        if (r != 0) {
            if (r < 0) { /* missing: that arch lacks the module; anything else is reported */
                cli_file_error(path, err);
                rc = EXIT_CORRUPT;
            }
            free(path);
            continue;
        }
        free(path);
        for (uint32_t i = 0; i < co.nimages; i++) {
            const crk_co_kernel *k = crk_co_find_kernel(&co.images[i], ki->name);
            if (k)
                print_resources(o->json, d.e[a].name, &co.images[i], k, shown++ == 0);
        }
        crk_codeobj_free(&co);
        free(buf);
    }
    cli_dir_free(&d);
    if (o->json)
        printf("]}\n");
    else if (!shown)
        printf("  (none found)\n");
    if (!shown && rc == EXIT_OK) {
        fprintf(stderr, "crk show: no code object in %s/ARCH/%s.hsaco holds %s\n", o->dir, ki->module,
                ki->name);
        rc = EXIT_FAIL;
    }
    return rc;
}
