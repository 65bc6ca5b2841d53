/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * list_records.c -- read any profile (the format is found by content) and
 * list its records, one line each:
 *
 *   NAME <tab> HASH (0x, 16 hex digits) <tab> COUNTERS <tab> SUM
 *
 * NAME is the record's LLVM name (for an iprof entry, the name it gets in
 * LLVM formats), SUM the sum of its counters. Build against the installed
 * library:
 *   cc list_records.c $(pkg-config --cflags --libs profbridge) -o list_records
 */
#include <inttypes.h>
#include <stdio.h>

#include <profbridge/profbridge.h>

static int report(const pb_error *err) {
    char line[1024];
    pb_error_format(err, line, sizeof line);
    fprintf(stderr, "list_records: %s\n", line);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: list_records PROFILE\n");
        return 2;
    }
    pb_error err; /* every call resets it: one is enough for the program */
    pb_profile *p = NULL;
    pb_read_options ro = PB_READ_OPTIONS_INIT; /* detect the format by content */
    if (pb_read_file(&p, argv[1], &ro, &err) != PB_OK) return report(&err);
    for (size_t i = 0; i < pb_profile_record_count(p); i++) {
        const pb_record *r = pb_profile_record(p, i);
        const char *name;
        size_t len;
        uint64_t hash;
        if (pb_profile_record_name(p, r, &name, &len, &hash, &err) != PB_OK) {
            pb_profile_free(p);
            return report(&err);
        }
        uint64_t sum = 0;
        for (uint32_t c = 0; c < r->num_counters; c++) sum += r->counters[c];
        printf("%.*s\t0x%016" PRIx64 "\t%" PRIu32 "\t%" PRIu64 "\n", (int)len, name, hash,
               r->num_counters, sum);
    }
    pb_profile_free(p);
    return 0;
}
