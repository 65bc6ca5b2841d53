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
#include "model/str_md5.h"
#include "raw_md5.h"
#include "util/halves.h"

/* Fewer names than this are hashed on one thread: starting a thread costs
 * about as much as hashing a few hundred names. */
#define PARALLEL_MIN 4096

typedef struct md5_job {
    const char *text;
    pbi_raw_name_ent *items;
} md5_job;

static void hash_range(void *ctx, size_t from, size_t to) {
    const md5_job *j = ctx;
    for (size_t i = from; i < to; i++) j->items[i].md5 = pb_md5_ref(j->text + j->items[i].off, j->items[i].len);
}

void pbi_raw_md5_all(const char *text, pbi_raw_name_ent *items, size_t n) {
    md5_job j = {text, items};
    pbu_run_halves(hash_range, &j, n, PARALLEL_MIN);
}
