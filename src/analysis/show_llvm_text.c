/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_text.c -- a record of `llvm-profdata show --text`: what
 * InstrProfWriter::writeRecordInText writes (the .proftext form), or its
 * name, hash and counts as JSON.
 */
#include "show_llvm_state.h"
#include "util/json_text.h"

/* One value kind's sites: "NumValueSites", then per site its values. */
static void put_value_kind(pb_buf *out, const pb_profile *p, const pb_record *r, unsigned k) {
    static const char *const kind_str[3] = {"IPVK_IndirectCallTarget", "IPVK_MemOPSize", "IPVK_VTableTarget"};
    pbu_buf_printf(out, "# ValueKind = %s:\n%u\n# NumValueSites:\n%" PRIu32 "\n", kind_str[k], k, r->num_sites[k]);
    for (uint32_t s = 0; s < r->num_sites[k]; s++) {
        const pb_site *site = &r->sites[k][s];
        pbu_buf_printf(out, "%" PRIu32 "\n", site->num_values);
        for (uint32_t v = 0; v < site->num_values; v++) {
            const pb_value *pv = &site->values[v];
            if (k == PB_VK_MEMOP_SIZE) {
                pbu_buf_printf(out, "%" PRIu64 ":%" PRIu64 "\n", pv->value, pv->count);
                continue;
            }
            size_t nl;
            const char *nm = pbi_show_ref_name(p, pv->value, &nl);
            if (nl) pbu_buf_append(out, nm, nl);
            else pbu_buf_puts(out, "** External Symbol **");
            pbu_buf_printf(out, ":%" PRIu64 "\n", pv->count);
        }
    }
}

static void put_bitmap(pb_buf *out, const pb_record *r, const pbi_llvm_target *tg) {
    if (r->num_bitmap_bytes) {
        pbu_buf_printf(out, "# Num Bitmap Bytes:\n$%" PRIu32 "\n# Bitmap Byte Values:\n", r->num_bitmap_bytes);
        for (uint32_t i = 0; i < r->num_bitmap_bytes; i++) pbu_buf_printf(out, "0x%x\n", r->bitmap[i]);
        pbu_buf_putc(out, '\n');
    } else if (pbi_llvm_has(tg, PBI_LF_TEXT_BITMAP_ALWAYS)) {
        pbu_buf_puts(out, "# Num Bitmap Bytes:\n$0\n"); /* LLVM 24 writes the count for every record */
    }
}

static void put_text_record(pb_buf *out, const pb_profile *p, const char *name, size_t nlen, uint64_t hash,
                            const pb_record *r, const pbi_llvm_target *tg) {
    pbu_buf_append(out, name, nlen);
    pbu_buf_printf(out, "\n# Func Hash:\n%" PRIu64 "\n# Num Counters:\n%" PRIu32 "\n# Counter Values:\n", hash,
            r->num_counters);
    for (uint32_t i = 0; i < r->num_counters; i++) pbu_buf_printf(out, "%" PRIu64 "\n", r->counters[i]);
    put_bitmap(out, r, tg);
    unsigned nk = 0;
    for (unsigned k = 0; k < PB_VK_COUNT; k++) nk += r->num_sites[k] > 0;
    if (nk) {
        pbu_buf_printf(out, "# Num Value Kinds:\n%u\n", nk);
        for (unsigned k = 0; k < PB_VK_COUNT; k++)
            if (r->num_sites[k]) put_value_kind(out, p, r, k);
    }
    pbu_buf_putc(out, '\n');
}

void pbi_show_text_record(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash) {
    pb_buf *out = st->out;
    if (!st->json) {
        put_text_record(out, rp, name, nlen, hash, r, &st->tg);
        return;
    }
    pbu_buf_puts(out, st->first_json_fn ? "" : ", ");
    pbu_buf_putc(out, '{');
    pbu_json_put_text_member(out, "name", name, nlen, PBU_JSON_HEX_SUFFIX);
    pbu_buf_printf(out, ", \"hash\": \"0x%016" PRIx64 "\", \"counts\": [", hash);
    for (uint32_t k = 0; k < r->num_counters; k++) pbi_json_u64(out, k ? ", " : "", r->counters[k]);
    pbu_buf_puts(out, "]}");
    st->first_json_fn = 0;
}
