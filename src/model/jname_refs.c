/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jname_refs.c -- the NameRef and length of every Java record's rendered
 * name, the names rendered into scratch and dropped (jname_stream.h), a
 * second thread taking the second half of the records.
 *
 * The method descriptors are cached first, under the profile's lock, which
 * is then held until both halves are done: rendering only reads the profile
 * then (pbi_jname_render_ready), so the worker needs no lock, and no other
 * user of the profile fills a cache meanwhile.
 */
#include "model/jname_stream.h"

#include "model/jname.h"
#include "model/profile_internal.h"
#include "util/halves.h"

/* As rname_md5.c: fewer names are hashed on one thread. */
#define PARALLEL_MIN 4096

typedef struct refs_job {
    const pb_profile *p;
    uint64_t *ref;
    uint32_t *len;
    int failed[2]; /* per half: a name could not be rendered */
} refs_job;

static void refs_range(void *ctx, size_t from, size_t to) {
    refs_job *j = ctx;
    pb_buf b = PB_BUF_INIT;
    int *failed = &j->failed[from == 0 ? 0 : 1];
    for (size_t i = from; i < to && !*failed; i++) {
        const pb_record *r = &j->p->recs[i];
        j->ref[i] = 0;
        j->len[i] = 0;
        if (r->kind == PB_REC_FUNCTION || r->num_counters == 0) continue; /* the writer skips the latter */
        pbu_buf_reset(&b);
        if (pbi_jname_render_ready(j->p, r, &b) || pbu_buf_failed(&b) || b.len >= UINT32_MAX) {
            *failed = 1;
            break;
        }
        j->ref[i] = pb_md5_ref(b.len ? b.data : "", b.len);
        j->len[i] = (uint32_t)b.len;
    }
    pbu_buf_free(&b);
}

int pbi_jname_refs(const pb_profile *p, uint64_t *ref, uint32_t *len) {
    refs_job j = {p, ref, len, {0, 0}};
    int rc = 0;
    pbi_cache_lock(p);
    for (uint32_t m = 0; m < p->meth_keys.count && !rc; m++) {
        const char *t;
        size_t n;
        rc = pbi_jname_method_desc(p, m, &t, &n);
    }
    if (!rc) pbu_run_halves(refs_range, &j, p->num_recs, PARALLEL_MIN);
    pbi_cache_unlock(p);
    return rc ? rc : j.failed[0] || j.failed[1] ? PB_ENOMEM : 0;
}
