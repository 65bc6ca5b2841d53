/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_inputs.h -- `merge`'s inputs from its command line, in llvm-profdata's
 * order and with its messages (the merge itself is the library's pb_merger).
 */
#ifndef PBC_MERGE_INPUTS_H
#define PBC_MERGE_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "llvm_args.h"
#include "profbridge/io.h"

typedef struct pbc_merge_input {
    char *path;
    uint64_t weight;
} pbc_merge_input;

typedef struct pbc_merge_inputs {
    pbc_merge_input *v;
    size_t n, cap;
} pbc_merge_inputs;

/*
 * Appends to *in the positional inputs, then the --weighted-input ones, then
 * those of the --input-files `list` (NULL: none), as llvm-profdata's
 * addWeightedInput and parseInputFilenamesFile do; `tilde`: expand "~/"
 * in W,FILE (PBI_LF_MERGE_INPUT_TILDE: 21+). Returns 0, or the exit status after the message
 * (a missing file or bad weight 1, out of memory 2, an unreadable list its
 * read's status).
 */
int pbc_merge_collect_inputs(pbc_merge_inputs *in, const pbc_args *args, const char *list, int tilde);

void pbc_merge_inputs_free(pbc_merge_inputs *in);

/* Reads a named file whole (the -f list, the remapping file). Returns 0, or
 * the exit status of the failure, said on stderr: 1 for a name that does not
 * exist (llvm-profdata's exit), else the read's (2 for I/O and for the
 * --max-input-size limit, which are no input's fault). Without
 * --max-input-size the limit is PBC_LIST_MAX_BYTES, not the 4 GiB of
 * profiles: a list of 64 MiB names a million files, and `-f /dev/zero`
 * should end at once (llvm-profdata-19 reads it until memory is gone). */
#define PBC_LIST_MAX_BYTES ((uint64_t)64 << 20)
int pbc_merge_read_named_file(const char *path, pb_source **src, const uint8_t **d, size_t *len);

#endif
