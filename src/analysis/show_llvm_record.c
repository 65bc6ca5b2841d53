/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_record.c -- one record of `llvm-profdata show`: which listing it
 * goes to (--text, --covered, --list-below-cutoff, the counters), what it adds
 * to the summary, --topn and --hot-func-list, in the order llvm-profdata's
 * showInstrProfile decides it.
 */
#include <string.h>

#include "show_llvm_state.h"
#include "util/json_text.h"

/* 1 if needle occurs in name[0..nlen) (names from files are not NUL-terminated). */
static int contains(const char *name, size_t nlen, const char *needle) {
    size_t k = strlen(needle);
    if (k > nlen) return 0;
    for (size_t i = 0; i + k <= nlen; i++)
        if (name[i] == needle[0] && memcmp(name + i, needle, k) == 0) return 1;
    return 0;
}

/* --all-functions, or --function NAME matching part of the name. */
static int is_shown(const pbi_show_llvm_opts *o, const char *name, size_t nlen) {
    return o->all_functions || (o->function && *o->function && contains(name, nlen, o->function));
}

/* --covered: the names of records with a nonzero counter. */
static void list_if_covered(pbi_show_llvm_state *st, const pb_record *r, const char *name, size_t nlen) {
    int any = 0;
    for (uint32_t k = 0; k < r->num_counters; k++) any |= r->counters[k] != 0;
    if (!any) return;
    if (st->json) {
        pbu_buf_puts(st->out, st->first_json_fn ? "{" : ", {");
        pbu_json_put_text_member(st->out, "name", name, nlen, PBU_JSON_HEX_SUFFIX);
        pbu_buf_putc(st->out, '}');
        st->first_json_fn = 0;
    } else {
        pbu_buf_append(st->out, name, nlen);
        pbu_buf_putc(st->out, '\n');
    }
}

/* The largest counter and the sum; LLVM 13-15 skip "invalid" counts (2^64-1). */
static void max_and_sum(const pb_record *r, int pseudo, uint64_t *fmax, uint64_t *fsum) {
    *fmax = *fsum = 0;
    for (uint32_t k = 0; k < r->num_counters; k++) {
        if (!pseudo && r->counters[k] == PBI_PSEUDO_HOT) continue;
        if (r->counters[k] > *fmax) *fmax = r->counters[k];
        *fsum += r->counters[k];
    }
}

/* --list-below-cutoff: a record whose largest counter is below --value-cutoff. */
static void list_below_cutoff(pbi_show_llvm_state *st, const char *name, size_t nlen, uint64_t fmax,
                              uint64_t fsum) {
    pb_buf *out = st->out;
    if (st->json) {
        pbu_buf_puts(out, st->first_json_fn ? "{" : ", {");
        pbu_json_put_text_member(out, "name", name, nlen, PBU_JSON_HEX_SUFFIX);
        pbi_json_u64(out, ", \"max\": ", fmax);
        pbi_json_u64(out, ", \"sum\": ", fsum);
        pbu_buf_putc(out, '}');
        st->first_json_fn = 0;
    } else {
        pbu_buf_puts(out, "  ");
        pbu_buf_append(out, name, nlen);
        pbu_buf_printf(out, ": (Max = %" PRIu64 " Sum = %" PRIu64 ")\n", fmax, fsum);
    }
}

/* A record at or above --value-cutoff competes for --hot-func-list and --topn. */
static void rank(pbi_show_llvm_state *st, const char *name, size_t nlen, uint64_t fmax) {
    if (pbi_show_wants_hot_list(st->o, &st->tg)) pbi_show_hot_list_add(st, (pbi_hot){name, nlen, fmax, st->nhl, 1});
    if (st->o->topn)
        pbi_show_topn_offer(st, (pbi_hot){name, nlen, fmax, st->nseen++,
                                          pbi_llvm_has(&st->tg, PBI_LF_SHOW_TOPN_FILE_ORDER)});
}

static void record_body(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash) {
    const pbi_show_llvm_opts *o = st->o;
    if (st->is_ir && ((hash & PB_HASH_CS_BIT) != 0) != (o->showcs != 0)) return;
    int show = is_shown(o, name, nlen);
    if (show && o->text) {
        pbi_show_text_record(st, rp, r, name, nlen, hash);
        return;
    }
    int pseudo = pbi_llvm_has(&st->tg, PBI_LF_SHOW_PSEUDO_COUNTS);
    pbi_summary_add(&st->sm, r->counters, r->num_counters); /* the rule of pseudo, set at begin */
    if (o->covered) {
        list_if_covered(st, r, name, nlen);
        return;
    }
    uint64_t c0 = r->num_counters ? r->counters[0] : 0;
    if (pseudo && (c0 == PBI_PSEUDO_HOT || c0 == PBI_PSEUDO_WARM)) {
        if (show && !st->json) pbi_show_pseudo_record(st, r, name, nlen, hash);
        return;
    }
    uint64_t fmax, fsum;
    max_and_sum(r, pseudo, &fmax, &fsum);
    if (fmax < o->value_cutoff) {
        st->below++;
        if (o->list_below_cutoff) list_below_cutoff(st, name, nlen, fmax, fsum);
        return;
    }
    if (o->list_below_cutoff) return;
    rank(st, name, nlen, fmax);
    if (!show) return;
    if (st->json) pbi_show_record_json(st, rp, r, name, nlen, hash);
    else pbi_show_record_lines(st, rp, r, name, nlen, hash);
}

int pbi_show_llvm_record(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                         size_t nlen, uint64_t hash, pb_error *err) {
    record_body(st, rp, r, name, nlen, hash);
    /* the listing goes out in blocks: a big profile's is never held whole */
    if (st->ob.len < PBI_SHOW_BLOCK && !st->ob.failed) return 0;
    return pbi_show_flush(&st->ob, st->sink, err);
}
