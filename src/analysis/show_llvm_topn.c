/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_topn.c -- `llvm-profdata show --topn N`: the N functions with the
 * largest counters, kept in a heap that ranks ties the way
 * llvm-profdata's std::priority_queue (libstdc++) ranks them.
 */
#include <stdlib.h>

#include "llvm/stl_algo.h"
#include "show_llvm_state.h"
#include "util/grow.h"
#include "util/json_text.h"

/* std::priority_queue with "a.max > b.max" (a min-heap), as libstdc++ does it
 * (llvm/stl_algo.h), so that ties come out in the same order as
 * llvm-profdata's; from LLVM 22 the order is total: equal maxima rank by
 * file order, the later one lower. */
static int hot_less(const void *pa, const void *pb, void *ctx) {
    const pbi_hot *a = pa, *b = pb;
    (void)ctx;
    return a->max > b->max || (a->file_order && a->max == b->max && a->seq < b->seq);
}
_Static_assert(sizeof(pbi_hot) <= PBI_STL_MAX_ELEM, "an entry fits stl_algo's buffer");

/* priority_queue::push and pop */
static void heap_push(pbi_hot *h, size_t *n, pbi_hot v) {
    h[(*n)++] = v;
    pbi_stl_push_heap(h, *n, sizeof *h, hot_less, NULL);
}
static void heap_pop(pbi_hot *h, size_t *n) {
    pbi_stl_pop_heap(h, *n, sizeof *h, hot_less, NULL);
    (*n)--;
}

/* The heap grows as functions come (--topn 2^31-1 must not allocate 2^31
 * entries); a failed growth is reported by pbi_show_llvm_end. */
void pbi_show_topn_offer(pbi_show_llvm_state *st, pbi_hot h) {
    if (st->nhot == st->o->topn) {
        if (st->heap[0].max < h.max) {
            heap_pop(st->heap, &st->nhot);
            heap_push(st->heap, &st->nhot, h);
        }
        return;
    }
    if (st->heap_nomem) return;
    if (pbu_grow((void **)&st->heap, &st->heap_cap, st->nhot + 1, sizeof *st->heap)) {
        st->heap_nomem = 1;
        return;
    }
    heap_push(st->heap, &st->nhot, h);
}

static void print_hot(const pbi_show_llvm_state *st, const pbi_hot *h, int first) {
    pb_buf *out = st->out;
    if (st->json) {
        pbu_buf_puts(out, first ? "{" : ", {");
        pbu_json_put_text_member(out, "name", h->name, h->len, PBU_JSON_HEX_SUFFIX);
        pbi_json_u64(out, ", \"max_count\": ", h->max);
        pbu_buf_putc(out, '}');
    } else {
        pbu_buf_puts(out, "  ");
        pbu_buf_append(out, h->name, h->len);
        pbu_buf_printf(out, ", max count = %" PRIu64 "\n", h->max);
    }
}

/* The heap popped ascending, printed descending. */
int pbi_show_topn(pbi_show_llvm_state *st, pb_error *err) {
    pb_buf *out = st->out;
    size_t n = st->nhot;
    pbi_hot *sorted = calloc(n ? n : 1, sizeof *sorted);
    if (!sorted) return pbu_nomem(err, NULL);
    for (size_t k = 0; k < n; k++) {
        sorted[k] = st->heap[0];
        heap_pop(st->heap, &st->nhot);
    }
    if (st->json) pbu_buf_puts(out, ", \"top_functions\": [");
    else pbu_buf_printf(out, "Top %u functions with the largest internal block counts: \n", st->o->topn);
    for (size_t k = n; k-- > 0;) print_hot(st, &sorted[k], k + 1 == n);
    if (st->json) pbu_buf_putc(out, ']');
    free(sorted);
    return 0;
}
