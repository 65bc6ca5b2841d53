/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * access_records.c -- records, value sites, Java methods and contexts by
 * index (access.h): what pb_record, pb_site, pb_value, pb_method and
 * pb_frame hold, through functions, so that a binding copies no layout.
 * Every index is checked; a bad one gives 0/NULL/PB_NONE, never a read out
 * of bounds.
 */
#include "profbridge/access.h"

#include "bridge/java_text.h"
#include "util/buf.h"

#include <string.h>

const char *pb_profile_origin_format(const pb_profile *p) { return p ? pb_profile_origin(p)->format : ""; }

uint64_t pb_profile_origin_version(const pb_profile *p) { return p ? pb_profile_origin(p)->version : 0; }

static const pb_record *rec_at(const pb_profile *p, size_t i) {
    return p && i < pb_profile_record_count(p) ? pb_profile_record(p, i) : NULL;
}

static const pb_site *site_at(const pb_profile *p, size_t i, int kind, size_t site) {
    const pb_record *r = rec_at(p, i);
    if (!r || kind < 0 || kind >= PB_VK_COUNT || site >= r->num_sites[kind]) return NULL;
    return &r->sites[kind][site];
}

int pb_record_kind(const pb_profile *p, size_t i) {
    const pb_record *r = rec_at(p, i);
    return r ? r->kind : -1;
}

int pb_record_name(const pb_profile *p, size_t i, const char **name, size_t *len, uint64_t *hash, pb_error *err) {
    pb_error_clear(err);
    const pb_record *r = rec_at(p, i);
    if (name) *name = NULL;
    if (!r || !name || !len || !hash)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_record_name: no record %zu", i);
    return pb_profile_record_name(p, r, name, len, hash, err);
}

const uint64_t *pb_record_counters(const pb_profile *p, size_t i, size_t *n) {
    const pb_record *r = rec_at(p, i);
    *n = r ? r->num_counters : 0;
    return *n ? r->counters : NULL;
}

const uint8_t *pb_record_bitmap(const pb_profile *p, size_t i, size_t *n) {
    const pb_record *r = rec_at(p, i);
    *n = r ? r->num_bitmap_bytes : 0;
    return *n ? r->bitmap : NULL;
}

size_t pb_record_site_count(const pb_profile *p, size_t i, int kind) {
    const pb_record *r = rec_at(p, i);
    return r && kind >= 0 && kind < PB_VK_COUNT ? r->num_sites[kind] : 0;
}

size_t pb_record_site_value_count(const pb_profile *p, size_t i, int kind, size_t site) {
    const pb_site *s = site_at(p, i, kind, site);
    return s ? s->num_values : 0;
}

/* The name of the function records whose NameRef is `ref` (the first one's:
 * records of one name share it), or NULL. */
static const char *function_of(const pb_profile *p, uint64_t ref, size_t *len) {
    size_t idx;
    if (pb_profile_lookup_ref(p, ref, &idx, 1) == 0) return NULL;
    const char *name = NULL;
    uint64_t hash;
    if (pb_profile_record_name(p, pb_profile_record(p, idx), &name, len, &hash, NULL)) return NULL;
    return name;
}

int pb_record_site_value(const pb_profile *p, size_t i, int kind, size_t site, size_t j, uint64_t *value,
                         uint64_t *count, const char **name, size_t *name_len) {
    const pb_site *s = site_at(p, i, kind, site);
    if (!s || j >= s->num_values) return PB_EINVAL;
    const pb_value *v = &s->values[j];
    const char *nm = NULL;
    size_t nl = 0;
    if (v->symbol != PB_NONE) nm = pb_symbol_name(p, v->symbol, &nl);
    else if (kind == PB_VK_INDIRECT_CALL) nm = function_of(p, v->value, &nl);
    if (!nm) nl = 0;
    if (value) *value = v->value;
    if (count) *count = v->count;
    if (name) *name = nm;
    if (name_len) *name_len = nl;
    return PB_OK;
}

uint32_t pb_record_context(const pb_profile *p, size_t i) {
    const pb_record *r = rec_at(p, i);
    return r && r->kind != PB_REC_FUNCTION ? r->ctx : PB_NONE;
}

const int32_t *pb_record_layout(const pb_profile *p, size_t i, size_t *n) {
    const pb_record *r = rec_at(p, i);
    *n = 0;
    if (!r || r->kind != PB_REC_JAVA_BRANCH || r->layout == PB_NONE) return NULL;
    const int32_t *v = pb_profile_ints(p, r->layout, n);
    return *n ? v : NULL;
}

size_t pb_context_frame_count(const pb_profile *p, uint32_t ctx) {
    size_t n = 0;
    if (!p || ctx == PB_NONE || !pb_profile_context(p, ctx, &n)) return 0;
    return n;
}

int pb_context_frame(const pb_profile *p, uint32_t ctx, size_t k, uint32_t *method, int32_t *bci) {
    size_t n = 0;
    const pb_frame *f = p && ctx != PB_NONE ? pb_profile_context(p, ctx, &n) : NULL;
    if (!f || k >= n) return PB_EINVAL;
    if (method) *method = f[k].method;
    if (bci) *bci = f[k].bci;
    return PB_OK;
}

const char *pb_method_name(const pb_profile *p, uint32_t m, size_t *len) {
    *len = 0;
    if (!p || m >= pb_profile_method_count(p)) return NULL;
    const pb_method *md = pb_profile_method(p, m);
    return md->placeholder || md->name == PB_NONE ? NULL : pb_profile_str(p, md->name, len);
}

size_t pb_method_format(const pb_profile *p, uint32_t m, char *buf, size_t n) {
    pb_buf b = PB_BUF_INIT;
    if (p) pbi_java_put_method(p, m, PBI_JT_RAW, &b);
    size_t need = pbu_buf_failed(&b) || !b.data ? 0 : b.len;
    if (n) {
        size_t k = need < n ? need : n - 1;
        if (k) memcpy(buf, b.data, k);
        buf[k] = '\0';
    }
    pbu_buf_free(&b);
    return need;
}

const char *pb_symbol_name(const pb_profile *p, uint32_t s, size_t *len) {
    *len = 0;
    if (!p || s >= pb_profile_symbol_count(p)) return NULL;
    const pb_symbol *sym = pb_profile_symbol(p, s);
    return sym->placeholder || sym->name == PB_NONE ? NULL : pb_profile_str(p, sym->name, len);
}
