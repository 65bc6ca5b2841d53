/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* flame_write.c -- pb_flame_write (profbridge/flame.h): the stacks built
 * (flame.c) and drawn in the style asked for, then written in one piece. */
#include "profbridge/flame.h"

#include <string.h>

#include "analysis/flame.h"
#include "model/options.h"
#include "util/api.h"
#include "util/buf.h"
#include "util/json_text.h"

PBI_OPTIONS_INIT_FN(flame, FLAME)

/* Text the output holds as UTF-8 (JSON, SVG): s, or the fallback. */
static const char *utf8_or(const char *s, const char *fallback) {
    return s && pbu_utf8_valid(s, strlen(s)) ? s : fallback;
}

static void draw(const pbi_flame *f, const pb_flame_options *o, pb_buf *b, pb_buf *t) {
    const char *name = utf8_or(o->name, "profile");
    if (o->style == PB_FLAME_FOLDED) {
        pbi_flame_folded(f, b);
    } else if (o->style == PB_FLAME_SPEEDSCOPE) {
        pbi_flame_speedscope(f, name, b);
    } else {
        if (o->title) pbu_buf_puts(t, utf8_or(o->title, "Flame graph"));
        else pbu_buf_printf(t, "Flame graph of %s", name);
        pbi_flame_svg_opts so = PBI_FLAME_SVG_OPTS_INIT;
        so.width = o->width;
        so.title = t->data;
        so.distinct_colors = o->distinct_colors;
        so.min_width = o->min_width;
        pbi_flame_svg(f, &so, b);
    }
}

int pb_flame_write(pb_profile *p, const pb_flame_options *opts, pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    if (!p) return pbu_null_arg(err, __func__, "p");
    if (!out) return pbu_null_arg(err, __func__, "out");
    pb_flame_options o = PB_FLAME_OPTIONS_INIT;
    if (opts) {
        if (opts->version != PB_FLAME_OPTIONS_VERSION)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "%s: unknown pb_flame_options version %u",
                                __func__, opts->version);
        o = *opts;
    }
    if (o.style < PB_FLAME_FOLDED || o.style > PB_FLAME_SVG)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "style", "%s: unknown flame style %d", __func__, o.style);
    if (o.width < 100 || o.width > 100000)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "width", "%s: width %u outside 100 .. 100000", __func__,
                            o.width);
    pbi_flame f;
    pb_buf b = PB_BUF_INIT, t = PB_BUF_INIT;
    int rc = pbi_flame_build(p, o.no_bci, &f, err);
    if (rc == 0 && f.num_stacks == 0) {
        if (o.name) pb_error_set_source(err, o.name);
        rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, "samplingProfiles",
                          "no sampling profiles to draw (the %s profile has no samplingProfiles entries; "
                          "GraalVM writes them with --pgo-sampling)",
                          pb_profile_origin(p)->format[0] ? pb_profile_origin(p)->format : "input");
    }
    if (rc == 0) {
        draw(&f, &o, &b, &t);
        if (pbu_buf_failed(&b) || pbu_buf_failed(&t))
            rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory while drawing");
    }
    if (rc == 0 && b.len) rc = pb_sink_write(out, b.data, b.len, err);
    pbu_buf_free(&t);
    pbu_buf_free(&b);
    pbi_flame_free(&f);
    return rc;
}
