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
#include <pthread.h>
#include <unistd.h>

#include "model/rname_md5.h"

/* Fewer names than this are hashed on one thread: starting a thread costs
 * about as much as hashing a few hundred names. */
#define PARALLEL_MIN 4096

typedef struct md5_job {
    pbi_rname *rn;
    const size_t *which;
    size_t from, to;
} md5_job;

static void hash_range(const md5_job *j) {
    for (size_t k = j->from; k < j->to; k++) {
        pbi_rname *e = &j->rn[j->which[k]];
        e->hash = pb_md5_ref(e->len ? e->name : "", e->len);
    }
}

static void *hash_thread(void *arg) {
    hash_range(arg);
    return NULL;
}

void pbi_rname_md5_all(pbi_rname *rn, const size_t *which, size_t n) {
    md5_job all = {rn, which, 0, n};
    if (n < PARALLEL_MIN || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        hash_range(&all);
        return;
    }
    md5_job second = {rn, which, n / 2, n}, first = {rn, which, 0, n / 2};
    pthread_t t;
    if (pthread_create(&t, NULL, hash_thread, &second) != 0) {
        hash_range(&all);
        return;
    }
    hash_range(&first);
    pthread_join(t, NULL);
}
