/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* llvm_options.c -- llvm-profdata's options per subcommand (llvm_options.h). */
#include "llvm_options.h"

#include <string.h>

/* Why an option is refused: profbridge reads and writes instrumentation
 * profiles only (-fprofile-generate/-fprofile-instr-generate). */
#define SAMPLE "is for sample profiles (AutoFDO, CSSPGO); profbridge handles instrumentation profiles only"
#define MEMPROF "is for MemProf memory profiles; profbridge handles instrumentation profiles only"

/* cl::opt<bool>, a cl::opt with a value, a value-less enum flag; LLVM 13-14
 * refuse a second occurrence of any of them (llvm_args.h once_until) */
#define B(n_, id_, s_, u_, h_) {.name = n_, .id = id_, .kind = PBC_ARG_BOOL, .since = s_, .until = u_, .help = h_, .once_until = 14}
#define V(n_, a_, id_, t_, s_, u_, arg_, h_)                                                                  \
    {.name = n_, .alias = a_, .id = id_, .kind = PBC_ARG_VALUE, .type = t_, .since = s_, .until = u_, .arg = arg_, \
     .help = h_, .once_until = 14}
#define E(n_, id_, vals_, s_, u_, h_)                                                                       \
    {.name = n_, .id = id_, .kind = PBC_ARG_VALUE, .type = PBC_VAL_ENUM, .values = vals_, .since = s_,    \
     .until = u_, .arg = "{" vals_ "}", .help = h_, .once_until = 14}
#define F(n_, id_, s_, u_, h_) \
    {.name = n_, .id = id_, .kind = PBC_ARG_FLAG, .since = s_, .until = u_, .help = h_, .once_until = 14}
/* refused: the same, with the reason */
#define RB(n_, s_, u_, why_) \
    {.name = n_, .id = PBC_LO_REFUSED, .kind = PBC_ARG_BOOL, .since = s_, .until = u_, .refused = why_}
#define RV(n_, t_, s_, u_, why_)                                                                          \
    {.name = n_, .id = PBC_LO_REFUSED, .kind = PBC_ARG_VALUE, .type = t_, .since = s_, .until = u_, \
     .refused = why_}
#define RF(n_, s_, u_, why_) \
    {.name = n_, .id = PBC_LO_REFUSED, .kind = PBC_ARG_FLAG, .since = s_, .until = u_, .refused = why_}

/* a flag of an unnamed enum option (llvm_args.h: group, group_tail) */
#define FG(n_, id_, g_, help_)                                                                      \
    {.name = n_, .id = id_, .kind = PBC_ARG_FLAG, .help = help_, .group = g_, .once_until = 14}
#define RFG(n_, s_, g_, why_)                                                                       \
    {.name = n_, .id = PBC_LO_REFUSED, .kind = PBC_ARG_FLAG, .since = s_, .refused = why_, .group = g_}
/* show's kind flags: "Profile kind" up to LLVM 17, "Profile kind supported by show" from 18 */
#define SHOW_KIND(n_, id_, s_, why_, help_)                                                         \
    {.name = n_, .id = id_, .kind = PBC_ARG_FLAG, .since = s_, .refused = why_, .help = help_,       \
     .group = "Profile kind", .group_tail = " supported by show", .group_tail_since = 18, .once_until = 14}

#define STR PBC_VAL_STRING
#define UINT PBC_VAL_UINT
#define ULONG PBC_VAL_ULONG

const pbc_arg_spec pbc_llvm_merge_options[] = {
    V("output", "o", PBC_LO_OUTPUT, STR, 0, 0, "FILE", "write the merged profile to FILE"),
    V("input-files", "f", PBC_LO_INPUT_FILES, STR, 0, 0, "FILE",
      "read more inputs from FILE: one [WEIGHT,]PATH a line"),
    V("weighted-input", NULL, PBC_LO_WEIGHTED_INPUT, PBC_VAL_LIST, 0, 0, "W,FILE", "an input with weight W"),
    V("remapping-file", "r", PBC_LO_REMAPPING_FILE, STR, 0, 0, "FILE", "symbol remapping file"),
    V("num-threads", "j", PBC_LO_NUM_THREADS, UINT, 0, 0, "N", "number of threads reading inputs (0: all cores)"),
    B("sparse", PBC_LO_SPARSE, 0, 0, "leave out functions whose counters are all zero"),
    E("failure-mode", PBC_LO_FAILURE_MODE, "warn|any|all", 0, 0, "when an unreadable input stops the merge"),
    V("function", NULL, PBC_LO_FUNCTION, STR, 18, 0, "REGEX", "keep only the functions matching REGEX"),
    V("no-function", NULL, PBC_LO_NO_FUNCTION, STR, 18, 0, "REGEX", "leave out the functions matching REGEX"),
    B("keep-vtable-symbols", PBC_LO_KEEP_VTABLE_SYMBOLS, 19, 0, "keep vtable names in indexed profiles"),
    B("dump-input-file-list", PBC_LO_DUMP_INPUT_FILE_LIST, 0, 0, "print the inputs and their weights, then exit"),
    V("output-size-limit", NULL, PBC_LO_OUTPUT_SIZE_LIMIT, ULONG, 17, 0, "BYTES",
      "trim cold functions until the output is below BYTES"),
    V("temporal-profile-trace-reservoir-size", NULL, PBC_LO_TRACE_RESERVOIR, ULONG, 17, 0, "N",
      "keep at most N temporal profile traces (default 100)"),
    V("temporal-profile-max-trace-length", NULL, PBC_LO_TRACE_MAX_LENGTH, ULONG, 17, 0, "N",
      "cut every temporal profile trace to N functions (default 10000)"),
    /* one cl::opt in LLVM: a second of them is a repeat (once_with) */
    /* (.group: the unnamed cl::opt<enum>'s description, which LLVM's errors name) */
    {.name = "binary", .id = PBC_LO_BINARY, .kind = PBC_ARG_FLAG, .help = "write an indexed profile (default)",
     .once_until = 14, .once_with = PBC_LO_TEXT, .group = "Format of output profile"},
    {.name = "text", .id = PBC_LO_TEXT, .kind = PBC_ARG_FLAG, .help = "write a text profile", .once_until = 14,
     .once_with = PBC_LO_BINARY, .group = "Format of output profile"},
    {.name = "instr", .id = PBC_LO_INSTR, .kind = PBC_ARG_FLAG, .once_until = 14, .group = "Profile kind",
     .help = "instrumentation profiles (the default; the only kind profbridge reads)"},
    V("debug-info", NULL, PBC_LO_DEBUG_INFO, STR, 14, 0, "FILE", "correlate raw profiles with FILE's debug info"),
    V("binary-file", NULL, PBC_LO_BINARY_FILE, STR, 18, 0, "FILE", "correlate raw profiles with FILE's sections"),
    B("debuginfod", PBC_LO_DEBUGINFOD, 21, 0, "find correlation files through debuginfod"),
    V("max-debug-info-correlation-warnings", NULL, PBC_LO_MAX_CORRELATION_WARNINGS, UINT, 18, 0, "N", NULL),
    /* 24: the seed of -memprof-random-hotness and of the temporal trace
     * reservoir; accepted, the reservoir keeps std::mt19937's default seed
     * (docs/llvm-profdata.md) */
    V("random-seed", NULL, PBC_LO_RANDOM_SEED, UINT, 24, 0, "N", NULL),
    /* 24: sample-profile layouts that llvm-profdata-24 accepts with an
     * instrumentation profile and ignores (the same bytes): so do we */
    B("md5-indexed-tables", PBC_LO_MD5_SAMPLE, 24, 0, NULL),
    B("md5-prof-sym-list", PBC_LO_MD5_SAMPLE, 24, 0, NULL),
    RF("extbinary", 0, 0, SAMPLE),
    RF("gcc", 0, 0, SAMPLE),
    RF("sample", 0, 0, SAMPLE),
    RB("compress-all-sections", 0, 0, SAMPLE),
    RB("drop-profile-symbol-list", 16, 0, SAMPLE),
    RB("gen-partial-profile", 0, 0, SAMPLE),
    RB("gen-cs-nested-profile", 14, 16, SAMPLE),
    RV("prof-sym-list", STR, 0, 0, SAMPLE),
    RV("convert-sample-profile-layout", PBC_VAL_ENUM, 17, 0, SAMPLE),
    RV("sample-frame-depth-for-cold-context", UINT, 0, 0, SAMPLE),
    RB("sample-merge-cold-context", 0, 0, SAMPLE),
    RB("sample-trim-cold-context", 0, 0, SAMPLE),
    RB("split-layout", 21, 0, SAMPLE),
    RV("suppl-min-size-threshold", UINT, 0, 0, SAMPLE),
    RV("supplement-instr-with-sample", STR, 0, 0, SAMPLE),
    RV("instr-prof-cold-threshold", UINT, 0, 0, SAMPLE " (a threshold of --supplement-instr-with-sample)"),
    RB("use-md5", 0, 0, SAMPLE),
    RV("zero-counter-threshold", PBC_VAL_NUMBER, 0, 0, SAMPLE),
    RV("profiled-binary", STR, 15, 0, MEMPROF),
    RB("memprof-full-schema", 19, 0, MEMPROF),
    RB("memprof-random-hotness", 21, 0, MEMPROF),
    RV("memprof-random-hotness-seed", UINT, 21, 0, MEMPROF),
    RV("memprof-version", PBC_VAL_ENUM, 19, 0, MEMPROF),
    PBC_ARG_END};

const pbc_arg_spec pbc_llvm_show_options[] = {
    V("output", "o", PBC_LO_OUTPUT, STR, 0, 0, "FILE", "write to FILE instead of standard output"),
    B("all-functions", PBC_LO_ALL_FUNCTIONS, 0, 0, "details of every function"),
    B("counts", PBC_LO_COUNTS, 0, 0, "the counters of the functions shown"),
    V("function", NULL, PBC_LO_FUNCTION, STR, 0, 0, "NAME", "show the functions whose name contains NAME"),
    B("ic-targets", PBC_LO_IC_TARGETS, 0, 0, "indirect call targets"),
    B("memop-sizes", PBC_LO_MEMOP_SIZES, 0, 0, "memory intrinsic sizes"),
    B("show-vtables", PBC_LO_SHOW_VTABLES, 19, 0, "vtable targets"),
    B("detailed-summary", PBC_LO_DETAILED_SUMMARY, 0, 0, "the detailed profile summary"),
    {.name = "detailed-summary-cutoffs", .id = PBC_LO_DETAILED_SUMMARY_CUTOFFS, .kind = PBC_ARG_VALUE,
     .type = PBC_VAL_LIST, .arg = "A,B,...", .help = "cutoffs (times 10000) of the detailed summary",
     .once_until = 14, .uint_items = 1},
    V("topn", NULL, PBC_LO_TOPN, UINT, 0, 0, "N", "the N functions with the largest counts"),
    V("value-cutoff", NULL, PBC_LO_VALUE_CUTOFF, UINT, 0, 0, "N", "leave out functions whose counts are below N"),
    B("list-below-cutoff", PBC_LO_LIST_BELOW_CUTOFF, 0, 0, "list the functions below --value-cutoff"),
    B("showcs", PBC_LO_SHOWCS, 0, 0, "context-sensitive profile counts only"),
    B("covered", PBC_LO_COVERED, 14, 0, "names of the functions that ran"),
    B("binary-ids", PBC_LO_BINARY_IDS, 0, 0, "the binary ids"),
    B("temporal-profile-traces", PBC_LO_TEMPORAL_TRACES, 17, 0, "the temporal profile traces"),
    B("profile-version", PBC_LO_PROFILE_VERSION, 16, 0, "the profile's format version"),
    B("text", PBC_LO_TEXT, 0, 0, "the profile in the text format"),
    B("json", PBC_LO_JSON, 16, 0, NULL),
    E("show-format", PBC_LO_SHOW_FORMAT, "text|json|yaml", 16, 0, "output format"),
    B("hot-func-list", PBC_LO_HOT_FUNC_LIST, 0, 0, "the hot functions (printed from LLVM 22 on)"),
    SHOW_KIND("instr", PBC_LO_INSTR, 0, NULL, "instrumentation profiles (the default)"),
    V("debug-info", NULL, PBC_LO_DEBUG_INFO, STR, 14, 0, "FILE", "show the functions of FILE's debug info"),
    V("max-debug-info-correlation-warnings", NULL, PBC_LO_MAX_CORRELATION_WARNINGS, UINT, 18, 0, "N", NULL),
    SHOW_KIND("sample", PBC_LO_REFUSED, 0, SAMPLE, NULL),
    RB("show-prof-sym-list", 0, 0, SAMPLE),
    RB("show-sec-info-only", 0, 0, SAMPLE),
    RB("show-composite-info-only", 24, 0, SAMPLE),
    SHOW_KIND("memory", PBC_LO_REFUSED, 14, MEMPROF, NULL),
    RV("profiled-binary", STR, 15, 0, MEMPROF),
    PBC_ARG_END};

const pbc_arg_spec pbc_llvm_overlap_options[] = {
    V("output", "o", PBC_LO_OUTPUT, STR, 0, 0, "FILE", "write the report to FILE"),
    V("function", NULL, PBC_LO_FUNCTION, STR, 0, 0, "NAME", "details of the functions whose name contains NAME"),
    V("value-cutoff", NULL, PBC_LO_VALUE_CUTOFF, PBC_VAL_ULLONG, 0, 0, "N",
      "function-level report for the TEST functions whose largest counter is >= N"),
    B("cs", PBC_LO_CS, 0, 0, "the context-sensitive counts"),
    FG("instr", PBC_LO_INSTR, "Profile kind", "instrumentation profiles (the default)"),
    RFG("sample", 0, "Profile kind", SAMPLE),
    RV("similarity-cutoff", PBC_VAL_ULLONG, 0, 0, SAMPLE),
    PBC_ARG_END};

const pbc_arg_spec pbc_llvm_order_options[] = {
    V("output", "o", PBC_LO_OUTPUT, STR, 17, 0, "FILE", "write the order to FILE instead of standard output"),
    V("num-test-traces", NULL, PBC_LO_NUM_TEST_TRACES, UINT, 19, 0, "N",
      "keep the last N traces aside and print the page-fault area of the order for them"),
    PBC_ARG_END};

/* ---- llvm-cov export and report ---------------------------------------------------
 * Every cl::opt of llvm-cov's CodeCoverageTool::run (both commands), then
 * doExport's and doReport's. Up to LLVM 14 a cl::opt given twice is an error
 * (once_until 14); -instr-profile is cl::Required up to 20 (21 added
 * -empty-profile). Lists (cl::list) take every occurrence, never split at
 * commas. */
#define NOIMPL "is not implemented by profbridge's llvm-cov export/report"
#define CB(n_, id_, s_, u_, h_) \
    {.name = n_, .id = id_, .kind = PBC_ARG_BOOL, .since = s_, .until = u_, .help = h_, .once_until = 14}
#define CV(n_, a_, id_, t_, s_, u_, arg_, h_)                                                                   \
    {.name = n_, .alias = a_, .id = id_, .kind = PBC_ARG_VALUE, .type = t_, .since = s_, .until = u_,         \
     .arg = arg_, .help = h_, .once_until = 14}
#define CL(n_, id_, s_, u_, arg_, h_)                                                                          \
    {.name = n_, .id = id_, .kind = PBC_ARG_VALUE, .type = PBC_VAL_LIST, .since = s_, .until = u_, .arg = arg_, \
     .help = h_}
#define CRB(n_, s_, u_, why_) \
    {.name = n_, .id = PBC_CO_REFUSED, .kind = PBC_ARG_BOOL, .since = s_, .until = u_, .refused = why_}
#define CRV(n_, t_, s_, u_, why_)                                                                         \
    {.name = n_, .id = PBC_CO_REFUSED, .kind = PBC_ARG_VALUE, .type = t_, .since = s_, .until = u_, \
     .refused = why_}

static const pbc_arg_spec cov_common_options[] = {
    {.name = "instr-profile", .id = PBC_CO_INSTR_PROFILE, .kind = PBC_ARG_VALUE, .type = STR, .arg = "FILE",
     .help = "the profile (raw, indexed or text; profbridge: may repeat, merged)", .required_until = 20,
     .once_until = 14},
    CL("object", PBC_CO_OBJECT, 0, 0, "FILE", "another covered executable or object file"),
    CB("dump-collected-objects", PBC_CO_DUMP_COLLECTED_OBJECTS, 0, 0, NULL),
    {.name = "sources", .id = PBC_CO_SOURCES, .kind = PBC_ARG_POSITIONAL_LIST, .type = PBC_VAL_LIST, .since = 16,
     .help = "the positionals after it are source files (-sources=FILE: one more)"},
    CRB("dump-collected-paths", 0, 0, NOIMPL),
    CL("arch", PBC_CO_ARCH, 0, 0, "ARCH", "architecture of the coverage mapping binaries"),
    CRB("dump", 0, 0, NOIMPL " (llvm-cov's internal debug dump)"),
    CRV("debug-file-directory", STR, 16, 0, NOIMPL " (objects found by build id)"),
    CRB("debuginfod", 16, 0, NOIMPL " (objects fetched by build id)"),
    {.name = "format", .id = PBC_CO_FORMAT, .kind = PBC_ARG_VALUE, .type = PBC_VAL_ENUM, .values = "text|html|lcov",
     .arg = "{text|html|lcov}", .help = "output format (export: text (JSON) or lcov; report: text)", .once_until = 14},
    CL("path-equivalence", PBC_CO_PATH_EQUIVALENCE, 0, 0, "FROM,TO", "map coverage data paths to local paths"),
    CL("name", PBC_CO_NAME, 0, 0, "NAME", "only the functions with this name"),
    CL("name-allowlist", PBC_CO_NAME_ALLOWLIST, 14, 0, "FILE", "only the functions listed in FILE"),
    CL("name-whitelist", PBC_CO_NAME_ALLOWLIST, 0, 15, "FILE", NULL),
    CL("name-regex", PBC_CO_NAME_REGEX, 0, 0, "REGEX", "only the functions matching REGEX"),
    CL("ignore-filename-regex", PBC_CO_IGNORE_FILENAME_REGEX, 0, 0, "REGEX", "skip the files matching REGEX"),
    CL("include-filename-regex", PBC_CO_INCLUDE_FILENAME_REGEX, 23, 0, "REGEX", "only the files matching REGEX"),
    /* llvm-cov's function filters by coverage: only `show` reads them;
     * export and report parse the value and ignore it (FuzzBench passes
     * -region-coverage-gt=0 to export) */
    CV("region-coverage-lt", NULL, PBC_CO_COVERAGE_THRESHOLD, PBC_VAL_NUMBER, 0, 0, "N", NULL),
    CV("region-coverage-gt", NULL, PBC_CO_COVERAGE_THRESHOLD, PBC_VAL_NUMBER, 0, 0, "N", NULL),
    CV("line-coverage-lt", NULL, PBC_CO_COVERAGE_THRESHOLD, PBC_VAL_NUMBER, 0, 0, "N", NULL),
    CV("line-coverage-gt", NULL, PBC_CO_COVERAGE_THRESHOLD, PBC_VAL_NUMBER, 0, 0, "N", NULL),
    CB("use-color", PBC_CO_USE_COLOR, 0, 0, "colours (report)"),
    CL("Xdemangler", PBC_CO_XDEMANGLER, 0, 0, "PROGRAM|ARG",
       "a demangler and its arguments (names on stdin, one per line; report -show-functions prints its lines)"),
    CB("show-region-summary", PBC_CO_SHOW_REGION_SUMMARY, 0, 0, "region statistics in the summary table"),
    CB("show-branch-summary", PBC_CO_SHOW_BRANCH_SUMMARY, 0, 0, "branch statistics in the summary table"),
    CB("show-mcdc-summary", PBC_CO_SHOW_MCDC_SUMMARY, 18, 0, "MC/DC statistics in the summary table"),
    CB("show-instantiation-summary", PBC_CO_SHOW_INSTANTIATION_SUMMARY, 0, 0,
       "instantiation statistics in the summary table"),
    CB("summary-only", PBC_CO_SUMMARY_ONLY, 0, 0, "export only the summary of each file"),
    CV("num-threads", "j", PBC_CO_NUM_THREADS, UINT, 0, 0, "N", "threads (0: llvm-cov's default)"),
    CV("compilation-dir", NULL, PBC_CO_COMPILATION_DIR, STR, 0, 0, "DIR", "base of relative paths in the mapping"),
    CB("check-binary-ids", PBC_CO_CHECK_BINARY_IDS, 17, 0, "fail if no object has a binary id of the profile"),
    CB("empty-profile", PBC_CO_EMPTY_PROFILE, 21, 0, "no profile: every count 0"),
    {.name = "version", .id = PBC_ARG_VERSION_ID, .kind = PBC_ARG_FLAG},
    PBC_ARG_END};

const pbc_arg_spec pbc_llvm_cov_export_options[] = {
    PBC_ARG_INCLUDE(cov_common_options),
    CB("skip-expansions", PBC_CO_SKIP_EXPANSIONS, 0, 0, "leave out expansion regions"),
    CB("skip-functions", PBC_CO_SKIP_FUNCTIONS, 0, 0, "leave out the functions"),
    CB("skip-branches", PBC_CO_SKIP_BRANCHES, 16, 0, "leave out branches (lcov)"),
    CB("unify-instantiations", PBC_CO_UNIFY_INSTANTIATIONS, 21, 0, "unify template instantiations (default on)"),
    CB("show-mcdc-non-executed-vectors", PBC_CO_SHOW_MCDC_NON_EXECUTED_VECTORS, 23, 0,
       "MC/DC test vectors that did not run"),
    PBC_ARG_END};

const pbc_arg_spec pbc_llvm_cov_report_options[] = {
    PBC_ARG_INCLUDE(cov_common_options),
    CB("show-functions", PBC_CO_SHOW_FUNCTIONS, 0, 0, "one table per source file, a row per function"),
    PBC_ARG_END};

const pbc_arg_spec *pbc_llvm_options_of(const char *cmd) {
    if (strcmp(cmd, "cov-export") == 0) return pbc_llvm_cov_export_options;
    if (strcmp(cmd, "cov-report") == 0) return pbc_llvm_cov_report_options;
    if (strcmp(cmd, "merge") == 0) return pbc_llvm_merge_options;
    if (strcmp(cmd, "show") == 0) return pbc_llvm_show_options;
    if (strcmp(cmd, "overlap") == 0) return pbc_llvm_overlap_options;
    if (strcmp(cmd, "order") == 0) return pbc_llvm_order_options;
    return NULL;
}
