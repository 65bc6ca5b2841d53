/*
 * main.c -- `profbridge`: global options and dispatch to the subcommands
 * listed in commands.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"

typedef struct pbc_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} pbc_command;

static const pbc_command commands[] = {
#define PBC_COMMAND(name, fn, summary) {#name, fn, summary},
#include "commands.h"
#undef PBC_COMMAND
};
#define NUM_COMMANDS (sizeof commands / sizeof commands[0])

static void print_help(FILE *out) {
    fputs("Usage: " PBC_PROG " <command> [options] [files]\n"
          "       " PBC_PROG " --help | --version\n"
          "       " PBC_PROG " <command> --help\n"
          "\n"
          "Converts PGO profiles between GraalVM Native Image iprof JSON and LLVM's\n"
          "instrumentation profiles (.profraw, .profdata, .proftext) through one model.\n"
          "\nCommands:\n",
          out);
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nFormats (input is recognised by content, output by --to or the file extension):\n", out);
    pbc_print_formats(out);
    fputs("\nEvery command that reads takes --max-input-size N (bytes, K/M/G/T suffixes;\n"
          "default 4G, 0 = no limit) and --max-inflation N (gzip ratio, default 250).\n",
          out);
    fputs("\nExit status: 0 success, 1 invalid input (or profiles differ),\n"
          "2 usage or I/O error. '-' stands for standard input or output.\n"
          "See profbridge(1) for details.\n",
          out);
}

static const pbc_command *find_command(const char *name) {
    for (size_t i = 0; i < NUM_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

/* Runs `cmd` with argv[0] replaced by "profbridge <name>", so getopt's own
 * messages say which subcommand complained. */
static int run(const pbc_command *cmd, int argc, char **argv) {
    char prog[64];
    snprintf(prog, sizeof prog, PBC_PROG " %s", cmd->name);
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) {
        pbc_msg("out of memory");
        return PBC_EXIT_USAGE;
    }
    args[0] = prog;
    for (int i = 1; i < argc; i++) args[i] = argv[i];
    /* the input limits are options of every command (opts.h) */
    int rc = pbc_take_limit_options(&argc, args);
    if (rc) {
        free(args);
        return rc;
    }
    pbc_getopt_reset();
    rc = cmd->fn(argc, args);
    free(args);
    int out_rc = pbc_finish_stdout();
    return rc ? rc : out_rc;
}

int main(int argc, char **argv) {
    /* a killed run leaves no temporary output file behind (io.h) */
    (void)pb_sink_catch_signals();
    if (argc < 2) {
        print_help(stderr);
        return PBC_EXIT_USAGE;
    }
    const char *a = argv[1];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
        print_help(stdout);
        return pbc_finish_stdout();
    }
    if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0 || strcmp(a, "-version") == 0) {
        printf(PBC_PROG " %s (library %s)\n", PB_VERSION_STRING, pb_version());
        return pbc_finish_stdout();
    }
    if (strcmp(a, "help") == 0) { /* "profbridge help convert" = "profbridge convert --help" */
        if (argc < 3) {
            print_help(stdout);
            return pbc_finish_stdout();
        }
        const pbc_command *c = find_command(argv[2]);
        if (!c) {
            pbc_msg("unknown command '%s'; try '" PBC_PROG " --help'", argv[2]);
            return PBC_EXIT_USAGE;
        }
        char *h[] = {argv[2], "--help", NULL};
        return run(c, 2, h);
    }
    if (a[0] == '-') {
        pbc_msg("unknown option '%s' (a command must come first); try '" PBC_PROG " --help'", a);
        return PBC_EXIT_USAGE;
    }
    const pbc_command *c = find_command(a);
    if (!c) {
        fprintf(stderr, PBC_PROG ": unknown command '%s'; commands are:", a);
        for (size_t i = 0; i < NUM_COMMANDS; i++) fprintf(stderr, " %s", commands[i].name);
        fputs("\nTry '" PBC_PROG " --help' for more information.\n", stderr);
        return PBC_EXIT_USAGE;
    }
    return run(c, argc - 1, argv + 1);
}
