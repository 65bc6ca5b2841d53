/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * report_fuzz.c -- libFuzzer target for the report writers (issue 23): the
 * bytes are cut in two at a point the first byte chooses, each half read as a
 * profile (any format, detected by content) and the pair goes through diff
 * (text, JSON, HTML), overlap (llvm-profdata's text and HTML) and, for an
 * iprof with samples, the flame graph (SVG with a title taken from the
 * bytes, speedscope JSON). Whatever a report holds must keep its kind's
 * rule (util/escape.h): the text, SVG and HTML outputs hold no control byte
 * but newline and tab, the JSON outputs are valid UTF-8. overlap's text is
 * llvm-profdata's (it prints names as they are) and is only run. Seeds: any
 * profile (tests/fuzz/iprof, text, indexed, raw).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "analysis/report_html.h"
#include "profbridge/compare.h"
#include "profbridge/format.h"
#include "profbridge/io.h"
#include "profbridge/profile.h"
#include "util/buf.h"
#include "util/json_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void no_controls(const uint8_t *d, size_t n) {
    for (size_t i = 0; i < n; i++)
        if ((d[i] < 0x20 && d[i] != '\n' && d[i] != '\t') || d[i] == 0x7f) abort();
}

static pb_profile *read_part(const uint8_t *d, size_t n) {
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.max_input_size = 1 << 20;
    if (pb_source_open_memory(&src, d, n, "fuzz", &err) != 0) return NULL;
    if (pb_read(&p, src, &ro, &err) != 0) p = NULL;
    pb_source_free(src);
    return p;
}

typedef int (*sink_fn)(void *ctx, pb_sink *out, pb_error *err);

/* Runs fn into a memory sink; checks the bytes by `json` (UTF-8) or not
 * (no control byte), unless check is 0. */
static void through_sink(sink_fn fn, void *ctx, int check, int json) {
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    if (pb_sink_open_memory(&s, &err) != 0) return;
    if (fn(ctx, s, &err) == 0 && pb_sink_commit(s, &err) == 0 && check) {
        size_t n = 0;
        const uint8_t *d = pb_sink_memory(s, &n);
        if (json && n && !pbu_utf8_valid(d, n)) abort();
        if (!json) no_controls(d, n);
    }
    pb_sink_free(s);
}

typedef struct pair {
    pb_profile *a, *b;
    pb_diff *d;
    int json;
} pair;

static int diff_text(void *ctx, pb_sink *out, pb_error *err) {
    pair *p = ctx;
    return pb_diff_write(p->d, p->a, p->b, "A\033", "B\x7f", p->json, out, err);
}
static int diff_html(void *ctx, pb_sink *out, pb_error *err) {
    pair *p = ctx;
    return pbi_html_diff(p->d, p->a, p->b, "A<\001", "B]]>", out, err);
}
static int overlap_text(void *ctx, pb_sink *out, pb_error *err) {
    pair *p = ctx;
    return pb_profile_overlap(p->a, p->b, NULL, out, err);
}
static int overlap_html(void *ctx, pb_sink *out, pb_error *err) {
    pair *p = ctx;
    return pbi_html_overlap(p->a, p->b, "A\033[2J", "B\"'", out, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > (1 << 20)) return 0;
    size_t cut = 1 + (size_t)data[0] * (size - 1) / 256;
    pb_profile *a = read_part(data + 1, cut - 1), *b = read_part(data + cut, size - cut);
    if (!a && !b) return 0;
    pair p = {a ? a : b, b ? b : a, NULL, 0};
    pb_error err;
    pb_error_clear(&err);
    if (pb_profile_diff(p.a, p.b, &p.d, &err) == 0) {
        through_sink(diff_text, &p, 1, 0);
        p.json = 1;
        through_sink(diff_text, &p, 1, 1);
        through_sink(diff_html, &p, 1, 0);
        pb_diff_free(p.d);
    }
    through_sink(overlap_text, &p, 0, 0);
    through_sink(overlap_html, &p, 1, 0);
    pbi_flame f;
    pb_error_clear(&err);
    int frc = pbi_flame_build(p.a, 0, &f, &err);
    if (frc == 0) {
        char title[32];
        size_t tn = size - cut < sizeof title - 1 ? size - cut : sizeof title - 1;
        memcpy(title, data + cut, tn);
        title[tn] = '\0';
        pbi_flame_svg_opts o = PBI_FLAME_SVG_OPTS_INIT;
        o.title = title;
        pb_buf svg = PB_BUF_INIT, js = PB_BUF_INIT;
        pbi_flame_svg(&f, &o, &svg);
        if (!svg.failed) no_controls((const uint8_t *)svg.data, svg.len);
        pbi_flame_speedscope(&f, title, &js);
        if (!js.failed && js.len && !pbu_utf8_valid(js.data, js.len)) abort();
        pbu_buf_free(&svg);
        pbu_buf_free(&js);
    }
    pbi_flame_free(&f); /* also after a failure (flame.h) */
    if (b) pb_profile_free(b);
    if (a) pb_profile_free(a);
    return 0;
}
