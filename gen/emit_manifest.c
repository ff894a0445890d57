/* emit_manifest.c — hsaco/manifest.json: kernels with typed parameters,
 * modules with every artifact's path, size and sha256, for other runtimes. */
#include "emit.h"
#include "sha256.h"
#include <stdio.h>
#include <string.h>

/* The AMDGPU code object version of an ELF file (e_ident: OS ABI 64 =
 * AMDGPU HSA, ABI version + 2), 0 for anything else (bundles, fatbins):
 * exact targets are the build's COV, generic ones 6. */
static int co_version(const char *path) {
    unsigned char id[9] = {0};
    FILE *e = fopen(path, "rb");
    const int ok = e && fread(id, 1, sizeof id, e) == sizeof id && !memcmp(id, "\177ELF", 4) && id[7] == 64;
    if (e) fclose(e);
    return ok ? id[8] + 2 : 0;
}

static void file_entry(FILE *f, const char *dir, const char *rel, const char *key, int *first) {
    char path[1024], hex[65];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    long size = sha256_file(path, hex);
    if (size < 0) return; /* not built (e.g. ARCHS subset, no nvcc) */
    fprintf(f, "%s\n        \"%s\": {\"path\": \"%s\", \"size\": %ld, \"sha256\": \"%s\"", *first ? "" : ",",
            key, rel, size, hex);
    const int v = co_version(path);
    if (v) fprintf(f, ", \"code_object_version\": %d", v);
    fprintf(f, "}");
    *first = 0;
}

static void versions(FILE *f, const char *file) {
    FILE *v = file ? fopen(file, "r") : NULL;
    char line[256];
    int first = 1;
    fprintf(f, "  \"toolchain\": [");
    while (v && fgets(line, sizeof line, v)) {
        line[strcspn(line, "\n")] = 0;
        fprintf(f, "%s\"%s\"", first ? "" : ", ", line);
        first = 0;
    }
    if (v) fclose(v);
    fprintf(f, "],\n");
}

int emit_manifest(const gen_kernel *ks, size_t n, const char *dir, const char *const *archs,
                  size_t narchs, const char *versions_file, int cov, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return -1; }
    fprintf(f, "{\n  \"format\": \"crk-manifest-1\",\n  \"candle_version\": \"0.11.0\",\n");
    fprintf(f, "  \"code_object_version\": %d,\n", cov); /* the exact targets'; each ELF file says its own */
    versions(f, versions_file);
    fprintf(f, "  \"archs\": [");
    for (size_t a = 0; a < narchs; a++) fprintf(f, "%s\"%s\"", a ? ", " : "", archs[a]);
    fprintf(f, "],\n  \"modules\": [");
    for (int m = 0, nm = 0; m < MOD_COUNT; m++) {
        if (!gen_module_used((gen_module_id)m)) continue;
        const char *mod = GEN_MODULES[m];
        char rel[256];
        int first = 1;
        fprintf(f, "%s\n    {\"name\": \"%s\", \"candle_id\": %d, \"files\": {", nm++ ? "," : "", mod, m);
        for (size_t a = 0; a < narchs; a++) {
            snprintf(rel, sizeof rel, "%s/%s.hsaco", archs[a], mod);
            file_entry(f, dir, rel, archs[a], &first);
        }
        snprintf(rel, sizeof rel, "%s.hsaco", mod);
        file_entry(f, dir, rel, "bundle", &first);
        snprintf(rel, sizeof rel, "nvidia/%s.fatbin", mod);
        file_entry(f, dir, rel, "nvidia", &first);
        fprintf(f, "\n      }}");
    }
    fprintf(f, "\n  ],\n  \"kernels\": [");
    for (size_t i = 0; i < n; i++) {
        const gen_kernel *k = &ks[i];
        char t[64];
        fprintf(f, "%s\n    {\"name\": \"%s\", \"family\": \"%s\", \"module\": \"%s\", \"dtypes\": [", i ? "," : "",
                k->name, GEN_FAMILIES[k->fam].name, gen_family_module(k->fam));
        for (int a = 0; a < GEN_FAMILIES[k->fam].naxes; a++) fprintf(f, "%s\"%s\"", a ? ", " : "", GEN_DTYPES[k->dt[a]].name);
        fprintf(f, "], \"upstream\": %s, \"alias_of\": ", k->upstream ? "true" : "false");
        if (k->alias >= 0) fprintf(f, "\"%s\"", ks[k->alias].name);
        else fprintf(f, "null");
        fprintf(f, ", \"info_arrays\": %d, \"params\": [", GEN_FAMILIES[k->fam].info_arrays);
        static const char *const kinds[] = {"size", "pointer", "scalar"};
        for (const gen_param *p = k->sig; p->name; p++)
            fprintf(f, "%s{\"name\": \"%s\", \"type\": \"%s\", \"kind\": \"%s\", \"size\": %d}", p == k->sig ? "" : ", ",
                    p->name, gen_param_ctype(k, p, 0, t, sizeof t), kinds[gen_param_kind(p)], gen_param_size(k, p));
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ]\n}\n");
    return fclose(f);
}
