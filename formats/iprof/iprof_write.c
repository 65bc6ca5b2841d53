/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof_write.c -- writes the model as canonical iprof JSON (docs/iprof.md).
 *
 * GraalVM's conventions (spec §5): compact JSON, no trailing newline, the
 * 1.0.0/1.1.0 top-level order, every section present, types and methods with
 * dense ids in the model's canonical order, (typeId, count) pairs by
 * ascending type id. Output goes through a local buffer straight into the
 * sink; no JSON tree is built (a 150 MB profile would not fit twice).
 *
 * Strings: valid UTF-8 is written as is; '"', '\\' and control characters are
 * escaped as jansson does; a byte that is not part of valid UTF-8 is written
 * as \u00XX (its Latin-1 reading), with one notice, since JSON text must be
 * UTF-8. Such a name therefore does not come back byte for byte.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/buf.h"
#include "util/grow.h"
#include "util/oom_watch.h"
#include "iprof_int.h"

#define FLUSH_AT (64 * 1024)

typedef struct writer {
    const pb_profile *p;
    pb_sink *out;
    const pb_write_options *o;
    pb_error *err;
    pb_buf b;
    int rc;
    int noted_bytes, noted_clamp;
    int64_t *type_id;   /* per symbol index */
    int64_t *method_id; /* per method index */
    struct pair {
        int64_t id;
        uint64_t count;
        size_t seq;
    } *pairs;
    size_t pairs_cap;
} writer;

static void notice(writer *w, const char *msg) {
    pb_diag(w->o->diag, w->o->diag_ctx, PB_DIAG_NOTICE, 0, NULL, PB_NO_OFFSET, NULL, "%s", msg);
}

static void flush(writer *w) {
    if (w->rc) return;
    if (pbu_buf_failed(&w->b)) {
        w->rc = pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory writing iprof");
        return;
    }
    if (w->b.len && (w->rc = pb_sink_write(w->out, w->b.data, w->b.len, w->err))) return;
    pbu_buf_reset(&w->b);
}

static inline void maybe_flush(writer *w) {
    if (w->b.len >= FLUSH_AT) flush(w);
}

static void put(writer *w, const char *s) { pbu_buf_puts(&w->b, s); }

/* Numbers and single characters straight into the buffer, inline: the 60k
 * bench file's 6.3 million numbers (ids, bcis, counts) and 6.6 million
 * separators each went through a call to pbu_buf_put_i64 (a temporary and
 * a second copy) or pbu_buf_putc: 6.6% of indexed -> iprof (callgrind). */
static const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

static inline void put_ch(writer *w, char c) {
    pb_buf *b = &w->b;
    if (b->len + 1 < b->cap && !b->failed) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return;
    }
    pbu_buf_putc(b, c);
}

/* The most bytes a number takes: "-" and 20 digits. */
#define NUM_MAX 21

static inline void put_digits(pb_buf *b, uint64_t v) {
    static const uint64_t pow10[20] = {UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000),
                                       UINT64_C(10000), UINT64_C(100000), UINT64_C(1000000),
                                       UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
                                       UINT64_C(10000000000), UINT64_C(100000000000),
                                       UINT64_C(1000000000000), UINT64_C(10000000000000),
                                       UINT64_C(100000000000000), UINT64_C(1000000000000000),
                                       UINT64_C(10000000000000000), UINT64_C(100000000000000000),
                                       UINT64_C(1000000000000000000), UINT64_C(10000000000000000000)};
    size_t n = 1;
    while (n < 20 && v >= pow10[n]) n++;
    char *end = b->data + b->len + n, *d = end;
    while (v >= 100) {
        unsigned k = (unsigned)(v % 100) * 2;
        v /= 100;
        *--d = two_digits[k + 1];
        *--d = two_digits[k];
    }
    if (v >= 10) {
        *--d = two_digits[v * 2 + 1];
        *--d = two_digits[v * 2];
    } else {
        *--d = (char)('0' + v);
    }
    b->len += n;
    *end = '\0';
}

static inline void put_u64(writer *w, uint64_t v) {
    pb_buf *b = &w->b;
    if ((b->failed || NUM_MAX >= b->cap - b->len) && pbu_buf_reserve(b, NUM_MAX)) return;
    put_digits(b, v);
}

static inline void put_i64(writer *w, int64_t v) {
    pb_buf *b = &w->b;
    if ((b->failed || NUM_MAX >= b->cap - b->len) && pbu_buf_reserve(b, NUM_MAX)) return;
    if (v < 0) {
        b->data[b->len++] = '-';
        put_digits(b, (uint64_t)0 - (uint64_t)v);
    } else {
        put_digits(b, (uint64_t)v);
    }
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_len(const uint8_t *s, size_t n) {
    uint8_t c = s[0];
    size_t k;
    uint8_t lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) k = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        k = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        k = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (n < k) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < k; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return k;
}

static void put_string(writer *w, const char *str, size_t len) {
    static const char hex[] = "0123456789abcdef";
    const uint8_t *s = (const uint8_t *)str;
    put_ch(w, '"');
    size_t i = 0;
    while (i < len) {
        size_t run = i;
        while (run < len && s[run] >= 0x20 && s[run] < 0x80 && s[run] != '"' && s[run] != '\\')
            run++;
        if (run > i) {
            pbu_buf_append(&w->b, s + i, run - i);
            i = run;
            continue;
        }
        uint8_t c = s[i];
        char esc[7] = {'\\', 'u', '0', '0', 0, 0, 0};
        switch (c) {
        case '"': pbu_buf_append(&w->b, "\\\"", 2); i++; continue;
        case '\\': pbu_buf_append(&w->b, "\\\\", 2); i++; continue;
        case '\b': pbu_buf_append(&w->b, "\\b", 2); i++; continue;
        case '\f': pbu_buf_append(&w->b, "\\f", 2); i++; continue;
        case '\n': pbu_buf_append(&w->b, "\\n", 2); i++; continue;
        case '\r': pbu_buf_append(&w->b, "\\r", 2); i++; continue;
        case '\t': pbu_buf_append(&w->b, "\\t", 2); i++; continue;
        default: break;
        }
        size_t k = c < 0x20 ? 0 : utf8_len(s + i, len - i);
        if (k) {
            pbu_buf_append(&w->b, s + i, k);
            i += k;
            continue;
        }
        if (c >= 0x80 && !w->noted_bytes) {
            notice(w, "a name holds bytes that are not UTF-8: written as \\u00XX (Latin-1), "
                      "so it will read back differently");
            w->noted_bytes = 1;
        }
        esc[4] = hex[c >> 4];
        esc[5] = hex[c & 15];
        pbu_buf_append(&w->b, esc, 6);
        i++;
    }
    put_ch(w, '"');
}

static void put_count(writer *w, uint64_t c) {
    if (c > PB_MAX_COUNT_IPROF) {
        if (!w->noted_clamp)
            notice(w, "counts above 2^63-1 do not fit in iprof (Java long): written as "
                      "9223372036854775807");
        w->noted_clamp = 1;
        c = PB_MAX_COUNT_IPROF;
    }
    put_u64(w, c);
}

/* ---- ids ---------------------------------------------------------------------- */

/* Dense ids in canonical order; placeholders keep their own id, which real
 * entries must then avoid. */
static int assign_ids(writer *w, int methods) {
    size_t n = methods ? pb_profile_method_count(w->p) : pb_profile_symbol_count(w->p);
    int64_t *ids = malloc((n ? n : 1) * sizeof *ids);
    pbi_idmap taken = PBI_IDMAP_INIT;
    int rc = 0;
    if (!ids) return pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        int ph;
        int64_t pid;
        if (methods) {
            const pb_method *m = pb_profile_method(w->p, (uint32_t)i);
            ph = m->placeholder;
            pid = m->placeholder_id;
        } else {
            const pb_symbol *s = pb_profile_symbol(w->p, (uint32_t)i);
            ph = s->placeholder;
            pid = s->placeholder_id;
        }
        if (ph && pbi_idmap_put(&taken, pid, 1)) {
            rc = pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            goto out;
        }
        ids[i] = ph ? pid : -1;
    }
    int64_t next = 0;
    for (size_t i = 0; i < n; i++) {
        int ph = methods ? pb_profile_method(w->p, (uint32_t)i)->placeholder
                         : pb_profile_symbol(w->p, (uint32_t)i)->placeholder;
        if (ph) continue;
        while (pbi_idmap_get(&taken, next, NULL)) next++;
        ids[i] = next++;
    }
out:
    pbi_idmap_free(&taken);
    if (rc) {
        free(ids);
        return rc;
    }
    if (methods) w->method_id = ids;
    else w->type_id = ids;
    return 0;
}

/* ---- tables -------------------------------------------------------------------- */

static void write_types(writer *w) {
    size_t n = pb_profile_symbol_count(w->p);
    int first = 1;
    put(w, ",\"types\":[");
    for (size_t i = 0; i < n && !w->rc; i++) {
        const pb_symbol *s = pb_profile_symbol(w->p, (uint32_t)i);
        if (s->placeholder) continue;
        size_t len = 0;
        const char *name = pb_profile_str(w->p, s->name, &len);
        put(w, first ? "{\"id\":" : ",{\"id\":");
        first = 0;
        put_i64(w, w->type_id[i]);
        put(w, ",\"name\":");
        put_string(w, name ? name : "", name ? len : 0);
        put_ch(w, '}');
        maybe_flush(w);
    }
    put_ch(w, ']');
}

static void write_methods(writer *w) {
    size_t n = pb_profile_method_count(w->p);
    int first = 1;
    put(w, ",\"methods\":[");
    for (size_t i = 0; i < n && !w->rc; i++) {
        const pb_method *m = pb_profile_method(w->p, (uint32_t)i);
        if (m->placeholder) continue;
        size_t len = 0;
        const char *name = m->name == PB_NONE ? NULL : pb_profile_str(w->p, m->name, &len);
        put(w, first ? "{\"id\":" : ",{\"id\":");
        first = 0;
        put_i64(w, w->method_id[i]);
        put(w, ",\"name\":");
        put_string(w, name ? name : "", name ? len : 0);
        put(w, ",\"signature\":[");
        for (uint32_t k = 0; k < m->num_sig; k++) {
            if (m->sig[k] >= pb_profile_symbol_count(w->p)) {
                w->rc = pb_error_set(w->err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                     "method %zu: signature names no symbol", i);
                return;
            }
            if (k) put_ch(w, ',');
            put_i64(w, w->type_id[m->sig[k]]);
        }
        put(w, "]}");
        maybe_flush(w);
    }
    put_ch(w, ']');
}

/* ---- entries --------------------------------------------------------------------- */

static int cmp_pair(const void *a, const void *b) {
    const struct pair *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int write_type_pairs(writer *w, const pb_record *r, size_t ri) {
    size_t n = 0;
    for (uint32_t s = 0; s < r->num_sites[PB_VK_VTABLE]; s++) n += r->sites[PB_VK_VTABLE][s].num_values;
    int rc = pbu_grow_err((void **)&w->pairs, &w->pairs_cap, n, sizeof *w->pairs, w->err);
    if (rc) return rc;
    size_t k = 0;
    for (uint32_t s = 0; s < r->num_sites[PB_VK_VTABLE]; s++) {
        const pb_site *site = &r->sites[PB_VK_VTABLE][s];
        for (uint32_t v = 0; v < site->num_values; v++) {
            uint32_t sym = site->values[v].symbol;
            if (sym == PB_NONE && pb_profile_find_symbol_md5(w->p, site->values[v].value, &sym))
                return pb_error_set(w->err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                                    "record %zu: value 0x%016" PRIx64
                                    " has no type name, iprof needs one",
                                    ri, site->values[v].value);
            if (sym >= pb_profile_symbol_count(w->p))
                return pb_error_set(w->err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                    "record %zu: a value names no symbol", ri);
            w->pairs[k].id = w->type_id[sym];
            w->pairs[k].count = site->values[v].count;
            w->pairs[k].seq = k;
            k++;
        }
    }
    if (n) qsort(w->pairs, n, sizeof *w->pairs, cmp_pair);
    for (size_t i = 0; i < n; i++) {
        if (i) put_ch(w, ',');
        put_i64(w, w->pairs[i].id);
        put_ch(w, ',');
        put_count(w, w->pairs[i].count);
    }
    return 0;
}

static int write_entry(writer *w, const pb_record *r, size_t ri) {
    put(w, "{\"ctx\":\"");
    if (r->kind == PB_REC_JAVA_MONITOR) {
        put(w, "0:0");
    } else {
        size_t n = 0;
        const pb_frame *f = r->ctx == PB_NONE ? NULL : pb_profile_context(w->p, r->ctx, &n);
        if (!f || !n)
            return pb_error_set(w->err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                "record %zu: a Java record without a context", ri);
        for (size_t i = 0; i < n; i++) {
            if (f[i].method >= pb_profile_method_count(w->p))
                return pb_error_set(w->err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                    "record %zu: its context names no method", ri);
            if (i) put_ch(w, '<');
            put_i64(w, w->method_id[f[i].method]);
            put_ch(w, ':');
            put_i64(w, f[i].bci);
        }
    }
    put(w, "\",\"records\":[");
    if (r->kind == PB_REC_JAVA_BRANCH) {
        size_t n = 0;
        const int32_t *lay = r->layout == PB_NONE ? NULL : pb_profile_ints(w->p, r->layout, &n);
        if (n % 2 || r->num_counters != 1 + n / 2)
            return pb_error_set(w->err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                "record %zu: a branch record needs 1 + %zu counters, has %" PRIu32,
                                ri, n / 2, r->num_counters);
        for (size_t i = 0; i < n / 2; i++) {
            if (i) put_ch(w, ',');
            put_i64(w, lay[2 * i]);
            put_ch(w, ',');
            put_i64(w, lay[2 * i + 1]);
            put_ch(w, ',');
            put_count(w, r->counters[i + 1]);
        }
    } else if (r->kind == PB_REC_JAVA_CALL_COUNT || r->kind == PB_REC_JAVA_SAMPLE) {
        put_count(w, r->num_counters ? r->counters[0] : 0);
    } else {
        int rc = write_type_pairs(w, r, ri);
        if (rc) return rc;
    }
    put(w, "]}");
    return 0;
}

static int write_section(writer *w, const pbi_iprof_section *sec) {
    size_t n = pb_profile_record_count(w->p);
    int first = 1;
    put(w, ",\"");
    put(w, sec->key);
    put(w, "\":[");
    for (size_t i = 0; i < n && !w->rc; i++) {
        const pb_record *r = pb_profile_record(w->p, i);
        if (r->kind != sec->kind) continue;
        if (!first) put_ch(w, ',');
        first = 0;
        int rc = write_entry(w, r, i);
        if (rc) return w->rc = rc;
        maybe_flush(w);
    }
    put_ch(w, ']');
    return w->rc;
}

/* Extra top-level members kept by the reader, in their order. */
static int write_extras(writer *w) {
    static const char prefix[] = "iprof.extra.";
    size_t n = pb_profile_prop_count(w->p);
    for (size_t i = 0; i < n && !w->rc; i++) {
        const char *val;
        size_t vlen;
        const char *key = pb_profile_prop_at(w->p, i, &val, &vlen);
        if (!key || strncmp(key, prefix, sizeof prefix - 1) != 0) continue;
        const char *k = key + sizeof prefix - 1;
        int clash = strcmp(k, "version") == 0 || strcmp(k, "types") == 0 ||
                    strcmp(k, "methods") == 0 || strcmp(k, "instanceofProfiles") == 0;
        for (size_t s = 0; s < pbi_iprof_section_count; s++)
            if (strcmp(k, pbi_iprof_sections[s].key) == 0) clash = 1;
        json_error_t je;
        pbu_oom_watch ow;
        pbu_oom_watch_start(&ow);
        json_t *check = clash ? NULL : json_loadb(val, vlen, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
        if (!clash && (pbu_oom_watch_seen(&ow) || (!check && json_error_code(&je) == json_error_out_of_memory))) {
            /* jansson out of memory says "not JSON": the property is not to blame
             * (the allocation sweep's convert-iprof-extras case) */
            json_decref(check);
            return w->rc = pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, key, "out of memory writing iprof");
        }
        if (!check) {
            pb_diag(w->o->diag, w->o->diag_ctx, PB_DIAG_NOTICE, 0, NULL, PB_NO_OFFSET, key,
                    "property not written: %s", clash ? "it would repeat a member iprof defines"
                                                      : "its value is not JSON");
            continue;
        }
        json_decref(check);
        put_ch(w, ',');
        put_string(w, k, strlen(k));
        put_ch(w, ':');
        pbu_buf_append(&w->b, val, vlen);
        maybe_flush(w);
    }
    return w->rc;
}

/* The version to write: option, else the model's, else 1.1.0. */
static int pick_version(writer *w, size_t n_instanceof, const pbi_iprof_version **out) {
    const char *opt = w->o->kv ? pb_kv_get(w->o->kv, w->o->nkv, "iprof-version") : NULL;
    const pbi_iprof_version *row;
    if (opt) {
        row = pbi_iprof_version_find(opt, strlen(opt));
        if (!row || row->layout == PBI_IPROF_LEGACY)
            return pb_error_set(w->err, PB_EINVAL, PB_NO_OFFSET, "iprof-version",
                                "cannot write iprof version \"%s\": choose 1.1.0, 1.0.0 or 0.4.0",
                                opt);
        if (!row->has_instanceof && n_instanceof)
            return pb_error_set(w->err, PB_EINVAL, PB_NO_OFFSET, "iprof-version",
                                "cannot write iprof %s: the profile has %zu instanceof entries, "
                                "which need 1.1.0",
                                opt, n_instanceof);
        *out = row;
        return 0;
    }
    size_t len = 0;
    const char *v = pb_profile_prop(w->p, "iprof.version", &len);
    row = v ? pbi_iprof_version_find(v, len) : NULL;
    if (row && row->layout == PBI_IPROF_LEGACY) {
        row = pbi_iprof_version_find(n_instanceof ? "1.1.0" : "1.0.0", 5);
        pb_diag(w->o->diag, w->o->diag_ctx, PB_DIAG_NOTICE, 0, NULL, PB_NO_OFFSET, NULL,
                "the profile came from iprof 0.2.0, whose layout is not written: writing %s",
                row->text);
    } else if (row && !row->has_instanceof && n_instanceof) {
        return pb_error_set(w->err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            "cannot write iprof %s: the profile has %zu instanceof entries, "
                            "which need 1.1.0 (plugin option iprof-version 1.1.0)",
                            row->text, n_instanceof);
    } else if (!row) {
        if (v)
            pb_diag(w->o->diag, w->o->diag_ctx, PB_DIAG_NOTICE, 0, NULL, PB_NO_OFFSET, NULL,
                    "unknown iprof.version \"%s\": writing 1.1.0", v);
        row = pbi_iprof_version_find("1.1.0", 5);
    }
    *out = row;
    return 0;
}

int pbi_iprof_write(const pb_profile *p, pb_sink *out, const pb_write_options *o, pb_error *err) {
    static const pb_write_options defaults = PB_WRITE_OPTIONS_INIT;
    /* LLVM function records reach us already in iprof form: pb_write runs
     * the bridge for every PB_FAMILY_JAVA writer (src/bridge/bridge_iprof.c,
     * docs/mapping.md §7, §9). */
    writer w;
    const pbi_iprof_version *ver = NULL;
    int rc = 0;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.out = out;
    w.o = o ? o : &defaults;
    w.err = err;

    size_t nrec = pb_profile_record_count(p), n_instanceof = 0;
    for (size_t i = 0; i < nrec; i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (r->kind == PB_REC_JAVA_INSTANCEOF) n_instanceof++;
        if (r->kind == PB_REC_FUNCTION || r->kind >= PB_REC_KIND_COUNT)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                "record %zu has kind %u, which iprof cannot hold", i, r->kind);
    }
    if ((rc = pick_version(&w, n_instanceof, &ver))) return rc;
    if ((rc = assign_ids(&w, 0)) || (rc = assign_ids(&w, 1))) goto out;

    put(&w, "{\"version\":");
    put_string(&w, ver->text, strlen(ver->text));
    write_types(&w);
    write_methods(&w);
    for (size_t s = 0; s < pbi_iprof_section_count && !w.rc; s++) {
        const pbi_iprof_section *sec = &pbi_iprof_sections[s];
        if (sec->kind == PB_REC_JAVA_INSTANCEOF && !ver->has_instanceof) continue;
        if (write_section(&w, sec)) break;
    }
    if (!w.rc) write_extras(&w);
    pbu_buf_putc(&w.b, '}');
    flush(&w);
    rc = w.rc;
out:
    pbu_buf_free(&w.b);
    free(w.type_id);
    free(w.method_id);
    free(w.pairs);
    return rc;
}
