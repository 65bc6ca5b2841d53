/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_dump.c -- explains the bytes of a raw profile: every header field
 * (offset, raw bytes, value, meaning), the section table, each data record's
 * fields with the CounterPtr arithmetic written out in numbers, its counters
 * and name, the names, vtables, value data and binary ids. Text or JSON.
 *
 * The dump walks the file itself, bounds-checking every read, and runs the
 * reader first: on a broken file it prints what lies before the reader's
 * first problem, then the problem.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "llvm/binary_ids.h"
#include "llvm/value_data.h"
#include "raw_internal.h"
#include "raw_sections.h"
#include "util/escape.h"
#include "util/json_text.h"
#include "util/report_version.h"

typedef struct em {
    pb_buf b;
    int json;
    int first_sec, first_item;
    uint64_t stop; /* offset of the reader's first problem, or UINT64_MAX */
    int stopped;
    int nostop; /* computed entries (section table): not positions in the input */
    int nomem;  /* an allocation failed: the dump would be incomplete, so none is written */
    const pbi_raw_field *row; /* layout-table row of the next item (its versions), or NULL */
} em;

/* The raw versions a field exists in, from the layout table: "v5+" or "v9-v10". */
static void versions(const pbi_raw_field *f, char *buf, size_t cap) {
    if (f->until == PBI_RAW_UNTIL_NOW) snprintf(buf, cap, "v%u+", f->since);
    else snprintf(buf, cap, "v%u-v%u", f->since, f->until);
}

/* Texts are UTF-8 with U+FFFD for bytes that are not (json_text.h's rule). */
static void jstr(pb_buf *b, const char *s, size_t n) {
    pbu_json_put_text(b, s, n);
}

static void sec(em *e, const char *title, ...) PB_PRINTF(2, 3);
static void sec(em *e, const char *title, ...) {
    char t[256];
    va_list ap;
    va_start(ap, title);
    vsnprintf(t, sizeof t, title, ap);
    va_end(ap);
    if (e->json) {
        pbu_buf_puts(&e->b, e->first_sec ? "\n  {\"section\": " : "]},\n  {\"section\": ");
        jstr(&e->b, t, strlen(t));
        pbu_buf_puts(&e->b, ", \"items\": [");
    } else {
        pbu_buf_printf(&e->b, "%s%s:\n", e->first_sec ? "" : "\n", t);
    }
    e->first_sec = 0;
    e->first_item = 1;
}

/* One item: bytes at `off` (n of them, may be 0), a field name, its value, a note. */
static int item(em *e, const uint8_t *d, uint64_t off, size_t n, const char *field, const char *fmt, ...)
    PB_PRINTF(6, 7);
static int item(em *e, const uint8_t *d, uint64_t off, size_t n, const char *field, const char *fmt, ...) {
    if (e->stopped) return -1;
    if (off >= e->stop && !e->nostop) { /* the reader failed here: stop explaining */
        e->stopped = 1;
        return -1;
    }
    char v[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    char hex[3 * 16 + 4] = "";
    size_t shown = n > 16 ? 16 : n, k = 0;
    for (size_t i = 0; i < shown; i++) k += (size_t)snprintf(hex + k, sizeof hex - k, "%s%02x", i ? " " : "", d[off + i]);
    if (n > 16) snprintf(hex + k, sizeof hex - k, " ..");
    const pbi_raw_field *row = e->row;
    e->row = NULL;
    char vers[24] = "";
    if (row) versions(row, vers, sizeof vers);
    if (e->json) {
        pbu_buf_printf(&e->b, "%s\n    {\"offset\": %" PRIu64 ", \"bytes\": \"%s\", \"field\": ", e->first_item ? "" : ",",
                       off, hex);
        jstr(&e->b, field, strlen(field));
        pbu_buf_puts(&e->b, ", ");
        pbu_json_put_text_member(&e->b, "value", v, strlen(v), PBU_JSON_HEX_SUFFIX); /* may hold a name */
        if (row) {
            pbu_buf_printf(&e->b, ", \"since\": %u, \"until\": ", row->since);
            if (row->until == PBI_RAW_UNTIL_NOW) pbu_buf_puts(&e->b, "null");
            else pbu_buf_printf(&e->b, "%u", row->until);
        }
        pbu_buf_putc(&e->b, '}');
    } else {
        /* the value may hold a name: escape.h's terminal rule */
        pbu_buf_printf(&e->b, "  0x%06" PRIx64 "  %-24s %-26s ", off, hex, field);
        pbu_esc_term(&e->b, v, strlen(v));
        if (row) pbu_buf_printf(&e->b, "  [%s]", vers);
        pbu_buf_putc(&e->b, '\n');
    }
    e->first_item = 0;
    return 0;
}

static int have(uint64_t len, uint64_t off, uint64_t n) { return off <= len && n <= len - off; }

static const char *flag_names(uint64_t f, char *buf, size_t cap) {
    static const struct { uint64_t bit; const char *name; } names[] = {
        {PB_VARIANT_INSTR_LOOP_ENTRIES, "loop-entries"}, {PB_VARIANT_IR, "IR"}, {PB_VARIANT_CSIR, "CS-IR"},
        {PB_VARIANT_ENTRY_FIRST, "entry-first"}, {PB_VARIANT_DBG_CORRELATE, "debug-info-correlate"},
        {PB_VARIANT_BYTE_COVERAGE, "byte-coverage"}, {PB_VARIANT_FUNCTION_ENTRY_ONLY, "function-entry-only"},
        {PB_VARIANT_MEMPROF, "memprof"}, {PB_VARIANT_TEMPORAL, "temporal"}};
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (f & names[i].bit) k += (size_t)snprintf(buf + k, cap - k, "%s%s", k ? "," : "", names[i].name);
    if (!k) snprintf(buf, cap, "front-end");
    return buf;
}

/* Names blob as a list of names (decoded with the reader's codec). */
static void dump_names(em *e, const uint8_t *d, uint64_t len, uint64_t off, uint64_t size, const char *what) {
    if (!size || !have(len, off, size)) return;
    /* the chunks (§2.9), walked by the codec the reader uses */
    size_t pos = 0;
    pbi_names_chunk c;
    pb_error cerr;
    pb_error_clear(&cerr);
    for (uint64_t k = 0; pbi_names_next_chunk(d + off, (size_t)size, &pos, &c, off, what, &cerr) == 1; k++) {
        char f[48];
        snprintf(f, sizeof f, "%s chunk %" PRIu64, what, k);
        if (c.clen)
            item(e, d, off + c.at, c.data - c.at, f, "%" PRIu64 " bytes of names, zlib-compressed in %" PRIu64,
                 c.ulen, c.clen);
        else
            item(e, d, off + c.at, c.data - c.at, f, "%" PRIu64 " bytes of names, stored plain", c.ulen);
    }
    pb_buf text = PB_BUF_INIT;
    pb_error err;
    pb_error_clear(&err);
    int nrc = pbi_names_decode_text(d + off, (size_t)size, off, what, &text, &err);
    if (nrc == PB_ENOMEM) e->nomem = 1;
    if (nrc == 0) {
        size_t start = 0, idx = 0;
        for (size_t i = 0; i < text.len; i++) {
            if (text.data[i] != PBI_NAME_SEP) continue;
            char f[32];
            snprintf(f, sizeof f, "%s[%zu]", what, idx++);
            char nm[512];
            snprintf(nm, sizeof nm, "%.*s (NameRef 0x%016" PRIx64 ")", (int)(i - start > 400 ? 400 : i - start),
                     text.data + start, pb_md5_ref(text.data + start, i - start));
            item(e, d, off, 0, f, "%s", nm);
            start = i + 1;
        }
    }
    pbu_buf_free(&text);
}

typedef struct bid_ctx {
    em *e;
    const uint8_t *d;
    unsigned k;
} bid_ctx;

/* One binary id; returns 1 to stop where the reader's problem is. */
static int dump_binary_id(void *ctx, const uint8_t *id, size_t n, uint64_t at, pb_error *err) {
    bid_ctx *c = ctx;
    (void)err;
    char hex[2 * 64 + 4] = "", f[32];
    for (size_t b = 0; b < n && b < 64; b++) snprintf(hex + 2 * b, 3, "%02x", id[b]);
    snprintf(f, sizeof f, "binary_ids[%u]", c->k++);
    return item(c->e, c->d, at, 8 + n, f, "length %zu: %s", n, hex) ? 1 : 0;
}

/* One profile of the file as the dump walks it: its place, its layout and
 * header, the section table, and what later sections need from earlier ones. */
typedef struct prof {
    em *e;
    const uint8_t *d;
    uint64_t len;      /* of the whole input */
    uint64_t s;        /* the profile's first byte */
    int order;
    unsigned ptr;
    uint64_t version;
    pbi_raw_layout l;
    pbi_raw_header hd;
    const uint64_t *h; /* hd.f */
    pbi_raw_sections st;
    uint64_t nd;       /* data records in the file: 0 when they lie past its end */
    int absolute;      /* v5's and (sometimes) v7's counter-pointer rule */
    pb_buf names;      /* the decoded names, so records can show theirs */
} prof;

/* The header's fields in layout-table order, each with its versions. */
static void dump_header(prof *p) {
    em *e = p->e;
    const uint64_t *h = p->h;
    char fl[160];
    sec(e, "header");
    /* The whole header is in the file (checked above), and a problem found in
     * it is usually a size field whose value runs past the end: show every
     * field, the faulty one included, rather than stop at the error's offset. */
    e->nostop = 1;
    for (int i = 0; i < PBI_RH_COUNT; i++) {
        if (p->l.hdr_off[i] < 0) continue;
        const pbi_raw_field *f = &pbi_raw_header_fields[i];
        uint64_t at = p->s + (uint64_t)p->l.hdr_off[i];
        e->row = f;
        if (i == PBI_RH_Version)
            item(e, p->d, at, 8, f->name, "0x%016" PRIx64 " = version %" PRIu64 " | flags %s", h[i], p->version,
                 flag_names(h[PBI_RH_Version] & PB_VARIANT_MASK, fl, sizeof fl));
        else if (i == PBI_RH_CountersDelta || i == PBI_RH_BitmapDelta || i == PBI_RH_UniformCountersDelta)
            item(e, p->d, at, 8, f->name, "0x%" PRIx64 " (%" PRId64 ")  %s", h[i], pbi_raw_sdiff(h[i], 0, p->ptr),
                 f->meaning);
        else
            item(e, p->d, at, 8, f->name, "%" PRIu64 " (0x%" PRIx64 ")  %s", h[i], h[i], f->meaning);
    }
    e->nostop = 0;
}

/* The section table: the reader's walk, saturating at the file end. */
static void dump_sections(prof *p) {
    em *e = p->e;
    pb_error serr;
    pb_error_clear(&serr);
    (void)pbi_raw_sections_walk(&p->l, &p->hd, p->s, p->len, NULL, &p->st, &serr);
    const uint64_t *off = p->st.off, *size = p->st.size;
    sec(e, "sections");
    e->nostop = 1;
    for (int i = 0; i < PBI_RS_COUNT; i++) {
        int ok = have(p->len, off[i], size[i]);
        item(e, p->d, off[i] <= p->len ? off[i] : p->s, 0, pbi_raw_sec_names[i],
             "0x%" PRIx64 "..0x%" PRIx64 " (%" PRIu64 " bytes)%s", off[i], off[i] + size[i], size[i],
             ok ? "" : "  PAST THE END OF THE FILE");
    }
    e->nostop = 0;
}

/* Returns 1 where the reader's problem is (the dump stops there). */
static int dump_binary_ids(prof *p) {
    uint64_t off = p->st.off[PBI_RS_BINARY_IDS], size = p->st.size[PBI_RS_BINARY_IDS];
    if (!have(p->len, off, size) || !size) return 0;
    sec(p->e, "binary ids");
    pb_error berr;
    pb_error_clear(&berr);
    bid_ctx bc = {p->e, p->d, 0};
    return pbi_binary_ids_decode_p(p->d, off, off + size, p->order, p->version >= PBI_RAW_BINARY_IDS_PADDED_SINCE,
                                   "binary_ids", dump_binary_id, &bc, &berr) == 1;
}

/* The name whose MD5 is ref, from the decoded names: "?" when there is none. */
static void record_name(const pb_buf *names, uint64_t ref, const char **nm, size_t *nlen) {
    size_t start = 0;
    *nm = "?";
    *nlen = 1;
    for (size_t k = 0; k < names->len; k++) {
        if (names->data[k] != PBI_NAME_SEP) continue;
        if (pb_md5_ref(names->data + start, k - start) == ref) {
            *nm = names->data + start;
            *nlen = k - start;
            return;
        }
        start = k + 1;
    }
}

/* Record i's CounterPtr with its arithmetic written out, and the counters it points at. */
static int dump_counter_ptr(prof *p, uint64_t i, const uint8_t *r, uint64_t at, const char *f, uint64_t v) {
    const pbi_raw_layout *l = &p->l;
    const uint64_t *off = p->st.off, *size = p->st.size;
    unsigned csize = p->st.csize;
    uint64_t delta = pbi_raw_delta_at(l, p->h[PBI_RH_CountersDelta], i, p->absolute);
    int64_t co = pbi_raw_ptr_offset(l, v, p->h[PBI_RH_CountersDelta], i, p->absolute);
    uint64_t nc = pbi_raw_rec_get(l, r, PBI_RD_NumCounters, 0, p->order);
    char counts[400] = "";
    size_t q = 0;
    if (co >= 0 && have(size[PBI_RS_COUNTERS], (uint64_t)co, nc * csize) &&
        have(p->len, off[PBI_RS_COUNTERS], size[PBI_RS_COUNTERS]))
        for (uint64_t c = 0; c < nc && q + 24 < sizeof counts; c++) {
            uint64_t cv = csize == 1 ? p->d[off[PBI_RS_COUNTERS] + (uint64_t)co + c]
                                     : pb_get_u64(p->d + off[PBI_RS_COUNTERS] + (uint64_t)co + 8 * c, p->order);
            q += (size_t)snprintf(counts + q, sizeof counts - q, "%s%" PRIu64, c ? ", " : "", cv);
        }
    if (p->absolute)
        return item(p->e, p->d, at, l->ptr, f,
                    "0x%" PRIx64 ": offset = CounterPtr - CountersDelta = 0x%" PRIx64 " - 0x%" PRIx64 " = %" PRId64
                    " -> byte 0x%" PRIx64 ": [%s]",
                    v, v, delta, co, off[PBI_RS_COUNTERS] + (uint64_t)co, counts);
    return item(p->e, p->d, at, l->ptr, f,
                "0x%" PRIx64 ": offset = CounterPtr - (CountersDelta - %" PRIu64 " x %u) = %" PRId64 " - (%" PRId64
                ") = %" PRId64 " -> byte 0x%" PRIx64 ": [%s]",
                v, i, l->record_size, pbi_raw_sdiff(v, 0, p->ptr), pbi_raw_sdiff(delta, 0, p->ptr), co,
                off[PBI_RS_COUNTERS] + (uint64_t)co, counts);
}

/* One element (k) of field id of record i; returns nonzero to stop. */
static int dump_record_field(prof *p, uint64_t i, const uint8_t *r, int id, unsigned k) {
    const pbi_raw_layout *l = &p->l;
    const pbi_raw_field *fd = &pbi_raw_record_fields[id];
    uint64_t base = p->st.off[PBI_RS_DATA] + i * l->record_size;
    uint64_t at = base + (uint64_t)l->rec_off[id] + k * l->rec_elem[id];
    uint64_t v = pbi_raw_rec_get(l, r, id, k, p->order);
    char f[64];
    snprintf(f, sizeof f, "data[%" PRIu64 "].%s%s", i, fd->name, fd->count > 1 ? (k ? "[1]" : "[0]") : "");
    p->e->row = fd;
    if (id == PBI_RD_NameRef) {
        const char *nm;
        size_t nlen;
        record_name(&p->names, v, &nm, &nlen);
        return item(p->e, p->d, at, 8, f, "0x%016" PRIx64 " = %.*s", v, (int)(nlen > 300 ? 300 : nlen), nm);
    }
    if (id == PBI_RD_CounterPtr) return dump_counter_ptr(p, i, r, at, f, v);
    if (id == PBI_RD_BitmapPtr && pbi_raw_rec_get(l, r, PBI_RD_NumBitmapBytes, 0, p->order)) {
        int64_t bo = pbi_raw_ptr_offset(l, v, p->h[PBI_RH_BitmapDelta], i, 0);
        return item(p->e, p->d, at, l->ptr, f,
                    "0x%" PRIx64 ": offset = BitmapPtr - (BitmapDelta - %" PRIu64 " x %u) = %" PRId64
                    " -> byte 0x%" PRIx64,
                    v, i, l->record_size, bo, p->st.off[PBI_RS_BITMAP] + (uint64_t)bo);
    }
    return item(p->e, p->d, at, l->rec_elem[id], f, "%" PRIu64 " (0x%" PRIx64 ")  %s", v, v, fd->meaning);
}

/* The data records, field by field in layout-table order; returns nonzero to stop. */
static int dump_records(prof *p) {
    const pbi_raw_layout *l = &p->l;
    const uint64_t *off = p->st.off, *size = p->st.size;
    sec(p->e, "data records (%u bytes each)", l->record_size);
    p->nd = have(p->len, off[PBI_RS_DATA], size[PBI_RS_DATA]) ? p->h[PBI_RH_NumData] : 0;
    /* v7's counter-pointer rule, found as the reader finds it (§2.7) */
    /* nd == 0 when the data lie past the end: then d + off is not formed
     * (a pointer past the buffer is undefined: fuzz_raw, clang UBSan) */
    p->absolute = p->version == 5 ||
                  (p->version == 7 && p->nd &&
                   pbi_raw_v7_absolute(l, p->d + off[PBI_RS_DATA], p->nd, p->h[PBI_RH_CountersDelta],
                                       size[PBI_RS_COUNTERS], p->order) == 1);
    for (uint64_t i = 0; i < p->nd; i++) {
        const uint8_t *r = p->d + off[PBI_RS_DATA] + i * l->record_size;
        for (int id = 0; id < PBI_RD_COUNT; id++) {
            if (l->rec_off[id] < 0) continue;
            for (unsigned k = 0; k < pbi_raw_record_fields[id].count; k++)
                if (dump_record_field(p, i, r, id, k)) return 1;
        }
    }
    return 0;
}

/* v10+: the vtable records and their names; returns nonzero to stop. */
static int dump_vtables(prof *p) {
    const pbi_raw_layout *l = &p->l;
    uint64_t off = p->st.off[PBI_RS_VTABLES];
    sec(p->e, "vtables");
    for (uint64_t k = 0; have(p->len, off, p->st.size[PBI_RS_VTABLES]) && k < p->h[PBI_RH_NumVTables]; k++) {
        const uint8_t *v = p->d + off + k * l->vtable_size;
        char f[32];
        snprintf(f, sizeof f, "vtables[%" PRIu64 "]", k);
        p->e->row = &pbi_raw_vtable_fields[PBI_RV_VTableNameHash]; /* the record as a whole: v10+ */
        if (item(p->e, p->d, off + k * l->vtable_size, l->vtable_size, f,
                 "NameRef 0x%016" PRIx64 ", addresses 0x%" PRIx64 "..0x%" PRIx64,
                 pbi_raw_vt_get(l, v, PBI_RV_VTableNameHash, p->order),
                 pbi_raw_vt_get(l, v, PBI_RV_VTablePointer, p->order),
                 pbi_raw_vt_get(l, v, PBI_RV_VTablePointer, p->order) +
                     pbi_raw_vt_get(l, v, PBI_RV_VTableSize, p->order)))
            return 1;
    }
    dump_names(p->e, p->d, p->len, p->st.off[PBI_RS_VNAMES], p->st.size[PBI_RS_VNAMES], "vnames");
    return 0;
}

/* The NameRef of the record whose FunctionPointer is addr (an indirect
 * callee, §2.12), or 0 when no function of this profile has it. */
static uint64_t callee_ref(const prof *p, uint64_t addr) {
    for (uint64_t j = 0; j < p->nd && addr; j++) {
        const uint8_t *rj = p->d + p->st.off[PBI_RS_DATA] + j * p->l.record_size;
        if (pbi_raw_rec_get(&p->l, rj, PBI_RD_FunctionPointer, 0, p->order) == addr)
            return pbi_raw_rec_get(&p->l, rj, PBI_RD_NameRef, 0, p->order);
    }
    return 0;
}

/* One value kind of a record's value data: its header and its (value, count) pairs. */
static int dump_value_kind(prof *p, unsigned kind, const pbi_vpd_kind *kd, uint64_t q) {
    char f[48];
    snprintf(f, sizeof f, "  kind %u", kind);
    if (item(p->e, p->d, q, 8, f, "%s: %" PRIu32 " sites, %" PRIu64 " values",
             kind == 0 ? "indirect call" : kind == 1 ? "memop size" : "vtable", kd->num_sites, kd->num_values))
        return 1;
    for (uint64_t vi = 0; vi < kd->num_values; vi++) {
        uint64_t at = kd->values + 16 * vi;
        snprintf(f, sizeof f, "    value %" PRIu64, vi);
        uint64_t val = pb_get_u64(p->d + at, p->order), cnt = pb_get_u64(p->d + at + 8, p->order);
        int rc;
        if (kind == 1) {
            rc = item(p->e, p->d, at, 16, f, "size %" PRIu64 " x %" PRIu64, val, cnt);
        } else if (kind == 0) { /* the callee: the record whose FunctionPointer it is (§2.12) */
            uint64_t ref = callee_ref(p, val);
            rc = item(p->e, p->d, at, 16, f, "address 0x%" PRIx64 " -> NameRef 0x%016" PRIx64 "%s x %" PRIu64, val,
                      ref, ref ? "" : " (no function of this profile)", cnt);
        } else {
            rc = item(p->e, p->d, at, 16, f, "address 0x%" PRIx64 " x %" PRIu64, val, cnt);
        }
        if (rc) return 1;
    }
    return 0;
}

/* The value data, one block per record with value sites. Returns the offset
 * after the last block read, or len where the dump stops. */
static uint64_t dump_value_data(prof *p) {
    const pbi_raw_layout *l = &p->l;
    uint64_t len = p->len, vp = p->st.off[PBI_RS_VALUES];
    sec(p->e, "value data");
    for (uint64_t i = 0; i < p->nd && vp <= len; i++) {
        const uint8_t *r = p->d + p->st.off[PBI_RS_DATA] + i * l->record_size;
        unsigned any = 0;
        for (unsigned k = 0; k < l->num_value_kinds; k++) any |= pbi_raw_rec_sites(l, r, k, p->order);
        if (!any) continue;
        if (!have(len, vp, 8)) break;
        uint32_t total = pb_get_u32(p->d + vp, p->order), nk = pb_get_u32(p->d + vp + 4, p->order);
        char f[48];
        snprintf(f, sizeof f, "value_data[data %" PRIu64 "]", i);
        if (item(p->e, p->d, vp, 8, f, "TotalSize %" PRIu32 ", NumValueKinds %" PRIu32, total, nk)) return len;
        pbi_vpd v;
        pb_error verr;
        pb_error_clear(&verr);
        if (pbi_vpd_parse(p->d, vp, len, p->order, l->num_value_kinds, "value_data", &v, &verr)) break;
        for (uint64_t q = vp + 8; q < vp + v.total;) { /* the kinds in file order */
            unsigned kind = 0;
            while (kind < PB_VK_COUNT && !((v.present >> kind) & 1 && v.kind[kind].at == q)) kind++;
            if (kind == PB_VK_COUNT) break;
            if (dump_value_kind(p, kind, &v.kind[kind], q)) return len;
            q = v.kind[kind].values + 16 * v.kind[kind].num_values;
        }
        vp += v.total;
    }
    return vp;
}

/* Explains the profile at byte s, section by section; returns the offset
 * after it (where the next profile of the file may start), or len to stop. */
static uint64_t dump_profile(em *e, const uint8_t *d, uint64_t len, uint64_t s, unsigned idx, int order, unsigned ptr) {
    prof p;
    memset(&p, 0, sizeof p);
    p.e = e, p.d = d, p.len = len, p.s = s, p.order = order, p.ptr = ptr;
    p.version = len - s >= 16 ? pb_get_u64(d + s + 8, order) & 0xffffffffu : 0;
    if (pbi_raw_layout_get(&p.l, (unsigned)p.version, ptr) != 0 || !have(len, s, p.l.header_size)) {
        sec(e, "profile %u at 0x%" PRIx64, idx, s);
        item(e, d, s, len - s < 16 ? (size_t)(len - s) : 16, "header", "unreadable (version %" PRIu64 ")", p.version);
        return len;
    }
    pbi_raw_header_decode(&p.l, d + s, order, &p.hd);
    p.h = p.hd.f;
    sec(e, "profile %u at 0x%" PRIx64 ": raw v%" PRIu64 ", %u-bit, %s-endian, header %u bytes", idx, s, p.version,
        ptr * 8, order == PB_ORDER_LE ? "little" : "big", p.l.header_size);
    dump_header(&p);
    dump_sections(&p);
    if (dump_binary_ids(&p)) return len; /* the reader's problem is here */
    /* names first, so records can show theirs */
    pb_error nerr;
    pb_error_clear(&nerr);
    p.names = (pb_buf)PB_BUF_INIT;
    const uint64_t *off = p.st.off, *size = p.st.size;
    if (have(len, off[PBI_RS_NAMES], size[PBI_RS_NAMES]) &&
        pbi_names_decode_text(d + off[PBI_RS_NAMES], (size_t)size[PBI_RS_NAMES], off[PBI_RS_NAMES], "names", &p.names,
                              &nerr) == PB_ENOMEM)
        e->nomem = 1;
    int stop = dump_records(&p);
    pbu_buf_free(&p.names);
    if (stop) return len;
    sec(e, "names");
    dump_names(e, d, len, off[PBI_RS_NAMES], size[PBI_RS_NAMES], "names");
    if (p.l.version >= 10 && dump_vtables(&p)) return len;
    return dump_value_data(&p);
}

int pbi_raw_dump(pb_source *in, pb_sink *out, const pb_dump_options *o, pb_error *err) {
    const uint8_t *d;
    size_t len;
    int rc = pb_source_read_all(in, &d, &len, err);
    if (rc) return rc;
    em e;
    memset(&e, 0, sizeof e);
    e.json = o && o->json;
    e.first_sec = 1;
    e.stop = UINT64_MAX;
    /* raw-profile K selects a profile for reading; the dump explains them all */
    if (o && o->diag && pb_kv_get(o->kv, o->nkv, "raw-profile"))
        pb_diag(o->diag, o->diag_ctx, PB_DIAG_NOTICE, 0, pb_source_name(in), PB_NO_OFFSET, "raw-profile",
                "ignored by dump, which explains every profile of the file");
    /* the reader's verdict first: the dump stops at its first problem */
    pb_profile *p = NULL;
    pb_error rerr;
    pb_error_clear(&rerr);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    int rrc = pbi_raw_read_bytes(&p, d, len, &ro, &rerr);
    pb_profile_free(p);
    if (rrc) {
        pb_error_set_source(&rerr, pb_source_name(in));
        e.stop = rerr.offset == PB_NO_OFFSET ? 0 : rerr.offset;
    }
    if (e.json) pbu_buf_puts(&e.b, "{\"format_version\": \"" PBU_REPORT_DUMP_RAW "\", \"format\": \"raw\", \"sections\": [");
    int order;
    unsigned ptr;
    if (pbi_raw_magic(d, len, &order, &ptr)) {
        uint64_t pos = 0;
        for (unsigned idx = 0; pos < len && !e.stopped; idx++) {
            pos = dump_profile(&e, d, len, pos, idx, order, ptr);
            while (pos < len && d[pos] == 0) pos++;
            int o2;
            unsigned p2;
            if (pos >= len || pos % 8 || !pbi_raw_magic(d + pos, len - pos, &o2, &p2) || o2 != order || p2 != ptr) break;
        }
    }
    char msg[1024] = "";
    if (rrc) pb_error_format(&rerr, msg, sizeof msg);
    if (e.json) {
        pbu_buf_puts(&e.b, e.first_sec ? "]" : "]}]");
        pbu_buf_puts(&e.b, ", \"problem\": ");
        if (rrc) jstr(&e.b, msg, strlen(msg));
        else pbu_buf_puts(&e.b, "null");
        pbu_buf_puts(&e.b, "}\n");
    } else if (rrc) {
        pbu_buf_printf(&e.b, "\nproblem: %s\n", msg);
    }
    if (rrc == PB_ENOMEM) e.nomem = 1; /* the verdict is not the input's */
    if (pbu_buf_failed(&e.b) || e.nomem) {
        pbu_buf_free(&e.b);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    else rc = pb_sink_write(out, e.b.data, e.b.len, err);
    pbu_buf_free(&e.b);
    if (rc == 0 && rrc) { /* the dump was written; the input still is broken */
        *err = rerr;
        rc = rrc;
    }
    return rc;
}
