/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * llvm_input_error.c -- unreadable inputs as llvm-profdata reports them
 * (llvm_input_error.h): the printing. The words are the library's
 * (pb_llvm_read_error_words: each format plugin words its own bytes).
 */
#include "llvm_input_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profbridge/profile.h"
#include "llvm_args.h"
#include "opts.h"

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

void pbc_llvm_print_input_error(const char *cmd, const char *severity, const char *prefix, const pb_error *e) {
    char line[2048], words[1024], note[128];
    pbc_error_text(e, line, sizeof line);
    pbc_release r;
    if (pbc_release_of(cmd, NULL, &r) != 0 ||
        !pb_llvm_read_error_words(e, r.release, words, sizeof words, note, sizeof note)) {
        fprintf(stderr, "%s: %s\n", severity, line); /* profbridge's line, the file first */
        return;
    }
    fprintf(stderr, "%s: %s: %s\n", severity, prefix ? prefix : e->source, words);
    /* exitWithError's hint; merge's warnings have none */
    if (note[0] && strcmp(severity, "error") == 0) fprintf(stderr, "note: %s\n", note);
    fprintf(stderr, PBC_LLVM_DETAIL_START "%s)\n", line);
}

void pbc_print_input_error(const pb_error *e) {
    if (!pbc_args_llvm_style) {
        pbc_print_error(e);
        return;
    }
    pbc_llvm_print_input_error("show", "error", NULL, e);
}

