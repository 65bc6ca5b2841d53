/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* merger_defer.c -- see merger_defer.h. */
#include "merger_defer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

static size_t keep_str(pb_buf *b, const char *s) {
    size_t at = b->len;
    pbu_buf_append(b, s, strlen(s) + 1);
    return at;
}

void pbi_defer_diag(void *ctx, int severity, const pb_error *e) {
    pbi_diag_defer *d = ctx;
    if (pbu_grow((void **)&d->v, &d->cap, d->n + 1, sizeof *d->v)) {
        d->oom = 1;
        return;
    }
    pbi_deferred_item *it = &d->v[d->n];
    it->severity = severity;
    it->code = e->code;
    it->offset = e->offset;
    it->source = keep_str(&d->text, e->source);
    it->path = e->path[0] ? keep_str(&d->text, e->path) : SIZE_MAX;
    it->message = keep_str(&d->text, e->message);
    if (d->text.failed) {
        d->oom = 1;
        return;
    }
    d->n++;
}

void pbi_defer_flush(pbi_diag_defer *d) {
    for (size_t i = 0; i < d->n; i++) {
        const pbi_deferred_item *it = &d->v[i];
        const char *t = d->text.data;
        pb_diag(d->fn, d->ctx, it->severity, it->code, t[it->source] ? t + it->source : NULL, it->offset,
                it->path == SIZE_MAX ? NULL : t + it->path, "%s", t + it->message);
    }
    if (d->oom)
        pb_diag(d->fn, d->ctx, PB_DIAG_WARNING, PB_ENOMEM, NULL, PB_NO_OFFSET, NULL,
                "some merge warnings were lost (out of memory)");
    d->n = 0;
    d->oom = 0;
    pbu_buf_reset(&d->text);
}

void pbi_defer_drop(pbi_diag_defer *d) {
    d->n = 0;
    d->oom = 0;
    pbu_buf_reset(&d->text);
}

void pbi_defer_free(pbi_diag_defer *d) {
    free(d->v);
    d->v = NULL;
    d->n = d->cap = 0;
    pbu_buf_free(&d->text);
}
