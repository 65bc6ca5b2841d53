/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_api.c -- the public entry points of profbridge/coverage.h but the
 * dump: options, pb_coverage_load (CodeCoverageTool::load: read the objects,
 * merge the profiles as llvm-profdata-N merge would, evaluate, warn about
 * mismatched functions, collect the sources), export, report and free.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "coverage/cov_state.h"
#include "coverage/cov_filter.h"
#include "model/origin_form.h"
#include "profbridge/merge.h"
#include "util/api.h"
#include "util/grow.h"


#define PBI_COV_OPTIONS_INIT_FN(name, NAME)                                                     \
    int pb_##name##_options_init(pb_##name##_options *o, unsigned version) {                    \
        if (!o || version < 1 || version > PB_##NAME##_OPTIONS_VERSION) return PB_EINVAL;         \
        pb_##name##_options d = PB_##NAME##_OPTIONS_INIT;                                        \
        d.version = version;                                                                     \
        *o = d;                                                                                  \
        return PB_OK;                                                                            \
    }
PBI_COV_OPTIONS_INIT_FN(cov, COV)
PBI_COV_OPTIONS_INIT_FN(cov_export, COV_EXPORT)
PBI_COV_OPTIONS_INIT_FN(cov_report, COV_REPORT)

void pb_coverage_free(pb_coverage *c) {
    if (!c) return;
    if (c->ev) pbi_coverage_free(c->ev);
    pb_profile_free(c->prof);
    pbi_cov_mapping_free(&c->map);
    pbi_cov_free_regexes(c->ignore, c->nignore);
    pbi_cov_free_regexes(c->include, c->ninclude);
    for (size_t i = 0; i < c->nsources; i++) free(c->sources[i]);
    free(c->sources);
    free(c);
}

static int compile_filters(pb_coverage *c, const pb_cov_options *o, pb_error *err) {
    /* the name filters (-name, -name-regex, -name-allowlist) select what
     * `llvm-cov show` prints, nothing of export and report: only the
     * allowlist files are read, for llvm-cov's error about them */
    pbi_cov_check_allowlists(o);
    int rc = pbi_cov_compile_regexes(o->ignore_filename_regexes, o->nignore_filename_regexes, "ignore_filename_regex",
                                     &c->ignore, &c->nignore, err);
    if (rc == 0)
        rc = pbi_cov_compile_regexes(o->include_filename_regexes, o->ninclude_filename_regexes,
                                     "include_filename_regex", &c->include, &c->ninclude, err);
    return rc;
}

/* The first input the merger could not read: llvm-cov names that file and
 * its reason ("'p.profdata': invalid instrumentation profile data (bad
 * magic)"), not the merge's verdict. */
typedef struct first_failure {
    int seen;
    pb_error e;
} first_failure;

static void keep_first_failure(void *ctx, size_t input, const char *name, const pb_error *e) {
    first_failure *f = ctx;
    (void)input, (void)name;
    if (f->seen || !e) return;
    f->seen = 1;
    f->e = *e;
}

/* The profiles merged as llvm-profdata-N merge merges them, or (with
 * -empty-profile) an empty one. */
static int read_profiles(pb_coverage *c, const char *const *profiles, const uint64_t *weights, size_t n,
                         const pb_cov_options *o, pb_error *err) {
    if (o->empty_profile || n == 0) return pb_profile_new(&c->prof, err);
    pb_merger_options mo = PB_MERGER_OPTIONS_INIT;
    mo.llvm_release = c->t.release;
    mo.threads = 1;
    mo.read = o->read;
    mo.diag = o->diag;
    mo.diag_ctx = o->diag_ctx;
    first_failure failed;
    memset(&failed, 0, sizeof failed);
    mo.failed = keep_first_failure;
    mo.failed_ctx = &failed;
    pb_merger *m = NULL;
    int rc = pb_merger_new(&m, &mo, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (!profiles[i]) rc = pbu_null_arg(err, "pb_coverage_load", "profiles[i]");
        else rc = pb_merger_add_file(m, profiles[i], weights ? weights[i] : 1, err);
    }
    if (rc == 0) rc = pb_merger_run(m, &c->prof, err);
    pb_merger_free(m);
    if (rc && failed.seen && failed.e.code) {
        if (err) *err = failed.e;
        return failed.e.code;
    }
    /* llvm-cov reads an indexed profile: what is not one already (raw or
     * text inputs, several inputs) is what llvm-profdata-N merge would have
     * written, the release's indexed version (the evaluator reads the
     * version: MC/DC bitmaps are bit-indexed from version 12). */
    const pb_origin *from = rc == 0 ? pb_profile_origin(c->prof) : NULL;
    if (from && (pbi_origin_form(from) != PB_FORM_INDEXED || n > 1)) {
        pb_origin io;
        memset(&io, 0, sizeof io);
        memcpy(io.format, "indexed", sizeof "indexed"); /* the indexed reader's origin name (model/origin_form.c) */
        io.version = c->t.indexed_version;
        pb_profile_set_origin(c->prof, &io);
    }
    return rc;
}

/* "N functions have mismatched data", then one diagnostic per function. */
static void warn_mismatches(const pb_coverage *c, const pb_cov_options *o) {
    size_t n = pbi_cov_mismatch_count(c->ev);
    if (!n || !o->diag) return;
    pb_diag(o->diag, o->diag_ctx, PB_DIAG_WARNING, 0, NULL, PB_NO_OFFSET, PB_COV_MISMATCHED,
            "%zu functions have mismatched data", n);
    for (size_t i = 0; i < n; i++) {
        const pbi_cov_mismatch *m = pbi_cov_mismatch_at(c->ev, i);
        pb_diag(o->diag, o->diag_ctx, PB_DIAG_WARNING, 0, m->filename, PB_NO_OFFSET, PB_COV_MISMATCH_FUNCTION,
                "%s: hash in the binary 0x%" PRIx64 ", in the profile 0x%" PRIx64, m->name, m->binary_hash,
                m->profile_hash);
    }
}

/* 1 when a's modification time is after b's (modifiedTimeGT: 0 when either
 * cannot be read). */
static int modified_after(const char *a, const char *b) {
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return 0;
    if (sa.st_mtim.tv_sec != sb.st_mtim.tv_sec) return sa.st_mtim.tv_sec > sb.st_mtim.tv_sec;
    return sa.st_mtim.tv_nsec > sb.st_mtim.tv_nsec;
}

/* CodeCoverageTool::load's first warning, once per object newer than a profile. */
static void warn_out_of_date(const char *const *objects, size_t nobjects, const char *const *profiles, size_t nprofiles,
                             const pb_cov_options *o) {
    for (size_t i = 0; o->diag && !o->empty_profile && i < nobjects; i++)
        for (size_t k = 0; k < nprofiles; k++)
            if (modified_after(objects[i], profiles[k])) {
                pb_diag(o->diag, o->diag_ctx, PB_DIAG_WARNING, 0, objects[i], PB_NO_OFFSET, PB_COV_OUT_OF_DATE,
                        "profile data may be out of date - object is newer");
                break;
            }
}

/* pbi_cov_read failed because no object has coverage sections (one object:
 * its no_data_found, in the release's capitals; several: marked so). */
static int no_data_anywhere(const pb_error *err, size_t nobjects) {
    if (strcmp(err->path, PBI_COV_NO_DATA_IN_ANY) == 0) return 1;
    return nobjects == 1 && (strcmp(err->message, "no coverage data found") == 0 ||
                             strcmp(err->message, "No coverage data found") == 0);
}

/* The objects' coverage sections read into c->map (pbi_cov_read), on a
 * thread of its own while the profiles are read on the caller's. */
typedef struct map_job {
    pb_coverage *c;
    const char *const *objects;
    size_t nobjects;
    pbi_cov_read_options ro;
    pb_error err;
    int rc;
} map_job;

static void *read_map(void *arg) {
    map_job *j = arg;
    j->rc = pbi_cov_read(&j->c->map, j->objects, j->nobjects, &j->ro, &j->err);
    return NULL;
}

static int load(pb_coverage *c, const char *const *objects, size_t nobjects, const char *const *profiles,
                const uint64_t *weights, size_t nprofiles, const pb_cov_options *o, pb_error *err) {
    c->view = pbi_cov_eval_view();
    int rc = compile_filters(c, o, err);
    if (rc) return rc;
    warn_out_of_date(objects, nobjects, profiles, nprofiles, o);
    if (!o->empty_profile && (rc = pbi_cov_check_profiles(&c->t, objects, nobjects, profiles, nprofiles, err)))
        return rc;
    map_job j;
    memset(&j, 0, sizeof j);
    j.c = c;
    j.objects = objects;
    j.nobjects = nobjects;
    j.ro.compilation_dir = o->compilation_dir;
    j.ro.arch = o->arch;
    j.ro.t = &c->t;
    j.ro.lazy = 1; /* the evaluator decodes one function at a time */
    /* and checks the last object's mappings as it decodes them: decoded
     * twice (checked here, used there) they were a tenth of an lcov export
     * of 100k functions, and the reading is the longer of the two threads */
    j.ro.defer_checks = 1;
    /* The objects are read beside the profiles where a second thread may
     * run (-num-threads other than 1): the two do not touch each other, and
     * the profile's read was a tenth of an lcov export of 100k functions.
     * The reader says nothing through o->diag, so every diagnostic still
     * comes from the caller's thread. */
    pthread_t th;
    int beside = o->threads != 1 && pthread_create(&th, NULL, read_map, &j) == 0;
    /* CoverageMapping::load opens the profile before the objects: when
     * both are bad, the profile's error is the one reported */
    rc = read_profiles(c, profiles, weights, nprofiles, o, err);
    if (beside) pthread_join(th, NULL);
    if (rc) return rc; /* the mapping, if read, goes with c */
    if (!beside) read_map(&j);
    rc = j.rc;
    if (rc && err) *err = j.err;
    /* no object with coverage: CoverageMapping::load checks the binary ids
     * first (none found: the profile's first id is missing) */
    if (rc && o->check_binary_ids && nprofiles && !o->empty_profile && no_data_anywhere(err, nobjects)) {
        pb_error nodata = *err;
        pb_error_clear(err);
        if (pbi_cov_check_binary_ids(c, objects, 0, profiles[0], err) == 0) *err = nodata;
        else return err->code;
    }
    /* llvm-cov-N's whole line; out of memory here leaves the reader's words */
    if (rc) (void)pbi_cov_word_object_error(&c->t, objects, nobjects, err);
    if (rc) return rc;
    pbi_cov_eval_options eo;
    memset(&eo, 0, sizeof eo);
    eo.t = &c->t;
    int read_failed = 0;
    eo.read_failed = &read_failed;
    rc = pbi_cov_eval(&c->map, c->prof, &eo, &c->ev, err);
    if (rc && read_failed) (void)pbi_cov_word_object_error(&c->t, objects, nobjects, err);
    /* CoverageMapping::load checks the binary ids once every object's
     * records are loaded: a malformed record is the error before them */
    if (rc == 0 && o->check_binary_ids && nprofiles && !o->empty_profile)
        rc = pbi_cov_check_binary_ids(c, objects, nobjects, profiles[0], err);
    if (rc) return rc;
    warn_mismatches(c, o);
    return pbi_cov_collect_sources(c, o, err);
}

int pb_coverage_load(pb_coverage **out, const char *const *objects, size_t nobjects, const char *const *profiles,
                     const uint64_t *weights, size_t nprofiles, const pb_cov_options *o, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    *out = NULL;
    if (!objects || !nobjects) return pbu_null_arg(err, __func__, "objects");
    if (!o) return pbu_null_arg(err, __func__, "o");
    if (nprofiles && !profiles) return pbu_null_arg(err, __func__, "profiles");
    if (pbu_check_version(err, "pb_cov_options", o->version, PB_COV_OPTIONS_VERSION)) return PB_EINVAL;
    for (size_t i = 0; i < nobjects; i++)
        if (!objects[i]) return pbu_null_arg(err, __func__, "objects[i]");
    for (size_t i = 0; weights && i < nprofiles; i++)
        if (weights[i] == 0)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "weights", "weight of profile %zu is 0", i);
    pb_coverage *c = calloc(1, sizeof *c);
    if (!c) return pbu_nomem(err, "coverage");
    int release = o->llvm_release ? o->llvm_release : PBI_LLVM_DEFAULT;
    if (pbi_llvm_target_of(release, &c->t)) {
        free(c);
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "llvm_release", "LLVM release %d unknown (13..24)",
                            o->llvm_release);
    }
    c->t.chosen = o->llvm_release != 0;
    int rc = load(c, objects, nobjects, profiles, weights, nprofiles, o, err);
    if (rc) {
        pb_coverage_free(c);
        return rc;
    }
    *out = c;
    return PB_OK;
}

uint32_t pb_coverage_object_version(const pb_coverage *c, size_t i) {
    if (!c || i >= c->map.nobjects || !c->map.versions || !c->map.versions[i]) return 0;
    return c->map.versions[i] + 1; /* stored as CovMapVersion, version - 1 */
}

size_t pb_coverage_function_count(const pb_coverage *c) {
    return c && c->ev ? c->view->fn_count(c->ev) : 0;
}

const char *pb_coverage_function_name(const pb_coverage *c, size_t i, size_t *len) {
    if (len) *len = 0;
    if (!c || !c->ev || i >= c->view->fn_count(c->ev)) return NULL;
    const pbi_cov_fn *f = c->view->fn_at(c->ev, i);
    if (len) *len = f->name_len;
    return f->name;
}



int pb_coverage_export(const pb_coverage *c, const pb_cov_export_options *o, pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    if (!c) return pbu_null_arg(err, __func__, "c");
    if (!o) return pbu_null_arg(err, __func__, "o");
    if (!out) return pbu_null_arg(err, __func__, "out");
    if (pbu_check_version(err, "pb_cov_export_options", o->version, PB_COV_EXPORT_OPTIONS_VERSION)) return PB_EINVAL;
    if (o->format != PB_COV_JSON && o->format != PB_COV_LCOV)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "format", "unknown export format %d", o->format);
    pb_buf b = PB_BUF_INIT;
    int rc = o->format == PB_COV_JSON ? pbi_cov_export_json(c, o, &b, out, err) : pbi_cov_export_lcov(c, o, &b, out, err);
    if (rc == 0) rc = pbi_cov_flush(&b, out, err);
    pbu_buf_free(&b);
    return rc;
}

int pb_coverage_report(const pb_coverage *c, const pb_cov_report_options *o, pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    if (!c) return pbu_null_arg(err, __func__, "c");
    if (!o) return pbu_null_arg(err, __func__, "o");
    if (!out) return pbu_null_arg(err, __func__, "out");
    if (pbu_check_version(err, "pb_cov_report_options", o->version, PB_COV_REPORT_OPTIONS_VERSION)) return PB_EINVAL;
    pb_buf b = PB_BUF_INIT;
    int rc = pbi_cov_report_text(c, o, &b, out, err);
    if (rc == 0) rc = pbi_cov_flush(&b, out, err);
    pbu_buf_free(&b);
    return rc;
}
