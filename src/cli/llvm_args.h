/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * llvm_args.h -- the command-line parser every subcommand uses, following the
 * rules of LLVM's cl::opt as llvm-profdata uses them (docs/llvm-profdata.md).
 * Not the only reader of argv: two passes take options out of it first
 * (opts.c's pbc_take_limit_options, --max-input-size/--max-inflation;
 * cmd_cov.c's take_llvm_version), with the same -x/--x and -x=v spellings:
 *
 *   -x and --x are the same option (no short-option clusters: -ab is the
 *   option "ab", never -a -b; "-" alone is a positional: standard input);
 *   a value option (cl::opt<string|unsigned|enum>, cl::list) takes "-x=v" or
 *   "-x v" (the next argument, whatever it looks like);
 *   a boolean (cl::opt<bool>) takes "-x" or "-x=true|false|1|0", never
 *   "-x v" (v stays a positional, as in LLVM);
 *   a flag (cl::opt<enum> value names such as --binary, --help) takes no value;
 *   positionals may come anywhere; "--" makes the rest positional;
 *   "@file" is replaced by the file's words (GNU quoting, nested @files read
 *   relative to the working directory, as cl::ExpandResponseFiles does; a
 *   missing file stays the positional "@file");
 *   an argument that looks like an option and is none is a usage error with
 *   the nearest option's name ("did you mean '--counts'?"), never a file.
 *
 * A command declares its options in a table of pbc_arg_spec (name, alias,
 * kind, LLVM releases, help); the same table prints --help. The options of
 * the format plugins (--NAME VALUE) are parsed with it when the command asks
 * (PBC_ARGS_PLUGIN), so a command's options and its plugins' share this one
 * parser (the two passes above aside).
 */
#ifndef PB_CLI_LLVM_ARGS_H
#define PB_CLI_LLVM_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opts.h"

/* How an option takes its value (LLVM: ValueDisallowed/Optional/Required). */
typedef enum pbc_arg_kind {
    PBC_ARG_FLAG,  /* no value: "-x" only ("-x=v" is an error) */
    PBC_ARG_BOOL,  /* "-x" or "-x=true|false|1|0" (also TRUE/True/FALSE/False) */
    PBC_ARG_VALUE, /* "-x=v" or "-x v" */
    /* a named positional list (cl::list with cl::Positional and a name,
     * llvm-cov's -sources): "-x=v" adds v; "-x" alone takes no value and the
     * later positionals are its (pbc_arg.npos_before tells which) */
    PBC_ARG_POSITIONAL_LIST
} pbc_arg_kind;

/* What a value is checked as (LLVM's parser<T>). */
typedef enum pbc_arg_type {
    PBC_VAL_STRING, /* anything */
    PBC_VAL_UINT,   /* cl::opt<unsigned>: 0..UINT32_MAX, decimal, 0x hex, 0 octal */
    PBC_VAL_ULONG,  /* cl::opt<uint64_t> */
    PBC_VAL_NUMBER, /* cl::opt<float/double> */
    PBC_VAL_ENUM,   /* one of `values` ("warn|any|all") */
    PBC_VAL_LIST,   /* cl::list: may repeat; the command splits it if it wants */
    PBC_VAL_ULLONG  /* cl::opt<unsigned long long>: as ULONG; "ulong" in --help, "ullong" in errors */
} pbc_arg_type;

typedef struct pbc_arg_spec {
    const char *name;    /* without dashes, e.g. "output"; NULL ends the table */
    const char *alias;   /* NULL or a second name, e.g. "o" (cl::alias) */
    int id;              /* what the command switches on; > 0 */
    pbc_arg_kind kind;
    pbc_arg_type type;   /* for PBC_ARG_VALUE */
    const char *values;  /* PBC_VAL_ENUM: "a|b|c" */
    int since, until;    /* LLVM releases that have it (0 = no bound) */
    const char *refused; /* NULL, or why profbridge refuses it (sample/MemProf) */
    const char *arg;     /* value's name in --help ("FILE"); NULL for flags */
    const char *help;    /* NULL = hidden from --help (as --help-hidden) */
    /* An entry named "" stands for every entry of `include` (a command's
     * table = its own options + PBC_ARG_INCLUDE(the LLVM options)). */
    const struct pbc_arg_spec *include;
    /* A value-less flag of an unnamed cl::opt<enum> (--instr, --text): LLVM
     * names the option by its description in messages ("Profile kind:
     * option: does not allow a value!"): that description, and a tail it
     * has from release group_tail_since on (" supported by show", 18+). */
    const char *group, *group_tail;
    int group_tail_since;
    /* cl::Required up to release required_until (0: never required; use
     * pb_release_max() for always): with PBC_ARGS_ALL_ERRORS a missing one is
     * "for the --x option: must be specified at least once!". */
    int required_until;
    /* A cl::opt (not a list) given twice is an error up to this release
     * (LLVM 13-14: "may only occur zero or one times!", a required one
     * "must occur exactly one time!"); 0: the last one counts. */
    int once_until;
    /* with once_until: another option id that is the same cl::opt in LLVM
     * (--text and --binary of merge's output format); 0: none */
    int once_with;
    /* PBC_VAL_LIST: each comma-separated item is a uint32 (cl::list<unsigned>,
     * CommaSeparated), checked while parsing under llvm-profdata-N */
    int uint_items;
} pbc_arg_spec;

/* An option a tool knows beyond its tables, only to refuse it and to name it
 * in "Did you mean" (libLLVM's global options in llvm-cov's --help-hidden:
 * llvm_cov_globals.c). releases: bit r-13 set when release r lists it;
 * value: it takes a value. */
typedef struct pbc_arg_extra {
    const char *name;
    uint16_t releases;
    uint8_t value;
} pbc_arg_extra;

/* libLLVM's global options as llvm-cov-13..24 list them (llvm_cov_globals.c,
 * generated by scripts/gen_llvm_cov_globals.sh), for PBC_ARGS_COV. */
extern const pbc_arg_extra pbc_llvm_cov_globals[];
extern const size_t pbc_llvm_cov_nglobals;

#define PBC_ARG_INCLUDE(table) {.name = "", .include = (table)}
#define PBC_ARG_END {.name = NULL}

/* Ids of LLVM's generic options, known to every command without a table
 * entry: --help, -h, --help-hidden, --help-list(-hidden) give HELP;
 * --print-options and --print-all-options are accepted and ignored. */
#define PBC_ARG_HELP_ID (-2)
#define PBC_ARG_IGNORED_ID (-3)
/* An option that, as LLVM's --help, is answered the moment it is parsed
 * (cl::opt's --version): with PBC_ARGS_ALL_ERRORS no required option is
 * missing then. A table gives it this id. */
#define PBC_ARG_VERSION_ID (-4)
/* Option ids that are profbridge's, never llvm-profdata's: a command's own
 * (PBC_LO_OWN and up, llvm_options.h) and the generic ones from
 * PBC_ARGS_OWN_NEG_MAX down (progress.h). llvm-profdata-N suggests none. */
#define PBC_ARGS_OWN_ID_MIN 100
#define PBC_ARGS_OWN_NEG_MAX (-20)
const pbc_arg_spec *pbc_args_generic_specs(void);

/* One option found on the command line, in command-line order. */
typedef struct pbc_arg {
    int id;                    /* spec->id */
    const pbc_arg_spec *spec;
    const char *value;         /* the value as given (bool/flag: NULL if none) */
    uint64_t u;                /* UINT/ULONG value; BOOL: 1/0 */
    double d;                  /* NUMBER value */
    const char *spelled;       /* the argument as written, for messages */
    size_t npos_before;        /* positionals before it (cl::opt's named positional "-sources") */
} pbc_arg;

typedef struct pbc_args {
    pbc_arg *opt;
    size_t nopt, cap_opt;
    char **pos; /* positionals, in order */
    size_t npos;
    pbc_plugin_opts plugin; /* --NAME VALUE of the plugins (PBC_ARGS_PLUGIN) */
    /* private: storage of response-file words */
    char **words;
    size_t nwords, cap_words;
} pbc_args;

enum {
    PBC_ARGS_PLUGIN = 1,     /* also accept the plugins' options into .plugin */
    /* As cl::ParseCommandLineOptions: go on after a usage error (an unknown
     * option, a bad value), report every one, then the missing required
     * options (pbc_arg_spec.required_until); PBC_EXIT_USAGE if any. A refused
     * option still stops at once. */
    PBC_ARGS_ALL_ERRORS = 2,
    /* llvm-cov's command lines: libLLVM's global options it lists
     * (pbc_llvm_cov_globals) are refused by name and count for "Did you
     * mean"; release messages name llvm-cov. */
    PBC_ARGS_COV = 4
};

/* As llvm-profdata-N only: cl::opt's message for a wrong number of inputs
 * ("Not enough positional command line arguments specified!" / "Too many
 * positional arguments specified!", with "See: PROG --help") when npos is
 * outside min..max; returns 1 after printing it, else 0. show without an
 * input says instead what LLVM 14+ says (it takes --debug-info in place of
 * one): "error: the positional argument '<profdata-file>' is required
 * unless '--debug-info' is provided" (pass debug_info_alt = 1 then). */
int pbc_llvm_input_count(size_t npos, size_t min, size_t max, int debug_info_alt);

/* llvm-profdata-N's positionals for the next pbc_args_parse (one call):
 * at least min (0 when option `alt` is in the release, e.g. show's
 * --debug-info), at most max. With PBC_ARGS_ALL_ERRORS, after words that
 * were refused, their count is checked as cl does before it stops. */
void pbc_args_llvm_positionals(size_t min, size_t max, const char *alt);

/*
 * Parses argv[1..argc-1] of command `cmd` (argv[0] ignored) against `specs`;
 * `usage` (e.g. "order [options] IN") is printed after an unknown option.
 * llvm_release: the release whose options count (an option outside its
 * since..until is unknown for that release, with a message naming it);
 * 0 = any. Returns 0, or PBC_EXIT_USAGE after a message on stderr
 * ("profbridge CMD: ..." and the usage hint); a refused option is a usage
 * error saying why. argv's strings must outlive `out`.
 */
int pbc_args_parse(const char *cmd, const char *usage, const pbc_arg_spec *specs, int argc, char **argv,
                   int llvm_release, unsigned flags, pbc_args *out);

void pbc_args_free(pbc_args *a);

/*
 * Parses the command line of show or overlap (pbc_args_parse, release from
 * pbc_release_of): as
 * llvm-profdata-N with llvm-profdata's table `llvm_specs` alone and release
 * N's options (an option of a later release is unknown, as there), else with
 * the command's own `specs`. Returns pbc_args_parse's 0 or PBC_EXIT_USAGE.
 */
int pbc_parse_llvm_command(const char *cmd, const char *usage, const pbc_arg_spec *llvm_specs,
                           const pbc_arg_spec *specs, int argc, char **argv, pbc_args *out);

/*
 * For a command that learns its release from its own options (--llvm-version
 * is parsed in the same pass): after pbc_release_of, every option found must
 * exist in `release`. Returns 0, or PBC_EXIT_USAGE after the message the
 * parser prints for it ("--x is an option of llvm-profdata from LLVM 19 on,
 * not in LLVM 18").
 */
int pbc_args_check_release(const char *cmd, const pbc_args *a, int release);

/* The last value of option `id` (NULL if not given) and whether it was given. */
const pbc_arg *pbc_args_last(const pbc_args *a, int id);

/* The spec of `name` (no dashes; name or alias), or NULL. */
const pbc_arg_spec *pbc_args_find(const pbc_arg_spec *specs, const char *name, size_t len);

/* The spec nearest to `name` by edit distance (LLVM's LookupNearestOption:
 * at most a third of the longer name changed), or NULL. */
const pbc_arg_spec *pbc_args_nearest(const pbc_arg_spec *specs, const char *name, size_t len);

/* For --help: the plugins' options not already in specs (a command's own
 * table), each name once (several plugins declare --sparse or
 * --keep-vtable-symbols: one line says it), with the plugin that has it. */
void pbc_args_print_plugin_options(FILE *out, const pbc_arg_spec *specs);

/*
 * Shell completion asks a command for its words with PBC_COMPLETE_OPTION
 * (hidden; not under the llvm-profdata personality): the parser then prints
 * them with pbc_args_print_words and exits 0, before the command runs, so
 * the words are the table being parsed and never drift from it.
 * `profbridge --complete-words [CMD]` (main.c) asks for the commands or
 * CMD's options. One line per word:
 *
 *   WORD ARG [VALUE...]
 *
 * WORD the option as typed ("--to", "-o"), ARG the name of its value as
 * --help shows it ("FORMAT", "FILE"), "-" for an option without a value,
 * then the values when they are a known list (an enumeration, the format
 * names, the LLVM releases, a plugin's "a|b|c"). completion/profbridge.bash
 * and completion/_profbridge read these lines.
 */
#define PBC_COMPLETE_OPTION "--complete-words"

/* The lines for the table `specs` (parsed with `flags`: PBC_ARGS_PLUGIN adds
 * every plugin's options) and the generic --help; refused options left out. */
void pbc_args_print_words(FILE *out, const pbc_arg_spec *specs, unsigned flags);

/* Writes the option lines of --help from the table (entries with help only;
 * those outside llvm_release when it is not 0 are left out). */
void pbc_args_print_help(FILE *out, const pbc_arg_spec *specs, int llvm_release);

/*
 * Response files alone: expands every "@file" in argv[1..] into *out_argv
 * (NULL-terminated; argv[0] kept). Returns 0 or PBC_EXIT_USAGE after a
 * message (recursive expansion, unreadable file, past a bound below). `a`
 * owns the storage.
 *
 * The expansion's own bounds (the input limits are options, not known
 * before it): at most PBC_RESPONSE_MAX_WORDS words taken from response files,
 * PBC_RESPONSE_MAX_BYTES bytes read from them and PBC_RESPONSE_MAX_FILES
 * files expanded, a file read again counting again (longer input lists go
 * in merge's -f list). Files that name each other twice double at every level,
 * and @/dev/zero never ends: LLVM's tools run until memory is gone.
 */
#define PBC_RESPONSE_MAX_WORDS ((size_t)1 << 20)
#define PBC_RESPONSE_MAX_FILES ((size_t)1 << 14)
#define PBC_RESPONSE_MAX_BYTES ((size_t)64 << 20)
int pbc_args_expand(const char *cmd, int argc, char **argv, int *out_argc, char ***out_argv, pbc_args *a);

/* GNU tokenization of one response file's text (cl::TokenizeGNUCommandLine):
 * appends the words to *words (malloc'ed strings). Returns 0 or -1 (memory). */
int pbc_args_tokenize_gnu(const char *text, size_t len, char ***words, size_t *n);

#endif
