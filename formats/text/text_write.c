/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * text_write.c -- writes .proftext byte for byte as `llvm-profdata merge
 * --text` of the target LLVM release does (spec §5.1-§5.3): flag lines,
 * temporal block, records sorted by (name bytes, hash), counters, bitmap
 * bytes, value kinds with names. What differs between releases is a
 * PBI_LLVM_FEATURES row (src/llvm/target.h, TEXT_*); what the release's text
 * reader would reject is left out with a notice naming the release.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/bytes.h"
#include "model/write_notice.h"
#include "util/diag.h"
#include "llvm/target.h"
#include "model/options.h"
#include "llvm/llvm_values.h"
#include "model/profile_records.h"
#include "text_internal.h"
#include "util/grow.h"

typedef struct trec {
    const char *name;
    size_t len;
    uint64_t hash;
    size_t idx;
} trec;

typedef struct twriter {
    const pb_profile *p;
    const pb_write_options *o;
    pb_sink *sink;
    pb_buf b;
    pbi_llvm_target t;
    int keep_names; /* name symbols (vtables, non-record targets) */
    int sparse;
    pb_value *vals;
    size_t vals_cap;
    uint8_t *dropped; /* per record index: left out by sparse (then no name for targets) */
    uint64_t dropped_kind2, dropped_bitmaps, truncated, skipped_empty;
    uint64_t unnamed; /* values written as PBI_TEXT_EXTERNAL: their value is lost */
    int last_had_values; /* the record written last has value kinds (see reads_as_count) */
    size_t cur; /* the record being written (model index), for messages */
} twriter;

/* Notices about dropped data go to the caller's diag (src/util/diag.h). */
#define notice(w, ...) pbi_write_notice((w)->o, __VA_ARGS__)

/* The first release whose text has feature f: what a notice suggests. */
static int first_with(enum pbi_llvm_feature f) {
    for (int r = PBI_LLVM_MIN; r <= PBI_LLVM_MAX; r++) {
        pbi_llvm_target t;
        if (pbi_llvm_target_of(r, &t) == 0 && pbi_llvm_has(&t, f)) return r;
    }
    return PBI_LLVM_MAX;
}

static int flag_on(const pb_write_options *o, const char *key, int dflt) {
    const char *v = o ? pb_kv_get(o->kv, o->nkv, key) : NULL;
    if (!v) return dflt;
    return !(strcmp(v, "0") == 0 || strcmp(v, "false") == 0 || strcmp(v, "no") == 0);
}

static int flush(twriter *w, int force, pb_error *err) {
    if (w->b.failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (!force && w->b.len < 65536) return 0;
    int rc = pb_sink_write(w->sink, w->b.data, w->b.len, err);
    pbu_buf_reset(&w->b);
    return rc;
}

static int cmp_trec(const void *x, const void *y) {
    const trec *a = x, *b = y;
    int c = pbu_bytes_cmp(a->name, a->len, b->name, b->len);
    if (c) return c;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The name LLVM's writer symtab gives a target: record names always, other
 * names (vtables, non-record targets) only when they are kept. */
static const char *target_name(const twriter *w, const pb_value *v, size_t *len) {
    if (v->value == 0) return NULL;
    size_t idx;
    const char *name;
    uint64_t hash;
    if (pb_profile_lookup_ref(w->p, v->value, &idx, 1) > 0) {
        /* LLVM's writer symtab holds only the names it writes (not those
         * --sparse left out). */
        if (!(w->dropped && w->dropped[idx]) &&
            pb_profile_record_name(w->p, pb_profile_record(w->p, idx), &name, len, &hash, NULL) == 0)
            return name;
        if (!w->keep_names) return NULL;
        uint32_t sym;
        if (pb_profile_find_symbol_md5(w->p, v->value, &sym) == 0) {
            const pb_symbol *s = pb_profile_symbol(w->p, sym);
            if (s && s->name != PB_NONE) return pb_profile_str(w->p, s->name, len);
        }
        return NULL;
    }
    if (!w->keep_names) return NULL;
    return pbi_llvm_value_name(w->p, v, len);
}

static void header(twriter *w) {
    uint64_t f = pb_profile_flags(w->p);
    if (f & PB_VARIANT_CSIR) pbu_buf_puts(&w->b, "# CSIR level Instrumentation Flag\n:csir\n");
    else if (f & PB_VARIANT_IR) pbu_buf_puts(&w->b, "# IR level Instrumentation Flag\n:ir\n");
    if (f & PB_VARIANT_ENTRY_FIRST) pbu_buf_puts(&w->b, "# Always instrument the function entry block\n:entry_first\n");
    if (f & PB_VARIANT_INSTR_LOOP_ENTRIES) {
        if (pbi_llvm_has(&w->t, PBI_LF_TEXT_LOOP_ENTRIES))
            pbu_buf_puts(&w->b, "# Always instrument the loop entry blocks\n:instrument_loop_entries\n");
        else
            notice(w, "loop-entries flag not written: LLVM %d's text format has no line for it (LLVM release %d has)",
                   w->t.release, first_with(PBI_LF_TEXT_LOOP_ENTRIES));
    }
    if (f & PB_VARIANT_BYTE_COVERAGE) {
        if (pbi_llvm_has(&w->t, PBI_LF_TEXT_BYTE_COVERAGE))
            pbu_buf_puts(&w->b, "# Instrument block coverage\n:single_byte_coverage\n");
        else
            notice(w, "single-byte-coverage flag not written: LLVM %d's text format has no line for it (LLVM release %d has)",
                   w->t.release, first_with(PBI_LF_TEXT_BYTE_COVERAGE));
    }
    if (f & (PB_VARIANT_FUNCTION_ENTRY_ONLY | PB_VARIANT_MEMPROF))
        notice(w, "function-entry-only / MemProf flags are not represented in text (as in LLVM)");
    if ((f & PB_VARIANT_TEMPORAL) && pbi_llvm_has(&w->t, PBI_LF_TEXT_TEMPORAL)) {
        size_t n = pb_profile_trace_count(w->p);
        pbu_buf_puts(&w->b, ":temporal_prof_traces\n# Num Temporal Profile Traces:\n");
        pbu_buf_put_u64(&w->b, n);
        pbu_buf_puts(&w->b, "\n# Temporal Profile Trace Stream Size:\n");
        pbu_buf_put_u64(&w->b, pb_profile_trace_stream_size(w->p));
        pbu_buf_putc(&w->b, '\n');
        for (size_t t = 0; t < n; t++) {
            uint64_t weight;
            size_t len;
            const uint64_t *refs = pb_profile_trace(w->p, t, &weight, &len);
            pbu_buf_puts(&w->b, "# Weight:\n");
            pbu_buf_put_u64(&w->b, weight);
            pbu_buf_putc(&w->b, '\n');
            for (size_t i = 0; i < len; i++) {
                pb_value v = {refs[i], 0, PB_NONE};
                size_t nl = 0;
                const char *name = target_name(w, &v, &nl);
                if (name) pbu_buf_append(&w->b, name, nl); /* unknown: empty, as LLVM */
                pbu_buf_putc(&w->b, ',');
            }
            /* A trace without functions: an empty line would be skipped as
             * blank and the next record's name read as this trace (found
             * by fuzz_text_readback); "," reads back as no functions. */
            if (len == 0) pbu_buf_putc(&w->b, ',');
            pbu_buf_putc(&w->b, '\n');
        }
        pbu_buf_putc(&w->b, '\n');
    } else if (pb_profile_trace_count(w->p) || (f & PB_VARIANT_TEMPORAL)) {
        if (!pbi_llvm_has(&w->t, PBI_LF_TEXT_TEMPORAL))
            notice(w, "%zu temporal traces not written: LLVM %d's text format has none (LLVM release %d has)",
                   pb_profile_trace_count(w->p), w->t.release, first_with(PBI_LF_TEXT_TEMPORAL));
        else
            notice(w, "%zu temporal traces not written: the profile lacks the temporal flag",
                   pb_profile_trace_count(w->p));
    }
}

/* 1 if a name can be a line of the text format (a record's name line, or a
 * value target before ":count"): no line break, no NUL, and for a record's
 * line neither empty nor starting with '#' (a comment). */
static int text_name_ok(const char *s, size_t n, int record_line) {
    if (record_line && (n == 0 || s[0] == '#')) return 0;
    return !memchr(s, '\n', n) && !memchr(s, '\r', n) && !memchr(s, 0, n);
}

/* 1 if LLVM's reader takes the line for a count: decimal digits only, within
 * 32 bits (StringRef::getAsInteger into a uint32_t). After a record without
 * value data the reader reads its next line as that record's number of value
 * kinds, so a record so named cannot follow one (found by fuzz_text_readback). */
static int reads_as_count(const char *s, size_t n) {
    uint64_t v = 0;
    if (n == 0 || n > 10) return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    return v <= UINT32_MAX;
}

/* The refusal of a name the text format cannot hold. */
static int bad_name(size_t idx, const char *what, const char *s, size_t n, pb_error *err) {
    char shown[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 5 < sizeof shown; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f) k += (size_t)snprintf(shown + k, sizeof shown - k, "\\x%02x", ch);
        else shown[k++] = (char)ch;
    }
    shown[k] = 0;
    return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                        "%s %zu: the name \"%s\" cannot be written as text (empty, starting with '#' (or ':' "
                        "for the first record), holding a line break or NUL, or a number after a record without "
                        "value data: LLVM's text reader would not read it back)",
                        what, idx, shown);
}

static int values(twriter *w, const pb_record *r, pb_error *err) {
    static const char *const kind_names[PB_VK_COUNT] = {"IPVK_IndirectCallTarget", "IPVK_MemOPSize",
                                                        "IPVK_VTableTarget"};
    int maxk = pbi_llvm_has(&w->t, PBI_LF_TEXT_VTABLE_SITES) ? 2 : 1;
    uint32_t nk = 0;
    for (int k = 0; k < PB_VK_COUNT; k++)
        if (r->num_sites[k]) {
            if (k > maxk) w->dropped_kind2 += r->num_sites[k];
            else nk++;
        }
    w->last_had_values = nk != 0;
    if (!nk) {
        pbu_buf_putc(&w->b, '\n');
        return 0;
    }
    pbu_buf_puts(&w->b, "# Num Value Kinds:\n");
    pbu_buf_put_u64(&w->b, nk);
    pbu_buf_putc(&w->b, '\n');
    for (int k = 0; k <= maxk; k++) {
        uint32_t ns = r->num_sites[k];
        if (!ns) continue;
        pbu_buf_printf(&w->b, "# ValueKind = %s:\n%d\n# NumValueSites:\n%" PRIu32 "\n", kind_names[k], k, ns);
        for (uint32_t s = 0; s < ns; s++) {
            const pb_site *site = &r->sites[k][s];
            int rc = pbu_grow_err((void **)&w->vals, &w->vals_cap, site->num_values, sizeof *w->vals, err);
            if (rc) return rc;
            size_t kept = pbi_llvm_sort_site(site, w->vals, PB_MAX_VALUES_PER_SITE_LLVM);
            w->truncated += site->num_values - kept;
            pbu_buf_put_u64(&w->b, kept);
            pbu_buf_putc(&w->b, '\n');
            for (size_t i = 0; i < kept; i++) {
                const pb_value *v = &w->vals[i];
                if (k == PB_VK_MEMOP_SIZE) {
                    pbu_buf_put_u64(&w->b, v->value);
                } else {
                    size_t nl = 0;
                    const char *name = target_name(w, v, &nl);
                    if (name && !text_name_ok(name, nl, 0)) return bad_name(w->cur, "a value target of record", name, nl, err);
                    if (name) pbu_buf_append(&w->b, name, nl);
                    else {
                        pbu_buf_puts(&w->b, PBI_TEXT_EXTERNAL);
                        if (v->value) w->unnamed++; /* 0 reads back as 0 */
                    }
                }
                pbu_buf_putc(&w->b, ':');
                pbu_buf_put_u64(&w->b, v->count);
                pbu_buf_putc(&w->b, '\n');
            }
        }
    }
    pbu_buf_putc(&w->b, '\n');
    return 0;
}

static int all_zero(const pb_record *r) {
    for (uint32_t i = 0; i < r->num_counters; i++)
        if (r->counters[i]) return 0;
    for (uint32_t i = 0; i < r->num_bitmap_bytes; i++)
        if (r->bitmap[i]) return 0;
    return 1;
}

/* The records with counters, with their names, in *recs (*m of them) sorted as LLVM writes them. */
static int collect(twriter *w, trec **recs, size_t *m, pb_error *err) {
    const pb_profile *p = w->p;
    size_t n = pb_profile_record_count(p);
    *m = 0;
    *recs = calloc(n ? n : 1, sizeof **recs);
    /* value names are looked up by NameRef: an index that cannot be built
     * must fail the write, not print the values as numbers */
    if (!*recs || pbi_profile_build_lookup(p))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    trec *t = *recs;
    for (size_t i = 0; i < n; i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (r->num_counters == 0) {
            w->skipped_empty++;
            continue;
        }
        int rc = pb_profile_record_name(p, r, &t[*m].name, &t[*m].len, &t[*m].hash, err);
        if (rc) return rc;
        t[*m].idx = i;
        (*m)++;
    }
    qsort(t, *m, sizeof *t, cmp_trec);
    return 0;
}

/* The end of the run of records named as recs[i] (they are sorted by name). */
static size_t same_name_end(const trec *recs, size_t m, size_t i) {
    size_t j = i + 1;
    while (j < m && pbu_bytes_cmp(recs[i].name, recs[i].len, recs[j].name, recs[j].len) == 0) j++;
    return j;
}

/* --sparse: marks in w->dropped the records of every name whose records are all zero. */
static int mark_sparse(twriter *w, const trec *recs, size_t m, pb_error *err) {
    size_t n = pb_profile_record_count(w->p);
    w->dropped = calloc(n ? n : 1, 1);
    if (!w->dropped) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < m;) {
        size_t j = same_name_end(recs, m, i);
        int zero = 1;
        for (size_t k = i; k < j && zero; k++) zero = all_zero(pb_profile_record(w->p, recs[k].idx));
        for (size_t k = i; k < j; k++) w->dropped[recs[k].idx] = (uint8_t)zero;
        i = j;
    }
    return 0;
}

/* The bitmap lines the target writes for r (LLVM 24 writes the count even without a bitmap). */
static void put_bitmap(twriter *w, const pb_record *r) {
    if (!r->num_bitmap_bytes && pbi_llvm_has(&w->t, PBI_LF_TEXT_BITMAP_ALWAYS)) {
        /* LLVM 24: the count line even without bitmap, nothing after it */
        pbu_buf_puts(&w->b, "# Num Bitmap Bytes:\n$0\n");
    } else if (r->num_bitmap_bytes && pbi_llvm_has(&w->t, PBI_LF_TEXT_BITMAP)) {
        pbu_buf_puts(&w->b, "# Num Bitmap Bytes:\n$");
        pbu_buf_put_u64(&w->b, r->num_bitmap_bytes);
        pbu_buf_puts(&w->b, "\n# Bitmap Byte Values:\n");
        for (uint32_t b = 0; b < r->num_bitmap_bytes; b++) pbu_buf_printf(&w->b, "0x%x\n", r->bitmap[b]);
        pbu_buf_putc(&w->b, '\n');
    } else if (r->num_bitmap_bytes) {
        w->dropped_bitmaps++;
    }
}

/* One record: name, hash, counters, bitmap, value sites; flushed when the buffer is full. */
static int put_record(twriter *w, const trec *t, pb_error *err) {
    const pb_record *r = pb_profile_record(w->p, t->idx);
    pbu_buf_append(&w->b, t->name, t->len);
    pbu_buf_puts(&w->b, "\n# Func Hash:\n");
    pbu_buf_put_u64(&w->b, t->hash);
    pbu_buf_puts(&w->b, "\n# Num Counters:\n");
    pbu_buf_put_u64(&w->b, r->num_counters);
    pbu_buf_puts(&w->b, "\n# Counter Values:\n");
    for (uint32_t c = 0; c < r->num_counters; c++) {
        pbu_buf_put_u64(&w->b, r->counters[c]);
        pbu_buf_putc(&w->b, '\n');
    }
    put_bitmap(w, r);
    w->cur = t->idx;
    int rc = values(w, r, err);
    return rc ? rc : flush(w, 0, err);
}

/* The records, one name after another, after the header. */
static int put_records(twriter *w, const trec *recs, size_t m, pb_error *err) {
    int wrote_any = 0, rc;
    for (size_t i = 0; i < m;) {
        size_t j = same_name_end(recs, m, i);
        if (w->dropped && w->dropped[recs[i].idx]) {
            i = j;
            continue;
        }
        /* LLVM's reader skips empty and '#' lines, splits at line breaks and
         * stops at a NUL: such a name cannot come back (LLVM writes it anyway,
         * giving a file no reader reads as written). Refuse, naming it. */
        /* the first record's name must not start with ':' either: the reader
         * takes leading ':' lines for header lines (found by fuzz_text_readback) */
        if (!text_name_ok(recs[i].name, recs[i].len, 1) || (!wrote_any && recs[i].name[0] == ':'))
            return bad_name(recs[i].idx, "record", recs[i].name, recs[i].len, err);
        for (size_t k = i; k < j; k++) {
            /* checked per record: a second record of the name follows the first */
            if (wrote_any && !w->last_had_values && reads_as_count(recs[k].name, recs[k].len))
                return bad_name(recs[k].idx, "record", recs[k].name, recs[k].len, err);
            wrote_any = 1;
            if ((rc = put_record(w, &recs[k], err))) return rc;
        }
        i = j;
    }
    return flush(w, 1, err);
}

/* What the target could not hold, one notice per kind of loss. */
static void dropped_notices(twriter *w) {
    if (w->dropped_kind2)
        notice(w, "%" PRIu64 " vtable value sites (kind 2) left out: LLVM %d rejects them (LLVM release %d keeps them)",
               w->dropped_kind2, w->t.release, first_with(PBI_LF_TEXT_VTABLE_SITES));
    if (w->dropped_bitmaps)
        notice(w, "bitmaps of %" PRIu64 " records left out: LLVM %d's text format has none (LLVM release %d has)",
               w->dropped_bitmaps, w->t.release, first_with(PBI_LF_TEXT_BITMAP));
    if (w->truncated) notice(w, "%" PRIu64 " values beyond 255 per site left out (LLVM's limit)", w->truncated);
    if (w->skipped_empty) notice(w, "%" PRIu64 " records without counters left out", w->skipped_empty);
    /* as llvm-profdata writes them, and it loses them the same way */
    if (w->unnamed)
        notice(w, "%" PRIu64 " values whose target has no name written as '" PBI_TEXT_EXTERNAL "' (as llvm-profdata "
                  "writes them); they read back as 0", w->unnamed);
}

int pbi_text_write(const pb_profile *p, pb_sink *sink, const pb_write_options *o, pb_error *err) {
    twriter w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.o = o;
    w.sink = sink;
    int rc = pbi_llvm_target_for(pbi_write_release(o), &w.t, err);
    if (rc) return rc;
    w.keep_names = flag_on(o, "keep-vtable-symbols", 1) && !flag_on(o, "no-keep-vtable-symbols", 0);
    w.sparse = flag_on(o, "sparse", 0);
    trec *recs = NULL;
    size_t m = 0;
    if ((rc = collect(&w, &recs, &m, err)) == 0 && (!w.sparse || (rc = mark_sparse(&w, recs, m, err)) == 0)) {
        header(&w);
        if ((rc = put_records(&w, recs, m, err)) == 0) dropped_notices(&w);
    }
    free(recs);
    free(w.dropped);
    free(w.vals);
    pbu_buf_free(&w.b);
    return rc;
}
