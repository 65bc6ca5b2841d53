/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_llvm_words.c -- what llvm-profdata says of an indexed profile it
 * cannot read (pb_format.llvm_claims and llvm_words;
 * pb_llvm_read_error_words): IndexedInstrProfReader::readHeader's words for
 * the header errors of our reader (indexed_file.c). Damage further in is
 * worded by whichever table LLVM's reader reaches first, so it keeps
 * profbridge's words (docs/llvm-profdata.md); tests/interop/llvm_input_errors.sh
 * compares these with the real tools.
 */
#include <stdio.h>
#include <string.h>

#include "indexed_internal.h"
#include "util/bytes.h"

/* IndexedInstrProfReader::hasFormat: the magic, little-endian. */
int pbi_indexed_llvm_claims(const uint8_t *data, size_t len) {
    return len >= 8 && pb_get_u64(data, PB_ORDER_LE) == PBI_IDX_MAGIC;
}

int pbi_indexed_llvm_words(const pb_llvm_words_query *q, char *buf, size_t n) {
    const pb_error *e = q->error;
    if (strcmp(e->path, "header.Version") == 0 && q->len >= 16) {
        snprintf(buf, n, "unsupported instrumentation profile format version");
        return 1;
    }
    int header = strcmp(e->path, "header") == 0 || strncmp(e->path, "header.", 7) == 0;
    if (header && q->len < 24) {
        /* fewer than 24 bytes (from 24 bytes on LLVM reads past the end of
         * a short header: it crashes) */
        snprintf(buf, n, "truncated profile data");
        return 1;
    }
    return 0;
}
