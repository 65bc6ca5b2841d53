/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_listing.c -- a record that `llvm-profdata show` lists under
 * "Counters:" (--all-functions, --function): its hash, counters, function
 * count, block counts and value sites, or the same as a JSON object.
 */
#include <string.h>

#include "show_llvm_state.h"
#include "util/bytes.h"
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
/* The 8 hex digits of a 32-bit x as 8 bytes, the first digit in the
 * lowest byte, for a little-endian store: the nibbles spread one a byte,
 * then each turned into its digit at once (the digit-by-digit loop was 9%
 * of an indexed file's show). */
static uint64_t hex8(uint64_t x) {
    x = (x >> 16) | ((x & 0xffffu) << 32);
    x = ((x >> 8) & 0x000000ff000000ffu) | ((x & 0x000000ff000000ffu) << 16);
    x = ((x >> 4) & 0x000f000f000f000fu) | ((x & 0x000f000f000f000fu) << 8);
    uint64_t letters = ((x + 0x0606060606060606u) >> 4) & 0x0101010101010101u; /* 1 in a byte >= 10 */
    return x + 0x3030303030303030u + letters * ('a' - '0' - 10);
}
static void lb_hex16(pb_buf *l, uint64_t v) {
    uint8_t t[16];
    pb_put_u64(t, hex8(v >> 32), PB_ORDER_LE);
    pb_put_u64(t + 8, hex8(v & 0xffffffffu), PB_ORDER_LE);
    lb_put(l, (const char *)t, 16);
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

/* ---- one room check a record: the common case of many small records ---- */

/* Records with at most this many counters are written through a cursor into
 * room reserved once (a bound of their text); bigger ones piece by piece, so
 * the reservation stays small. The per-piece room checks and NUL stores were
 * a sixth of an indexed file's show. */
#define LISTING_DIRECT_MAX 4096u
#define U64_DIGITS 20u

static char *cur_put(char *p, const char *s, size_t n) {
    memcpy(p, s, n);
    return p + n;
}
static char *cur_u64(char *p, uint64_t v) {
    if (v < 10) {
        *p++ = (char)('0' + v);
        return p;
    }
    char t[U64_DIGITS];
    size_t i = sizeof t;
    for (; v; v /= 10) t[--i] = (char)('0' + v % 10);
    return cur_put(p, t + i, sizeof t - i);
}

/* The head and, with --counts, the block counts of a record written in place;
 * 0 when the record is too big for it (nothing written: the caller writes it
 * piece by piece). A failed reservation leaves the buffer failed (sticky), as
 * any append does; the flush reports it. */
static int put_record_direct(pbi_show_llvm_state *st, const pb_record *r, const char *name, size_t nlen,
                             uint64_t hash) {
    pb_buf *b = st->out;
    uint32_t n = r->num_counters;
    if (n > LISTING_DIRECT_MAX || nlen > SIZE_MAX / 2) return 0;
    /* fixed text 106 bytes + 3 numbers + n counts with ", " each */
    size_t bound = nlen + 128 + 3 * U64_DIGITS + (size_t)n * (U64_DIGITS + 2);
    if (pbu_buf_reserve(b, bound)) return 1;
    char *p = b->data + b->len;
    p = cur_put(p, "  ", 2);
    if (nlen) p = cur_put(p, name, nlen);
    p = cur_put(p, ":\n    Hash: 0x", 14);
    pb_put_u64((uint8_t *)p, hex8(hash >> 32), PB_ORDER_LE);
    pb_put_u64((uint8_t *)p + 8, hex8(hash & 0xffffffffu), PB_ORDER_LE);
    p += 16;
    p = cur_put(p, "\n    Counters: ", 15);
    p = cur_u64(p, n);
    *p++ = '\n';
    if (!st->is_ir) {
        p = cur_put(p, "    Function count: ", 20);
        p = cur_u64(p, n ? r->counters[0] : 0);
        *p++ = '\n';
    }
    if (st->o->counts) {
        p = cur_put(p, "    Block counts: [", 19);
        uint32_t start = st->is_ir ? 0 : 1;
        for (uint32_t k = start; k < n; k++) {
            if (k != start) p = cur_put(p, ", ", 2);
            p = cur_u64(p, r->counters[k]);
        }
        p = cur_put(p, "]\n", 2);
    }
    *p = '\0';
    b->len = (size_t)(p - b->data);
    return 1;
}

void pbi_show_record_lines(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                           size_t nlen, uint64_t hash) {
    count_shown(st);
    /* value sites (counted between the head and the block counts, listed
     * after them) print only when asked for */
    int sites = st->o->ic_targets || st->o->memop_sizes || st->o->show_vtables;
    if (!sites && put_record_direct(st, r, name, nlen, hash)) return;
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
