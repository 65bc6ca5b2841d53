/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_file.c -- profbridge/show.h: an input read for show and printed into
 * a sink, in the LLVM view (show_llvm.c, byte for byte llvm-profdata-N's) or
 * the Java view (show_iprof.c). An indexed file is printed straight from its
 * bytes when the flags need no name table (show_indexed.c), a raw file as
 * its records are read (show_raw.c); else a raw file of several profiles is
 * listed profile by profile (show_parts.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/options.h"
#include "registry/registry.h"
#include "show_llvm_state.h"
#include "show_parts.h"
#include "util/grow.h"

PBI_OPTIONS_INIT_FN(show, SHOW)

struct pb_show_input {
    pb_profile *p;          /* the model (a raw file's profiles merged); NULL when streamed */
    pb_profile **parts;     /* a raw file of several profiles: each alone */
    size_t nparts;
    const pb_format *f;     /* the input's plugin */
    pbi_llvm_target tg;     /* the options' release */
    /* a streamed indexed file: its bytes (the source's mapping) */
    const uint8_t *data;
    size_t len;
    pb_source *raw; /* a streamed raw file: visited when printed (show_raw.c) */
    pb_read_options ro;
    char name[256];
};

void pb_show_input_free(pb_show_input *in) {
    if (!in) return;
    for (size_t k = 0; k < in->nparts; k++) pb_profile_free(in->parts[k]);
    free(in->parts);
    pb_profile_free(in->p);
    free(in);
}

static int check_options(const pb_show_options *o, pbi_llvm_target *tg, pb_error *err) {
    if (!o || o->version < 1 || o->version > PB_SHOW_OPTIONS_VERSION)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_show_options: unknown layout version");
    return pbi_llvm_target_for(o->llvm_release, tg, err);
}

/* The printer's options, streaming asked for: 1 when the flags allow it
 * for an input of that form. */
static int streamable(const pb_show_options *o, const pbi_llvm_target *tg, pb_format_form form) {
    pbi_show_llvm_opts so;
    pbi_show_llvm_opts_of(&so, o, tg);
    return form == PB_FORM_RAW ? pbi_show_raw_streamable(&so) : pbi_show_llvm_streamable(&so);
}

int pb_show_read(pb_show_input **inp, pb_source *src, const pb_read_options *ro, const pb_show_options *o,
                 pb_error *err) {
    *inp = NULL;
    pb_show_input *in = calloc(1, sizeof *in);
    if (!in) return pbu_nomem(err, NULL);
    int rc = check_options(o, &in->tg, err);
    in->ro = *ro;
    const char *name = pb_source_name(src);
    snprintf(in->name, sizeof in->name, "%s", name ? name : "");
    if (!rc && !ro->format) rc = pb_format_detect(src, &in->f, err);
    if (!rc && !in->f && !(in->f = pb_format_lookup(ro->format)))
        rc = pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "unknown format '%s'", ro->format);
    pb_format_form form = rc ? PB_FORM_OTHER : pb_format_form_of(in->f);
    if (!rc && form == PB_FORM_INDEXED && streamable(o, &in->tg, form)) {
        /* a regular file is mapped, anything else (gzip, a pipe) read into memory */
        rc = pb_source_map(src, &in->data, &in->len, err); /* read while printed (show_indexed.c) */
    } else if (!rc && form == PB_FORM_RAW && streamable(o, &in->tg, form)) {
        /* read while printed: nothing is held but the reader's tables */
        in->ro.format = pb_format_name(in->f);
        in->raw = src;
    } else if (!rc) {
        in->ro.format = pb_format_name(in->f);
        /* a raw file: its profiles one by one and their merged model, in one pass */
        if (form == PB_FORM_RAW) rc = pbi_show_raw_read(src, &in->ro, &in->p, &in->parts, &in->nparts, err);
        else rc = pb_read(&in->p, src, &in->ro, err);
        if (!rc) pbi_show_release_note(o, &in->tg, in->p, in->name);
    }
    if (rc) {
        pb_show_input_free(in);
        return rc;
    }
    *inp = in;
    return 0;
}

int pb_show_view(const pb_show_input *in, const pb_show_options *o) {
    /* a streamed input is a raw or indexed file: LLVM's */
    if (!in->p || o->llvm) return PB_SHOW_VIEW_LLVM;
    /* the model's origin, not the input's plugin: a json file of an iprof
     * profile is shown in the Java view too */
    const pb_format *origin = pb_format_lookup(pb_profile_origin(in->p)->format);
    return pb_format_family_of(origin) == PB_FAMILY_JAVA ? PB_SHOW_VIEW_JAVA : PB_SHOW_VIEW_LLVM;
}

int pb_show_write(pb_sink *out, pb_show_input *in, const char *input_name, const pb_show_options *o,
                  pb_error *err) {
    pbi_llvm_target tg;
    int rc = check_options(o, &tg, err);
    if (rc) return rc;
    pbi_show_llvm_opts so;
    pbi_show_llvm_opts_of(&so, o, &tg);
    if (in->raw) return pbi_show_raw_print(in->raw, &in->ro, in->name, &so, o, out, err);
    if (!in->p) return pbi_show_indexed_print(in->data, in->len, in->name, &in->ro, &so, o, out, err);
    if (pb_show_view(in, o) == PB_SHOW_VIEW_JAVA) {
        pb_buf b = PB_BUF_INIT;
        rc = pbi_show_iprof(in->p, input_name ? input_name : in->name, o->topn, o->json, &b, err);
        if (!rc) rc = pbi_show_flush(&b, out, err);
        pbu_buf_free(&b);
        return rc;
    }
    /* a file llvm-profdata cannot read is shown as the .profdata convert
     * writes of it (pb_read_options.llvm_view's rule, decided here once the
     * view is known: the Java view prints the profile as read) */
    if (pb_format_family_of(in->f) != PB_FAMILY_LLVM && (rc = pbi_llvm_view(&in->p, in->name, tg.release, err)) != 0)
        return rc;
    so.parts = (const pb_profile *const *)in->parts;
    so.nparts = in->nparts;
    return pbi_show_llvm(in->p, &so, out, err);
}

int pb_show_file(pb_sink *out, pb_source *src, const pb_read_options *ro, const pb_show_options *o, pb_error *err) {
    pb_show_input *in = NULL;
    int rc = pb_show_read(&in, src, ro, o, err);
    if (!rc) rc = pb_show_write(out, in, NULL, o, err);
    pb_show_input_free(in);
    return rc;
}

int pb_show_profile(pb_sink *out, const pb_profile *p, const pb_show_options *o, pb_error *err) {
    pbi_llvm_target tg;
    int rc = check_options(o, &tg, err);
    if (rc) return rc;
    pbi_show_llvm_opts so;
    pbi_show_llvm_opts_of(&so, o, &tg);
    return pbi_show_llvm(p, &so, out, err);
}
