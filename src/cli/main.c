/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * main.c -- `profbridge`: global options and dispatch to the subcommands
 * listed in commands.h.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_cov.h"
#include "llvm_args.h"
#include "llvm_options.h"
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

/* Runs `cmd` with argv[0] replaced by "profbridge <name>", so the parser's
 * messages say which subcommand complained. @response files are expanded
 * first, for every command, as LLVM's tools expand them before parsing
 * (llvm_args.h; the commands on llvm_args find nothing left to expand). */
static int run(const pbc_command *cmd, int argc, char **argv) {
    char prog[64];
    snprintf(prog, sizeof prog, PBC_PROG " %s", cmd->name);
    pbc_args words; /* owns the words of the response files */
    memset(&words, 0, sizeof words);
    char **args = NULL;
    int rc = pbc_args_expand(cmd->name, argc, argv, &argc, &args, &words);
    if (rc) {
        pbc_args_free(&words);
        return rc;
    }
    args[0] = prog;
    /* the input limits are options of every command (opts.h) */
    rc = pbc_take_limit_options(&argc, args);
    if (rc == 0) rc = cmd->fn(argc, args);
    free(args);
    pbc_args_free(&words);
    int out_rc = pbc_finish_stdout();
    return rc ? rc : out_rc;
}

/* ---- the llvm-profdata personality (docs/llvm-profdata.md) ----------------------- */

/* The release N when the program is called TOOL-N (13..24), 0 for plain
 * TOOL, -1 for any other name: TOOL is llvm-profdata or llvm-cov. */
static int link_release(const char *argv0, const char *tool) {
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    size_t n = strlen(tool);
    if (strncmp(base, tool, n) != 0) return -1;
    const char *v = base + n;
    if (*v == '\0') return 0;
    if (v[0] != '-' || v[1] < '1' || v[1] > '9') return -1;
    char *end;
    long r = strtol(v + 1, &end, 10);
    if (*end || r > pb_release_max() || !pb_release_known((int)r)) return -1;
    return (int)r;
}

/* ---- the llvm-cov personality (docs/coverage.md) --------------------------------- */

/* llvm-cov's helpMain, word for word (on stderr, as there). */
static void cov_top_help(void) {
    fputs("Usage: llvm-cov {export|gcov|report|show} [OPTION]...\n\n"
          "Shows code coverage information.\n\n"
          "Subcommands:\n"
          "  export: Export instrprof file to structured format.\n"
          "  gcov:   Work with the gcov format.\n"
          "  report: Summarize instrprof style coverage information.\n"
          "  show:   Annotate source files using instrprof style coverage.\n",
          stderr);
}

static int personality_release(const char *prog, int *release);

/* Behaves as llvm-cov of release N for export and report (llvm-cov.cpp's
 * main: the subcommand first, each parsing its command line as the program
 * "ARGV0 export"); show and gcov are not provided. */
static int run_as_llvm_cov(int release, int argc, char **argv) {
    const char *prog = strrchr(argv[0], '/');
    prog = prog ? prog + 1 : argv[0];
    pbc_args_tool = prog;
    pbc_args_llvm_style = 1;
    pbc_args_prog = prog;
    int rc = personality_release(prog, &release);
    if (rc >= 0) return rc;
    const char *a = argc > 1 ? argv[1] : NULL;
    if (!a) {
        cov_top_help();
        return 1;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0 || strcmp(a, "--help") == 0) {
        cov_top_help();
        return 0;
    }
    if (strcmp(a, "-version") == 0 || strcmp(a, "--version") == 0) {
        printf("profbridge %s acting as llvm-cov of LLVM %d\n"
               "  LLVM version %d.0.0 (its export and report as implemented by profbridge, not LLVM)\n",
               PB_VERSION_STRING, release, release);
        return pbc_finish_stdout() ? 1 : 0;
    }
    if (strcmp(a, "show") == 0 || strcmp(a, "gcov") == 0 || strcmp(a, "convert-for-testing") == 0) {
        fprintf(stderr, "%s: profbridge provides llvm-cov's export and report only; for '%s' use the real llvm-cov-%d\n",
                prog, a, release);
        return 1;
    }
    int which = strcmp(a, "export") == 0 ? PBC_COV_EXPORT : strcmp(a, "report") == 0 ? PBC_COV_REPORT : -1;
    if (which < 0) {
        fprintf(stderr, "Unrecognized command: %s.\n\n", a);
        cov_top_help();
        return 1;
    }
    /* cl::opt's messages name "PROG export" and say "Try: 'ARGV0 export --help'" */
    static char sub_prog[160];
    snprintf(sub_prog, sizeof sub_prog, "%s %s", prog, a);
    pbc_args_prog = sub_prog;
    static char sub_argv0[PATH_MAX + 32];
    snprintf(sub_argv0, sizeof sub_argv0, "%s %s", argv[0], a);
    pbc_args_argv0 = sub_argv0;
    argv[1] = sub_argv0;
    rc = pbc_cov_personality(which, argc - 1, argv + 1);
    int out_rc = pbc_finish_stdout();
    return rc ? 1 : out_rc ? 1 : 0;
}

/* llvm-profdata's own subcommands (order from LLVM 17 on). */
static const pbc_command *llvm_command(const char *name, int rt) {
    if (strcmp(name, "merge") && strcmp(name, "show") && strcmp(name, "overlap") && strcmp(name, "order"))
        return NULL;
    if (strcmp(name, "order") == 0 && !pb_release_has(rt, "ORDER")) return NULL;
    return find_command(name);
}

/* Behaves as llvm-profdata of release N: the subcommand first, messages
 * prefixed with the program's name (warnings and errors without it, as
 * LLVM's WithColor prints them: opts.c), the release handed to the subcommand
 * in pbc_release_env (as PROFBRIDGE_LLVM_VERSION would), and exit status 1
 * for every failure, as LLVM's tools exit. */
static int personality_main(int release, int argc, char **argv);

/* The release a bare llvm-profdata acts as (PROFBRIDGE_LLVM_VERSION, else the
 * default); a bad value is reported later, by personality_main. */
static int effective_release(int release) {
    const char *env = pbc_release_env;
    int t = 0;
    pb_error e;
    if (release) return release;
    if (env && *env && pb_release_parse(env, "PROFBRIDGE_LLVM_VERSION", &t, &e) == 0) return t;
    return pb_release_default();
}

static int run_as_llvm_profdata(int release, int argc, char **argv) {
    /* LLVM 18+ expand @files before they look for the subcommand (cl::
     * SubCommand); 13-17's main() took argv[1] as it is, so there "@f" is an
     * unknown command and only the subcommand's own parser expands (run()) */
    if (pb_release_has(effective_release(release), "ARGS_PER_SUBCOMMAND"))
        return personality_main(release, argc, argv);
    pbc_args words;
    memset(&words, 0, sizeof words);
    char **args = NULL;
    const char *prog = strrchr(argv[0], '/');
    if (pbc_args_expand(prog ? prog + 1 : argv[0], argc, argv, &argc, &args, &words)) {
        pbc_args_free(&words);
        return 1;
    }
    int rc = personality_main(release, argc, args);
    free(args);
    pbc_args_free(&words);
    return rc;
}

/* The release the personality acts as: the link's (handed to the
 * subcommands in pbc_release_env), else PROFBRIDGE_LLVM_VERSION's, else the
 * default. Returns -1 to go on, else the exit status. */
static int personality_release(const char *prog, int *release) {
    static char num[16];
    if (*release) {
        snprintf(num, sizeof num, "%d", *release);
        pbc_release_env = num;
        return -1;
    }
    const char *env = pbc_release_env;
    int t = 0;
    pb_error e;
    if (env && *env && pb_release_parse(env, "PROFBRIDGE_LLVM_VERSION", &t, &e)) {
        fprintf(stderr, "%s: PROFBRIDGE_LLVM_VERSION wants an LLVM release from %d to %d, got '%s'\n", prog,
                pb_release_min(), pb_release_max(), env);
        return 1;
    }
    *release = env && *env ? t : pb_release_default();
    return -1;
}

/* The top level's own options (help, version) as release rt's main() answers
 * them. Returns -1 when a is none of them, else the exit status. */
static int top_level_option(const char *prog, int release, int rt, const char *a) {
    int per_sub = pb_release_has(rt, "ARGS_PER_SUBCOMMAND");
    if (per_sub && (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0 || strcmp(a, "--help") == 0)) {
        /* 13-17's main() printed this itself, word for word */
        printf("OVERVIEW: LLVM profile data tools\n\nUSAGE: %s <command> [args...]\nUSAGE: %s <command> -help\n\n"
               "See each individual command --help for more details.\nAvailable commands: merge, show, %soverlap\n",
               prog, prog, pb_release_has(rt, "ORDER") ? "order, " : "");
        return pbc_finish_stdout() ? 1 : 0;
    }
    /* 13-16 know no --version, 17 only the double-dash one */
    int version = strcmp(a, "--version") == 0 || (!per_sub && strcmp(a, "-version") == 0);
    if (version && pb_release_has(rt, "TOP_VERSION")) {
        /* the second line keeps "LLVM version N.0.0", which scripts that
         * ask llvm-profdata for its release look for, and says it is not LLVM */
        printf("profbridge %s acting as llvm-profdata of LLVM %d\n"
               "  LLVM version %d.0.0 (its profile formats as implemented by profbridge, not LLVM)\n",
               PB_VERSION_STRING, release, release);
        return pbc_finish_stdout() ? 1 : 0;
    }
    if (!per_sub && (strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0 || strcmp(a, "-h") == 0 ||
                     strcmp(a, "--help-hidden") == 0)) {
        printf("OVERVIEW: LLVM profile data (profbridge acting as llvm-profdata of LLVM %d)\n\n"
               "USAGE: %s [subcommand] [options]\n\nSUBCOMMANDS:\n\n"
               "  merge   - merge profiles\n  show    - show a profile\n"
               "  overlap - overlap of two profiles\n",
               release, prog);
        if (pb_release_has(rt, "ORDER")) puts("  order   - a function order from temporal profile traces");
        printf("\nType \"%s <subcommand> --help\" to get more help on a specific subcommand\n", prog);
        return pbc_finish_stdout() ? 1 : 0;
    }
    return -1;
}

/* No subcommand, or an unknown one, in release rt's words. */
static int no_command(const char *prog, int rt, int argc, char **argv) {
    /* up to LLVM 17 main() picked the subcommand by hand */
    const char *usage = pb_release_has(rt, "ORDER") ? "<merge|show|order|overlap>" : "<merge|show|overlap>";
    if (argc < 2) {
        if (pb_release_has(rt, "ARGS_PER_SUBCOMMAND"))
            fprintf(stderr, "%s: No command specified!\nUSAGE: %s %s [args...]\n", prog, prog, usage);
        else
            fprintf(stderr, "%s: No subcommand specified! Run %s --help for usage.\n", prog,
                    pb_release_has(rt, "NO_SUBCOMMAND_TYPO") ? "llvm-profata" : "llvm-profdata");
        return 1;
    }
    if (pb_release_has(rt, "ARGS_PER_SUBCOMMAND")) {
        fprintf(stderr, "%s: Unknown command!\nUSAGE: %s %s [args...]\n", prog, prog, usage);
        return 1;
    }
    /* cl::SubCommand: the top level then parses the rest and knows none
     * of it (LLVM also suggests a "Did you mean" for options, from
     * libLLVM's global options: not copied) */
    fprintf(stderr, "%s: Unknown subcommand '%s'.  Try: '%s --help'\n", prog, argv[1], prog);
    for (int i = 2; i < argc; i++)
        fprintf(stderr, "%s: Unknown command line argument '%s'.  Try: '%s --help'\n", prog, argv[i], prog);
    return 1;
}

static int personality_main(int release, int argc, char **argv) {
    const char *prog = strrchr(argv[0], '/');
    prog = prog ? prog + 1 : argv[0];
    pbc_args_prog = prog;
    pbc_args_tool = prog;
    pbc_args_argv0 = argv[0];
    pbc_args_llvm_style = 1;
    int rc = personality_release(prog, &release);
    if (rc >= 0) return rc;
    int rt = release;
    if (!pb_release_known(rt)) return 1;
    if (argc < 2) return no_command(prog, rt, argc, argv);
    const char *a = argv[1];
    if ((rc = top_level_option(prog, release, rt, a)) >= 0) return rc;
    const pbc_command *c = llvm_command(a, rt);
    if (!c) return no_command(prog, rt, argc, argv);
    /* up to LLVM 17 each subcommand parsed its options as the program
     * "llvm-profdata-N show": cl::opt's messages say so */
    static char sub_prog[160];
    if (pb_release_has(rt, "ARGS_PER_SUBCOMMAND")) {
        snprintf(sub_prog, sizeof sub_prog, "%s %s", prog, a);
        pbc_args_prog = sub_prog;
        /* and "Try: 'ARGV0 show --help'" with argv[0] as started */
        static char sub_argv0[PATH_MAX + 32];
        snprintf(sub_argv0, sizeof sub_argv0, "%s %s", argv[0], a);
        pbc_args_argv0 = sub_argv0;
    }
    return run(c, argc - 1, argv + 1) ? 1 : 0;
}

/* For tests (llvm_args_options.sh): the table of llvm-profdata's options
 * of one subcommand, "name alias kind type since until refused". */
static int print_llvm_options(const char *subcommand) {
    if (strcmp(subcommand, "cov-globals") == 0) { /* "name releases takes-value": bit r-13 of releases for release r */
        for (size_t i = 0; i < pbc_llvm_cov_nglobals; i++)
            printf("%s %u %d\n", pbc_llvm_cov_globals[i].name, (unsigned)pbc_llvm_cov_globals[i].releases,
                   pbc_llvm_cov_globals[i].value);
        return pbc_finish_stdout();
    }
    const pbc_arg_spec *tables[2] = {pbc_llvm_options_of(subcommand), pbc_args_generic_specs()};
    if (!tables[0]) return PBC_EXIT_USAGE;
    static const char *const kinds[] = {"flag", "bool", "value", "positional"};
    for (int t = 0; t < 2; t++)
        for (const pbc_arg_spec *o = tables[t]; o->name; o++) {
            if (o->include) { /* llvm-cov's tables include their common options */
                for (const pbc_arg_spec *i = o->include; i->name; i++)
                    printf("%s %s %s %d %d %d %d\n", i->name, i->alias ? i->alias : "-", kinds[i->kind],
                           (int)i->type, i->since, i->until, i->refused != NULL);
                continue;
            }
            printf("%s %s %s %d %d %d %d\n", o->name, o->alias ? o->alias : "-", kinds[o->kind], (int)o->type,
                   o->since, o->until, o->refused != NULL);
        }
    return pbc_finish_stdout();
}

/* For shell completion (llvm_args.h: PBC_COMPLETE_OPTION): the commands,
 * or one command's options (its parser prints them when it meets the same
 * option). */
static int print_completion_words(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[2], "cov") == 0) { /* cov's subcommands have the options */
        const pbc_command *c = find_command("cov");
        for (size_t i = 0; i < pbc_limit_option_count; i++)
            printf("--%s %s\n", pbc_limit_options[i].name, pbc_limit_options[i].arg);
        char *w[] = {argv[2], argv[3], PBC_COMPLETE_OPTION, NULL};
        return c ? run(c, 3, w) : PBC_EXIT_USAGE;
    }
    if (argc == 3) {
        const pbc_command *c = find_command(argv[2]);
        if (!c) return PBC_EXIT_USAGE;
        /* every command takes the input limits (taken by main: opts.h) */
        for (size_t i = 0; i < pbc_limit_option_count; i++)
            printf("--%s %s\n", pbc_limit_options[i].name, pbc_limit_options[i].arg);
        char *w[] = {argv[2], PBC_COMPLETE_OPTION, NULL};
        return run(c, 2, w);
    }
    for (size_t i = 0; i < NUM_COMMANDS; i++) printf("%s\n", commands[i].name);
    puts("help\n--help -\n-h -\n--version -\n-V -");
    return pbc_finish_stdout();
}

/* "profbridge help convert" = "profbridge convert --help". */
static int help_command(int argc, char **argv) {
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

/* The first word names a command: run it, or list the commands. */
static int command_main(int argc, char **argv) {
    const char *a = argv[1];
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

int main(int argc, char **argv) {
    /* a killed run leaves no temporary output file behind (io.h) */
    (void)pb_sink_catch_signals();
    /* the one reading of the variable: commands and personalities ask pbc_release_env */
    pbc_release_env = getenv("PROFBRIDGE_LLVM_VERSION");
    int release = argc > 0 ? link_release(argv[0], "llvm-profdata") : -1;
    if (release >= 0) return run_as_llvm_profdata(release, argc, argv);
    release = argc > 0 ? link_release(argv[0], "llvm-cov") : -1;
    if (release >= 0) return run_as_llvm_cov(release, argc, argv);
    if (argc < 2) {
        print_help(stderr);
        return PBC_EXIT_USAGE;
    }
    const char *a = argv[1];
    if (strcmp(a, "--llvm-options") == 0 && argc == 3) return print_llvm_options(argv[2]);
    if (strcmp(a, PBC_COMPLETE_OPTION) == 0 && argc <= 4) return print_completion_words(argc, argv);
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
        print_help(stdout);
        return pbc_finish_stdout();
    }
    if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0 || strcmp(a, "-version") == 0) {
        printf(PBC_PROG " %s (library %s)\n", PB_VERSION_STRING, pb_version());
        return pbc_finish_stdout();
    }
    if (strcmp(a, "help") == 0) return help_command(argc, argv);
    return command_main(argc, argv);
}
