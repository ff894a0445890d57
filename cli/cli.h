/* cli.h — shared pieces of the `crk` command. */
#ifndef CRK_CLI_H
#define CRK_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "codeobj.h"
#include "crk.h"

/* Exit codes (documented in --help and docs/crk.1). */
enum {
    EXIT_OK = 0,
    EXIT_FAIL = 1,    /* not found, verification failed */
    EXIT_USAGE = 2,
    EXIT_CORRUPT = 3  /* unreadable or corrupt file     */
};


/* Options common to the subcommands; each fills what it uses. */
typedef struct {
    int json;
    const char *dir;          /* --dir, default "hsaco"  */
    const char *family, *module, *dtype, *arch;
    const char *positional[8];
    int npositional;
} cli_opts;

typedef int (*cli_cmd_fn)(const cli_opts *o);

/* Parses argv (after the subcommand name). Accepts "--opt v" and "--opt=v";
 * `allowed` lists the value options this subcommand takes ("family,module").
 * Returns 0, 1 when --help was asked, -1 on a usage error (message printed). */
int cli_parse(int argc, char **argv, const char *cmd, const char *allowed, cli_opts *o);

/* Reads a whole file. 0 ok (*buf malloc'ed), -1 with a message in err. */
/* Reads and parses a code object file. 0 ok, -1 with err. */
int cli_open_codeobj(const char *path, crk_codeobj *co, uint8_t **buf, char *err, size_t n);

/* JSON string literal (quotes included) of s. */
void cli_json_str(FILE *f, const char *s);
/* "name" without its directory and ".hsaco". */
void cli_module_of(const char *path, char *out, size_t cap);
/* Sorted subdirectory names of dir; returns count (<= cap), -1 if unreadable.
 * Names are malloc'ed: release with cli_free_names. */
int cli_list_dir(const char *dir, int want_dirs, char **names, int cap);
void cli_free_names(char **names, int n);
/* EXIT_OK if DIR is a directory and DIR/ARCH one (arch may be NULL);
 * otherwise prints why, naming the archs DIR has, and returns EXIT_CORRUPT
 * (DIR unreadable) or EXIT_FAIL (no such arch there). */
int cli_check_arch_dir(const char *cmd, const char *dir, const char *arch);
/* One order of arch names everywhere (show, archs, verify, the build
 * summary): gfx targets first, shorter processor names first, then
 * alphabetical: gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 ... */
int cli_arch_cmp(const char *a, const char *b);

/* The registry's family or module named `name` ("where" is the family
 * "ternary": Candle's module name, and its kernels' prefix). Returns the
 * canonical name, or NULL after printing "unknown family 'x' (families: ...)"
 * naming `what` ("family"/"module") and the known ones. */
const char *cli_registry_name(const char *cmd, const char *what, const char *name);

/* "size_t numel, const float * inp, ..." of a registry kernel. */
void cli_params_str(const crk_kernel_info *ki, char *out, size_t cap);
/* "f32" or "f32,bf16" of a registry kernel's dtypes. */
void cli_dtypes_str(const crk_kernel_info *ki, char *out, size_t cap);

int cmd_list(const cli_opts *o);
int cmd_show(const cli_opts *o);
int cmd_archs(const cli_opts *o);
int cmd_verify(const cli_opts *o);
int cmd_version(const cli_opts *o);

/* Usage texts (help.c). */
void cli_usage(FILE *f);
void cli_cmd_usage(FILE *f, const char *cmd);

#endif
