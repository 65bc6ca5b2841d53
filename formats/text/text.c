/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * text.c -- the descriptor of LLVM's text instrumentation profile plugin
 * (.proftext, `llvm-profdata merge --text`). Reader: text_read.c; writer:
 * text_write.c.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "text_internal.h"

static int line_is_number(const uint8_t *s, size_t n) {
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit(s[i]) && s[i] != 'x' && s[i] != 'X') return 0;
    return 1;
}

/*
 * LLVM's own rule (the first min(8, size) bytes are printable ASCII or
 * whitespace) accepts almost any text, JSON included, so we bid only on
 * positive evidence and low: 2 for a known ':' header line or a
 * "# Func Hash:" comment, 1 for the bare record shape (name, then two number
 * lines). iprof JSON never shows either.
 *
 * Comments ('#' in column 0) and empty lines are skipped as LLVM's
 * line_iterator skips them, however many there are: LLVM's own test inputs
 * open with long comment blocks. When the whole head is comments and empty
 * lines (a comment-only or blank file, "\n" say, is an empty profile to
 * llvm-profdata 13-24 merge; a longer comment block hides the first record
 * beyond the head) we bid 1: enough to
 * read it as text, never enough to tie or beat a binary format's magic
 * (8, raw's sample magic 4), and JSON/iprof input cannot start with '#'.
 */
static int text_probe(const uint8_t *head, size_t len) {
    size_t n8 = len < 8 ? len : 8;
    if (len == 0) return 0;
    for (size_t i = 0; i < n8; i++)
        if (!(isprint(head[i]) || isspace(head[i]))) return 0;
    static const char *const headers[] = {":ir", ":fe", ":csir", ":entry_first", ":not_entry_first",
                                          ":single_byte_coverage", ":temporal_prof_traces",
                                          ":instrument_loop_entries"};
    size_t pos = 0;
    int content = 0, numbers = 0, comments = 0;
    while (pos < len && content < 16) {
        const uint8_t *s = head + pos;
        const uint8_t *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        pos += n + 1;
        while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
        if (n >= 12 && memcmp(s, "# Func Hash:", 12) == 0) return 2;
        if (n && s[0] == '#') comments++;
        if (n == 0 || s[0] == '#') continue;
        if (!nl && content == 0) return comments ? 1 : 0; /* a line cut by the end of the head: no evidence */
        if (s[0] == ':' && content == 0) {
            for (size_t h = 0; h < sizeof headers / sizeof headers[0]; h++) {
                size_t hl = strlen(headers[h]);
                if (n == hl && strncasecmp((const char *)s, headers[h], hl) == 0) return 2;
            }
            return 0;
        }
        content++;
        if (content == 1) continue; /* the name */
        if (!line_is_number(s, n)) return 0;
        if (++numbers == 2) return 1;
    }
    return content == 0 ? 1 : 0;
}

static const char *const text_extensions[] = {".proftext", NULL};

static const pb_option_desc text_write_options[] = {
    {"keep-vtable-symbols", NULL, "name vtable and other non-function targets (default)"},
    {"no-keep-vtable-symbols", NULL, "name only function targets, as llvm-profdata merge --text does"},
    {"sparse", NULL, "leave out names whose records are all zero (llvm-profdata --sparse)"},
    {NULL, NULL, NULL}};

const pb_format pbi_format_text = {
    .abi = PB_FORMAT_ABI,
    .name = "text",
    .description = "LLVM text instrumentation profile (.proftext, llvm-profdata merge --text)",
    .family = PB_FAMILY_LLVM,
    .form = PB_FORM_TEXT,
    .extensions = text_extensions,
    .probe = text_probe,
    .read = pbi_text_read,
    .write = pbi_text_write,
    .write_options = text_write_options,
    .llvm_claims = pbi_text_llvm_claims,
    .llvm_words = pbi_text_llvm_words,
};
