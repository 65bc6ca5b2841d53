/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * partial_save.c -- the serializations of profbridge/partial.h: a profile
 * ("PBPROF": its JSON model, lossless for every format, deflated) and a
 * partial ("PBPART": rules, provenance, extra counts, then the profile's
 * JSON model), both through partial_codec.h.
 */
#include <stdlib.h>
#include <string.h>

#include "partial_codec.h"
#include "partial_internal.h"
#include "util/grow.h"

static const char PROF_MAGIC[6] = {'P', 'B', 'P', 'R', 'O', 'F'};
static const char PART_MAGIC[6] = {'P', 'B', 'P', 'A', 'R', 'T'};

/* The JSON model of p appended to b as a string. */
static int put_model(pb_buf *b, const pb_profile *p, pb_error *err) {
    pb_sink *s = NULL;
    int rc = pb_sink_open_memory(&s, err);
    if (!rc) rc = pb_write(p, s, pb_format_lookup("json"), NULL, err);
    if (!rc) rc = pb_sink_commit(s, err);
    if (!rc) {
        size_t n;
        const uint8_t *d = pb_sink_memory(s, &n);
        pbi_codec_put_str(b, (const char *)d, n);
    }
    pb_sink_free(s);
    return rc;
}

static int get_model(pbi_cursor *c, pb_profile **out, pb_error *err) {
    size_t at = c->at, n;
    const uint8_t *d = pbi_cursor_str(c, "profile", &n);
    if (c->rc) return c->rc;
    pb_source *src = NULL;
    int rc = pb_source_open_memory(&src, d, n, c->name, err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "json";
    if (!rc) rc = pb_read(out, src, &ro, err);
    pb_source_free(src);
    if (rc && rc != PB_ENOMEM && err && err->offset != PB_NO_OFFSET) err->offset += at;
    return rc;
}

int pb_profile_save(const pb_profile *p, uint8_t **bytes, size_t *len, pb_error *err) {
    if (err) pb_error_clear(err);
    if (bytes) *bytes = NULL;
    if (len) *len = 0;
    if (!p || !bytes || !len) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_profile_save: NULL argument");
    pb_buf b = PB_BUF_INIT;
    int rc = put_model(&b, p, err);
    if (!rc && b.failed) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (!rc) rc = pbi_codec_pack(PROF_MAGIC, &b, bytes, len, err);
    pbu_buf_free(&b);
    return rc;
}

int pb_profile_load(pb_profile **out, const void *bytes, size_t len, const char *name, pb_error *err) {
    if (err) pb_error_clear(err);
    if (out) *out = NULL;
    if (!out || (!bytes && len)) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_profile_load: NULL argument");
    uint8_t *body;
    size_t n;
    int rc = pbi_codec_unpack(PROF_MAGIC, bytes, len, name, &body, &n, err);
    if (rc) return rc;
    pbi_cursor c = {body, n, 0, name, err, 0};
    rc = get_model(&c, out, err);
    if (!rc && c.at != n) {
        pb_profile_free(*out);
        *out = NULL;
        rc = pb_error_set(err, PB_EFORMAT, c.at, "end", "%s: bytes after the profile", name ? name : "<memory>");
    }
    free(body);
    return rc;
}

int pb_partial_sniff(const void *bytes, size_t len) {
    return bytes && len >= 8 && memcmp(bytes, PART_MAGIC, 6) == 0;
}

/* ---- partials ------------------------------------------------------------ */

static void put_opt_str(pb_buf *b, const char *s) {
    pbi_codec_put_uv(b, s != NULL);
    if (s) pbi_codec_put_str(b, s, strlen(s));
}

static void put_error(pb_buf *b, const pb_error *e) {
    pbi_codec_put_uv(b, (uint64_t)(-(int64_t)e->code));
    pbi_codec_put_str(b, e->source, strlen(e->source));
    pbi_codec_put_uv(b, e->offset);
    pbi_codec_put_str(b, e->path, strlen(e->path));
    pbi_codec_put_uv(b, (uint64_t)(uint32_t)e->line);
    pbi_codec_put_uv(b, (uint64_t)(uint32_t)e->column);
    pbi_codec_put_str(b, e->expected, strlen(e->expected));
    pbi_codec_put_str(b, e->found, strlen(e->found));
    pbi_codec_put_str(b, e->message, strlen(e->message));
}

int pb_partial_save(const pb_partial *p, uint8_t **bytes, size_t *len, pb_error *err) {
    if (err) pb_error_clear(err);
    if (bytes) *bytes = NULL;
    if (len) *len = 0;
    if (!p || !bytes || !len) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_partial_save: NULL argument");
    pb_buf b = PB_BUF_INIT;
    const pb_merger_options *r = &p->rules;
    pbi_codec_put_uv(&b, (uint64_t)r->llvm_release);
    pbi_codec_put_uv(&b, (uint64_t)r->failure_mode);
    pbi_codec_put_uv(&b, r->max_count);
    pbi_codec_put_uv(&b, r->keep_all_values != 0);
    pbi_codec_put_uv(&b, r->trace_reservoir);
    pbi_codec_put_uv(&b, r->trace_max_length);
    put_opt_str(&b, p->keep);
    put_opt_str(&b, p->drop);
    pbi_codec_put_uv(&b, p->nin);
    for (size_t i = 0; i < p->nin; i++) {
        const pbi_partial_in *in = &p->in[i];
        pbi_codec_put_str(&b, in->name, strlen(in->name));
        pbi_codec_put_uv(&b, in->weight);
        pbi_codec_put_uv(&b, in->size);
        pbi_codec_put_str(&b, in->sha256, strlen(in->sha256));
        pbi_codec_put_uv(&b, (uint64_t)in->status);
        if (in->status == PB_PARTIAL_FAILED) put_error(&b, in->err);
    }
    pbi_codec_put_uv(&b, p->nextra);
    for (size_t i = 0; i < p->nextra; i++) {
        const pbi_extra *e = &p->extra[i];
        uint8_t raw[16];
        for (int k = 0; k < 8; k++) raw[k] = (uint8_t)(e->name_ref >> (8 * k)), raw[8 + k] = (uint8_t)(e->hash >> (8 * k));
        pbu_buf_append(&b, raw, sizeof raw);
        pbi_codec_put_uv(&b, e->kind);
        pbi_codec_put_uv(&b, e->site);
        pbi_codec_put_uv(&b, e->value);
        pbi_codec_put_uv(&b, e->dup);
        pbi_codec_put_uv(&b, e->exist);
        pbi_codec_put_uv(&b, e->fresh);
    }
    pbi_codec_put_uv(&b, p->own != NULL);
    int rc = p->own ? put_model(&b, p->own, err) : 0;
    if (!rc && b.failed) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (!rc) rc = pbi_codec_pack(PART_MAGIC, &b, bytes, len, err);
    pbu_buf_free(&b);
    return rc;
}

static char *get_opt_str(pbi_cursor *c, const char *field) {
    if (!pbi_cursor_uv_max(c, field, 1)) return NULL;
    size_t at = c->at, n;
    const uint8_t *s = pbi_cursor_str(c, field, &n);
    if (c->rc) return NULL;
    if (memchr(s, 0, n)) {
        c->at = at;
        c->rc = pb_error_set(c->err, PB_EFORMAT, at, field, "a NUL byte inside an expression");
        return NULL;
    }
    char *d = malloc(n + 1);
    if (!d) {
        c->rc = pb_error_set(c->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        return NULL;
    }
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static void get_error(pbi_cursor *c, pb_error *e) {
    pb_error_clear(e);
    e->code = -(int)pbi_cursor_uv_max(c, "inputs.error.code", 64);
    if (!c->rc && e->code == 0) e->code = PB_EFORMAT;
    pbi_cursor_str_into(c, "inputs.error.source", e->source, sizeof e->source);
    e->offset = pbi_cursor_uv(c, "inputs.error.offset");
    pbi_cursor_str_into(c, "inputs.error.path", e->path, sizeof e->path);
    e->line = (int)pbi_cursor_uv_max(c, "inputs.error.line", INT32_MAX);
    e->column = (int)pbi_cursor_uv_max(c, "inputs.error.column", INT32_MAX);
    pbi_cursor_str_into(c, "inputs.error.expected", e->expected, sizeof e->expected);
    pbi_cursor_str_into(c, "inputs.error.found", e->found, sizeof e->found);
    pbi_cursor_str_into(c, "inputs.error.message", e->message, sizeof e->message);
}

static int load_body(pb_partial *p, pbi_cursor *c, pb_error *err) {
    pb_merger_options *r = &p->rules;
    r->llvm_release = (int)pbi_cursor_uv_max(c, "rules.llvm_release", 1000);
    r->failure_mode = (int)pbi_cursor_uv_max(c, "rules.failure_mode", PB_MERGE_FAIL_WARN);
    r->max_count = pbi_cursor_uv(c, "rules.max_count");
    r->keep_all_values = (int)pbi_cursor_uv_max(c, "rules.keep_all_values", 1);
    r->trace_reservoir = pbi_cursor_uv(c, "rules.trace_reservoir");
    r->trace_max_length = pbi_cursor_uv(c, "rules.trace_max_length");
    p->keep = get_opt_str(c, "rules.keep_functions");
    p->drop = get_opt_str(c, "rules.drop_functions");
    r->keep_functions = p->keep;
    r->drop_functions = p->drop;
    /* an input takes at least 5 bytes: a count beyond that is refused before allocating */
    uint64_t nin = pbi_cursor_uv_max(c, "inputs", (c->len - c->at) / 5);
    for (uint64_t i = 0; i < nin && !c->rc; i++) {
        char name[4096], sha[65];
        pbi_cursor_str_into(c, "inputs.name", name, sizeof name);
        uint64_t weight = pbi_cursor_uv(c, "inputs.weight");
        uint64_t size = pbi_cursor_uv(c, "inputs.size");
        pbi_cursor_str_into(c, "inputs.sha256", sha, sizeof sha);
        int status = (int)pbi_cursor_uv_max(c, "inputs.status", PB_PARTIAL_FAILED);
        pb_error e;
        pb_error_clear(&e);
        if (status == PB_PARTIAL_FAILED) get_error(c, &e);
        if (!c->rc && weight == 0)
            c->rc = pb_error_set(err, PB_EFORMAT, c->at, "inputs.weight", "an input of weight 0");
        if (!c->rc) c->rc = pbi_partial_add_input(p, name, weight, size, sha, status, &e, err);
    }
    uint64_t nx = pbi_cursor_uv_max(c, "extras", (c->len - c->at) / 22);
    if (!c->rc && nx && !(p->extra = malloc((size_t)nx * sizeof *p->extra)))
        c->rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (uint64_t i = 0; i < nx && !c->rc; i++) {
        pbi_extra *e = &p->extra[i];
        if (c->len - c->at < 16) {
            c->rc = pb_error_set(err, PB_EFORMAT, c->at, "extras", "the body ends inside an extra count");
            break;
        }
        e->name_ref = e->hash = 0;
        for (int k = 0; k < 8; k++)
            e->name_ref |= (uint64_t)c->p[c->at + k] << (8 * k), e->hash |= (uint64_t)c->p[c->at + 8 + k] << (8 * k);
        c->at += 16;
        e->kind = (uint8_t)pbi_cursor_uv_max(c, "extras.kind", PB_VK_COUNT - 1);
        e->site = (uint32_t)pbi_cursor_uv_max(c, "extras.site", UINT32_MAX);
        e->value = pbi_cursor_uv(c, "extras.value");
        e->dup = (uint32_t)pbi_cursor_uv_max(c, "extras.dup", UINT32_MAX);
        e->exist = pbi_cursor_uv(c, "extras.exist");
        e->fresh = pbi_cursor_uv(c, "extras.fresh");
        if (!c->rc && i && pbi_partial_extra_cmp(&p->extra[i - 1], e) >= 0)
            c->rc = pb_error_set(err, PB_EFORMAT, c->at, "extras", "extra counts out of order");
        if (!c->rc) p->nextra = p->cap_extra = (size_t)i + 1;
    }
    if (!c->rc && pbi_cursor_uv_max(c, "has_profile", 1)) c->rc = get_model(c, &p->own, err);
    if (!c->rc && c->at != c->len)
        c->rc = pb_error_set(err, PB_EFORMAT, c->at, "end", "bytes after the partial merge");
    return c->rc;
}

int pb_partial_load(pb_partial **out, const void *bytes, size_t len, const char *name,
                    const pb_merger_options *rules, pb_error *err) {
    if (err) pb_error_clear(err);
    if (out) *out = NULL;
    if (!out || (!bytes && len)) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_partial_load: NULL argument");
    uint8_t *body;
    size_t n;
    int rc = pbi_codec_unpack(PART_MAGIC, bytes, len, name, &body, &n, err);
    if (rc) return rc;
    pb_partial *p = calloc(1, sizeof *p);
    if (!p) {
        free(body);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    pb_merger_options d = PB_MERGER_OPTIONS_INIT;
    p->rules = rules ? *rules : d;
    p->rules.threads = 1;
    p->rules.progress = NULL;
    pbi_cursor c = {body, n, 0, name, err, 0};
    rc = load_body(p, &c, err);
    if (!rc) {
        /* the rules must be ones a merger takes (release, failure mode, expressions) */
        pb_merger *m = NULL;
        pb_error e;
        rc = pb_merger_new(&m, &p->rules, &e);
        pb_merger_free(m);
        if (rc == PB_ENOMEM) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        else if (rc) rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, e.path[0] ? e.path : "rules",
                                       "%s: rules no merge takes: %s", name ? name : "<memory>", e.message);
    }
    free(body);
    if (rc) {
        pb_partial_free(p);
        return rc;
    }
    if (err) pb_error_clear(err);
    *out = p;
    return PB_OK;
}
