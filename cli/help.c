/* help.c — usage texts of `crk` and its subcommands. */
#include "cli.h"

#include <string.h>

static const char exit_codes[] =
    "Exit status:\n"
    "  0  success\n"
    "  1  not found, or verification failed\n"
    "  2  usage error\n"
    "  3  unreadable or corrupt file\n";

void cli_usage(FILE *f)
{
    fprintf(f,
            "Usage: crk COMMAND [OPTIONS] [ARGS]\n"
            "Inspect the Candle-compatible ROCm kernels of libcrk and their code objects.\n"
            "\n"
            "Commands:\n"
            "  list [GLOB]      registry kernels (filter by --family/--module/--dtype/--arch)\n"
            "  show NAME        parameters of a kernel and its resources in each arch\n"
            "  archs FILE       targets inside an ELF, offload bundle, CCOB, cubin or fatbin\n"
            "  verify FILE|DIR  check code objects against the registry's signatures\n"
            "  version          crk's version (also --version)\n"
            "  help [COMMAND]   this text, or a command's\n"
            "\n"
            "Every command takes --json (machine-readable output) and --help.\n"
            "Code objects are read as DIR/ARCH/MODULE.hsaco (--dir, default hsaco).\n"
            "\n%s",
            exit_codes);
}

void cli_cmd_usage(FILE *f, const char *cmd)
{
    if (strcmp(cmd, "list") == 0)
        fprintf(f,
                "Usage: crk list [--family F] [--module M] [--dtype D] [--arch A [--dir DIR]]\n"
                "                [--json] [GLOB]\n"
                "List registry kernels: name, family, module, dtypes and parameters.\n"
                "  --family F  only kernels of family F (unary, cast, ternary or where, affine,\n"
                "              binary, cmp, fill, const_set, copy2d, reduce, softmax, norm,\n"
                "              rope, indexing, sort)\n"
                "  --module M  only kernels of Candle module M\n"
                "  An unknown family, module or dtype is a usage error (exit 2) that names the\n"
                "  known ones; an --arch with no DIR/A directory exits 1 naming the archs there.\n"
                "  --dtype D   only kernels using dtype D (f32, bf16, ...)\n"
                "  --arch A    only kernels present in DIR/A/MODULE.hsaco\n"
                "  --dir DIR   code object directory (default hsaco)\n"
                "  --json      JSON array, one kernel object per line\n"
                "  GLOB        shell pattern on the kernel name (fnmatch), e.g. 'cast_*_f16'\n");
    else if (strcmp(cmd, "show") == 0)
        fprintf(f,
                "Usage: crk show NAME [--dir DIR] [--json]\n"
                "Show a kernel's registry parameters (name, C type, size), then for every\n"
                "DIR/ARCH/MODULE.hsaco holding it: VGPR/SGPR/AGPR counts, LDS, scratch,\n"
                "spills, wavefront size, max workgroup size and kernarg size.\n"
                "An unknown NAME prints the three nearest names and exits with 1; so does a\n"
                "NAME no code object in DIR holds. An unreadable DIR exits with 3.\n");
    else if (strcmp(cmd, "archs") == 0)
        fprintf(f,
                "Usage: crk archs FILE [--json]\n"
                "Print the targets inside FILE, one per line: a plain AMDGPU ELF, a clang\n"
                "offload bundle (compressed or not), an NVIDIA cubin or a fatbin.\n");
    else if (strcmp(cmd, "version") == 0)
        fprintf(f, "Usage: crk version [--json]\nPrint crk's version and its number of kernels.\n");
    else if (strcmp(cmd, "verify") == 0)
        fprintf(f,
                "Usage: crk verify FILE|DIR [--json]\n"
                "Parse code objects fully and check, for each registry kernel of the module\n"
                "(the file name without .hsaco or .fatbin), that the kernel is present, that\n"
                "its explicit arguments match the registry (count, naturally aligned offsets,\n"
                "sizes, global_buffer for pointers and by_value otherwise) and that it uses\n"
                "no scratch and spills no registers (NVIDIA images: presence only). DIR is\n"
                "scanned whole as DIR/*.{hsaco,fatbin} (an arch directory such as\n"
                "hsaco/gfx90a, or the bundles in hsaco/) and DIR/*/*.{hsaco,fatbin} (every\n"
                "arch, and hsaco/nvidia). An unreadable directory, or a code object name that\n"
                "is not a regular file, fails the verdict; other entries are counted as ignored.\n");
    else {
        cli_usage(f);
        return;
    }
    fprintf(f, "\n%s", exit_codes);
}
