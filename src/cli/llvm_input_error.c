/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* llvm_input_error.c -- unreadable inputs as llvm-profdata reports them (llvm_input_error.h). */
#include "llvm_input_error.h"

#include <ctype.h>
#include <inttypes.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profbridge/profile.h"
#include "llvm_args.h"
#include "opts.h"

/* A regular file (by stat, never opened): the only inputs this file may open
 * a second time. A FIFO or a device is read once, by the reader: opening it
 * here would block, or take bytes, or make its writer fail. */
static int is_regular(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int pbc_llvm_input_unopenable(const char *path, const char *prefix) {
    if (!pbc_args_llvm_style || strcmp(path, "-") == 0) return 0;
    /* MemoryBuffer::getFile's error_code, as strerror words it */
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "error: %s: %s\n", prefix, strerror(errno));
        return 1;
    }
    if (S_ISDIR(st.st_mode)) {
        fprintf(stderr, "error: %s: %s\n", prefix, strerror(EISDIR));
        return 1;
    }
    if (!S_ISREG(st.st_mode)) return 0; /* a pipe or device: the reader opens it, once */
    int e = 0, fd = open(path, O_RDONLY);
    int empty = 0;
    if (fd < 0) e = errno;
    else if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) e = EISDIR;
    else if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) empty = 1;
    if (fd >= 0) close(fd);
    if (empty) { /* InstrProfReader::create: an empty file is an empty raw profile */
        fprintf(stderr, "error: %s: empty raw profile file\n", prefix);
        return 1;
    }
    if (!e) return 0;
    fprintf(stderr, "error: %s: %s\n", prefix, strerror(e));
    return 1;
}

/* What llvm-profdata's readers take the file for, from its first bytes
 * (InstrProfReader::create's order: indexed, raw 64/32-bit, text). */
enum input_kind { KIND_UNKNOWN, KIND_RAW, KIND_INDEXED, KIND_TEXT };

static enum input_kind input_kind_of(const char *path, uint64_t *word1, long *size) {
    unsigned char b[16] = {0};
    *size = -1;
    if (!is_regular(path)) return KIND_UNKNOWN; /* read once, by the reader */
    FILE *f = fopen(path, "rb");
    if (!f) return KIND_UNKNOWN;
    size_t n = fread(b, 1, sizeof b, f);
    struct stat st;
    *size = fstat(fileno(f), &st) == 0 ? (long)st.st_size : -1;
    fclose(f);
    /* TextInstrProfReader::hasFormat: the first (up to) 8 bytes printable or
     * space, tried after the binary magics */
    int text = 1;
    for (size_t i = 0; i < n && i < 8; i++)
        if (!isprint(b[i]) && !isspace(b[i])) text = 0;
    uint64_t m = 0, w = 0, ms = 0, ws = 0;
    for (int i = 0; i < 8; i++) {
        m |= (uint64_t)b[i] << (8 * i);
        w |= (uint64_t)b[8 + i] << (8 * i);
        ms = ms << 8 | b[i];
        ws = ws << 8 | b[8 + i];
    }
    *word1 = w;
    if (n < 8) return text ? KIND_TEXT : KIND_UNKNOWN;
    /* magics: lprofr/lprofR with 0xff and 0x81 ('r' 64-bit, 'R' 32-bit), lprofi */
    if (m == 0x8169666f72706cffull || ms == 0x8169666f72706cffull) return KIND_INDEXED;
    if (m == 0xff6c70726f667281ull || m == 0xff6c70526f667281ull) return KIND_RAW;
    if (ms == 0xff6c70726f667281ull || ms == 0xff6c70526f667281ull) {
        *word1 = ws;
        return KIND_RAW;
    }
    return text ? KIND_TEXT : KIND_UNKNOWN;
}

/* One line of a text profile as LLVM's line_iterator yields it (blank
 * lines and '#' comments skipped); 0 at the end. */
static int next_line(FILE *f, char *buf, size_t n) {
    while (fgets(buf, (int)n, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] && buf[0] != '#') return 1;
    }
    return 0;
}

static int is_integer(const char *s, int base) {
    char *end;
    if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s)) return 0;
    errno = 0;
    (void)strtoull(s, &end, base);
    return errno == 0 && *end == '\0';
}

/* A text file our text reader did not take for a profile: what
 * TextInstrProfReader (readHeader, readNextRecord) says of its first
 * record. Returns the words, or NULL when it would read it. */
static const char *text_reader_words(const char *path, int *why) {
    if (!is_regular(path)) return NULL;
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char line[4096];
    const char *w = NULL;
    *why = 1;
    if (!next_line(f, line, sizeof line)) w = NULL; /* empty: an empty profile */
    else if (line[0] == ':') w = (*why = 0, "invalid instrumentation profile data (file header is corrupt)");
    else if (!next_line(f, line, sizeof line)) w = (*why = 0, "truncated profile data");
    else if (!is_integer(line, 0)) w = "function hash is not a valid integer";
    else if (!next_line(f, line, sizeof line)) w = (*why = 0, "truncated profile data");
    else if (!is_integer(line, 10)) w = "number of counters is not a valid integer";
    else {
        unsigned long long k = strtoull(line, NULL, 10);
        if (k == 0) w = "number of counters is zero";
        for (unsigned long long i = 0; !w && i < k; i++) {
            if (!next_line(f, line, sizeof line)) w = (*why = 0, "truncated profile data");
            else if (!is_integer(line, 10)) w = "count is invalid";
        }
    }
    fclose(f);
    return w;
}

static int has(const char *text, const char *part) { return strstr(text, part) != NULL; }

/* "not a profile any plugin recognises": LLVM reads any printable text as
 * a text profile (its parser's complaint, when known here), anything else
 * is an unrecognized encoding. */
static int unrecognized_words(const pb_error *e, int t, enum input_kind kind, char *buf,
                              size_t n, int *unrecognized) {
    if (kind == KIND_TEXT) {
        int why = 0;
        const char *w = text_reader_words(e->source, &why);
        if (!w) return 0;
        if (!why) snprintf(buf, n, "%s", w);
        else if (pb_release_has(t, "WORDS_TEXT_MALFORMED_WHY"))
            snprintf(buf, n, "malformed instrumentation profile data: %s", w);
        else snprintf(buf, n, "malformed instrumentation profile data");
        return 1;
    }
    *unrecognized = 1;
    snprintf(buf, n, "unrecognized instrumentation profile encoding format");
    return 1;
}

/* RawInstrProfReader's words: the version, the header, the value data. */
/* RawInstrProfReader::readHeader from LLVM 24 on (WORDS_RAW_SIZE_BREAKDOWN):
 * a first profile whose sections run past the end of the file is described
 * section by section. 24 reads raw version 11 only, whose header is 19
 * words and data record 72 bytes (formats/raw/raw_layout.h); names and
 * vtable names are padded to 8 bytes, a vtable record is 24. 1 when it
 * wrote the words, 0 when the file is not such a case. */
static int raw_size_words(const pb_error *e, int t, char *buf, size_t n) {
    enum { WORDS = 19, HEADER = WORDS * 8, RECORD = 72, VTABLE = 24 };
    /* v11's header words, in order: where the profile the error is about starts */
    static const char *const names[WORDS] = {"Magic", "Version", "BinaryIdsSize", "NumData",
        "PaddingBytesBeforeCounters", "NumCounters", "PaddingBytesAfterCounters", "NumBitmapBytes",
        "PaddingBytesAfterBitmapBytes", "NumUniformCounters", "PaddingBytesAfterUniformCounters",
        "UniformCountersDelta", "NamesSize", "CountersDelta", "BitmapDelta", "NamesDelta", "NumVTables",
        "VNamesSize", "ValueKindLast"};
    if (!pb_release_has(t, "WORDS_RAW_SIZE_BREAKDOWN") || e->offset == PB_NO_OFFSET) return 0;
    const char *field = strstr(e->path, "header.");
    if (!field) return 0;
    field += 7;
    uint64_t start = UINT64_MAX;
    for (int i = 0; i < WORDS; i++)
        if (strcmp(field, names[i]) == 0 && e->offset >= (uint64_t)i * 8) start = e->offset - (uint64_t)i * 8;
    if (start == UINT64_MAX) return 0;
    unsigned char b[HEADER];
    FILE *f = fopen(e->source, "rb");
    if (!f) return 0;
    size_t got = fseek(f, (long)start, SEEK_SET) == 0 ? fread(b, 1, sizeof b, f) : 0;
    struct stat st;
    long size = fstat(fileno(f), &st) == 0 ? (long)st.st_size : -1;
    fclose(f);
    if (got < sizeof b || size < 0) return 0;
    uint64_t h[WORDS];
    for (int i = 0; i < WORDS; i++) {
        h[i] = 0;
        for (int k = 0; k < 8; k++) h[i] |= (uint64_t)b[8 * i + k] << (8 * k);
    }
    /* 64-bit little-endian magic and the release's own version only */
    if (h[0] != 0xff6c70726f667281ull || (h[1] & 0xffffffffu) != pb_release_raw_version(t)) return 0;
    uint64_t csize = (h[1] & PB_VARIANT_BYTE_COVERAGE) ? 1 : 8;
    uint64_t data = h[3] * RECORD, counters = h[5] * csize, uniform = h[9] * 8, vt = h[16] * VTABLE;
    uint64_t pad = h[4] + h[6] + h[8] + h[10] + (8 - h[12] % 8) % 8 + (8 - h[17] % 8) % 8;
    uint64_t want = HEADER + h[2] + data + counters + h[7] + uniform + h[12] + vt + h[17] + pad;
    if ((uint64_t)size - start >= want) return 0; /* the whole file's size in the words, as LLVM's */
    snprintf(buf, n,
             "invalid instrumentation profile data (file is incomplete or header is corrupt): profile file size (%ld "
             "bytes) smaller than expected (at least %" PRIu64 " bytes: %d(Header) + %" PRIu64 "(BinaryIdSize) + %" PRIu64
             "(DataSize) + %" PRIu64 "(CountersSize) + %" PRIu64 "(NumBitmapBytes) + %" PRIu64
             "(UniformCountersSectionSize) + %" PRIu64 "(NamesSize) + %" PRIu64 "(VTableSectionSize) + %" PRIu64
             "(VTableNameSize) + %" PRIu64 "(Padding))",
             size, want, (int)HEADER, h[2], data, counters, h[7], uniform, h[12], vt, h[17], pad);
    return 1;
}

static int raw_words(const pb_error *e, int t, uint64_t word1, int header, char *buf, size_t n) {
    if (strcmp(e->path, "header.Version") == 0) {
        if (!pb_release_has(t, "WORDS_RAW_VERSION_MISMATCH")) {
            snprintf(buf, n, "unsupported instrumentation profile format version");
            return 1;
        }
        snprintf(buf, n,
                 "raw profile version mismatch: Profile uses raw profile format version = %u; expected version = %u\n"
                 "PLEASE update this tool to version in the raw profile, or regenerate raw profile with expected "
                 "version.",
                 (unsigned)(word1 & 0xffffffffu), (unsigned)pb_release_raw_version(t));
        return 1;
    }
    int short_header = has(e->message, "header needs") || has(e->message, "ends inside the raw header");
    if (!short_header && raw_size_words(e, t, buf, n)) return 1;
    size_t pl = strlen(e->path);
    if (short_header && strncmp(e->path, "profile[", 8) == 0 && pl > 8 && strcmp(e->path + pl - 8, "].header") == 0) {
        /* a second (third...) profile cut inside its header */
        snprintf(buf, n, "malformed instrumentation profile data%s",
                 pb_release_has(t, "WORDS_RAW_NEXT_HEADER_WHY") ? ": not enough space for another header" : "");
        return 1;
    }
    if (header) {
        /* RawInstrProfReader::readHeader: a short file or sizes past its end */
        snprintf(buf, n, "invalid instrumentation profile data (file header is corrupt)%s",
                 short_header && pb_release_has(t, "WORDS_RAW_HEADER_TRUNCATED")
                     ? ": profile file header is truncated"
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

/* IndexedInstrProfReader::readHeader's words (size: the file's, -1 unknown). */
static int indexed_words(const pb_error *e, long size, int header, char *buf, size_t n) {
    if (strcmp(e->path, "header.Version") == 0 && size >= 16) {
        snprintf(buf, n, "unsupported instrumentation profile format version");
        return 1;
    }
    if (header && size >= 0 && size < 24) {
        /* fewer than 24 bytes (from 24 bytes on LLVM reads past the end of
         * a short header: it crashes) */
        snprintf(buf, n, "truncated profile data");
        return 1;
    }
    return 0;
}

/* TextInstrProfReader::readNextRecord's words about a record's counts. */
static int text_words(const pb_error *e, int t, char *buf, size_t n) {
    if (e->line <= 0 || strcmp(e->path, "record.Counts") != 0) return 0;
    if (has(e->expected, "counter value") && has(e->found, "end")) {
        snprintf(buf, n, "truncated profile data");
        return 1;
    }
    if (has(e->expected, "decimal count")) {
        snprintf(buf, n, "malformed instrumentation profile data%s",
                 pb_release_has(t, "WORDS_TEXT_MALFORMED_WHY") ? ": count is invalid" : "");
        return 1;
    }
    return 0;
}

/*
 * The one place a reader's error becomes llvm-profdata's words
 * (instrprof_error's strings, InstrProf.cpp getInstrProfErrString, and the
 * readers of InstrProfReader.cpp that return them). Writes the words into
 * buf (two lines for a raw version mismatch) and returns 1, or returns 0
 * when the damage is not one whose LLVM words are known (the caller prints
 * profbridge's line then). *unrecognized is set for "unrecognized ...
 * encoding format", after which LLVM adds a note. The classes follow what
 * the real tools print on damaged files (tests/interop/llvm_input_errors.sh).
 */
static int llvm_words(const pb_error *e, int t, char *buf, size_t n, int *unrecognized) {
    uint64_t word1 = 0;
    long size = -1;
    enum input_kind kind = input_kind_of(e->source, &word1, &size);
    *unrecognized = 0;
    /* a kind conflict (src/merge/profile_merge.c): LLVM's sentence, then
     * profbridge's why in parentheses, which goes to the detail line */
    const char *why = strstr(e->message, ". (llvm-profdata ");
    if (why && !e->path[0]) {
        snprintf(buf, n, "%.*s", (int)(why + 1 - e->message), e->message);
        return 1;
    }
    if (has(e->message, "not a profile any plugin recognises"))
        return unrecognized_words(e, t, kind, buf, n, unrecognized);
    int header = strcmp(e->path, "header") == 0 || strncmp(e->path, "header.", 7) == 0;
    switch (kind) {
    case KIND_RAW: return raw_words(e, t, word1, header, buf, n);
    case KIND_INDEXED: return indexed_words(e, size, header, buf, n);
    case KIND_TEXT: return text_words(e, t, buf, n);
    default: return 0;
    }
}

void pbc_llvm_print_input_error(const char *cmd, const char *severity, const char *prefix, const pb_error *e) {
    char line[2048], words[1024];
    pbc_error_text(e, line, sizeof line);
    pbc_release r;
    int unrecognized = 0;
    if (pbc_release_of(cmd, NULL, &r) != 0 || !llvm_words(e, r.release, words, sizeof words, &unrecognized)) {
        fprintf(stderr, "%s: %s\n", severity, line); /* profbridge's line, the file first */
        return;
    }
    fprintf(stderr, "%s: %s: %s\n", severity, prefix ? prefix : e->source, words);
    /* exitWithError's hint; merge's warnings have none */
    if (unrecognized && strcmp(severity, "error") == 0)
        fprintf(stderr, "note: Perhaps you forgot to use the --sample%s option?\n",
                pb_release_has(r.release, "WORDS_NOTE_MEMORY") ? " or --memory" : "");
    fprintf(stderr, PBC_LLVM_DETAIL_START "%s)\n", line);
}

void pbc_print_input_error(const pb_error *e) {
    if (!pbc_args_llvm_style) {
        pbc_print_error(e);
        return;
    }
    pbc_llvm_print_input_error("show", "error", NULL, e);
}

