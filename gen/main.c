/* crk-gen — expands the op table (optable.c) into everything else:
 *   crk-gen sources DIR        kernel instantiation files DIR/<module>.hip
 *   crk-gen registry FILE      the loader's registry (C source)
 *   crk-gen list FILE          test list: one kernel per line (TSV)
 *   crk-gen modules            the module names, one per line
 *   crk-gen manifest HSACO_DIR VERSIONS COV OUT ARCH...   hsaco/manifest.json
 *   crk-gen rust OUT COV ARCH...   hsaco/manifest.rs (rust/crk-kernels) */
#include "emit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void) {
    fprintf(stderr, "usage: crk-gen sources DIR | registry FILE | list FILE | modules |\n"
                    "       crk-gen manifest HSACO_DIR VERSIONS_FILE COV OUT ARCH...\n"
                    "       crk-gen rust OUT COV ARCH...\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    gen_kernel *ks;
    size_t n = gen_expand(&ks);
    int rc;
    if (!strcmp(argv[1], "sources") && argc == 3) rc = emit_sources(ks, n, argv[2]);
    else if (!strcmp(argv[1], "registry") && argc == 3) rc = emit_registry(ks, n, argv[2]);
    else if (!strcmp(argv[1], "list") && argc == 3) rc = emit_list(ks, n, argv[2]);
    else if (!strcmp(argv[1], "modules") && argc == 2) {
        for (int m = 0; m < MOD_COUNT; m++)
            if (gen_module_used((gen_module_id)m)) printf("%s\n", GEN_MODULES[m]);
        rc = 0;
    } else if (!strcmp(argv[1], "manifest") && argc >= 6)
        rc = emit_manifest(ks, n, argv[2], (const char *const *)argv + 6, (size_t)(argc - 6), argv[3],
                           atoi(argv[4]), argv[5]);
    else if (!strcmp(argv[1], "rust") && argc >= 4)
        rc = emit_rust(ks, n, (const char *const *)argv + 4, (size_t)(argc - 4), atoi(argv[3]), argv[2]);
    else rc = usage();
    free(ks);
    return rc ? 1 : 0;
}
