/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * read_threads.c -- read-only use of one profile from several threads is
 * safe (include/profbridge/profile.h, "Thread safety").
 *
 * For each profile named on the command line (raw, indexed, iprof): read it
 * once, then let 4 threads at the same time call every const getter, walk
 * every record with its LLVM name, look each name up, write the profile to
 * memory sinks in every format that can write, compute the overlap and the
 * diff of the profile with itself, check and compare it. Built with
 * -fsanitize=thread by tests/tsan/run.sh, where any data race is a
 * ThreadSanitizer report and a failed test. The threads' outputs must also
 * be byte-identical: a race that TSan missed may still show there.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profbridge/compare.h"
#include "profbridge/profbridge.h"

#define NTHREADS 4

typedef struct job {
    const pb_profile *p;
    const char *path;
    unsigned long long digest; /* FNV-1a over everything the thread saw */
    int failed;
} job;

static void mix(job *j, const void *data, size_t n) {
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) j->digest = (j->digest ^ b[i]) * 1099511628211ULL;
}

static void fail(job *j, const char *what, const pb_error *e) {
    char line[1024];
    if (e) pb_error_format(e, line, sizeof line);
    fprintf(stderr, "read_threads: %s: %s%s%s\n", j->path, what, e ? ": " : "", e ? line : "");
    j->failed = 1;
}

static void getters(job *j) {
    const pb_profile *p = j->p;
    uint64_t f = pb_profile_flags(p);
    mix(j, &f, sizeof f);
    mix(j, pb_profile_origin(p)->format, sizeof pb_profile_origin(p)->format);
    for (size_t i = 0; i < pb_profile_prop_count(p); i++) {
        const char *v;
        size_t n;
        const char *k = pb_profile_prop_at(p, i, &v, &n);
        mix(j, k, strlen(k));
        mix(j, v, n);
        if (pb_profile_prop(p, k, &n) == NULL) fail(j, "property vanished", NULL);
    }
    for (size_t i = 0; i < pb_profile_binary_id_count(p); i++) {
        size_t n;
        const uint8_t *b = pb_profile_binary_id(p, i, &n);
        mix(j, b, n);
    }
    for (size_t i = 0; i < pb_profile_trace_count(p); i++) {
        uint64_t w;
        size_t n;
        const uint64_t *t = pb_profile_trace(p, i, &w, &n);
        mix(j, t, n * sizeof *t);
    }
    for (uint32_t i = 0; i < pb_profile_symbol_count(p); i++) {
        const pb_symbol *s = pb_profile_symbol(p, i);
        size_t n;
        const char *name = pb_profile_str(p, s->name, &n);
        uint32_t back;
        if (name && pb_profile_find_symbol(p, name, n, &back) != 0) fail(j, "symbol not found", NULL);
        if (pb_profile_find_symbol_md5(p, s->md5, &back) != 0) fail(j, "symbol md5 not found", NULL);
        mix(j, &s->md5, sizeof s->md5);
    }
    for (uint32_t i = 0; i < pb_profile_method_count(p); i++) mix(j, &pb_profile_method(p, i)->name, 4);
}

static void records(job *j) {
    const pb_profile *p = j->p;
    size_t idx[8];
    for (size_t i = 0; i < pb_profile_record_count(p); i++) {
        const pb_record *r = pb_profile_record(p, i);
        const char *name;
        size_t len;
        uint64_t hash;
        pb_error err;
        if (pb_profile_record_name(p, r, &name, &len, &hash, &err)) {
            fail(j, "record name", &err);
            return;
        }
        mix(j, name, len);
        mix(j, &hash, sizeof hash);
        mix(j, r->counters, r->num_counters * sizeof *r->counters);
        for (int k = 0; k < PB_VK_COUNT; k++)
            for (uint32_t s = 0; s < r->num_sites[k]; s++)
                mix(j, r->sites[k][s].values, r->sites[k][s].num_values * sizeof(pb_value));
        if (r->ctx != PB_NONE) {
            size_t n;
            const pb_frame *fr = pb_profile_context(p, r->ctx, &n);
            mix(j, fr, n * sizeof *fr);
        }
        if (r->layout != PB_NONE) {
            size_t n;
            const int32_t *v = pb_profile_ints(p, r->layout, &n);
            mix(j, v, n * sizeof *v);
        }
        if (pb_profile_lookup(p, name, len, idx, 8) == 0) fail(j, "lookup by name found nothing", NULL);
        if (pb_profile_lookup_ref(p, pb_md5_ref(name, len), idx, 8) == 0)
            fail(j, "lookup by NameRef found nothing", NULL);
    }
}

static void writes(job *j) {
    for (size_t i = 0; i < pb_format_count(); i++) {
        const pb_format *f = pb_format_at(i);
        pb_sink *s = NULL;
        pb_error err;
        pb_write_options wo = PB_WRITE_OPTIONS_INIT;
        if (pb_sink_open_memory(&s, &err)) {
            fail(j, "memory sink", &err);
            return;
        }
        int rc = pb_write(j->p, s, f, &wo, &err);
        if (rc == 0) {
            size_t n;
            const uint8_t *b = pb_sink_memory(s, &n);
            mix(j, b, n);
        } else if (rc != PB_EUNSUPPORTED && rc != PB_EINVAL) {
            fail(j, pb_format_name(f), &err); /* a plugin that cannot write: PB_EUNSUPPORTED */
        }
        pb_sink_free(s);
    }
}

static void compares(job *j) {
    pb_error err;
    pb_sink *s = NULL;
    pb_overlap_options oo = PB_OVERLAP_OPTIONS_INIT;
    if (pb_sink_open_memory(&s, &err) || pb_profile_overlap(j->p, j->p, &oo, s, &err)) {
        fail(j, "overlap", &err);
    } else {
        size_t n;
        const uint8_t *b = pb_sink_memory(s, &n);
        mix(j, b, n);
    }
    pb_sink_free(s);
    pb_diff *d = NULL;
    if (pb_profile_diff(j->p, j->p, &d, &err)) fail(j, "diff", &err);
    else if (pb_diff_count(d) != 0) fail(j, "a profile differs from itself", NULL);
    pb_diff_free(d);
    if (pb_profile_check(j->p, NULL, NULL) != 0) fail(j, "check found problems", NULL);
    char why[256];
    if (!pb_profile_equal(j->p, j->p, why, sizeof why)) fail(j, why, NULL);
}

static void *run(void *arg) {
    job *j = arg;
    getters(j);
    records(j);
    writes(j);
    compares(j);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: read_threads PROFILE...\n");
        return 2;
    }
    int status = 0;
    for (int a = 1; a < argc; a++) {
        pb_profile *p = NULL;
        pb_error err;
        pb_read_options ro = PB_READ_OPTIONS_INIT;
        if (pb_read_file(&p, argv[a], &ro, &err)) {
            char line[1024];
            pb_error_format(&err, line, sizeof line);
            fprintf(stderr, "read_threads: %s\n", line);
            return 2;
        }
        job jobs[NTHREADS];
        pthread_t t[NTHREADS];
        for (int i = 0; i < NTHREADS; i++) {
            jobs[i] = (job){p, argv[a], 14695981039346656037ULL, 0};
            if (pthread_create(&t[i], NULL, run, &jobs[i]) != 0) return 2;
        }
        for (int i = 0; i < NTHREADS; i++) pthread_join(t[i], NULL);
        for (int i = 0; i < NTHREADS; i++) {
            if (jobs[i].failed) status = 1;
            if (jobs[i].digest != jobs[0].digest) {
                fprintf(stderr, "read_threads: %s: thread %d saw other bytes than thread 0\n", argv[a], i);
                status = 1;
            }
        }
        printf("%s: %zu records, 4 threads agree: %s\n", argv[a], pb_profile_record_count(p),
               status ? "no" : "yes");
        pb_profile_free(p);
    }
    return status;
}
