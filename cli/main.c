/* main.c — `crk`: dispatch to the subcommands. */
#include "cli.h"

#include <string.h>

static const struct {
    const char *name;
    const char *options; /* value options it accepts */
    cli_cmd_fn fn;
} commands[] = {
    {"list", "family,module,dtype,arch,dir", cmd_list},
    {"show", "dir", cmd_show},
    {"archs", "", cmd_archs},
    {"verify", "", cmd_verify},
    {"version", "", cmd_version},
};

int cmd_version(const cli_opts *o)
{
    if (o && o->npositional) {
        fprintf(stderr, "crk version: takes no arguments\n");
        return EXIT_USAGE;
    }
    if (o && o->json)
        printf("{\"version\":\"%d.%d\",\"kernels\":%zu}\n", CRK_VERSION_MAJOR, CRK_VERSION_MINOR,
               crk_kernel_count());
    else
        printf("crk %d.%d (%zu kernels)\n", CRK_VERSION_MAJOR, CRK_VERSION_MINOR, crk_kernel_count());
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        cli_usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc > 2)
            cli_cmd_usage(stdout, argv[2]);
        else
            cli_usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0)
        return cmd_version(NULL);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(cmd, commands[i].name) != 0)
            continue;
        cli_opts o;
        memset(&o, 0, sizeof o);
        o.dir = "hsaco";
        int r = cli_parse(argc - 2, argv + 2, cmd, commands[i].options, &o);
        if (r > 0) {
            cli_cmd_usage(stdout, cmd);
            return EXIT_OK;
        }
        if (r < 0)
            return EXIT_USAGE;
        return commands[i].fn(&o);
    }
    fprintf(stderr, "crk: unknown command '%s' (see crk --help)\n", cmd);
    return EXIT_USAGE;
}
