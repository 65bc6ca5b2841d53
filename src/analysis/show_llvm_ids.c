/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_ids.c -- the profile-level lines at the end of `llvm-profdata
 * show`: --binary-ids, --profile-version and --temporal-profile-traces.
 */
#include "show_llvm_state.h"
#include "util/json_text.h"

/* The LLVM form (raw, indexed, text) of the file p was read from. */
static pb_format_form form_of(const pb_profile *p) {
    return pb_format_form_of(pb_format_lookup(pb_profile_origin(p)->format));
}

static size_t count_binary_ids(const pbi_show_llvm_opts *o, const pb_profile *p, size_t first_part,
                               size_t nparts) {
    size_t nbid = 0;
    for (size_t pi = first_part; pi < nparts; pi++) nbid += pb_profile_binary_id_count(o->nparts ? o->parts[pi] : p);
    return nbid;
}

static void print_binary_id(pb_buf *out, const uint8_t *id, size_t len, int json, int first) {
    if (json) pbu_buf_puts(out, first ? "\"" : ", \"");
    for (size_t b = 0; b < len; b++) pbu_buf_printf(out, "%02x", id[b]);
    pbu_buf_puts(out, json ? "\"" : "\n");
}

/* --binary-ids: of every profile of the file, or the last one's (LLVM 13-17). */
void pbi_show_binary_ids(const pbi_show_llvm_state *st, const pb_profile *p) {
    const pbi_show_llvm_opts *o = st->o;
    size_t nparts = o->nparts ? o->nparts : 1;
    /* LLVM 15-17's raw reader kept only the last profile's ids of a file
     * holding several (each profile's header replaced the list) */
    size_t first_part = nparts > 1 && pbi_llvm_has(&st->tg, PBI_LF_BINARY_IDS_LAST_ONLY) ? nparts - 1 : 0;
    size_t nbid = count_binary_ids(o, p, first_part, nparts);
    /* the heading also for an indexed file without ids
     * (IndexedInstrProfReader::printBinaryIds) where the release has it,
     * never for a raw one */
    if (!o->binary_ids ||
        !(nbid || (pbi_llvm_has(&st->tg, PBI_LF_SHOW_BINARY_IDS_HEADING) && form_of(p) == PB_FORM_INDEXED)))
        return;
    pbu_buf_puts(st->out, st->json ? ", \"binary_ids\": [" : "Binary IDs: \n");
    for (size_t pi = first_part, k = 0; pi < nparts; pi++) {
        const pb_profile *bp = o->nparts ? o->parts[pi] : p;
        for (size_t q = 0; q < pb_profile_binary_id_count(bp); q++, k++) {
            size_t len;
            const uint8_t *id = pb_profile_binary_id(bp, q, &len);
            print_binary_id(st->out, id, len, st->json, k == 0);
        }
    }
    if (st->json) pbu_buf_putc(st->out, ']');
}

/* --profile-version: raw's whole version word, indexed's low 32 bits (spec §4). */
void pbi_show_profile_version(const pbi_show_llvm_state *st, const pb_profile *p) {
    uint64_t v = pb_profile_origin(p)->version;
    if (form_of(p) == PB_FORM_RAW) v |= st->flags;
    if (st->json) pbi_json_u64(st->out, ", \"profile_version\": ", v);
    else pbu_buf_printf(st->out, "Profile version: %" PRIu64 "\n", v);
}

/* One trace: its weight, then the names of its functions in order. */
static void print_trace(const pbi_show_llvm_state *st, const pb_profile *p, size_t t) {
    pb_buf *out = st->out;
    uint64_t w;
    size_t n;
    const uint64_t *refs = pb_profile_trace(p, t, &w, &n);
    if (st->json) {
        pbi_json_u64(out, t ? ", {\"weight\": " : "{\"weight\": ", w);
        pbu_buf_puts(out, ", \"functions\": [");
    } else {
        pbu_buf_printf(out, "  Temporal Profile Trace %zu (weight=%" PRIu64 " count=%zu):\n", t, w, n);
    }
    for (size_t k = 0; k < n; k++) {
        size_t nl;
        const char *nm = pbi_show_ref_name(p, refs[k], &nl);
        if (st->json) {
            pbu_buf_puts(out, k ? ", {" : "{");
            pbu_json_put_text_member(out, "name", nm, nl, PBU_JSON_HEX_SUFFIX);
            pbu_buf_putc(out, '}');
        } else {
            pbu_buf_puts(out, "    ");
            pbu_buf_append(out, nm, nl);
            pbu_buf_putc(out, '\n');
        }
    }
    if (st->json) pbu_buf_puts(out, "]}");
}

/* --temporal-profile-traces. */
void pbi_show_traces(const pbi_show_llvm_state *st, const pb_profile *p) {
    size_t nt = pb_profile_trace_count(p);
    if (st->json)
        pbu_buf_printf(st->out, ", \"temporal_traces\": {\"samples\": %zu, \"seen\": %" PRIu64 ", \"traces\": [", nt,
                pb_profile_trace_stream_size(p));
    else
        pbu_buf_printf(st->out, "Temporal Profile Traces (samples=%zu seen=%" PRIu64 "):\n", nt,
                pb_profile_trace_stream_size(p));
    for (size_t t = 0; t < nt; t++) print_trace(st, p, t);
    if (st->json) pbu_buf_puts(st->out, "]}");
}
