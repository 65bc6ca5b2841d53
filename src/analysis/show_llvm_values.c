/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_values.c -- the value sites of `llvm-profdata show`
 * (--ic-targets, --show-vtables, --memop-sizes): the site counts and target
 * listings of a record and the statistics after the summary. llvm-profdata
 * prints the kinds in the order indirect calls, vtables, memops; the table
 * below holds that order and each kind's wording.
 */
#include "show_llvm_state.h"
#include "util/json_text.h"

typedef struct value_kind_text {
    unsigned kind;
    const char *count_line, *count_key;   /* the record's number of sites */
    const char *title, *listing_key;      /* the record's values */
    const char *stat_title, *stat_key;    /* "Statistics for ... profile" */
} value_kind_text;

static const value_kind_text kinds[3] = {
    {PB_VK_INDIRECT_CALL, "    Indirect Call Site Count: ", "indirect_call_sites", "Indirect Target Results",
     "indirect_targets", "indirect call sites", "indirect_call_statistics"},
    {PB_VK_VTABLE, "    Number of instrumented vtables: ", "vtable_sites", "VTable Results", "vtable_targets",
     "vtable", "vtable_statistics"},
    {PB_VK_MEMOP_SIZE, "    Number of Memory Intrinsics Calls: ", "memop_sites", "Memory Intrinsic Size Results",
     "memop_sizes", "memory intrinsic calls sizes", "memop_statistics"},
};

static int asked_for(const pbi_show_llvm_opts *o, unsigned kind) {
    return kind == PB_VK_INDIRECT_CALL ? o->ic_targets : kind == PB_VK_VTABLE ? o->show_vtables : o->memop_sizes;
}

/* A record's sites of a kind asked for; memops only when it has some. */
static int listed(const pbi_show_llvm_opts *o, const pb_record *r, unsigned kind) {
    return asked_for(o, kind) && (kind != PB_VK_MEMOP_SIZE || r->num_sites[PB_VK_MEMOP_SIZE]);
}

const char *pbi_show_ref_name(const pb_profile *p, uint64_t ref, size_t *len) {
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

void pbi_show_site_counts(const pbi_show_llvm_state *st, const pb_record *r) {
    for (unsigned q = 0; q < 3; q++) {
        const value_kind_text *vk = &kinds[q];
        if (!listed(st->o, r, vk->kind)) continue;
        if (st->json) pbu_buf_printf(st->out, ", \"%s\": %" PRIu32, vk->count_key, r->num_sites[vk->kind]);
        else pbu_buf_printf(st->out, "%s%" PRIu32 "\n", vk->count_line, r->num_sites[vk->kind]);
    }
}

/* Counts a site with values into st; returns the sum of its counts (1 for 0). */
static uint64_t count_site(pbi_vstats *st, const pb_site *site) {
    uint32_t nv = site->num_values;
    st->values += nv;
    st->with_values++;
    if (nv <= 256) st->hist[nv - 1]++;
    else st->hist_over++;
    uint64_t sum = 0;
    for (uint32_t k = 0; k < nv; k++) sum += site->values[k].count;
    return sum ? sum : 1;
}

static void print_value_json(pb_buf *out, const pb_profile *p, unsigned kind, uint32_t s, const pb_value *v,
                             double pct, int first) {
    pbu_buf_printf(out, "%s{\"site\": %" PRIu32 ", ", first ? "" : ", ", s);
    if (kind == PB_VK_MEMOP_SIZE) {
        pbi_json_u64(out, "\"value\": ", v->value);
    } else {
        size_t nl;
        const char *nm = pbi_show_ref_name(p, v->value, &nl);
        pbu_buf_printf(out, "\"ref\": \"0x%016" PRIx64 "\", ", v->value);
        pbu_json_put_text_member(out, "name", nm, nl, PBU_JSON_HEX_SUFFIX);
    }
    pbi_json_u64(out, ", \"count\": ", v->count);
    pbu_buf_printf(out, ", \"percent\": %.2f}", pct);
}

static void print_value_line(pb_buf *out, const pb_profile *p, unsigned kind, uint32_t s, const pb_value *v,
                             double pct) {
    pbu_buf_printf(out, "\t[ %2" PRIu32 ", ", s);
    if (kind == PB_VK_MEMOP_SIZE) {
        pbu_buf_printf(out, "%4" PRIu64, v->value);
    } else {
        size_t nl;
        const char *nm = pbi_show_ref_name(p, v->value, &nl);
        pbu_buf_append(out, nm, nl);
    }
    pbu_buf_printf(out, ", %10" PRId64 " ] (%.2f%%)\n", (int64_t)v->count, pct);
}

/* Every value of the record's sites of one kind, with its share of the site. */
static void print_sites(pbi_show_llvm_state *st, const pb_profile *p, const pb_record *r, unsigned kind) {
    pb_buf *out = st->out;
    uint32_t ns = r->num_sites[kind];
    int first = 1;
    st->vs[kind].sites += ns;
    if (st->json) pbu_buf_putc(out, '[');
    for (uint32_t s = 0; s < ns; s++) {
        const pb_site *site = &r->sites[kind][s];
        if (site->num_values == 0) continue;
        uint64_t sum = count_site(&st->vs[kind], site);
        for (uint32_t k = 0; k < site->num_values; k++) {
            const pb_value *v = &site->values[k];
            double pct = (double)v->count * 100.0 / (double)sum;
            if (st->json) print_value_json(out, p, kind, s, v, pct, first);
            else print_value_line(out, p, kind, s, v, pct);
            first = 0;
        }
    }
    if (st->json) pbu_buf_putc(out, ']');
}

void pbi_show_value_listings(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r) {
    for (unsigned q = 0; q < 3; q++) {
        const value_kind_text *vk = &kinds[q];
        if (!listed(st->o, r, vk->kind)) continue;
        if (st->json) pbu_buf_printf(st->out, ", \"%s\": ", vk->listing_key);
        else pbu_buf_printf(st->out, "    %s:\n", vk->title);
        print_sites(st, rp, r, vk->kind);
    }
}

static void print_stats_json(pb_buf *out, const pbi_vstats *st) {
    pbu_buf_printf(out, "{\"sites\": %" PRIu64 ", \"sites_with_values\": %" PRIu64 ", \"values\": %" PRIu64
                 ", \"histogram\": [",
            st->sites, st->with_values, st->values);
    int first = 1;
    for (unsigned i = 0; i < 256; i++)
        if (st->hist[i]) {
            pbu_buf_printf(out, "%s[%u, %" PRIu64 "]", first ? "" : ", ", i + 1, st->hist[i]);
            first = 0;
        }
    pbu_buf_puts(out, "]}");
}

static void print_stats_lines(pb_buf *out, const pbi_vstats *st) {
    pbu_buf_printf(out,
            "  Total number of sites: %" PRIu64 "\n  Total number of sites with values: %" PRIu64
            "\n  Total number of profiled values: %" PRIu64
            "\n  Value sites histogram:\n\tNumTargets, SiteCount\n",
            st->sites, st->with_values, st->values);
    for (unsigned i = 0; i < 256; i++)
        if (st->hist[i]) pbu_buf_printf(out, "\t%u, %" PRIu64 "\n", i + 1, st->hist[i]);
}

void pbi_show_value_stats(const pbi_show_llvm_state *st) {
    for (unsigned q = 0; q < 3; q++) {
        const value_kind_text *vk = &kinds[q];
        if (!st->shown || !asked_for(st->o, vk->kind)) continue;
        if (st->json) {
            pbu_buf_printf(st->out, ", \"%s\": ", vk->stat_key);
            print_stats_json(st->out, &st->vs[vk->kind]);
        } else {
            pbu_buf_printf(st->out, "Statistics for %s profile:\n", vk->stat_title);
            print_stats_lines(st->out, &st->vs[vk->kind]);
        }
    }
}
