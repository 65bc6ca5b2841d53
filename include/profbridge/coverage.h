/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/coverage.h -- source coverage as `llvm-cov export` and
 * `llvm-cov report` compute it, from binaries built with clang
 * `-fprofile-instr-generate -fcoverage-mapping` (any clang 13-24, coverage
 * mapping versions 4-7) and a profile of any kind and version: raw
 * `.profraw`, indexed `.profdata`, text, or several of them with weights,
 * merged on the fly as `llvm-profdata-N merge` would merge them.
 *
 * The output is what llvm-cov of the chosen release (13..24,
 * pb_cov_options.llvm_release) prints, byte for byte: export's JSON and
 * lcov, report's tables.
 *
 * Typical use:
 *   pb_cov_options o = PB_COV_OPTIONS_INIT;
 *   pb_coverage *cov = NULL;
 *   const char *objs[] = {"./prog"}, *profs[] = {"default.profraw"};
 *   pb_cov_export_options eo = PB_COV_EXPORT_OPTIONS_INIT;
 *   eo.format = PB_COV_LCOV;
 *   if (pb_coverage_load(&cov, objs, 1, profs, NULL, 1, &o, &err) == 0)
 *       (void)pb_coverage_export(cov, &eo, sink, &err);
 *   pb_coverage_free(cov);
 *
 * Thread-safety: a pb_coverage is read-only once loaded; several threads
 * may export or report from it at once.
 */
#ifndef PROFBRIDGE_COVERAGE_H
#define PROFBRIDGE_COVERAGE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "format.h"
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pb_coverage pb_coverage;

/* pb_error.path of the diagnostic pb_coverage_load sends for functions whose
 * hash in the binary differs from the profile's; its message is llvm-cov's
 * "N functions have mismatched data". One further diagnostic per function,
 * with path PB_COV_MISMATCH_FUNCTION, names it, its file and both hashes. */
#define PB_COV_MISMATCHED "coverage.mismatched"
#define PB_COV_MISMATCH_FUNCTION "coverage.mismatched.function"
/* pb_error.path of the warning pb_coverage_load sends for an object that
 * was modified after a profile (e->source: the object; message: llvm-cov's
 * "profile data may be out of date - object is newer"). */
#define PB_COV_OUT_OF_DATE "coverage.out_of_date"
/* pb_error.path of a load that failed on a profile the chosen llvm-cov-N
 * cannot read; pb_error.message is then llvm-cov-N's whole error line
 * without its "error: " (e->source: the profile), to print as it is:
 *   PB_COV_PROFILE_UNREADABLE  the profile cannot be opened (15+: checked
 *       before loading: "PROF: could not read profile data!REASON");
 *   PB_COV_LOAD_FAILED  the load failed ("failed to load coverage: 'PROF':
 *       invalid instrumentation profile data (bad magic)", "... unsupported
 *       instrumentation profile format version"; 13-14: "OBJS: Failed to
 *       load coverage: REASON"); llvm-cov export then adds the line "could
 *       not load coverage information" (13-17: "Could not ..."). */
#define PB_COV_PROFILE_UNREADABLE "coverage.profile_unreadable"
#define PB_COV_LOAD_FAILED "coverage.load_failed"

#define PB_COV_OPTIONS_VERSION 1

/* What pb_coverage_load reads and how (llvm-cov's options common to export
 * and report). Lists are arrays of n strings; NULL with n 0: none. */
typedef struct pb_cov_options {
    unsigned version;          /* PB_COV_OPTIONS_VERSION */
    int llvm_release;          /* 13..24, whose rules and output apply; 0: the default (19) */
    const char *compilation_dir;     /* -compilation-dir; NULL: none */
    const char *arch;                /* -arch; NULL: any */
    const char *path_equivalence;    /* -path-equivalence "from,to"; NULL: none */
    unsigned threads;                /* -num-threads; 0: llvm-cov's default */
    int check_binary_ids;            /* -check-binary-ids (17+) */
    int empty_profile;               /* -empty-profile (21+): no profile, every count 0 */
    /* Filters, as llvm-cov applies them: */
    const char *const *names;             size_t nnames;             /* -name */
    const char *const *name_regexes;      size_t nname_regexes;      /* -name-regex */
    const char *const *name_allowlists;   size_t nname_allowlists;   /* -name-allowlist files */
    const char *const *ignore_filename_regexes;  size_t nignore_filename_regexes;
    const char *const *include_filename_regexes; size_t ninclude_filename_regexes; /* 23+ */
    const char *const *sources;           size_t nsources;           /* the SOURCES operands */
    /* How the profiles are read (limits; NULL: defaults). */
    const pb_read_options *read;
    /* Warnings (mismatched functions, profiles that could not be merged),
     * e->source naming the file. NULL discards them. */
    pb_diag_fn diag;
    void *diag_ctx;
    /* More -path-equivalence "from,to" pairs (llvm-cov takes the option
     * several times), tried after path_equivalence, the first whose "from"
     * starts a file wins. */
    const char *const *path_equivalences;  size_t npath_equivalences;
} pb_cov_options;

#define PB_COV_OPTIONS_INIT                                                                                  \
    {PB_COV_OPTIONS_VERSION, 0, NULL, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, \
     0, NULL, NULL, NULL, NULL, 0}

/* Sets *o to PB_COV_OPTIONS_INIT of `version`. Returns PB_OK or PB_EINVAL
 * (o NULL, or a version this library does not know: *o untouched). */
int pb_cov_options_init(pb_cov_options *o, unsigned version);

/*
 * Reads the coverage mappings of objects[0..nobjects) and the profiles
 * profiles[0..nprofiles) (weights[i] each, NULL: all 1; several are merged as
 * llvm-profdata-N merge merges them), and evaluates them as llvm-cov-N does.
 * Returns PB_OK, or:
 *   PB_EINVAL  an argument is NULL, no object, a weight of 0, an unknown
 *              release or -arch (a regular expression that does not compile
 *              is no error: it matches nothing, as in llvm-cov);
 *   PB_EIO     a file cannot be read (err->source names it);
 *   PB_EFORMAT an object or a profile is malformed (err names the file, the
 *              section or field and the byte offset; err->message is the
 *              whole line llvm-cov-N prints after "error: ", e.g. "failed to
 *              load coverage: 'prog': malformed coverage data"; err->path is
 *              PB_COV_LOAD_FAILED or PB_COV_PROFILE_UNREADABLE for a profile,
 *              the section's field for an object), or an indexed profile of
 *              a version llvm-cov-N does not read;
 *   PB_EUNSUPPORTED the machine's libelf cannot be used;
 *   PB_ENOMEM  out of memory.
 * Binaries of every coverage-mapping version 4-7 are read whatever the
 * release (llvm-cov 13-17 refuse version 7: pb_coverage_object_version),
 * MC/DC of clang 18 and of clang 19+ alike.
 * On failure *out is NULL.
 */
int pb_coverage_load(pb_coverage **out, const char *const *objects, size_t nobjects,
                     const char *const *profiles, const uint64_t *weights, size_t nprofiles,
                     const pb_cov_options *o, pb_error *err) PB_WARN_UNUSED;

void pb_coverage_free(pb_coverage *c);

enum { PB_COV_JSON = 0, PB_COV_LCOV = 1 };

#define PB_COV_EXPORT_OPTIONS_VERSION 1
typedef struct pb_cov_export_options {
    unsigned version;     /* PB_COV_EXPORT_OPTIONS_VERSION */
    int format;           /* PB_COV_JSON (-format=text) or PB_COV_LCOV */
    int summary_only;     /* -summary-only */
    int skip_expansions;  /* -skip-expansions */
    int skip_functions;   /* -skip-functions */
    int skip_branches;    /* -skip-branches */
    int unify_instantiations;            /* -unify-instantiations (21+) */
    int show_mcdc_non_executed_vectors;  /* -show-mcdc-non-executed-vectors (23+) */
} pb_cov_export_options;
#define PB_COV_EXPORT_OPTIONS_INIT {PB_COV_EXPORT_OPTIONS_VERSION, PB_COV_JSON, 0, 0, 0, 0, 0, 0}
int pb_cov_export_options_init(pb_cov_export_options *o, unsigned version);

/* Writes llvm-cov-N export's output into out. Returns PB_OK, PB_EINVAL
 * (NULL argument, unknown format), PB_EIO (the sink failed) or PB_ENOMEM;
 * on failure what was written is not committed (the caller frees the sink). */
int pb_coverage_export(const pb_coverage *c, const pb_cov_export_options *o, pb_sink *out,
                       pb_error *err) PB_WARN_UNUSED;

/* A demangler (llvm-cov's -Xdemangler): the demangled form of
 * name[0..len), NUL-terminated and valid until the report call returns, or
 * NULL to keep the name. Called on the thread that called
 * pb_coverage_report, once per name printed. */
typedef const char *(*pb_cov_demangle_fn)(void *ctx, const char *name, size_t len);

#define PB_COV_REPORT_OPTIONS_VERSION 1
typedef struct pb_cov_report_options {
    unsigned version;                 /* PB_COV_REPORT_OPTIONS_VERSION */
    int show_functions;               /* -show-functions: per function of the sources */
    int show_region_summary;          /* -1: the release's default, else 0/1 */
    int show_branch_summary;
    int show_instantiation_summary;
    int show_mcdc_summary;
    int use_color;                    /* -use-color (ANSI colours) */
    /* -Xdemangler: how -show-functions prints names (NULL: as the binary
     * has them). pb_coverage_function_name lists what llvm-cov gives its
     * demangler. */
    pb_cov_demangle_fn demangle;
    void *demangle_ctx;
} pb_cov_report_options;
#define PB_COV_REPORT_OPTIONS_INIT {PB_COV_REPORT_OPTIONS_VERSION, 0, -1, -1, -1, -1, 0, NULL, NULL}
int pb_cov_report_options_init(pb_cov_report_options *o, unsigned version);

/* Writes llvm-cov-N report's table (or, with show_functions, the per-function
 * tables of the sources) into out. Returns as pb_coverage_export. */
int pb_coverage_report(const pb_coverage *c, const pb_cov_report_options *o, pb_sink *out,
                       pb_error *err) PB_WARN_UNUSED;

/* Explains every byte of the coverage sections of one object (__llvm_covmap,
 * __llvm_covfun, the names), as text or (json nonzero) JSON, into out; up to
 * the first malformed byte, then the problem with its offset. Returns PB_OK,
 * PB_EIO, PB_EFORMAT (after writing what precedes the problem) or PB_ENOMEM. */
int pb_coverage_dump(const char *object, int json, pb_sink *out, pb_error *err) PB_WARN_UNUSED;

/* The coverage-mapping version of object i (0-based, in the order given to
 * pb_coverage_load) as LLVM numbers them, 1-based (CovMapVersion + 1: 4 for
 * clang 13, 5 for clang 14-15, 6 for clang 16-17, 7 for clang 18+), the
 * highest its __llvm_covmap headers carry; 0 when i is out of range or the
 * object has none. What the CLI needs to say that llvm-cov-13..17 would
 * refuse a clang-18+ binary (profbridge reads it). */
uint32_t pb_coverage_object_version(const pb_coverage *c, size_t i);

/* The functions' names in llvm-cov's order (getCoveredFunctions: what
 * llvm-cov writes, one per line, to its -Xdemangler): the count, and name i
 * (not NUL-terminated: *len bytes; NULL when i is out of range). */
size_t pb_coverage_function_count(const pb_coverage *c);
const char *pb_coverage_function_name(const pb_coverage *c, size_t i, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
