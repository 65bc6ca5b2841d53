/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_llvm_words.c -- what llvm-profdata says of a raw profile it cannot
 * read (pb_format.llvm_claims and llvm_words; pb_llvm_read_error_words).
 *
 * RawInstrProfReader's sentences (InstrProf.cpp's instrprof_error strings
 * and the sub-messages readHeader and readNextRecord add), matched to the
 * errors of our reader (raw_read.c, raw_sections.c) by the header field or
 * the section they name. The words per release are rows WORDS_RAW_* of
 * src/llvm/target.h; tests/interop/llvm_input_errors.sh and tests/difffuzz
 * compare them with the real tools.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "llvm/target.h"
#include "raw_internal.h"
#include "util/bytes.h"

static int has(const char *text, const char *part) { return strstr(text, part) != NULL; }

/* RawInstrProfReader::hasFormat: either magic, in either byte order. */
int pbi_raw_llvm_claims(const uint8_t *data, size_t len) {
    int order;
    unsigned ptr;
    return pbi_raw_magic(data, len, &order, &ptr);
}

/* The 8 bytes at `at` in byte order `order`, zeros past the end. */
static uint64_t word_at(const uint8_t *data, size_t len, size_t at, int order) {
    uint8_t b[8] = {0};
    for (size_t i = 0; i < 8 && at + i < len; i++) b[i] = data[at + i];
    return pb_get_u64(b, order);
}

/* RawInstrProfReader::readHeader from release WORDS_RAW_SIZE_BREAKDOWN on:
 * a profile whose sections run past the end of the file is described
 * section by section. Only the release's own raw version is read there
 * (its layout: raw_layout.h), 64-bit little-endian. 1 when it wrote the
 * words, 0 when the error is not such a case. */
static int size_words(const pb_llvm_words_query *q, const pbi_llvm_target *t, char *buf, size_t n) {
    const pb_error *e = q->error;
    pbi_raw_layout l;
    if (!pbi_llvm_has(t, PBI_LF_WORDS_RAW_SIZE_BREAKDOWN) || e->offset == PB_NO_OFFSET ||
        pbi_raw_layout_get(&l, t->raw_version, 8) != 0)
        return 0;
    const char *field = strstr(e->path, "header.");
    if (!field) return 0;
    field += 7;
    /* where the profile the error is about starts: the field's offset back */
    uint64_t start = UINT64_MAX;
    for (int i = 0; i < PBI_RH_COUNT; i++)
        if (l.hdr_off[i] >= 0 && strcmp(field, pbi_raw_header_fields[i].name) == 0 &&
            e->offset >= (uint64_t)l.hdr_off[i])
            start = e->offset - (uint64_t)l.hdr_off[i];
    if (start == UINT64_MAX || start > q->len || q->len - start < l.header_size) return 0;
    const uint8_t *p = q->data + start;
    if (pb_get_u64(p, PB_ORDER_LE) != PBI_RAW_MAGIC64) return 0;
    pbi_raw_header hd;
    pbi_raw_header_decode(&l, p, PB_ORDER_LE, &hd);
    const uint64_t *h = hd.f;
    if ((h[PBI_RH_Version] & 0xffffffffu) != t->raw_version) return 0;
    uint64_t csize = (h[PBI_RH_Version] & PB_VARIANT_BYTE_COVERAGE) ? 1 : 8;
    uint64_t data = h[PBI_RH_NumData] * l.record_size, counters = h[PBI_RH_NumCounters] * csize;
    uint64_t uniform = h[PBI_RH_NumUniformCounters] * 8, vt = h[PBI_RH_NumVTables] * l.vtable_size;
    uint64_t pad = h[PBI_RH_PaddingBytesBeforeCounters] + h[PBI_RH_PaddingBytesAfterCounters] +
                   h[PBI_RH_PaddingBytesAfterBitmapBytes] + h[PBI_RH_PaddingBytesAfterUniformCounters] +
                   (8 - h[PBI_RH_NamesSize] % 8) % 8 + (8 - h[PBI_RH_VNamesSize] % 8) % 8;
    uint64_t want = l.header_size + h[PBI_RH_BinaryIdsSize] + data + counters + h[PBI_RH_NumBitmapBytes] +
                    uniform + h[PBI_RH_NamesSize] + vt + h[PBI_RH_VNamesSize] + pad;
    if ((uint64_t)q->len - start >= want) return 0;
    /* the whole file's size in the words, as LLVM's */
    snprintf(buf, n,
             "invalid instrumentation profile data (file is incomplete or header is corrupt): profile file size (%zu "
             "bytes) smaller than expected (at least %" PRIu64 " bytes: %" PRIu32 "(Header) + %" PRIu64
             "(BinaryIdSize) + %" PRIu64 "(DataSize) + %" PRIu64 "(CountersSize) + %" PRIu64
             "(NumBitmapBytes) + %" PRIu64 "(UniformCountersSectionSize) + %" PRIu64 "(NamesSize) + %" PRIu64
             "(VTableSectionSize) + %" PRIu64 "(VTableNameSize) + %" PRIu64 "(Padding))",
             q->len, want, l.header_size, h[PBI_RH_BinaryIdsSize], data, counters, h[PBI_RH_NumBitmapBytes], uniform,
             h[PBI_RH_NamesSize], vt, h[PBI_RH_VNamesSize], pad);
    return 1;
}

int pbi_raw_llvm_words(const pb_llvm_words_query *q, char *buf, size_t n) {
    const pb_error *e = q->error;
    pbi_llvm_target t;
    int order;
    unsigned ptr;
    if (pbi_llvm_target_of(q->llvm_release, &t) != 0 || !pbi_raw_magic(q->data, q->len, &order, &ptr)) return 0;
    int header = strcmp(e->path, "header") == 0 || strncmp(e->path, "header.", 7) == 0;
    int short_header = has(e->message, "header needs") || has(e->message, "ends inside the raw header");
    pbi_raw_layout own;
    if (strcmp(e->path, "header.Version") == 0 && pbi_raw_layout_get(&own, t.raw_version, 8) == 0 &&
        q->len < own.header_size) {
        /* readHeader checks the size of its own version's header before the
         * version: a file shorter than that is a short header to LLVM */
        header = short_header = 1;
    } else if (strcmp(e->path, "header.Version") == 0) {
        if (!pbi_llvm_has(&t, PBI_LF_WORDS_RAW_VERSION_MISMATCH)) {
            snprintf(buf, n, "unsupported instrumentation profile format version");
            return 1;
        }
        snprintf(buf, n,
                 "raw profile version mismatch: Profile uses raw profile format version = %u; expected version = %u\n"
                 "PLEASE update this tool to version in the raw profile, or regenerate raw profile with expected "
                 "version.",
                 (unsigned)(word_at(q->data, q->len, 8, order) & 0xffffffffu), (unsigned)t.raw_version);
        return 1;
    }
    if (!short_header && size_words(q, &t, buf, n)) return 1;
    size_t pl = strlen(e->path);
    if (short_header && strncmp(e->path, "profile[", 8) == 0 && pl > 8 && strcmp(e->path + pl - 8, "].header") == 0) {
        /* a second (third...) profile cut inside its header */
        snprintf(buf, n, "malformed instrumentation profile data%s",
                 pbi_llvm_has(&t, PBI_LF_WORDS_RAW_NEXT_HEADER_WHY) ? ": not enough space for another header" : "");
        return 1;
    }
    if (header) {
        /* RawInstrProfReader::readHeader: a short file or sizes past its end */
        snprintf(buf, n, "invalid instrumentation profile data (file header is corrupt)%s",
                 short_header && pbi_llvm_has(&t, PBI_LF_WORDS_RAW_HEADER_TRUNCATED) ? ": profile file header is truncated"
                                                                                    : "");
        return 1;
    }
    if (has(e->path, ".value_data") && has(e->message, "past the end")) {
        /* ValueProfData::getValueProfData: TotalSize beyond the buffer */
        snprintf(buf, n, "too much profile data");
        return 1;
    }
    return 0;
}
