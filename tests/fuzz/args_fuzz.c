/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * args_fuzz.c -- libFuzzer target: the command-line parser with LLVM's
 * cl::opt rules and @response-file expansion (src/cli/llvm_args.h).
 *
 * The input is split at its first NUL byte into two response files, r0 and
 * r1, written into a directory of the target's own: `@r0` is expanded (r0
 * may name r1 and itself, so nesting, recursion and the expansion's bounds
 * are reached), then the words are parsed against one of llvm-profdata's
 * and llvm-cov's tables, as release 0 (any) or 13..24, chosen by the first
 * byte. A response file naming anything but r0 or r1 is not expanded
 * (a path of the machine: /dev/stdin would wait), only tokenized and parsed.
 * Whatever parses or fails must do so without a memory error, leak or
 * hang; the words must come back whole (NUL-terminated, in the argv).
 * Seed corpus: tests/fuzz/args/.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/llvm_args.h"
#include "cli/llvm_options.h"
#include "cli/opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static int setup(void) {
    if (dir[0]) return 0;
    snprintf(dir, sizeof dir, "/tmp/pb-args-fuzz-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    pbc_args_prog = "fuzz";
    return 0;
}

static int write_file(const char *name, const uint8_t *d, size_t n) {
    char path[96];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int bad = fwrite(d, 1, n, f) != n;
    return fclose(f) || bad ? -1 : 0;
}

/* Whether every @word of the file's tokens names r0 or r1 (else it is not
 * expanded), and none is the completion option (which prints and exits). */
static int safe_words(const uint8_t *d, size_t n) {
    char **w = NULL;
    size_t nw = 0;
    int safe = pbc_args_tokenize_gnu((const char *)d, n, &w, &nw) == 0;
    for (size_t i = 0; i < nw; i++) {
        if (strlen(w[i]) > 0 && w[i][0] == '@' && strcmp(w[i], "@r0") != 0 && strcmp(w[i], "@r1") != 0) safe = 0;
        if (strcmp(w[i], PBC_COMPLETE_OPTION) == 0) safe = 0;
        free(w[i]);
    }
    free(w);
    return safe;
}

static const char *const tables[] = {"merge", "show", "overlap", "order", "cov-export", "cov-report"};

static void parse(char **argv, int argc, unsigned pick) {
    const char *cmd = tables[pick % 6];
    const pbc_arg_spec *specs = pbc_llvm_options_of(cmd);
    if (!specs) abort();
    int release = (int)((pick / 6) % 13);
    release = release ? release + 11 : 0; /* 0 = any, else 12..24 */
    unsigned flags = PBC_ARGS_ALL_ERRORS | (pick % 6 >= 4 ? PBC_ARGS_COV : 0);
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], PBC_COMPLETE_OPTION) == 0) return;
    pbc_args a;
    memset(&a, 0, sizeof a);
    (void)pbc_args_parse(cmd, "fuzz [options]", specs, argc, argv, release, flags, &a);
    for (size_t i = 0; i < a.npos; i++)
        if (!a.pos[i]) abort();
    pbc_args_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || setup()) return 0;
    unsigned pick = data[0];
    data++, size--;
    const uint8_t *nul = memchr(data, 0, size);
    size_t n0 = nul ? (size_t)(nul - data) : size;
    const uint8_t *d1 = nul ? nul + 1 : data + size;
    size_t n1 = nul ? size - n0 - 1 : 0;
    if (!safe_words(data, n0) || !safe_words(d1, n1)) {
        /* tokenized and parsed only */
        char **w = NULL;
        size_t nw = 0;
        if (pbc_args_tokenize_gnu((const char *)data, n0, &w, &nw) == 0 && nw < 100000) {
            char **argv = calloc(nw + 2, sizeof *argv);
            if (argv) {
                argv[0] = "fuzz";
                for (size_t i = 0; i < nw; i++) argv[i + 1] = w[i];
                parse(argv, (int)nw + 1, pick);
                free(argv);
            }
        }
        for (size_t i = 0; i < nw; i++) free(w[i]);
        free(w);
        return 0;
    }
    if (write_file("r0", data, n0) || write_file("r1", d1, n1)) return 0;
    int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (here < 0 || chdir(dir) != 0) {
        if (here >= 0) close(here);
        return 0;
    }
    char *in[] = {"fuzz", "@r0", NULL};
    int argc = 0;
    char **argv = NULL;
    pbc_args words;
    memset(&words, 0, sizeof words);
    int rc = pbc_args_expand("fuzz", 2, in, &argc, &argv, &words);
    if (fchdir(here) != 0) abort();
    close(here);
    if (rc == 0) {
        if (!argv || argv[argc] != NULL) abort();
        for (int i = 0; i < argc; i++)
            if (!argv[i]) abort();
        parse(argv, argc, pick);
        free(argv);
    }
    pbc_args_free(&words);
    return 0;
}
