/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_cov.c -- `profbridge cov export|report [options] OBJECT [SOURCES...]`
 * and llvm-cov-N export/report (the personality): llvm-cov's checks of the
 * command line, in its order and words, then the library's load and export
 * or report (docs/coverage.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd_cov.h"
#include "cov_demangler.h"
#include "opts.h"

static const pbc_arg_spec export_own[] = {
    PBC_ARG_INCLUDE(pbc_llvm_cov_export_options),
    {.name = "llvm-version", .id = PBC_COV_OPT_LLVM_VERSION, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "act as llvm-cov of LLVM N (13-24)"},
    {.name = "weighted-instr-profile", .id = PBC_COV_OPT_WEIGHTED, .kind = PBC_ARG_VALUE, .type = PBC_VAL_LIST,
     .arg = "W,FILE", .help = "a profile with weight W (may repeat; merged as profbridge merge)"},
    PBC_ARG_END};

static const pbc_arg_spec report_own[] = {
    PBC_ARG_INCLUDE(pbc_llvm_cov_report_options),
    {.name = "llvm-version", .id = PBC_COV_OPT_LLVM_VERSION, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "act as llvm-cov of LLVM N (13-24)"},
    {.name = "weighted-instr-profile", .id = PBC_COV_OPT_WEIGHTED, .kind = PBC_ARG_VALUE, .type = PBC_VAL_LIST,
     .arg = "W,FILE", .help = "a profile with weight W (may repeat; merged as profbridge merge)"},
    PBC_ARG_END};

static const char *const usage_of[2] = {"cov export [options] OBJECT [SOURCES...]",
                                        "cov report [options] OBJECT [SOURCES...]"};

static void print_help(int which, FILE *out) {
    fprintf(out, "Usage: " PBC_PROG " %s\n\n", usage_of[which]);
    fputs(which == PBC_COV_EXPORT
              ? "Exports the coverage of OBJECT (a program or library built with clang\n"
                "-fprofile-instr-generate -fcoverage-mapping) as llvm-cov-N export does: JSON\n"
                "(-format=text) or an lcov tracefile (-format=lcov), byte for byte.\n"
              : "Prints the coverage summary table of OBJECT as llvm-cov-N report does\n"
                "(-show-functions: one table per source file).\n",
          out);
    fputs("Options follow llvm-cov's rules (-x = --x, -x=V or -x V, @FILE); the\n"
          "release N is --llvm-version, PROFBRIDGE_LLVM_VERSION or 19. -instr-profile may\n"
          "repeat: the profiles are merged (see docs/coverage.md). With --llvm-version N\n"
          "the command line, messages and exit statuses are llvm-cov-N's (one profile).\n\nOptions:\n",
          out);
    pbc_args_print_help(out, which == PBC_COV_EXPORT ? export_own : report_own, 0);
}

/* The "error: " line of llvm-cov's error(): lower-case first word from 18 on. */
static void cov_error(const pbc_cov_request *q, const char *upper, const char *lower) {
    const char *m = pbc_cov_cli_has(q->t.release, PBC_COVR_LOWERCASE_ERRORS) ? lower : upper;
    if (pbc_args_llvm_style) fprintf(stderr, "error: %s\n", m);
    else fprintf(stderr, PBC_PROG " cov: error: %s\n", m);
}

/* llvm-cov forces colours for -format=html, so its error() is red then. */
static void cov_error_red(const char *m) {
    if (pbc_args_llvm_style) fprintf(stderr, "\033[0;31merror: %s\n\033[0m", m);
    else fprintf(stderr, PBC_PROG " cov: error: %s\n", m);
}

/* Triple(Arch).getArch() != UnknownArch, for the architectures clang builds
 * coverage for on the platforms profbridge reads (ELF). */
static int known_arch(const char *a) {
    static const char *const arches[] = {"x86_64", "amd64", "x86_64h", "i386", "i486", "i586", "i686", "x86",
                                         "aarch64", "arm64", "aarch64_be", "arm", "armv7", "armv7a", "thumb",
                                         "riscv32", "riscv64", "ppc64", "ppc64le", "powerpc64", "powerpc64le",
                                         "ppc", "powerpc", "s390x", "systemz", "mips", "mipsel", "mips64",
                                         "mips64el", "sparc", "sparcv9", "wasm32", "wasm64", "loongarch64"};
    for (size_t i = 0; i < sizeof arches / sizeof *arches; i++)
        if (strcmp(a, arches[i]) == 0) return 1;
    return 0;
}

/* collectPaths: a source operand that does not exist is left out with a
 * warning, unless -path-equivalence may map it to one that does. */
static void drop_missing_sources(pbc_cov_request *q) {
    size_t k = 0;
    for (size_t i = 0; i < q->o.nsources; i++) {
        struct stat st;
        if (q->npath_equivs || stat(q->sources[i], &st) == 0) {
            q->sources[k++] = q->sources[i];
            continue;
        }
        fprintf(stderr, "%swarning: %s: Source file doesn't exist, proceeded by ignoring it.\n",
                pbc_args_llvm_style ? "" : PBC_PROG ": ", q->sources[i]);
    }
    q->o.nsources = k;
}

/* The checks llvm-cov's command-line lambda makes after parsing, in its
 * order. Returns -1 to go on, else the exit status. */
static int check_request(pbc_cov_request *q) {
    int rel = q->t.release;
    if (pbc_cov_cli_has(rel, PBC_COVR_EMPTY_PROFILE) && q->have_instr_profile == q->o.empty_profile) {
        cov_error(q, "exactly one of -instr-profile and -empty-profile must be specified",
                  "exactly one of -instr-profile and -empty-profile must be specified");
        return 1;
    }
    if (!pbc_cov_cli_has(rel, PBC_COVR_EMPTY_PROFILE) && !q->have_instr_profile) {
        /* the personality's parser said it; profbridge's name says it here */
        fprintf(stderr, PBC_PROG " cov: for the --instr-profile option: must be specified at least once!\n");
        return PBC_EXIT_USAGE;
    }
    if (q->nobjects == 0) {
        fputs("No filenames specified!\n", stderr);
        return 1;
    }
    if (q->dump_objects) {
        for (size_t i = 0; i < q->nobjects; i++) printf("%s\n", q->objects[i]);
        return pbc_finish_stdout() ? 1 : 0;
    }
    if (q->format == PBC_COV_FMT_HTML && q->use_color == 0)
        fputs("Color output cannot be disabled when generating html.\n", stderr);
    if (q->format == PBC_COV_FMT_LCOV && q->use_color == 1)
        fputs("Color output cannot be enabled when generating lcov.\n", stderr);
    for (size_t i = 0; i < q->npath_equivs && pbc_cov_cli_has(rel, PBC_COVR_PATH_EQUIV_CHECKED); i++) {
        const char *v = q->path_equivs[i], *c = strchr(v, ',');
        if (!c || c == v || !c[1]) {
            fprintf(stderr, "error: -path-equivalence: invalid argument '%s', must be in format 'from,to'\n", v);
            return 1;
        }
    }
    if (q->ndemangler) {
        /* found when the command line is read, before any object is */
        int e = pbc_demangler_find(q->demangler[0], &q->demangler_path);
        if (e == ENOMEM) {
            /* out of memory is no missing program (nor invalid input) */
            fprintf(stderr, "%s: out of memory\n", pbc_args_prog);
            return pbc_args_llvm_style ? 1 : pbc_exit_for(PB_ENOMEM);
        }
        if (e) {
            if (pbc_args_llvm_style) fprintf(stderr, "error: %s: ", strerror(e));
            else fprintf(stderr, PBC_PROG " cov: error: %s: ", strerror(e));
            fprintf(stderr, "%s\n", pbc_cov_cli_has(rel, PBC_COVR_LOWERCASE_ERRORS) ? "could not find the demangler!"
                                                                                   : "Could not find the demangler!");
            return 1;
        }
    }
    for (size_t i = 0; i < q->narches; i++) {
        if (!known_arch(q->arches[i])) {
            char m[512];
            snprintf(m, sizeof m, "Unknown architecture: %s", q->arches[i]);
            char l[512];
            snprintf(l, sizeof l, "unknown architecture: %s", q->arches[i]);
            cov_error(q, m, l);
            return 1;
        }
    }
    if (q->narches > 1 && q->narches != q->nobjects) {
        cov_error(q, "Number of architectures doesn't match the number of objects",
                  "number of architectures doesn't match the number of objects");
        return 1;
    }
    drop_missing_sources(q);
    return -1;
}

/* doExport's and doReport's own checks, then the profile's stat (15+). */
static int check_command(const pbc_cov_request *q) {
    if (q->which == PBC_COV_EXPORT && q->format == PBC_COV_FMT_HTML) {
        cov_error_red(pbc_cov_cli_has(q->t.release, PBC_COVR_LOWERCASE_ERRORS)
                          ? "coverage data can only be exported as textual JSON or an lcov tracefile."
                          : "Coverage data can only be exported as textual JSON or an lcov tracefile.");
        return 1;
    }
    if (q->which == PBC_COV_REPORT && q->format == PBC_COV_FMT_HTML) {
        cov_error_red("HTML output for summary reports is not yet supported.");
        return 1;
    }
    if (q->which == PBC_COV_REPORT && q->format == PBC_COV_FMT_LCOV) {
        cov_error(q, "Lcov format should be used with 'llvm-cov export'.",
                  "lcov format should be used with 'llvm-cov export'.");
        return 1;
    }
    if (!pbc_cov_cli_has(q->t.release, PBC_COVR_PROFILE_STAT_FIRST)) return -1;
    for (size_t i = 0; i < q->nprofiles; i++) {
        struct stat st;
        if (stat(q->profiles[i], &st) == 0) continue;
        char m[1024];
        snprintf(m, sizeof m, "%s: %s profile data!No such file or directory", q->profiles[i],
                 pbc_cov_cli_has(q->t.release, PBC_COVR_LOWERCASE_ERRORS) ? "could not read" : "Could not read");
        cov_error(q, m, m);
        return 1;
    }
    return -1;
}

/* llvm-cov-13..17 cannot read coverage mapping version 7 (clang 18+). */
static void note_refused_objects(const pbc_cov_request *q, const pb_coverage *cov) {
    if (pb_release_has(q->t.release, "cov.READS_COVMAP_V7")) return;
    for (size_t i = 0; i < q->nobjects; i++) {
        uint32_t v = pb_coverage_object_version(cov, i);
        if (v >= 7)
            fprintf(stderr,
                    PBC_PROG ": note: %s: coverage mapping version %u (clang 18 or later): llvm-cov-%d would "
                             "refuse it; profbridge reads it\n",
                    q->objects[i], v, q->t.release);
    }
}

/* Where the library's warnings go: llvm-cov's words for its own warnings
 * (out-of-date objects, mismatched functions, missing sources); profbridge's
 * detail on each mismatched function as a note under profbridge's own name
 * (llvm-cov has no such line, so the llvm-cov-N names print none). */
typedef struct cov_diag_ctx {
    const pbc_cov_request *q;
    pbc_diag_ctx base;
} cov_diag_ctx;

static void cov_diag(void *ctx, int severity, const pb_error *e) {
    cov_diag_ctx *c = ctx;
    const char *path = e->path;
    if (strcmp(path, PB_COV_OUT_OF_DATE) == 0 || strcmp(path, "sources") == 0) {
        fprintf(stderr, "warning: %s: %s\n", e->source, e->message);
        return;
    }
    if (strcmp(path, PB_COV_MISMATCHED) == 0) {
        fprintf(stderr, "warning: %s\n", e->message);
        return;
    }
    if (strcmp(path, PB_COV_MISMATCH_FUNCTION) == 0) {
        if (!c->q->as_link)
            fprintf(stderr, PBC_PROG ": note: mismatched data: %s%s%s\n", e->source, *e->source ? ": " : "",
                    e->message);
        return;
    }
    pbc_diag(&c->base, severity, e);
}

/* A failed load: the library words it as llvm-cov-N does (err->message is
 * the whole line after "error: " for an unreadable profile, err->path
 * PB_COV_PROFILE_UNREADABLE, and for a failed load, PB_COV_LOAD_FAILED or an
 * object's error, err->source the object); under profbridge's own name an
 * object's detail (section, offset, field) follows as a note. Returns 1 when
 * export adds llvm-cov's second line. */
static int print_load_error(const pbc_cov_request *q, const pb_error *err) {
    if (strcmp(err->path, PB_COV_PROFILE_UNREADABLE) == 0) {
        fprintf(stderr, "error: %s\n", err->message);
        return 0;
    }
    if (strcmp(err->path, PB_COV_LOAD_FAILED) == 0) {
        fprintf(stderr, "error: %s\n", err->message);
        return 1;
    }
    size_t i = 0;
    while (i < q->nobjects && strcmp(q->objects[i], err->source) != 0) i++;
    if (i == q->nobjects || (err->code != PB_EFORMAT && err->code != PB_EIO && err->code != PB_ETRUNC)) {
        pbc_print_error(err);
        return 1;
    }
    fprintf(stderr, "error: %s\n", err->message);
    if (!q->as_link) {
        char line[2048];
        pbc_error_text(err, line, sizeof line);
        fprintf(stderr, PBC_PROG ": note: %s\n", line);
    }
    return 1;
}

/* The library's load, then export or report into standard output. */
static int run_library(pbc_cov_request *q) {
    pb_error err;
    pb_error_clear(&err);
    cov_diag_ctx dc = {q, {0, 0, 0}};
    pb_cov_options o = q->o;
    o.diag = cov_diag;
    o.diag_ctx = &dc;
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    pbc_apply_limits(&ro);
    o.read = &ro;
    pb_coverage *cov = NULL;
    int rc = pb_coverage_load(&cov, q->objects, q->nobjects, q->profiles, q->weights, q->nprofiles, &o, &err);
    if (rc) {
        int second = print_load_error(q, &err);
        if (q->which == PBC_COV_EXPORT && second && rc != PB_EUNSUPPORTED)
            cov_error(q, "Could not load coverage information", "could not load coverage information");
        return pbc_args_llvm_style ? 1 : pbc_exit_for(rc);
    }
    note_refused_objects(q, cov);
    /* llvm-cov runs the demangler at the end of its load, export too */
    pbc_demangler *dm = NULL;
    pb_cov_report_options repo = q->ro;
    if (q->ndemangler) {
        q->demangler[0] = q->demangler_path;
        if (pbc_demangler_run(&dm, q->demangler, cov, pbc_cov_cli_has(q->t.release, PBC_COVR_LOWERCASE_ERRORS))) {
            pb_coverage_free(cov);
            fprintf(stderr, "%s: out of memory\n", pbc_args_prog);
            return pbc_args_llvm_style ? 1 : pbc_exit_for(PB_ENOMEM);
        }
        repo.demangle = pbc_demangler_name;
        repo.demangle_ctx = dm;
    }
    pb_sink *sink = NULL;
    rc = pb_sink_open_file(&sink, "-", 0, &err);
    if (!rc)
        rc = q->which == PBC_COV_EXPORT ? pb_coverage_export(cov, &q->eo, sink, &err)
                                        : pb_coverage_report(cov, &repo, sink, &err);
    pbc_demangler_free(dm);
    if (!rc) rc = pb_sink_commit(sink, &err);
    pb_sink_free(sink);
    pb_coverage_free(cov);
    if (rc) {
        pbc_print_error(&err);
        return pbc_args_llvm_style ? 1 : pbc_exit_for(rc);
    }
    return 0;
}

static int run_request(pbc_cov_request *q) {
    int rc = check_request(q);
    if (rc >= 0) return rc;
    if ((rc = check_command(q)) >= 0) return rc;
    return run_library(q);
}

static int print_version(int release) {
    printf("profbridge %s acting as llvm-cov of LLVM %d\n"
           "  LLVM version %d.0.0 (its export and report as implemented by profbridge, not LLVM)\n",
           PB_VERSION_STRING, release, release);
    return pbc_finish_stdout() ? 1 : 0;
}

/* Parses and runs one export/report command line; llvm_style: as llvm-cov-N,
 * of release `release` (NULL: PROFBRIDGE_LLVM_VERSION or the default);
 * as_link: started under an llvm-cov name. */
static int cov_command(int which, int argc, char **argv, int llvm_style, const char *release, int as_link) {
    const char *cmd = which == PBC_COV_EXPORT ? "cov export" : "cov report";
    pbc_release t;
    pbc_args a;
    int rc;
    if (llvm_style) {
        if (pbc_release_of(cmd, release, &t)) return 1;
        const pbc_arg_spec *specs = which == PBC_COV_EXPORT ? pbc_llvm_cov_export_options
                                                            : pbc_llvm_cov_report_options;
        if (pbc_args_parse(cmd, usage_of[which], specs, argc, argv, t.release,
                           PBC_ARGS_ALL_ERRORS | PBC_ARGS_COV, &a))
            return 1;
    } else {
        rc = pbc_args_parse(cmd, usage_of[which], which == PBC_COV_EXPORT ? export_own : report_own, argc, argv,
                            0, PBC_ARGS_COV, &a);
        if (rc) return rc;
        const pbc_arg *v = pbc_args_last(&a, PBC_COV_OPT_LLVM_VERSION);
        if (!pbc_args_last(&a, PBC_ARG_HELP_ID) &&
            (pbc_release_of(cmd, v ? v->value : NULL, &t) || pbc_args_check_release(cmd, &a, t.release))) {
            pbc_args_free(&a);
            return PBC_EXIT_USAGE;
        }
    }
    if (pbc_args_last(&a, PBC_ARG_HELP_ID)) {
        pbc_args_free(&a);
        print_help(which, stdout);
        return pbc_finish_stdout();
    }
    pbc_cov_request q;
    rc = pbc_cov_request_from_args(&q, which, &a, &t, llvm_style);
    q.as_link = as_link;
    if (rc == 0 && q.version) rc = print_version(t.release);
    else if (rc == 0) rc = run_request(&q);
    pbc_cov_request_free(&q);
    pbc_args_free(&a);
    return llvm_style && rc ? 1 : rc;
}

int pbc_cov_personality(int which, int argc, char **argv) { return cov_command(which, argc, argv, 1, NULL, 1); }

/* The value of a --llvm-version option before any "--" in argv[1..argc),
 * taken out of argv (argc shrinks); NULL when there is none. An option
 * without its value is left for the parser to refuse. */
static const char *take_llvm_version(int *argc, char **argv) {
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) return NULL;
        const char *name = a[0] == '-' ? (a[1] == '-' ? a + 2 : a + 1) : NULL;
        if (!name || strncmp(name, "llvm-version", 12) != 0 || (name[12] && name[12] != '=')) continue;
        int used = name[12] ? 1 : 2;
        if (used == 2 && i + 1 >= *argc) return NULL;
        const char *v = name[12] ? name + 13 : argv[i + 1];
        for (int k = i; k + used < *argc; k++) argv[k] = argv[k + used];
        *argc -= used;
        return v;
    }
    return NULL;
}

int pbc_cmd_cov(int argc, char **argv) {
    const char *sub = argc > 1 ? argv[1] : NULL;
    if (sub && strcmp(sub, PBC_COMPLETE_OPTION) == 0) {
        puts("export\nreport\n--help -");
        return pbc_finish_stdout();
    }
    if (!sub || strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "-help") == 0) {
        FILE *out = sub ? stdout : stderr;
        fputs("Usage: " PBC_PROG " cov export [options] OBJECT [SOURCES...]\n"
              "       " PBC_PROG " cov report [options] OBJECT [SOURCES...]\n\n"
              "Source coverage of programs built with clang -fprofile-instr-generate\n"
              "-fcoverage-mapping, as llvm-cov-N export and report print it (N = 13..24:\n"
              "--llvm-version, PROFBRIDGE_LLVM_VERSION, or 19). 'cov export --help' and\n"
              "'cov report --help' list the options; see docs/coverage.md.\n",
              out);
        return sub ? pbc_finish_stdout() : PBC_EXIT_USAGE;
    }
    int which = strcmp(sub, "export") == 0 ? PBC_COV_EXPORT : strcmp(sub, "report") == 0 ? PBC_COV_REPORT : -1;
    if (which < 0)
        return pbc_usage_error("cov", "unknown subcommand '%s' (export or report; llvm-cov's show and gcov are "
                                      "not provided)", sub);
    static char prog[64];
    snprintf(prog, sizeof prog, PBC_PROG " cov %s", sub);
    argv[1] = prog;
    /* --llvm-version N: llvm-cov-N's command line, words and exit statuses
     * (one -instr-profile, no weights), with profbridge's notes added */
    int n = argc - 1;
    const char *release = take_llvm_version(&n, argv + 1);
    if (!release) return cov_command(which, n, argv + 1, 0, NULL, 0);
    pbc_args_llvm_style = 1;
    pbc_args_prog = prog;
    pbc_args_tool = prog;
    pbc_args_argv0 = prog;
    return cov_command(which, n, argv + 1, 1, release, 0) ? 1 : 0;
}
