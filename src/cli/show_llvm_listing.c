/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_listing.c -- a record that `llvm-profdata show` lists under
 * "Counters:" (--all-functions, --function): its hash, counters, function
 * count, block counts and value sites, or the same as a JSON object.
 */
#include <string.h>

#include "show_llvm_state.h"
#include "util/json_text.h"

/* ---- the line buffer (the hot lines of --all-functions --counts) ---------------- */

static void lb_flush(pbc_linebuf *l) {
    if (l->n) fwrite(l->b, 1, l->n, l->out);
    l->n = 0;
}
static void lb_put(pbc_linebuf *l, const char *s, size_t n) {
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
static void lb_u64(pbc_linebuf *l, uint64_t v) {
    char t[20];
    size_t k = sizeof t;
    do t[--k] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    lb_put(l, t + k, sizeof t - k);
}
static void lb_hex16(pbc_linebuf *l, uint64_t v) {
    char t[16];
    for (int i = 15; i >= 0; i--, v >>= 4) t[i] = "0123456789abcdef"[v & 15];
    lb_put(l, t, 16);
}

/* ---- the text listing ---------------------------------------------------------- */

/* "Counters:" before the first record listed. */
static void count_shown(pbc_show_llvm_state *st) {
    if (!st->shown) fputs("Counters:\n", st->out);
    st->shown++;
}

void pbc_show_pseudo_record(pbc_show_llvm_state *st, const pb_record *r, const char *name, size_t nlen,
                            uint64_t hash) {
    FILE *out = st->out;
    uint64_t c0 = r->counters[0];
    count_shown(st);
    fputs("  ", out);
    fwrite(name, 1, nlen, out);
    fprintf(out, ":\n    Hash: 0x%016" PRIx64 "\n    Counters: %" PRIu32 "%s", hash, r->num_counters,
            c0 == PBC_PSEUDO_HOT ? "    <PseudoHot>\n" : "    <PseudoWarm>\n");
}

/* Name, hash, number of counters, and the function count of front-end profiles. */
static void put_record_head(pbc_show_llvm_state *st, const pb_record *r, const char *name, size_t nlen,
                            uint64_t hash) {
    pbc_linebuf *lb = &st->lb;
    lb->n = 0;
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
    lb_flush(lb);
}

/* --counts: the counters, without the function count of front-end profiles. */
static void put_block_counts(pbc_show_llvm_state *st, const pb_record *r) {
    pbc_linebuf *lb = &st->lb;
    lb_put(lb, "    Block counts: [", 19);
    uint32_t start = st->is_ir ? 0 : 1;
    for (uint32_t k = start; k < r->num_counters; k++) {
        if (k != start) lb_put(lb, ", ", 2);
        lb_u64(lb, r->counters[k]);
    }
    lb_put(lb, "]\n", 2);
    lb_flush(lb);
}

void pbc_show_record_lines(pbc_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                           size_t nlen, uint64_t hash) {
    count_shown(st);
    put_record_head(st, r, name, nlen, hash);
    pbc_show_site_counts(st, r);
    if (st->o->counts) put_block_counts(st, r);
    pbc_show_value_listings(st, rp, r);
}

/* ---- the JSON listing ---------------------------------------------------------- */

void pbc_show_record_json(pbc_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash) {
    FILE *out = st->out;
    int is_ir = st->is_ir;
    if (!st->shown) fputs(", \"functions\": [", out);
    fputs(st->shown ? ", {" : "{", out);
    pbc_json_fput_text_member(out, "name", name, nlen);
    fprintf(out, ", \"hash\": \"0x%016" PRIx64 "\", \"counters\": %" PRIu32, hash, r->num_counters);
    if (!is_ir) pbc_json_u64(out, ", \"function_count\": ", r->num_counters ? r->counters[0] : 0);
    pbc_show_site_counts(st, r);
    if (st->o->counts) {
        fputs(", \"block_counts\": [", out);
        for (uint32_t k = is_ir ? 0 : 1; k < r->num_counters; k++)
            pbc_json_u64(out, k == (is_ir ? 0u : 1u) ? "" : ", ", r->counters[k]);
        fputc(']', out);
    }
    pbc_show_value_listings(st, rp, r);
    fputc('}', out);
    st->shown++;
}
