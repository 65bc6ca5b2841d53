/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_dump.c -- pb_coverage_dump (profbridge/coverage.h): explains every
 * byte of an object's coverage sections, as `profbridge dump` explains a raw
 * profile: the object (class, byte order, machine, raw version), then
 * __llvm_covmap (each TU's header, filenames, FilenamesRef, padding), the
 * names, and __llvm_covfun (each record's header and every field of its
 * mapping), text or JSON. The fields come from the reader itself (its
 * tracer, cov_read.h), so the dump shows what the reader reads and stops
 * where the reader stops, with the problem and its offset.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_read.h"
#include "llvm/names.h"
#include "profbridge/coverage.h"
#include "profbridge/io.h"
#include "profbridge/profile.h"
#include "util/buf.h"
#include "util/grow.h"
#include "util/json_text.h"

#define DUMP_COV_VERSION "1.0" /* dump --json of an object's coverage sections */

typedef struct em {
    pb_buf b;
    int json;
    int first_sec, first_item;
    const char *cur; /* section being explained */
} em;

static void sec(em *e, const char *title) {
    if (e->json) {
        pbu_buf_puts(&e->b, e->first_sec ? "\n  {\"section\": " : "]},\n  {\"section\": ");
        pbu_json_put_text(&e->b, title, strlen(title));
        pbu_buf_puts(&e->b, ", \"items\": [");
    } else {
        pbu_buf_printf(&e->b, "%s%s:\n", e->first_sec ? "" : "\n", title);
    }
    e->first_sec = 0;
    e->first_item = 1;
}

static void item(em *e, const uint8_t *d, uint64_t off, uint64_t n, const char *field, const char *v) {
    char hex[3 * 16 + 4] = "";
    size_t shown = n > 16 ? 16 : (size_t)n, k = 0;
    for (size_t i = 0; d && i < shown; i++)
        k += (size_t)snprintf(hex + k, sizeof hex - k, "%s%02x", i ? " " : "", d[off + i]);
    if (n > 16) snprintf(hex + k, sizeof hex - k, " ..");
    if (e->json) {
        pbu_buf_puts(&e->b, e->first_item ? "\n    {\"offset\": " : ",\n    {\"offset\": ");
        if (d) pbu_buf_printf(&e->b, "%" PRIu64, off);
        else pbu_buf_puts(&e->b, "null");
        pbu_buf_printf(&e->b, ", \"size\": %" PRIu64 ", \"bytes\": \"%s\", \"field\": ", n, hex);
        pbu_json_put_text(&e->b, field, strlen(field));
        pbu_buf_puts(&e->b, ", ");
        pbu_json_put_text_member(&e->b, "value", v, strlen(v), PBU_JSON_HEX_SUFFIX);
        pbu_buf_putc(&e->b, '}');
    } else {
        if (d) pbu_buf_printf(&e->b, "  0x%06" PRIx64 "  %-24s %-34s %s\n", off, hex, field, v);
        else pbu_buf_printf(&e->b, "  %8s  %-24s %-34s %s\n", "", hex, field, v);
    }
    e->first_item = 0;
}

static void on_field(void *ctx, const char *s, const uint8_t *d, uint64_t off, uint64_t len, const char *field,
                     const char *value) {
    em *e = ctx;
    if (!e->cur || strcmp(e->cur, s) != 0) {
        e->cur = s;
        sec(e, s);
    }
    item(e, d, off, len, field, value);
}

static void note(em *e, const char *field, const char *fmt, ...) PB_PRINTF(3, 4);
static void note(em *e, const char *field, const char *fmt, ...) {
    char v[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    item(e, NULL, 0, 0, field, v);
}

static void dump_object(em *e, const pbi_cov_elf *o) {
    sec(e, "object");
    note(e, "class", "ELF%d", o->is64 ? 64 : 32);
    note(e, "byte order", "%s", o->big_endian ? "big-endian" : "little-endian");
    note(e, "e_machine", "%u", o->machine);
    note(e, "e_type", "%u (%s)", o->type,
         o->type == 1 ? "relocatable" : o->type == 2 ? "executable" : o->type == 3 ? "shared object" : "other");
    if (o->raw_version)
        note(e, PBI_RAW_VERSION_SYM, "%u (0x%016" PRIx64 "): MC/DC bitmap indices are %s", o->raw_version,
             o->raw_version_full, o->raw_version >= 10 ? "bit indices (clang 19+)" : "byte indices (clang 18 and older)");
    else
        note(e, PBI_RAW_VERSION_SYM, "absent (no symbol table, or not linked with the profile runtime)");
    const struct { const char *n; const pbi_cov_bytes *b; size_t k; } s[] = {
        {PBI_SEC_COVMAP, &o->covmap, o->ncovmap},
        {o->names_is_covnames ? PBI_SEC_COVNAMES : PBI_SEC_NAMES, &o->names, o->nnames},
        {PBI_SEC_COVFUN, &o->covfun, o->ncovfun}};
    for (size_t i = 0; i < 3; i++) {
        if (!s[i].b->present) note(e, s[i].n, "absent");
        else
            note(e, s[i].n, "%zu section%s, %zu bytes%s, first at file offset 0x%" PRIx64 "%s", s[i].k,
                 s[i].k == 1 ? "" : "s", s[i].b->len, s[i].k > 1 ? " (concatenated, each padded to 8)" : "",
                 s[i].b->file_off, s[i].b->compressed ? ", SHF_COMPRESSED: explained inflated (offsets into the inflated bytes); "
                                        "llvm-cov reads it as stored and fails (truncated coverage data)" : "");
    }
}

static int list_name(void *ctx, const char *name, size_t len, pb_error *err) {
    em *e = ctx;
    (void)err;
    char v[320];
    snprintf(v, sizeof v, "%.*s  (NameRef 0x%016" PRIx64 ")", (int)(len > 256 ? 256 : len), name, pb_md5_ref(name, len));
    item(e, NULL, 0, 0, "name", v);
    return 0;
}

static int dump_names(em *e, const pbi_cov_elf *o, pb_error *err) {
    const char *sn = o->names_is_covnames ? PBI_SEC_COVNAMES : PBI_SEC_NAMES;
    e->cur = sn;
    sec(e, sn);
    size_t pos = 0;
    pbi_names_chunk c;
    for (uint64_t k = 0;; k++) {
        int r = pbi_names_next_chunk(o->names.d, o->names.len, &pos, &c, 0, sn, err);
        if (r < 0) return r;
        if (r == 0) break;
        char f[48], v[128];
        snprintf(f, sizeof f, "chunk %" PRIu64, k);
        if (c.clen) snprintf(v, sizeof v, "%" PRIu64 " bytes of names, zlib-compressed in %" PRIu64, c.ulen, c.clen);
        else snprintf(v, sizeof v, "%" PRIu64 " bytes of names, stored plain", c.ulen);
        item(e, o->names.d, c.at, c.data - c.at, f, v);
    }
    return pbi_names_decode(o->names.d, o->names.len, 0, sn, list_name, e, err);
}

static int explain(em *e, const uint8_t *d, size_t len, const char *name, pb_error *err) {
    pbi_cov_elf o;
    int rc = pbi_cov_elf_open(&o, d, len, name, NULL, err);
    if (rc) return rc;
    dump_object(e, &o);
    pbi_cov_trace tr = {on_field, e};
    pbi_cov_tus tus;
    memset(&tus, 0, sizeof tus);
    pbi_cov_mapping m;
    memset(&m, 0, sizeof m);
    size_t fcap = 0;
    if (!o.covmap.present || !o.names.present) {
        rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, o.covmap.present ? PBI_SEC_NAMES : PBI_SEC_COVMAP,
                          "no coverage data found");
        pb_error_set_source(err, o.name);
    }
    if (!rc) {
        e->cur = NULL;
        rc = pbi_cov_read_covmap(&tus, &o, NULL, &m.arena, &tr, err);
    }
    if (!rc) rc = dump_names(e, &o, err);
    if (!rc) {
        e->cur = NULL;
        rc = pbi_cov_read_covfun(&m, &fcap, 0, &o, &tus, NULL, &tr, err);
        if (!rc) {
            char v[96];
            snprintf(v, sizeof v, "%zu functions after duplicates are resolved", m.nfunctions);
            on_field(e, PBI_SEC_COVFUN, NULL, o.covfun.len, 0, "end", v);
        }
    }
    if (rc) pb_error_set_source(err, o.name);
    pbi_cov_mapping_free(&m);
    pbi_cov_tus_free(&tus);
    pbi_cov_elf_close(&o);
    return rc;
}

int pb_coverage_dump(const char *object, int json, pb_sink *out, pb_error *err) {
    pb_error_clear(err);
    if (!object || !out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_coverage_dump: %s is NULL",
                                             object ? "out" : "object");
    pb_source *src = NULL;
    const uint8_t *d;
    size_t len;
    int rc = pb_source_open_file(&src, object, err);
    if (!rc) rc = pb_source_read_all(src, &d, &len, err);
    if (rc) {
        pb_error_set_source(err, object);
        pb_source_free(src);
        return rc;
    }
    em e;
    memset(&e, 0, sizeof e);
    e.json = json;
    e.first_sec = 1;
    if (json) pbu_buf_puts(&e.b, "{\"format_version\": \"" DUMP_COV_VERSION "\", \"format\": \"coverage\", \"sections\": [");
    pb_error rerr;
    pb_error_clear(&rerr);
    int rrc = explain(&e, d, len, object, &rerr);
    if (rrc == 0) { /* the reader's verdict: what the walk accepts it may still refuse (a compressed section) */
        pbi_cov_mapping m;
        rrc = pbi_cov_read_memory(&m, d, len, object, NULL, &rerr);
        if (rrc == 0) pbi_cov_mapping_free(&m);
    }
    pb_source_free(src);
    char msg[1024] = "";
    if (rrc) pb_error_format(&rerr, msg, sizeof msg);
    if (json) {
        pbu_buf_puts(&e.b, e.first_sec ? "]" : "]}]");
        pbu_buf_puts(&e.b, ", \"problem\": ");
        if (rrc) pbu_json_put_text(&e.b, msg, strlen(msg));
        else pbu_buf_puts(&e.b, "null");
        pbu_buf_puts(&e.b, "}\n");
    } else if (rrc) {
        pbu_buf_printf(&e.b, "\nproblem: %s\n", msg);
    }
    if (pbu_buf_failed(&e.b) || rrc == PB_ENOMEM) {
        pbu_buf_free(&e.b);
        return pbu_nomem(err, NULL);
    }
    rc = pb_sink_write(out, e.b.data, e.b.len, err);
    pbu_buf_free(&e.b);
    if (!rc && rrc) {
        *err = rerr;
        rc = rrc;
    }
    return rc;
}
