/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof_stream.c -- the fast path of the iprof reader: the JSON bytes go
 * straight into the model through a pull tokenizer of our own, without a
 * jansson tree (issue 25 item 3: the tree cost ~41% of iprof -> iprof).
 *
 * It reads what valid files look like -- "version" first, then "types",
 * "methods" and the sections in the order GraalVM and our writer give them,
 * every entry resolving -- and gives up (PBI_IPROF_STREAM_OTHER, nothing
 * reported, the partial model freed) at the first thing it does not do
 * itself: any syntax error, any rule problem, any lenient repair, a notice,
 * the 0.2.0 layout, members out of that order, a read error of the source.
 * The tree reader (iprof_read.c) then reads the input again and says what it
 * has always said, word for word. So this file must never accept what the
 * tree reader refuses, and for what it accepts it must build the model the
 * tree reader builds, call for call in the same order: the differential
 * fuzz target (tests/fuzz/iprof_stream_fuzz.c) and test_iprof_stream check
 * both. Stricter than jansson is allowed (the fallback answers), looser is not.
 *
 * Unknown top-level members (kept as iprof.extra.<key>, compact JSON text)
 * are the one place where a tree is really needed: their bytes are captured
 * and handed to jansson alone, which checks and re-dumps them exactly as the
 * tree reader's json_dumps did.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "iprof_int.h"
#include "util/grow.h"
#include "util/oom_watch.h"

#define WINDOW (256u << 10)
#define OTHER PBI_IPROF_STREAM_OTHER
#define MAX_EXTRAS 64      /* more unknown members: the tree reader's job */
#define MAX_SKIP_DEPTH 512 /* far below jansson's 2048 (it counts the top level too) */

typedef struct extra {
    char *key; /* NUL-free, terminated */
    size_t key_len;
    char *text; /* json_dumps output */
} extra;

typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

typedef struct sreader {
    pb_source *in;
    pb_profile *p;
    pb_error e; /* the model's and the source's words; copied out on ENOMEM only */
    /* the window over the source */
    uint8_t *buf;
    size_t pos, end;
    int eof, failed; /* failed: 0, OTHER or PB_ENOMEM, sticky */
    /* capture of an unknown member's value */
    int capturing;
    size_t cap_from;
    sbuf cap;
    sbuf key, str; /* decoded strings: the member name, a string value */
    /* the model side */
    char version[32];
    int allow_instanceof;
    pbi_idmap types, methods;
    uint32_t *tdense, *mdense;
    size_t ntdense, nmdense;
    extra extras[MAX_EXTRAS];
    size_t nextras;
    /* scratch, reused per entry */
    int64_t *ints;
    size_t ints_len, ints_cap;
    uint32_t *sig;
    size_t sig_cap;
    pbi_ctx_frame *cf;
    size_t cf_cap;
    pb_frame *frames;
    size_t frames_cap;
    uint64_t *counters;
    size_t counters_cap;
    int32_t *layout;
    size_t layout_cap;
    pb_value *values;
    size_t values_cap;
} sreader;

/* A model or source call failed: out of memory is ours to say, anything
 * else the tree reader says better. */
static int model_failed(int rc) { return rc == PB_ENOMEM ? PB_ENOMEM : OTHER; }

/* ---- the window ------------------------------------------------------------ */

static int sbuf_put(sbuf *b, const void *p, size_t n) {
    if (pbu_grow((void **)&b->p, &b->cap, b->len + n + 1, 1)) return PB_ENOMEM;
    memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

/* Refills the consumed window; 1 when bytes are there, 0 at the end of the
 * input or after a failure (s->failed). */
static int refill(sreader *s) {
    if (s->eof || s->failed) return 0;
    if (s->capturing) {
        if (sbuf_put(&s->cap, s->buf + s->cap_from, s->end - s->cap_from)) {
            s->failed = PB_ENOMEM;
            return 0;
        }
        s->cap_from = 0;
    }
    size_t got = 0;
    int rc = pb_source_read(s->in, s->buf, WINDOW, &got, &s->e);
    if (rc) {
        s->failed = model_failed(rc);
        return 0;
    }
    s->pos = 0;
    s->end = got;
    if (!got) s->eof = 1;
    return got > 0;
}

static inline int peekc(sreader *s) {
    if (s->pos == s->end && !refill(s)) return -1;
    return s->buf[s->pos];
}

static inline int getc_(sreader *s) {
    if (s->pos == s->end && !refill(s)) return -1;
    return s->buf[s->pos++];
}

/* The next byte that is not JSON whitespace, consumed; -1 at the end. */
static inline int next(sreader *s) {
    for (;;) {
        int c = getc_(s);
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
    }
}

/* What to return when the input ended or broke: the failure, else OTHER. */
static int stop(const sreader *s) { return s->failed ? s->failed : OTHER; }

static int expect(sreader *s, int want) {
    int c = next(s);
    if (c == want) return 0;
    return c < 0 ? stop(s) : OTHER;
}

/* ---- strings: jansson's rules (RFC 8259, valid UTF-8, surrogate pairs,
 * \u0000 allowed in values but not in member names) ------------------------- */

static int hex4(sreader *s, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int c = getc_(s);
        if (c >= '0' && c <= '9') v = v * 16 + (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v = v * 16 + (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v = v * 16 + (uint32_t)(c - 'A' + 10);
        else return c < 0 ? stop(s) : OTHER;
    }
    *out = v;
    return 0;
}

static int put_utf8(sbuf *b, uint32_t cp) {
    uint8_t u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (uint8_t)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (uint8_t)(0xC0 | (cp >> 6));
        u[1] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (uint8_t)(0xE0 | (cp >> 12));
        u[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (uint8_t)(0xF0 | (cp >> 18));
        u[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return sbuf_put(b, u, n);
}

static int escape(sreader *s, sbuf *b) {
    int c = getc_(s);
    char ch;
    switch (c) {
    case '"': ch = '"'; break;
    case '\\': ch = '\\'; break;
    case '/': ch = '/'; break;
    case 'b': ch = '\b'; break;
    case 'f': ch = '\f'; break;
    case 'n': ch = '\n'; break;
    case 'r': ch = '\r'; break;
    case 't': ch = '\t'; break;
    case 'u': {
        uint32_t cp, lo;
        int rc = hex4(s, &cp);
        if (rc) return rc;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return OTHER; /* a lone low surrogate */
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (getc_(s) != '\\' || getc_(s) != 'u') return stop(s);
            if ((rc = hex4(s, &lo))) return rc;
            if (lo < 0xDC00 || lo > 0xDFFF) return OTHER;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        return put_utf8(b, cp) ? PB_ENOMEM : 0;
    }
    default: return c < 0 ? stop(s) : OTHER;
    }
    return sbuf_put(b, &ch, 1) ? PB_ENOMEM : 0;
}

/* One UTF-8 sequence whose lead byte c (>= 0x80) was consumed. */
static int utf8_seq(sreader *s, int c, sbuf *b) {
    uint8_t u[4];
    size_t n;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = (uint32_t)c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = (uint32_t)c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = (uint32_t)c & 0x07;
    } else {
        return OTHER;
    }
    u[0] = (uint8_t)c;
    for (size_t i = 1; i < n; i++) {
        int d = getc_(s);
        if (d < 0x80 || d > 0xBF) return d < 0 ? stop(s) : OTHER;
        u[i] = (uint8_t)d;
        cp = (cp << 6) | ((uint32_t)d & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (cp >= 0xD800 && cp <= 0xDFFF) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return OTHER;
    return sbuf_put(b, u, n) ? PB_ENOMEM : 0;
}

/* The string whose opening quote was consumed, decoded into b. */
static int read_string(sreader *s, sbuf *b) {
    b->len = 0;
    if (sbuf_put(b, "", 0)) return PB_ENOMEM;
    for (;;) {
        size_t i = s->pos;
        while (i < s->end) {
            uint8_t c = s->buf[i];
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
            i++;
        }
        if (i > s->pos && sbuf_put(b, s->buf + s->pos, i - s->pos)) return PB_ENOMEM;
        s->pos = i;
        int c = getc_(s), rc = 0;
        if (c == '"') return 0;
        if (c < 0) return stop(s);
        if (c < 0x20) return OTHER;
        if (c == '\\') {
            rc = escape(s, b);
        } else if (c >= 0x80) {
            rc = utf8_seq(s, c, b);
        } else { /* the window ended before it */
            char ch = (char)c;
            rc = sbuf_put(b, &ch, 1) ? PB_ENOMEM : 0;
        }
        if (rc) return rc;
    }
}

/* A member name: '"' next (after whitespace), then ':' after it. */
static int read_key(sreader *s) {
    int rc = expect(s, '"');
    if (rc || (rc = read_string(s, &s->key))) return rc;
    if (memchr(s->key.p, '\0', s->key.len)) return OTHER; /* jansson refuses it */
    return expect(s, ':');
}

static int key_is(const sreader *s, const char *k) {
    size_t n = strlen(k);
    return s->key.len == n && memcmp(s->key.p, k, n) == 0;
}

/* ---- numbers: JSON integers that fit in int64 (a real or a bigger number is
 * never what a known member holds: the tree reader says why) ---------------- */

static int read_int_from(sreader *s, int c, int64_t *out) {
    int neg = 0;
    uint64_t v = 0;
    if (c == '-') {
        neg = 1;
        c = getc_(s);
    }
    if (c == '0') {
        c = peekc(s);
        if (c >= '0' && c <= '9') return OTHER;
    } else if (c >= '1' && c <= '9') {
        v = (uint64_t)(c - '0');
        for (;;) {
            c = peekc(s);
            if (c < '0' || c > '9') break;
            s->pos++;
            uint64_t d = (uint64_t)(c - '0');
            if (v > (UINT64_C(9223372036854775808) - d) / 10) return OTHER;
            v = v * 10 + d;
        }
        if (v > (neg ? UINT64_C(9223372036854775808) : (uint64_t)INT64_MAX)) return OTHER;
    } else {
        return c < 0 ? stop(s) : OTHER;
    }
    if (c == '.' || c == 'e' || c == 'E') return OTHER;
    if (c < 0 && s->failed) return s->failed;
    *out = neg ? (v == UINT64_C(9223372036854775808) ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return 0;
}

static int read_int(sreader *s, int64_t *out) { return read_int_from(s, next(s), out); }

/* [int, int, ...] into s->ints. */
static int read_int_array(sreader *s) {
    int rc = expect(s, '[');
    s->ints_len = 0;
    if (rc) return rc;
    int c = next(s);
    if (c == ']') return 0;
    for (;;) {
        if (pbu_grow((void **)&s->ints, &s->ints_cap, s->ints_len + 1, sizeof *s->ints))
            return PB_ENOMEM;
        if ((rc = read_int_from(s, c, &s->ints[s->ints_len]))) return rc;
        s->ints_len++;
        c = next(s);
        if (c == ']') return 0;
        if (c != ',') return c < 0 ? stop(s) : OTHER;
        c = next(s);
    }
}

/* After a value inside an array: 1 at ']', 0 at ',' (the next element), or a code. */
static int array_next(sreader *s) {
    int c = next(s);
    if (c == ']') return 1;
    if (c == ',') return 0;
    return c < 0 ? stop(s) : OTHER;
}

/* After a member: 1 at '}', 0 at ',' (another member), or a code. */
static int member_end(sreader *s) {
    int c = next(s);
    if (c == '}') return 1;
    if (c == ',') return 0;
    return c < 0 ? stop(s) : OTHER;
}

/* '[' then either ']' (1: empty) or the first element's first byte unread (0). */
static int array_open(sreader *s) {
    int rc = expect(s, '[');
    if (rc) return rc;
    int c = next(s);
    if (c == ']') return 1;
    if (c < 0) return stop(s);
    s->pos--; /* the byte just read is still in the window */
    return 0;
}

/* ---- an unknown top-level member: captured, then parsed by jansson -------- */

static int skip_string_raw(sreader *s) {
    for (;;) {
        int c = getc_(s);
        if (c == '"') return 0;
        if (c < 0) return stop(s);
        if (c == '\\' && getc_(s) < 0) return stop(s);
    }
}

/* Finds the end of one value; its syntax is jansson's to check afterwards. */
static int skip_value(sreader *s) {
    int c = getc_(s), depth = 0;
    if (c == '"') return skip_string_raw(s);
    if (c == '{' || c == '[') {
        depth = 1;
        while (depth) {
            c = getc_(s);
            if (c < 0) return stop(s);
            if (c == '"') {
                int rc = skip_string_raw(s);
                if (rc) return rc;
            } else if (c == '{' || c == '[') {
                if (++depth > MAX_SKIP_DEPTH) return OTHER;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return 0;
    }
    if (c < 0) return stop(s);
    for (;;) { /* a number or a literal */
        c = peekc(s);
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              c == '-' || c == '+' || c == '.'))
            break;
        s->pos++;
    }
    return s->failed;
}

static int read_extra(sreader *s) {
    if (s->nextras == MAX_EXTRAS) return OTHER;
    for (size_t i = 0; i < s->nextras; i++)
        if (s->extras[i].key_len == s->key.len && memcmp(s->extras[i].key, s->key.p, s->key.len) == 0)
            return OTHER; /* a duplicate member */
    int c = next(s);
    if (c < 0) return stop(s);
    s->pos--;
    s->capturing = 1;
    s->cap_from = s->pos;
    s->cap.len = 0;
    int rc = skip_value(s);
    s->capturing = 0;
    if (rc) return rc;
    if (sbuf_put(&s->cap, s->buf + s->cap_from, s->pos - s->cap_from)) return PB_ENOMEM;
    extra *x = &s->extras[s->nextras];
    x->key = malloc(s->key.len + 1);
    if (!x->key) return PB_ENOMEM;
    memcpy(x->key, s->key.p, s->key.len + 1);
    x->key_len = s->key.len;
    x->text = NULL;
    s->nextras++;
    json_error_t je;
    pbu_oom_watch w;
    pbu_oom_watch_start(&w);
    json_t *v = json_loadb(s->cap.p, s->cap.len,
                           JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
    int oom = pbu_oom_watch_seen(&w);
    if (!v || oom) {
        json_decref(v);
        return oom || json_error_code(&je) == json_error_out_of_memory ? PB_ENOMEM : OTHER;
    }
    x->text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(v);
    return x->text ? 0 : PB_ENOMEM;
}

/* ---- types and methods ------------------------------------------------------ */

static int read_types(sreader *s) {
    int rc = array_open(s);
    if (rc) return rc == 1 ? 0 : rc;
    for (;;) {
        int64_t id = 0;
        int have_id = 0, have_name = 0;
        if ((rc = expect(s, '{'))) return rc;
        do {
            if ((rc = read_key(s))) return rc;
            if (key_is(s, "id") && !have_id) {
                have_id = 1;
                if ((rc = read_int(s, &id))) return rc;
            } else if (key_is(s, "name") && !have_name) {
                have_name = 1;
                if ((rc = expect(s, '"')) || (rc = read_string(s, &s->str))) return rc;
            } else {
                return OTHER; /* unknown or repeated */
            }
        } while ((rc = member_end(s)) == 0);
        if (rc < 0 || rc == OTHER) return rc;
        if (!have_id || !have_name || id < INT32_MIN || id > INT32_MAX) return OTHER;
        uint32_t sym, first;
        if ((rc = pb_profile_add_symbol(s->p, s->str.p, s->str.len, &sym, &s->e)))
            return model_failed(rc);
        if (pbi_idmap_get(&s->types, id, &first)) return OTHER;
        if (pbi_idmap_put(&s->types, id, sym)) return PB_ENOMEM;
        if ((rc = array_next(s)) == 1) break;
        if (rc) return rc;
    }
    return 0;
}

static int read_methods(sreader *s) {
    int rc = array_open(s);
    if (rc) return rc == 1 ? 0 : rc;
    for (;;) {
        int64_t id = 0;
        int have_id = 0, have_name = 0, have_sig = 0;
        size_t ns = 0;
        if ((rc = expect(s, '{'))) return rc;
        do {
            if ((rc = read_key(s))) return rc;
            if (key_is(s, "id") && !have_id) {
                have_id = 1;
                if ((rc = read_int(s, &id))) return rc;
            } else if (key_is(s, "name") && !have_name) {
                have_name = 1;
                if ((rc = expect(s, '"')) || (rc = read_string(s, &s->str))) return rc;
            } else if (key_is(s, "signature") && !have_sig) {
                have_sig = 1;
                if ((rc = read_int_array(s))) return rc;
                ns = s->ints_len;
                if (pbu_grow((void **)&s->sig, &s->sig_cap, ns + 1, sizeof *s->sig))
                    return PB_ENOMEM;
                for (size_t k = 0; k < ns; k++)
                    if (!pbi_idmap_lookup(&s->types, s->tdense, s->ntdense, s->ints[k], &s->sig[k]))
                        return OTHER;
            } else {
                return OTHER;
            }
        } while ((rc = member_end(s)) == 0);
        if (rc < 0 || rc == OTHER) return rc;
        if (!have_id || !have_name || !have_sig || id < INT32_MIN || id > INT32_MAX) return OTHER;
        uint32_t idx, first;
        if ((rc = pb_profile_add_method(s->p, s->str.p, s->str.len, s->sig, ns, &idx, &s->e)))
            return model_failed(rc);
        if (pbi_idmap_get(&s->methods, id, &first)) return OTHER;
        if (pbi_idmap_put(&s->methods, id, idx)) return PB_ENOMEM;
        if ((rc = array_next(s)) == 1) break;
        if (rc) return rc;
    }
    return 0;
}

/* ---- profile entries ----------------------------------------------------------- */

static int is_int32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* The context in s->str, as iprof_read.c's read_ctx resolves it. */
static int entry_ctx(sreader *s, const pbi_iprof_section *sec, uint32_t *ctx) {
    size_t n = 0, bad = 0;
    int st = pbi_ctx_parse(s->str.p, s->str.len, '<', sec->ctx_rule, &s->cf, &s->cf_cap, &n, &bad);
    if (st < 0) return PB_ENOMEM;
    if (st != PBI_CTX_OK) return OTHER;
    if (sec->kind == PB_REC_JAVA_MONITOR) {
        *ctx = PB_NONE;
        return 0;
    }
    if (pbu_grow((void **)&s->frames, &s->frames_cap, n, sizeof *s->frames)) return PB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        uint32_t m;
        if (!pbi_idmap_lookup(&s->methods, s->mdense, s->nmdense, s->cf[i].method, &m)) return OTHER;
        s->frames[i].method = m;
        s->frames[i].bci = s->cf[i].bci;
    }
    int rc = pb_profile_intern_context(s->p, s->frames, n, ctx, &s->e);
    return rc ? model_failed(rc) : 0;
}

/* The record of s->ints per the section's shape, as iprof_read.c builds it. */
static int entry_records(sreader *s, const pbi_iprof_section *sec, pb_record *rec, pb_site *site) {
    size_t n = s->ints_len;
    const int64_t *v = s->ints;
    if (sec->shape == PBI_SHAPE_COUNT) {
        if (n != 1 || v[0] < 0) return OTHER;
        if (pbu_grow((void **)&s->counters, &s->counters_cap, 1, sizeof *s->counters))
            return PB_ENOMEM;
        s->counters[0] = (uint64_t)v[0];
        rec->num_counters = 1;
        rec->counters = s->counters;
        return 0;
    }
    if (sec->shape == PBI_SHAPE_BRANCH) {
        if (n % 3) return OTHER;
        size_t t = n / 3;
        if (t + 1 > UINT32_MAX) return OTHER;
        if (pbu_grow((void **)&s->counters, &s->counters_cap, t + 1, sizeof *s->counters) ||
            pbu_grow((void **)&s->layout, &s->layout_cap, 2 * t + 1, sizeof *s->layout))
            return PB_ENOMEM;
        uint64_t sum = 0;
        for (size_t i = 0; i < t; i++) {
            if (!is_int32(v[3 * i]) || !is_int32(v[3 * i + 1]) || v[3 * i + 2] < 0) return OTHER;
            s->layout[2 * i] = (int32_t)v[3 * i];
            s->layout[2 * i + 1] = (int32_t)v[3 * i + 1];
            s->counters[i + 1] = (uint64_t)v[3 * i + 2];
            sum = pbi_iprof_sat_add(sum, s->counters[i + 1]);
        }
        s->counters[0] = sum;
        int rc = pb_profile_intern_ints(s->p, s->layout, 2 * t, &rec->layout, &s->e);
        if (rc) return model_failed(rc);
        rec->num_counters = (uint32_t)(t + 1);
        rec->counters = s->counters;
        return 0;
    }
    if (n % 2) return OTHER;
    size_t t = n / 2;
    if (t > UINT32_MAX) return OTHER;
    if (pbu_grow((void **)&s->counters, &s->counters_cap, 1, sizeof *s->counters) ||
        pbu_grow((void **)&s->values, &s->values_cap, t + 1, sizeof *s->values))
        return PB_ENOMEM;
    uint64_t sum = 0;
    for (size_t i = 0; i < t; i++) {
        uint32_t sym;
        if (!pbi_idmap_lookup(&s->types, s->tdense, s->ntdense, v[2 * i], &sym) || v[2 * i + 1] < 0)
            return OTHER;
        s->values[i].value = pb_profile_symbol(s->p, sym)->md5;
        s->values[i].count = (uint64_t)v[2 * i + 1];
        s->values[i].symbol = sym;
        sum = pbi_iprof_sat_add(sum, s->values[i].count);
    }
    qsort(s->values, t, sizeof *s->values, pbi_iprof_cmp_value);
    s->counters[0] = sum;
    rec->num_counters = 1;
    rec->counters = s->counters;
    site->num_values = (uint32_t)t;
    site->values = s->values;
    rec->num_sites[PB_VK_VTABLE] = 1;
    rec->sites[PB_VK_VTABLE] = site;
    return 0;
}

/* One {"ctx", "records"} entry, members in either order. */
static int read_entry(sreader *s, const pbi_iprof_section *sec, pbi_idmap *seen, size_t i) {
    int rc, have_ctx = 0, have_recs = 0;
    if ((rc = expect(s, '{'))) return rc;
    do {
        if ((rc = read_key(s))) return rc;
        if (key_is(s, "ctx") && !have_ctx) {
            have_ctx = 1;
            if ((rc = expect(s, '"')) || (rc = read_string(s, &s->str))) return rc;
        } else if (key_is(s, "records") && !have_recs) {
            have_recs = 1;
            if ((rc = read_int_array(s))) return rc;
        } else {
            return OTHER;
        }
    } while ((rc = member_end(s)) == 0);
    if (rc < 0 || rc == OTHER) return rc;
    if (!have_ctx || !have_recs) return OTHER;
    pb_record rec;
    pb_site site = {0, NULL};
    memset(&rec, 0, sizeof rec);
    rec.kind = sec->kind;
    rec.name = PB_NONE;
    rec.layout = PB_NONE;
    if ((rc = entry_ctx(s, sec, &rec.ctx)) || (rc = entry_records(s, sec, &rec, &site))) return rc;
    uint32_t first;
    int64_t key = rec.ctx == PB_NONE ? -1 : (int64_t)rec.ctx;
    if (pbi_idmap_get(seen, key, &first)) return OTHER; /* repeated: an error or a lenient merge */
    if (pbi_idmap_put(seen, key, (uint32_t)i)) return PB_ENOMEM;
    size_t ri = 0;
    rc = pb_profile_add_record(s->p, &rec, &ri, &s->e);
    return rc ? model_failed(rc) : 0;
}

static int read_section(sreader *s, const pbi_iprof_section *sec) {
    pbi_idmap seen = PBI_IDMAP_INIT;
    int rc = array_open(s);
    if (rc) return rc == 1 ? 0 : rc;
    if (sec->kind == PB_REC_JAVA_INSTANCEOF && !s->allow_instanceof) return OTHER;
    for (size_t i = 0;; i++) {
        if ((rc = read_entry(s, sec, &seen, i))) break;
        if ((rc = array_next(s)) == 1) {
            rc = 0;
            break;
        }
        if (rc) break;
    }
    pbi_idmap_free(&seen);
    return rc;
}

/* ---- top level ---------------------------------------------------------------------- */

static int read_version(sreader *s) {
    int rc = expect(s, '"');
    if (rc || (rc = read_string(s, &s->str))) return rc;
    const pbi_iprof_version *row = pbi_iprof_version_find(s->str.p, s->str.len);
    if (!row || row->layout == PBI_IPROF_LEGACY) return OTHER;
    memcpy(s->version, row->text, strlen(row->text) + 1);
    s->allow_instanceof = row->has_instanceof;
    return 0;
}

/* Index of a section key in pbi_iprof_sections (both instanceof spellings), or -1. */
static int section_of(const sreader *s) {
    for (size_t i = 0; i < pbi_iprof_section_count; i++)
        if (key_is(s, pbi_iprof_sections[i].key)) return (int)i;
    return key_is(s, "instanceofProfiles") ? (int)pbi_iprof_section_count - 1 : -1;
}

static int read_members(sreader *s) {
    enum { NONE, VERSION, TYPES, METHODS } stage = NONE;
    int last_section = -1, rc;
    int c = next(s);
    if (c != '{') return c < 0 ? stop(s) : OTHER;
    c = next(s);
    if (c != '"') return c < 0 ? stop(s) : OTHER;
    s->pos--;
    for (;;) {
        if ((rc = read_key(s))) return rc;
        int sec = section_of(s);
        if (key_is(s, "version")) {
            if (stage != NONE) return OTHER;
            stage = VERSION;
            rc = read_version(s);
        } else if (key_is(s, "types")) {
            if (stage != VERSION) return OTHER;
            stage = TYPES;
            if (!(rc = read_types(s)) && pbi_idmap_dense(&s->types, &s->tdense, &s->ntdense))
                rc = PB_ENOMEM;
        } else if (key_is(s, "methods")) {
            if (stage != TYPES) return OTHER;
            stage = METHODS;
            if (!(rc = read_methods(s)) && pbi_idmap_dense(&s->methods, &s->mdense, &s->nmdense))
                rc = PB_ENOMEM;
        } else if (sec >= 0) {
            /* in table order, each once (a second instanceof spelling too) */
            if (stage != METHODS || sec <= last_section) return OTHER;
            last_section = sec;
            rc = read_section(s, &pbi_iprof_sections[sec]);
        } else {
            rc = read_extra(s);
        }
        if (rc) return rc;
        if ((rc = member_end(s)) == 1) break;
        if (rc) return rc;
    }
    if (stage != METHODS) return OTHER;
    c = next(s);
    if (c >= 0) return OTHER; /* jansson: end of file expected */
    return s->failed;
}

/* The profile-wide facts, in iprof_read.c's read_facts order. */
static int read_facts(sreader *s) {
    pb_profile_set_flags(s->p, PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    pb_origin origin;
    memset(&origin, 0, sizeof origin);
    memcpy(origin.format, "iprof", sizeof "iprof");
    origin.version = pbi_iprof_version_number(s->version, strlen(s->version));
    pb_profile_set_origin(s->p, &origin);
    int rc = pb_profile_set_prop(s->p, "iprof.version", s->version, strlen(s->version), &s->e);
    if (rc) return model_failed(rc);
    for (size_t i = 0; i < s->nextras; i++) {
        const extra *x = &s->extras[i];
        size_t pk_len = x->key_len + sizeof "iprof.extra.";
        char *pk = malloc(pk_len);
        if (!pk) return PB_ENOMEM;
        memcpy(pk, "iprof.extra.", sizeof "iprof.extra." - 1);
        memcpy(pk + sizeof "iprof.extra." - 1, x->key, x->key_len + 1);
        rc = pb_profile_set_prop(s->p, pk, x->text, strlen(x->text), &s->e);
        free(pk);
        if (rc) return model_failed(rc);
    }
    return 0;
}

static void sreader_free(sreader *s) {
    free(s->buf);
    free(s->cap.p);
    free(s->key.p);
    free(s->str.p);
    pbi_idmap_free(&s->types);
    pbi_idmap_free(&s->methods);
    free(s->tdense);
    free(s->mdense);
    for (size_t i = 0; i < s->nextras; i++) {
        free(s->extras[i].key);
        free(s->extras[i].text);
    }
    free(s->ints);
    free(s->sig);
    free(s->cf);
    free(s->frames);
    free(s->counters);
    free(s->layout);
    free(s->values);
}

int pbi_iprof_stream_read(pb_profile **out, pb_source *in, pb_error *err) {
    sreader *s = calloc(1, sizeof *s);
    int rc;
    *out = NULL;
    if (!s) goto nomem;
    s->in = in;
    pb_error_clear(&s->e);
    s->buf = malloc(WINDOW);
    if (!s->buf) {
        free(s);
        goto nomem;
    }
    /* a UTF-8 byte order mark is skipped, as the tree reader does */
    const uint8_t *head = NULL;
    size_t head_len = 0;
    if ((rc = pb_source_peek(in, &head, &head_len, &s->e))) {
        rc = model_failed(rc);
    } else if (head_len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF) {
        size_t got = 0;
        uint8_t bom[3];
        rc = pb_source_read(in, bom, 3, &got, &s->e);
        if (rc) rc = model_failed(rc);
    }
    if (!rc) rc = pb_profile_new(&s->p, &s->e);
    if (!rc) rc = read_members(s);
    if (!rc) rc = read_facts(s);
    if (!rc && (rc = pb_profile_canonicalize(s->p, &s->e))) rc = model_failed(rc);
    if (rc == PB_ENOMEM && err) {
        if (s->e.code == PB_ENOMEM) *err = s->e;
        else pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory reading iprof");
        pb_error_set_source(err, pb_source_name(in));
    }
    if (rc) pb_profile_free(s->p);
    else *out = s->p;
    sreader_free(s);
    free(s);
    return rc;
nomem:
    return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory reading iprof");
}
