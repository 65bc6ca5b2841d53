/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_filter.c -- llvm-profdata 18+'s --function / --no-function: after
 * the merge only the functions whose names match the one expression and not
 * the other stay (POSIX extended regular expressions; LLVM's are close to
 * them for the names seen in practice).
 */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>

#include "merger_internal.h"
#include "util/buf.h"

int pbi_merger_filter_compile(pb_merger *m, pb_error *err) {
    if (m->o.keep_functions) {
        if (regcomp(&m->keep, m->o.keep_functions, REG_EXTENDED | REG_NOSUB))
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, PB_MERGER_KEEP_FUNCTIONS,
                                "bad regular expression '%s'", m->o.keep_functions);
        m->have_keep = 1;
    }
    if (m->o.drop_functions) {
        if (regcomp(&m->drop, m->o.drop_functions, REG_EXTENDED | REG_NOSUB))
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, PB_MERGER_DROP_FUNCTIONS,
                                "bad regular expression '%s'", m->o.drop_functions);
        m->have_drop = 1;
    }
    return 0;
}

void pbi_merger_filter_free(pb_merger *m) {
    if (m->have_keep) regfree(&m->keep);
    if (m->have_drop) regfree(&m->drop);
    m->have_keep = m->have_drop = 0;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Keeps only the function records the filters allow, in a new profile. */
static int filter_functions(pb_merger *m, pb_profile **pp, const regex_t *keep, const regex_t *drop, pb_error *err) {
    pb_profile *src = *pp, *dst = NULL;
    int rc = pb_profile_new(&dst, err);
    if (rc) return rc;
    pb_profile_set_flags(dst, pb_profile_flags(src));
    pb_profile_set_origin(dst, pb_profile_origin(src));
    for (size_t i = 0; i < pb_profile_symbol_count(src) && !rc; i++) {
        const pb_symbol *s = pb_profile_symbol(src, (uint32_t)i);
        uint32_t idx;
        if (s->placeholder) rc = pb_profile_add_placeholder_symbol(dst, s->placeholder_id, &idx, err);
        else {
            size_t n;
            const char *name = pb_profile_str(src, s->name, &n);
            rc = pb_profile_add_symbol(dst, name, n, &idx, err);
        }
        if (!rc && idx != i)
            rc = pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "symbol table could not be copied in order");
    }
    if (!rc) rc = pb_profile_add_run_data(dst, src, err); /* dst is new: the same as a copy */
    pb_buf name = PB_BUF_INIT;
    size_t nrec = pb_profile_record_count(src), nseen = 0;
    uint64_t *seen = nrec ? malloc(nrec * sizeof *seen) : NULL; /* name << 1 | dropped */
    if (nrec && !seen) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < pb_profile_record_count(src) && !rc; i++) {
        pb_record r = *pb_profile_record(src, i);
        if (r.kind != PB_REC_FUNCTION) {
            rc = pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                              "function filters cannot filter iprof-derived records yet");
            break;
        }
        size_t n;
        const char *s = pb_profile_str(src, r.name, &n);
        pbu_buf_reset(&name);
        pbu_buf_append(&name, s, n);
        if (name.failed) {
            rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            break;
        }
        const char *z = name.data ? name.data : "";
        int out = (keep && regexec(keep, z, 0, NULL, 0) != 0) || (drop && regexec(drop, z, 0, NULL, 0) == 0);
        seen[nseen++] = (uint64_t)r.name << 1 | (uint64_t)out;
        if (out) continue;
        if ((rc = pb_profile_intern(dst, s, n, &r.name, err))) break;
        rc = pb_profile_add_record(dst, &r, NULL, err);
    }
    pbu_buf_free(&name);
    if (!rc) {
        /* llvm-profdata 18+ (filterFunctions) counts names, not records,
         * and says so on stderr without a prefix */
        if (nseen) qsort(seen, nseen, sizeof *seen, cmp_u64); /* no record: seen is NULL */
        size_t names = 0, dropped = 0;
        for (size_t i = 0; i < nseen; i++)
            if (i == 0 || seen[i] >> 1 != seen[i - 1] >> 1) names++, dropped += seen[i] & 1;
        pb_diag(m->o.diag, m->o.diag_ctx, PB_DIAG_NOTICE, 0, NULL, PB_NO_OFFSET, PB_MERGER_FILTERED,
                "%zu of %zu functions in the original profile are filtered.", dropped, names);
    }
    free(seen);
    if (rc) {
        pb_profile_free(dst);
        return rc;
    }
    pb_profile_free(src);
    *pp = dst;
    return 0;
}

int pbi_merger_filter(pb_merger *m, pb_profile **pp, pb_error *err) {
    if (!m->have_keep && !m->have_drop) return 0;
    return filter_functions(m, pp, m->have_keep ? &m->keep : NULL, m->have_drop ? &m->drop : NULL, err);
}
