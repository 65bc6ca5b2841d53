/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_merge.c -- adding records and whole profiles together exactly the
 * way llvm-profdata merge does (spec llvm-instrprof.md §3.7, §3.12 point 4;
 * LLVM InstrProfWriter::addRecord and InstrProfRecord::merge):
 *
 *  - a new key is inserted; with weight > 1 its counters are multiplied
 *    (saturating, clamped to max_count) and so are its value counts;
 *  - an existing key: a counter-count mismatch warns and skips the record;
 *    pseudo-count records (counter 0 = -1 "hot" / -2 "warm", LLVM >= 15)
 *    only merge with pseudo records, and then only counter 0 changes;
 *    counters become min(max, dst + src*w); a bitmap size mismatch warns and
 *    skips the rest (LLVM returns there, before the value sites); bitmaps are
 *    OR-ed; per value kind a site-count mismatch warns and skips that kind,
 *    else each site is merged by value (both sides sorted by value; equal
 *    values add count*w; values only in the source are taken with their
 *    count as is -- LLVM does not scale them);
 *  - after either path every site is stable-sorted by count, descending,
 *    and cut to max_values_per_site.
 * Value counts saturate at UINT64_MAX as in LLVM (its clamp applies to
 * counters only), except when max_count is below PB_MAX_COUNT_LLVM (iprof:
 * Java longs), where they are clamped to max_count too.
 */
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "merge/merge_stream.h"
#include "merge/profile_merge.h"
#include "merge/trace_merge.h"
#include "model/profile_records.h"
#include "model/origin_form.h"
#include "llvm/target.h"
#include "llvm/llvm_values.h"
#include "llvm/stl_algo.h"
#include "util/api.h"
#include "util/grow.h"

#define PSEUDO_HOT UINT64_MAX
#define PSEUDO_WARM (UINT64_MAX - 1)

static const pb_merge_options default_options = PB_MERGE_OPTIONS_INIT;

static uint64_t value_max(const pb_merge_options *o) {
    return o->max_count >= PB_MAX_COUNT_LLVM ? UINT64_MAX : o->max_count;
}

/*
 * What llvm-profdata's InstrProfWriter reports about one record it adds: the
 * first problem only (loadInput's `Reported`: later ones of the same record
 * are dropped), as a warning "NAME: what" whose path is LLVM's instrprof_error
 * name (profile.h: PB_MERGE_*), so a caller can give LLVM's hint once per kind.
 * Each kind is kept, in the order met, for a merge of two writers, which
 * reports every one (scratch.every_problem).
 */
/* THE kinds of InstrProfWriter's problems: the path a warning carries and
 * LLVM's words for it, in profile.h's PB_MERGE_* order. */
static const struct {
    const char *path, *words;
} kinds[PB_MERGE_KINDS] = {
    {PB_MERGE_COUNTER_OVERFLOW, "counter overflow"},
    {PB_MERGE_COUNT_MISMATCH, "function basic block count change detected (counter mismatch)"},
    {PB_MERGE_VALUE_SITE_COUNT_MISMATCH, "function value site count change detected (counter mismatch)"},
    {PB_MERGE_BITMAP_MISMATCH, "function bitmap size change detected (bitmap size mismatch)"},
};
enum { K_OVERFLOW, K_COUNT_MISMATCH, K_VALUE_SITE_COUNT_MISMATCH, K_BITMAP_MISMATCH };

int pb_merge_problem_kind(const char *path) {
    for (int k = 0; path && k < PB_MERGE_KINDS; k++)
        if (strcmp(path, kinds[k].path) == 0) return k;
    return -1;
}

const char *pb_merge_problem_words(int kind) {
    return kind >= 0 && kind < PB_MERGE_KINDS ? kinds[kind].words : NULL;
}

typedef struct problem {
    int kind[PB_MERGE_KINDS]; /* the kinds met, first first */
    unsigned n;
} problem;

static void note(problem *pr, int kind) {
    for (unsigned k = 0; k < pr->n; k++)
        if (pr->kind[k] == kind) return;
    if (pr->n < PB_MERGE_KINDS) pr->kind[pr->n++] = kind;
}

/* a*1 + b*w saturating at max, and whether it saturated (LLVM's Overflowed:
 * the sum passes 2^64-1, or the release's maximum count) */
static uint64_t madd(uint64_t a, uint64_t b, uint64_t w, uint64_t max, problem *pr) {
    uint64_t prod, sum;
    if (__builtin_mul_overflow(b, w, &prod) || __builtin_add_overflow(a, prod, &sum) || sum > max) {
        note(pr, K_OVERFLOW);
        return max;
    }
    return sum;
}

static void warn(pb_profile *p, size_t i, const pb_merge_options *o, const problem *pr, int every) {
    if (!o->diag || !pr->n) return;
    const char *name = "?";
    size_t len = 1;
    if (pb_profile_record_name(p, pb_profile_record(p, i), &name, &len, NULL, NULL)) {
        name = "?";
        len = 1;
    }
    for (unsigned k = 0; k < (every ? pr->n : 1); k++)
        pb_diag(o->diag, o->diag_ctx, PB_DIAG_WARNING, PB_EFORMAT, o->source ? o->source : "<merge>",
                PB_NO_OFFSET, kinds[pr->kind[k]].path, "%.*s: %s", len > 400 ? 400 : (int)len, name,
                kinds[pr->kind[k]].words);
}

/* ---- value sites -------------------------------------------------------- */

/* Stable merge sort of values; by_value: ascending value, else descending
 * count. tmp holds n values. */
static int before(const pb_value *a, const pb_value *b, int by_value) {
    return by_value ? a->value < b->value : a->count > b->count;
}

static void stable_sort(pb_value *v, pb_value *tmp, size_t n, int by_value) {
    if (n < 2) return;
    if (n <= 16) { /* insertion sort: stable, fast for small sites */
        for (size_t i = 1; i < n; i++) {
            pb_value x = v[i];
            size_t j = i;
            while (j > 0 && before(&x, &v[j - 1], by_value)) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    stable_sort(v, tmp, h, by_value);
    stable_sort(v + h, tmp, n - h, by_value);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = before(&v[j], &v[i], by_value) ? v[j++] : v[i++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

typedef pbi_merge_scratch scratch;

static int scratch_need(scratch *s, size_t n) {
    return pbu_grow((void **)&s->a, &s->cap, n, sizeof *s->a);
}

/* Sorts every site of r by count (descending, stable) and cuts it. */
static int sort_sites(pb_record *r, const pb_merge_options *o, scratch *s) {
    for (int k = 0; k < PB_VK_COUNT; k++) {
        for (uint32_t i = 0; i < r->num_sites[k]; i++) {
            pb_site *site = &r->sites[k][i];
            if (scratch_need(s, site->num_values)) return PB_ENOMEM;
            stable_sort(site->values, s->a, site->num_values, 0);
            if (o->max_values_per_site && site->num_values > o->max_values_per_site)
                site->num_values = o->max_values_per_site;
        }
    }
    return 0;
}

/* v[0..n) by value as LLVM's sortByTargetValues: std::sort from 19
 * (std_sort), stable before. libstdc++'s std::sort orders up to
 * PBI_STL_SORT_THRESHOLD elements by insertion, which is stable, and any sort gives the one order
 * of values that are all distinct: so only a longer site with a repeated
 * value needs the emulation of std::sort (a fifth of merging 1,000 raws
 * with value sites: callgrind, bench/many_merge.sh). spare holds n values. */
static void sort_by_value(pb_value *v, pb_value *tmp, pb_value *spare, size_t n, int std_sort) {
    if (!std_sort || n <= PBI_STL_SORT_THRESHOLD) {
        stable_sort(v, tmp, n, 1);
        return;
    }
    memcpy(spare, v, n * sizeof *v);
    stable_sort(spare, tmp, n, 1);
    for (size_t i = 1; i < n; i++)
        if (spare[i - 1].value == spare[i].value) {
            pbi_llvm_std_sort_by_value(v, n);
            return;
        }
    memcpy(v, spare, n * sizeof *v);
}

/* Sites this small whose values are each distinct on either side are
 * merged without sorting by value (small_distinct, merge_small_site). */
#define SMALL_SITE 32

/* 1 when both sites are small and neither holds a value twice. */
static int small_distinct(const pb_site *dst, const pb_site *src) {
    const pb_site *side[2] = {dst, src};
    for (int k = 0; k < 2; k++) {
        const pb_value *v = side[k]->values;
        size_t n = side[k]->num_values;
        if (n > SMALL_SITE) return 0;
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (v[i].value == v[j].value) return 0;
    }
    return 1;
}

/* A merged site's k values, out[0..k), into dst: in place while they fit
 * (pbi_profile_values_room), else in a block with room for them. */
static int store_site(pb_profile *p, pb_site *dst, const pb_value *out, size_t k) {
    pb_value *dest = dst->values;
    if (k > dst->num_values) {
        dest = pbi_profile_values_room(p, dst->values, k);
        if (!dest) return PB_ENOMEM;
    }
    if (k) memcpy(dest, out, k * sizeof *dest); /* two empty sites: dest may be NULL */
    dst->values = dest;
    dst->num_values = (uint32_t)k;
    return 0;
}

/*
 * merge_site for small sites of distinct values: LLVM sorts both sides by
 * value, merges them and sorts the result stably by count, so its order is
 * count descending, then value ascending -- one order, as no value repeats.
 * The same values and counts are found here by looking each source value up
 * in dst, then sorted once by that order (the two sorts by value and the
 * one by count were a third of the CPU time of merging 1,000 raws with
 * value sites: perf, mispredicted insertion-sort branches that callgrind's
 * instruction counts do not show).
 */
static int merge_small_site(pb_profile *p, pb_site *dst, const pb_site *src, uint64_t w, uint64_t vmax, scratch *s,
                            problem *pr) {
    size_t nd = dst->num_values, ns = src->num_values, k = nd;
    if (scratch_need(s, nd + ns + 1)) return PB_ENOMEM;
    pb_value *out = s->a;
    if (nd) memcpy(out, dst->values, nd * sizeof *out);
    for (size_t j = 0; j < ns; j++) {
        const pb_value *in = &src->values[j];
        size_t i = 0;
        while (i < nd && out[i].value != in->value) i++;
        if (i == nd) {
            out[k++] = *in; /* as LLVM: a value new to dst is not scaled */
            continue;
        }
        out[i].count = madd(out[i].count, in->count, w, vmax, pr);
        if (out[i].symbol == PB_NONE) out[i].symbol = in->symbol;
    }
    for (size_t i = 1; i < k; i++) { /* count descending, then value ascending */
        pb_value x = out[i];
        size_t j = i;
        while (j > 0 && (x.count > out[j - 1].count || (x.count == out[j - 1].count && x.value < out[j - 1].value))) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    return store_site(p, dst, out, k);
}

/* Merges src into dst (LLVM InstrProfValueSiteRecord::merge). Both sides
 * are first sorted by value (sortByTargetValues): stably up to LLVM 18,
 * with std::sort from 19 (unstable: decides which of several equal values,
 * e.g. targets of value 0, meet; llvm_values.h). */
static int merge_site(pb_profile *p, pb_site *dst, const pb_site *src, uint64_t w, uint64_t vmax,
                      int std_sort, scratch *s, problem *pr) {
    size_t nd = dst->num_values, ns = src->num_values;
    if (small_distinct(dst, src)) return merge_small_site(p, dst, src, w, vmax, s, pr);
    size_t big = nd > ns ? nd : ns;
    /* Scratch layout: [in: ns][tmp for both sorts: max(nd, ns)][out: nd + ns]. */
    if (scratch_need(s, ns + big + nd + ns + 1)) return PB_ENOMEM;
    pb_value *in = s->a, *tmp = s->a + ns, *out = s->a + ns + big;
    memcpy(in, src->values, ns * sizeof *in);
    /* out is free until the merge below: the spare of the sorts */
    sort_by_value(dst->values, tmp, out, nd, std_sort);
    sort_by_value(in, tmp, out, ns, std_sort);
    size_t i = 0, k = 0;
    for (size_t j = 0; j < ns; j++) {
        while (i < nd && dst->values[i].value < in[j].value) out[k++] = dst->values[i++];
        if (i < nd && dst->values[i].value == in[j].value) {
            pb_value v = dst->values[i++];
            v.count = madd(v.count, in[j].count, w, vmax, pr);
            if (v.symbol == PB_NONE) v.symbol = in[j].symbol;
            out[k++] = v;
            continue;
        }
        out[k++] = in[j]; /* as LLVM: a value new to dst is not scaled */
    }
    while (i < nd) out[k++] = dst->values[i++];
    return store_site(p, dst, out, k);
}

static int is_pseudo(uint64_t c) { return c == PSEUDO_HOT || c == PSEUDO_WARM; }

static int merge_into(pb_profile *p, size_t di, const pb_record *src, const pb_merge_options *o,
                      scratch *s, problem *pr) {
    pb_record *d = pb_profile_record_mut(p, di);
    uint64_t w = o->weight, max = o->max_count, vmax = value_max(o);
    if (d->num_counters != src->num_counters) {
        note(pr, K_COUNT_MISMATCH);
        return 0;
    }
    /* LLVM 14 has no pseudo counts: -1 is then an ordinary (saturated) count. */
    if (max != PB_MAX_COUNT_LLVM14 && (is_pseudo(d->counters[0]) || is_pseudo(src->counters[0]))) {
        if (!is_pseudo(d->counters[0]) || !is_pseudo(src->counters[0])) {
            note(pr, K_COUNT_MISMATCH);
            return 0;
        }
        d->counters[0] =
            d->counters[0] == PSEUDO_HOT || src->counters[0] == PSEUDO_HOT ? PSEUDO_HOT : PSEUDO_WARM;
        return sort_sites(d, o, s);
    }
    for (uint32_t i = 0; i < d->num_counters; i++)
        d->counters[i] = madd(d->counters[i], src->counters[i], w, max, pr);
    if (d->num_bitmap_bytes != src->num_bitmap_bytes) {
        note(pr, K_BITMAP_MISMATCH);
        return sort_sites(d, o, s);
    }
    for (uint32_t i = 0; i < d->num_bitmap_bytes; i++) d->bitmap[i] |= src->bitmap[i];
    if (!s->std_sort) {
        pbi_llvm_target t;
        s->std_sort = pbi_llvm_target_of(o->llvm_release ? o->llvm_release : PBI_LLVM_DEFAULT, &t) == 0 &&
                              pbi_llvm_has(&t, PBI_LF_VALUE_SORT_UNSTABLE)
                          ? 2
                          : 1;
    }
    int std_sort = s->std_sort == 2;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        if (d->num_sites[k] != src->num_sites[k]) {
            note(pr, K_VALUE_SITE_COUNT_MISMATCH);
            continue;
        }
        for (uint32_t i = 0; i < d->num_sites[k]; i++) {
            int rc = merge_site(p, &d->sites[k][i], &src->sites[k][i], w, vmax, std_sort, s, pr);
            if (rc) return rc;
        }
    }
    return sort_sites(d, o, s);
}

/* A new key with weight > 1 (LLVM's InstrProfRecord::scale: an overflow is
 * reported; weight 1 leaves the record as it is, even above the maximum). */
static int scale_new(pb_record *d, const pb_merge_options *o, problem *pr) {
    uint64_t w = o->weight, vmax = value_max(o);
    if (w <= 1) return 0;
    for (uint32_t i = 0; i < d->num_counters; i++)
        d->counters[i] = madd(0, d->counters[i], w, o->max_count, pr);
    for (int k = 0; k < PB_VK_COUNT; k++)
        for (uint32_t i = 0; i < d->num_sites[k]; i++)
            for (uint32_t j = 0; j < d->sites[k][i].num_values; j++) {
                pb_value *v = &d->sites[k][i].values[j];
                v->count = madd(0, v->count, w, vmax, pr);
            }
    return 0;
}

/* known: the index of rec's key in dst when the caller found it, else SIZE_MAX. */
static int merge_one(pb_profile *dst, const pb_record *rec, const pb_merge_options *o, scratch *s,
                     size_t known, pb_error *err) {
    int rc = pbi_validate_record(dst, rec, err);
    if (rc) return rc;
    size_t i = known != SIZE_MAX ? known : pbi_find_record(dst, rec);
    problem pr = {{0}, 0};
    if (i == SIZE_MAX) {
        rc = pbi_append_record(dst, rec, &i, err);
        if (rc) return rc;
        pb_record *added = pb_profile_record_mut(dst, i);
        scale_new(added, o, &pr);
        rc = sort_sites(added, o, s);
    } else {
        rc = merge_into(dst, i, rec, o, s, &pr);
    }
    warn(dst, i, o, &pr, s->every_problem);
    if (rc) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot merge a record: out of memory");
    return 0;
}

static int check_options(const pb_merge_options **o, pb_error *err) {
    if (!*o) *o = &default_options;
    if ((*o)->weight == 0)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "weight", "a merge weight must be >= 1");
    if ((*o)->max_count == 0)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "max_count", "a saturation point must be > 0");
    return 0;
}

int pb_profile_merge_record(pb_profile *dst, const pb_record *rec, const pb_merge_options *o,
                            pb_error *err) {
    pbu_api_enter(err);
    if (!dst) return pbu_null_arg(err, __func__, "dst");
    if (!rec) return pbu_null_arg(err, __func__, "rec");
    if (o && pbu_check_version(err, "pb_merge_options", o->version, PB_MERGE_OPTIONS_VERSION)) return PB_EINVAL;
    int rc = check_options(&o, err);
    if (rc) return rc;
    scratch s = {NULL, 0, 0, 0};
    rc = merge_one(dst, rec, o, &s, SIZE_MAX, err);
    free(s.a);
    return rc;
}

/* Merges traces t[0..n) of a profile whose stream size is `stream` into p
 * (pbi_merge_traces). llvm-profdata gives the traces of a raw input the
 * input's weight (RawInstrProfReader::getTemporalProfTraces(Weight) sets, not
 * multiplies: a raw trace is one run); an indexed or text input keeps the
 * weights its traces carry. t NULL: copies of from's traces (they stay
 * from's), with from's stream size. */
static int merge_traces_of(pb_profile *p, const pb_profile *from, pbi_trace *t, size_t n, uint64_t stream,
                           const pb_merge_options *o, pb_error *err) {
    int raw = pbi_origin_form(pb_profile_origin(from)) == PB_FORM_RAW;
    pbi_trace *v = t;
    if (!t) {
        n = pb_profile_trace_count(from);
        stream = pb_profile_trace_stream_size(from);
        v = calloc(n ? n : 1, sizeof *v);
        if (!v) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate traces");
        for (size_t i = 0; i < n; i++) {
            const uint64_t *refs = pb_profile_trace(from, i, &v[i].weight, &v[i].n);
            v[i].refs = malloc((v[i].n ? v[i].n : 1) * sizeof *v[i].refs);
            if (!v[i].refs) {
                for (size_t j = 0; j < i; j++) free(v[j].refs);
                free(v);
                return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate traces");
            }
            memcpy(v[i].refs, refs, v[i].n * sizeof *v[i].refs);
        }
    }
    if (raw)
        for (size_t i = 0; i < n; i++) v[i].weight = o->weight;
    pbi_llvm_target rel;
    if (pbi_llvm_target_of(o->llvm_release ? o->llvm_release : PBI_LLVM_DEFAULT, &rel) == 0 &&
        pbi_llvm_has(&rel, PBI_LF_TRACE_RESERVOIR_FILL))
        return pbi_merge_traces_fill(p, v, n, stream, o->trace_reservoir, o->trace_max_length, err);
    return pbi_merge_traces(p, v, n, stream, o->trace_reservoir, o->trace_max_length, err);
}

int pb_profile_apply_weight(pb_profile *p, const pb_merge_options *o, pb_error *err) {
    pbu_api_enter(err);
    if (!p) return pbu_null_arg(err, __func__, "p");
    if (o && pbu_check_version(err, "pb_merge_options", o->version, PB_MERGE_OPTIONS_VERSION)) return PB_EINVAL;
    int rc = check_options(&o, err);
    if (rc) return rc;
    /* the traces as the first input added to an empty writer */
    pbi_trace_set held;
    pbi_profile_take_traces(p, &held);
    pbi_trace *t = held.v;
    size_t n = held.n;
    uint64_t stream = held.stream_size;
    held.v = NULL;
    held.n = held.cap = 0;
    held.stream_size = 0;
    pbi_profile_put_traces(p, &held); /* the generator stays */
    /* llvm-profdata adds an input's traces only when it has some: then a
     * stream size without traces is dropped too */
    if (n) {
        if ((rc = merge_traces_of(p, p, t, n, stream, o, err))) return rc;
    } else {
        free(t);
    }
    scratch s = {NULL, 0, 0, 0};
    for (size_t i = 0, nrec = pb_profile_record_count(p); i < nrec && !rc; i++) {
        problem pr = {{0}, 0};
        pb_record *r = pb_profile_record_mut(p, i);
        scale_new(r, o, &pr);
        warn(p, i, o, &pr, 0);
        rc = sort_sites(r, o, &s);
    }
    free(s.a);
    if (rc) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot sort value sites: out of memory");
    return 0;
}

/* ---- whole profiles ------------------------------------------------------------ */

/*
 * Checks the kinds can be merged, with the rule of the target release
 * (src/llvm/target.h; llvm-profdata's loadInput and
 * InstrProfWriter::mergeProfileKind / setIsIRLevelProfile), before anything
 * of the input is merged. dst's kind is the OR of the kinds of the inputs
 * merged so far (pb_profile_merge ORs the flags), as the writer's is.
 *
 *  - LLVM 13 (FE_IR_MIX_REFUSED): the first input sets IR or front-end
 *    (front-end: no IR flag; a text file without header is front-end);
 *    every later input of the other level is refused.
 *  - LLVM 14+ (FE_TEXT_HEADER_CONFLICT): the kind is a set of bits in which
 *    only a text ':fe' header sets "front-end" (PB_KIND_FRONTEND); a
 *    front-end raw or indexed file, or a text file without header, has no
 *    bit at all. While the merged kind is empty the input's kind is taken
 *    as it is; after that an input whose front-end bit differs is refused.
 *    So front-end and IR inputs merge silently into IR, a ':fe' text merges
 *    after inputs without any kind bit, and nothing without ':fe' merges
 *    after it. FunctionEntryOnly never merges with entry_first, nor (20+,
 *    MERGE_ENTRY_ONLY_LOOPS_REFUSED) with loop entries; 24 refuses to mix
 *    single-byte and incrementing counters (MERGE_BYTE_COUNTER_MIX_REFUSED)
 *    and says its own words for a conflict (MERGE_KIND_WORDS_OWN; before:
 *    LLVM's "Merge IR generated profile with Clang generated profile.").
 * Refused: PB_EFORMAT with llvm-profdata's words (the input is skipped;
 * exit 1 as its "no profile can be merged" unless --failure-mode allows).
 */
#define KIND_BITS PBI_MERGE_KIND_FLAGS

/* LLVM's words for the kind conflicts of 14+ (InstrProfWriter::mergeProfileKind):
 * "own" the conflict's own (24's loadInput, and every merge of two writer
 * contexts), else loadInput's "Merge IR generated profile with Clang
 * generated profile." of 14-23 (with profbridge's why after it). */
static int kinds_conflict(uint64_t a, uint64_t b, const pbi_llvm_target *t, int own, pb_error *err) {
    a &= KIND_BITS;
    b &= KIND_BITS;
    if (!a) return 0; /* LLVM's InstrProfKind::Unknown: takes the input's kind */
    if (pbi_llvm_has(t, PBI_LF_FE_TEXT_HEADER_CONFLICT) && ((a ^ b) & PB_KIND_FRONTEND)) {
        if (own)
            return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL, "%s",
                                pbi_llvm_has(t, PBI_LF_MERGE_KIND_WORDS_OWN)
                                    ? "unsupported instrumentation profile format version: cannot merge IR "
                                      "generated profile with Clang generated profile"
                                    : "unsupported instrumentation profile format version");
        return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL,
                            "Merge IR generated profile with Clang generated profile. (llvm-profdata %d: "
                            "%s; docs/indexed.md)",
                            t->release,
                            (b & PB_KIND_FRONTEND) ? "a text ':fe' input merges only into inputs with ':fe' "
                                                     "or without any kind"
                                                   : "after a text ':fe' input only inputs with ':fe' merge");
    }
    uint64_t bb = PB_VARIANT_ENTRY_FIRST;
    if (pbi_llvm_has(t, PBI_LF_MERGE_ENTRY_ONLY_LOOPS_REFUSED)) bb |= PB_VARIANT_INSTR_LOOP_ENTRIES;
    /* the inputs are at fault, not the caller: PB_EFORMAT (exit 1, as
     * llvm-profdata's "no profile can be merged") */
    if (((a & PB_VARIANT_FUNCTION_ENTRY_ONLY) && (b & bb)) || ((b & PB_VARIANT_FUNCTION_ENTRY_ONLY) && (a & bb)))
        return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL, "%s",
                            own ? "unsupported instrumentation profile format version: cannot merge "
                                  "FunctionEntryOnly profiles and BB profiles together"
                                : "Merge IR generated profile with Clang generated profile.");
    if (pbi_llvm_has(t, PBI_LF_MERGE_BYTE_COUNTER_MIX_REFUSED) && ((a ^ b) & PB_VARIANT_BYTE_COVERAGE))
        return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL,
                            "cannot merge single-byte and incrementing counter profiles");
    return 0;
}

static int check_kinds_of(const pb_profile *dst, uint64_t b, const pb_merge_options *o, pb_error *err) {
    pbi_llvm_target t;
    if (pbi_llvm_target_of(o->llvm_release ? o->llvm_release : PBI_LLVM_DEFAULT, &t))
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "llvm_release", "release %d is not one of %d..%d",
                            o->llvm_release, PBI_LLVM_MIN, PBI_LLVM_MAX);
    uint64_t a = pb_profile_flags(dst) & KIND_BITS;
    b &= KIND_BITS;
    if (pbi_llvm_has(&t, PBI_LF_FE_IR_MIX_REFUSED)) {
        /* nothing merged yet: no record and no input's origin */
        int unset = !pb_profile_record_count(dst) && !pb_profile_origin(dst)->format[0];
        if (!unset && ((a ^ b) & PB_VARIANT_IR))
            return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL,
                                "Merge IR generated profile with Clang generated profile. (llvm-profdata %d "
                                "merges no %s input into a%s profile)",
                                t.release, (b & PB_VARIANT_IR) ? "IR" : "front-end",
                                (a & PB_VARIANT_IR) ? "n IR" : " front-end");
        return 0;
    }
    return kinds_conflict(a, b, &t, pbi_llvm_has(&t, PBI_LF_MERGE_KIND_WORDS_OWN), err);
}

int pbi_merge_context_kinds(uint64_t dst_flags, uint64_t src_flags, int llvm_release, pb_error *err) {
    pbi_llvm_target t;
    if (pbi_llvm_target_of(llvm_release ? llvm_release : PBI_LLVM_DEFAULT, &t))
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "llvm_release", "release %d is not one of %d..%d",
                            llvm_release, PBI_LLVM_MIN, PBI_LLVM_MAX);
    if (!pbi_llvm_has(&t, PBI_LF_MERGE_CONTEXT_KINDS)) return 0;
    return kinds_conflict(dst_flags, src_flags, &t, 1, err);
}

static int check_kinds(const pb_profile *dst, const pb_profile *src, const pb_merge_options *o,
                       pb_error *err) {
    return check_kinds_of(dst, pb_profile_flags(src), o, err);
}

/*
 * dst's id for a function name, and the index of dst's record with key
 * (name, hash) when the guess at position `hint` is it (else SIZE_MAX: the
 * caller looks it up). Profiles of one program list their functions in one
 * order, so dst's record at the input record's position is usually its key:
 * checking it first saves the string and key lookups (keys are unique, so a
 * match is the record the lookup would find).
 */
static int resolve_name(pb_profile *dst, size_t hint, const char *n, size_t len, uint64_t hash,
                        const pb_merge_options *o, pb_str *id, size_t *known, pb_error *err) {
    /* --remapping-file: the record is merged under its new name (LLVM's
     * loadInput renames it before InstrProfWriter::addRecord) */
    if (o->remap) pb_remap_lookup(o->remap, n, len, &n, &len); /* a call per record through the PLT: 1% */
    const pb_record *d = pb_profile_record(dst, hint); /* NULL past the end */
    size_t dl;
    const char *dn = d && d->kind == PB_REC_FUNCTION && d->hash == hash ? pb_profile_str(dst, d->name, &dl)
                                                                        : NULL;
    *known = SIZE_MAX;
    if (dn && dl == len && memcmp(dn, n, len) == 0) {
        *id = d->name;
        *known = hint;
        return 0;
    }
    if (*id != PB_NONE) return 0; /* the caller knows it already */
    return pb_profile_intern(dst, n, len, id, err);
}

/* src's records into dst, their tables translated by im (pbi_import_all
 * ran), names resolved here (remapping, the record-order hint). */
static int merge_records(pb_profile *dst, const pb_profile *src, pbi_importer *im,
                         const pb_merge_options *o, int every_problem, pb_error *err) {
    scratch s = {NULL, 0, 0, every_problem};
    int rc = 0;
    im->names_by_caller = 1;
    for (size_t i = 0, nrec = pb_profile_record_count(src); i < nrec && !rc; i++) {
        const pb_record *r = pb_profile_record(src, i);
        pb_record t;
        size_t known = SIZE_MAX;
        if ((rc = pbi_import_record(im, r, &t, err))) break;
        if (r->kind == PB_REC_FUNCTION) {
            size_t len;
            const char *n = pb_profile_str(src, r->name, &len);
            if (!n) {
                rc = pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "record",
                                  "records[%zu] of the source names no string", i);
                break;
            }
            t.name = PB_NONE;
            rc = resolve_name(dst, i, n, len, r->hash, o, &t.name, &known, err);
            if (rc) break;
        }
        rc = merge_one(dst, &t, o, &s, known, err);
    }
    free(s.a);
    return rc;
}

static int add_binary_ids(pb_profile *dst, const pb_profile *src, pb_error *err) {
    int rc = 0;
    for (size_t i = 0, n = pb_profile_binary_id_count(src); i < n && !rc; i++) {
        size_t len;
        const uint8_t *id = pb_profile_binary_id(src, i, &len);
        rc = pb_profile_add_binary_id(dst, id, len, err);
    }
    return rc;
}

int pb_profile_add_run_data(pb_profile *dst, const pb_profile *src, pb_error *err) {
    pbu_api_enter(err);
    if (!dst) return pbu_null_arg(err, __func__, "dst");
    if (!src) return pbu_null_arg(err, __func__, "src");
    int rc = add_binary_ids(dst, src, err);
    for (size_t i = 0, n = pb_profile_trace_count(src); i < n && !rc; i++) {
        uint64_t weight;
        size_t len;
        const uint64_t *refs = pb_profile_trace(src, i, &weight, &len);
        rc = pb_profile_add_trace(dst, weight, refs, len, err);
    }
    if (!rc) {
        uint64_t sum;
        pb_profile_set_trace_stream_size(
            dst, pb_add_u64(&sum, pb_profile_trace_stream_size(dst), pb_profile_trace_stream_size(src)) ? sum
                                                                                                       : UINT64_MAX);
    }
    return rc;
}

/* writer: src and dst are llvm-profdata writers (pbi_profile_merge_writer) */
static int merge_profiles(pb_profile *dst, const pb_profile *src, const pb_merge_options *o, int writer,
                          pb_error *err);

int pb_profile_merge(pb_profile *dst, const pb_profile *src, const pb_merge_options *o,
                     pb_error *err) {
    return merge_profiles(dst, src, o, 0, err);
}

int pbi_profile_merge_writer(pb_profile *dst, const pb_profile *src, const pb_merge_options *o, pb_error *err) {
    return merge_profiles(dst, src, o, 1, err);
}

/*
 * The src symbols a merge of two llvm-profdata writers leaves behind: its
 * mergeRecordsFromWriter carries the records (and so the function names an
 * indirect-call target is looked up by) but not the writer's vtable names,
 * so a symbol src has as a vtable name (any symbol not used only as an
 * indirect-call target) that dst does not have is not carried: its values
 * keep their MD5 with no name (llvm-profdata-19..24 merge -j 2
 * --keep-vtable-symbols of an IR and a vtable raw: the second writer's
 * vtables come out as "** External Symbol **"). *out: NULL when none is
 * dropped, else calloc'd flags per src symbol.
 */
static int writer_dropped_symbols(const pb_profile *dst, const pb_profile *src, uint8_t **out, pb_error *err) {
    size_t ns = pb_profile_symbol_count(src), dropped = 0;
    *out = NULL;
    if (!ns) return 0;
    uint8_t *use = calloc(ns, 1); /* bit 0: an indirect-call target, bit 1: another kind's value */
    if (!use) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0, nr = pb_profile_record_count(src); i < nr; i++) {
        const pb_record *r = pb_profile_record(src, i);
        for (int k = 0; k < PB_VK_COUNT; k++)
            for (uint32_t j = 0; j < r->num_sites[k]; j++)
                for (uint32_t v = 0; v < r->sites[k][j].num_values; v++) {
                    uint32_t sy = r->sites[k][j].values[v].symbol;
                    if (sy < ns) use[sy] |= (uint8_t)(k == 0 ? 1 : 2);
                }
    }
    for (size_t s = 0; s < ns; s++) {
        const pb_symbol *sy = pb_profile_symbol(src, s);
        size_t len = 0;
        const char *name = sy->placeholder ? NULL : pb_profile_str(src, sy->name, &len);
        uint32_t in_dst;
        int vtable = use[s] != 1;
        use[s] = vtable && name && pb_profile_find_symbol(dst, name, len, &in_dst) != 0;
        dropped += use[s];
    }
    if (!dropped) {
        free(use);
        use = NULL;
    }
    *out = use;
    return 0;
}

static int merge_profiles(pb_profile *dst, const pb_profile *src, const pb_merge_options *o, int writer,
                          pb_error *err) {
    pbu_api_enter(err);
    if (!dst) return pbu_null_arg(err, "pb_profile_merge", "dst");
    if (!src) return pbu_null_arg(err, "pb_profile_merge", "src");
    if (o && pbu_check_version(err, "pb_merge_options", o->version, PB_MERGE_OPTIONS_VERSION)) return PB_EINVAL;
    int rc = check_options(&o, err);
    if (rc) return rc;
    if (dst == src)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "cannot merge a profile into itself");
    rc = check_kinds(dst, src, o, err);
    if (rc) return rc;
    uint8_t *drop = NULL; /* a writer's vtable names stay in it */
    if (writer && (rc = writer_dropped_symbols(dst, src, &drop, err))) return rc;
    pbi_importer im;
    rc = pbi_import_init(&im, dst, src, err);
    if (rc) {
        free(drop);
        return rc;
    }
    im.drop_sym = drop;
    rc = pbi_import_all(&im, err);
    if (!rc) rc = merge_records(dst, src, &im, o, writer, err);
    if (!rc) pb_profile_set_flags(dst, pb_profile_flags(dst) | pb_profile_flags(src));
    if (!rc) rc = add_binary_ids(dst, src, err);
    if (!rc && pb_profile_trace_count(src)) /* as llvm-profdata: an input without traces adds no stream size */
        rc = merge_traces_of(dst, src, NULL, 0, 0, o, err);
    for (size_t i = 0, n = pb_profile_prop_count(src); i < n && !rc; i++) {
        const char *value;
        size_t len;
        const char *key = pb_profile_prop_at(src, i, &value, &len);
        if (!pb_profile_prop(dst, key, NULL)) rc = pb_profile_set_prop(dst, key, value, len, err);
    }
    if (!rc && !pb_profile_origin(dst)->format[0]) pb_profile_set_origin(dst, pb_profile_origin(src));
    pbi_import_free(&im);
    free(drop);
    return rc;
}

/* ---- streaming (merge_stream.h) ---------------------------------------------- */

int pbi_merge_stream_init(pbi_merge_stream *m, pb_profile *dst, const pb_merge_options *o,
                          pb_error *err) {
    memset(m, 0, sizeof *m);
    int rc = check_options(&o, err);
    if (rc) return rc;
    m->dst = dst;
    m->o = o;
    rc = pbi_import_init(&m->im, dst, NULL, err);
    m->im.names_by_caller = 1; /* resolve_name does it (remapping, the record-order hint) */
    return rc;
}

void pbi_merge_stream_new_side(pbi_merge_stream *m) {
    m->im.nsym = 0; /* the next record's side is mapped from its first symbol on */
}

/* 1 when a value of rec names a symbol whose index differs in dst. */
static int needs_renumbering(const pbi_importer *im, const pb_record *rec) {
    for (int k = 0; k < PB_VK_COUNT; k++)
        for (uint32_t i = 0; i < rec->num_sites[k]; i++)
            for (uint32_t j = 0; j < rec->sites[k][i].num_values; j++) {
                uint32_t s = rec->sites[k][i].values[j].symbol;
                if (s != PB_NONE && pbi_import_mapped_symbol(im, s) != s) return 1;
            }
    return 0;
}

int pbi_merge_stream_function(pbi_merge_stream *m, const pb_profile *side, const pb_record *rec, const char *name,
                              size_t len, pb_str *name_id, pb_error *err) {
    int rc;
    if (!m->started) {
        /* pb_profile_merge checks the kinds before it merges anything */
        if ((rc = check_kinds_of(m->dst, m->flags, m->o, err))) return rc;
        /* llvm-profdata merges the input's kind before its records: so the
         * check pb_profile_merge repeats at the end sees the kind set (LLVM
         * 13 after a failed first input: dst has records, no flags yet) */
        pb_profile_set_flags(m->dst, pb_profile_flags(m->dst) | m->flags);
        m->started = 1;
    }
    if ((rc = pbi_import_new_symbols(&m->im, side, err))) return rc;
    /* copied only when a value symbol's index changes (a copy per record
     * showed in streaming merges; most records name no symbol, and a
     * side whose symbols dst has in the same order changes none) */
    pb_record t = *rec;
    if (needs_renumbering(&m->im, rec) && (rc = pbi_import_record(&m->im, rec, &t, err))) return rc;
    size_t known;
    if ((rc = resolve_name(m->dst, m->next++, name, len, rec->hash, m->o, name_id, &known, err))) return rc;
    t.name = *name_id;
    return merge_one(m->dst, &t, m->o, &m->s, known, err);
}

int pbi_merge_stream_finish(pbi_merge_stream *m, const pb_profile *side, pb_error *err) {
    /* side has no records, so this merges exactly the profile-level part of
     * pb_profile_merge (its kind check needs records: done at the first one) */
    return pb_profile_merge(m->dst, side, m->o, err);
}

void pbi_merge_stream_fail(pbi_merge_stream *m) {
    if (m->started) pb_profile_set_flags(m->dst, pb_profile_flags(m->dst) | m->flags);
}

void pbi_merge_stream_free(pbi_merge_stream *m) {
    pbi_import_free(&m->im);
    free(m->s.a);
    m->s.a = NULL;
    m->s.cap = 0;
}
