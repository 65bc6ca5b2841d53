/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * llvm_options.h -- the options of llvm-profdata merge, show, overlap and
 * order, as tables for the parser of llvm_args.h: every option the real
 * tools of LLVM 13 to 24 list in `--help-hidden` (names, aliases, value
 * kinds and the releases that have them were read from llvm-profdata-13..24;
 * tests/interop/llvm_args_options.sh checks them against 19 and 23).
 *
 * Options for sample profiles and MemProf are in the tables with `refused`
 * set: they are recognised and refused with a message saying that
 * profbridge handles instrumentation profiles. A command adopts a table with
 * PBC_ARG_INCLUDE(pbc_llvm_merge_options) in its own table and switches on
 * the PBC_LO_* ids.
 */
#ifndef PB_CLI_LLVM_OPTIONS_H
#define PB_CLI_LLVM_OPTIONS_H

#include "llvm_args.h"

/* One id per LLVM option name (the same name is the same id in every
 * command). Commands' own options use ids from PBC_LO_OWN on. */
enum {
    PBC_LO_NONE = 0,
    /* merge */
    PBC_LO_OUTPUT, PBC_LO_INPUT_FILES, PBC_LO_WEIGHTED_INPUT, PBC_LO_REMAPPING_FILE, PBC_LO_NUM_THREADS,
    PBC_LO_SPARSE, PBC_LO_FAILURE_MODE, PBC_LO_FUNCTION, PBC_LO_NO_FUNCTION, PBC_LO_KEEP_VTABLE_SYMBOLS,
    PBC_LO_DUMP_INPUT_FILE_LIST, PBC_LO_OUTPUT_SIZE_LIMIT, PBC_LO_TRACE_RESERVOIR, PBC_LO_TRACE_MAX_LENGTH,
    PBC_LO_BINARY, PBC_LO_EXTBINARY, PBC_LO_TEXT, PBC_LO_GCC, PBC_LO_INSTR, PBC_LO_SAMPLE, PBC_LO_MEMORY,
    PBC_LO_DEBUG_INFO, PBC_LO_BINARY_FILE, PBC_LO_DEBUGINFOD, PBC_LO_MAX_CORRELATION_WARNINGS,
    PBC_LO_PROFILED_BINARY, PBC_LO_REFUSED, PBC_LO_RANDOM_SEED, PBC_LO_MD5_SAMPLE,
    /* show */
    PBC_LO_ALL_FUNCTIONS, PBC_LO_COUNTS, PBC_LO_IC_TARGETS, PBC_LO_MEMOP_SIZES, PBC_LO_SHOW_VTABLES,
    PBC_LO_DETAILED_SUMMARY, PBC_LO_DETAILED_SUMMARY_CUTOFFS, PBC_LO_TOPN, PBC_LO_VALUE_CUTOFF,
    PBC_LO_LIST_BELOW_CUTOFF, PBC_LO_SHOWCS, PBC_LO_COVERED, PBC_LO_BINARY_IDS, PBC_LO_TEMPORAL_TRACES,
    PBC_LO_PROFILE_VERSION, PBC_LO_JSON, PBC_LO_SHOW_FORMAT, PBC_LO_HOT_FUNC_LIST,
    /* overlap */
    PBC_LO_CS, PBC_LO_SIMILARITY_CUTOFF,
    /* order */
    PBC_LO_NUM_TEST_TRACES,
    PBC_LO_OWN = PBC_ARGS_OWN_ID_MIN
};

/* llvm-cov export and report (13..24): ids from PBC_CO_FIRST on. */
enum {
    PBC_CO_FIRST = 200,
    PBC_CO_INSTR_PROFILE = PBC_CO_FIRST, PBC_CO_OBJECT, PBC_CO_DUMP_COLLECTED_OBJECTS, PBC_CO_SOURCES,
    PBC_CO_ARCH, PBC_CO_FORMAT, PBC_CO_PATH_EQUIVALENCE, PBC_CO_NAME, PBC_CO_NAME_ALLOWLIST, PBC_CO_NAME_REGEX,
    PBC_CO_IGNORE_FILENAME_REGEX, PBC_CO_INCLUDE_FILENAME_REGEX, PBC_CO_USE_COLOR, PBC_CO_SHOW_REGION_SUMMARY,
    PBC_CO_SHOW_BRANCH_SUMMARY, PBC_CO_SHOW_MCDC_SUMMARY, PBC_CO_SHOW_INSTANTIATION_SUMMARY, PBC_CO_SUMMARY_ONLY,
    PBC_CO_NUM_THREADS, PBC_CO_COMPILATION_DIR, PBC_CO_CHECK_BINARY_IDS, PBC_CO_EMPTY_PROFILE,
    PBC_CO_SKIP_EXPANSIONS, PBC_CO_SKIP_FUNCTIONS, PBC_CO_SKIP_BRANCHES, PBC_CO_UNIFY_INSTANTIATIONS,
    PBC_CO_SHOW_MCDC_NON_EXECUTED_VECTORS, PBC_CO_SHOW_FUNCTIONS, PBC_CO_COVERAGE_THRESHOLD, PBC_CO_REFUSED, PBC_CO_XDEMANGLER,
    PBC_CO_OWN = 300 /* cmd_cov's own options */
};

/* llvm-cov-N export's and report's own options (every one their
 * --help-hidden lists, tests/interop/cli_cov_args.sh checks the names
 * against the installed releases); the ones profbridge does not implement
 * are refused by name. */
extern const pbc_arg_spec pbc_llvm_cov_export_options[];
extern const pbc_arg_spec pbc_llvm_cov_report_options[];

extern const pbc_arg_spec pbc_llvm_merge_options[];
extern const pbc_arg_spec pbc_llvm_show_options[];
extern const pbc_arg_spec pbc_llvm_overlap_options[];
extern const pbc_arg_spec pbc_llvm_order_options[];

/* The table of llvm-profdata subcommand `cmd` (merge, show, overlap,
 * order) or of llvm-cov's ("cov-export", "cov-report"), or NULL. */
const pbc_arg_spec *pbc_llvm_options_of(const char *cmd);

#endif
