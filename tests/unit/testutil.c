/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* testutil.c -- see testutil.h. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char bufs[8][4096];
static int next_buf;

static const char *join(const char *base, const char *rel) {
    char *b = bufs[next_buf++ & 7];
    snprintf(b, sizeof bufs[0], "%s/%s", base, rel);
    return b;
}

const char *tu_src(const char *rel) { return join(PB_SOURCE_DIR, rel); }
const char *tu_shared(const char *rel) {
    const char *env = getenv("PB_SHARED_DIR");
    return join(env && *env ? env : PB_SHARED_DIR, rel);
}

int tu_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

char *tu_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *d = malloc(cap + 1);
    for (;;) {
        if (!d) break;
        size_t k = fread(d + n, 1, cap - n, f);
        n += k;
        if (n < cap) break;
        char *nd = realloc(d, cap * 2 + 1);
        if (!nd) {
            free(d);
            d = NULL;
            break;
        }
        d = nd;
        cap *= 2;
    }
    fclose(f);
    if (d) {
        d[n] = '\0';
        if (len) *len = n;
    }
    return d;
}

void tu_diag_fn(void *ctx, int severity, const pb_error *e) {
    tu_diag *d = ctx;
    if (severity >= 0 && severity < 3) d->count[severity]++;
    pb_error_format(e, d->last, sizeof d->last);
    size_t used = strlen(d->all);
    if (used + strlen(d->last) + 2 < sizeof d->all) {
        strcat(d->all, d->last);
        strcat(d->all, "\n");
    }
}

char *tu_write_memory(const pb_profile *p, const char *fmt, const pb_write_options *wo, size_t *len, int *rc) {
    pb_error err;
    pb_error_clear(&err);
    pb_sink *s = NULL;
    char *out = NULL;
    *rc = pb_sink_open_memory(&s, &err);
    if (*rc == 0) *rc = pb_write(p, s, pb_format_lookup(fmt), wo, &err);
    if (*rc == 0) {
        const uint8_t *m = pb_sink_memory(s, len);
        out = malloc(*len + 1);
        if (out) {
            memcpy(out, m, *len);
            out[*len] = 0;
        }
    }
    pb_sink_free(s);
    return out;
}
