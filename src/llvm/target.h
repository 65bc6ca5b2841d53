/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * target.h -- THE description of each LLVM release profbridge can act as
 * (internal).
 *
 * A release (the options' llvm_release; the CLI's --llvm-version N) is resolved, here, into a pbi_llvm_target: the raw
 * and indexed versions that release writes and reads, and the set of rules
 * in which releases differ (text dialect, show dialect, merge and summary
 * rules, key order). Writers, printers, merge and the CLI's command lines
 * read the target through pbi_llvm_has/pbi_llvm_cov_has; a release rule
 * compared anywhere else is a missing row here (main.c's `release >= 0`
 * only asks whether a link name carried one).
 *
 * Two tables, in the spirit of formats/raw/raw_layout.h:
 *  - PBI_LLVM_RELEASES: one row per release, its file-format versions;
 *  - PBI_LLVM_FEATURES: one row per behaviour, with the first and last
 *    release that has it ([since, until], inclusive).
 * Each row says how it is known: "verified" rows were compared with that
 * release's real llvm-profdata by a test under tests/interop/; others come
 * from LLVM's sources (docs/llvm-releases.md).
 */
#ifndef PB_LLVM_TARGET_H
#define PB_LLVM_TARGET_H

#include <stdint.h>

#include "profbridge/error.h"
#include "profbridge/format.h"

#define PBI_LLVM_MIN 13
#define PBI_LLVM_MAX 24
#define PBI_LLVM_DEFAULT 19 /* README "Which LLVM release by default" */
#define PBI_LLVM_NOW 255    /* "until" of behaviours still present */

/*  release raw indexed  (raw: what its compiler-rt writes and the only one its
 *                        llvm-profdata reads; indexed: what its merge writes,
 *                        and the highest its readers accept). Every row but
 *                        20 (no Debian package) is checked against the real
 *                        tools: tests/interop/llvm_releases.sh,
 *                        docs/llvm-releases.md                            */
#define PBI_LLVM_RELEASES(X) \
    X(13, 7, 7)              \
    X(14, 8, 7)              \
    X(15, 8, 8)              \
    X(16, 8, 9)              \
    X(17, 8, 10)             \
    X(18, 9, 11)             \
    X(19, 10, 12)            \
    X(20, 10, 12)            \
    X(21, 10, 12)            \
    X(22, 10, 13)            \
    X(23, 11, 14)            \
    X(24, 11, 14)

/* Verified rows (tests/interop/):
 *  FE_IR_MIX_REFUSED, FE_TEXT_HEADER_CONFLICT: merge_fe_ir.sh, on llvm-profdata 13, 14, 15, 16,
 *    17, 18, 19, 21, 22, 23, 24 (raw files of each release's clang, :fe / :ir / header-less text);
 *  VALUE_SORT_UNSTABLE: value_site_order.sh: merge and overlap of sites of more than 16 values
 *    with equal values agree with llvm-profdata 14-18 (stable) and 19, 21-23 (std::sort);
 *  BINARY_IDS_LAST_ONLY: merge_binary_ids_last.sh: merge bytes of 16, 17 (and 19: all ids);
 *    `show --binary-ids` of a two-profile raw file lists one id in 14, 15, 16, 17 and two in
 *    18, 19, 21-24 (was [15, 17]: 14 reads raw ids the same way, its indexed v7 just has no
 *    binary-id section; 13 checked by hand: two clang-13 library + program files, 8-aligned and
 *    concatenated, show only the second file's id -- our reader refuses clang-13's unpadded
 *    v7 binary ids, so the script skips 13).
 */
/*   id                     since until         meaning */
#define PBI_LLVM_FEATURES(X)                                                                              \
    X(KEYS_SORTED,            17, PBI_LLVM_NOW, "indexed keys inserted in name order (before: StringMap, first seen)") \
    X(INKEY_DENSE_MIX,        19, PBI_LLVM_NOW, "records of one name ordered by DenseMap's mixed hash (before: x*37)") \
    X(SUMMARY_LLVM14,         13, 15,           "profile summary counts the special entry count as LLVM 14 does")     \
    X(SATURATE_U64_MAX,       13, 15,           "merged counts saturate at 2^64-1 (later: 2^64-3)")                   \
    X(ENTRY_FIRST_LAST_INPUT, 13, 13,           "merge: the entry-first flag is the last input's (later: OR of all)")  \
    X(FLAG_LOOP_ENTRIES,      20, PBI_LLVM_NOW, "merge writes the loop-entries flag (bit 55; 19 drops it from raw input)") \
    X(FLAG_BYTE_COVERAGE,     14, PBI_LLVM_NOW, "merge writes the single-byte-coverage and function-entry-only flags") \
    X(TEXT_TEMPORAL,          17, PBI_LLVM_NOW, "text carries temporal profile traces")                                \
    X(TEXT_BYTE_COVERAGE,     18, PBI_LLVM_NOW, "text has the :single_byte_coverage header line")                      \
    X(TEXT_BITMAP,            18, PBI_LLVM_NOW, "text carries MC/DC bitmap bytes")                                     \
    X(TEXT_VTABLE_SITES,      19, PBI_LLVM_NOW, "text carries kind-2 (vtable) value sites")                            \
    X(TEXT_LOOP_ENTRIES,      20, PBI_LLVM_NOW, "text has the :instrument_loop_entries header line")                   \
    X(TEXT_BITMAP_ALWAYS,     24, PBI_LLVM_NOW, "text prints '# Num Bitmap Bytes:' and '$0' for every record")         \
    X(SHOW_LOOP_ENTRIES,      20, PBI_LLVM_NOW, "show prints instrument_loop_entries on the IR level line")            \
    X(SHOW_BLOCK_TOTALS,      20, PBI_LLVM_NOW, "show prints 'Total number of blocks:' and 'Total count:' always")    \
    X(SHOW_SUMMARY_BLOCKS,    20, PBI_LLVM_NOW, "detailed summary says 'N blocks (P%) ... account for C%'")            \
    X(SHOW_TOPN_FILE_ORDER,   22, PBI_LLVM_NOW, "show --topn: equal maxima listed in file order (before: heap order)") \
    X(SHOW_PSEUDO_COUNTS,     16, PBI_LLVM_NOW, "show: <PseudoHot>/<PseudoWarm> records, left out of the summary (before: 2^64-1 counts skipped)") \
    X(SHOW_CUTOFFS_7,         13, 14,           "detailed summary's default cutoffs: 80% ... 99.999% (7, not 16)")     \
    X(SHOW_BINARY_IDS_HEADING, 18, PBI_LLVM_NOW, "show --binary-ids prints 'Binary IDs:' for an indexed file without ids") \
    X(SHOW_HOT_FUNC_LIST,     22, PBI_LLVM_NOW, "show --hot-func-list prints '# Hot count threshold: N' and the hot functions (before: nothing for instrumentation profiles)") \
    X(ARGS_PER_SUBCOMMAND,    13, 17,           "each subcommand parses its own command line: errors say 'llvm-profdata-N show: ...'; no or an unknown subcommand: 'No command specified!' / 'Unknown command!' and a USAGE line (18+: cl::SubCommand's words)") \
    X(TOP_VERSION,            17, PBI_LLVM_NOW, "'llvm-profdata --version' prints a version (13-16: 'Unknown command!')") \
    X(NO_SUBCOMMAND_TYPO,     18, 19,           "'No subcommand specified! Run llvm-profata --help for usage.' (sic; later: llvm-profdata)") \
    X(OVERLAP_INFORMATION,    22, PBI_LLVM_NOW, "overlap's heading says 'information' (before: 'infomation')")      \
    X(OVERLAP_ZERO_SUM,       24, PBI_LLVM_NOW, "overlap prints 'Sum of edge counts for profile X is 0.' (before: nothing)") \
    X(SHOW_SAME_NAME_ERROR,   24, PBI_LLVM_NOW, "show's 'Input file name cannot be the same as the output file name!' starts with 'error: '") \
    X(BINARY_IDS_LAST_ONLY,   13, 17,           "a raw file's binary ids: only the last profile's are kept")           \
    X(FE_IR_MIX_REFUSED,      13, 13,           "front-end and IR inputs never merge")                                 \
    X(FE_TEXT_HEADER_CONFLICT, 14, PBI_LLVM_NOW, "a text ':fe' header conflicts with every input without it") \
    X(TRACE_RESERVOIR_FILL,   22, PBI_LLVM_NOW, "merge's trace reservoir: the destination cut to the reservoir, filled in order, the rest sampled against the input's stream (a single input is cut too; before: 17's reservoir, a sampled input swapped in whole)") \
    X(RAW_TEMPORAL,           17, PBI_LLVM_NOW, "a raw file's temporal flag is read: counter 0 of each record is its timestamp (before: the flag is unknown and the timestamp a counter, as 14-16 read a clang-17+ raw)") \
    X(ARGS_GROUPED_VALUE_ERROR, 13, 23,         "llvm-profdata: '-oFILE', '-j2' (a one-letter option taking a value, glued to more) first say 'for the -o option: may not occur within a group!', then the word is unknown and '-o' suggested (24: only the unknown word)") \
    X(ARGS_BOOL_LOWER_ONLY,   24, PBI_LLVM_NOW, "a boolean option takes true/false/1/0 only: 'True', 'TRUE', 'False', 'FALSE' are refused (before: accepted)") \
    X(MERGE_KIND_WORDS_OWN,   24, PBI_LLVM_NOW, "a kind conflict is reported in its own words, after 'unsupported instrumentation profile format version: ' (before: 'Merge IR generated profile with Clang generated profile.')") \
    X(MERGE_ENTRY_ONLY_LOOPS_REFUSED, 20, PBI_LLVM_NOW, "function-entry-only inputs never merge with loop-entries ones (before: merged)") \
    X(MERGE_BYTE_COUNTER_MIX_REFUSED, 24, PBI_LLVM_NOW, "single-byte (block or entry coverage) inputs never merge with incrementing-counter ones: 'cannot merge single-byte and incrementing counter profiles' (before: merged)") \
    X(MERGE_CONTEXT_KINDS,    16, PBI_LLVM_NOW, "merge on T > 1 threads: merging two writer contexts merges their kinds as an input's are and a conflict is a fatal 'error: WORDS' in the conflict's own words (before: the first context's kind stays, the second's is dropped unchecked)") \
    X(MERGE_FAILURE_MODE_WARN, 18, PBI_LLVM_NOW, "merge has --failure-mode warn (before: any and all only)") \
    X(MERGE_INPUT_TILDE,      21, PBI_LLVM_NOW, "merge expands a leading '~' in a W,FILE input's FILE (sys::fs::expand_tilde; 19 does not)") \
    X(MERGE_LARGE_COUNTER_FAILS, 18, PBI_LLVM_NOW, "merge: a raw counter above 2^56 fails the input, whose records still merge (before: silence)") \
    X(VALUE_SORT_UNSTABLE,    19, PBI_LLVM_NOW, "value sites sorted by value with std::sort before merge/overlap (before: stable list sort)") \
    X(ORDER,                  17, PBI_LLVM_NOW, "llvm-profdata has the order command")                                 \
    X(ORDER_NODES_V2,         19, PBI_LLVM_NOW, "order: a utility node per doubling of the timestamp, rare and common ones dropped (before: per trace and log2)") \
    X(ORDER_SPLIT_SORTS,      21, PBI_LLVM_NOW, "order: bisection splits with llvm::sort (before: std::nth_element)")  \
    X(ORDER_SEMICOLON_PREFIX, 18, PBI_LLVM_NOW, "order: a local function's file prefix ends at ';' (before: ':')")     \
    X(ORDER_MACHO_WARNING,    18, PBI_LLVM_NOW, "order prints the '# Warning: Mach-O ...' line")                       \
    X(ORDER_VAR_NAMES,        19, PBI_LLVM_NOW, "order: vtable names in traces resolve too")                           \
    X(ORDER_COUNT_LINE,       18, PBI_LLVM_NOW, "order prints '# Ordered N functions' first (17: a note on stderr)")   \
    X(ORDER_TEST_TRACES,      19, PBI_LLVM_NOW, "order has --num-test-traces")                                         \
    X(ORDER_AVERAGE_AREA,     24, PBI_LLVM_NOW, "order prints the test traces' 'Average area' (before: 'Total area')") \
    X(CORRELATED_RAW_EMPTY,   18, PBI_LLVM_NOW, "a debug-info-correlated raw file merged without --debug-info has no records (before: refused)") \
    X(CORRELATE_FOUR_SOURCES, 21, PBI_LLVM_NOW, "merge: 'Expected only one of' names -debuginfod and -debug-file-directory too") \
    X(CORRELATE_BINARY_WORDS, 18, PBI_LLVM_NOW, "correlation errors say 'debug info/binary' and 'profile data metadata in correlated file' (before: 'debug info', 'profile metadata in debug info')") \
    X(SHOW_DEBUG_INFO_UNIQUE, 23, PBI_LLVM_NOW, "show --debug-info's YAML lists a counter address once (before: every DWARF entry)") \
    X(CORRELATE_BITMAPS,      23, PBI_LLVM_NOW, "correlation reads MC/DC bitmaps (binary: BitmapPtr, debug info: __profbm_ variables), show --debug-info's YAML lists them (before: dropped)") \
    X(WORDS_RAW_VERSION_MISMATCH, 17, PBI_LLVM_NOW, "an unsupported raw version is 'raw profile version mismatch: ...' and a PLEASE line (before: 'unsupported instrumentation profile format version')") \
    X(WORDS_TEXT_MALFORMED_WHY, 14, PBI_LLVM_NOW, "a malformed text profile says why ('malformed ...: count is invalid'; before: the category alone)") \
    X(WORDS_RAW_HEADER_TRUNCATED, 24, PBI_LLVM_NOW, "a raw file shorter than its header adds ': profile file header is truncated' to 'file header is corrupt'") \
    X(WORDS_RAW_SIZE_BREAKDOWN, 24, PBI_LLVM_NOW, "a raw file whose sections run past its end: '(file is incomplete or header is corrupt): profile file size (S bytes) smaller than expected (at least E bytes: 152(Header) + ...)' (before: 'file header is corrupt')") \
    X(WORDS_RAW_NEXT_HEADER_WHY, 14, PBI_LLVM_NOW, "a raw file's next profile cut inside its header: 'malformed ...: not enough space for another header' (13: the category alone)") \
    X(WORDS_NOTE_MEMORY,      14, PBI_LLVM_NOW, "an unrecognized input's note is 'Perhaps you forgot to use the --sample or --memory option?' (before: '--sample option?')")

/* Rows checked by tests/interop/llvm_releases_merge.sh (merge bytes, indexed
 * and --text, of llvm-profdata 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24;
 * 20 follows 19 and 21, which agree on every row, and LLVM's sources):
 *  KEYS_SORTED [17,): 15 and 16 still insert in StringMap order (300 names);
 *  INKEY_DENSE_MIX [19,): 17 and 18 still order by x*37 (names with 1-5 hashes);
 *  SUMMARY_LLVM14, SATURATE_U64_MAX [13,15]: 15 saturates at 2^64-1 and skips
 *    such counts in its summary, 16 is the first at 2^64-3 (was [13,14]);
 *  TEXT_BYTE_COVERAGE, TEXT_BITMAP [18,): llvm-profdata-18 writes and reads
 *    both, 17 rejects them (was [19,)); TEXT_VTABLE_SITES [19,): 18 rejects
 *    kind 2; TEXT_TEMPORAL [17,); TEXT_LOOP_ENTRIES [20,) (21-24 write it);
 *    TEXT_BITMAP_ALWAYS [24,) (23 does not);
 *  MERGE_FAILURE_MODE_WARN [18,): merge_diag_llvm.sh (13-17 refuse the value);
 *  MERGE_LARGE_COUNTER_FAILS [18,): merge_diag_llvm.sh (17 merges such a raw
 *    file without a word, 18-24 warn and count the input as failed);
 *  FLAG_BYTE_COVERAGE [14,), ENTRY_FIRST_LAST_INPUT [13,13],
 *    FLAG_LOOP_ENTRIES [20,) (19 drops bit 55 of a clang-22 raw file).
 *  MERGE_INPUT_TILDE [21,): merge_inputs_llvm.sh (19 and 23); 20 from LLVM's
 *    sources (was `release >= 21` in src/cli/merge_inputs.c). */
/* ORDER_* rows: tests/interop/order_llvm.sh against llvm-profdata 17, 18, 19
 * and 21-24 (docs/order.md); ORDER_SPLIT_SORTS's 20 is not verified (no
 * llvm-profdata-20): LLVM's history puts the switch to llvm::sort after the
 * 20 branch. ORDER [17,) and ORDER_TEST_TRACES [19,) were also release
 * comparisons in src/cli/cmd_order.c (13-16 have no order subcommand). */
/* CORRELATED_RAW_EMPTY, CORRELATE_FOUR_SOURCES, CORRELATE_BINARY_WORDS,
 * CORRELATE_BITMAPS, SHOW_DEBUG_INFO_UNIQUE: tests/interop/correlate_llvm.sh
 * against llvm-profdata 14-19 and 21-24 (clang-N's own correlated programs). */
/* TRACE_RESERVOIR_FILL: tests/difffuzz (llvm-profdata 19, 21-24 merge of one indexed or text input
 * of 3 traces with reservoirs 1 and 2; 21 keeps all three, 22 and 24 cut; 20 is not checked). */
/* RAW_TEMPORAL: tests/difffuzz (llvm-profdata 14-16 show and merge of clang-17, 19 and 24 temporal
 * raw files; 13 refuses their raw version). */
/* ARGS_GROUPED_VALUE_ERROR: tests/difffuzz (llvm-profdata 13-19, 21-24: merge -ozz, -j1,
 * -fzz, -rzz, show -ozz; 20 not checked, no llvm-profdata-20). */
/* ARGS_BOOL_LOWER_ONLY: tests/interop/llvm_dropin_classes.sh (llvm-profdata 13-19, 21-24
 * merge --sparse=True). */
/* MERGE_KIND_WORDS_OWN, MERGE_ENTRY_ONLY_LOOPS_REFUSED, MERGE_BYTE_COUNTER_MIX_REFUSED:
 * tests/interop/llvm_dropin_classes.sh against llvm-profdata 14-19 and 21-24 (entry-first
 * with entry-coverage, loop-entries with entry-coverage, block coverage with IR raw files of
 * each clang); MERGE_ENTRY_ONLY_LOOPS_REFUSED's 20 comes from LLVM's sources (the loop-entries
 * kind and its conflict came together). The words are those of the 24 snapshot installed
 * (/opt/profbridge-llvm/24); LLVM main has reworded them since. */
/* MERGE_CONTEXT_KINDS: tests/difffuzz/cases/threads-*.json (replayed in CI), found with merge
 * -j 2, 3 and 4 of every pair of the difffuzz corpus' raw files (IR, front-end, CS, temporal,
 * entry-first, entry and block coverage, empty, cut) and of a ':fe' text file, through
 * llvm-profdata 13-19 and 21-24 (2,800 command lines, all the same bytes, status and words). */
/* WORDS_*: tests/interop/llvm_input_errors.sh (damaged raw, indexed and
 * text files through llvm-profdata 13-19 and 21-24's merge, show, order).
 * WORDS_RAW_SIZE_BREAKDOWN and WORDS_RAW_NEXT_HEADER_WHY: tests/difffuzz (cut
 * raw files of one and two profiles, llvm-profdata 13-19 and 21-24). */
/* How the show/overlap rows are known (verified with llvm-profdata 13-19 and
 * 21-24; 20 has no Debian package, its "since 20" comes from LLVM's sources):
 *  SHOW_*, OVERLAP_INFORMATION, OVERLAP_ZERO_SUM, BINARY_IDS_LAST_ONLY (14-17; 13's only file
 *  with two profiles has ids in one), TEXT_BYTE_COVERAGE and TEXT_BITMAP
 *  (18 writes and reads them, 17 refuses them), TEXT_TEMPORAL,
 *  TEXT_VTABLE_SITES and TEXT_LOOP_ENTRIES as read by each release's text
 *  reader: tests/interop/llvm_releases_show.sh and llvm_releases_overlap.sh
 *  (docs/show.md has the table). */
enum pbi_llvm_feature {
#define PBI_X(id, since, until, meaning) PBI_LF_##id,
    PBI_LLVM_FEATURES(PBI_X)
#undef PBI_X
    PBI_LF_COUNT_
};
_Static_assert(PBI_LF_COUNT_ <= 64, "features are bits of a uint64_t");

typedef struct pbi_llvm_target {
    int release;              /* 13..24 */
    uint32_t raw_version;     /* raw version written and read */
    uint32_t indexed_version; /* indexed version written (and the highest read) */
    uint64_t features;        /* bit (1 << PBI_LF_x) set when the release has it */
    int chosen;               /* 1: named by the user (the CLI's --llvm-version, its
                                 environment variable or the llvm-profdata-N name);
                                 0: the default (pbi_llvm_target_of sets 0) */
    uint64_t cov_features;    /* bit (1 << PBI_LC_x): llvm-cov's rows below */
} pbi_llvm_target;

static inline int pbi_llvm_has(const pbi_llvm_target *t, enum pbi_llvm_feature f) {
    return (int)((t->features >> f) & 1u);
}

/*
 * llvm-cov's behaviours by release (src/coverage/: export, report, their
 * options and the evaluation), one row each, as PBI_LLVM_FEATURES above.
 * Each row is verified against llvm-cov-N of 13-19 and 21-24 by
 * tests/interop/cov_llvm.sh unless its meaning says otherwise.
 */
/*   id                     since until         meaning */
#define PBI_LLVM_COV_FEATURES(X)     X(READS_COVMAP_V7,        18, PBI_LLVM_NOW, "reads coverage-mapping version 7 (MC/DC; 13-17 refuse clang-18+ binaries)") \
    X(EXPORT_MCDC,            18, PBI_LLVM_NOW, "export has mcdc_records (files, functions) and the mcdc summaries") \
    X(EXPORT_JSON_3_0,        21, PBI_LLVM_NOW, "export JSON version 3.0.1: an MC/DC record has its true/false decision counts and file id (before: 2.0.1; 20 not verified)") \
    X(EXPORT_JSON_3_1,        22, PBI_LLVM_NOW, "export JSON version 3.1.0: an MC/DC record lists its executed test vectors") \
    X(EXPORT_JSON_WRITE_ORDER, 23, PBI_LLVM_NOW, "export writes a file's filename and an expansion's filenames first and summaries in source order (lines, functions, instantiations, regions, branches, mcdc), not sorted") \
    X(EXPORT_MCDC_NON_EXECUTED, 23, PBI_LLVM_NOW, "export has -show-mcdc-non-executed-vectors") \
    X(EXPORT_UNIFY,           21, PBI_LLVM_NOW, "lcov sums the branches of instantiations at one place (-unify-instantiations, on by default)") \
    X(REPORT_MCDC_COLUMNS,    18, PBI_LLVM_NOW, "report's table has the MC/DC columns (-show-mcdc-summary)") \
    X(REPORT_DIVIDER_SHOWN,   19, PBI_LLVM_NOW, "report's divider is as wide as the shown columns (before: every column, hidden ones too)") \
    X(MCDC_IDS_INT16,         19, PBI_LLVM_NOW, "MC/DC region fields: condition ids below 32767 and id 0 refused (18: any u32, 0 allowed)") \
    X(EVAL_MCDC_RECORDER,     19, PBI_LLVM_NOW, "MC/DC: test vectors numbered by TVIdxBuilder, listed false outcomes first; 18: 2^n vectors by index (which branches a decision takes: EVAL_MCDC_CONTAINED)") \
    X(EVAL_MCDC_CONTAINED,    18, PBI_LLVM_NOW, "MC/DC: a decision takes the branches it contains or its expansions hold, condition 0 first (MCDCDecisionRecorder; llvm-cov-18 too: nested decisions and ones waiting for branches in a macro are evaluated, each when complete)") \
    X(EVAL_MCDC_BIT_INDEX,    19, PBI_LLVM_NOW, "MC/DC bitmap index in bits when the profile is indexed version 12+ (18: always bytes)") \
    X(EVAL_FOLDED_SIDES,      20, PBI_LLVM_NOW, "a branch side is folded on its own (TrueFolded/FalseFolded): totals count each unfolded side; an MC/DC condition is folded when either side is") \
    X(EVAL_MCDC_PAIRS_NESTED, 19, PBI_LLVM_NOW, "MC/DC totals count a covered pair only for an unfolded condition (18 counted covered pairs of every condition)") \
    X(EVAL_SEG_EMPTY_SKIPPED, 13, PBI_LLVM_NOW, "segments: an empty skipped region is emitted as skipped, then the enclosing count resumes at its location (every release: zlib by clang 13-24)") \
    X(EVAL_LINE_ANY_ENTRY,    18, PBI_LLVM_NOW, "lines: a line with any counted region entry is mapped, even when it starts with a skipped region (unverified release)") \
    X(EVAL_FILE_BRANCHES_ALL, 20, PBI_LLVM_NOW, "a file's view takes the branches of every file id of that name (13-19: of file id 0 only, FileID == ExpandedFileID)") \
    X(COV_MESSAGES_LOWER,     18, PBI_LLVM_NOW, "coverage errors lowercase, coverage-map ones with their detail ('malformed coverage data: number of filenames is zero'); 13-17 'Malformed coverage data'") \
    X(PROF_ERROR_DETAIL,      14, PBI_LLVM_NOW, "'malformed instrumentation profile data: function name is empty' (13: without ': function name is empty')") \
    X(EVAL_MCDC_TV_BY_INDEX,  22, PBI_LLVM_NOW, "MC/DC executed test vectors: false outcomes then true, each by bitmap index (19-21: walk order; 22 is the first export that shows them)") \
    X(EVAL_MCDC_SORTED,       23, PBI_LLVM_NOW, "a function's MC/DC records are in the order llvm-cov's one walk of the mapping, following each expansion where it stands, meets each decision's last branch (18-22: the order the decisions complete in the stored mapping)") \
    X(READ_REMOVE_DOTS,       15, PBI_LLVM_NOW, "a relative filename joined to the compilation directory loses its '.' and '..' (remove_dots); 13-14 keep '/x/build/../src/p.c' as appended (export, lcov; report removes them itself)") \
    X(LOAD_ERROR_NAMES_PROFILE, 15, PBI_LLVM_NOW, "a profile that cannot be read: 'PROF: Could not read profile data!REASON' when missing, 'Failed to load coverage: 'PROF': REASON' otherwise (13-14: 'OBJ, OBJ: Failed to load coverage: REASON' for both)") \
    X(EVAL_MCDC_SOURCE_ORDER, 23, PBI_LLVM_NOW, "an MC/DC record's conditions (test vector columns, pairs) in the order of the source with every macro expanded where it is used (18-22: condition 0, then the order the branches are stored, file by file)") \
    X(EVAL_SINGLE_BYTE_OR,    18, 19,           "single-byte coverage: regions over one span combine their counts by 'or' (19 verified; 21+ add them up)")

enum pbi_llvm_cov_feature {
#define PBI_X(id, since, until, meaning) PBI_LC_##id,
    PBI_LLVM_COV_FEATURES(PBI_X)
#undef PBI_X
    PBI_LC_COUNT_
};
_Static_assert(PBI_LC_COUNT_ <= 64, "llvm-cov features are bits of a uint64_t");

static inline int pbi_llvm_cov_has(const pbi_llvm_target *t, enum pbi_llvm_cov_feature f) {
    return (int)((t->cov_features >> f) & 1u);
}

/* The target of release r. Returns 0, or PB_EINVAL when r is outside
 * PBI_LLVM_MIN..PBI_LLVM_MAX (*out is then untouched). */
int pbi_llvm_target_of(int release, pbi_llvm_target *out);

/* Parses a release number ("13" .. "24"). Returns 0, or PB_EINVAL with err
 * naming `what` (the option or field that gave it) and the accepted range;
 * *out is untouched on failure. */
int pbi_llvm_target_parse(const char *text, const char *what, pbi_llvm_target *out, pb_error *err);

/* The target of the options' llvm_release (pb_read_options and
 * pb_write_options, model/options.h reads it): release r, or
 * PBI_LLVM_DEFAULT for 0; t->chosen is 1 when r is not 0. Returns 0, or
 * PB_EINVAL with err naming "llvm_release" and the accepted range (*out is
 * then untouched). */
int pbi_llvm_target_for(int release, pbi_llvm_target *out, pb_error *err);

/* The lowest release whose readers accept indexed version v (0 when none
 * of 13..24 does): what a notice names when older tools cannot read a file. */
int pbi_llvm_first_reading_indexed(uint32_t v);

/*
 * The LLVM files and the first version of each that holds kind-2 (vtable)
 * value sites, by the write option that picks the version (a plugin's
 * pb_format.version_option). A file without a version option (text) has
 * them from release TEXT_VTABLE_SITES on. One row per file:
 *   option             vtable sites since   the target's version of it  */
#define PBI_LLVM_FILES(X)                                  \
    X("raw-version",     10, raw_version)                  \
    X("indexed-version", 12, indexed_version)

/* 1 when the file an LLVM writer with version option `version_option`
 * (NULL: text) writes for t keeps vtable value sites; `chosen` is the
 * option's value when the caller gave one. */
int pbi_llvm_keeps_vtable_sites(const pbi_llvm_target *t, const char *version_option, const char *chosen);

#endif
