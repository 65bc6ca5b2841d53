/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_internal.h -- what the files of the indexed plugin share.
 *
 * indexed_file.c parses and bounds-checks the structure (header, summaries,
 * hash table, per-key data, sections) without building a model, so the
 * reader, the by-name lookup and `dump` walk the same checked code.
 */
#ifndef PB_INDEXED_INTERNAL_H
#define PB_INDEXED_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "indexed_layout.h"
#include "llvm/names.h"
#include "llvm/summary.h"
#include "profbridge/sys/format.h"

/* ---- summary builder (indexed_summary.c, §3.4) ---- */

/* The builder is llvm/summary.h's; these lay its result out as the file holds it. */
typedef pbi_summary pbi_sum_builder;

/* Number of u64 words of a summary with LLVM's default shape: 2 + 6 + 3*16 = 56. */
#define PBI_SUM_WORDS (2 + PBI_IDX_SUMMARY_FIELDS + 3 * PBI_IDX_NUM_CUTOFFS)

void pbi_sum_init(pbi_sum_builder *b, int rule);
void pbi_sum_add(pbi_sum_builder *b, const uint64_t *counts, uint32_t n);
/* Fills out[PBI_SUM_WORDS] as written on disk. Returns 0 or PB_ENOMEM. */
int pbi_sum_finish(pbi_sum_builder *b, uint64_t out[PBI_SUM_WORDS], pb_error *err);
void pbi_sum_free(pbi_sum_builder *b);

/* ---- file structure (indexed_file.c) ---- */

typedef struct pbi_idx_file {
    const uint8_t *data;
    size_t len;
    uint64_t w[PBI_IDX_W_COUNT]; /* header words; 0 where the version lacks one */
    uint32_t version;
    uint64_t flags;              /* variant bits of the version word */
    pbi_idx_record_layout lay;
    unsigned header_size;
    unsigned num_summaries;      /* 0 (v<4), 1, or 2 with the CS flag */
    uint64_t summary_off[2], summary_size[2];
    uint64_t payload_off;        /* first bucket of the hash payload */
    uint64_t table_off;          /* = HashOffset: NumBuckets, NumEntries, offsets */
    uint64_t num_buckets, num_entries;
} pbi_idx_file;

/* One key of the hash table (§3.5). */
typedef struct pbi_idx_item {
    uint64_t off;       /* where its KeyHash starts */
    uint64_t key_hash, key_len, data_len;
    uint64_t key_off, data_off, end; /* end = data_off + data_len */
} pbi_idx_item;

/* Checks magic, version, header, summaries and the table's frame. */
int pbi_idx_open(pbi_idx_file *f, const uint8_t *data, size_t len, pb_error *err);

/* Decodes the item at `off` (KeyHash..Data) and checks it ends before `limit`. */
int pbi_idx_item_at(const pbi_idx_file *f, uint64_t off, uint64_t limit, pbi_idx_item *it,
                    pb_error *err);

/* Calls fn for every item in payload order (bucket count words included in
 * `bucket_off` when an item starts a bucket, else PB_NO_OFFSET). */
typedef int (*pbi_idx_item_fn)(void *ctx, const pbi_idx_item *it, uint64_t bucket_off,
                               unsigned bucket_count, pb_error *err);
int pbi_idx_walk(const pbi_idx_file *f, pbi_idx_item_fn fn, void *ctx, pb_error *err);

/* The MD5 (pb_md5_ref) of every key in pbi_idx_walk's order, hashed on
 * two threads where there are many keys and two cores (indexed_key_md5.c):
 * an array of *n (= NumEntries) entries, freed with pbi_idx_key_md5s_free,
 * or NULL (*n = 0) when memory is short or the table is damaged (its keys
 * are not NumEntries); the caller then hashes while walking. */
uint64_t *pbi_idx_key_md5s(const pbi_idx_file *f, size_t *n);
void pbi_idx_key_md5s_free(uint64_t *md5s, size_t n);

/* Finds the item whose key is name[0..len) through the bucket array.
 * Returns 0, PB_ENOTFOUND or an error. */
int pbi_idx_find(const pbi_idx_file *f, const void *name, size_t len, pbi_idx_item *it,
                 pb_error *err);

/* Per-record scratch the record decoder fills (reused between records). */
typedef struct pbi_idx_scratch {
    uint64_t *counters;
    size_t counters_cap;
    pb_site *sites;
    size_t sites_cap;
    pb_value *values;
    size_t values_cap;
    uint8_t *bitmap;
    size_t bitmap_cap;
    uint64_t uniformity_bytes; /* v14: uniformity bytes seen and dropped (not in the model) */
    /* 1: only check the records (every bound and the value data's structure)
     * without copying counters or values out; the record a callback gets
     * then has its hash and counts, no counters, bitmap or sites */
    int check_only;
} pbi_idx_scratch;
void pbi_idx_scratch_free(pbi_idx_scratch *s);

/* Called per record of a key; r->name is PB_NONE, r->counters points into
 * the scratch or a temporary array. `off` = the record's FuncHash offset. */
typedef int (*pbi_idx_record_fn)(void *ctx, pb_record *r, uint64_t off, pb_error *err);
int pbi_idx_records(const pbi_idx_file *f, const pbi_idx_item *it, pbi_idx_scratch *s,
                    pbi_idx_record_fn fn, void *ctx, pb_error *err);

/* Sections; each is a no-op when the version or flags have none. */
int pbi_idx_read_binary_ids(const pbi_idx_file *f, pb_profile *p, pb_error *err);
int pbi_idx_read_traces(const pbi_idx_file *f, pb_profile *p, pb_error *err);
/* Decodes the vtable-names blob; names go to fn. Damage is reported through
 * err (the reader turns it into a warning, as LLVM reads it lazily). */
typedef pbi_name_fn pbi_idx_name_fn;
/* Where the vtable-names blob is (*off = 0: none) and its length, checked
 * against the file: LLVM's reader refuses an offset without room for the
 * length ("truncated"), so a frame that does not fit is an error, while the
 * blob's content is decoded only when asked for (a warning). */
int pbi_idx_vtable_names_frame(const pbi_idx_file *f, uint64_t *off, uint64_t *len, pb_error *err);
int pbi_idx_vtable_names(const pbi_idx_file *f, pbi_idx_name_fn fn, void *ctx, pb_error *err);

/* XXH3-64, seed 0 (LLVM 19's StringMap hash; indexed_xxh3.c). */
uint64_t pbi_xxh3_64(const void *data, size_t len);

/* ---- the plugin's operations ---- */
int pbi_indexed_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err);
/* The read in two halves (pb_format.prepare): the first maps the input and
 * checks its records (no destination needed), the second reads or merges
 * it as pbi_indexed_read (indexed_read.c). */
int pbi_indexed_prepare(void **state, pb_source *in, const pb_read_options *o, pb_error *err);
int pbi_indexed_read_prepared(pb_profile **out, void *state, const pb_read_options *o, pb_error *err);
void pbi_indexed_free_prepared(void *state);
/* pb_format.visit: the records one by one, no model (indexed_read.c);
 * `prepared` is unused (the plugin has no two halves). */
/* pb_format.llvm_claims and llvm_words (indexed_llvm_words.c): LLVM's
 * indexed reader's test of the bytes and its words for an input it cannot
 * read. */
int pbi_indexed_llvm_claims(const uint8_t *data, size_t len);
int pbi_indexed_llvm_words(const pb_llvm_words_query *q, char *buf, size_t n);

int pbi_indexed_visit(pb_source *in, void *prepared, const pb_read_options *o, const pb_record_visitor *v,
                      void *ctx, pb_error *err);
int pbi_indexed_write(const pb_profile *p, pb_sink *out, const pb_write_options *o,
                      pb_error *err);
/* The most records pbi_indexed_write takes (PB_ELIMIT past it): INT32_MAX,
 * its entries' 32-bit indices. A unit test lowers it to reach the refusal
 * without 2^31 records, and sets it back. */
extern size_t pbi_indexed_write_max_records;
/* 1 (default): Java record names are streamed where the order allows it
 * (indexed_write.c, java_names), 0: they are cached in the model as
 * before. Tests write both ways and compare the bytes. */
extern int pbi_indexed_write_stream_java;
int pbi_indexed_dump(pb_source *in, pb_sink *out, const pb_dump_options *o, pb_error *err);
/* dump --json (indexed_dump_json.c). */
int pbi_indexed_dump_json(pb_source *in, pb_sink *out, pb_error *err);

#endif
