/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_iprof.c -- the Java view of a profile read from iprof: a summary,
 * then the entries of every method with names, contexts and types resolved
 * (or, with --topn, the hottest entries). The model keeps iprof entries as
 * records of Java kinds (profile.h); this file only reads it. With --json
 * the same content is one JSON object (docs/schemas/show-java.schema.json).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/json_text.h"
#include "util/report_version.h"
#include "show_llvm_state.h"
#include "util/escape.h"
#include "bridge/java_text.h"

/* A name as our own listings print it (util/escape.h: control bytes as "\xNN"). */
static void term_puts(pb_buf *out, const char *s) {
    if (s) pbu_esc_term(out, s, strlen(s));
}

/* Section name and short label of each record kind (enum pb_record_kind). */
static const char *const section_names[PB_REC_KIND_COUNT] = {
    "functions (LLVM)", "callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
    "instanceOfProfiles", "monitorProfiles", "samplingProfiles"};
static const char *const kind_labels[PB_REC_KIND_COUNT] = {
    "function", "call-count", "branch", "virtual-invoke", "instanceof", "monitor", "sample"};
/* The sections' keys in the JSON summary. */
static const char *const section_keys[PB_REC_KIND_COUNT] = {
    "functions", "callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
    "instanceOfProfiles", "monitorProfiles", "samplingProfiles"};
/* The order sections are summarised in (as GraalVM writes them). */
static const int section_order[] = {PB_REC_JAVA_CALL_COUNT, PB_REC_JAVA_BRANCH,
                                    PB_REC_JAVA_VIRTUAL_INVOKE, PB_REC_JAVA_INSTANCEOF,
                                    PB_REC_JAVA_MONITOR, PB_REC_JAVA_SAMPLE, PB_REC_FUNCTION};

typedef struct view {
    const pb_profile *p;
    pb_buf *out;
    char **desc; /* rendered method descriptors, filled on first use */
    size_t num_methods;
    pb_buf tmp;
    pb_buf js; /* --json: the entry being written */
} view;

/* "Decl.name(P1,P2)Ret", the form Java tools print (java_text.c), cached per
 * method since the same methods recur in many contexts; NULL on no memory. */
static const char *method_desc(view *v, uint32_t m) {
    if (m >= v->num_methods) return "<no method>";
    if (v->desc[m]) return v->desc[m];
    pb_buf b = PB_BUF_INIT;
    pbi_java_put_method(v->p, m, PBI_JT_RAW, &b);
    if (pbu_buf_failed(&b)) {
        pbu_buf_free(&b);
        return NULL;
    }
    v->desc[m] = b.data;
    return b.data;
}

/* Prints the context callee-first: "A.f()V:3 < B.g()V:17". */
static int print_context(view *v, uint32_t ctx) {
    size_t n = 0;
    const pb_frame *f = ctx == PB_NONE ? NULL : pb_profile_context(v->p, ctx, &n);
    if (!f) {
        pbu_buf_puts(v->out, "(no context)");
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const char *d = method_desc(v, f[i].method);
        if (!d) return PB_ENOMEM;
        pbu_buf_puts(v->out, i ? " < " : "");
        term_puts(v->out, d);
        pbu_buf_printf(v->out, ":%" PRId32, f[i].bci);
    }
    return 0;
}

/* The type (or vtable) name a value stands for. */
static void put_value_name(view *v, const pb_value *val) {
    uint32_t sym = val->symbol;
    if (sym == PB_NONE && pb_profile_find_symbol_md5(v->p, val->value, &sym) != 0) {
        pbu_buf_printf(&v->tmp, "<NameRef 0x%016" PRIx64 ">", val->value);
        return;
    }
    pbi_java_put_type(v->p, sym, PBI_JT_RAW, &v->tmp);
}

static int cmp_value_hot_first(const void *a, const void *b) {
    const pb_value *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* Prints the values of every site, hottest first (the model keeps them in
 * file or merge order, which says nothing to a reader); with json, appends
 * them to v->js as `"values": [{"role", "name" | "size", "count"}...]`. */
static int print_values(view *v, const pb_record *r, const char *what, int json) {
    if (json) pbu_buf_puts(&v->js, ", \"values\": [");
    int first = 1;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        size_t n = 0;
        for (uint32_t s = 0; s < r->num_sites[k]; s++) n += r->sites[k][s].num_values;
        if (n == 0) continue;
        pb_value *vals = malloc(n * sizeof *vals);
        if (!vals) return PB_ENOMEM;
        n = 0;
        for (uint32_t s = 0; s < r->num_sites[k]; s++)
            for (uint32_t i = 0; i < r->sites[k][s].num_values; i++) vals[n++] = r->sites[k][s].values[i];
        qsort(vals, n, sizeof *vals, cmp_value_hot_first);
        const char *role = k == PB_VK_VTABLE ? what : k == PB_VK_MEMOP_SIZE ? "size" : "target";
        for (size_t i = 0; i < n; i++) {
            pbu_buf_reset(&v->tmp);
            if (k == PB_VK_MEMOP_SIZE) pbu_buf_printf(&v->tmp, "%" PRIu64, vals[i].value);
            else put_value_name(v, &vals[i]);
            if (pbu_buf_failed(&v->tmp)) {
                free(vals);
                return PB_ENOMEM;
            }
            if (json) {
                pbu_buf_printf(&v->js, "%s{\"role\": \"%s\", ", first ? "" : ", ", role);
                if (k == PB_VK_MEMOP_SIZE)
                    pbu_buf_printf(&v->js, "\"size\": %" PRIu64, vals[i].value);
                else
                    pbu_json_put_text_member(&v->js, "name", v->tmp.data ? v->tmp.data : "", v->tmp.len,
                                             PBU_JSON_HEX_SUFFIX);
                pbu_buf_printf(&v->js, ", \"count\": %" PRIu64 "}", vals[i].count);
                first = 0;
            } else {
                pbu_buf_printf(v->out, "      %s ", role);
                pbu_esc_term(v->out, v->tmp.data ? v->tmp.data : "", v->tmp.len);
                pbu_buf_printf(v->out, ": %" PRIu64 "\n", vals[i].count);
            }
        }
        free(vals);
    }
    if (json) pbu_buf_putc(&v->js, ']');
    return 0;
}

/* `, "context": [{"method", "bci"}...]`, callee first; [] for none. */
static int json_context(view *v, uint32_t ctx) {
    size_t n = 0;
    const pb_frame *f = ctx == PB_NONE ? NULL : pb_profile_context(v->p, ctx, &n);
    pbu_buf_puts(&v->js, ", \"context\": [");
    for (size_t i = 0; f && i < n; i++) {
        const char *d = method_desc(v, f[i].method);
        if (!d) return PB_ENOMEM;
        pbu_buf_puts(&v->js, i ? ", {" : "{");
        pbu_json_put_text_member(&v->js, "method", d, strlen(d), PBU_JSON_HEX_SUFFIX);
        pbu_buf_printf(&v->js, ", \"bci\": %" PRId32 "}", f[i].bci);
    }
    pbu_buf_putc(&v->js, ']');
    return 0;
}

/* One entry as a JSON object, the text view's content (print_entry). */
static int json_entry(view *v, const pb_record *r, int first) {
    int kind = r->kind < PB_REC_KIND_COUNT ? r->kind : PB_REC_FUNCTION;
    pb_buf *b = &v->js;
    pbu_buf_reset(b);
    pbu_buf_printf(b, "%s{\"kind\": \"%s\"", first ? "" : ",\n    ", kind_labels[kind]);
    int rc = 0;
    uint64_t c0 = r->num_counters ? r->counters[0] : 0;
    if (kind == PB_REC_FUNCTION) {
        size_t len = 0;
        const char *n = r->name == PB_NONE ? "" : pb_profile_str(v->p, r->name, &len);
        pbu_buf_puts(b, ", ");
        pbu_json_put_text_member(b, "name", n, len, PBU_JSON_HEX_SUFFIX);
        pbu_buf_printf(b, ", \"hash\": \"0x%016" PRIx64 "\", \"counters\": [", r->hash);
        for (uint32_t i = 0; i < r->num_counters; i++) pbu_buf_printf(b, "%s%" PRIu64, i ? ", " : "", r->counters[i]);
        pbu_buf_putc(b, ']');
        rc = print_values(v, r, "vtable", 1);
    } else if ((rc = json_context(v, r->ctx)) != 0) {
        /* out of memory */
    } else if (kind == PB_REC_JAVA_CALL_COUNT || kind == PB_REC_JAVA_SAMPLE) {
        pbu_buf_printf(b, ", \"count\": %" PRIu64, c0);
    } else if (kind == PB_REC_JAVA_BRANCH) {
        size_t n = 0;
        const int32_t *lay = r->layout == PB_NONE ? NULL : pb_profile_ints(v->p, r->layout, &n);
        pbu_buf_printf(b, ", \"total\": %" PRIu64 ", \"successors\": [", c0);
        for (uint32_t i = 0; i + 1 < r->num_counters; i++) {
            if (lay && 2 * (size_t)i + 1 < n)
                pbu_buf_printf(b, "%s{\"bci\": %" PRId32 ", \"index\": %" PRId32 ", \"count\": %" PRIu64 "}",
                               i ? ", " : "", lay[2 * i], lay[2 * i + 1], r->counters[i + 1]);
            else
                pbu_buf_printf(b, "%s{\"successor\": %" PRIu32 ", \"count\": %" PRIu64 "}", i ? ", " : "", i,
                               r->counters[i + 1]);
        }
        pbu_buf_putc(b, ']');
    } else {
        pbu_buf_printf(b, ", \"total\": %" PRIu64, c0);
        rc = print_values(v, r, kind == PB_REC_JAVA_VIRTUAL_INVOKE ? "receiver" : "type", 1);
    }
    pbu_buf_putc(b, '}');
    if (!rc && pbu_buf_failed(b)) rc = PB_ENOMEM;
    if (!rc) pbu_buf_append(v->out, b->data, b->len);
    return rc;
}

static int print_entry(view *v, const pb_record *r) {
    int kind = r->kind < PB_REC_KIND_COUNT ? r->kind : PB_REC_FUNCTION;
    pbu_buf_printf(v->out, "  [%s] ", kind_labels[kind]);
    if (kind == PB_REC_FUNCTION) {
        size_t len;
        const char *n = r->name == PB_NONE ? "" : pb_profile_str(v->p, r->name, &len);
        pbu_esc_term(v->out, n, r->name == PB_NONE ? 0 : len);
        pbu_buf_printf(v->out, " (hash 0x%016" PRIx64 ")\n", r->hash);
        for (uint32_t i = 0; i < r->num_counters; i++)
            pbu_buf_printf(v->out, "      counter %" PRIu32 ": %" PRIu64 "\n", i, r->counters[i]);
        return print_values(v, r, "vtable", 0);
    }
    int rc = print_context(v, r->ctx);
    if (rc) return rc;
    pbu_buf_putc(v->out, '\n');
    uint64_t c0 = r->num_counters ? r->counters[0] : 0;
    switch (kind) {
    case PB_REC_JAVA_CALL_COUNT:
    case PB_REC_JAVA_SAMPLE:
        pbu_buf_printf(v->out, "      count: %" PRIu64 "\n", c0);
        return 0;
    case PB_REC_JAVA_BRANCH: {
        size_t n = 0;
        const int32_t *lay = r->layout == PB_NONE ? NULL : pb_profile_ints(v->p, r->layout, &n);
        pbu_buf_printf(v->out, "      total: %" PRIu64 "\n", c0);
        for (uint32_t i = 0; i + 1 < r->num_counters; i++) {
            if (lay && 2 * (size_t)i + 1 < n)
                pbu_buf_printf(v->out, "      successor bci %" PRId32 " (index %" PRId32 "): %" PRIu64 "\n",
                        lay[2 * i], lay[2 * i + 1], r->counters[i + 1]);
            else
                pbu_buf_printf(v->out, "      successor %" PRIu32 ": %" PRIu64 "\n", i, r->counters[i + 1]);
        }
        return 0;
    }
    default:
        pbu_buf_printf(v->out, "      total: %" PRIu64 "\n", c0);
        return print_values(v, r, kind == PB_REC_JAVA_VIRTUAL_INVOKE ? "receiver" : "type", 0);
    }
}

/* The method an entry is about: the callee-most frame of its context. */
static uint32_t entry_method(const pb_profile *p, const pb_record *r) {
    size_t n = 0;
    if (r->kind == PB_REC_FUNCTION || r->ctx == PB_NONE) return PB_NONE;
    const pb_frame *f = pb_profile_context(p, r->ctx, &n);
    return f && n ? f[0].method : PB_NONE;
}

typedef struct entry_ref {
    const char *method; /* descriptor, or NULL for entries of no method */
    uint8_t kind;
    size_t index;
    uint64_t count;
} entry_ref;

static int cmp_by_method(const void *a, const void *b) {
    const entry_ref *x = a, *y = b;
    /* Entries of no method (monitor, LLVM functions) come last. */
    if (!x->method != !y->method) return x->method ? -1 : 1;
    if (x->method && y->method) {
        int c = strcmp(x->method, y->method);
        if (c) return c;
    }
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_by_count(const void *a, const void *b) {
    const entry_ref *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The iprof version, "1.1.0". */
static void put_version(const pb_profile *p, char *buf, size_t n) {
    size_t len;
    const char *v = pb_profile_prop(p, "iprof.version", &len);
    if (v) {
        snprintf(buf, n, "%s", v);
        return;
    }
    uint64_t x = pb_profile_origin(p)->version;
    snprintf(buf, n, "%" PRIu64 ".%" PRIu64 ".%" PRIu64, x / 10000, x / 100 % 100, x % 100);
}

/* What the summary counts. */
typedef struct tally {
    size_t per_kind[PB_REC_KIND_COUNT];
    uint64_t calls, max_depth;
    int calls_saturated;
    size_t contexts; /* distinct */
} tally;

static int count_entries(const pb_profile *p, size_t nrec, tally *t) {
    memset(t, 0, sizeof *t);
    uint32_t *ctxs = malloc((nrec ? nrec : 1) * sizeof *ctxs);
    if (!ctxs) return PB_ENOMEM;
    size_t nctx = 0;
    for (size_t i = 0; i < nrec; i++) {
        const pb_record *r = pb_profile_record(p, i);
        t->per_kind[r->kind < PB_REC_KIND_COUNT ? r->kind : 0]++;
        if (r->kind == PB_REC_JAVA_CALL_COUNT && r->num_counters &&
            __builtin_add_overflow(t->calls, r->counters[0], &t->calls)) {
            t->calls = UINT64_MAX;
            t->calls_saturated = 1;
        }
        if (r->kind != PB_REC_FUNCTION && r->ctx != PB_NONE) {
            size_t n = 0;
            if (pb_profile_context(p, r->ctx, &n) && n > t->max_depth) t->max_depth = n;
            ctxs[nctx++] = r->ctx;
        }
    }
    qsort(ctxs, nctx, sizeof *ctxs, cmp_u32);
    for (size_t i = 0; i < nctx; i++)
        if (i == 0 || ctxs[i] != ctxs[i - 1]) t->contexts++;
    free(ctxs);
    return 0;
}

static int print_summary_json(view *v, const char *input_name, size_t nrec, const char *version, const tally *t) {
    const pb_profile *p = v->p;
    pb_buf *b = &v->js;
    pbu_buf_reset(b);
    pbu_buf_puts(b, "{\"format_version\": \"" PBU_REPORT_SHOW_JAVA "\", \"view\": \"java\", ");
    pbu_json_put_text_member(b, "input", input_name, strlen(input_name), PBU_JSON_HEX_SUFFIX);
    pbu_buf_puts(b, ",\n \"summary\": {");
    pbu_json_put_text_member(b, "version", version, strlen(version), PBU_JSON_HEX_SUFFIX);
    pbu_buf_printf(b, ", \"types\": %zu, \"methods\": %zu, \"entries\": %zu, \"sections\": {",
                   pb_profile_symbol_count(p), pb_profile_method_count(p), nrec);
    for (size_t k = 0, any = 0; k < sizeof section_order / sizeof section_order[0]; k++) {
        int kind = section_order[k];
        if (kind == PB_REC_FUNCTION && t->per_kind[kind] == 0) continue;
        pbu_buf_printf(b, "%s\"%s\": %zu", any++ ? ", " : "", section_keys[kind], t->per_kind[kind]);
    }
    pbu_buf_printf(b,
                   "}, \"total_call_count\": %" PRIu64 ", \"total_call_count_saturated\": %s, \"contexts\": %zu, "
                   "\"max_context_depth\": %" PRIu64 "}",
                   t->calls, t->calls_saturated ? "true" : "false", t->contexts, t->max_depth);
    if (pbu_buf_failed(b)) return PB_ENOMEM;
    pbu_buf_append(v->out, b->data, b->len);
    return 0;
}

static void print_summary_text(view *v, const char *input_name, size_t nrec, const char *version, const tally *t) {
    const pb_profile *p = v->p;
    pbu_buf_puts(v->out, "iprof profile ");
    term_puts(v->out, input_name);
    pbu_buf_puts(v->out, "\n  version:           ");
    term_puts(v->out, version);
    pbu_buf_putc(v->out, '\n');
    pbu_buf_printf(v->out, "  types:             %zu\n", pb_profile_symbol_count(p));
    pbu_buf_printf(v->out, "  methods:           %zu\n", pb_profile_method_count(p));
    pbu_buf_printf(v->out, "  entries:           %zu\n", nrec);
    for (size_t k = 0; k < sizeof section_order / sizeof section_order[0]; k++) {
        int kind = section_order[k];
        if (kind == PB_REC_FUNCTION && t->per_kind[kind] == 0) continue;
        pbu_buf_printf(v->out, "    %-24s %zu\n", section_names[kind], t->per_kind[kind]);
    }
    pbu_buf_printf(v->out, "  total call count:  %" PRIu64 "%s\n", t->calls, t->calls_saturated ? " (saturated)" : "");
    pbu_buf_printf(v->out, "  contexts:          %zu\n", t->contexts);
    pbu_buf_printf(v->out, "  max context depth: %" PRIu64 "\n", t->max_depth);
}

static int print_summary(view *v, const char *input_name, size_t nrec, int json) {
    tally t;
    if (count_entries(v->p, nrec, &t)) return PB_ENOMEM;
    char version[64];
    put_version(v->p, version, sizeof version);
    if (json) return print_summary_json(v, input_name, nrec, version, &t);
    print_summary_text(v, input_name, nrec, version, &t);
    return 0;
}

/* One ref per record: its method's descriptor (NULL: an entry of no
 * method), kind and first counter, for the orders below. */
static int collect_refs(view *v, entry_ref *refs, size_t nrec) {
    for (size_t i = 0; i < nrec; i++) {
        const pb_record *r = pb_profile_record(v->p, i);
        uint32_t m = entry_method(v->p, r);
        refs[i].method = NULL;
        if (m != PB_NONE && !(refs[i].method = method_desc(v, m))) return PB_ENOMEM;
        refs[i].kind = r->kind;
        refs[i].index = i;
        refs[i].count = r->num_counters ? r->counters[0] : 0;
    }
    return 0;
}

/* --topn N: the N entries with the highest first counter. */
static int print_top(view *v, entry_ref *refs, size_t nrec, unsigned topn, int json) {
    qsort(refs, nrec, sizeof *refs, cmp_by_count);
    size_t n = topn < nrec ? topn : nrec;
    if (json) pbu_buf_printf(v->out, ",\n \"top_entries\": [\n    ");
    else pbu_buf_printf(v->out, "\nTop %zu entries by count (first counter):\n", n);
    for (size_t i = 0; i < n; i++) {
        const pb_record *r = pb_profile_record(v->p, refs[i].index);
        int rc = json ? json_entry(v, r, i == 0) : print_entry(v, r);
        if (rc) return rc;
    }
    if (json) pbu_buf_puts(v->out, "]}\n");
    return 0;
}

/* 1 when refs[i] starts another method than refs[i - 1] (sorted by method). */
static int starts_method(const entry_ref *refs, size_t i) {
    if (i == 0 || refs[i].method == refs[i - 1].method) return i == 0;
    if (!refs[i].method || !refs[i - 1].method) return 1;
    return strcmp(refs[i].method, refs[i - 1].method) != 0;
}

/* --json: one object per method, entries of no method last (method null). */
static int print_methods_json(view *v, entry_ref *refs, size_t nrec) {
    qsort(refs, nrec, sizeof *refs, cmp_by_method);
    pbu_buf_puts(v->out, ",\n \"methods\": [");
    for (size_t i = 0; i < nrec; i++) {
        int next = starts_method(refs, i);
        if (next) {
            pbu_buf_reset(&v->js);
            pbu_buf_puts(&v->js, i ? "]},\n  {" : "\n  {");
            if (refs[i].method)
                pbu_json_put_text_member(&v->js, "method", refs[i].method, strlen(refs[i].method),
                                         PBU_JSON_HEX_SUFFIX);
            else
                pbu_buf_puts(&v->js, "\"method\": null");
            pbu_buf_puts(&v->js, ", \"entries\": [\n    ");
            if (pbu_buf_failed(&v->js)) return PB_ENOMEM;
            pbu_buf_append(v->out, v->js.data, v->js.len);
        }
        int rc = json_entry(v, pb_profile_record(v->p, refs[i].index), next);
        if (rc) return rc;
    }
    pbu_buf_puts(v->out, nrec ? "]}]}\n" : "]}\n");
    return 0;
}

/* The text view: entries under their method, entries of no method last. */
static int print_methods(view *v, entry_ref *refs, size_t nrec) {
    qsort(refs, nrec, sizeof *refs, cmp_by_method);
    const char *current = "";
    for (size_t i = 0; i < nrec; i++) {
        if (refs[i].method != current && (!refs[i].method || !current || strcmp(refs[i].method, current) != 0)) {
            current = refs[i].method;
            pbu_buf_putc(v->out, '\n');
            term_puts(v->out, current ? current : "(entries of no method)");
            pbu_buf_putc(v->out, '\n');
        }
        int rc = print_entry(v, pb_profile_record(v->p, refs[i].index));
        if (rc) return rc;
    }
    return 0;
}

int pbi_show_iprof(const pb_profile *p, const char *input_name, unsigned topn, int json, pb_buf *out,
                   pb_error *err) {
    view v = {p, out, NULL, pb_profile_method_count(p), PB_BUF_INIT, PB_BUF_INIT};
    size_t nrec = pb_profile_record_count(p);
    int rc = PB_ENOMEM;
    v.desc = calloc(v.num_methods ? v.num_methods : 1, sizeof *v.desc);
    entry_ref *refs = malloc((nrec ? nrec : 1) * sizeof *refs);
    if (v.desc && refs && (rc = collect_refs(&v, refs, nrec)) == 0 &&
        (rc = print_summary(&v, input_name, nrec, json)) == 0) {
        if (topn > 0) rc = print_top(&v, refs, nrec, topn, json);
        else if (json) rc = print_methods_json(&v, refs, nrec);
        else rc = print_methods(&v, refs, nrec);
    }
    if (rc == PB_ENOMEM) pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory while printing");
    if (v.desc)
        for (size_t i = 0; i < v.num_methods; i++) free(v.desc[i]);
    free(v.desc);
    free(refs);
    pbu_buf_free(&v.tmp);
    pbu_buf_free(&v.js);
    return rc;
}
