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
};

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
    if (strcmp(cmd, "--version") == 0) {
        printf("crk %d.%d\n", CRK_VERSION_MAJOR, CRK_VERSION_MINOR);
        return EXIT_OK;
    }
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
