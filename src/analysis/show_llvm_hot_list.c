/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_hot_list.c -- `llvm-profdata show --hot-func-list` for
 * instrumentation profiles (LLVM 22+): the hot count threshold of the
 * summary, then the functions reaching it, hottest first.
 */
#include <stdlib.h>

#include "show_llvm_state.h"
#include "util/grow.h"
#include "util/json_text.h"

/* --hot-func-list prints something for instrumentation profiles only from
 * LLVM 22 on (before, the option is read and changes nothing); never with
 * --text or --covered, which print nothing else either. */
int pbi_show_wants_hot_list(const pbi_show_llvm_opts *o, const pbi_llvm_target *t) {
    return o->hot_func_list && !o->text && !o->covered && pbi_llvm_has(t, PBI_LF_SHOW_HOT_FUNC_LIST);
}

/* A failed growth is reported by pbi_show_hot_list, after the records. */
void pbi_show_hot_list_add(pbi_show_llvm_state *st, pbi_hot h) {
    if (st->hl_nomem) return;
    if (pbu_grow((void **)&st->hl, &st->hl_cap, st->nhl + 1, sizeof *st->hl)) {
        st->hl_nomem = 1;
        return;
    }
    st->hl[st->nhl++] = h;
}

/* Larger maxima first, equal ones in listing order (llvm-profdata 22-24
 * list them so: checked with 60 functions of 4 distinct counts). */
static int hot_list_cmp(const void *a, const void *b) {
    const pbi_hot *x = a, *y = b;
    if (x->max != y->max) return x->max > y->max ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* N, the smallest count of the summary's entry for 99% (ProfileSummaryBuilder's
 * hot threshold: the first cutoff >= 990000 of the detailed summary). */
static int hot_threshold(const pbi_show_llvm_state *st, const pbi_summary *sm, uint64_t *threshold,
                         pb_error *err) {
    enum { HOT_CUTOFF = 990000 }; /* ProfileSummaryCutoffHot's default */
    const uint32_t *cuts;
    uint32_t *owned;
    size_t ncut, k;
    int rc = pbi_show_summary_cutoffs(st->o, &st->tg, &cuts, &ncut, &owned, err);
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
    pbi_dentry de[1];
    uint32_t one = cuts[k];
    pbi_summary_detailed(sm, &one, 1, de);
    free(owned);
    *threshold = de[0].min_count;
    return 0;
}

/* "# Hot count threshold: N", then the functions whose largest counter reaches N. */
int pbi_show_hot_list(pbi_show_llvm_state *st, const pbi_summary *sm, pb_error *err) {
    pb_buf *out = st->out;
    uint64_t threshold = 0; /* set when hot_threshold succeeds; gcc -O2 cannot see it */
    if (st->hl_nomem) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory (--hot-func-list)");
    int rc = hot_threshold(st, sm, &threshold, err);
    if (rc) return rc;
    if (st->nhl) qsort(st->hl, st->nhl, sizeof *st->hl, hot_list_cmp);
    if (st->json) {
        pbi_json_u64(out, ", \"hot_count_threshold\": ", threshold);
        pbu_buf_puts(out, ", \"hot_functions\": [");
    } else {
        pbu_buf_printf(out, "# Hot count threshold: %" PRIu64 "\n", threshold);
    }
    for (size_t i = 0; i < st->nhl && st->hl[i].max >= threshold; i++) {
        if (st->json) {
            pbu_buf_puts(out, i ? ", {" : "{");
            pbu_json_put_text_member(out, "name", st->hl[i].name, st->hl[i].len, PBU_JSON_HEX_SUFFIX);
            pbu_buf_putc(out, '}');
        } else {
            pbu_buf_append(out, st->hl[i].name, st->hl[i].len);
            pbu_buf_putc(out, '\n');
        }
    }
    if (st->json) pbu_buf_putc(out, ']');
    return 0;
}
