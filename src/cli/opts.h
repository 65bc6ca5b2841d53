/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * opts.h -- option handling and messages shared by the subcommands.
 *
 * Subcommands parse their options with llvm_args.h (LLVM's cl::opt rules);
 * what they share is here: the --from/--to format names, the plugin options (--NAME VALUE for
 * any option a plugin declares), exit codes and the way messages look
 * ("profbridge: ..." on stderr, warnings and notes through pbc_diag).
 */
#ifndef PB_CLI_OPTS_H
#define PB_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profbridge/profbridge.h"
/* the CLI lists plugins and their options (--help, dump): the implementer view */
#include "profbridge/sys/format.h"

/* Exit codes of every subcommand (documented in docs/profbridge.1). */
enum {
    PBC_EXIT_OK = 0,      /* done; for validate: every input valid */
    PBC_EXIT_INVALID = 1, /* an input is invalid (or, for comparisons, different) */
    PBC_EXIT_USAGE = 2    /* usage error, I/O error or anything else that stopped the work */
};

#define PBC_PROG "profbridge"

/* The exit code that fits a failed library call: input that breaks its
 * format's rules is "invalid" (1); I/O, usage, memory and the rest are 2. */
int pbc_exit_for(int code);

/* Prints "profbridge: <pb_error_format(e)>" on stderr ("error: ..." in the
 * llvm-profdata personality, as llvm-profdata's exitWithError). */
void pbc_print_error(const pb_error *e);
/* pb_error_format, with the command-line option in place of the library's
 * own term where a message names one (error_hint.c). */
size_t pbc_error_text(const pb_error *e, char *buf, size_t n);

/* Prints "profbridge: error: <message>" ("error: <message>" in the
 * personality) on stderr. */
void pbc_error_line(const char *fmt, ...) PB_PRINTF(1, 2);

/* After a strict read failed with `code`: a note that --lenient exists
 * (only for PB_EFORMAT, the problems a reader may be able to repair). */
void pbc_lenient_hint(int code, int lenient);

/* Prints "profbridge: <message>" on stderr ("error: <message>" in the
 * personality: llvm-profdata's messages of this kind are errors; one that
 * starts "note: " is not printed there, as pbc_diag's notes). */
void pbc_msg(const char *fmt, ...) PB_PRINTF(1, 2);

/* Prints "profbridge <cmd>: <message>" and a hint to --help on stderr and
 * returns PBC_EXIT_USAGE. */
int pbc_usage_error(const char *cmd, const char *fmt, ...) PB_PRINTF(2, 3);


/* Counts what went through pbc_diag (ctx of pbc_diag). */
typedef struct pbc_diag_ctx {
    size_t notices, warnings, errors;
} pbc_diag_ctx;

/* pb_diag_fn printing "profbridge: warning: ..." / "profbridge: note: ..." /
 * "profbridge: error: ..." on stderr; ctx may be NULL or a pbc_diag_ctx. In
 * the personality: "warning: ..." / "error: ...", and notes are counted but
 * not printed (llvm-profdata prints none). */
void pbc_diag(void *ctx, int severity, const pb_error *e);

/*
 * Looks up a format named on the command line (--from/--to). On an unknown
 * name prints the usage error listing the known formats and returns NULL.
 */
const pb_format *pbc_format_arg(const char *cmd, const char *option, const char *name);

/* Writes the list of registered formats (name, extensions, description,
 * what it can do) for --help texts. */
void pbc_print_formats(FILE *out);

/* Writes the options every plugin's reader declares, for --help texts (a
 * command that only reads: dump). */
void pbc_print_plugin_reader_options(FILE *out);

/* Plugin options found on a command line (llvm_args.h takes every --NAME a
 * plugin declares); the kv keys and values point into argv. */
typedef struct pbc_plugin_opts {
    pb_kv *kv;
    size_t n;
} pbc_plugin_opts;

/*
 * Checks every collected option against the reader's read_options (`in`,
 * may be NULL) and the writer's write_options (`out`, may be NULL). Returns 0
 * or PBC_EXIT_USAGE after a message that lists the valid options.
 */
int pbc_check_plugin_options(const char *cmd, const pbc_plugin_opts *po, const pb_format *in,
                             const pb_format *out);

void pbc_plugin_opts_free(pbc_plugin_opts *po);

/*
 * Flushes stdout and reports a failed write ("profbridge: cannot write to
 * standard output: ..."). Returns 0 or PBC_EXIT_USAGE.
 */
int pbc_finish_stdout(void);

/* Opens a command's text output OUT ("-" or NULL = stdout) with a big
 * buffer; NULL after a message when it cannot be created. A file is a
 * stdio stream over a pb_sink: it follows the rules of every output
 * (temporary file and rename, devices in place; profbridge/io.h). */
FILE *pbc_open_out(const char *out_path);

/* Closes what pbc_open_out opened and returns exit_code, or PBC_EXIT_USAGE
 * after a message when the file could not be written (standard output is
 * flushed and checked by main, as for every command). OUT is replaced only
 * when exit_code is PBC_EXIT_OK; otherwise it is left as it was. */
int pbc_close_out(FILE *out, const char *out_path, int exit_code);

/* --max-input-size / --max-inflation, taken by main from any command's
 * arguments (0 = the library's default; PB_NO_LIMIT = none). */
typedef struct pbc_limits_t {
    uint64_t max_input_size, max_inflation;
} pbc_limits_t;
extern pbc_limits_t pbc_limits;

/* The names of those two options and their values' names (for completion). */
typedef struct pbc_limit_option {
    const char *name, *arg;
} pbc_limit_option;
extern const pbc_limit_option pbc_limit_options[];
extern const size_t pbc_limit_option_count;

/* Removes --max-input-size N and --max-inflation N (also "=N" and one-dash
 * spellings) from argv into pbc_limits. Returns 0 or PBC_EXIT_USAGE after a
 * message. */
int pbc_take_limit_options(int *argc, char **argv);

/* Sets the limits of pbc_limits in read options. */
void pbc_apply_limits(pb_read_options *ro);

/* Opens an input ("-" = stdin) with the limits of pbc_limits. */
int pbc_open_input(const char *path, pb_source **src, pb_error *err);

/*
 * Before any input is read: OUT (NULL or "-": nothing to check) can be
 * written (pb_sink_check) and destroys none of the inputs
 * (pb_sink_check_inputs: a report is never written over one of its inputs; a
 * profile only where it would be written in place). Returns 0 or
 * PBC_EXIT_USAGE after a message naming OUT (and the input).
 */
int pbc_check_output(const char *cmd, const char *out_path, const char *const *inputs, size_t n, int is_report);

/* Parses a decimal unsigned number (no sign, no junk, no overflow).
 * Returns 0 or -1. */
int pbc_parse_u64(const char *s, uint64_t *out);

/* Parses a boolean option value as LLVM's cl::opt does: NULL (the flag
 * alone), "true", "1" -> 1; "false", "0" -> 0; anything else -> -1. */
int pbc_parse_bool(const char *s);

/*
 * The release chosen outside the command line, as text: the N of an
 * llvm-profdata-N / llvm-cov-N link, else $PROFBRIDGE_LLVM_VERSION (NULL or
 * empty: none). Set once by main() -- the one place that reads the
 * variable -- before any command runs; a bad value is reported by the
 * command that needs a release (pbc_release_of).
 */
extern const char *pbc_release_env;

/* The LLVM release a command acts as: its number (profbridge/release.h
 * answers the questions about it) and whether the user named it. */
typedef struct pbc_release {
    int release; /* pb_release_min() .. pb_release_max() */
    int chosen;  /* 1: named (--llvm-version, PROFBRIDGE_LLVM_VERSION or the
                    llvm-profdata-N name); 0: pb_release_default() */
} pbc_release;

/*
 * The release a command acts as: `value` (its --llvm-version, NULL when not
 * given), else pbc_release_env when set and not empty, else
 * pb_release_default() (chosen 0). Commands call it once, before reading
 * any input, and hand the release to the library in the options'
 * llvm_release. Returns 0 and fills *r, or PBC_EXIT_USAGE after a usage
 * message naming the option or the variable (*r untouched).
 */
int pbc_release_of(const char *cmd, const char *value, pbc_release *r);



/* How the tool speaks (set once by main.c before any command runs; here and
 * not in llvm_args.c because every message helper of opts.c reads them). */
/* The program name messages start with ("profbridge" or "llvm-profdata-N"). */
extern const char *pbc_args_prog;

/* The program's name alone ("profbridge", "llvm-profdata-15"), where
 * pbc_args_prog may also name the subcommand ("llvm-profdata-15 merge": LLVM
 * 13-17 parsed each subcommand as a program of its own). */
extern const char *pbc_args_tool;

/* argv[0] as the program was started (a path or a name found on PATH), or
 * NULL: cl::ParseCommandLineOptions names it so in "Try: 'ARGV0 --help'",
 * where the message's first word is only the file name. */
extern const char *pbc_args_argv0;

/* 1: usage errors in LLVM's words ("llvm-profdata-19: Unknown command line
 * argument '-x'.  Try: ..." / "Did you mean '--y'?"), for the llvm-profdata
 * personality; 0: profbridge's (with the usage line and a --help hint). */
extern int pbc_args_llvm_style;

#endif
