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

/* Reads and parses a code object file. 0 ok; 1 no such file (err says so);
 * -1 unreadable (not a regular file, I/O) or corrupt, with err. */
int cli_open_codeobj(const char *path, crk_codeobj *co, uint8_t **buf, char *err, size_t n);

/* JSON string literal (quotes included) of s: always valid UTF-8 (invalid
 * bytes become U+FFFD) with every control character escaped. */
void cli_json_str(FILE *f, const char *s);
/* s for a terminal: printable ASCII as is, every other byte as \xNN, so a
 * name taken from a file or directory cannot send escape sequences. */
void cli_text(FILE *f, const char *s);
/* "crk: PATH: MESSAGE" on stderr, both through cli_text. */
void cli_file_error(const char *path, const char *msg);
/* "name" without its directory and its ".hsaco" or ".fatbin". */
void cli_module_of(const char *path, char *out, size_t cap);
/* 1 if name ends in ".hsaco" or ".fatbin" (a code object's file name). */
int cli_is_codeobj_name(const char *name);

/* One directory entry: its name and what stat says it is. */
typedef struct {
    char *name;
    char type; /* 'd' directory, 'f' regular file, 'o' other (FIFO, ...), '?' stat failed */
} cli_dirent;
typedef struct {
    cli_dirent *e;
    size_t n;
} cli_dir;
/* Every entry of dir but "." and "..", however many, in the one arch order
 * (cli_arch_cmp). 0 ok; -1 unreadable (errno set). Release with cli_dir_free. */
int cli_read_dir(const char *path, cli_dir *d);
void cli_dir_free(cli_dir *d);
/* EXIT_OK if DIR is a directory and DIR/ARCH one (arch may be NULL);
 * otherwise prints why, naming the archs DIR has, and returns EXIT_CORRUPT
 * (DIR unreadable) or EXIT_FAIL (no such arch there). */
int cli_check_arch_dir(const char *cmd, const char *dir, const char *arch);
/* One order of arch names everywhere (show, archs, verify, the build
 * summary): gfx targets first, shorter processor names first, then
 * alphabetical: gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 ...; then
 * generic targets by family: gfx9-generic gfx10-1-generic ... gfx11-generic. */
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
