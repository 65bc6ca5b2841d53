/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * correlate_report.c -- profbridge/correlate.h: merge's check of a
 * --binary-file / --debug-info and show --debug-info's listing, over the
 * loader of src/llvm/correlate_elf.c (which reads the ELF and DWARF).
 */
#include "profbridge/correlate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "llvm/correlate.h"
#include "llvm/target.h"
#include "model/options.h"
#include "util/api.h"
#include "util/buf.h"

PBI_OPTIONS_INIT_FN(correlate, CORRELATE)

/* The loader's warnings go to the caller's pb_diag_fn as warnings. */
typedef struct warn_to_diag {
    pb_diag_fn fn;
    void *ctx;
} warn_to_diag;

static void pass_warning(void *ctx, const char *msg) {
    const warn_to_diag *w = ctx;
    pb_diag(w->fn, w->ctx, PB_DIAG_WARNING, 0, NULL, PB_NO_OFFSET, NULL, "%s", msg);
}

/* Checks the arguments, copies the options and loads the file into *c.
 * Returns 0 or a PB_E* with err filled (*c then holds nothing). */
static int load(const char *func, pbi_correlation *c, const char *path, const pb_correlate_options *opts,
                pb_correlate_options *o, pbi_llvm_target *t, pb_error *err) {
    memset(c, 0, sizeof *c);
    pb_correlate_options d = PB_CORRELATE_OPTIONS_INIT;
    *o = d;
    if (!path) return pbu_null_arg(err, func, "path");
    if (opts) {
        if (opts->version != PB_CORRELATE_OPTIONS_VERSION)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "%s: unknown pb_correlate_options version %u",
                                func, opts->version);
        *o = *opts;
    }
    if (o->kind != PB_CORRELATE_BINARY && o->kind != PB_CORRELATE_DEBUG_INFO)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "kind", "%s: unknown correlation kind %d", func, o->kind);
    int rc = pbi_llvm_target_for(o->llvm_release, t, err);
    if (rc) return rc;
    pbi_corr_limits lim = {o->max_input_size, o->max_inflation};
    warn_to_diag w = {o->diag, o->diag_ctx};
    return pbi_correlation_load(c, path, o->kind == PB_CORRELATE_BINARY ? PBI_CORR_BINARY : PBI_CORR_DEBUG_INFO, t,
                                &lim, o->max_warnings, o->diag ? pass_warning : NULL, &w, err);
}

int pb_correlate_check(const char *path, const pb_correlate_options *opts, pb_error *err) {
    pbu_api_enter(err);
    pbi_correlation c;
    pb_correlate_options o;
    pbi_llvm_target t;
    int rc = load(__func__, &c, path, opts, &o, &t, err);
    pbi_correlation_free(&c);
    return rc;
}

/* As llvm::yaml::needsQuotes decides: plain when every byte is safe
 * (alphanumerics, "_-^., " and tab) and the text does not read as null, a
 * boolean or a number nor starts with an indicator; single quotes otherwise
 * ('/' included: LLVM quotes paths). Names with control bytes or UTF-8
 * (double quotes in LLVM) are single-quoted here. */
static int yaml_special(const char *s) {
    static const char *const words[] = {"null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False",
                                        "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off",
                                        "Off", "OFF", NULL};
    for (size_t i = 0; words[i]; i++)
        if (strcmp(s, words[i]) == 0) return 1;
    char *end;
    (void)strtod(s, &end);
    return *s && !*end;
}

static void yaml_str(pb_buf *b, const char *s) {
    size_t n = strlen(s);
    int quote = !*s || *s == ' ' || s[n ? n - 1 : 0] == ' ' || strchr("-?:,[]{}#&*!|>'\"%@`", *s) || yaml_special(s);
    for (const char *p = s; *p && !quote; p++)
        if (!(((*p | 32) >= 'a' && (*p | 32) <= 'z') || (*p >= '0' && *p <= '9') || strchr("_-^., \t", *p)))
            quote = 1;
    if (!quote) {
        pbu_buf_puts(b, s);
        return;
    }
    pbu_buf_putc(b, '\'');
    for (const char *p = s; *p; p++) {
        if (*p == '\'') pbu_buf_putc(b, '\'');
        pbu_buf_putc(b, *p);
    }
    pbu_buf_putc(b, '\'');
}

typedef struct off_idx {
    uint64_t off;
    size_t idx;
} off_idx;
static int cmp_off_idx(const void *a, const void *b) {
    const off_idx *x = a, *y = b;
    if (x->off != y->off) return x->off < y->off ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* dup[i] = 1 when probe i's counters are an earlier probe's (LLVM keeps the
 * first); *unique counts the others. NULL when out of memory. */
static unsigned char *duplicates(const pbi_correlation *c, size_t *unique) {
    size_t n = c->nprobes;
    off_idx *v = malloc((n ? n : 1) * sizeof *v);
    unsigned char *dup = calloc(n ? n : 1, 1);
    if (!v || !dup) {
        free(v);
        free(dup);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) v[i] = (off_idx){c->probes[i].counter_offset, i};
    qsort(v, n, sizeof *v, cmp_off_idx);
    *unique = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && v[i].off == v[i - 1].off) dup[v[i].idx] = 1;
        else ++*unique;
    }
    free(v);
    return dup;
}

static void yaml_probes(pb_buf *b, const pbi_llvm_target *t, const pbi_correlation *c, const unsigned char *dup) {
    int once = pbi_llvm_has(t, PBI_LF_SHOW_DEBUG_INFO_UNIQUE);
    int bitmaps = pbi_llvm_has(t, PBI_LF_CORRELATE_BITMAPS);
    pbu_buf_puts(b, "---\nProbes:\n");
    for (size_t i = 0; i < c->nprobes; i++) {
        const pbi_corr_probe *p = &c->probes[i];
        if (once && dup[i]) continue;
        pbu_buf_puts(b, "  - Function Name:   ");
        yaml_str(b, p->name);
        if (p->linkage) {
            pbu_buf_puts(b, "\n    Linkage Name:    ");
            yaml_str(b, p->linkage);
        }
        pbu_buf_printf(b, "\n    CFG Hash:        0x%" PRIX64 "\n    Counter Offset:  0x%" PRIX64
                          "\n    Num Counters:    %" PRIu32 "\n",
                       p->hash, p->counter_offset, p->num_counters);
        if (bitmaps)
            pbu_buf_printf(b, "    Bitmap Offset:   0x%" PRIX64 "\n    Num BitmapBytes: %" PRIu32 "\n", p->bitmap_offset,
                           p->num_bitmap_bytes);
        if (p->file) {
            pbu_buf_puts(b, "    File:            ");
            yaml_str(b, p->file);
            pbu_buf_putc(b, '\n');
        }
        if (p->line) pbu_buf_printf(b, "    Line:            %" PRIu64 "\n", p->line);
    }
    pbu_buf_puts(b, "...\n");
}

/* --show-format=yaml dumps through LLVM's DWARF correlator itself, whose
 * words (18-24) still say "in debug info" where the loader says "in
 * correlated file". */
static void debug_info_words(pb_error *err) {
    static const char was[] = "in correlated file", now[] = "in debug info";
    char *at = strstr(err->message, "metadata in correlated file");
    if (!at) return;
    at += sizeof "metadata " - 1;
    memmove(at + sizeof now - 1, at + sizeof was - 1, strlen(at + sizeof was - 1) + 1);
    memcpy(at, now, sizeof now - 1);
}

int pb_correlate_show(pb_sink *out, const char *path, const pb_correlate_options *opts, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    if (opts && opts->version == PB_CORRELATE_OPTIONS_VERSION) {
        if (opts->kind != PB_CORRELATE_DEBUG_INFO)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "kind", "%s lists debug info only (kind %d)", __func__,
                                opts->kind);
        if (opts->style != PB_CORRELATE_COUNT && opts->style != PB_CORRELATE_YAML)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "style", "%s: unknown style %d", __func__, opts->style);
    }
    pbi_correlation c;
    pb_correlate_options o;
    pbi_llvm_target t;
    int rc = load(__func__, &c, path, opts, &o, &t, err);
    if (rc) {
        if (o.style == PB_CORRELATE_YAML && rc != PB_EINVAL) debug_info_words(err);
        return rc;
    }
    size_t unique = 0;
    unsigned char *dup = duplicates(&c, &unique);
    pb_buf b = PB_BUF_INIT;
    if (dup && o.style == PB_CORRELATE_YAML) yaml_probes(&b, &t, &c, dup);
    /* LLVM counts the records left once duplicate counter addresses are dropped */
    else if (dup) pbu_buf_printf(&b, "Found %zu functions\n", unique);
    if (!dup || pbu_buf_failed(&b)) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (rc == 0 && b.len) rc = pb_sink_write(out, b.data, b.len, err);
    pbu_buf_free(&b);
    free(dup);
    pbi_correlation_free(&c);
    return rc;
}
