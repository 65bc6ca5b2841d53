/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* llvm_input_error.c -- unreadable inputs as llvm-profdata reports them (llvm_input_error.h). */
#include "llvm_input_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "llvm_args.h"
#include "opts.h"

int pbc_llvm_input_unopenable(const char *path, const char *prefix) {
    if (!pbc_args_llvm_style || strcmp(path, "-") == 0) return 0;
    /* MemoryBuffer::getFile's error_code, as strerror words it */
    int e = 0, fd = open(path, O_RDONLY);
    struct stat st;
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

void pbc_print_input_error(const pb_error *e) {
    if (!pbc_args_llvm_style) {
        pbc_print_error(e);
        return;
    }
    char line[2048];
    pb_error_format(e, line, sizeof line);
    fprintf(stderr, "error: %s\n", line);
}

int pbc_llvm_input_count(size_t npos, size_t min, size_t max, int debug_info_alt) {
    if (!pbc_args_llvm_style || (npos >= min && npos <= max)) return 0;
    if (npos < min && debug_info_alt)
        fputs("error: the positional argument '<profdata-file>' is required unless '--debug-info' is provided\n",
              stderr);
    else if (npos < min)
        fprintf(stderr, "%s: Not enough positional command line arguments specified!\n"
                        "Must specify at least %zu positional argument%s: See: %s --help\n",
                pbc_args_prog, min, min == 1 ? "" : "s", pbc_args_prog);
    else
        fprintf(stderr, "%s: Too many positional arguments specified!\n"
                        "Can specify at most %zu positional arguments: See: %s --help\n",
                pbc_args_prog, max, pbc_args_prog);
    return 1;
}
