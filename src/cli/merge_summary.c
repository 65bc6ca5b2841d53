/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* merge_summary.c -- see merge_summary.h. */
#include "merge_summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "util/buf.h"
#include "util/json_text.h"
#include "util/report_version.h"

typedef struct entry {
    char *path; /* NULL: never reached (the merge stopped before it) */
    uint64_t weight;
    int status;
    char error[2048]; /* "" when none */
} entry;

struct pbc_merge_summary {
    size_t n;
    entry *v;
    pb_sink *staged; /* the success summary, written but not committed */
};

pbc_merge_summary *pbc_merge_summary_new(size_t n) {
    pbc_merge_summary *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->n = n;
    if (!(s->v = calloc(n ? n : 1, sizeof *s->v))) {
        free(s);
        return NULL;
    }
    return s;
}

void pbc_merge_summary_input(pbc_merge_summary *s, size_t i, const char *path, uint64_t weight, int status,
                             const pb_error *err) {
    if (!s || i >= s->n) return;
    entry *e = &s->v[i];
    free(e->path);
    e->path = strdup(path); /* out of memory: written as null below */
    e->weight = weight;
    e->status = status;
    e->error[0] = '\0';
    if (err) pbc_error_text(err, e->error, sizeof e->error); /* the CLI's words, as on stderr */
}

static void text_member(pb_buf *b, const char *key, const char *s) {
    if (s) pbu_json_put_text_member(b, key, s, strlen(s), PBU_JSON_HEX_SUFFIX);
    else pbu_buf_printf(b, "\"%s\": null", key);
}

static void build(pb_buf *b, const pbc_merge_summary *s, const char *out_path, const char *out_format,
                  const pb_profile *merged, int release, const char *failure_mode, int exit_status) {
    static const char *const status_words[] = {"merged", "skipped-empty", "failed"};
    pbu_buf_puts(b, "{\"format_version\": \"" PBU_REPORT_MERGE "\", \"llvm_release\": ");
    pbu_buf_printf(b, "%d, \"failure_mode\": \"%s\", \"inputs\": [", release, failure_mode);
    for (size_t i = 0; i < s->n; i++) {
        const entry *e = &s->v[i];
        pbu_buf_puts(b, i ? ",\n  {" : "\n  {");
        text_member(b, "path", e->path);
        pbu_buf_printf(b, ", \"weight\": %" PRIu64 ", \"status\": \"%s\", ", e->weight,
                       e->path ? status_words[e->status] : "not-read");
        text_member(b, "error", e->error[0] ? e->error : NULL);
        pbu_buf_putc(b, '}');
    }
    pbu_buf_puts(b, "],\n \"output\": {");
    text_member(b, "path", out_path && strcmp(out_path, "-") != 0 ? out_path : NULL);
    pbu_buf_puts(b, ", ");
    text_member(b, "format", out_format);
    pbu_buf_printf(b, ", \"written\": %s}, \"records\": ", exit_status == 0 ? "true" : "false");
    if (merged) pbu_buf_printf(b, "%zu", pb_profile_record_count(merged));
    else pbu_buf_puts(b, "null");
    pbu_buf_printf(b, ", \"exit_status\": %d}\n", exit_status);
}

int pbc_merge_summary_stage(pbc_merge_summary *s, const char *path, const char *out_path, const char *out_format,
                            const pb_profile *merged, int release, const char *failure_mode) {
    if (strcmp(path, "-") == 0) return 0; /* standard output: written at the end */
    pb_buf b = PB_BUF_INIT;
    pb_error err;
    pb_error_clear(&err);
    build(&b, s, out_path, out_format, merged, release, failure_mode, 0);
    int rc = pbu_buf_failed(&b) ? pb_error_set(&err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory") : 0;
    if (!rc) rc = pb_sink_open_file(&s->staged, path, 0, &err);
    if (!rc) rc = pb_sink_write(s->staged, b.data, b.len, &err);
    pbu_buf_free(&b);
    if (rc) {
        pb_sink_free(s->staged);
        s->staged = NULL;
        pb_error_set_source(&err, path);
        pbc_print_error(&err);
        return PBC_EXIT_USAGE;
    }
    return 0;
}

int pbc_merge_summary_write(pbc_merge_summary *s, const char *path, const char *out_path, const char *out_format,
                            const pb_profile *merged, int release, const char *failure_mode, int exit_status) {
    if (s->staged) {
        pb_sink *st = s->staged;
        s->staged = NULL;
        if (exit_status == 0) { /* the staged summary says what happened */
            pb_error err;
            pb_error_clear(&err);
            int rc = pb_sink_commit(st, &err);
            pb_sink_free(st);
            if (rc) {
                pb_error_set_source(&err, path);
                pbc_print_error(&err);
                return PBC_EXIT_USAGE;
            }
            return 0;
        }
        pb_sink_free(st); /* it said success: replaced by the failure's summary below */
    }
    pb_buf b = PB_BUF_INIT;
    build(&b, s, out_path, out_format, merged, release, failure_mode, exit_status);
    if (pbu_buf_failed(&b)) {
        pbu_buf_free(&b);
        pbc_msg("out of memory writing the merge summary");
        return PBC_EXIT_USAGE;
    }
    FILE *f = pbc_open_out(path);
    if (!f) {
        pbu_buf_free(&b);
        return PBC_EXIT_USAGE;
    }
    fwrite(b.data, 1, b.len, f);
    pbu_buf_free(&b);
    return pbc_close_out(f, path, PBC_EXIT_OK);
}

void pbc_merge_summary_free(pbc_merge_summary *s) {
    if (!s) return;
    pb_sink_free(s->staged);
    for (size_t i = 0; i < s->n; i++) free(s->v[i].path);
    free(s->v);
    free(s);
}
