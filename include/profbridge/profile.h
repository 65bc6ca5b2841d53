/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/profile.h -- the neutral in-memory profile model.
 *
 * Every reader produces a pb_profile and every writer consumes one; no
 * writer sees another format's structures. The model is shaped like LLVM's
 * instrumentation profiles, which carry the most: function records keyed by
 * (name, structural hash) with 64-bit counters, bitmap bytes and value
 * sites. GraalVM iprof data maps onto it (docs/mapping.md):
 *
 *  - iprof types are the profile's symbols (the same table holds LLVM vtable
 *    names): non-function names that value-site values stand for;
 *  - iprof methods are kept in a method table (name + signature as symbol
 *    indices), inlining contexts as interned frame arrays;
 *  - each iprof profile entry is one record whose kind says which section it
 *    came from. Its LLVM name is NOT stored: it is rendered from the context
 *    when an LLVM writer asks for it (pb_profile_record_name), which keeps a
 *    150 MB iprof small in memory.
 *
 * Ownership: a pb_profile owns everything reachable from it. Pointers that
 * getters return are borrowed and stay valid until the profile is freed or,
 * for records, sites and contexts, until the next call that adds to or
 * reorders the profile (add, merge, canonicalize).
 *
 * Thread safety: one profile may be used by any number of threads at the
 * same time as long as all of them only call functions that take it as
 * `const pb_profile *` (getters, pb_profile_record_name, pb_profile_lookup,
 * pb_write, pb_profile_overlap, pb_profile_diff, pb_profile_order, the
 * `src` of pb_profile_merge, ...). The caches those functions fill (rendered
 * Java names, the lookup and key indexes) are filled under a lock inside the
 * profile (tests/tsan/ checks it under ThreadSanitizer). A call that takes
 * `pb_profile *` (add, set, intern, merge into, canonicalize, free,
 * pb_profile_record_mut) needs the profile to itself: no other call on it
 * may run meanwhile. Distinct profiles are independent.
 *
 * Errors: see error.h. Every function below that takes a pb_error resets it
 * on entry. Functions without one cannot fail; their `p` (and other
 * pointers not marked "may be NULL") must not be NULL: they are called per
 * record and do not check.
 *
 * State after a failure: a function that adds to a profile (add_*, intern*,
 * set_prop) changes nothing when it fails; pb_profile_merge says below what
 * a failed merge leaves.
 */
#ifndef PROFBRIDGE_PROFILE_H
#define PROFBRIDGE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pb_profile pb_profile;

/* Index meaning "none" for strings, symbols, methods, contexts and int arrays. */
#define PB_NONE UINT32_MAX

/* Interned string id. */
typedef uint32_t pb_str;

/* ---- variant flags: LLVM's version-word bits, shared by every format ---- */
#define PB_VARIANT_INSTR_LOOP_ENTRIES (UINT64_C(1) << 55) /* loop entries instrumented (LLVM 20+) */
#define PB_VARIANT_IR (UINT64_C(1) << 56)                 /* IR-level (not front-end) */
#define PB_VARIANT_CSIR (UINT64_C(1) << 57)               /* context-sensitive IR records present */
#define PB_VARIANT_ENTRY_FIRST (UINT64_C(1) << 58)        /* counter 0 counts the entry block */
#define PB_VARIANT_DBG_CORRELATE (UINT64_C(1) << 59)      /* raw only: names/data in the binary */
#define PB_VARIANT_BYTE_COVERAGE (UINT64_C(1) << 60)      /* single-byte coverage counters */
#define PB_VARIANT_FUNCTION_ENTRY_ONLY (UINT64_C(1) << 61)
#define PB_VARIANT_MEMPROF (UINT64_C(1) << 62)            /* indexed: a MemProf section existed */
#define PB_VARIANT_TEMPORAL (UINT64_C(1) << 63)           /* temporal profile traces */
#define PB_VARIANT_MASK UINT64_C(0xff80000000000000)
/* Not a version-word bit: LLVM's InstrProfKind::FrontendInstrumentation,
 * which only a text ':fe' header sets (a front-end raw or indexed file has
 * no kind bit at all). No LLVM format stores it, so writers leave it out;
 * it decides merges: llvm-profdata 14+ refuses to merge an input that has
 * it into a profile that has not, and the reverse (docs/indexed.md). */
#define PB_KIND_FRONTEND UINT64_C(1)

/* Bit 60 of a record's hash marks a context-sensitive record (LLVM). */
#define PB_HASH_CS_BIT (UINT64_C(1) << 60)

/* Saturation points of counter and value-count addition, per output. */
#define PB_MAX_COUNT_LLVM14 UINT64_MAX               /* llvm-profdata <= 14 */
#define PB_MAX_COUNT_LLVM (UINT64_MAX - 2)           /* llvm-profdata >= 15 (getInstrMaxCountValue) */
#define PB_MAX_COUNT_IPROF ((uint64_t)INT64_MAX)     /* iprof counts are Java longs */

/* LLVM's per-site value limit (the count is a byte in the formats). */
#define PB_MAX_VALUES_PER_SITE_LLVM 255

/* Value-profile kinds (LLVM's IPVK_*). */
enum pb_value_kind {
    PB_VK_INDIRECT_CALL = 0, /* value = callee NameRef */
    PB_VK_MEMOP_SIZE = 1,    /* value = size-range representative */
    PB_VK_VTABLE = 2,        /* value = vtable (or, for iprof, type) NameRef */
    PB_VK_COUNT = 3
};

enum pb_byte_order { PB_ORDER_UNKNOWN = 0, PB_ORDER_LE = 1, PB_ORDER_BE = 2 };

/* What a record stands for. PB_REC_FUNCTION is an LLVM function record with a
 * plain name; the others are iprof profile entries (docs/mapping.md). */
enum pb_record_kind {
    PB_REC_FUNCTION = 0,
    PB_REC_JAVA_CALL_COUNT = 1,     /* callCountProfiles:     counters [count] */
    PB_REC_JAVA_BRANCH = 2,         /* conditionalProfiles:   counters [sum, c0..ck-1], layout */
    PB_REC_JAVA_VIRTUAL_INVOKE = 3, /* virtualInvokeProfiles: counters [sum], kind-2 site */
    PB_REC_JAVA_INSTANCEOF = 4,     /* instanceOfProfiles:    counters [sum], kind-2 site */
    PB_REC_JAVA_MONITOR = 5,        /* monitorProfiles:       counters [sum], kind-2 site, no ctx */
    PB_REC_JAVA_SAMPLE = 6,         /* samplingProfiles:      counters [count] */
    PB_REC_KIND_COUNT = 7
};

/* One (value, count) of a value site. `symbol` is the index of the symbol the
 * value stands for (its NameRef equals `value`), or PB_NONE. */
typedef struct pb_value {
    uint64_t value;
    uint64_t count;
    uint32_t symbol;
} pb_value;

typedef struct pb_site {
    uint32_t num_values;
    pb_value *values; /* in the model's order: as read, or as merge left it */
} pb_site;

/*
 * A record. Readers fill a pb_record on the stack (pointing at their own
 * arrays) and pass it to pb_profile_add_record, which copies everything.
 * Records inside a profile may be changed in place through
 * pb_profile_record_mut (counts, bitmap bytes, values), not resized.
 */
typedef struct pb_record {
    uint8_t kind;       /* enum pb_record_kind */
    pb_str name;        /* PB_REC_FUNCTION: the function's name; Java kinds: PB_NONE */
    uint32_t ctx;       /* Java kinds except monitor: context id; else PB_NONE */
    uint32_t layout;    /* PB_REC_JAVA_BRANCH: int-array id of (successorBci, index) pairs */
    uint64_t hash;      /* PB_REC_FUNCTION: structural hash; Java kinds: 0 (derived, see
                           pb_profile_record_name) */
    uint32_t num_counters;
    uint64_t *counters;
    uint32_t num_bitmap_bytes;
    uint8_t *bitmap;
    uint32_t num_sites[PB_VK_COUNT];
    pb_site *sites[PB_VK_COUNT];
} pb_record;

/* A symbol: a non-function name (LLVM vtable name, iprof type name). */
typedef struct pb_symbol {
    pb_str name;            /* for a placeholder: PB_NONE */
    uint64_t md5;           /* NameRef of the name (of the rendered placeholder for placeholders) */
    uint8_t placeholder;    /* 1: stands for a dangling iprof type id (lenient read) */
    int64_t placeholder_id; /* that id */
} pb_symbol;

/* A Java method: simple name + signature [declaring type, return type, params...]
 * as symbol indices (a signature may be shorter than 2 in broken files). */
typedef struct pb_method {
    pb_str name;            /* PB_NONE for a placeholder */
    uint32_t num_sig;
    const uint32_t *sig;
    uint8_t placeholder;    /* 1: stands for a dangling iprof method id (lenient read) */
    int64_t placeholder_id;
} pb_method;

/* One frame of an inlining context: method index and bytecode index. The
 * frame the profile is about comes first (callee first, as in iprof). */
typedef struct pb_frame {
    uint32_t method;
    int32_t bci;
} pb_frame;

/* Where the data came from (informational; writers may use it for defaults). */
typedef struct pb_origin {
    char format[16];        /* "raw", "indexed", "text", "iprof", "json"; "" when built */
    uint64_t version;       /* format version (raw/indexed number; iprof: major*10000+minor*100+patch) */
    uint8_t pointer_width;  /* raw: 4 or 8; else 0 */
    uint8_t byte_order;     /* raw: enum pb_byte_order */
} pb_origin;

/* ------------------------------------------------------------------------ */
/* Life cycle                                                                */

/* Creates an empty profile (no flags, no records) that the caller owns and
 * frees with pb_profile_free. Returns 0, PB_EINVAL (out is NULL) or
 * PB_ENOMEM (*out NULL). */
int pb_profile_new(pb_profile **out, pb_error *err) PB_WARN_UNUSED;

/* Frees the profile and everything it owns; NULL is allowed. */
void pb_profile_free(pb_profile *p);

/* ------------------------------------------------------------------------ */
/* Profile-level facts                                                       */

/* The variant flags (PB_VARIANT_*, PB_KIND_FRONTEND); the setter replaces them. */
uint64_t pb_profile_flags(const pb_profile *p);
void pb_profile_set_flags(pb_profile *p, uint64_t variant_flags);

/* Where the profile came from (never NULL; borrowed, valid until the
 * profile is freed or the origin set again). The setter copies *o. */
const pb_origin *pb_profile_origin(const pb_profile *p);
void pb_profile_set_origin(pb_profile *p, const pb_origin *o);

/*
 * Free-form properties: byte strings under a key. Used for facts one format
 * has and the model need not understand, e.g. "iprof.version" = "1.1.0" or
 * "iprof.extra.<key>" = the compact JSON of an unknown top-level iprof key.
 * Setting a key again replaces its value. Returns 0 or PB_ENOMEM.
 */
int pb_profile_set_prop(pb_profile *p, const char *key, const void *value, size_t len,
                        pb_error *err) PB_WARN_UNUSED;
/* The value (NUL-terminated, borrowed until the key is set again, removed
 * or the profile freed) and its length (len may be NULL), or NULL if unset. */
const char *pb_profile_prop(const pb_profile *p, const char *key, size_t *len);
/* Properties in insertion order: key and value of the i-th (i < count;
 * NULL for i out of range). Borrowed as pb_profile_prop. */
size_t pb_profile_prop_count(const pb_profile *p);
const char *pb_profile_prop_at(const pb_profile *p, size_t i, const char **value, size_t *len);
/* Removes a property (no-op when absent). */
void pb_profile_remove_prop(pb_profile *p, const char *key);

/* Binary ids (build ids), in insertion order; duplicates are kept out.
 * add: the bytes are copied; returns 0 or PB_ENOMEM (nothing added).
 * pb_profile_binary_id: borrowed bytes of the i-th, NULL for i out of range. */
int pb_profile_add_binary_id(pb_profile *p, const uint8_t *id, size_t len, pb_error *err) PB_WARN_UNUSED;
size_t pb_profile_binary_id_count(const pb_profile *p);
const uint8_t *pb_profile_binary_id(const pb_profile *p, size_t i, size_t *len);

/* Temporal profile traces: a weight and a list of function NameRefs each.
 * add copies refs (NULL allowed when n is 0); returns 0 or PB_ENOMEM
 * (nothing added). pb_profile_trace: the borrowed refs of the i-th (NULL for
 * i out of range), its weight and length. */
int pb_profile_add_trace(pb_profile *p, uint64_t weight, const uint64_t *refs, size_t n,
                         pb_error *err) PB_WARN_UNUSED;
size_t pb_profile_trace_count(const pb_profile *p);
const uint64_t *pb_profile_trace(const pb_profile *p, size_t i, uint64_t *weight, size_t *n);
uint64_t pb_profile_trace_stream_size(const pb_profile *p);
void pb_profile_set_trace_stream_size(pb_profile *p, uint64_t n);
/* The largest trace stream (runs seen) a reader accepts: merging two sampled
 * streams draws one random number per run of one of them (as LLVM does), and
 * no input's bytes bound that count -- 2^30 took 40 s, 2^32 over 3 minutes.
 * 2^28 runs still merge in about 2 s. */
#define PB_MAX_TRACE_STREAM (UINT64_C(1) << 28)

/* Adds `src`'s binary ids and temporal traces to `dst` and its trace stream
 * size to dst's (saturating): what a copy of a profile's records into a
 * fresh profile needs besides the records. (pb_profile_merge adds the binary
 * ids the same way, but samples the traces as llvm-profdata does.)
 * Returns 0, PB_EINVAL (NULL dst or src) or PB_ENOMEM; after PB_ENOMEM dst
 * may hold some of src's binary ids and traces. */
int pb_profile_add_run_data(pb_profile *dst, const pb_profile *src, pb_error *err) PB_WARN_UNUSED;

/* ------------------------------------------------------------------------ */
/* Interned strings, symbols, methods, contexts, int arrays                  */

/* Interns `len` bytes (any bytes, NUL allowed). Equal bytes give equal ids.
 * Returns 0 or PB_ENOMEM (*out unchanged, nothing added). */
int pb_profile_intern(pb_profile *p, const void *bytes, size_t len, pb_str *out,
                      pb_error *err) PB_WARN_UNUSED;
/* The bytes of a string id (NUL-terminated for convenience), borrowed until
 * the profile is freed. NULL, with *len 0, for an id the profile does not
 * have, PB_NONE included. len may be NULL. */
const char *pb_profile_str(const pb_profile *p, pb_str id, size_t *len);

/* Adds a symbol by name, or finds the existing one with that name. Computes
 * its MD5 NameRef. *out = its index. Returns 0 or PB_ENOMEM (nothing added).
 * The placeholder variant and the method and context functions below return
 * the same codes. pb_profile_symbol / _method: borrowed until the next call
 * that adds to or reorders that table; NULL for an index out of range. */
int pb_profile_add_symbol(pb_profile *p, const void *name, size_t len, uint32_t *out,
                          pb_error *err) PB_WARN_UNUSED;
/* Adds (or finds) the placeholder symbol for a dangling type id. Returns 0
 * or PB_ENOMEM (nothing added). */
int pb_profile_add_placeholder_symbol(pb_profile *p, int64_t id, uint32_t *out,
                                      pb_error *err) PB_WARN_UNUSED;
size_t pb_profile_symbol_count(const pb_profile *p);
const pb_symbol *pb_profile_symbol(const pb_profile *p, uint32_t i);
/* Finds a symbol by name or by NameRef. Returns 0 (*out set) or
 * PB_ENOTFOUND (*out unchanged). */
int pb_profile_find_symbol(const pb_profile *p, const void *name, size_t len, uint32_t *out);
int pb_profile_find_symbol_md5(const pb_profile *p, uint64_t md5, uint32_t *out);

/* Adds (or finds the equal) method: name and signature as symbol indices.
 * Returns 0 or PB_ENOMEM (nothing added). */
int pb_profile_add_method(pb_profile *p, const void *name, size_t len, const uint32_t *sig,
                          size_t num_sig, uint32_t *out, pb_error *err) PB_WARN_UNUSED;
/* Adds (or finds) the placeholder method for a dangling method id. Returns
 * 0 or PB_ENOMEM (nothing added). */
int pb_profile_add_placeholder_method(pb_profile *p, int64_t id, uint32_t *out,
                                      pb_error *err) PB_WARN_UNUSED;
size_t pb_profile_method_count(const pb_profile *p);
const pb_method *pb_profile_method(const pb_profile *p, uint32_t i);

/* Interns a frame array (n >= 1). Equal arrays give equal ids. Returns 0 or
 * PB_ENOMEM (nothing added).
 * pb_profile_context: the borrowed frames, NULL (*n 0) for an unknown id. */
int pb_profile_intern_context(pb_profile *p, const pb_frame *frames, size_t n, uint32_t *out,
                              pb_error *err) PB_WARN_UNUSED;
const pb_frame *pb_profile_context(const pb_profile *p, uint32_t id, size_t *n);

/* Interns an int32 array (branch layouts). n may be 0. Returns 0 or
 * PB_ENOMEM (nothing added). pb_profile_ints:
 * borrowed, NULL (*n 0) for an unknown id. */
int pb_profile_intern_ints(pb_profile *p, const int32_t *v, size_t n, uint32_t *out,
                           pb_error *err) PB_WARN_UNUSED;
const int32_t *pb_profile_ints(const pb_profile *p, uint32_t id, size_t *n);

/* ------------------------------------------------------------------------ */
/* Records                                                                   */

/*
 * Copies `rec` (counters, bitmap, sites and values) into the profile.
 * Value symbols must be indices of this profile's symbols. Fails with
 * PB_EEXIST when a record with the same key exists (use pb_profile_merge_record
 * to add into it), PB_EINVAL when the record is malformed (no counters, a
 * Java kind without its context, a value whose symbol's NameRef differs).
 * *index (may be NULL) receives the new record's index. Returns 0,
 * PB_EEXIST, PB_EINVAL (also for a NULL p or rec) or PB_ENOMEM; on failure
 * the profile is unchanged.
 */
int pb_profile_add_record(pb_profile *p, const pb_record *rec, size_t *index,
                          pb_error *err) PB_WARN_UNUSED;

/* The records, in model order. pb_profile_record: borrowed until the next
 * call that adds to or reorders the profile; NULL for i out of range. */
size_t pb_profile_record_count(const pb_profile *p);
const pb_record *pb_profile_record(const pb_profile *p, size_t i);
pb_record *pb_profile_record_mut(pb_profile *p, size_t i);

/*
 * The record's LLVM name and hash. For PB_REC_FUNCTION these are the stored
 * name and hash; for Java kinds they are rendered from the context by the
 * grammar of docs/mapping.md (hash = low 60 bits of the name's MD5) and
 * cached. *name stays valid until the profile is freed. name, len and hash
 * may be NULL. `r` is a record of this profile or a record using its
 * tables. Returns 0, PB_EINVAL (the record names a string, context, method
 * or layout the profile lacks) or PB_ENOMEM. Safe to call from several
 * threads on one profile (see the top of this header).
 */
int pb_profile_record_name(const pb_profile *p, const pb_record *r, const char **name,
                           size_t *len, uint64_t *hash, pb_error *err) PB_WARN_UNUSED;

/* NameRef (MD5 low 8 bytes, little-endian) of any bytes. */
uint64_t pb_md5_ref(const void *bytes, size_t len);

/*
 * Indices of the records whose LLVM name is `name` (all hashes), or whose
 * name's NameRef is `ref`; at most `max` indices are stored, the return value
 * is the number found (indices may be NULL with max 0, to count). The first
 * call builds an index (renders Java names); when memory for it is lacking
 * the answer is 0. Safe to call from several threads on one profile.
 */
size_t pb_profile_lookup(const pb_profile *p, const void *name, size_t len, size_t *indices,
                         size_t max);
size_t pb_profile_lookup_ref(const pb_profile *p, uint64_t ref, size_t *indices, size_t max);

/* ------------------------------------------------------------------------ */
/* Canonical order, merge, check, compare                                    */

/*
 * Puts the profile in its canonical order, which depends only on content
 * (never on file ids or input order): symbols by name bytes (placeholders
 * after, by id), methods by (name, signature symbol names), records:
 * functions first by (name bytes, hash), then Java records by (kind, context
 * frames compared by canonical method index and bci, layout, hash). Equal
 * profiles read from id-shuffled files become identical. Returns 0,
 * PB_EINVAL (p NULL) or PB_ENOMEM; after PB_ENOMEM the profile holds the
 * same content, possibly only partly reordered. Indices and borrowed
 * pointers into the profile's tables are invalid after the call.
 */
int pb_profile_canonicalize(pb_profile *p, pb_error *err) PB_WARN_UNUSED;

/*
 * Symbol remapping (llvm-profdata merge --remapping-file): a table of
 * OLD -> NEW function names, applied to each function record before it is
 * merged, so records of both names (and equal hashes) add up under NEW.
 */
typedef struct pb_remap pb_remap;

/*
 * Reads a remapping file's text as llvm-profdata's SymbolRemapper does: lines
 * end at '\n' (or "\r\n"); empty lines and lines starting with '#' are
 * skipped; every other line is "OLD NEW", split at its first space, neither
 * part empty and no second space (a tab is part of a name). The first line
 * naming an OLD wins. Returns 0, or PB_EFORMAT with err->line set to the
 * first other line (1-based, counting every line) and LLVM's words
 * ("unexpected line in remapping file", expected "'old_symbol new_symbol'").
 * The text is copied (text may be NULL when len is 0). On failure *out is
 * NULL. pb_remap_free: NULL allowed. A pb_remap is never changed after
 * parsing: one may serve many threads.
 */
int pb_remap_parse(pb_remap **out, const void *text, size_t len, pb_error *err) PB_WARN_UNUSED;

/* NEW for `name` (returns 1 and sets *out, *out_len), or 0 when the table
 * does not name it. */
int pb_remap_lookup(const pb_remap *r, const char *name, size_t len, const char **out, size_t *out_len);

void pb_remap_free(pb_remap *r);

/* The path (pb_error.path) of a merge warning: LLVM's instrprof_error name of
 * what InstrProfWriter::addRecord reported for the record. */
#define PB_MERGE_COUNTER_OVERFLOW "counter_overflow"
#define PB_MERGE_COUNT_MISMATCH "count_mismatch"
#define PB_MERGE_VALUE_SITE_COUNT_MISMATCH "value_site_count_mismatch"
#define PB_MERGE_BITMAP_MISMATCH "bitmap_mismatch"
#define PB_MERGE_KINDS 4 /* how many PB_MERGE_* kinds there are */

/* The kind of a merge warning: 0 .. PB_MERGE_KINDS - 1 for `path` one of
 * PB_MERGE_* above, in the order listed there, or -1 for any other path
 * (also NULL). Thread-safe. */
int pb_merge_problem_kind(const char *path);

/* The words LLVM's instrprof_error gives a kind of pb_merge_problem_kind
 * ("counter overflow", ...; what pb_profile_merge's warnings say after
 * "FUNC: "), or NULL for a kind out of range. Static storage. */
const char *pb_merge_problem_words(int kind);

typedef struct pb_merge_options {
    unsigned version;   /* PB_MERGE_OPTIONS_VERSION: first, always (see error.h) */
    uint64_t weight;            /* counts and value counts are multiplied by it (>= 1) */
    uint64_t max_count;         /* saturation point: PB_MAX_COUNT_* */
    uint32_t max_values_per_site; /* 0 = no limit; PB_MAX_VALUES_PER_SITE_LLVM as llvm-profdata */
    pb_diag_fn diag;            /* mismatches are reported here as warnings */
    void *diag_ctx;
    const char *source;         /* input name for messages */
    /* Temporal traces: at most trace_reservoir kept, sampled from all seen
     * as llvm-profdata does (its --temporal-profile-trace-reservoir-size);
     * traces cut to trace_max_length functions (--temporal-profile-max-trace-length). */
    uint64_t trace_reservoir;
    uint64_t trace_max_length;
    /* Which llvm-profdata release's merge rules apply (13..24; 0: the
     * default release): which profile kinds merge, which binary ids a raw
     * input gives (src/llvm/target.h). */
    int llvm_release;
    /* Function names renamed before records are merged (NULL: none). A
     * profile's own records are never renamed by pb_profile_apply_weight:
     * with a remapping, merge every input into a new profile. */
    const pb_remap *remap;
} pb_merge_options;
#define PB_MERGE_OPTIONS_VERSION 1
#define PB_MERGE_OPTIONS_INIT {PB_MERGE_OPTIONS_VERSION, 1, PB_MAX_COUNT_LLVM, PB_MAX_VALUES_PER_SITE_LLVM, NULL, NULL, NULL, 100, 10000, 0, NULL}
/* Fills *o with the defaults of layout `version` (PB_MERGE_OPTIONS_VERSION),
 * like PB_MERGE_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_merge_options_init(pb_merge_options *o, unsigned version);

/*
 * Adds one record into `dst` the way llvm-profdata merge does: a new key is
 * inserted with counts x weight; an existing key (same name and hash) gets
 * counters and value counts added (x weight, saturating at max_count),
 * bitmaps OR-ed, each value site merged by value, sorted by count
 * (descending, stable) and cut to max_values_per_site. A counter-count
 * mismatch is reported (warning "function basic block count change detected
 * (counter mismatch)") and the record skipped, as llvm-profdata does. A count
 * that saturates is reported as "NAME: counter overflow". Each record gets
 * at most one warning (the first problem, as llvm-profdata reports it), its
 * path one of PB_MERGE_* above.
 * Symbols/contexts in `rec` are indices of `dst`. o may be NULL (the
 * defaults). Returns 0 (also when the record was skipped with a warning),
 * PB_EINVAL (NULL dst or rec, bad options, an options version this library
 * does not know) or PB_ENOMEM; on failure dst is unchanged.
 */
int pb_profile_merge_record(pb_profile *dst, const pb_record *rec, const pb_merge_options *o,
                            pb_error *err) PB_WARN_UNUSED;

/*
 * Merges all of `src` into `dst`: flags are OR-ed (an IR and a front-end
 * profile merge into IR with a warning, as llvm-profdata does; function-entry-only
 * and entry-first profiles cannot be merged: PB_EFORMAT), symbols, methods and
 * contexts are imported by content, records merged as above, binary ids and
 * traces added as llvm-profdata's writer adds them (cut, sampled into a
 * reservoir; the traces of a profile read from a raw file take o->weight as
 * their weight), properties missing in dst copied. o may be NULL (the
 * defaults).
 *
 * Returns 0; PB_EINVAL (NULL dst or src, dst == src, bad options or an
 * unknown options version, a src record naming no string); PB_EFORMAT
 * (profile kinds that cannot merge, with llvm-profdata's words); PB_ENOMEM.
 * State after a failure: PB_EINVAL for the arguments and PB_EFORMAT are
 * found before anything changes, and dst is unchanged. PB_ENOMEM (or a
 * malformed src record) stops the merge where it happened: the parts are
 * merged in the order symbols/methods/contexts, records (in src order),
 * flags, binary ids, traces, properties, origin, and a failure leaves the
 * parts before it merged and those after it untouched. dst is then still a
 * consistent profile (every record whole) holding part of src, as
 * llvm-profdata merge keeps what it merged before a failed input.
 */
int pb_profile_merge(pb_profile *dst, const pb_profile *src, const pb_merge_options *o,
                     pb_error *err) PB_WARN_UNUSED;

/*
 * What merging `p` into an empty profile does to p's own records, done in
 * place: counters and value counts multiplied by o->weight (saturating), the
 * traces merged into none (cut, sampled; from a raw file given o->weight), and every value site sorted by count (descending, stable) and cut to
 * o->max_values_per_site. `merge` uses it to take its first input as the
 * accumulator instead of copying it (same result, half the memory).
 * Returns 0, PB_EINVAL (p NULL, bad options) or PB_ENOMEM (p keeps its
 * records, some possibly weighted already: free it).
 */
int pb_profile_apply_weight(pb_profile *p, const pb_merge_options *o, pb_error *err) PB_WARN_UNUSED;

/*
 * Consistency check: every record has counters, Java records have the shape
 * their kind requires (branch: 1 + successors counters), value symbols exist
 * and their NameRefs equal the values, contexts name existing methods,
 * method signatures existing symbols, no key is repeated. Each problem goes
 * to `diag` as an error (diag may be NULL). Returns the number of problems
 * (0 = consistent). Cannot fail otherwise; safe on a profile shared by threads.
 */
size_t pb_profile_check(const pb_profile *p, pb_diag_fn diag, void *diag_ctx);

/*
 * Compares two profiles by content (names, not indices): flags, properties,
 * binary ids, traces, symbols, methods, records with counters, bitmaps and
 * values. Returns 1 when equal, 0 otherwise, and then writes the first
 * difference into `why` (may be NULL; cut to why_len, NUL-terminated).
 * Safe on profiles shared by threads.
 */
int pb_profile_equal(const pb_profile *a, const pb_profile *b, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
