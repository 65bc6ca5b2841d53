/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* merge_partial.c -- see merge_partial.h. */
#include "merge_partial.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "opts.h"
#include "progress.h"

int pbc_merge_has_partial_input(const pbc_merge_inputs *in) {
    for (size_t i = 0; i < in->n; i++) {
        /* only a regular file is looked at: the first bytes of a pipe, a
         * FIFO or a process substitution are read once, by the merge (and
         * opening a FIFO would wait for, or cut off, its writer) */
        struct stat st;
        if (strcmp(in->v[i].path, "-") == 0 || stat(in->v[i].path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        int fd = open(in->v[i].path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        uint8_t head[8];
        ssize_t n = read(fd, head, sizeof head);
        close(fd);
        if (n == (ssize_t)sizeof head && pb_partial_sniff(head, sizeof head)) return 1;
    }
    return 0;
}

int pbc_merge_partial(const pb_merger_options *rules, const pbc_merge_inputs *in, pbc_merge_diag_ctx *rn,
                      pbc_merge_progress *pg, pb_partial **out) {
    pb_partial *p = NULL;
    pb_error err;
    *out = NULL;
    if (pb_partial_new(&p, rules, &err)) {
        pbc_print_error(&err);
        return PBC_EXIT_USAGE;
    }
    for (size_t i = 0; i < in->n; i++) {
        if (pb_partial_add_file(p, in->v[i].path, in->v[i].weight, &err)) {
            pbc_print_error(&err);
            pb_partial_free(p);
            return err.code == PB_EINVAL || err.code == PB_ENOMEM ? PBC_EXIT_USAGE : pbc_exit_for(err.code);
        }
        pbc_merge_progress_update(pg, i + 1, in->n);
    }
    /* llvm-profdata warns about each failed input after the last one */
    for (size_t i = 0; i < pb_partial_input_count(p); i++) {
        pb_partial_input pi;
        if (pb_partial_input_at(p, i, &pi) == 0 && pi.status == PB_PARTIAL_FAILED && pi.error)
            pbc_merge_print_failure(rn, i, pi.name, pi.error);
    }
    *out = p;
    return 0;
}

int pbc_merge_partial_save(const pb_partial *p, const char *path) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    pb_sink *s = NULL;
    pb_error err;
    int rc = pb_partial_save(p, &bytes, &len, &err);
    if (!rc) rc = pb_sink_open_file(&s, path, 0, &err);
    if (!rc) rc = pb_sink_write(s, bytes, len, &err);
    if (!rc) rc = pb_sink_commit(s, &err);
    pb_sink_free(s);
    free(bytes);
    if (rc) {
        if (!err.source[0]) pb_error_set_source(&err, path);
        pbc_print_error(&err);
        return PBC_EXIT_USAGE;
    }
    return 0;
}

pbc_merge_summary *pbc_merge_partial_summary(const pb_partial *p) {
    size_t n = pb_partial_input_count(p);
    pbc_merge_summary *s = pbc_merge_summary_new(n);
    for (size_t i = 0; s && i < n; i++) {
        pb_partial_input pi;
        if (pb_partial_input_at(p, i, &pi)) continue;
        int status = pi.status == PB_PARTIAL_FAILED         ? PBC_MERGE_FAILED
                     : pi.status == PB_PARTIAL_SKIPPED_EMPTY ? PBC_MERGE_SKIPPED
                                                             : PBC_MERGE_MERGED;
        pbc_merge_summary_input(s, i, pi.name, pi.weight, status, pi.error);
    }
    return s;
}
