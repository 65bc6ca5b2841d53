/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * text_read.c -- reads LLVM's text instrumentation profile (.proftext) with
 * the grammar of LLVM 19's TextInstrProfReader (spec §5.2-§5.4): blank
 * lines and lines starting with '#' are skipped everywhere; ':' header
 * lines; an optional temporal block; records of name, hash (radix auto),
 * counter count, counters, optional '$' bitmap, optional value data.
 * Every error carries the line and column it was found at.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "llvm/llvm_values.h"
#include "text_internal.h"
#include "util/grow.h"

typedef struct cursor {
    const char *data;
    size_t len, pos;
    const char *line; /* current line (no terminator) or NULL at the end */
    size_t line_len;
    int lineno;
} cursor;

/* Moves to the next line that is neither empty nor a '#' comment (LLVM's
 * line_iterator with comment marker '#'); handles \n and \r\n. */
static void next_line(cursor *c) {
    c->line = NULL;
    while (c->pos < c->len) {
        const char *s = c->data + c->pos;
        const char *nl = memchr(s, '\n', c->len - c->pos);
        size_t n = nl ? (size_t)(nl - s) : c->len - c->pos;
        c->pos += n + (nl ? 1 : 0);
        c->lineno++;
        if (n && s[n - 1] == '\r') n--;
        if (n == 0 || s[0] == '#') continue;
        c->line = s;
        c->line_len = n;
        return;
    }
}

static int terr(pb_error *err, int code, const cursor *c, size_t col, const char *path,
                const char *expected, const char *fmt, ...) PB_PRINTF(7, 8);
static int terr(pb_error *err, int code, const cursor *c, size_t col, const char *path,
                const char *expected, const char *fmt, ...) {
    if (!err || err->code) return code;
    char found[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(found, sizeof found, fmt, ap);
    va_end(ap);
    pb_error_set_ef(err, code, c->line ? (uint64_t)(c->line - c->data) + col : (uint64_t)c->len, path,
                    expected, found);
    err->line = c->line ? c->lineno : c->lineno + 1;
    err->column = (int)col + 1;
    return code;
}

/* The current line shown in messages (cut). */
#define SHOW(c) (int)((c)->line_len > 60 ? 60 : (c)->line_len), (c)->line

/* LLVM's StringRef::getAsInteger: the whole string must be the number, no
 * sign, no spaces; radix 0 = auto (0x, 0b, 0o, leading 0 = octal). */
static int parse_u64(const char *s, size_t n, unsigned radix, uint64_t *out) {
    if (radix == 0) {
        if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) radix = 16, s += 2, n -= 2;
        else if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) radix = 2, s += 2, n -= 2;
        else if (n >= 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) radix = 8, s += 2, n -= 2;
        else if (n >= 2 && s[0] == '0') radix = 8, s += 1, n -= 1;
        else radix = 10;
    }
    if (n == 0) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned d;
        char ch = s[i];
        if (ch >= '0' && ch <= '9') d = (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'z') d = (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'Z') d = (unsigned)(ch - 'A' + 10);
        else return 0;
        if (d >= radix) return 0;
        if (!pb_mul_u64(&v, v, radix) || !pb_add_u64(&v, v, d)) return 0;
    }
    *out = v;
    return 1;
}

static int line_u64(const cursor *c, unsigned radix, uint64_t *out) {
    return c->line && parse_u64(c->line, c->line_len, radix, out);
}

typedef struct pending_name {
    uint64_t ref;
    pb_str name;
} pending_name;

typedef struct reader {
    cursor c;
    pb_profile *p;
    const pb_read_options *o;
    const char *source;
    /* one record's arrays, reused */
    uint64_t *counters;
    size_t counters_cap;
    uint8_t *bitmap;
    size_t bitmap_cap;
    pb_site *sites[PB_VK_COUNT];
    size_t sites_cap[PB_VK_COUNT];
    pb_value *values;
    size_t values_len, values_cap;
    pending_name *pending; /* kind-0 target names, bound to symbols after the read */
    size_t npending, pending_cap;
    uint64_t merged;
} reader;

static int str_ieq(const char *s, size_t n, const char *lit) {
    size_t m = strlen(lit);
    if (n != m) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != lit[i]) return 0;
    return 1;
}

/* Moves to the next line and reads it as a whole number. */
static int expect_u64(cursor *c, unsigned radix, const char *path, const char *expected, uint64_t *out,
                      pb_error *err) {
    next_line(c);
    if (!c->line) return terr(err, PB_ETRUNC, c, 0, path, expected, "the end of the input");
    if (!line_u64(c, radix, out)) return terr(err, PB_EFORMAT, c, 0, path, expected, "'%.*s'", SHOW(c));
    return 0;
}

static int read_traces(reader *r, pb_error *err) {
    cursor *c = &r->c;
    uint64_t num = 0, stream = 0;
    int rc;
    if ((rc = expect_u64(c, 10, "temporal.NumTraces", "a decimal count", &num, err))) return rc;
    if ((rc = expect_u64(c, 10, "temporal.TraceStreamSize", "a decimal count", &stream, err))) return rc;
    if (stream > PB_MAX_TRACE_STREAM)
        return terr(err, PB_EFORMAT, c, 0, "temporal.TraceStreamSize", "at most 2^28 runs (PB_MAX_TRACE_STREAM)",
                    "%" PRIu64, stream);
    pb_profile_set_trace_stream_size(r->p, stream);
    for (uint64_t t = 0; t < num; t++) {
        uint64_t weight = 0;
        if ((rc = expect_u64(c, 10, "temporal.Weight", "a decimal weight", &weight, err))) return rc;
        next_line(c);
        if (!c->line)
            return terr(err, PB_ETRUNC, c, 0, "temporal.trace", "a line of names separated by ','", "the end");
        size_t n = 0;
        uint64_t *refs = malloc((c->line_len / 2 + 1) * sizeof *refs);
        if (!refs) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        size_t start = 0;
        for (size_t i = 0; i <= c->line_len; i++) {
            if (i < c->line_len && c->line[i] != ',') continue;
            size_t a = start, b = i;
            while (a < b && isspace((unsigned char)c->line[a])) a++;
            while (b > a && isspace((unsigned char)c->line[b - 1])) b--;
            if (i > start) refs[n++] = pb_md5_ref(c->line + a, b - a); /* empty pieces are dropped */
            start = i + 1;
        }
        rc = pb_profile_add_trace(r->p, weight, refs, n, err);
        free(refs);
        if (rc) return rc;
    }
    return 0;
}

/* Header lines (':' ...) at the start; c->line is the first line after. */
static int read_header(reader *r, pb_error *err) {
    cursor *c = &r->c;
    uint64_t flags = 0;
    next_line(c);
    while (c->line && c->line[0] == ':') {
        const char *s = c->line + 1;
        /* no trimming: LLVM compares the whole line, so ":ir " is a bad
         * header ("file header is corrupt" in 13-19) */
        size_t n = c->line_len - 1;
        if (str_ieq(s, n, "ir")) flags |= PB_VARIANT_IR;
        else if (str_ieq(s, n, "fe")) flags |= PB_KIND_FRONTEND; /* declared: decides merges */
        else if (str_ieq(s, n, "csir")) flags |= PB_VARIANT_IR | PB_VARIANT_CSIR;
        else if (str_ieq(s, n, "entry_first")) flags |= PB_VARIANT_ENTRY_FIRST;
        else if (str_ieq(s, n, "not_entry_first")) flags &= ~PB_VARIANT_ENTRY_FIRST;
        else if (str_ieq(s, n, "single_byte_coverage")) flags |= PB_VARIANT_BYTE_COVERAGE;
        else if (str_ieq(s, n, "instrument_loop_entries")) flags |= PB_VARIANT_INSTR_LOOP_ENTRIES;
        else if (str_ieq(s, n, "temporal_prof_traces")) {
            flags |= PB_VARIANT_TEMPORAL;
            int rc = read_traces(r, err);
            if (rc) return rc;
        } else {
            return terr(err, PB_EFORMAT, c, 1, "header",
                        "ir, fe, csir, entry_first, not_entry_first, single_byte_coverage, "
                        "temporal_prof_traces or instrument_loop_entries",
                        "':%.*s'", (int)(n > 60 ? 60 : n), s);
        }
        next_line(c);
    }
    pb_profile_set_flags(r->p, flags);
    return 0;
}

/* Optional value data after the counters/bitmap (§5.4). */
/* The value's target, before the line's last ':': a memop size, the
 * external marker, or a name (vtable names become symbols; function names
 * are resolved to records once all are read). */
static int read_value_target(reader *r, unsigned kind, const char *name, size_t nlen, pb_value *val, pb_error *err) {
    cursor *c = &r->c;
    int rc;
    val->symbol = PB_NONE;
    if (kind == PB_VK_MEMOP_SIZE) {
        if (!parse_u64(name, nlen, 10, &val->value))
            return terr(err, PB_EFORMAT, c, 0, "record.value", "a decimal value before ':'", "'%.*s'", SHOW(c));
    } else if (nlen == strlen(PBI_TEXT_EXTERNAL) && memcmp(name, PBI_TEXT_EXTERNAL, nlen) == 0) {
        val->value = 0;
    } else if (nlen == 0) {
        /* LLVM's InstrProfSymtab refuses to add an empty name:
         * "malformed instrumentation profile data: function
         * name is empty" (14-18; "symbol name is empty" 19+) */
        return terr(err, PB_EFORMAT, c, 0, "record.value",
                    "a target name before ':' (llvm-profdata: symbol name is empty)", "'%.*s'", SHOW(c));
    } else {
        val->value = pb_md5_ref(name, nlen);
        if (kind == PB_VK_VTABLE) return pb_profile_add_symbol(r->p, name, nlen, &val->symbol, err);
        pb_str id;
        if ((rc = pb_profile_intern(r->p, name, nlen, &id, err))) return rc;
        if ((rc = pbu_grow_err((void **)&r->pending, &r->pending_cap, r->npending + 1, sizeof *r->pending, err)))
            return rc;
        r->pending[r->npending].ref = val->value;
        r->pending[r->npending++].name = id;
    }
    return 0;
}

/* One "target:count" line; the count follows the last ':'. */
static int read_value(reader *r, unsigned kind, pb_error *err) {
    cursor *c = &r->c;
    next_line(c);
    if (!c->line) return terr(err, PB_ETRUNC, c, 0, "record.value", "a value:count line", "the end");
    const char *colon = NULL;
    for (size_t i = c->line_len; i > 0; i--)
        if (c->line[i - 1] == ':') {
            colon = c->line + i - 1;
            break;
        }
    const char *name = c->line;
    size_t nlen = colon ? (size_t)(colon - c->line) : c->line_len;
    const char *cnt = colon ? colon + 1 : c->line + c->line_len;
    size_t clen = colon ? c->line_len - nlen - 1 : 0;
    pb_value *val = &r->values[r->values_len++];
    int rc = read_value_target(r, kind, name, nlen, val, err);
    if (rc) return rc;
    if (!parse_u64(cnt, clen, 10, &val->count))
        return terr(err, PB_EFORMAT, c, colon ? (size_t)(cnt - c->line) : c->line_len, "record.value",
                    "a decimal count after the last ':'", "'%.*s'", SHOW(c));
    return 0;
}

/* Site s of a kind: its value count, then its values. */
static int read_site(reader *r, unsigned kind, uint64_t s, pb_error *err) {
    cursor *c = &r->c;
    uint64_t nv;
    next_line(c);
    if (!c->line) return terr(err, PB_ETRUNC, c, 0, "record.site", "a value count", "the end");
    if (!line_u64(c, 10, &nv) || nv > UINT32_MAX)
        return terr(err, PB_EFORMAT, c, 0, "record.site", "a decimal value count", "'%.*s'", SHOW(c));
    if (nv > c->len - c->pos + 1)
        return terr(err, PB_ETRUNC, c, 0, "record.site", "values that fit in the input", "%" PRIu64, nv);
    r->sites[kind][s].num_values = (uint32_t)nv;
    r->sites[kind][s].values = (pb_value *)(uintptr_t)r->values_len; /* index for now */
    int rc = pbu_grow_err((void **)&r->values, &r->values_cap, r->values_len + (size_t)nv + 1, sizeof(pb_value), err);
    for (uint64_t v = 0; v < nv && rc == 0; v++) rc = read_value(r, (unsigned)kind, err);
    return rc;
}

/* One value kind: its number, its site count, then its sites. */
static int read_kind(reader *r, pb_record *rec, pb_error *err) {
    cursor *c = &r->c;
    uint64_t kind, ns;
    next_line(c);
    if (!c->line) return terr(err, PB_ETRUNC, c, 0, "record.ValueKind", "a value kind", "the end");
    if (!line_u64(c, 10, &kind) || kind > UINT32_MAX)
        return terr(err, PB_EFORMAT, c, 0, "record.ValueKind", "a decimal value kind", "'%.*s'", SHOW(c));
    if (kind >= PB_VK_COUNT)
        return terr(err, PB_EFORMAT, c, 0, "record.ValueKind", "a value kind 0 to 2", "%" PRIu64, kind);
    if (rec->num_sites[kind])
        return terr(err, PB_EFORMAT, c, 0, "record.ValueKind", "each value kind once",
                    "kind %" PRIu64 " again", kind);
    next_line(c);
    if (!c->line) return terr(err, PB_ETRUNC, c, 0, "record.NumValueSites", "a site count", "the end");
    if (!line_u64(c, 10, &ns) || ns > UINT32_MAX)
        return terr(err, PB_EFORMAT, c, 0, "record.NumValueSites", "a decimal site count", "'%.*s'", SHOW(c));
    if (ns == 0) return 0;
    /* each site takes at least one line: cap by the lines that can remain */
    if (ns > c->len - c->pos + 1)
        return terr(err, PB_ETRUNC, c, 0, "record.NumValueSites", "sites that fit in the input",
                    "%" PRIu64, ns);
    int rc = pbu_grow_err((void **)&r->sites[kind], &r->sites_cap[kind], (size_t)ns, sizeof(pb_site), err);
    for (uint64_t s = 0; s < ns && rc == 0; s++) rc = read_site(r, (unsigned)kind, s, err);
    if (rc) return rc;
    rec->num_sites[kind] = (uint32_t)ns;
    return 0;
}

static int read_values(reader *r, pb_record *rec, pb_error *err) {
    cursor *c = &r->c;
    uint64_t nkinds;
    if (!line_u64(c, 10, &nkinds) || nkinds > UINT32_MAX) return 0; /* not a number: no value data */
    if (nkinds == 0 || nkinds > PB_VK_COUNT)
        return terr(err, PB_EFORMAT, c, 0, "record.NumValueKinds", "1 to 3 value kinds", "%" PRIu64, nkinds);
    r->values_len = 0;
    /* Values are gathered first; site pointers are set once the array stops moving. */
    for (uint64_t k = 0; k < nkinds; k++) {
        int rc = read_kind(r, rec, err);
        if (rc) return rc;
    }
    /* The value array has stopped growing: turn indices into pointers. */
    for (int k = 0; k < PB_VK_COUNT; k++) {
        rec->sites[k] = rec->num_sites[k] ? r->sites[k] : NULL;
        for (uint32_t s = 0; s < rec->num_sites[k]; s++)
            r->sites[k][s].values = r->values + (size_t)(uintptr_t)r->sites[k][s].values;
    }
    next_line(c);
    return 0;
}

static int add_record(reader *r, pb_record *rec, int name_line, pb_error *err) {
    pb_error local;
    pb_error_clear(&local);
    int rc = pb_profile_add_record(r->p, rec, NULL, &local);
    if (rc == PB_EEXIST) {
        /* LLVM's writer merges a repeated (name, hash): so do we. */
        pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
        mo.max_values_per_site = 0;
        mo.diag = r->o ? r->o->diag : NULL;
        mo.diag_ctx = r->o ? r->o->diag_ctx : NULL;
        mo.source = r->source;
        pb_error_clear(&local);
        rc = pb_profile_merge_record(r->p, rec, &mo, &local);
        r->merged++;
    }
    if (rc && err && !err->code) {
        local.line = name_line;
        local.column = 1;
        char src[sizeof err->source];
        memcpy(src, err->source, sizeof src);
        *err = local;
        if (src[0]) memcpy(err->source, src, sizeof src);
    }
    return rc;
}

static int read_record(reader *r, pb_error *err) {
    cursor *c = &r->c;
    pb_record rec;
    memset(&rec, 0, sizeof rec);
    rec.kind = PB_REC_FUNCTION;
    rec.ctx = rec.layout = PB_NONE;
    int name_line = c->lineno, rc;
    if ((rc = pb_profile_intern(r->p, c->line, c->line_len, &rec.name, err))) return rc;
    uint64_t n;
    next_line(c);
    if (!c->line) return terr(err, PB_ETRUNC, c, 0, "record.FuncHash", "a function hash", "the end");
    if (!line_u64(c, 0, &rec.hash))
        return terr(err, PB_EFORMAT, c, 0, "record.FuncHash", "an integer (decimal, 0x hex or 0 octal)",
                    "'%.*s'", SHOW(c));
    next_line(c);
    if (!c->line) return terr(err, PB_ETRUNC, c, 0, "record.NumCounters", "a counter count", "the end");
    if (!line_u64(c, 10, &n))
        return terr(err, PB_EFORMAT, c, 0, "record.NumCounters", "a decimal counter count", "'%.*s'", SHOW(c));
    if (n == 0) return terr(err, PB_EFORMAT, c, 0, "record.NumCounters", "at least 1 counter", "0");
    /* every counter takes at least 2 bytes ("0\n"): cap by the input left */
    if (n > (c->len - c->pos) / 2 + 1 || n > UINT32_MAX)
        return terr(err, PB_ETRUNC, c, 0, "record.NumCounters", "counters that fit in the input",
                    "%" PRIu64, n);
    if ((rc = pbu_grow_err((void **)&r->counters, &r->counters_cap, (size_t)n, sizeof *r->counters, err))) return rc;
    for (uint64_t i = 0; i < n; i++) {
        next_line(c);
        if (!c->line) return terr(err, PB_ETRUNC, c, 0, "record.Counts", "a counter value", "the end");
        if (!line_u64(c, 10, &r->counters[i]))
            return terr(err, PB_EFORMAT, c, 0, "record.Counts", "a decimal count", "'%.*s'", SHOW(c));
    }
    rec.num_counters = (uint32_t)n;
    rec.counters = r->counters;
    next_line(c);
    if (c->line && c->line[0] == '$') {
        const char *s = c->line + 1;
        size_t m = c->line_len - 1;
        while (m && isspace((unsigned char)*s)) s++, m--;
        while (m && isspace((unsigned char)s[m - 1])) m--;
        uint64_t b;
        if (!parse_u64(s, m, 0, &b))
            return terr(err, PB_EFORMAT, c, 1, "record.NumBitmapBytes", "an integer after '$'", "'%.*s'", SHOW(c));
        if (b > (c->len - c->pos) / 2 + 1 || b > UINT32_MAX)
            return terr(err, PB_ETRUNC, c, 1, "record.NumBitmapBytes", "bytes that fit in the input", "%" PRIu64, b);
        if ((rc = pbu_grow_err((void **)&r->bitmap, &r->bitmap_cap, (size_t)b + 1, 1, err))) return rc;
        for (uint64_t i = 0; i < b; i++) {
            uint64_t v;
            next_line(c);
            if (!c->line) return terr(err, PB_ETRUNC, c, 0, "record.BitmapBytes", "a bitmap byte", "the end");
            if (!line_u64(c, 0, &v) || v > 0xff)
                return terr(err, PB_EFORMAT, c, 0, "record.BitmapBytes", "a byte value (0x0 to 0xff)",
                            "'%.*s'", SHOW(c));
            r->bitmap[i] = (uint8_t)v;
        }
        rec.num_bitmap_bytes = (uint32_t)b;
        rec.bitmap = b ? r->bitmap : NULL;
        next_line(c);
    }
    if (c->line && (rc = read_values(r, &rec, err))) return rc;
    return add_record(r, &rec, name_line, err);
}

static int cmp_pending(const void *x, const void *y) {
    const pending_name *a = x, *b = y;
    return a->ref < b->ref ? -1 : a->ref > b->ref;
}

/* Kind-0 target names that are no record of the file become symbols, so
 * that the names survive (LLVM keeps them in its symtab). */
static int bind_pending(reader *r, pb_error *err) {
    if (!r->npending) return 0;
    qsort(r->pending, r->npending, sizeof *r->pending, cmp_pending);
    size_t nrec = pb_profile_record_count(r->p);
    for (size_t i = 0; i < nrec; i++) {
        pb_record *rec = pb_profile_record_mut(r->p, i);
        for (uint32_t s = 0; s < rec->num_sites[PB_VK_INDIRECT_CALL]; s++) {
            pb_site *site = &rec->sites[PB_VK_INDIRECT_CALL][s];
            for (uint32_t v = 0; v < site->num_values; v++) {
                pb_value *val = &site->values[v];
                size_t idx;
                if (val->value == 0 || val->symbol != PB_NONE) continue;
                if (pb_profile_lookup_ref(r->p, val->value, &idx, 1) > 0) continue;
                pending_name key = {val->value, 0};
                pending_name *hit = bsearch(&key, r->pending, r->npending, sizeof key, cmp_pending);
                if (!hit) continue;
                size_t len;
                const char *name = pb_profile_str(r->p, hit->name, &len);
                uint32_t sym;
                int rc = pb_profile_add_symbol(r->p, name, len, &sym, err);
                if (rc) return rc;
                /* re-fetch: adding to the profile may move what getters lent */
                rec = pb_profile_record_mut(r->p, i);
                site = &rec->sites[PB_VK_INDIRECT_CALL][s];
                site->values[v].symbol = sym;
            }
        }
    }
    return 0;
}

int pbi_text_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err) {
    const uint8_t *data;
    size_t len;
    reader r;
    memset(&r, 0, sizeof r);
    *out = NULL;
    int rc = pb_source_read_all(in, &data, &len, err);
    if (rc) return rc;
    /* LLVM's line_iterator ends the file at the first NUL byte: what follows
     * is lost, or the record it cuts is "truncated". Refuse it here. */
    const uint8_t *nul = len ? memchr(data, 0, len) : NULL;
    if (nul)
        return pb_error_set_ef(err, PB_EFORMAT, (uint64_t)(nul - data), "text",
                               "no NUL byte (LLVM's text reader stops at the first)", "a NUL byte");
    r.c.data = (const char *)data;
    r.c.len = len;
    r.o = o;
    r.source = pb_source_name(in);
    if ((rc = pb_profile_new(&r.p, err))) return rc;
    pb_origin og;
    memset(&og, 0, sizeof og);
    snprintf(og.format, sizeof og.format, "text");
    pb_profile_set_origin(r.p, &og);
    if ((rc = read_header(&r, err))) goto out;
    while (r.c.line) {
        if ((rc = read_record(&r, err))) goto out;
    }
    if ((rc = bind_pending(&r, err))) goto out;
    pbi_llvm_bind_symbols(r.p);
out:
    free(r.counters);
    free(r.bitmap);
    for (int k = 0; k < PB_VK_COUNT; k++) free(r.sites[k]);
    free(r.values);
    free(r.pending);
    if (rc) {
        pb_profile_free(r.p);
        return rc;
    }
    *out = r.p;
    return 0;
}
