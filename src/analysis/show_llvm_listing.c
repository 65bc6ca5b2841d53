/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_listing.c -- a record that `llvm-profdata show` lists under
 * "Counters:" (--all-functions, --function): its hash, counters, function
 * count, block counts and value sites, or the same as a JSON object.
 */
#include <string.h>

#include "show_llvm_state.h"
#include "util/json_text.h"

/* ---- the hot lines of --all-functions --counts (no printf: it was a quarter of the time) ---- */

/* Short constant pieces copied in place while the buffer has room (the
 * call into pbu_buf_append for each was a fifth of an indexed file's show). */
static inline void lb_put(pb_buf *l, const char *s, size_t n) {
    if (!pbu_buf_try_append(l, s, n)) pbu_buf_append(l, s, n);
}
/* Most counts are below 100 (block counts, the number of counters): their
 * digits go in place, without the call into the general converter (which
 * was an eighth of an indexed file's show). */
static inline void lb_u64(pb_buf *l, uint64_t v) {
    if (v < 10) {
        char d = (char)('0' + v);
        lb_put(l, &d, 1);
    } else if (v < 100) {
        char d[2] = {(char)('0' + v / 10), (char)('0' + v % 10)};
        lb_put(l, d, 2);
    } else {
        pbu_buf_put_u64(l, v);
    }
}
static void lb_hex16(pb_buf *l, uint64_t v) {
    char t[16];
    for (int i = 15; i >= 0; i--, v >>= 4) t[i] = "0123456789abcdef"[v & 15];
    lb_put(l, t, 16);
}

/* ---- the text listing ---------------------------------------------------------- */

/* "Counters:" before the first record listed. */
static void count_shown(pbi_show_llvm_state *st) {
    if (!st->shown) pbu_buf_puts(st->out, "Counters:\n");
    st->shown++;
}

void pbi_show_pseudo_record(pbi_show_llvm_state *st, const pb_record *r, const char *name, size_t nlen,
                            uint64_t hash) {
    pb_buf *out = st->out;
    uint64_t c0 = r->counters[0];
    count_shown(st);
    pbu_buf_puts(out, "  ");
    pbu_buf_append(out, name, nlen);
    pbu_buf_printf(out, ":\n    Hash: 0x%016" PRIx64 "\n    Counters: %" PRIu32 "%s", hash, r->num_counters,
            c0 == PBI_PSEUDO_HOT ? "    <PseudoHot>\n" : "    <PseudoWarm>\n");
}

/* Name, hash, number of counters, and the function count of front-end profiles. */
static void put_record_head(pbi_show_llvm_state *st, const pb_record *r, const char *name, size_t nlen,
                            uint64_t hash) {
    pb_buf *lb = st->out;
    lb_put(lb, "  ", 2);
    lb_put(lb, name, nlen);
    lb_put(lb, ":\n    Hash: 0x", 14);
    lb_hex16(lb, hash);
    lb_put(lb, "\n    Counters: ", 15);
    lb_u64(lb, r->num_counters);
    lb_put(lb, "\n", 1);
    if (!st->is_ir) {
        lb_put(lb, "    Function count: ", 20);
        lb_u64(lb, r->num_counters ? r->counters[0] : 0);
        lb_put(lb, "\n", 1);
    }
}

/* --counts: the counters, without the function count of front-end profiles. */
static void put_block_counts(pbi_show_llvm_state *st, const pb_record *r) {
    pb_buf *lb = st->out;
    lb_put(lb, "    Block counts: [", 19);
    uint32_t start = st->is_ir ? 0 : 1;
    for (uint32_t k = start; k < r->num_counters; k++) {
        if (k != start) lb_put(lb, ", ", 2);
        lb_u64(lb, r->counters[k]);
    }
    lb_put(lb, "]\n", 2);
}

void pbi_show_record_lines(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                           size_t nlen, uint64_t hash) {
    count_shown(st);
    put_record_head(st, r, name, nlen, hash);
    pbi_show_site_counts(st, r);
    if (st->o->counts) put_block_counts(st, r);
    pbi_show_value_listings(st, rp, r);
}

/* ---- the JSON listing ---------------------------------------------------------- */

void pbi_show_record_json(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash) {
    pb_buf *out = st->out;
    int is_ir = st->is_ir;
    if (!st->shown) pbu_buf_puts(out, ", \"functions\": [");
    pbu_buf_puts(out, st->shown ? ", {" : "{");
    pbu_json_put_text_member(out, "name", name, nlen, PBU_JSON_HEX_SUFFIX);
    pbu_buf_printf(out, ", \"hash\": \"0x%016" PRIx64 "\", \"counters\": %" PRIu32, hash, r->num_counters);
    if (!is_ir) pbi_json_u64(out, ", \"function_count\": ", r->num_counters ? r->counters[0] : 0);
    pbi_show_site_counts(st, r);
    if (st->o->counts) {
        pbu_buf_puts(out, ", \"block_counts\": [");
        for (uint32_t k = is_ir ? 0 : 1; k < r->num_counters; k++)
            pbi_json_u64(out, k == (is_ir ? 0u : 1u) ? "" : ", ", r->counters[k]);
        pbu_buf_putc(out, ']');
    }
    pbi_show_value_listings(st, rp, r);
    pbu_buf_putc(out, '}');
    st->shown++;
}
