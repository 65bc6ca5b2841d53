/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * json_write.c -- the model as JSON (profbridge model format 1, docs/json-model.md).
 *
 * A lossless, documented view of everything a pb_profile holds, for users who
 * want to process profiles without parsing `llvm-profdata show` text. Written
 * with our own formatter (no jansson tree), one record per line so that
 * line-oriented tools (grep, diff) work on it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/buf.h"
#include "json_internal.h"
#include "util/json_text.h"
#include "profbridge/sys/format.h"
#include "model/profile_records.h"

/* A string member: "key":"text"; bytes that are not UTF-8 as the rule of
 * json_text.h: "key" with U+FFFD for each bad byte (readable) and
 * "keyHex":"6869" with the exact bytes (what the reader takes). */
static void put_bytes_member(pb_buf *b, const char *key, const void *bytes, size_t len) {
    pbu_buf_putc(b, '"');
    pbu_buf_puts(b, key);
    pbu_buf_append(b, "\":", 2);
    pbu_json_put_text(b, bytes, len);
    if (pbu_utf8_valid(bytes, len)) return;
    pbu_buf_append(b, ",\"", 2);
    pbu_buf_puts(b, key);
    pbu_buf_append(b, "Hex\":\"", 6);
    pbu_put_hex(b, bytes, len);
    pbu_buf_putc(b, '"');
}

/* Counts are u64; jansson reads integers only up to INT64_MAX, so larger ones
 * are written as decimal strings (the reader takes both). */
static void put_count(pb_buf *b, uint64_t v) {
    if (v > (uint64_t)INT64_MAX) {
        pbu_buf_putc(b, '"');
        pbu_buf_put_u64(b, v);
        pbu_buf_putc(b, '"');
    } else {
        pbu_buf_put_u64(b, v);
    }
}

static void put_hex64(pb_buf *b, uint64_t v) { pbu_buf_printf(b, "\"0x%016" PRIx64 "\"", v); }

static void put_flags(pb_buf *b, uint64_t flags) {
    pbu_buf_puts(b, "\"flags\":{\"word\":");
    put_hex64(b, flags);
    pbu_buf_puts(b, ",\"names\":[");
    int first = 1;
    for (size_t i = 0; i < PBI_JSON_FLAG_COUNT; i++) {
        if (!(flags & pbi_json_flags[i].bit)) continue;
        if (!first) pbu_buf_putc(b, ',');
        first = 0;
        pbu_buf_putc(b, '"');
        pbu_buf_puts(b, pbi_json_flags[i].name);
        pbu_buf_putc(b, '"');
    }
    pbu_buf_puts(b, "]}");
}

static void put_origin(pb_buf *b, const pb_origin *o) {
    pbu_buf_puts(b, ",\n\"origin\":{");
    put_bytes_member(b, "format", o->format, strnlen(o->format, sizeof o->format));
    pbu_buf_puts(b, ",\"version\":");
    pbu_buf_put_u64(b, o->version);
    pbu_buf_printf(b, ",\"pointerWidth\":%u,\"byteOrder\":\"%s\"}", (unsigned)o->pointer_width,
                   o->byte_order == PB_ORDER_LE ? "le" : o->byte_order == PB_ORDER_BE ? "be" : "unknown");
}

static void put_properties(pb_buf *b, const pb_profile *p) {
    pbu_buf_puts(b, ",\n\"properties\":[");
    for (size_t i = 0; i < pb_profile_prop_count(p); i++) {
        const char *v;
        size_t vl;
        const char *k = pb_profile_prop_at(p, i, &v, &vl);
        pbu_buf_puts(b, i ? ",\n{" : "\n{");
        put_bytes_member(b, "key", k, strlen(k));
        pbu_buf_putc(b, ',');
        put_bytes_member(b, "value", v, vl);
        pbu_buf_putc(b, '}');
    }
    pbu_buf_putc(b, ']');
}

static void put_binary_ids(pb_buf *b, const pb_profile *p) {
    pbu_buf_puts(b, ",\n\"binaryIds\":[");
    for (size_t i = 0; i < pb_profile_binary_id_count(p); i++) {
        size_t n;
        const uint8_t *id = pb_profile_binary_id(p, i, &n);
        pbu_buf_puts(b, i ? ",\"" : "\"");
        pbu_put_hex(b, id, n);
        pbu_buf_putc(b, '"');
    }
    pbu_buf_putc(b, ']');
}

static void put_temporal(pb_buf *b, const pb_profile *p) {
    pbu_buf_puts(b, ",\n\"temporal\":{\"streamSize\":");
    pbu_buf_put_u64(b, pb_profile_trace_stream_size(p));
    pbu_buf_puts(b, ",\"traces\":[");
    for (size_t i = 0; i < pb_profile_trace_count(p); i++) {
        uint64_t w;
        size_t n;
        const uint64_t *refs = pb_profile_trace(p, i, &w, &n);
        pbu_buf_puts(b, i ? ",\n{\"weight\":" : "\n{\"weight\":");
        put_count(b, w);
        pbu_buf_puts(b, ",\"functions\":[");
        for (size_t k = 0; k < n; k++) {
            if (k) pbu_buf_putc(b, ',');
            put_hex64(b, refs[k]);
        }
        pbu_buf_puts(b, "]}");
    }
    pbu_buf_puts(b, "]}");
}

static void put_symbols(pb_buf *b, const pb_profile *p) {
    pbu_buf_puts(b, ",\n\"symbols\":[");
    for (uint32_t i = 0; i < pb_profile_symbol_count(p); i++) {
        const pb_symbol *s = pb_profile_symbol(p, i);
        pbu_buf_puts(b, i ? ",\n{" : "\n{");
        if (s->placeholder) {
            pbu_buf_puts(b, "\"placeholder\":");
            pbu_buf_put_i64(b, s->placeholder_id);
        } else {
            size_t n;
            const char *name = pb_profile_str(p, s->name, &n);
            put_bytes_member(b, "name", name, n);
        }
        pbu_buf_puts(b, ",\"nameRef\":");
        put_hex64(b, s->md5);
        pbu_buf_putc(b, '}');
    }
    pbu_buf_putc(b, ']');
}

static void put_methods(pb_buf *b, const pb_profile *p) {
    pbu_buf_puts(b, ",\n\"methods\":[");
    for (uint32_t i = 0; i < pb_profile_method_count(p); i++) {
        const pb_method *m = pb_profile_method(p, i);
        pbu_buf_puts(b, i ? ",\n{" : "\n{");
        if (m->placeholder) {
            pbu_buf_puts(b, "\"placeholder\":");
            pbu_buf_put_i64(b, m->placeholder_id);
        } else {
            size_t n;
            const char *name = pb_profile_str(p, m->name, &n);
            put_bytes_member(b, "name", name, n);
            pbu_buf_puts(b, ",\"signature\":[");
            for (uint32_t k = 0; k < m->num_sig; k++) {
                if (k) pbu_buf_putc(b, ',');
                pbu_buf_put_u64(b, m->sig[k]);
            }
            pbu_buf_putc(b, ']');
        }
        pbu_buf_putc(b, '}');
    }
    pbu_buf_putc(b, ']');
}

/* Everything before the records, member by member, up to the records' "[". */
static void put_header(pb_buf *b, const pb_profile *p) {
    pbu_buf_printf(b, "{\"profbridge\":\"model\",\"formatVersion\":%d,\n", PBI_JSON_FORMAT_VERSION);
    put_flags(b, pb_profile_flags(p));
    put_origin(b, pb_profile_origin(p));
    put_properties(b, p);
    put_binary_ids(b, p);
    put_temporal(b, p);
    put_symbols(b, p);
    put_methods(b, p);
    pbu_buf_puts(b, ",\n\"records\":[");
}

/* The name a value stands for: its symbol, or a function record with that NameRef. */
static int value_name(const pb_profile *p, int kind, const pb_value *v, const char **name, size_t *len) {
    if (v->symbol != PB_NONE) {
        const pb_symbol *s = pb_profile_symbol(p, v->symbol);
        if (s && !s->placeholder) {
            *name = pb_profile_str(p, s->name, len);
            return 1;
        }
        return 0;
    }
    if (kind != PB_VK_INDIRECT_CALL || v->value == 0) return 0;
    size_t idx;
    if (pb_profile_lookup_ref(p, v->value, &idx, 1) == 0) return 0;
    uint64_t h;
    return pb_profile_record_name(p, pb_profile_record(p, idx), name, len, &h, NULL) == 0;
}

static void put_context(pb_buf *b, const pb_profile *p, uint32_t ctx) {
    size_t n;
    const pb_frame *f = pb_profile_context(p, ctx, &n);
    pbu_buf_puts(b, ",\"context\":[");
    for (size_t i = 0; i < n; i++) {
        pbu_buf_puts(b, i ? ",[" : "[");
        pbu_buf_put_u64(b, f[i].method);
        pbu_buf_putc(b, ',');
        pbu_buf_put_i64(b, f[i].bci);
        pbu_buf_putc(b, ']');
    }
    pbu_buf_putc(b, ']');
}

static void put_layout(pb_buf *b, const pb_profile *p, uint32_t layout) {
    size_t n;
    const int32_t *v = pb_profile_ints(p, layout, &n);
    pbu_buf_puts(b, ",\"layout\":[");
    for (size_t i = 0; i < n; i++) {
        if (i) pbu_buf_putc(b, ',');
        pbu_buf_put_i64(b, v[i]);
    }
    pbu_buf_putc(b, ']');
}

/* {value, count, symbol?, target?}: memop sizes in decimal, the others as NameRefs */
static void put_value(pb_buf *b, const pb_profile *p, int k, const pb_value *v, int first) {
    pbu_buf_puts(b, first ? "{\"value\":" : ",{\"value\":");
    if (k == PB_VK_MEMOP_SIZE) put_count(b, v->value);
    else put_hex64(b, v->value);
    pbu_buf_puts(b, ",\"count\":");
    put_count(b, v->count);
    if (v->symbol != PB_NONE) {
        pbu_buf_puts(b, ",\"symbol\":");
        pbu_buf_put_u64(b, v->symbol);
    }
    const char *vn;
    size_t vl;
    if (value_name(p, k, v, &vn, &vl)) {
        pbu_buf_putc(b, ',');
        put_bytes_member(b, "target", vn, vl);
    }
    pbu_buf_putc(b, '}');
}

/* "valueSites": one member per kind that has sites, each an array of sites. */
static void put_value_sites(pb_buf *b, const pb_profile *p, const pb_record *r) {
    pbu_buf_puts(b, ",\"valueSites\":{");
    int firstk = 1;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        if (!r->num_sites[k]) continue;
        pbu_buf_puts(b, firstk ? "\"" : ",\"");
        firstk = 0;
        pbu_buf_puts(b, pbi_json_value_kind_names[k]);
        pbu_buf_puts(b, "\":[");
        for (uint32_t s = 0; s < r->num_sites[k]; s++) {
            const pb_site *site = &r->sites[k][s];
            pbu_buf_puts(b, s ? ",[" : "[");
            for (uint32_t i = 0; i < site->num_values; i++) put_value(b, p, k, &site->values[i], i == 0);
            pbu_buf_putc(b, ']');
        }
        pbu_buf_putc(b, ']');
    }
    pbu_buf_putc(b, '}');
}

static int put_record(pb_buf *b, const pb_profile *p, const pb_record *r, pb_error *err) {
    const char *name;
    size_t nlen;
    uint64_t hash;
    int rc = pb_profile_record_name(p, r, &name, &nlen, &hash, err);
    if (rc) return rc;
    pbu_buf_puts(b, "{\"kind\":\"");
    pbu_buf_puts(b, pbi_json_kind_names[r->kind < PB_REC_KIND_COUNT ? r->kind : 0]);
    pbu_buf_puts(b, "\",");
    put_bytes_member(b, "name", name, nlen);
    pbu_buf_puts(b, ",\"hash\":");
    put_hex64(b, hash);
    if (r->ctx != PB_NONE) put_context(b, p, r->ctx);
    if (r->layout != PB_NONE) put_layout(b, p, r->layout);
    pbu_buf_puts(b, ",\"counters\":[");
    for (uint32_t i = 0; i < r->num_counters; i++) {
        if (i) pbu_buf_putc(b, ',');
        put_count(b, r->counters[i]);
    }
    pbu_buf_putc(b, ']');
    if (r->num_bitmap_bytes) {
        pbu_buf_puts(b, ",\"bitmap\":\"");
        pbu_put_hex(b, r->bitmap, r->num_bitmap_bytes);
        pbu_buf_putc(b, '"');
    }
    int any = 0;
    for (int k = 0; k < PB_VK_COUNT; k++) any |= r->num_sites[k] != 0;
    if (any) put_value_sites(b, p, r);
    pbu_buf_putc(b, '}');
    return 0;
}

int pbi_json_write(const pb_profile *p, pb_sink *out, const pb_write_options *o, pb_error *err) {
    (void)o;
    /* The reader refuses bits 1-54 (LLVM's version number): refuse to write
     * them rather than write a file that does not read back. */
    uint64_t stray = pb_profile_flags(p) & ~(PB_VARIANT_MASK | PB_KIND_FRONTEND);
    if (stray)
        return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, "flags.word",
                            "the model's flags hold bits 0x%016" PRIx64 " outside the variant bits 55-63 and "
                            "the front-end kind bit 0, which no format stores",
                            stray);
    /* value names are looked up by NameRef (out of memory must not drop them) */
    if (pbi_profile_build_lookup(p)) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    pb_buf b = PB_BUF_INIT;
    int rc = 0;
    put_header(&b, p);
    for (size_t i = 0; i < pb_profile_record_count(p) && rc == 0; i++) {
        pbu_buf_puts(&b, i ? ",\n" : "\n");
        rc = put_record(&b, p, pb_profile_record(p, i), err);
        /* Hand big blocks to the sink so memory stays bounded by one block. */
        if (rc == 0 && b.len >= (1u << 20) && !pbu_buf_failed(&b)) {
            rc = pb_sink_write(out, b.data, b.len, err);
            pbu_buf_reset(&b);
        }
    }
    if (rc == 0) {
        pbu_buf_puts(&b, "]}\n");
        if (pbu_buf_failed(&b)) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        else rc = pb_sink_write(out, b.data, b.len, err);
    }
    pbu_buf_free(&b);
    return rc;
}
