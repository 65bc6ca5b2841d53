/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * llvm_words.c -- llvm-profdata's words for an input profbridge could not
 * read (pb_llvm_read_error_words, format.h).
 *
 * Why here: the words depend on what LLVM's readers take the bytes for
 * (InstrProfReader::create tries the indexed magic, the raw magics, then
 * printable text), and each of those tests and each reader's sentences
 * belong to the plugin of that form (pb_format's llvm_claims and
 * llvm_words). The registry only finds the claimant and adds what no
 * plugin owns: "unrecognized ... format" for bytes no form claims, and a
 * merge's kind conflict, whose sentence src/merge/ already wrote in LLVM's
 * words. The tool only prints the result (src/cli/llvm_input_error.c).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "llvm/target.h"
#include "profbridge/sys/format.h"

static void put(char *buf, size_t n, const char *words) { snprintf(buf, n, "%s", words); }

/* The input's bytes as LLVM would read them, when they can be looked at a
 * second time: a regular file, not gzip (a pipe or a device was read once,
 * by the reader; "<stdin>" is no file). *src is freed by the caller. */
static int input_bytes(const char *path, pb_source **src, const uint8_t **data, size_t *len) {
    struct stat st;
    pb_error local;
    *src = NULL;
    if (!path[0] || strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    if (pb_source_open_file(src, path, &local) != 0 || pb_source_is_gzip(*src)) return 0;
    return pb_source_map(*src, data, len, &local) == 0;
}

int pb_llvm_read_error_words(const pb_error *e, int llvm_release, char *words, size_t n, char *note,
                             size_t note_n) {
    if (!words || !n || !note || !note_n) return 0;
    words[0] = note[0] = '\0';
    pbi_llvm_target t;
    if (!e || pbi_llvm_target_for(llvm_release, &t, NULL) != 0) return 0;
    /* a kind conflict (merge/profile_merge.c): LLVM's sentence, then
     * profbridge's why in parentheses, which stays in the detail line */
    const char *why = strstr(e->message, ". (llvm-profdata ");
    if (why && !e->path[0]) {
        snprintf(words, n, "%.*s", (int)(why + 1 - e->message), e->message);
        return 1;
    }
    pb_source *src = NULL;
    const uint8_t *data = NULL;
    size_t len = 0;
    const pb_format *claimant = NULL;
    if (input_bytes(e->source, &src, &data, &len))
        for (size_t i = 0; i < pb_format_count() && !claimant; i++) {
            const pb_format *f = pb_format_at(i);
            if (f->llvm_claims && f->llvm_words && f->llvm_claims(data, len)) claimant = f;
        }
    int unrecognized = strstr(e->message, "not a profile any plugin recognises") != NULL;
    int known = 0;
    if (claimant) {
        pb_llvm_words_query q = {e, t.release, data, len, unrecognized};
        known = claimant->llvm_words(&q, words, n);
    } else if (unrecognized) {
        /* binary bytes none of LLVM's readers takes; exitWithError's hint */
        put(words, n, "unrecognized instrumentation profile encoding format");
        snprintf(note, note_n, "Perhaps you forgot to use the --sample%s option?",
                 pbi_llvm_has(&t, PBI_LF_WORDS_NOTE_MEMORY) ? " or --memory" : "");
        known = 1;
    }
    pb_source_free(src);
    if (!known) words[0] = '\0';
    return known;
}
