/* emit.h — what crk-gen writes from the expanded op table. */
#ifndef GEN_EMIT_H
#define GEN_EMIT_H
#include "kernels.h"

int emit_sources(const gen_kernel *ks, size_t n, const char *dir);
int emit_list(const gen_kernel *ks, size_t n, const char *path);
int emit_registry(const gen_kernel *ks, size_t n, const char *path);
/* manifest.json of the artifacts under hsaco_dir for the given archs. */
int emit_manifest(const gen_kernel *ks, size_t n, const char *hsaco_dir, const char *const *archs,
                  size_t narchs, const char *versions_file, int cov, const char *path);
/* manifest.rs: the same data as Rust constants, for rust/crk-kernels. */
int emit_rust(const gen_kernel *ks, size_t n, const char *const *archs, size_t narchs, int cov,
              const char *path);
#endif
