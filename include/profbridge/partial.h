/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/partial.h -- a merge of a contiguous run of inputs that can be
 * combined with the merges of the runs after it: the pieces of a fleet
 * merge run as a tree (shard -> step -> final) on any engine, giving the
 * bytes of one flat `profbridge merge` of all inputs in the same order.
 *
 * A pb_partial holds:
 *  - the rules it was made under (a pb_merger_options' release, saturation
 *    point, value limit, failure mode, trace reservoir and length); only
 *    partials of equal rules combine;
 *  - the profile its inputs merge into (what pb_merger gives for them);
 *  - for each value of a value site where they differ, the two other counts
 *    the order-dependent rule of llvm-profdata needs (a value first seen in
 *    a later input is added with its count unweighted): its weighted sum
 *    over the partial's inputs ("exist": what is added when an earlier
 *    partial already holds the value) and its first count unweighted plus
 *    the later ones weighted ("new": what it starts at when an earlier
 *    partial holds the record but not the value). With weight 1 everywhere
 *    there are none;
 *  - the provenance: every input, in order, with what became of it.
 * docs/distributed-merge.md states where a combined result can differ
 * from the flat merge (sites past 255 values, temporal traces past the
 * reservoir, counter-count conflicts across partitions, saturated counts).
 *
 * Serialization (pb_partial_save/_load, the .pbpart file of
 * `profbridge merge --partial`): magic "PBPART", a format version, the
 * rules, the provenance, the profile and the extra counts, zlib-deflated;
 * validated field by field when read back. pb_profile_save/_load is the
 * same for a plain profile (magic "PBPROF"): lossless for every model.
 *
 * Thread-safety: a pb_partial is used by one thread at a time; distinct
 * partials are independent. Errors: see error.h (every function below
 * that takes a pb_error clears it first).
 */
#ifndef PROFBRIDGE_PARTIAL_H
#define PROFBRIDGE_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "merge.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pb_partial pb_partial;

/* What became of an input. */
enum {
    PB_PARTIAL_MERGED = 0,        /* merged (a raw input failing half-way is FAILED, its records kept) */
    PB_PARTIAL_SKIPPED_EMPTY = 1, /* an empty file, skipped as llvm-profdata skips it */
    PB_PARTIAL_FAILED = 2         /* could not be read: error_* say why */
};

/* One input of a partial (borrowed strings: valid until the partial is
 * freed or combined into). */
typedef struct pb_partial_input {
    const char *name;   /* the path or URL it was added with */
    uint64_t weight;
    uint64_t size;      /* bytes read (the file's size); 0 when it could not be opened */
    const char *sha256; /* SHA-256 of its bytes, 64 lowercase hex digits; "" when not read */
    int status;         /* PB_PARTIAL_* */
    int error_code;     /* FAILED: the PB_E* code; else 0 */
    const char *error_message; /* FAILED: the one-line form (pb_error_format); else "" */
    const char *error_path;    /* FAILED: pb_error.path (a field, a JSON path); may be "" */
    uint64_t error_offset;     /* FAILED: byte offset, or PB_NO_OFFSET */
    const pb_error *error;     /* FAILED: the whole error (source = name); else NULL */
} pb_partial_input;

/*
 * A new partial of no input: the identity of pb_partial_combine. `rules`
 * (copied; NULL: PB_MERGER_OPTIONS_INIT) are the merge's: version,
 * failure_mode, llvm_release, max_count, keep_all_values, trace_reservoir,
 * trace_max_length, remap, keep_functions/drop_functions (applied by
 * pb_partial_finish only), read (read options of the inputs), diag/failed
 * (called as each input is added: its notices and warnings, and its failure
 * if it fails; the failure is also kept in the provenance). threads and
 * progress are ignored. The pointers in rules must outlive the partial.
 * Returns PB_OK; PB_EINVAL (out NULL, an options version, release or
 * failure mode pb_merger_new refuses, a bad regular expression) or
 * PB_ENOMEM. On failure *out is NULL.
 */
int pb_partial_new(pb_partial **out, const pb_merger_options *rules, pb_error *err) PB_WARN_UNUSED;

/*
 * Reads the input at `path` (any format the registry reads, or a .pbpart:
 * then it is combined as pb_partial_combine does, and weight must be 1) and
 * merges it after the partial's inputs with `weight` (>= 1). An input that
 * cannot be read is NOT an error return: it is kept in the provenance as
 * FAILED (with its error) and reported through rules->failed and
 * rules->diag, as pb_merger reports it; the records read before the
 * error of a raw input are kept, as llvm-profdata keeps them.
 * Returns PB_OK; PB_EINVAL (NULL argument, weight 0, weight != 1 for a
 * partial, a partial of other rules); PB_ENOMEM (also when reading the
 * input ran out of memory: that is no fault of the input). After a failure
 * the partial may hold part of the input's records: free it.
 */
int pb_partial_add_file(pb_partial *p, const char *path, uint64_t weight, pb_error *err) PB_WARN_UNUSED;

/* As pb_partial_add_file, for `len` bytes in memory named `name` (the name
 * kept in the provenance; NULL: "<memory>"). Same returns. */
int pb_partial_add_bytes(pb_partial *p, const char *name, const void *bytes, size_t len, uint64_t weight,
                         pb_error *err) PB_WARN_UNUSED;

/*
 * Appends `next` after acc's inputs: acc becomes the partial of acc's
 * inputs followed by next's. next is the same after the call, but its
 * value counts are changed and restored during it: no other thread may use
 * next meanwhile (as if it were not const). The rules must be equal
 * (release, max_count, keep_all_values, failure mode, trace reservoir and
 * length, the filters' expressions). When next's profile kind cannot merge
 * after acc's (llvm-profdata's "Merge IR generated profile with Clang
 * generated profile."), each input next merged is recorded as FAILED with
 * that error (and reported through rules->failed), as the flat merge fails
 * each of them; that is no error return. Returns PB_OK; PB_EINVAL (NULL
 * argument, acc == next, other rules: err->path names the first rule that
 * differs, e.g. "rules.llvm_release"); PB_ENOMEM. After a failure acc may
 * hold part of next: free it.
 */
int pb_partial_combine(pb_partial *acc, const pb_partial *next, pb_error *err) PB_WARN_UNUSED;

/* Number of inputs (0 for NULL). */
size_t pb_partial_input_count(const pb_partial *p);

/* The i-th input (in input order). Returns PB_OK, or PB_EINVAL (NULL p or
 * out, i out of range: *out untouched). */
int pb_partial_input_at(const pb_partial *p, size_t i, pb_partial_input *out) PB_WARN_UNUSED;

/*
 * The merge's result over all inputs, in a new *out (the caller frees it):
 * the failure mode first (as pb_merger_run: under ANY a failed input, under
 * ALL every input failed, fails the merge with the first failed input's
 * code and err->path PB_MERGER_NOTHING_MERGED), then the function filters
 * (their notice through rules->diag); the profile is what pb_merger_run
 * gives for the same inputs, so pb_merge_write_file writes the same bytes.
 * The profile MOVES to *out: on PB_OK the partial keeps its rules and
 * provenance but no profile (a later finish gives an empty one; save or
 * copy the partial first to keep it). Returns PB_OK; the failed input's
 * code (above; the partial unchanged); PB_EINVAL (NULL argument, no
 * input); PB_ENOMEM. On failure *out is NULL.
 */
int pb_partial_finish(pb_partial *p, pb_profile **out, pb_error *err) PB_WARN_UNUSED;

/* The rules the partial was made under (borrowed; the pointers in it are
 * NULL for a loaded partial, except the expressions). */
const pb_merger_options *pb_partial_rules(const pb_partial *p);

/*
 * The partial's serialization in a new malloc'ed *bytes (the caller
 * free()s it), *len bytes. Returns PB_OK, PB_EINVAL (NULL argument) or
 * PB_ENOMEM (*bytes NULL).
 */
int pb_partial_save(const pb_partial *p, uint8_t **bytes, size_t *len, pb_error *err) PB_WARN_UNUSED;

/*
 * Reads a serialization back (`name`, may be NULL, names it in errors).
 * Every field is checked before it is used. `rules` (may be NULL) supplies
 * the callbacks and read options the loaded partial uses for inputs added
 * later; its rules proper are the file's. Returns PB_OK; PB_EFORMAT (not a
 * partial, a version this library does not read, a field out of bounds:
 * err->offset is the byte of the inflated body, err->path the field);
 * PB_ETRUNC (the bytes end early); PB_EINVAL (NULL argument); PB_ENOMEM.
 * On failure *out is NULL.
 */
int pb_partial_load(pb_partial **out, const void *bytes, size_t len, const char *name,
                    const pb_merger_options *rules, pb_error *err) PB_WARN_UNUSED;

/* 1 when `bytes` (len of them, at least the first 8) start as a
 * serialized partial, else 0. */
int pb_partial_sniff(const void *bytes, size_t len);

/* Frees the partial (NULL is a no-op). */
void pb_partial_free(pb_partial *p);

/*
 * A plain profile's serialization (for Python's pickle): lossless for
 * every model (what the json plugin keeps), zlib-deflated, magic "PBPROF".
 * save: a new malloc'ed *bytes; returns PB_OK, PB_EINVAL, PB_ENOMEM.
 * load: returns PB_OK; PB_EFORMAT (not such bytes, a bad field: offset and
 * path say where); PB_ETRUNC; PB_EINVAL; PB_ENOMEM. On failure *out is
 * NULL / *bytes NULL.
 */
int pb_profile_save(const pb_profile *p, uint8_t **bytes, size_t *len, pb_error *err) PB_WARN_UNUSED;
int pb_profile_load(pb_profile **out, const void *bytes, size_t len, const char *name,
                    pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
