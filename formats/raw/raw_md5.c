/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_md5.c -- the NameRef (MD5) of every name of a raw profile's names
 * section, on two cores where the machine has them.
 *
 * Hashing 100k names was a tenth of a raw -> indexed merge (perf record,
 * bench/shapes.sh plain), and each hash depends only on its name, so a
 * second thread takes the second half. The result is the same with one
 * thread or two; when a thread cannot be started the caller's thread hashes
 * everything (nothing fails).
 */
#include <pthread.h>
#include <unistd.h>

#include "model/str_md5.h"
#include "raw_md5.h"

/* Fewer names than this are hashed on one thread: starting a thread costs
 * about as much as hashing a few hundred names. */
#define PARALLEL_MIN 4096

typedef struct md5_job {
    const char *text;
    pbi_raw_name_ent *items;
    size_t from, to;
} md5_job;

static void hash_range(const md5_job *j) {
    for (size_t i = j->from; i < j->to; i++) j->items[i].md5 = pb_md5_ref(j->text + j->items[i].off, j->items[i].len);
}

static void *hash_thread(void *arg) {
    hash_range(arg);
    return NULL;
}

void pbi_raw_md5_all(const char *text, pbi_raw_name_ent *items, size_t n) {
    md5_job all = {text, items, 0, n};
    if (n < PARALLEL_MIN || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        hash_range(&all);
        return;
    }
    md5_job second = {text, items, n / 2, n}, first = {text, items, 0, n / 2};
    pthread_t t;
    if (pthread_create(&t, NULL, hash_thread, &second) != 0) {
        hash_range(&all);
        return;
    }
    hash_range(&first);
    pthread_join(t, NULL);
}
