/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cli.h -- shared declarations of the profbridge command-line tool.
 *
 * Subcommands live in cmd_<name>.c. The LLVM-compatible `show` printer is in
 * show_llvm.c (it prints exactly what `llvm-profdata-N show` prints for the
 * same flags, N the --llvm-version target); the Java view of iprof-derived
 * profiles is in show_iprof.c.
 */
#ifndef PB_CLI_H
#define PB_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "json_out.h" /* the show printers print JSON members */
#include "llvm/target.h"
#include "profbridge/profbridge.h"

/* Flags of `llvm-profdata-N show` for instrumentation profiles. */
typedef struct pbc_show_llvm_opts {
    const pbi_llvm_target *t; /* the release whose output is printed (--llvm-version) */
    int all_functions;        /* --all-functions */
    int counts;               /* --counts */
    const char *function;     /* --function NAME (substring match, as llvm-profdata) */
    int ic_targets;           /* --ic-targets */
    int memop_sizes;          /* --memop-sizes */
    int show_vtables;         /* --show-vtables */
    int detailed_summary;     /* --detailed-summary */
    const char *cutoffs;      /* --detailed-summary-cutoffs=a,b,c (NULL = default) */
    unsigned topn;            /* --topn N (0 = off) */
    uint64_t value_cutoff;    /* --value-cutoff N */
    int list_below_cutoff;    /* --list-below-cutoff */
    int showcs;               /* --showcs */
    int covered;              /* --covered */
    int binary_ids;           /* --binary-ids */
    int temporal_traces;      /* --temporal-profile-traces */
    int profile_version;      /* --profile-version */
    int text;                 /* --text */
    int json;                 /* --json (ours: same content as JSON) */
    int hot_func_list;        /* --hot-func-list (prints from LLVM 22 on: SHOW_HOT_FUNC_LIST) */
    /* A raw file holding several profiles: each one read alone (raw-profile K).
     * Records and binary ids are then listed per profile, duplicates included,
     * as llvm-profdata show does; flags, summary basis and traces stay `p`'s. */
    const pb_profile *const *parts;
    size_t nparts;
} pbc_show_llvm_opts;

/*
 * Prints `p` as llvm-profdata-N show (N = o->t's release) would for a file of the profile's
 * origin format. `input_name` is only used in messages. Returns 0 or a PB_E*.
 */
int pbc_show_llvm(const pb_profile *p, const char *input_name, const pbc_show_llvm_opts *o,
                  FILE *out, pb_error *err);

/*
 * The same printer record by record, for readers that stream records
 * without a model (show on an indexed file): begin with the profile's
 * variant flags, hand in every record in file order (rp: the profile whose
 * names value targets and traces name; only needed when not
 * pbc_show_llvm_streamable), then end with a profile holding the
 * profile-level data (origin, binary ids, traces). end prints the summary
 * and frees the state, also on failure; free abandons it. o and the names
 * handed in must stay valid until end (--topn keeps pointers to names).
 */
typedef struct pbc_show_llvm_state pbc_show_llvm_state;
int pbc_show_llvm_begin(pbc_show_llvm_state **st, uint64_t flags, const pbc_show_llvm_opts *o, FILE *out,
                        pb_error *err);
void pbc_show_llvm_record(pbc_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash);
int pbc_show_llvm_end(pbc_show_llvm_state *st, const pb_profile *p, pb_error *err);
void pbc_show_llvm_free(pbc_show_llvm_state *st);
/* Prints a note on stderr when release t was chosen by the user (t->chosen)
 * and its own llvm-profdata would refuse p
 * (raw: another raw version; indexed: a newer version; text: header lines,
 * value kinds or bitmap bytes its text reader does not know). profbridge
 * reads every version, so this is never an error: always returns 0. */
int pbc_llvm_check_readable(const pbi_llvm_target *t, const pb_profile *p, const char *name);

/* 1 if the flags need no name table (no value-target names, no traces, not
 * --text), so that records can be shown as they are read. */
int pbc_show_llvm_streamable(const pbc_show_llvm_opts *o);

/*
 * `show` of the indexed profile in_path (src: its opened source, read when
 * the file cannot be mapped) through the record-by-record printer, without
 * a model; only for pbc_show_llvm_streamable flags. Errors and the --lenient
 * hint are printed; nothing is written unless the whole file was read.
 * Returns the exit code.
 */
int pbc_show_indexed(const char *in_path, pb_source *src, const pb_read_options *ro,
                     const pbc_show_llvm_opts *so, const char *out_path);

/* Subcommands (commands.h): int pbc_cmd_<name>(int argc, char **argv),
 * argv[0] = "profbridge <name>"; the return value is the exit code. */
#define PBC_COMMAND(name, fn, summary) int fn(int argc, char **argv);
#include "commands.h"
#undef PBC_COMMAND

/*
 * The Java view of a profile read from iprof (`profbridge show` without
 * --llvm): a summary, then every method's entries with resolved names and
 * contexts. topn > 0 instead lists the topn hottest entries by counter 0.
 * json = 1 writes the same as one JSON object (docs/schemas/show-java.schema.json).
 * Returns 0 or a PB_E* (only PB_ENOMEM).
 */
int pbc_show_iprof(const pb_profile *p, const char *input_name, unsigned topn, int json, FILE *out,
                   pb_error *err);

#endif
