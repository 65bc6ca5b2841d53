/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * readback.h -- "every write is read back" (issue 12, item 5), shared by the
 * CUnit suite test_readback.c and the libFuzzer targets
 * formats/<name>/<name>_readback_fuzz.c. For a model some reader accepted,
 * each writer either refuses with an error that says why, or writes a file
 * that its own reader reads; that read, written and read again, gives the
 * same model (the writer and reader agree: nothing is lost on the second
 * trip). The JSON view is the model itself: its first trip must be exact.
 * Header-only (static functions) so that fuzz targets need no extra source.
 */
#ifndef PB_TESTS_READBACK_H
#define PB_TESTS_READBACK_H

#include <stdio.h>
#include <string.h>

#include "profbridge/profbridge.h"

/* Writes p as `fmt` into memory and reads it back: 0 and *out, 1 when the
 * writer refused cleanly (an error code and a message), -1 with `why`. */
static inline int pbt_trip(const pb_profile *p, const char *fmt, pb_profile **out, char *why, size_t n) {
    pb_sink *s = NULL;
    pb_source *src = NULL;
    pb_error err;
    int res = 0;
    *out = NULL;
    pb_error_clear(&err);
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    if (pb_sink_open_memory(&s, &err)) return 1; /* out of memory */
    int rc = pb_write(p, s, pb_format_lookup(fmt), &wo, &err);
    if (rc) {
        char msg[512];
        pb_error_format(&err, msg, sizeof msg);
        if (rc == PB_ENOMEM || (err.code && msg[0])) {
            res = 1;
        } else {
            snprintf(why, n, "%s writer failed (%d) without saying why", fmt, rc);
            res = -1;
        }
    } else {
        size_t len;
        const uint8_t *d = pb_sink_memory(s, &len);
        pb_read_options ro = PB_READ_OPTIONS_INIT;
        ro.format = fmt;
        rc = pb_source_open_memory(&src, d, len, "<written>", &err);
        if (!rc) rc = pb_read(out, src, &ro, &err);
        if (rc == PB_ENOMEM) {
            res = 1;
        } else if (rc) {
            char msg[400];
            pb_error_format(&err, msg, sizeof msg);
            snprintf(why, n, "the %s writer wrote %zu bytes its reader refuses: %s", fmt, len, msg);
            res = -1;
        }
    }
    pb_source_free(src);
    pb_sink_free(s);
    return res;
}

/* The property for one writer: 0 = holds (or a clean refusal), -1 = broken (`why`). */
static inline int pbt_readback(const pb_profile *p, const char *fmt, char *why, size_t n) {
    pb_profile *q = NULL, *q2 = NULL;
    int res = pbt_trip(p, fmt, &q, why, n);
    if (res == 0 && strcmp(fmt, "json") == 0) {
        char d[300];
        if (!pb_profile_equal(p, q, d, sizeof d)) {
            snprintf(why, n, "json: the model read back differs: %s", d);
            res = -1;
        }
    }
    if (res == 0) {
        res = pbt_trip(q, fmt, &q2, why, n);
        if (res == 1) {
            snprintf(why, n, "the %s writer refuses the model its own reader read from its output", fmt);
            res = -1;
        } else if (res == 0) {
            char d[300];
            if (!pb_profile_equal(q, q2, d, sizeof d)) {
                snprintf(why, n, "%s: written, read, written and read again, the model changes: %s", fmt, d);
                res = -1;
            }
        }
    }
    pb_profile_free(q);
    pb_profile_free(q2);
    return res < 0 ? -1 : 0;
}

/* Every writer. */
static const char *const pbt_writers[] = {"raw", "indexed", "text", "json", "iprof"};

/* Reads `data` (any format, detected) and checks every writer; returns the
 * number of broken writers (0 when the input does not read). */
static inline int pbt_readback_all(const uint8_t *data, size_t size, const char *name, char *why, size_t n) {
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error err;
    int broken = 0;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    if (pb_source_open_memory(&src, data, size, name, &err) == 0 && pb_read(&p, src, &ro, &err) == 0) {
        for (size_t i = 0; i < sizeof pbt_writers / sizeof *pbt_writers; i++)
            if (pbt_readback(p, pbt_writers[i], why, n)) broken++;
    }
    pb_profile_free(p);
    pb_source_free(src);
    return broken;
}

/* The body of every <name>_readback_fuzz.c: any bytes through every reader
 * (detected); a model that reads goes through `writer`, which must refuse
 * with a message or write what its reader reads back (pbt_readback). */
#define PBT_READBACK_FUZZ_TARGET(writer)                                                                \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                                      \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {                                     \
        pb_source *src = NULL;                                                                          \
        pb_profile *p = NULL;                                                                           \
        pb_error err;                                                                                   \
        pb_error_clear(&err);                                                                           \
        pb_read_options ro = PB_READ_OPTIONS_INIT;                                                      \
        if (pb_source_open_memory(&src, data, size, "<fuzz>", &err) == 0 && pb_read(&p, src, &ro, &err) == 0) { \
            char why[1024];                                                                             \
            if (pbt_readback(p, writer, why, sizeof why)) {                                             \
                fprintf(stderr, "%s\n", why);                                                           \
                abort();                                                                                \
            }                                                                                           \
        }                                                                                               \
        pb_profile_free(p);                                                                             \
        pb_source_free(src);                                                                            \
        return 0;                                                                                       \
    }

#endif
