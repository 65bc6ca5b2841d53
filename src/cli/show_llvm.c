/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm.c -- `show` for LLVM instrumentation profiles, printing exactly
 * what `llvm-profdata-N show` prints for the same flags (spec §8), N being
 * the release of o->t (--llvm-version, 19 by default), or the same content
 * as JSON (--json, ours: llvm-profdata refuses JSON for instr profiles).
 * Where releases print differently, the printer asks the target
 * (pbi_llvm_has, the PBI_LF_SHOW_* rows of src/llvm/target.h); it never
 * compares release numbers.
 *
 * The pbc_summary lines are recomputed from the records shown, with the rules of
 * InstrProfSummaryBuilder (spec §3.4): records whose first count is
 * a pseudo count (2^64-1, 2^64-2) are left out, u64 totals wrap, and the
 * detailed entries walk the counts downwards across all cutoffs.
 *
 * The printer takes records one at a time (pbc_show_llvm_begin / _record /
 * _end), so that show_indexed.c can feed it straight from an indexed file;
 * pbc_show_llvm loops over a model's records.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "cli.h"
#include "opts.h"
#include "util/json_text.h"
#include "util/report_version.h"
#include "show_summary.h"
#include "util/sort.h"


static const uint32_t default_cutoffs[] = {10000,  100000, 200000, 300000, 400000, 500000,
                                           600000, 700000, 800000, 900000, 950000, 990000,
                                           999000, 999900, 999990, 999999};
/* ProfileSummaryBuilder::DefaultCutoffs before LLVM added the low ones
 * (PBI_LF_SHOW_CUTOFFS_7). */
static const uint32_t default_cutoffs_7[] = {800000, 900000, 950000, 990000, 999000, 999900, 999990};

/* ---- hand-made line buffer (the hot lines of --all-functions --counts) ---------- */

typedef struct linebuf {
    FILE *out;
    size_t n;
    char b[4096];
} linebuf;

static void lb_flush(linebuf *l) {
    if (l->n) fwrite(l->b, 1, l->n, l->out);
    l->n = 0;
}
static void lb_put(linebuf *l, const char *s, size_t n) {
    if (n > sizeof l->b - l->n) {
        lb_flush(l);
        if (n > sizeof l->b) { /* a huge name: straight through */
            fwrite(s, 1, n, l->out);
            return;
        }
    }
    memcpy(l->b + l->n, s, n);
    l->n += n;
}
static void lb_u64(linebuf *l, uint64_t v) {
    char t[20];
    size_t k = sizeof t;
    do t[--k] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    lb_put(l, t + k, sizeof t - k);
}
static void lb_hex16(linebuf *l, uint64_t v) {
    char t[16];
    for (int i = 15; i >= 0; i--, v >>= 4) t[i] = "0123456789abcdef"[v & 15];
    lb_put(l, t, 16);
}

/* ---- value sites ---------------------------------------------------------------- */

typedef struct vstats {
    uint64_t sites, with_values, values;
    uint64_t hist[256]; /* values per site are at most 255 in LLVM formats */
    uint64_t hist_over; /* sites with more (cannot come from LLVM files) */
} vstats;

/* The name of a NameRef as LLVM's symtab gives it: function or vtable name, or "". */
static const char *ref_name(const pb_profile *p, uint64_t ref, size_t *len) {
    size_t idx;
    uint32_t sym;
    *len = 0;
    if (ref == 0) return "";
    if (pb_profile_lookup_ref(p, ref, &idx, 1) > 0) {
        const char *n;
        uint64_t h;
        if (pb_profile_record_name(p, pb_profile_record(p, idx), &n, len, &h, NULL) == 0) return n;
    }
    if (pb_profile_find_symbol_md5(p, ref, &sym) == 0) {
        const pb_symbol *s = pb_profile_symbol(p, sym);
        if (s && s->name != PB_NONE) return pb_profile_str(p, s->name, len);
    }
    *len = 0;
    return "";
}

/* ---- JSON helpers ------------------------------------------------------------------ */

/* A name as `"KEY": "TEXT"` (plus `"KEY_hex"` when it is not UTF-8: json_text.h). */
static void json_name(FILE *out, const char *key, const char *s, size_t n) {
    pbi_json_fput_text_member(out, key, s, n);
}

/* A u64 as a JSON number, or as a decimal string above INT64_MAX (which many
 * JSON readers, jansson among them, cannot hold). */
static void ju(FILE *out, const char *pre, uint64_t v) {
    fprintf(out, v > (uint64_t)INT64_MAX ? "%s\"%" PRIu64 "\"" : "%s%" PRIu64, pre, v);
}

/* ---- the printer ------------------------------------------------------------------ */

typedef struct hot {
    const char *name;
    size_t len;
    uint64_t max;
    uint64_t seq;   /* the record's rank in the listing (ties, LLVM 22+) */
    int file_order; /* 1: equal maxima rank in file order (PBI_LF_SHOW_TOPN_FILE_ORDER) */
} hot;

/* std::priority_queue with "a.max > b.max" (a min-heap), as libstdc++ does it,
 * so that ties come out in the same order as llvm-profdata's; from LLVM 22
 * the order is total: equal maxima rank by file order, the later one lower. */
static int hot_less(const hot *a, const hot *b) {
    return a->max > b->max || (a->file_order && a->max == b->max && a->seq < b->seq);
}
static void heap_push_hole(hot *h, size_t hole, size_t top, hot v) {
    size_t parent = (hole - 1) / 2;
    while (hole > top && hot_less(&h[parent], &v)) {
        h[hole] = h[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    h[hole] = v;
}
static void heap_push(hot *h, size_t *n, hot v) {
    h[*n] = v;
    (*n)++;
    heap_push_hole(h, *n - 1, 0, v);
}
static void heap_pop(hot *h, size_t *n) {
    size_t len = *n;
    if (len > 1) {
        hot v = h[len - 1];
        h[len - 1] = h[0];
        len--;
        size_t hole = 0, second = 0;
        while (len > 2 && second < (len - 1) / 2) {
            second = 2 * (second + 1);
            if (hot_less(&h[second], &h[second - 1])) second--;
            h[hole] = h[second];
            hole = second;
        }
        if ((len & 1) == 0 && second == (len - 2) / 2) {
            second = 2 * (second + 1);
            h[hole] = h[second - 1];
            hole = second - 1;
        }
        heap_push_hole(h, hole, 0, v);
    }
    (*n)--;
}

static const char *const vk_title[3] = {"Indirect Target Results", "Memory Intrinsic Size Results",
                                        "VTable Results"};

static void print_sites(FILE *out, const pb_profile *p, const pb_record *r, unsigned vk, vstats *st,
                        int json) {
    uint32_t ns = r->num_sites[vk];
    st->sites += ns;
    int first = 1;
    if (json) fputc('[', out);
    for (uint32_t s = 0; s < ns; s++) {
        const pb_site *site = &r->sites[vk][s];
        uint32_t nv = site->num_values;
        if (nv == 0) continue;
        st->values += nv;
        st->with_values++;
        if (nv <= 256) st->hist[nv - 1]++;
        else st->hist_over++;
        uint64_t sum = 0;
        for (uint32_t k = 0; k < nv; k++) sum += site->values[k].count;
        if (sum == 0) sum = 1;
        for (uint32_t k = 0; k < nv; k++) {
            const pb_value *v = &site->values[k];
            double pct = (double)v->count * 100.0 / (double)sum;
            if (json) {
                fprintf(out, "%s{\"site\": %" PRIu32 ", ", first ? "" : ", ", s);
                if (vk == PB_VK_MEMOP_SIZE) {
                    ju(out, "\"value\": ", v->value);
                } else {
                    size_t nl;
                    const char *nm = ref_name(p, v->value, &nl);
                    fprintf(out, "\"ref\": \"0x%016" PRIx64 "\", ", v->value);
                    json_name(out, "name", nm, nl);
                }
                ju(out, ", \"count\": ", v->count);
                fprintf(out, ", \"percent\": %.2f}", pct);
                first = 0;
                continue;
            }
            fprintf(out, "\t[ %2" PRIu32 ", ", s);
            if (vk == PB_VK_MEMOP_SIZE) {
                fprintf(out, "%4" PRIu64, v->value);
            } else {
                size_t nl;
                const char *nm = ref_name(p, v->value, &nl);
                fwrite(nm, 1, nl, out);
            }
            fprintf(out, ", %10" PRId64 " ] (%.2f%%)\n", (int64_t)v->count, pct);
        }
    }
    if (json) fputc(']', out);
}

static void print_stats(FILE *out, const vstats *st, int json) {
    if (json) {
        fprintf(out, "{\"sites\": %" PRIu64 ", \"sites_with_values\": %" PRIu64
                     ", \"values\": %" PRIu64 ", \"histogram\": [",
                st->sites, st->with_values, st->values);
        int first = 1;
        for (unsigned i = 0; i < 256; i++)
            if (st->hist[i]) {
                fprintf(out, "%s[%u, %" PRIu64 "]", first ? "" : ", ", i + 1, st->hist[i]);
                first = 0;
            }
        fputs("]}", out);
        return;
    }
    fprintf(out,
            "  Total number of sites: %" PRIu64 "\n  Total number of sites with values: %" PRIu64
            "\n  Total number of profiled values: %" PRIu64
            "\n  Value sites histogram:\n\tNumTargets, SiteCount\n",
            st->sites, st->with_values, st->values);
    for (unsigned i = 0; i < 256; i++)
        if (st->hist[i]) fprintf(out, "\t%u, %" PRIu64 "\n", i + 1, st->hist[i]);
}

/* The text-format record (InstrProfWriter::writeRecordInText). */
static void print_text_record(FILE *out, const pb_profile *p, const char *name, size_t nlen,
                              uint64_t hash, const pb_record *r, const pbi_llvm_target *tg) {
    static const char *const kind_str[3] = {"IPVK_IndirectCallTarget", "IPVK_MemOPSize",
                                            "IPVK_VTableTarget"};
    fwrite(name, 1, nlen, out);
    fprintf(out, "\n# Func Hash:\n%" PRIu64 "\n# Num Counters:\n%" PRIu32 "\n# Counter Values:\n",
            hash, r->num_counters);
    for (uint32_t i = 0; i < r->num_counters; i++) fprintf(out, "%" PRIu64 "\n", r->counters[i]);
    if (r->num_bitmap_bytes) {
        fprintf(out, "# Num Bitmap Bytes:\n$%" PRIu32 "\n# Bitmap Byte Values:\n", r->num_bitmap_bytes);
        for (uint32_t i = 0; i < r->num_bitmap_bytes; i++) fprintf(out, "0x%x\n", r->bitmap[i]);
        fputc('\n', out);
    } else if (pbi_llvm_has(tg, PBI_LF_TEXT_BITMAP_ALWAYS)) {
        fputs("# Num Bitmap Bytes:\n$0\n", out); /* LLVM 24 writes the count for every record */
    }
    unsigned nk = 0;
    for (unsigned k = 0; k < PB_VK_COUNT; k++) nk += r->num_sites[k] > 0;
    if (!nk) {
        fputc('\n', out);
        return;
    }
    fprintf(out, "# Num Value Kinds:\n%u\n", nk);
    for (unsigned k = 0; k < PB_VK_COUNT; k++) {
        if (!r->num_sites[k]) continue;
        fprintf(out, "# ValueKind = %s:\n%u\n# NumValueSites:\n%" PRIu32 "\n", kind_str[k], k,
                r->num_sites[k]);
        for (uint32_t s = 0; s < r->num_sites[k]; s++) {
            const pb_site *site = &r->sites[k][s];
            fprintf(out, "%" PRIu32 "\n", site->num_values);
            for (uint32_t v = 0; v < site->num_values; v++) {
                const pb_value *pv = &site->values[v];
                if (k == PB_VK_MEMOP_SIZE) {
                    fprintf(out, "%" PRIu64 ":%" PRIu64 "\n", pv->value, pv->count);
                } else {
                    size_t nl;
                    const char *nm = ref_name(p, pv->value, &nl);
                    if (nl) fwrite(nm, 1, nl, out);
                    else fputs("** External Symbol **", out);
                    fprintf(out, ":%" PRIu64 "\n", pv->count);
                }
            }
        }
    }
    fputc('\n', out);
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int parse_cutoffs(const char *s, uint32_t **out, size_t *n, pb_error *err) {
    size_t cap = 1;
    for (const char *c = s; *c; c++) cap += *c == ',';
    uint32_t *v = calloc(cap, sizeof *v);
    if (!v) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    size_t k = 0;
    const char *c = s;
    while (*c) {
        char *end;
        unsigned long x = strtoul(c, &end, 10);
        if (end == c || x > 1000000 || (*end && *end != ',')) {
            free(v);
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "--detailed-summary-cutoffs",
                                "expected comma-separated numbers <= 1000000, found \"%s\"", s);
        }
        v[k++] = (uint32_t)x;
        c = *end ? end + 1 : end;
    }
    /* llvm-profdata sorts the cutoffs (and keeps repeats): the walk over
     * the counts goes downwards across them in that order */
    qsort(v, k, sizeof *v, cmp_u32);
    *out = v;
    *n = k;
    return 0;
}

/* ---- the printer, record by record ------------------------------------------------- */

struct pbc_show_llvm_state {
    const pbc_show_llvm_opts *o;
    pbi_llvm_target tg; /* o->t, or release PBI_LLVM_DEFAULT when o->t is NULL */
    FILE *out;
    uint64_t flags;
    int is_ir, json, first_json_fn;
    pbc_summary sm;
    vstats vs[PB_VK_COUNT];
    size_t shown, below, nhot;
    uint64_t nseen; /* records offered to the heap */
    hot *heap; /* the topn hottest so far (a min-heap) */
    size_t heap_cap; /* grown as functions come: --topn 2^31-1 must not allocate 2^31 entries */
    int heap_nomem;  /* growing failed: reported by pbc_show_llvm_end */
    hot *hl;         /* --hot-func-list: every function at or above --value-cutoff, in listing order */
    size_t nhl, hl_cap;
    int hl_nomem;
    linebuf lb;
};

/* 1 if needle occurs in name[0..nlen) (names from files are not NUL-terminated). */
static int contains(const char *name, size_t nlen, const char *needle) {
    size_t k = strlen(needle);
    if (k > nlen) return 0;
    for (size_t i = 0; i + k <= nlen; i++)
        if (name[i] == needle[0] && memcmp(name + i, needle, k) == 0) return 1;
    return 0;
}

/* What a text file needs of a release's reader (TextInstrProfReader: an
 * unknown header line is "file header is corrupt", an unknown value kind or
 * a bitmap line "malformed"): 1 with *what naming the first thing release t
 * lacks, else 0. */
static int text_needs(const pb_profile *p, const pbi_llvm_target *t, const char **what) {
    uint64_t f = pb_profile_flags(p);
    if ((f & PB_VARIANT_TEMPORAL) && !pbi_llvm_has(t, PBI_LF_TEXT_TEMPORAL)) return *what = ":temporal_prof_traces", 1;
    if ((f & PB_VARIANT_BYTE_COVERAGE) && !pbi_llvm_has(t, PBI_LF_TEXT_BYTE_COVERAGE))
        return *what = ":single_byte_coverage", 1;
    if ((f & PB_VARIANT_INSTR_LOOP_ENTRIES) && !pbi_llvm_has(t, PBI_LF_TEXT_LOOP_ENTRIES))
        return *what = ":instrument_loop_entries", 1;
    int bitmap = !pbi_llvm_has(t, PBI_LF_TEXT_BITMAP), vtables = !pbi_llvm_has(t, PBI_LF_TEXT_VTABLE_SITES);
    for (size_t i = 0, n = pb_profile_record_count(p); i < n && (bitmap || vtables); i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (bitmap && r->num_bitmap_bytes) return *what = "MC/DC bitmap bytes", 1;
        if (vtables && r->num_sites[PB_VK_VTABLE]) return *what = "vtable value sites (IPVK_VTableTarget)", 1;
    }
    return 0;
}

int pbc_llvm_check_readable(const pbi_llvm_target *t, const pb_profile *p, const char *name) {
    /* profbridge reads every version, also when it prints as an older or
     * newer release (and as the llvm-profdata-N personality): where that
     * release's own tool would refuse the file, a note says so, and the
     * output is what that release prints for the records it shows. */
    const pb_origin *org = pb_profile_origin(p);
    const char *what = NULL;
    if (!t->chosen) return 0; /* the default release: no user asked for its limits */
    /* RawInstrProfReader: the version must be the one its compiler-rt writes */
    if (strcmp(org->format, "raw") == 0 && org->version != t->raw_version)
        fprintf(stderr, PBC_PROG ": note: %s: raw version %" PRIu64 ", which llvm-profdata-%d does not read "
                "(it reads only %" PRIu32 "); shown as llvm-profdata-%d prints it\n",
                name, org->version, t->release, t->raw_version, t->release);
    /* IndexedInstrProfReader: versions up to the one its writer writes */
    else if (strcmp(org->format, "indexed") == 0 && org->version > t->indexed_version)
        fprintf(stderr, PBC_PROG ": note: %s: indexed version %" PRIu64 " is newer than llvm-profdata-%d reads (%"
                PRIu32 "); shown as llvm-profdata-%d prints it\n",
                name, org->version, t->release, t->indexed_version, t->release);
    else if (strcmp(org->format, "text") == 0 && text_needs(p, t, &what))
        fprintf(stderr, PBC_PROG ": note: %s: llvm-profdata-%d's text reader does not know %s; shown as "
                "llvm-profdata-%d prints it\n", name, t->release, what, t->release);
    return 0;
}

int pbc_show_llvm_streamable(const pbc_show_llvm_opts *o) {
    /* these print names of value targets or traces: they need every name */
    return !o->ic_targets && !o->show_vtables && !o->text && !o->temporal_traces && !o->nparts;
}

/* --hot-func-list prints something for instrumentation profiles only from
 * LLVM 22 on (before, the option is read and changes nothing); never with
 * --text or --covered, which print nothing else either. */
static int wants_hot_list(const pbc_show_llvm_opts *o, const pbi_llvm_target *t) {
    return o->hot_func_list && !o->text && !o->covered && pbi_llvm_has(t, PBI_LF_SHOW_HOT_FUNC_LIST);
}

static void hot_list_add(pbc_show_llvm_state *st, hot h) {
    if (st->hl_nomem) return;
    if (st->nhl == st->hl_cap) {
        size_t cap = st->hl_cap ? 2 * st->hl_cap : 64;
        hot *g = realloc(st->hl, cap * sizeof *g);
        if (!g) {
            st->hl_nomem = 1;
            return;
        }
        st->hl = g;
        st->hl_cap = cap;
    }
    st->hl[st->nhl++] = h;
}

/* Larger maxima first, equal ones in listing order (llvm-profdata 22-24
 * list them so: checked with 60 functions of 4 distinct counts). */
static int hot_list_cmp(const void *a, const void *b) {
    const hot *x = a, *y = b;
    if (x->max != y->max) return x->max > y->max ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void pbc_show_llvm_free(pbc_show_llvm_state *st) {
    if (!st) return;
    free(st->sm.c);
    free(st->sm.f);
    free(st->heap);
    free(st->hl);
    free(st);
}

int pbc_show_llvm_begin(pbc_show_llvm_state **stp, uint64_t flags, const pbc_show_llvm_opts *o, FILE *out,
                        pb_error *err) {
    pbc_show_llvm_state *st = calloc(1, sizeof *st);
    *stp = NULL;
    if (!st) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    st->o = o;
    if (o->t) st->tg = *o->t;
    else (void)pbi_llvm_target_of(PBI_LLVM_DEFAULT, &st->tg);
    st->out = out;
    st->flags = flags;
    st->is_ir = (flags & PB_VARIANT_IR) != 0;
    st->json = o->json;
    st->first_json_fn = 1;
    st->lb.out = out;
    /* only the detailed pbc_summary needs every count (sorted): the other lines
     * need totals and maxima, and sorting was 6% of `show` */
    st->sm.keep = o->detailed_summary || wants_hot_list(o, &st->tg);
    st->heap_cap = o->topn < 1024 ? (size_t)o->topn + 1 : 1024;
    if (o->topn && !(st->heap = calloc(st->heap_cap, sizeof *st->heap))) {
        free(st);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    int json = st->json;
    /* format_version first: every member after it starts with ", " */
    if (json)
        fprintf(out, "{\"format_version\": \"%s\", \"view\": \"llvm\", \"llvm_release\": %d", PBI_REPORT_SHOW_LLVM,
                st->tg.release);
    if (!o->text && o->list_below_cutoff) {
        if (json) fputs(", \"below_cutoff\": [", out);
        else fprintf(out, "The list of functions with the maximum counter less than %" PRIu64 ":\n",
                     o->value_cutoff);
    }
    if (o->text && st->is_ir && !json) fputs(":ir\n", out);
    if (json && (o->text || o->covered)) fputs(o->covered && !o->text ? ", \"covered\": [" : ", \"functions\": [", out);
    *stp = st;
    return 0;
}

void pbc_show_llvm_record(pbc_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                         size_t nlen, uint64_t hash) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int is_ir = st->is_ir, json = st->json;
    if (is_ir && ((hash & PB_HASH_CS_BIT) != 0) != (o->showcs != 0)) return;
    int show = o->all_functions || (o->function && *o->function && contains(name, nlen, o->function));
    if (show && o->text) {
        if (json) {
            fputs(st->first_json_fn ? "" : ", ", out);
            fputc('{', out);
            json_name(out, "name", name, nlen);
            fprintf(out, ", \"hash\": \"0x%016" PRIx64 "\", \"counts\": [", hash);
            for (uint32_t k = 0; k < r->num_counters; k++) ju(out, k ? ", " : "", r->counters[k]);
            fputs("]}", out);
            st->first_json_fn = 0;
        } else {
            print_text_record(out, rp, name, nlen, hash, r, &st->tg);
        }
        return;
    }
    int pseudo = pbi_llvm_has(&st->tg, PBI_LF_SHOW_PSEUDO_COUNTS);
    pbc_sum_record(&st->sm, r, pseudo);
    if (o->covered) {
        int any = 0;
        for (uint32_t k = 0; k < r->num_counters; k++) any |= r->counters[k] != 0;
        if (any) {
            if (json) {
                fputs(st->first_json_fn ? "{" : ", {", out);
                json_name(out, "name", name, nlen);
                fputc('}', out);
                st->first_json_fn = 0;
            } else {
                fwrite(name, 1, nlen, out);
                fputc('\n', out);
            }
        }
        return;
    }
    uint64_t c0 = r->num_counters ? r->counters[0] : 0;
    if (pseudo && (c0 == PBC_PSEUDO_HOT || c0 == PBC_PSEUDO_WARM)) {
        if (show && !json) {
            if (!st->shown) fputs("Counters:\n", out);
            st->shown++;
            fputs("  ", out);
            fwrite(name, 1, nlen, out);
            fprintf(out, ":\n    Hash: 0x%016" PRIx64 "\n    Counters: %" PRIu32 "%s", hash,
                    r->num_counters, c0 == PBC_PSEUDO_HOT ? "    <PseudoHot>\n" : "    <PseudoWarm>\n");
        }
        return;
    }
    uint64_t fmax = 0, fsum = 0;
    for (uint32_t k = 0; k < r->num_counters; k++) {
        if (!pseudo && r->counters[k] == PBC_PSEUDO_HOT) continue; /* 13-15: "invalid" counts */
        if (r->counters[k] > fmax) fmax = r->counters[k];
        fsum += r->counters[k];
    }
    if (fmax < o->value_cutoff) {
        st->below++;
        if (o->list_below_cutoff) {
            if (json) {
                fputs(st->first_json_fn ? "{" : ", {", out);
                json_name(out, "name", name, nlen);
                ju(out, ", \"max\": ", fmax);
                ju(out, ", \"sum\": ", fsum);
                fputc('}', out);
                st->first_json_fn = 0;
            } else {
                fputs("  ", out);
                fwrite(name, 1, nlen, out);
                fprintf(out, ": (Max = %" PRIu64 " Sum = %" PRIu64 ")\n", fmax, fsum);
            }
        }
        return;
    } else if (o->list_below_cutoff) {
        return;
    }
    if (wants_hot_list(o, &st->tg)) hot_list_add(st, (hot){name, nlen, fmax, st->nhl, 1});
    if (o->topn) {
        hot h = {name, nlen, fmax, st->nseen++, pbi_llvm_has(&st->tg, PBI_LF_SHOW_TOPN_FILE_ORDER)};
        if (st->nhot == o->topn) {
            if (st->heap[0].max < fmax) {
                heap_pop(st->heap, &st->nhot);
                heap_push(st->heap, &st->nhot, h);
            }
        } else if (st->nhot + 1 < st->heap_cap) {
            heap_push(st->heap, &st->nhot, h);
        } else if (!st->heap_nomem) {
            hot *g = realloc(st->heap, 2 * st->heap_cap * sizeof *g);
            if (g) {
                st->heap = g;
                st->heap_cap *= 2;
                heap_push(st->heap, &st->nhot, h);
            } else {
                st->heap_nomem = 1;
            }
        }
    }
    if (!show) return;
    if (json) {
        if (!st->shown) fputs(", \"functions\": [", out);
        fputs(st->shown ? ", {" : "{", out);
        json_name(out, "name", name, nlen);
        fprintf(out, ", \"hash\": \"0x%016" PRIx64 "\", \"counters\": %" PRIu32, hash, r->num_counters);
        if (!is_ir) ju(out, ", \"function_count\": ", c0);
        if (o->ic_targets) fprintf(out, ", \"indirect_call_sites\": %" PRIu32, r->num_sites[PB_VK_INDIRECT_CALL]);
        if (o->show_vtables) fprintf(out, ", \"vtable_sites\": %" PRIu32, r->num_sites[PB_VK_VTABLE]);
        if (o->memop_sizes && r->num_sites[PB_VK_MEMOP_SIZE])
            fprintf(out, ", \"memop_sites\": %" PRIu32, r->num_sites[PB_VK_MEMOP_SIZE]);
        if (o->counts) {
            fputs(", \"block_counts\": [", out);
            for (uint32_t k = is_ir ? 0 : 1; k < r->num_counters; k++)
                ju(out, k == (is_ir ? 0u : 1u) ? "" : ", ", r->counters[k]);
            fputc(']', out);
        }
        if (o->ic_targets) {
            fputs(", \"indirect_targets\": ", out);
            print_sites(out, rp, r, PB_VK_INDIRECT_CALL, &st->vs[PB_VK_INDIRECT_CALL], 1);
        }
        if (o->show_vtables) {
            fputs(", \"vtable_targets\": ", out);
            print_sites(out, rp, r, PB_VK_VTABLE, &st->vs[PB_VK_VTABLE], 1);
        }
        if (o->memop_sizes && r->num_sites[PB_VK_MEMOP_SIZE]) {
            fputs(", \"memop_sizes\": ", out);
            print_sites(out, rp, r, PB_VK_MEMOP_SIZE, &st->vs[PB_VK_MEMOP_SIZE], 1);
        }
        fputc('}', out);
        st->shown++;
        return;
    }
    if (!st->shown) fputs("Counters:\n", out);
    st->shown++;
    /* the lines every record has, formatted by hand: printf was a quarter
     * of the time of `show --all-functions --counts` on big profiles */
    st->lb.n = 0;
    lb_put(&st->lb, "  ", 2);
    lb_put(&st->lb, name, nlen);
    lb_put(&st->lb, ":\n    Hash: 0x", 14);
    lb_hex16(&st->lb, hash);
    lb_put(&st->lb, "\n    Counters: ", 15);
    lb_u64(&st->lb, r->num_counters);
    lb_put(&st->lb, "\n", 1);
    if (!is_ir) {
        lb_put(&st->lb, "    Function count: ", 20);
        lb_u64(&st->lb, c0);
        lb_put(&st->lb, "\n", 1);
    }
    lb_flush(&st->lb);
    if (o->ic_targets)
        fprintf(out, "    Indirect Call Site Count: %" PRIu32 "\n", r->num_sites[PB_VK_INDIRECT_CALL]);
    if (o->show_vtables)
        fprintf(out, "    Number of instrumented vtables: %" PRIu32 "\n", r->num_sites[PB_VK_VTABLE]);
    uint32_t nmem = r->num_sites[PB_VK_MEMOP_SIZE];
    if (o->memop_sizes && nmem) fprintf(out, "    Number of Memory Intrinsics Calls: %" PRIu32 "\n", nmem);
    if (o->counts) {
        lb_put(&st->lb, "    Block counts: [", 19);
        uint32_t start = is_ir ? 0 : 1;
        for (uint32_t k = start; k < r->num_counters; k++) {
            if (k != start) lb_put(&st->lb, ", ", 2);
            lb_u64(&st->lb, r->counters[k]);
        }
        lb_put(&st->lb, "]\n", 2);
        lb_flush(&st->lb);
    }
    for (unsigned vk = 0; vk < PB_VK_COUNT; vk++) {
        static const unsigned order[3] = {PB_VK_INDIRECT_CALL, PB_VK_VTABLE, PB_VK_MEMOP_SIZE};
        unsigned k = order[vk];
        int want = k == PB_VK_INDIRECT_CALL ? o->ic_targets
                 : k == PB_VK_VTABLE        ? o->show_vtables
                                            : (o->memop_sizes && nmem);
        if (!want) continue;
        fprintf(out, "    %s:\n", vk_title[k]);
        print_sites(out, rp, r, k, &st->vs[k], 0);
    }
}

/* The --value-cutoff lines of the summary. */
static void print_cutoff_counts(FILE *out, uint64_t cutoff, size_t below, uint64_t nfunctions) {
    if (!cutoff) return;
    fprintf(out, "Number of functions with maximum count (< %" PRIu64 "): %zu\n", cutoff, below);
    fprintf(out, "Number of functions with maximum count (>= %" PRIu64 "): %" PRIu64 "\n", cutoff,
            nfunctions - below);
}

/* The cutoffs of the detailed summary: --detailed-summary-cutoffs or the
 * release's defaults. *owned is set when they were parsed (to free). */
static int summary_cutoffs(const pbc_show_llvm_opts *o, const pbi_llvm_target *tg, const uint32_t **cuts,
                           size_t *ncut, uint32_t **owned, pb_error *err) {
    *owned = NULL;
    if (o->cutoffs) {
        int rc = parse_cutoffs(o->cutoffs, owned, ncut, err);
        *cuts = *owned;
        return rc;
    }
    int seven = pbi_llvm_has(tg, PBI_LF_SHOW_CUTOFFS_7);
    *cuts = seven ? default_cutoffs_7 : default_cutoffs;
    *ncut = seven ? sizeof default_cutoffs_7 / sizeof default_cutoffs_7[0]
                  : sizeof default_cutoffs / sizeof default_cutoffs[0];
    return 0;
}

/* --hot-func-list (LLVM 22+): "# Hot count threshold: N", N the smallest
 * count of the summary's entry for 99% (ProfileSummaryBuilder's hot
 * threshold: the first cutoff >= 990000 of the detailed summary), then
 * the functions whose largest counter reaches N, hottest first. */
static int print_hot_list(pbc_show_llvm_state *st, const pbc_summary *sm, pb_error *err) {
    enum { HOT_CUTOFF = 990000 }; /* ProfileSummaryCutoffHot's default */
    const uint32_t *cuts;
    uint32_t *owned;
    size_t ncut, k;
    FILE *out = st->out;
    if (st->hl_nomem) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory (--hot-func-list)");
    int rc = summary_cutoffs(st->o, &st->tg, &cuts, &ncut, &owned, err);
    if (rc) return rc;
    for (k = 0; k < ncut && cuts[k] < HOT_CUTOFF; k++) {
    }
    if (k == ncut) {
        free(owned);
        /* llvm-profdata aborts here (report_fatal_error) */
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "--detailed-summary-cutoffs",
                            "Desired percentile exceeds the maximum cutoff (--hot-func-list needs a cutoff of at "
                            "least 990000)");
    }
    pbc_dentry de[1];
    uint32_t one = cuts[k];
    pbc_sum_detailed(sm, &one, 1, de);
    free(owned);
    uint64_t threshold = de[0].min_count;
    if (st->nhl) qsort(st->hl, st->nhl, sizeof *st->hl, hot_list_cmp);
    if (st->json) {
        ju(out, ", \"hot_count_threshold\": ", threshold);
        fputs(", \"hot_functions\": [", out);
    } else {
        fprintf(out, "# Hot count threshold: %" PRIu64 "\n", threshold);
    }
    for (size_t i = 0; i < st->nhl && st->hl[i].max >= threshold; i++) {
        if (st->json) {
            fputs(i ? ", {" : "{", out);
            json_name(out, "name", st->hl[i].name, st->hl[i].len);
            fputc('}', out);
        } else {
            fwrite(st->hl[i].name, 1, st->hl[i].len, out);
            fputc('\n', out);
        }
    }
    if (st->json) fputc(']', out);
    return 0;
}

/* ---- the end of show: what follows the records -------------------------------------- */

/* "Instrumentation level", the totals and maxima, the --value-cutoff lines. */
static void print_heading(const pbc_show_llvm_state *st, const pbc_summary *smp) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    uint64_t flags = st->flags;
    int is_ir = st->is_ir, json = st->json;
    const pbc_summary sm = *smp;
    size_t shown = st->shown, below = st->below;
    const pbi_llvm_target *tg = &st->tg;
    int entry_first = (flags & PB_VARIANT_ENTRY_FIRST) != 0;
    if (json) {
        fprintf(out, ", \"instrumentation_level\": \"%s\"", is_ir ? "IR" : "Front-end");
        if (is_ir) fprintf(out, ", \"entry_first\": %d", entry_first);
        if (o->all_functions || (o->function && *o->function)) fprintf(out, ", \"functions_shown\": %zu", shown);
        fprintf(out, ", \"total_functions\": %" PRIu64, sm.num_functions);
        if (o->value_cutoff)
            fprintf(out, ", \"functions_below_cutoff\": %zu, \"functions_at_or_above_cutoff\": %" PRIu64,
                    below, sm.num_functions - below);
        ju(out, ", \"maximum_function_count\": ", sm.max_function);
        ju(out, ", \"maximum_internal_block_count\": ", sm.max_internal);
    } else {
        fprintf(out, "Instrumentation level: %s", is_ir ? "IR" : "Front-end");
        if (is_ir) fprintf(out, "  entry_first = %d", entry_first);
        if (is_ir && pbi_llvm_has(tg, PBI_LF_SHOW_LOOP_ENTRIES))
            fprintf(out, "  instrument_loop_entries = %d", (flags & PB_VARIANT_INSTR_LOOP_ENTRIES) != 0);
        fputc('\n', out);
        if (o->all_functions || (o->function && *o->function)) fprintf(out, "Functions shown: %zu\n", shown);
        /* LLVM 20+ prints the pbc_summary with ProfileSummary::printSummary:
         * the totals follow the maxima (with or without --detailed-summary)
         * and the --value-cutoff lines come after them, not before */
        int print_summary = pbi_llvm_has(tg, PBI_LF_SHOW_BLOCK_TOTALS);
        fprintf(out, "Total functions: %" PRIu64 "\n", sm.num_functions);
        if (!print_summary) print_cutoff_counts(out, o->value_cutoff, below, sm.num_functions);
        fprintf(out, "Maximum function count: %" PRIu64 "\nMaximum internal block count: %" PRIu64 "\n",
                sm.max_function, sm.max_internal);
        if (print_summary) {
            fprintf(out, "Total number of blocks: %" PRIu32 "\nTotal count: %" PRIu64 "\n", sm.num_counts, sm.total);
            print_cutoff_counts(out, o->value_cutoff, below, sm.num_functions);
        }
    }
}

/* --topn: the heap popped ascending, printed descending. */
static int print_topn(pbc_show_llvm_state *st, pb_error *err) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json;
    size_t nhot = st->nhot;
    hot *heap = st->heap;
    {
        size_t n = nhot;
        hot *sorted = calloc(n ? n : 1, sizeof *sorted);
        if (!sorted) {
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        }
        for (size_t k = 0; k < n; k++) {
            sorted[k] = heap[0];
            heap_pop(heap, &nhot);
        }
        if (json) fputs(", \"top_functions\": [", out);
        else fprintf(out, "Top %u functions with the largest internal block counts: \n", o->topn);
        for (size_t k = n; k-- > 0;) {
            if (json) {
                fputs(k + 1 == n ? "{" : ", {", out);
                json_name(out, "name", sorted[k].name, sorted[k].len);
                ju(out, ", \"max_count\": ", sorted[k].max);
                fputc('}', out);
            } else {
                fputs("  ", out);
                fwrite(sorted[k].name, 1, sorted[k].len, out);
                fprintf(out, ", max count = %" PRIu64 "\n", sorted[k].max);
            }
        }
        if (json) fputc(']', out);
        free(sorted);
    }
    st->nhot = nhot;
    return 0;
}

/* "Statistics for ... profile" of each value kind asked for. */
static void print_value_stats(const pbc_show_llvm_state *st) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json;
    size_t shown = st->shown;
    const vstats *vs = st->vs;
    static const char *const stat_title[3] = {"indirect call sites", "memory intrinsic calls sizes", "vtable"};
    static const char *const stat_key[3] = {"indirect_call_statistics", "memop_statistics", "vtable_statistics"};
    static const unsigned stat_order[3] = {PB_VK_INDIRECT_CALL, PB_VK_VTABLE, PB_VK_MEMOP_SIZE};
    for (unsigned q = 0; q < 3; q++) {
        unsigned k = stat_order[q];
        int want = k == PB_VK_INDIRECT_CALL ? o->ic_targets : k == PB_VK_VTABLE ? o->show_vtables : o->memop_sizes;
        if (!shown || !want) continue;
        if (json) {
            fprintf(out, ", \"%s\": ", stat_key[k]);
        } else {
            fprintf(out, "Statistics for %s profile:\n", stat_title[k]);
        }
        print_stats(out, &vs[k], json);
    }
}

/* --detailed-summary: the blocks above each cutoff. */
static int print_detailed_summary(const pbc_show_llvm_state *st, const pbc_summary *smp, pb_error *err) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json, rc;
    const pbc_summary sm = *smp;
    const pbi_llvm_target *tg = &st->tg;
    uint32_t *cut = NULL;
    size_t ncut = 0;
    {
        const uint32_t *cuts;
        if ((rc = summary_cutoffs(o, tg, &cuts, &ncut, &cut, err))) return rc;
        pbc_dentry *de = calloc(ncut ? ncut : 1, sizeof *de);
        if (!de) {
            free(cut);
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        }
        pbc_sum_detailed(&sm, cuts, ncut, de);
        if (json) {
            fprintf(out, ", \"total_blocks\": %" PRIu32, sm.num_counts);
            ju(out, ", \"total_count\": ", sm.total);
            fputs(", \"detailed_summary\": [", out);
        }
        else if (pbi_llvm_has(tg, PBI_LF_SHOW_BLOCK_TOTALS))
            fputs("Detailed summary:\n", out); /* the totals were printed above */
        else
            fprintf(out, "Total number of blocks: %" PRIu32 "\nTotal count: %" PRIu64 "\nDetailed summary:\n",
                    sm.num_counts, sm.total);
        int with_blocks = pbi_llvm_has(tg, PBI_LF_SHOW_SUMMARY_BLOCKS);
        for (size_t k = 0; k < ncut; k++) {
            if (json) {
                fprintf(out, "%s{\"cutoff\": %" PRIu32, k ? ", " : "", de[k].cutoff);
                ju(out, ", \"min_count\": ", de[k].min_count);
                fprintf(out, ", \"blocks\": %" PRIu64 "}", de[k].num);
            } else if (with_blocks) {
                /* ProfileSummary::printDetailedSummary, in its float arithmetic */
                float share = sm.num_counts ? 100.f * (float)de[k].num / (float)sm.num_counts : 0;
                float pct = 100.f * (float)de[k].cutoff / 1000000.0f;
                fprintf(out, "%" PRIu64 " blocks (%.2f%%) with count >= %" PRIu64
                             " account for %0.6g%% of the total counts.\n",
                        de[k].num, (double)share, de[k].min_count, (double)pct);
            } else {
                double pct = (double)((float)de[k].cutoff / 1000000.0f * 100.0f);
                fprintf(out, "%" PRIu64 " blocks with count >= %" PRIu64 " account for %0.6g percentage of the total counts.\n",
                        de[k].num, de[k].min_count, pct);
            }
        }
        if (json) fputc(']', out);
        free(de);
    }
    free(cut);
    return 0;
}

/* --binary-ids: of every profile of the file, or the last one's (LLVM 13-17). */
static void print_binary_ids(const pbc_show_llvm_state *st, const pb_profile *p) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json;
    const pbi_llvm_target *tg = &st->tg;
    size_t nparts = o->nparts ? o->nparts : 1;
    /* LLVM 15-17's raw reader kept only the last profile's ids of a file
     * holding several (each profile's header replaced the list) */
    size_t first_part = nparts > 1 && pbi_llvm_has(tg, PBI_LF_BINARY_IDS_LAST_ONLY) ? nparts - 1 : 0;
    size_t nbid = 0;
    for (size_t pi = first_part; pi < nparts; pi++) nbid += pb_profile_binary_id_count(o->nparts ? o->parts[pi] : p);
    /* the heading also for an indexed file without ids
     * (IndexedInstrProfReader::printBinaryIds) where the release has it,
     * never for a raw one */
    if (o->binary_ids &&
        (nbid || (pbi_llvm_has(tg, PBI_LF_SHOW_BINARY_IDS_HEADING) && strcmp(pb_profile_origin(p)->format, "indexed") == 0))) {
        fputs(json ? ", \"binary_ids\": [" : "Binary IDs: \n", out);
        for (size_t pi = first_part, k = 0; pi < nparts; pi++) {
            const pb_profile *bp = o->nparts ? o->parts[pi] : p;
            for (size_t q = 0; q < pb_profile_binary_id_count(bp); q++, k++) {
                size_t len;
                const uint8_t *id = pb_profile_binary_id(bp, q, &len);
                if (json) fputs(k ? ", \"" : "\"", out);
                for (size_t b = 0; b < len; b++) fprintf(out, "%02x", id[b]);
                fputs(json ? "\"" : "\n", out);
            }
        }
        if (json) fputc(']', out);
    }
}

/* --profile-version: raw's whole version word, indexed's low 32 bits. */
static void print_profile_version(const pbc_show_llvm_state *st, const pb_profile *p) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json;
    uint64_t flags = st->flags;
    if (o->profile_version) {
        const pb_origin *org = pb_profile_origin(p);
        /* raw: the whole version word; indexed: its low 32 bits (spec §4) */
        uint64_t v = org->version;
        if (strcmp(org->format, "raw") == 0) v |= flags;
        if (json) ju(out, ", \"profile_version\": ", v);
        else fprintf(out, "Profile version: %" PRIu64 "\n", v);
    }
}

/* --temporal-profile-traces. */
static void print_traces(const pbc_show_llvm_state *st, const pb_profile *p) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json;
    if (o->temporal_traces) {
        size_t nt = pb_profile_trace_count(p);
        if (json)
            fprintf(out, ", \"temporal_traces\": {\"samples\": %zu, \"seen\": %" PRIu64 ", \"traces\": [", nt,
                    pb_profile_trace_stream_size(p));
        else
            fprintf(out, "Temporal Profile Traces (samples=%zu seen=%" PRIu64 "):\n", nt,
                    pb_profile_trace_stream_size(p));
        for (size_t t = 0; t < nt; t++) {
            uint64_t w;
            size_t n;
            const uint64_t *refs = pb_profile_trace(p, t, &w, &n);
            if (json) {
                ju(out, t ? ", {\"weight\": " : "{\"weight\": ", w);
                fputs(", \"functions\": [", out);
            }
            else fprintf(out, "  Temporal Profile Trace %zu (weight=%" PRIu64 " count=%zu):\n", t, w, n);
            for (size_t k = 0; k < n; k++) {
                size_t nl;
                const char *nm = ref_name(p, refs[k], &nl);
                if (json) {
                    fputs(k ? ", {" : "{", out);
                    json_name(out, "name", nm, nl);
                    fputc('}', out);
                } else {
                    fputs("    ", out);
                    fwrite(nm, 1, nl, out);
                    fputc('\n', out);
                }
            }
            if (json) fputs("]}", out);
        }
        if (json) fputs("]}", out);
    }
}

int pbc_show_llvm_end(pbc_show_llvm_state *st, const pb_profile *p, pb_error *err) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json, rc = 0;
    pbc_summary sm = st->sm;
    size_t shown = st->shown;

    if (json && (o->text || o->covered || o->list_below_cutoff)) fputc(']', out);
    if (o->text || o->covered) {
        if (json) fputs("}\n", out);
        goto out;
    }
    if (json && shown) fputc(']', out);
    if (!sm.oom) pbc_sum_finish(&sm);
    if (sm.oom) {
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        goto out;
    }
    print_heading(st, &sm);
    if (st->heap_nomem) {
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory (--topn)");
        goto out;
    }
    if (o->topn && (rc = print_topn(st, err)) != 0) goto out;
    if (wants_hot_list(o, &st->tg) && (rc = print_hot_list(st, &sm, err)) != 0) goto out;
    print_value_stats(st);
    if (o->detailed_summary && (rc = print_detailed_summary(st, &sm, err)) != 0) goto out;
    print_binary_ids(st, p);
    if (o->profile_version) print_profile_version(st, p);
    if (o->temporal_traces) print_traces(st, p);
    if (json) fputs("}\n", out);
out:
    free(sm.f);
    free(sm.c);
    free(st->heap);
    free(st->hl);
    free(st);
    if (rc == 0 && ferror(out))
        rc = pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "cannot write the output");
    return rc;
}

int pbc_show_llvm(const pb_profile *p, const char *input_name, const pbc_show_llvm_opts *o,
                  FILE *out, pb_error *err) {
    pbc_show_llvm_state *st;
    (void)input_name;
    int rc = pbc_show_llvm_begin(&st, pb_profile_flags(p), o, out, err);
    if (rc) return rc;
    /* A raw file with several profiles (o->parts: each read alone) is listed
     * profile by profile, duplicates and all, as llvm-profdata show lists it. */
    size_t nparts = o->nparts ? o->nparts : 1;
    for (size_t pi = 0; pi < nparts; pi++) {
        const pb_profile *rp = o->nparts ? o->parts[pi] : p;
        size_t nrec = pb_profile_record_count(rp);
        for (size_t i = 0; i < nrec; i++) {
            const pb_record *r = pb_profile_record(rp, i);
            const char *name;
            size_t nlen;
            uint64_t hash;
            if ((rc = pb_profile_record_name(rp, r, &name, &nlen, &hash, err))) {
                pbc_show_llvm_free(st);
                return rc;
            }
            pbc_show_llvm_record(st, rp, r, name, nlen, hash);
        }
    }
    return pbc_show_llvm_end(st, p, err);
}
