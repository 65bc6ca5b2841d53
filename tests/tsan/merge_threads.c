/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_threads.c -- pb_merger on 1 and 3 threads over the same inputs (each
 * given 6 times: raws prepared ahead on the feed threads, src/merger/
 * merger_feed.c), built with ThreadSanitizer by run.sh: any data race
 * between the feed threads and the merging thread fails the run, and the two
 * merged profiles must hold the same records. Then with llvm-profdata's
 * writer contexts (each merged on its own thread, merger_run.c) on 3 threads,
 * twice: the two must be the same profile, whatever the threads' timing, with
 * as many records as the one-thread merge.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "profbridge/merge.h"
#include "profbridge/profile.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

/* The records' names, hashes, counters and values, in order. */
static uint64_t digest(const pb_profile *p) {
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0, n = pb_profile_record_count(p); i < n; i++) {
        const pb_record *r = pb_profile_record(p, i);
        size_t len = 0;
        const char *name = pb_profile_str(p, r->name, &len);
        if (name) h = fnv(h, name, len);
        h = fnv(h, &r->hash, sizeof r->hash);
        h = fnv(h, r->counters, r->num_counters * sizeof *r->counters);
        for (int k = 0; k < PB_VK_COUNT; k++)
            for (uint32_t s = 0; s < r->num_sites[k]; s++)
                for (uint32_t v = 0; v < r->sites[k][s].num_values; v++) {
                    h = fnv(h, &r->sites[k][s].values[v].value, sizeof(uint64_t));
                    h = fnv(h, &r->sites[k][s].values[v].count, sizeof(uint64_t));
                }
    }
    return h;
}

static int merge(int threads, int contexts, int argc, char **argv, uint64_t *out, size_t *nrec) {
    pb_merger_options mo = PB_MERGER_OPTIONS_INIT;
    mo.threads = (unsigned)threads;
    mo.writer_contexts = contexts;
    pb_merger *m = NULL;
    pb_profile *p = NULL;
    pb_error err;
    int rc = pb_merger_new(&m, &mo, &err);
    for (int round = 0; round < 6 && rc == 0; round++)
        for (int a = 1; a < argc && rc == 0; a++) rc = pb_merger_add_file(m, argv[a], (uint64_t)(round % 3 + 1), &err);
    if (rc == 0) rc = pb_merger_run(m, &p, &err);
    if (rc) fprintf(stderr, "merge_threads: %d threads: %s\n", threads, err.message);
    else {
        *out = digest(p);
        *nrec = pb_profile_record_count(p);
    }
    pb_profile_free(p);
    pb_merger_free(m);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: merge_threads RAW...\n");
        return 2;
    }
    uint64_t d1 = 0, d3 = 0;
    size_t n1 = 0, n3 = 0;
    if (merge(1, 0, argc, argv, &d1, &n1) || merge(3, 0, argc, argv, &d3, &n3)) return 1;
    if (d1 != d3 || n1 != n3) {
        fprintf(stderr, "merge_threads: 3 threads merged other records than 1 (%zu vs %zu)\n", n3, n1);
        return 1;
    }
    uint64_t c1 = 0, c2 = 0;
    size_t m1 = 0, m2 = 0;
    if (merge(3, 1, argc, argv, &c1, &m1) || merge(3, 1, argc, argv, &c2, &m2)) return 1;
    if (c1 != c2 || m1 != m2 || m1 != n1) {
        fprintf(stderr, "merge_threads: writer contexts on 3 threads: %zu and %zu records (one thread: %zu), %s\n",
                m1, m2, n1, c1 == c2 ? "same digest" : "other digests");
        return 1;
    }
    printf("merge_threads: %zu records, 1 and 3 threads agree; writer contexts on 3 threads agree\n", n1);
    return 0;
}
