/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * rname_md5.c -- the NameRef (MD5) of every rendered Java record name, a
 * second thread taking the second half.
 *
 * iprof -> indexed hashes every record's rendered name (about 1 KB each
 * for deep contexts): MD5 was 14% of the conversion of a 60,000-method
 * iprof (perf record, bench/iprof.sh ix). Each hash depends only on its
 * name, so the result is the same with one thread or two.
 */
#include "model/rname_md5.h"
#include "util/halves.h"

/* Fewer names than this are hashed on one thread: starting a thread costs
 * about as much as hashing a few hundred names. */
#define PARALLEL_MIN 4096

typedef struct md5_job {
    pbi_rname *rn;
    const size_t *which;
} md5_job;

static void hash_range(void *ctx, size_t from, size_t to) {
    const md5_job *j = ctx;
    for (size_t k = from; k < to; k++) {
        pbi_rname *e = &j->rn[j->which[k]];
        e->hash = pb_md5_ref(e->len ? e->name : "", e->len);
    }
}

void pbi_rname_md5_all(pbi_rname *rn, const size_t *which, size_t n) {
    md5_job j = {rn, which};
    pbu_run_halves(hash_range, &j, n, PARALLEL_MIN);
}
