/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_dump_json.c -- `dump --json` of an indexed profile: the same walk
 * as the text dump (indexed_dump.c), as one JSON object:
 *
 *   {"format_version": "1.0", "format": "indexed", "version": V, "flags": "0x..", "size": N,
 *    "header": [{"offset", "field", "value"}...],
 *    "summaries": [{"offset", "kind": "summary"|"cs_summary", "fields": {...},
 *                   "cutoffs": [{"cutoff", "minCount", "numBlocks"}...]}...],
 *    "table": {"payloadOffset", "offset", "buckets", "entries"},
 *    "keys": [{"offset", "bucket", "bucketOffset" (first key of a bucket),
 *              "name", "hash", "dataOffset", "dataLength",
 *              "records": [{"offset", "hash", "counters": [...],
 *                           "bitmap": [...], "valueSites": {KIND: [[{"value",
 *                           "count"}...]...]}}...]}...],
 *    "binaryIds": {"offset", "ids": ["hex"...]}, "vtableNames": {"offset",
 *    "names": [{"name"}...]}, "temporal": {"offset", "traces", "streamSize"},
 *    "memprof": {"offset"}, "problem": null | "the reader's error"}
 *
 * 64-bit words are hex strings; counts are numbers up to 2^63-1 and decimal
 * strings above (JSON readers such as jansson hold no more). A key is added
 * only once all its records decoded, so a damaged file still gives valid JSON
 * with everything before the damage and the error under "problem".
 */
#include <inttypes.h>
#include <string.h>

#include "util/buf.h"
#include "util/bytes.h"
#include "indexed_internal.h"
#include "util/json_text.h"
#include "util/report_version.h"

typedef struct jctx {
    const pbi_idx_file *f;
    pb_buf out;  /* the document */
    pb_buf key;  /* the key being decoded */
    pbi_idx_scratch s;
    int first_key, first_rec;
} jctx;

static const char *const kind_names[PB_VK_COUNT] = {"IPVK_IndirectCallTarget", "IPVK_MemOPSize",
                                                    "IPVK_VTableTarget"};

/* Texts are UTF-8 with U+FFFD for bytes that are not (json_text.h's rule);
 * names go through pbu_json_put_text_member, which keeps their bytes too. */
static void jstr(pb_buf *b, const char *s, size_t n) {
    pbu_json_put_text(b, s, n);
}

static void jcount(pb_buf *b, uint64_t v) {
    if (v > (uint64_t)INT64_MAX) pbu_buf_printf(b, "\"%" PRIu64 "\"", v);
    else pbu_buf_put_u64(b, v);
}

static void jword(pb_buf *b, uint64_t v) { pbu_buf_printf(b, "\"0x%016" PRIx64 "\"", v); }

static void summary(jctx *c, unsigned i) {
    static const char *const fields[PBI_IDX_SUMMARY_FIELDS] = {
        "TotalNumFunctions", "TotalNumBlocks", "MaxFunctionCount",
        "MaxBlockCount", "MaxInternalBlockCount", "TotalBlockCount"};
    pb_buf *b = &c->out;
    const uint8_t *d = c->f->data + c->f->summary_off[i];
    uint64_t nf = pb_get_u64(d, PB_ORDER_LE), nc = pb_get_u64(d + 8, PB_ORDER_LE);
    pbu_buf_printf(b, "%s\n  {\"offset\": %" PRIu64 ", \"kind\": \"%s\", \"fields\": {", i ? "," : "",
                   c->f->summary_off[i], i ? "cs_summary" : "summary");
    for (uint64_t k = 0; k < nf; k++) {
        if (k) pbu_buf_puts(b, ", ");
        if (k < PBI_IDX_SUMMARY_FIELDS) pbu_buf_printf(b, "\"%s\": ", fields[k]);
        else pbu_buf_printf(b, "\"field%" PRIu64 "\": ", k);
        jcount(b, pb_get_u64(d + 16 + 8 * k, PB_ORDER_LE));
    }
    pbu_buf_puts(b, "}, \"cutoffs\": [");
    for (uint64_t k = 0; k < nc; k++) {
        const uint8_t *e = d + 16 + 8 * nf + 24 * k;
        pbu_buf_printf(b, "%s{\"cutoff\": %" PRIu64 ", \"minCount\": ", k ? ", " : "", pb_get_u64(e, PB_ORDER_LE));
        jcount(b, pb_get_u64(e + 8, PB_ORDER_LE));
        pbu_buf_puts(b, ", \"numBlocks\": ");
        jcount(b, pb_get_u64(e + 16, PB_ORDER_LE));
        pbu_buf_putc(b, '}');
    }
    pbu_buf_puts(b, "]}");
}

static int on_record(void *ctx, pb_record *r, uint64_t off, pb_error *err) {
    (void)err;
    jctx *c = ctx;
    pb_buf *b = &c->key;
    pbu_buf_printf(b, "%s\n      {\"offset\": %" PRIu64 ", \"hash\": ", c->first_rec ? "" : ",", off);
    jword(b, r->hash);
    pbu_buf_puts(b, ", \"counters\": [");
    for (uint32_t i = 0; i < r->num_counters; i++) {
        if (i) pbu_buf_puts(b, ", ");
        jcount(b, r->counters[i]);
    }
    pbu_buf_putc(b, ']');
    if (r->num_bitmap_bytes) {
        pbu_buf_puts(b, ", \"bitmap\": [");
        for (uint32_t i = 0; i < r->num_bitmap_bytes; i++) pbu_buf_printf(b, "%s%u", i ? ", " : "", r->bitmap[i]);
        pbu_buf_putc(b, ']');
    }
    int any = 0;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        if (!r->num_sites[k]) continue;
        pbu_buf_printf(b, "%s\"%s\": [", any ? ", " : ", \"valueSites\": {", kind_names[k]);
        any = 1;
        for (uint32_t s = 0; s < r->num_sites[k]; s++) {
            const pb_site *site = &r->sites[k][s];
            pbu_buf_puts(b, s ? ", [" : "[");
            for (uint32_t i = 0; i < site->num_values; i++) {
                pbu_buf_puts(b, i ? ", {\"value\": " : "{\"value\": ");
                if (k == PB_VK_MEMOP_SIZE) jcount(b, site->values[i].value);
                else jword(b, site->values[i].value);
                pbu_buf_puts(b, ", \"count\": ");
                jcount(b, site->values[i].count);
                pbu_buf_putc(b, '}');
            }
            pbu_buf_putc(b, ']');
        }
        pbu_buf_putc(b, ']');
    }
    if (any) pbu_buf_putc(b, '}');
    pbu_buf_putc(b, '}');
    c->first_rec = 0;
    return 0;
}

static int on_item(void *ctx, const pbi_idx_item *it, uint64_t bucket_off, unsigned count, pb_error *err) {
    jctx *c = ctx;
    pb_buf *b = &c->key;
    (void)count;
    pbu_buf_reset(b);
    pbu_buf_printf(b, "%s\n    {\"offset\": %" PRIu64 ", \"bucket\": %" PRIu64, c->first_key ? "" : ",", it->off,
                   it->key_hash & (c->f->num_buckets - 1));
    if (bucket_off != PB_NO_OFFSET) pbu_buf_printf(b, ", \"bucketOffset\": %" PRIu64, bucket_off);
    pbu_buf_puts(b, ", ");
    pbu_json_put_text_member(b, "name", (const char *)c->f->data + it->key_off, (size_t)it->key_len,
                             PBU_JSON_HEX_SUFFIX);
    pbu_buf_puts(b, ", \"hash\": ");
    jword(b, it->key_hash);
    pbu_buf_printf(b, ", \"dataOffset\": %" PRIu64 ", \"dataLength\": %" PRIu64 ", \"records\": [", it->data_off,
                   it->data_len);
    c->first_rec = 1;
    int rc = pbi_idx_records(c->f, it, &c->s, on_record, c, err);
    if (rc) return rc; /* the key stays out: its records did not decode */
    pbu_buf_puts(b, "]}");
    pbu_buf_append(&c->out, b->data, b->len);
    c->first_key = 0;
    return 0;
}

static int on_name(void *ctx, const char *name, size_t len, pb_error *err) {
    (void)err;
    jctx *c = ctx;
    pbu_buf_puts(&c->key, c->first_rec ? "{" : ", {");
    pbu_json_put_text_member(&c->key, "name", name, len, PBU_JSON_HEX_SUFFIX);
    pbu_buf_putc(&c->key, '}');
    c->first_rec = 0;
    return 0;
}

/* The sections after the table; each is added only when it decoded. */
static int sections(jctx *c, pb_error *err) {
    const pbi_idx_file *f = c->f;
    pb_buf *b = &c->out;
    int rc = 0;
    if (f->version >= PBI_IDX_BINARY_IDS_SINCE && f->w[PBI_IDX_W_binary_id_offset]) {
        pb_profile *tmp = NULL;
        if ((rc = pb_profile_new(&tmp, err)) == 0 && (rc = pbi_idx_read_binary_ids(f, tmp, err)) == 0) {
            pbu_buf_printf(b, ",\n \"binaryIds\": {\"offset\": %" PRIu64 ", \"ids\": [", f->w[PBI_IDX_W_binary_id_offset]);
            for (size_t i = 0; i < pb_profile_binary_id_count(tmp); i++) {
                size_t n;
                const uint8_t *id = pb_profile_binary_id(tmp, i, &n);
                pbu_buf_puts(b, i ? ", \"" : "\"");
                for (size_t k = 0; k < n; k++) pbu_buf_printf(b, "%02x", id[k]);
                pbu_buf_putc(b, '"');
            }
            pbu_buf_puts(b, "]}");
        }
        pb_profile_free(tmp);
        if (rc) return rc;
    }
    if (f->version >= PBI_IDX_VTABLE_SINCE && f->w[PBI_IDX_W_vtable_names_offset]) {
        pbu_buf_reset(&c->key);
        c->first_rec = 1;
        if ((rc = pbi_idx_vtable_names(f, on_name, c, err))) return rc;
        pbu_buf_printf(b, ",\n \"vtableNames\": {\"offset\": %" PRIu64 ", \"names\": [", f->w[PBI_IDX_W_vtable_names_offset]);
        pbu_buf_append(b, c->key.data, c->key.len);
        pbu_buf_puts(b, "]}");
    }
    if (f->version >= PBI_IDX_TRACES_SINCE && (f->flags & PB_VARIANT_TEMPORAL)) {
        pb_profile *tmp = NULL;
        if ((rc = pb_profile_new(&tmp, err)) == 0 && (rc = pbi_idx_read_traces(f, tmp, err)) == 0) {
            pbu_buf_printf(b, ",\n \"temporal\": {\"offset\": %" PRIu64 ", \"streamSize\": ", f->w[PBI_IDX_W_temporal_offset]);
            jcount(b, pb_profile_trace_stream_size(tmp));
            pbu_buf_puts(b, ", \"traces\": [");
            for (size_t t = 0; t < pb_profile_trace_count(tmp); t++) {
                uint64_t w;
                size_t n;
                const uint64_t *refs = pb_profile_trace(tmp, t, &w, &n);
                pbu_buf_puts(b, t ? ", {\"weight\": " : "{\"weight\": ");
                jcount(b, w);
                pbu_buf_puts(b, ", \"nameRefs\": [");
                for (size_t i = 0; i < n; i++) {
                    if (i) pbu_buf_puts(b, ", ");
                    jword(b, refs[i]);
                }
                pbu_buf_puts(b, "]}");
            }
            pbu_buf_puts(b, "]}");
        }
        pb_profile_free(tmp);
        if (rc) return rc;
    }
    if ((f->flags & PB_VARIANT_MEMPROF) && f->version >= PBI_IDX_MEMPROF_SINCE)
        pbu_buf_printf(b, ",\n \"memprof\": {\"offset\": %" PRIu64 ", \"decoded\": false}", f->w[PBI_IDX_W_memprof_offset]);
    return 0;
}

int pbi_indexed_dump_json(pb_source *in, pb_sink *out, pb_error *err) {
    const uint8_t *data;
    size_t len;
    pbi_idx_file f;
    jctx c;
    memset(&c, 0, sizeof c);
    int rc = pb_source_read_all(in, &data, &len, err);
    if (rc) return rc;
    if ((rc = pbi_idx_open(&f, data, len, err))) return rc;
    c.f = &f;
    c.first_key = 1;
    pb_buf *b = &c.out;
    pbu_buf_printf(b, "{\"format_version\": \"" PBU_REPORT_DUMP_INDEXED "\", \"format\": \"indexed\", \"version\": %" PRIu32
                      ", \"flags\": ",
                   f.version);
    jword(b, f.flags);
    pbu_buf_printf(b, ", \"size\": %zu,\n \"header\": [", len);
    for (unsigned w = 0, off = 0, n = 0; w < PBI_IDX_W_COUNT; w++) {
        if (!pbi_idx_has_word(f.version, (enum pbi_idx_word)w)) continue;
        pbu_buf_printf(b, "%s\n  {\"offset\": %u, \"field\": \"%s\", \"value\": ", n++ ? "," : "", off,
                       pbi_idx_header_fields[w].name);
        jword(b, f.w[w]);
        pbu_buf_putc(b, '}');
        off += 8;
    }
    pbu_buf_puts(b, "],\n \"summaries\": [");
    for (unsigned i = 0; i < f.num_summaries; i++) summary(&c, i);
    pbu_buf_printf(b, "],\n \"table\": {\"payloadOffset\": %" PRIu64 ", \"offset\": %" PRIu64
                      ", \"buckets\": %" PRIu64 ", \"entries\": %" PRIu64 "},\n \"keys\": [",
                   f.payload_off, f.table_off, f.num_buckets, f.num_entries);
    pb_error problem;
    pb_error_clear(&problem);
    int prc = pbi_idx_walk(&f, on_item, &c, &problem);
    pbu_buf_puts(b, "]");
    if (!prc) prc = sections(&c, &problem);
    pbu_buf_puts(b, ",\n \"problem\": ");
    if (prc) {
        pb_error_set_source(&problem, pb_source_name(in));
        char msg[1024];
        pb_error_format(&problem, msg, sizeof msg);
        jstr(b, msg, strlen(msg));
    } else {
        pbu_buf_puts(b, "null");
    }
    pbu_buf_puts(b, "}\n");
    if (pbu_buf_failed(b) || pbu_buf_failed(&c.key)) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    else rc = pb_sink_write(out, b->data, b->len, err);
    if (rc == 0 && prc) { /* the dump was written; the input still is broken */
        *err = problem;
        rc = prc;
    }
    pbu_buf_free(&c.out);
    pbu_buf_free(&c.key);
    pbi_idx_scratch_free(&c.s);
    return rc;
}
