/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger.c -- a pb_merger's options and inputs (profbridge/merge.h); the run
 * is merger_run.c's.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merger_internal.h"
#include "util/grow.h"

int pb_merger_options_init(pb_merger_options *o, unsigned version) {
    if (!o || version < 1 || version > PB_MERGER_OPTIONS_VERSION) return PB_EINVAL;
    pb_merger_options d = PB_MERGER_OPTIONS_INIT;
    d.version = version;
    memcpy(o, &d, version >= 2 ? sizeof d : offsetof(pb_merger_options, writer_contexts));
    return PB_OK;
}

int pb_merger_new(pb_merger **out, const pb_merger_options *o, pb_error *err) {
    if (err) pb_error_clear(err);
    if (out) *out = NULL;
    if (!out || !o) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_merger_new: NULL argument");
    if (o->version < 1 || o->version > PB_MERGER_OPTIONS_VERSION)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            "pb_merger_options: version %u unknown (this library knows 1 to %u)", o->version,
                            (unsigned)PB_MERGER_OPTIONS_VERSION);
    pbi_llvm_target t;
    if (pbi_llvm_target_of(o->llvm_release ? o->llvm_release : PBI_LLVM_DEFAULT, &t))
        return pb_error_set_ef(err, PB_EINVAL, PB_NO_OFFSET, "llvm_release", "an LLVM release from 13 to 24", "");
    if (o->failure_mode < PB_MERGE_FAIL_ANY || o->failure_mode > PB_MERGE_FAIL_WARN)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "failure_mode", "unknown failure mode %d",
                            o->failure_mode);
    if (o->failure_mode == PB_MERGE_FAIL_WARN && !pbi_llvm_has(&t, PBI_LF_MERGE_FAILURE_MODE_WARN))
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "failure_mode",
                            "failure mode warn is LLVM 18's and later's (this is LLVM %d)", t.release);
    pb_merger *m = calloc(1, sizeof *m);
    if (!m) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    /* a version-1 struct ends before writer_contexts: never read past it */
    pb_merger_options d = PB_MERGER_OPTIONS_INIT;
    m->o = d;
    memcpy(&m->o, o, o->version >= 2 ? sizeof *o : offsetof(pb_merger_options, writer_contexts));
    m->target = t;
    int rc = pbi_merger_filter_compile(m, err);
    if (rc) {
        pb_merger_free(m);
        return rc;
    }
    *out = m;
    return PB_OK;
}

int pb_merger_add_file(pb_merger *m, const char *path, uint64_t weight, pb_error *err) {
    if (err) pb_error_clear(err);
    if (!m || !path || weight == 0 || m->ran)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            !m || !path ? "pb_merger_add_file: NULL argument"
                            : weight == 0 ? "an input's weight must be at least 1"
                                          : "the merger has run: no input can be added");
    if (pbu_grow((void **)&m->in, &m->cap, m->n + 1, sizeof *m->in))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    size_t len = strlen(path) + 1;
    char *p = malloc(len);
    if (!p) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    memcpy(p, path, len);
    m->in[m->n].path = p;
    m->in[m->n++].weight = weight;
    return PB_OK;
}

size_t pb_merger_input_count(const pb_merger *m) { return m ? m->n : 0; }

unsigned pbi_merger_threads(const pb_merger *m) {
    unsigned threads = m->o.threads > 1024 ? 1024 : m->o.threads;
    if (threads == 0) {
        /* llvm-profdata: min(hardware threads, (inputs + 1) / 2), where
         * LLVM counts the CPUs this process may run on (sched_getaffinity),
         * not those online: under taskset or a container's CPU set they
         * differ, and with writer contexts the bytes depend on it */
        cpu_set_t set;
        long hw = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
        size_t half = (m->n + 1) / 2;
        threads = (unsigned)(hw < 1 ? 1 : (size_t)hw < half ? (size_t)hw : half);
        if (threads > 1024) threads = 1024;
    }
    return threads ? threads : 1;
}

void pb_merger_free(pb_merger *m) {
    if (!m) return;
    for (size_t i = 0; i < m->n; i++) free(m->in[i].path);
    free(m->in);
    pbi_merger_filter_free(m);
    free(m);
}
