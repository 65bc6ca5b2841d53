/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_dump.c -- explains the bytes of an indexed profile: header words
 * (from the layout table), summaries, the hash table's buckets, every key and
 * every record with its offset, then the sections. Stops at the first damage
 * with the same precise error the reader gives.
 */
#include <inttypes.h>
#include <string.h>

#include "util/buf.h"
#include "util/bytes.h"
#include "util/escape.h"
#include "indexed_internal.h"

typedef struct dump_ctx {
    const pbi_idx_file *f;
    pb_sink *out;
    pbi_idx_scratch s;
} dump_ctx;

static const char *const kind_names[PB_VK_COUNT] = {"IPVK_IndirectCallTarget", "IPVK_MemOPSize",
                                                    "IPVK_VTableTarget"};

static int dump_summary(dump_ctx *c, unsigned i, pb_error *err) {
    static const char *const fields[PBI_IDX_SUMMARY_FIELDS] = {
        "TotalNumFunctions", "TotalNumBlocks", "MaxFunctionCount",
        "MaxBlockCount", "MaxInternalBlockCount", "TotalBlockCount"};
    const uint8_t *d = c->f->data + c->f->summary_off[i];
    uint64_t nf = pb_get_u64(d, PB_ORDER_LE), nc = pb_get_u64(d + 8, PB_ORDER_LE);
    int rc = pb_sink_printf(c->out, err, "0x%06" PRIx64 " %s: %" PRIu64 " fields, %" PRIu64 " cutoffs\n",
                            c->f->summary_off[i], i ? "CS summary" : "summary", nf, nc);
    for (uint64_t k = 0; k < nf && !rc; k++)
        rc = pb_sink_printf(c->out, err, "    %-22s %" PRIu64 "\n", k < 6 ? fields[k] : "(unknown field)",
                            pb_get_u64(d + 16 + 8 * k, PB_ORDER_LE));
    for (uint64_t k = 0; k < nc && !rc; k++) {
        const uint8_t *e = d + 16 + 8 * nf + 24 * k;
        rc = pb_sink_printf(c->out, err, "    cutoff %7" PRIu64 ": min count %" PRIu64 ", %" PRIu64 " blocks\n",
                            pb_get_u64(e, PB_ORDER_LE), pb_get_u64(e + 8, PB_ORDER_LE),
                            pb_get_u64(e + 16, PB_ORDER_LE));
    }
    return rc;
}

static int on_record(void *ctx, pb_record *r, uint64_t off, pb_error *err) {
    dump_ctx *c = ctx;
    int rc = pb_sink_printf(c->out, err, "0x%06" PRIx64 "     record hash 0x%016" PRIx64 "%s, %" PRIu32 " counters:",
                            off, r->hash, (r->hash & PB_HASH_CS_BIT) ? " (CS)" : "", r->num_counters);
    for (uint32_t i = 0; i < r->num_counters && !rc; i++)
        rc = pb_sink_printf(c->out, err, " %" PRIu64, r->counters[i]);
    if (!rc) rc = pb_sink_printf(c->out, err, "\n");
    if (!rc && r->num_bitmap_bytes) {
        rc = pb_sink_printf(c->out, err, "             bitmap %" PRIu32 " bytes:", r->num_bitmap_bytes);
        for (uint32_t i = 0; i < r->num_bitmap_bytes && !rc; i++)
            rc = pb_sink_printf(c->out, err, " %02x", r->bitmap[i]);
        if (!rc) rc = pb_sink_printf(c->out, err, "\n");
    }
    for (int k = 0; k < PB_VK_COUNT && !rc; k++) {
        if (!r->num_sites[k]) continue;
        rc = pb_sink_printf(c->out, err, "             %s: %" PRIu32 " sites\n", kind_names[k], r->num_sites[k]);
        for (uint32_t s = 0; s < r->num_sites[k] && !rc; s++) {
            const pb_site *site = &r->sites[k][s];
            rc = pb_sink_printf(c->out, err, "               site %" PRIu32 ":", s);
            for (uint32_t i = 0; i < site->num_values && !rc; i++)
                rc = pb_sink_printf(c->out, err, k == PB_VK_MEMOP_SIZE ? " %" PRIu64 ":%" PRIu64 : " 0x%016" PRIx64 ":%" PRIu64,
                                    site->values[i].value, site->values[i].count);
            if (!rc) rc = pb_sink_printf(c->out, err, "\n");
        }
    }
    return rc;
}

/* A name from the profile, escape.h's terminal rule (a name is any bytes). */
static int put_name(pb_sink *out, const char *name, size_t len, pb_error *err) {
    pb_buf b = PB_BUF_INIT;
    pbu_esc_term(&b, name, len);
    int rc = b.failed ? pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory")
                      : pb_sink_write(out, b.data ? b.data : "", b.len, err);
    pbu_buf_free(&b);
    return rc;
}

static int on_item(void *ctx, const pbi_idx_item *it, uint64_t bucket_off, unsigned count, pb_error *err) {
    dump_ctx *c = ctx;
    int rc = 0;
    if (bucket_off != PB_NO_OFFSET)
        rc = pb_sink_printf(c->out, err, "0x%06" PRIx64 " bucket %" PRIu64 ": %u keys\n", bucket_off,
                            it->key_hash & (c->f->num_buckets - 1), count);
    if (!rc) {
        size_t n = (size_t)(it->key_len > 200 ? 200 : it->key_len);
        rc = pb_sink_printf(c->out, err, "0x%06" PRIx64 "   key \"", it->off);
        if (!rc) rc = put_name(c->out, (const char *)c->f->data + it->key_off, n, err);
        if (!rc)
            rc = pb_sink_printf(c->out, err, "\"%s hash 0x%016" PRIx64 ", data %" PRIu64 " bytes at 0x%" PRIx64 "\n",
                                n < it->key_len ? "..." : "", it->key_hash, it->data_len, it->data_off);
    }
    if (!rc) rc = pbi_idx_records(c->f, it, &c->s, on_record, c, err);
    return rc;
}

static int on_name(void *ctx, const char *name, size_t len, pb_error *err) {
    dump_ctx *c = ctx;
    int rc = pb_sink_printf(c->out, err, "    \"");
    if (!rc) rc = put_name(c->out, name, len, err);
    return rc ? rc : pb_sink_printf(c->out, err, "\"\n");
}

int pbi_indexed_dump(pb_source *in, pb_sink *out, const pb_dump_options *o, pb_error *err) {
    const uint8_t *data;
    size_t len;
    pbi_idx_file f;
    dump_ctx c;
    memset(&c, 0, sizeof c);
    if (o && o->json) return pbi_indexed_dump_json(in, out, err);
    int rc = pb_source_read_all(in, &data, &len, err);
    if (rc) return rc;
    if ((rc = pbi_idx_open(&f, data, len, err))) return rc;
    c.f = &f;
    c.out = out;
    rc = pb_sink_printf(out, err, "indexed profile, version %" PRIu32 ", flags 0x%016" PRIx64 ", %zu bytes\n",
                        f.version, f.flags, len);
    for (unsigned w = 0, off = 0; w < PBI_IDX_W_COUNT && !rc; w++) {
        if (!pbi_idx_has_word(f.version, (enum pbi_idx_word)w)) continue;
        rc = pb_sink_printf(out, err, "0x%06x header.%-25s 0x%016" PRIx64 "\n", off,
                            pbi_idx_header_fields[w].name, f.w[w]);
        off += 8;
    }
    for (unsigned i = 0; i < f.num_summaries && !rc; i++) rc = dump_summary(&c, i, err);
    if (!rc)
        rc = pb_sink_printf(out, err, "0x%06" PRIx64 " hash payload; table at 0x%" PRIx64 ": %" PRIu64
                                      " buckets, %" PRIu64 " entries\n",
                            f.payload_off, f.table_off, f.num_buckets, f.num_entries);
    if (!rc) rc = pbi_idx_walk(&f, on_item, &c, err);
    if (!rc && f.version >= PBI_IDX_BINARY_IDS_SINCE && f.w[PBI_IDX_W_binary_id_offset]) {
        pb_profile *tmp = NULL;
        rc = pb_profile_new(&tmp, err);
        if (!rc) rc = pbi_idx_read_binary_ids(&f, tmp, err);
        if (!rc) rc = pb_sink_printf(out, err, "0x%06" PRIx64 " binary ids: %zu\n",
                                     f.w[PBI_IDX_W_binary_id_offset], pb_profile_binary_id_count(tmp));
        for (size_t i = 0; !rc && tmp && i < pb_profile_binary_id_count(tmp); i++) {
            size_t n;
            const uint8_t *id = pb_profile_binary_id(tmp, i, &n);
            rc = pb_sink_printf(out, err, "    ");
            for (size_t k = 0; k < n && !rc; k++) rc = pb_sink_printf(out, err, "%02x", id[k]);
            if (!rc) rc = pb_sink_printf(out, err, "\n");
        }
        pb_profile_free(tmp);
    }
    if (!rc && f.version >= PBI_IDX_VTABLE_SINCE && f.w[PBI_IDX_W_vtable_names_offset]) {
        rc = pb_sink_printf(out, err, "0x%06" PRIx64 " vtable names:\n", f.w[PBI_IDX_W_vtable_names_offset]);
        if (!rc) rc = pbi_idx_vtable_names(&f, on_name, &c, err);
    }
    if (!rc && f.version >= PBI_IDX_TRACES_SINCE && (f.flags & PB_VARIANT_TEMPORAL)) {
        pb_profile *tmp = NULL;
        rc = pb_profile_new(&tmp, err);
        if (!rc) rc = pbi_idx_read_traces(&f, tmp, err);
        if (!rc) rc = pb_sink_printf(out, err, "0x%06" PRIx64 " temporal traces: %zu, stream size %" PRIu64 "\n",
                                     f.w[PBI_IDX_W_temporal_offset], pb_profile_trace_count(tmp),
                                     pb_profile_trace_stream_size(tmp));
        pb_profile_free(tmp);
    }
    if (!rc && (f.flags & PB_VARIANT_MEMPROF) && f.version >= PBI_IDX_MEMPROF_SINCE)
        rc = pb_sink_printf(out, err, "0x%06" PRIx64 " MemProf section (not decoded)\n",
                            f.w[PBI_IDX_W_memprof_offset]);
    pbi_idx_scratch_free(&c.s);
    return rc;
}
