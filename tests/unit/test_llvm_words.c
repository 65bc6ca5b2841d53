/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_llvm_words.c -- pb_llvm_read_error_words (format.h): llvm-profdata's
 * words for an input profbridge could not read, supplied by the plugin of
 * the form LLVM takes the bytes for. Expected words are what the real
 * llvm-profdata-13, -19 and -24 `show FILE` printed after "error: FILE: "
 * for the same bytes (run 2026-11-28, pasted here); the many damaged real
 * files are tests/interop/llvm_input_errors.sh's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profbridge/profbridge.h"
#include "testutil.h"

/* Writes bytes into a new file of a fresh directory; returns its path
 * (static: one at a time). */
static const char *file_with(const void *bytes, size_t n) {
    static char dir[64], path[96];
    snprintf(dir, sizeof dir, "/tmp/pb_llvm_words.XXXXXX");
    if (!mkdtemp(dir)) return NULL;
    snprintf(path, sizeof path, "%s/in", dir);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    size_t put = fwrite(bytes, 1, n, f);
    if (fclose(f) != 0 || put != n) return NULL;
    return path;
}

static void forget(const char *path) {
    char dir[96];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    unlink(path);
    if (slash) {
        *slash = '\0';
        rmdir(dir);
    }
}

/* The words for bytes `in` (read by the auction) as llvm-profdata-`release`;
 * "" when none are known. note gets the note. */
static const char *words_of(const void *in, size_t n, int release, char *note, size_t note_n) {
    static char words[512];
    const char *path = file_with(in, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_NOT_EQUAL(pb_read_file(&p, path, NULL, &err), 0);
    pb_profile_free(p);
    if (!pb_llvm_read_error_words(&err, release, words, sizeof words, note, note_n))
        CU_ASSERT_STRING_EQUAL(words, "");
    forget(path);
    return words;
}

static void llvm_words__text_llvm_reads_as_text(void) {
    static const char prose[] = "hello\nworld\n", counts[] = "main\n0x12\n2\n5\nx\n";
    char note[128];
    /* bytes no plugin of ours takes: LLVM's text reader's complaint */
    CU_ASSERT_STRING_EQUAL(words_of(prose, strlen(prose), 13, note, sizeof note),
                           "malformed instrumentation profile data");
    CU_ASSERT_STRING_EQUAL(note, "");
    CU_ASSERT_STRING_EQUAL(words_of(prose, strlen(prose), 19, note, sizeof note),
                           "malformed instrumentation profile data: function hash is not a valid integer");
    CU_ASSERT_STRING_EQUAL(words_of(prose, strlen(prose), 24, note, sizeof note),
                           "malformed instrumentation profile data: function hash is not a valid integer");
    /* our text reader's error in a record's counts */
    CU_ASSERT_STRING_EQUAL(words_of(counts, strlen(counts), 13, note, sizeof note),
                           "malformed instrumentation profile data");
    CU_ASSERT_STRING_EQUAL(words_of(counts, strlen(counts), 19, note, sizeof note),
                           "malformed instrumentation profile data: count is invalid");
}

static void llvm_words__binary_no_form_claims(void) {
    static const unsigned char bin[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    /* the indexed magic in the wrong byte order: LLVM reads it little-endian only */
    static const unsigned char idx_be[16] = {0x81, 0x69, 0x66, 0x6f, 0x72, 0x70, 0x6c, 0xff, 0, 0, 0, 0, 0, 0, 0, 12};
    char note[128];
    CU_ASSERT_STRING_EQUAL(words_of(bin, sizeof bin, 13, note, sizeof note),
                           "unrecognized instrumentation profile encoding format");
    CU_ASSERT_STRING_EQUAL(note, "Perhaps you forgot to use the --sample option?");
    CU_ASSERT_STRING_EQUAL(words_of(bin, sizeof bin, 24, note, sizeof note),
                           "unrecognized instrumentation profile encoding format");
    CU_ASSERT_STRING_EQUAL(note, "Perhaps you forgot to use the --sample or --memory option?");
    CU_ASSERT_STRING_EQUAL(words_of(idx_be, sizeof idx_be, 19, note, sizeof note),
                           "unrecognized instrumentation profile encoding format");
}

static void llvm_words__indexed_version(void) {
    /* the indexed magic, then version 99 */
    static const unsigned char idx[32] = {0xff, 0x6c, 0x70, 0x72, 0x6f, 0x66, 0x69, 0x81, 99};
    char note[128];
    CU_ASSERT_STRING_EQUAL(words_of(idx, sizeof idx, 19, note, sizeof note),
                           "unsupported instrumentation profile format version");
    CU_ASSERT_STRING_EQUAL(note, "");
}

/* A raw version no release reads (99): each release checks that the file
 * holds its own version's header first (19's is 120 bytes, 24's 152). */
static void llvm_words__raw_version_after_header_size(void) {
    unsigned char raw[216] = {0x81, 0x72, 0x66, 0x6f, 0x72, 0x70, 0x6c, 0xff, 99};
    char note[128];
    CU_ASSERT_STRING_EQUAL(words_of(raw, 20, 13, note, sizeof note),
                           "invalid instrumentation profile data (file header is corrupt)");
    CU_ASSERT_STRING_EQUAL(words_of(raw, 90, 13, note, sizeof note), "unsupported instrumentation profile format version");
    CU_ASSERT_STRING_EQUAL(words_of(raw, 90, 17, note, sizeof note),
                           "raw profile version mismatch: Profile uses raw profile format version = 99; expected version = "
                           "8\nPLEASE update this tool to version in the raw profile, or regenerate raw profile with "
                           "expected version.");
    CU_ASSERT_STRING_EQUAL(words_of(raw, 116, 19, note, sizeof note),
                           "invalid instrumentation profile data (file header is corrupt)");
    CU_ASSERT_STRING_EQUAL(words_of(raw, 116, 24, note, sizeof note),
                           "invalid instrumentation profile data (file header is corrupt): profile file header is truncated");
    CU_ASSERT_STRING_EQUAL(words_of(raw, sizeof raw, 19, note, sizeof note),
                           "raw profile version mismatch: Profile uses raw profile format version = 99; expected version = "
                           "10\nPLEASE update this tool to version in the raw profile, or regenerate raw profile with "
                           "expected version.");
}

/* Words are found only with a usable release and buffers; a name that is
 * no regular file is not opened (a damaged stream keeps our words). */
static void llvm_words__refusals(void) {
    pb_error err;
    char words[64] = "x", note[64] = "x";
    pb_error_clear(&err);
    snprintf(err.source, sizeof err.source, "<stdin>");
    snprintf(err.message, sizeof err.message, "something");
    CU_ASSERT_EQUAL(pb_llvm_read_error_words(&err, 19, words, sizeof words, note, sizeof note), 0);
    CU_ASSERT_STRING_EQUAL(words, "");
    CU_ASSERT_STRING_EQUAL(note, "");
    CU_ASSERT_EQUAL(pb_llvm_read_error_words(NULL, 19, words, sizeof words, note, sizeof note), 0);
    CU_ASSERT_EQUAL(pb_llvm_read_error_words(&err, 12, words, sizeof words, note, sizeof note), 0);
    CU_ASSERT_EQUAL(pb_llvm_read_error_words(&err, 19, NULL, 0, note, sizeof note), 0);
    CU_ASSERT_EQUAL(pb_llvm_read_error_words(&err, 19, words, sizeof words, NULL, 0), 0);
    /* no file: "unrecognized" (the bytes of a stream are gone) */
    snprintf(err.message, sizeof err.message, "not a profile any plugin recognises (first bytes: 01)");
    CU_ASSERT_EQUAL(pb_llvm_read_error_words(&err, 0, words, sizeof words, note, sizeof note), 1);
    CU_ASSERT_STRING_EQUAL(words, "unrecognized instrumentation profile encoding format");
    /* cut to fit */
    CU_ASSERT_EQUAL(pb_llvm_read_error_words(&err, 0, words, 5, note, 3), 1);
    CU_ASSERT_STRING_EQUAL(words, "unre");
    CU_ASSERT_STRING_EQUAL(note, "Pe");
}

static CU_TestInfo llvm_words_tests[] = {
    {"llvm_words__text_llvm_reads_as_text", llvm_words__text_llvm_reads_as_text},
    {"llvm_words__binary_no_form_claims", llvm_words__binary_no_form_claims},
    {"llvm_words__indexed_version", llvm_words__indexed_version},
    {"llvm_words__raw_version_after_header_size", llvm_words__raw_version_after_header_size},
    {"llvm_words__refusals", llvm_words__refusals},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_llvm_words[] = {{"llvm_words", NULL, NULL, NULL, NULL, llvm_words_tests},
                                            CU_SUITE_INFO_NULL};
