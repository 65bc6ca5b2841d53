/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/access.h -- the API without struct layouts, for bindings.
 *
 * A program in another language (Python's ctypes, a Rust or Go FFI) should
 * not copy C struct layouts: they change between releases (options structs
 * grow, pb_error's buffers may change size) and a copied layout breaks
 * silently. Everything here passes only opaque pointers, integers and byte
 * buffers:
 *
 *   - errors live on the heap (pb_error_new) and are read through getters;
 *   - read, write and merger options are made by *_new and set by key and
 *     value strings, the words of the CLI's options; the pointer *_new hands
 *     out is an ordinary options struct, so it is passed to pb_read_file,
 *     pb_write_file and pb_merger_new as is;
 *   - records, value sites, Java methods and contexts and diff entries are
 *     reached by index.
 *
 * Strings handed out are borrowed: they stay valid as long as the object
 * they were taken from and are not changed (profiles: see profile.h). Byte
 * strings come with their length and are also NUL-terminated unless said
 * otherwise.
 *
 * Thread-safety: the getters of one object may be called from several
 * threads only when nothing changes it; names of Java records are rendered
 * into a cache on first use (profile.h), so one profile is read by one thread
 * at a time. Different objects are independent.
 */
#ifndef PROFBRIDGE_ACCESS_H
#define PROFBRIDGE_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "coverage.h"
#include "error.h"
#include "format.h"
#include "merge.h"
#include "partial.h"
#include "profile.h"
#include "show.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Errors on the heap                                                        */

/* A new cleared error (code 0, offset PB_NO_OFFSET), or NULL when out of
 * memory. Free it with pb_error_free; pb_error_clear makes it reusable. */
pb_error *pb_error_new(void);
/* Frees an error from pb_error_new (NULL is a no-op). */
void pb_error_free(pb_error *err);

/* The fields of an error (err must not be NULL). The strings are borrowed
 * from err and are "" when unset; pb_error_offset is PB_NO_OFFSET and
 * line/column 0 when they do not apply. pb_error_format (error.h) gives the
 * one-line form. */
int pb_error_code(const pb_error *err);
const char *pb_error_source(const pb_error *err);
uint64_t pb_error_offset(const pb_error *err);
const char *pb_error_path(const pb_error *err);
int pb_error_line(const pb_error *err);
int pb_error_column(const pb_error *err);
const char *pb_error_expected(const pb_error *err);
const char *pb_error_found(const pb_error *err);
const char *pb_error_message(const pb_error *err);

/* ------------------------------------------------------------------------ */
/* Options by key                                                            */

/*
 * Read options (format.h) on the heap, at PB_READ_OPTIONS_INIT. Returns
 * PB_OK with *out set, PB_EINVAL (out NULL) or PB_ENOMEM (*out NULL).
 * Only options made here may be given to pb_read_options_set and
 * pb_read_options_free.
 */
int pb_read_options_new(pb_read_options **out, pb_error *err) PB_WARN_UNUSED;
/*
 * Sets one read option by its CLI word; value is copied:
 *   "format"          a plugin name ("raw", "indexed", "text", "iprof", "json"):
 *                     read with it instead of detecting the format by content
 *   "lenient"         "1"/"0" (also "true"/"false", "yes"/"no")
 *   "max-input-size"  bytes, or "unlimited"
 *   "max-inflation"   ratio, or "unlimited"
 *   "llvm-version"    "13".."24": the llvm_release field (which release reads)
 *   "llvm-view"       "1"/"0": the llvm_view field (what LLVM sees of an iprof, json... input)
 *   any other key     a plugin option (format.h's pb_kv), e.g. "raw-profile",
 *                     "binary-file"; plugins ignore keys they do not know.
 * Setting a key again replaces its value. Returns PB_OK; PB_EINVAL (a NULL
 * argument, an unknown format, a value that is no number/flag: err->path is
 * the key) or PB_ENOMEM; on failure o is unchanged. err is cleared first.
 */
int pb_read_options_set(pb_read_options *o, const char *key, const char *value, pb_error *err) PB_WARN_UNUSED;
/* Where the read's notices and warnings go (fn NULL: discarded). */
void pb_read_options_set_diag(pb_read_options *o, pb_diag_fn fn, void *ctx);
/* Frees options from pb_read_options_new (NULL is a no-op). */
void pb_read_options_free(pb_read_options *o);

/*
 * Write options (format.h) on the heap, at PB_WRITE_OPTIONS_INIT;
 * "llvm-version" = "14" sets the llvm_release field (write for that release,
 * as the CLI's --llvm-version; PB_EINVAL outside 13..24), every other key is
 * a plugin option, e.g. "raw-version", "iprof-version", "order", "sparse".
 * Same returns, copying and replacing as the read options.
 */
int pb_write_options_new(pb_write_options **out, pb_error *err) PB_WARN_UNUSED;
int pb_write_options_set(pb_write_options *o, const char *key, const char *value, pb_error *err) PB_WARN_UNUSED;
void pb_write_options_set_diag(pb_write_options *o, pb_diag_fn fn, void *ctx);
void pb_write_options_free(pb_write_options *o);

/*
 * Merger options (merge.h) on the heap, at PB_MERGER_OPTIONS_INIT. Keys:
 *   "threads"          0 (llvm-profdata's default) .. ; more than 1024 is 1024
 *   "failure-mode"     "any", "all" or "warn"
 *   "llvm-version"     13..24: the release whose merge rules apply
 *   "max-count"        saturation point of counts
 *   "keep-all-values"  "1": value sites are not cut to 255 values
 *   "writer-contexts"  "1": merged on llvm-profdata's per-thread writers (merge.h)
 *   "trace-reservoir", "trace-max-length"   temporal traces (numbers)
 *   "keep-functions", "drop-functions"      POSIX extended regular expressions
 * Weights belong to inputs (pb_merger_add_file). Returns as the read
 * options; an unknown key is PB_EINVAL with err->path the key.
 */
int pb_merger_options_new(pb_merger_options **out, pb_error *err) PB_WARN_UNUSED;
int pb_merger_options_set(pb_merger_options *o, const char *key, const char *value, pb_error *err) PB_WARN_UNUSED;
/* How inputs are read (NULL: defaults); ro must outlive every merger made
 * with o. */
void pb_merger_options_set_read(pb_merger_options *o, const pb_read_options *ro);
/* The callbacks of merge.h (fn NULL: none). */
void pb_merger_options_set_diag(pb_merger_options *o, pb_diag_fn fn, void *ctx);
void pb_merger_options_set_failed(pb_merger_options *o, pb_merger_failure_fn fn, void *ctx);
void pb_merger_options_free(pb_merger_options *o);

/*
 * How a merge is written (merge.h pb_merge_output) on the heap, at
 * PB_MERGE_OUTPUT_INIT, for pb_merge_output_rules and pb_merge_write_file.
 * Keys: "format" (a plugin's name), "llvm-version" (13..24: the release,
 * then explicit), "indexed-version", "sparse" and "keep-vtable-symbols"
 * ("1"/"0"); any other key is a writer plugin option (copied, a later value
 * replaces it). Returns as the read options (PB_EINVAL with err->path the
 * key for a bad value).
 */
int pb_merge_output_options_new(pb_merge_output **out, pb_error *err) PB_WARN_UNUSED;
int pb_merge_output_options_set(pb_merge_output *o, const char *key, const char *value,
                                pb_error *err) PB_WARN_UNUSED;
void pb_merge_output_options_free(pb_merge_output *o);

/*
 * Merges `src` into `dst` (in place; src unchanged) as a merge under `rules`
 * (merger options, NULL: the defaults) merges an input of `weight` that
 * comes after dst's: the release's saturation point (or "max-count"), value
 * sites cut to 255 unless "keep-all-values", the trace options; mismatches
 * go to rules' diag callback as warnings. dst's own counts are not weighted.
 * Returns what pb_profile_merge returns (the state after a failure is
 * its); PB_EINVAL also for weight 0 or dst == src.
 */
int pb_profile_merge_under(pb_profile *dst, const pb_profile *src, uint64_t weight,
                           const pb_merger_options *rules, pb_error *err) PB_WARN_UNUSED;

/*
 * The i-th input of a partial (partial.h; input order), field by field:
 * name (path or URL), weight, size, sha256 (hex, "" when not read), status
 * (PB_PARTIAL_*), error (the failed input's pb_error, read with the
 * pb_error_* getters; NULL unless FAILED). Strings and the error are
 * borrowed from p (valid until it is freed or combined into). Returns PB_OK,
 * or PB_EINVAL (NULL argument, i out of range: nothing written).
 */
int pb_partial_input_get(const pb_partial *p, size_t i, const char **name, uint64_t *weight, uint64_t *size,
                         const char **sha256, int *status, const pb_error **error) PB_WARN_UNUSED;

/*
 * Overlap options (compare.h) on the heap, at PB_OVERLAP_OPTIONS_INIT, for
 * pb_profile_overlap. Keys: "base-name", "test-name" (printed as given),
 * "function" (substring), "value-cutoff" (a number), "cs" ("1"/"0"),
 * "llvm-version" (13..24). Returns as the read options; an unknown key is
 * PB_EINVAL with err->path the key.
 */
int pb_overlap_options_new(pb_overlap_options **out, pb_error *err) PB_WARN_UNUSED;
int pb_overlap_options_set(pb_overlap_options *o, const char *key, const char *value,
                           pb_error *err) PB_WARN_UNUSED;
void pb_overlap_options_free(pb_overlap_options *o);

/*
 * Show options (show.h) on the heap, at PB_SHOW_OPTIONS_INIT, for
 * pb_show_file and pb_show_write. Keys are llvm-profdata show's flag words,
 * "1"/"0": "all-functions", "counts", "ic-targets", "memop-sizes",
 * "show-vtables", "detailed-summary", "list-below-cutoff", "showcs",
 * "covered", "binary-ids", "temporal-profile-traces", "profile-version",
 * "text", "hot-func-list"; "json" (profbridge's JSON view), "llvm" (the
 * LLVM view of an iprof profile); "function" (substring),
 * "detailed-summary-cutoffs" (a,b,c), "topn" and "value-cutoff" (numbers),
 * "llvm-version" (13..24). Returns as the read options; an unknown key is
 * PB_EINVAL with err->path the key.
 */
int pb_show_options_new(pb_show_options **out, pb_error *err) PB_WARN_UNUSED;
int pb_show_options_set(pb_show_options *o, const char *key, const char *value, pb_error *err) PB_WARN_UNUSED;
void pb_show_options_free(pb_show_options *o);

/*
 * Coverage options (coverage.h) on the heap, at PB_COV_OPTIONS_INIT, for
 * pb_coverage_load. Keys are llvm-cov's option words:
 *   "llvm-version"        13..24
 *   "compilation-dir", "arch", "path-equivalence" ("from,to")   strings
 *   "num-threads"         a number
 *   "check-binary-ids", "empty-profile"   "1"/"0"
 *   "name", "name-regex", "name-allowlist", "ignore-filename-regex",
 *   "include-filename-regex", "sources"   lists: each set appends a value
 * Returns as the read options; an unknown key is PB_EINVAL with err->path
 * the key.
 */
int pb_cov_options_new(pb_cov_options **out, pb_error *err) PB_WARN_UNUSED;
int pb_cov_options_set(pb_cov_options *o, const char *key, const char *value, pb_error *err) PB_WARN_UNUSED;
/* How the profiles are read (NULL: defaults); ro must outlive every load
 * made with o. */
void pb_cov_options_set_read(pb_cov_options *o, const pb_read_options *ro);
void pb_cov_options_set_diag(pb_cov_options *o, pb_diag_fn fn, void *ctx);
void pb_cov_options_free(pb_cov_options *o);

/*
 * Export options (coverage.h) at PB_COV_EXPORT_OPTIONS_INIT. Keys: "format"
 * ("text" or "json": llvm-cov's JSON; "lcov"), and the flags "summary-only",
 * "skip-expansions", "skip-functions", "skip-branches",
 * "unify-instantiations", "show-mcdc-non-executed-vectors" ("1"/"0").
 * Report options at PB_COV_REPORT_OPTIONS_INIT: the flags "show-functions",
 * "show-region-summary", "show-branch-summary",
 * "show-instantiation-summary", "show-mcdc-summary", "use-color". Returns as
 * the read options; an unknown key is PB_EINVAL with err->path the key.
 */
int pb_cov_export_options_new(pb_cov_export_options **out, pb_error *err) PB_WARN_UNUSED;
int pb_cov_export_options_set(pb_cov_export_options *o, const char *key, const char *value,
                              pb_error *err) PB_WARN_UNUSED;
void pb_cov_export_options_free(pb_cov_export_options *o);
int pb_cov_report_options_new(pb_cov_report_options **out, pb_error *err) PB_WARN_UNUSED;
int pb_cov_report_options_set(pb_cov_report_options *o, const char *key, const char *value,
                              pb_error *err) PB_WARN_UNUSED;
void pb_cov_report_options_free(pb_cov_report_options *o);

/* ------------------------------------------------------------------------ */
/* Profile facts                                                             */

/* The format the profile was read from ("raw", "indexed", "text", "iprof",
 * "json"; "" when built), and its version (origin in profile.h). */
const char *pb_profile_origin_format(const pb_profile *p);
uint64_t pb_profile_origin_version(const pb_profile *p);

/* ------------------------------------------------------------------------ */
/* Records by index (i < pb_profile_record_count(p))                          */
/*
 * Out of range indices (record, kind, site, value, method, frame) give 0,
 * NULL or PB_NONE and PB_EINVAL where a code is returned; nothing is read
 * out of bounds. Arrays handed out as pointer and length (*n, which must not
 * be NULL) are borrowed (see profile.h for how long they live) and NULL when
 * empty. A NULL profile counts as an empty one.
 */

/* enum pb_record_kind of record i, or -1. */
int pb_record_kind(const pb_profile *p, size_t i);
/*
 * The LLVM name (bytes, borrowed, valid until p is freed) and hash of record
 * i; Java records' names are rendered (profile.h). Returns PB_OK, PB_EINVAL
 * (bad index, NULL p) or PB_ENOMEM; on failure *name is NULL.
 */
int pb_record_name(const pb_profile *p, size_t i, const char **name, size_t *len, uint64_t *hash,
                   pb_error *err) PB_WARN_UNUSED;
const uint64_t *pb_record_counters(const pb_profile *p, size_t i, size_t *n);
const uint8_t *pb_record_bitmap(const pb_profile *p, size_t i, size_t *n);
/* Value sites of kind `kind` (enum pb_value_kind) of record i. */
size_t pb_record_site_count(const pb_profile *p, size_t i, int kind);
size_t pb_record_site_value_count(const pb_profile *p, size_t i, int kind, size_t site);
/*
 * Value j of a site: its value and count, and the name it stands for when
 * the profile knows it (else *name NULL, *name_len 0): the symbol's name
 * (a vtable, an iprof type; "<type id N>" is not made up: a placeholder has
 * no name), or, for an indirect-call target, the name of the profile's
 * function records whose NameRef is the value. Returns PB_OK or PB_EINVAL.
 */
int pb_record_site_value(const pb_profile *p, size_t i, int kind, size_t site, size_t j, uint64_t *value,
                         uint64_t *count, const char **name, size_t *name_len);
/* Java records: their context id (PB_NONE for a function record and a
 * monitor entry); branch records: the (successorBci, index) pairs of their
 * layout, flattened (*n is twice the pairs). */
uint32_t pb_record_context(const pb_profile *p, size_t i);
const int32_t *pb_record_layout(const pb_profile *p, size_t i, size_t *n);

/* ------------------------------------------------------------------------ */
/* Java methods and contexts                                                 */

/* Frames of context ctx, callee first (0 for a bad id), and frame k's
 * method index and bytecode index (PB_OK or PB_EINVAL). */
size_t pb_context_frame_count(const pb_profile *p, uint32_t ctx);
int pb_context_frame(const pb_profile *p, uint32_t ctx, size_t k, uint32_t *method, int32_t *bci);

/* Method m's simple name (NULL for a placeholder or a bad index), and its
 * readable form "Decl.name(P1,P2)Ret" ("<method id N>" for a placeholder)
 * written into buf as snprintf does: the length it needed is returned. */
const char *pb_method_name(const pb_profile *p, uint32_t m, size_t *len);
size_t pb_method_format(const pb_profile *p, uint32_t m, char *buf, size_t n);
/* The symbol's name (NULL for a placeholder or a bad index). */
const char *pb_symbol_name(const pb_profile *p, uint32_t s, size_t *len);

/* ------------------------------------------------------------------------ */
/* Diff entries                                                              */

/*
 * Entry i of a diff (compare.h) through out-parameters (each may be NULL):
 * status (enum pb_diff_status), the LLVM name (borrowed from the compared
 * profiles), hash, the record indices in A and B (SIZE_MAX where absent) and
 * the impact. Returns PB_OK or PB_EINVAL (bad index; nothing written).
 */
int pb_diff_entry_get(const pb_diff *d, size_t i, int *status, const char **name, size_t *name_len,
                      uint64_t *hash, size_t *rec_a, size_t *rec_b, uint64_t *impact);

#ifdef __cplusplus
}
#endif
#endif
