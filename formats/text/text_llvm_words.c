/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * text_llvm_words.c -- what llvm-profdata says of a text profile it cannot
 * read (pb_format.llvm_claims and llvm_words; pb_llvm_read_error_words).
 *
 * LLVM reads any input whose first bytes are printable as a text profile,
 * so its text reader also speaks for text our probe did not take (JSON
 * that is no profile, prose): then TextInstrProfReader's complaint about
 * the first record is worked out here from the bytes. The words per
 * release are rows WORDS_TEXT_* of src/llvm/target.h;
 * tests/interop/llvm_input_errors.sh compares them with the real tools.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm/target.h"
#include "text_internal.h"

static int has(const char *text, const char *part) { return strstr(text, part) != NULL; }

/* llvm::isPrint and llvm::isSpace: ASCII, whatever the locale */
static int printable_or_space(uint8_t c) { return (c >= 0x20 && c < 0x7f) || (c >= '\t' && c <= '\r'); }

/* TextInstrProfReader::hasFormat: the first (up to) 8 bytes printable or
 * space (the binary forms' magics never are: they are tried first). */
int pbi_text_llvm_claims(const uint8_t *data, size_t len) {
    for (size_t i = 0; i < len && i < 8; i++)
        if (!printable_or_space(data[i])) return 0;
    return 1;
}

/* The lines of a text profile as LLVM's line_iterator yields them: blank
 * lines and '#' comments skipped; a line ends at '\n', and what follows a
 * '\r' or a NUL on it is not looked at. */
typedef struct lines {
    const uint8_t *p;
    size_t len, pos;
} lines;

static int next_line(lines *ls, const char **s, size_t *n) {
    while (ls->pos < ls->len) {
        const uint8_t *b = ls->p + ls->pos;
        const uint8_t *nl = memchr(b, '\n', ls->len - ls->pos);
        size_t all = nl ? (size_t)(nl - b) : ls->len - ls->pos;
        ls->pos += all + (nl != NULL);
        size_t k = 0;
        while (k < all && b[k] != '\r' && b[k] != '\0') k++;
        if (k && b[0] != '#') {
            *s = (const char *)b;
            *n = k;
            return 1;
        }
    }
    return 0;
}

/* StringRef::getAsInteger as LLVM's text reader calls it: the whole line a
 * number in `base` (0: C's prefixes) that fits 64 bits, no sign, no space. */
static int is_integer(const char *s, size_t n, int base, unsigned long long *v) {
    char buf[64], *end;
    if (n == 0 || n >= sizeof buf || s[0] == '-' || s[0] == '+' || s[0] == ' ' ||
        (s[0] >= '\t' && s[0] <= '\r'))
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    *v = strtoull(buf, &end, base);
    return errno == 0 && *end == '\0';
}

/* TextInstrProfReader's complaint about the first record of bytes our
 * reader did not take (readHeader, readNextRecord); NULL when it reads
 * them. *why: 1 when the words are the sub-message of "malformed ...",
 * 0 when they are a category of their own. */
static const char *first_record_words(const uint8_t *data, size_t len, int *why) {
    lines ls = {data, len, 0};
    const char *s;
    size_t n;
    unsigned long long v;
    *why = 0;
    if (!next_line(&ls, &s, &n)) return NULL; /* empty: an empty profile */
    if (s[0] == ':') return "invalid instrumentation profile data (file header is corrupt)";
    if (!next_line(&ls, &s, &n)) return "truncated profile data";
    *why = 1;
    if (!is_integer(s, n, 0, &v)) return "function hash is not a valid integer";
    *why = 0;
    if (!next_line(&ls, &s, &n)) return "truncated profile data";
    *why = 1;
    if (!is_integer(s, n, 10, &v)) return "number of counters is not a valid integer";
    if (v == 0) return "number of counters is zero";
    for (unsigned long long i = 0, k = v; i < k; i++) {
        *why = 0;
        if (!next_line(&ls, &s, &n)) return "truncated profile data";
        *why = 1;
        if (!is_integer(s, n, 10, &v)) return "count is invalid";
    }
    return NULL;
}

/* Our reader's error is about the first record's name, hash or counter
 * count (text_read.c's paths), where LLVM's first-record rule speaks too. */
static int first_record_error(const pb_error *e) {
    return strcmp(e->path, "record.FuncHash") == 0 || strcmp(e->path, "record.NumCounters") == 0;
}

int pbi_text_llvm_words(const pb_llvm_words_query *q, char *buf, size_t n) {
    const pb_error *e = q->error;
    pbi_llvm_target t;
    if (pbi_llvm_target_of(q->llvm_release, &t) != 0) return 0;
    int say_why = pbi_llvm_has(&t, PBI_LF_WORDS_TEXT_MALFORMED_WHY);
    if (q->unrecognized || first_record_error(e)) {
        /* no plugin took the bytes, or ours stopped in the first record (a
         * blank-lines-only head bids, text.c): LLVM's complaint about it */
        int why = 0;
        const char *w = first_record_words(q->data, q->len, &why);
        if (!w) return 0;
        if (!why) snprintf(buf, n, "%s", w);
        else snprintf(buf, n, "malformed instrumentation profile data%s%s", say_why ? ": " : "", say_why ? w : "");
        return 1;
    }
    /* our reader's errors about a record's counts (text_read.c) */
    if (e->line <= 0 || strcmp(e->path, "record.Counts") != 0) return 0;
    if (has(e->expected, "counter value") && has(e->found, "end")) {
        snprintf(buf, n, "truncated profile data");
        return 1;
    }
    if (has(e->expected, "decimal count")) {
        snprintf(buf, n, "malformed instrumentation profile data%s", say_why ? ": count is invalid" : "");
        return 1;
    }
    return 0;
}
