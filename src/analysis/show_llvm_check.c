/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_check.c -- would the chosen release's own llvm-profdata read
 * this file? profbridge reads every version, also when it prints as an
 * older or newer release (and as the llvm-profdata-N personality): where
 * that release's tool would refuse the file, a note says so, and the output
 * is what that release prints for the records it shows.
 */
#include <inttypes.h>

#include "show_llvm_state.h"

/* What a text file needs of a release's reader (TextInstrProfReader: an
 * unknown header line is "file header is corrupt", an unknown value kind or
 * a bitmap line "malformed"): 1 with *what naming the first thing release t
 * lacks, else 0. */
static int text_needs(const pb_profile *p, const pbi_llvm_target *t, const char **what) {
    uint64_t f = pb_profile_flags(p);
    if ((f & PB_VARIANT_TEMPORAL) && !pbi_llvm_has(t, PBI_LF_TEXT_TEMPORAL)) return *what = ":temporal_prof_traces", 1;
    if ((f & PB_VARIANT_BYTE_COVERAGE) && !pbi_llvm_has(t, PBI_LF_TEXT_BYTE_COVERAGE))
        return *what = ":single_byte_coverage", 1;
    if ((f & PB_VARIANT_INSTR_LOOP_ENTRIES) && !pbi_llvm_has(t, PBI_LF_TEXT_LOOP_ENTRIES))
        return *what = ":instrument_loop_entries", 1;
    int bitmap = !pbi_llvm_has(t, PBI_LF_TEXT_BITMAP), vtables = !pbi_llvm_has(t, PBI_LF_TEXT_VTABLE_SITES);
    for (size_t i = 0, n = pb_profile_record_count(p); i < n && (bitmap || vtables); i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (bitmap && r->num_bitmap_bytes) return *what = "MC/DC bitmap bytes", 1;
        if (vtables && r->num_sites[PB_VK_VTABLE]) return *what = "vtable value sites (IPVK_VTableTarget)", 1;
    }
    return 0;
}

static int note_of(const pbi_llvm_target *t, const pb_profile *p, const char *name, pb_error *e) {
    const pb_origin *org = pb_profile_origin(p);
    pb_format_form form = pb_format_form_of(pb_format_lookup(org->format));
    const char *what = NULL;
    pb_error_clear(e);
    /* RawInstrProfReader: the version must be the one its compiler-rt writes */
    if (form == PB_FORM_RAW && org->version != t->raw_version)
        pb_error_set(e, PB_EVERSION, PB_NO_OFFSET, NULL, "%s: raw version %" PRIu64 ", which llvm-profdata-%d does "
                     "not read (it reads only %" PRIu32 "); shown as llvm-profdata-%d prints it",
                     name, org->version, t->release, t->raw_version, t->release);
    /* IndexedInstrProfReader: versions up to the one its writer writes */
    else if (form == PB_FORM_INDEXED && org->version > t->indexed_version)
        pb_error_set(e, PB_EVERSION, PB_NO_OFFSET, NULL, "%s: indexed version %" PRIu64 " is newer than "
                     "llvm-profdata-%d reads (%" PRIu32 "); shown as llvm-profdata-%d prints it",
                     name, org->version, t->release, t->indexed_version, t->release);
    else if (form == PB_FORM_TEXT && text_needs(p, t, &what))
        pb_error_set(e, PB_EVERSION, PB_NO_OFFSET, NULL, "%s: llvm-profdata-%d's text reader does not know %s; "
                     "shown as llvm-profdata-%d prints it", name, t->release, what, t->release);
    return e->code != 0;
}

int pb_show_release_note(const pb_profile *p, int llvm_release, const char *name, pb_error *note) {
    pbi_llvm_target t;
    if (pbi_llvm_target_of(llvm_release ? llvm_release : PBI_LLVM_DEFAULT, &t) != 0) return 0;
    return note_of(&t, p, name, note);
}

void pbi_show_release_note(const pb_show_options *o, const pbi_llvm_target *t, const pb_profile *p,
                           const char *name) {
    pb_error e;
    /* only a release the caller named: nobody asked for the default's limits */
    if (!o->release_notes || !o->diag) return;
    if (note_of(t, p, name, &e)) o->diag(o->diag_ctx, PB_DIAG_NOTICE, &e);
}
