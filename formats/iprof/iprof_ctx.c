/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof_ctx.c -- parses context strings "method:bci<method:bci..." (spec §3).
 *
 * Grammar: frame *(sep frame); frame = 1*DIGIT ":" ["-"] 1*DIGIT. Leading
 * zeros and "-0" are accepted as the schema's regexes accept them. Method ids
 * must fit in int32 (they index Java-int tables), BCIs in int32.
 */
#include <stdlib.h>

#include "iprof_int.h"
#include "util/grow.h"

static int push(pbi_ctx_frame **frames, size_t *cap, size_t n, pbi_ctx_frame f) {
    if (pbu_grow((void **)frames, cap, n + 1, sizeof **frames)) return PB_ENOMEM;
    (*frames)[n] = f;
    return 0;
}

/* Reads 1*DIGIT at s[*i]; saturates at INT64_MAX. 0 when no digit. */
static int digits(const char *s, size_t len, size_t *i, int64_t *v) {
    size_t start = *i;
    int64_t x = 0;
    while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
        int d = s[*i] - '0';
        x = x > (INT64_MAX - d) / 10 ? INT64_MAX : x * 10 + d;
        (*i)++;
    }
    *v = x;
    return *i > start;
}

int pbi_ctx_parse(const char *s, size_t len, char sep, pbi_iprof_ctx_rule rule,
                  pbi_ctx_frame **frames, size_t *cap, size_t *n, size_t *bad) {
    size_t i = 0;
    int status = PBI_CTX_OK;
    *n = 0;
    *bad = 0;
    if (rule == PBI_CTX_MONITOR && !(len == 3 && s[0] == '0' && s[1] == ':' && s[2] == '0'))
        status = PBI_CTX_MONITOR_CTX; /* reported after a syntax check */
    for (;;) {
        int64_t m, b;
        size_t bci_start;
        int neg = 0;
        if (!digits(s, len, &i, &m)) goto syntax;
        if (i >= len || s[i] != ':') goto syntax;
        i++;
        bci_start = i;
        if (i < len && s[i] == '-') {
            neg = 1;
            i++;
        }
        if (!digits(s, len, &i, &b)) goto syntax;
        if (i < len && s[i] != sep) goto syntax;
        if (m > INT32_MAX) {
            if (!status) status = PBI_CTX_RANGE_METHOD;
            if (!*bad) *bad = bci_start;
        }
        if (neg ? b > (int64_t)INT32_MAX + 1 : b > INT32_MAX) {
            if (!status) status = PBI_CTX_RANGE_BCI;
            if (!*bad) *bad = bci_start;
        }
        if (*n == 0 && rule == PBI_CTX_ENTRY && !(i - bci_start == 1 && s[bci_start] == '0') &&
            !status)
            status = PBI_CTX_ENTRY_BCI;
        /* Out-of-range parts were reported above; keep the frame harmless. */
        int64_t bci = neg ? -b : b;
        pbi_ctx_frame f = {m > INT32_MAX ? 0 : m,
                           (bci < INT32_MIN || bci > INT32_MAX) ? 0 : (int32_t)bci};
        if (push(frames, cap, *n, f)) return PB_ENOMEM;
        (*n)++;
        if (i >= len) break;
        i++; /* separator */
    }
    return status;
syntax:
    *bad = i;
    return PBI_CTX_SYNTAX;
}
