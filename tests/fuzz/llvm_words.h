/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * llvm_words.h -- the plugins' llvm-profdata words (pb_format.llvm_claims
 * and llvm_words) on the fuzzed bytes, shared by the raw, indexed and text
 * targets: after the read, its error (or none) is worded for every
 * release, as bytes the plugin's reader failed on and as bytes no plugin
 * took; the words must be a NUL-terminated string within the buffer.
 * Header-only (static functions) so that fuzz targets need no extra source.
 */
#ifndef PB_TESTS_FUZZ_LLVM_WORDS_H
#define PB_TESTS_FUZZ_LLVM_WORDS_H

#include <stdlib.h>
#include <string.h>

#include "profbridge/profbridge.h"
#include "profbridge/release.h"
#include "profbridge/sys/format.h"

static inline void pbt_llvm_words(const char *format, const uint8_t *data, size_t size, const pb_error *err) {
    const pb_format *f = pb_format_lookup(format);
    if (!f || !f->llvm_claims || !f->llvm_words || !f->llvm_claims(data, size)) return;
    for (int r = pb_release_min(); r <= pb_release_max(); r++)
        for (int unrecognized = 0; unrecognized < 2; unrecognized++) {
            char buf[160];
            memset(buf, 'x', sizeof buf);
            pb_llvm_words_query q = {err, r, data, size, unrecognized};
            if (f->llvm_words(&q, buf, sizeof buf) && !memchr(buf, '\0', sizeof buf)) abort();
        }
}

#endif
