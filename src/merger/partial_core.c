/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * partial_core.c -- what every part of a pb_partial uses: its life cycle
 * and rules, its provenance list, its extra counts' order and lookup
 * (partial_internal.h). partial_combine.c, partial_save.c and partial.c
 * build on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm/target.h"
#include "partial_internal.h"
#include "util/grow.h"

static char *dup_str(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

int pb_partial_new(pb_partial **out, const pb_merger_options *rules, pb_error *err) {
    if (err) pb_error_clear(err);
    if (out) *out = NULL;
    if (!out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_partial_new: NULL argument");
    pb_merger_options d = PB_MERGER_OPTIONS_INIT;
    if (!rules) rules = &d;
    /* the merger checks the rules (version, release, failure mode, expressions) */
    pb_merger *m = NULL;
    int rc = pb_merger_new(&m, rules, err);
    pb_merger_free(m);
    if (rc) return rc;
    pb_partial *p = calloc(1, sizeof *p);
    if (!p) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    p->rules = *rules;
    p->keep = dup_str(rules->keep_functions);
    p->drop = dup_str(rules->drop_functions);
    if ((rules->keep_functions && !p->keep) || (rules->drop_functions && !p->drop)) {
        pb_partial_free(p);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    p->rules.keep_functions = p->keep;
    p->rules.drop_functions = p->drop;
    p->rules.threads = 1;
    p->rules.progress = NULL;
    *out = p;
    return PB_OK;
}

void pb_partial_free(pb_partial *p) {
    if (!p) return;
    pb_profile_free(p->own);
    free(p->extra);
    for (size_t i = 0; i < p->nin; i++) {
        free(p->in[i].name);
        free(p->in[i].err);
        free(p->in[i].message);
    }
    free(p->in);
    free(p->keep);
    free(p->drop);
    free(p);
}

const pb_merger_options *pb_partial_rules(const pb_partial *p) { return p ? &p->rules : NULL; }

size_t pb_partial_input_count(const pb_partial *p) { return p ? p->nin : 0; }

int pb_partial_input_at(const pb_partial *p, size_t i, pb_partial_input *out) {
    if (!p || !out || i >= p->nin) return PB_EINVAL;
    const pbi_partial_in *in = &p->in[i];
    out->name = in->name;
    out->weight = in->weight;
    out->size = in->size;
    out->sha256 = in->sha256;
    out->status = in->status;
    out->error_code = in->err ? in->err->code : 0;
    out->error_message = in->message ? in->message : "";
    out->error_path = in->err ? in->err->path : "";
    out->error_offset = in->err ? in->err->offset : PB_NO_OFFSET;
    out->error = in->err;
    return PB_OK;
}

int pbi_partial_add_input(pb_partial *p, const char *name, uint64_t weight, uint64_t size, const char *sha256,
                          int status, const pb_error *e, pb_error *err) {
    if (pbu_grow_err((void **)&p->in, &p->cap_in, p->nin + 1, sizeof *p->in, err)) return PB_ENOMEM;
    pbi_partial_in *in = &p->in[p->nin];
    memset(in, 0, sizeof *in);
    in->name = dup_str(name ? name : "<memory>");
    in->weight = weight;
    in->size = size;
    snprintf(in->sha256, sizeof in->sha256, "%s", sha256 ? sha256 : "");
    in->status = status;
    if (!in->name) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (status == PB_PARTIAL_FAILED && e) {
        size_t need = pb_error_format(e, NULL, 0) + 1;
        in->err = malloc(sizeof *in->err);
        in->message = malloc(need);
        if (!in->err || !in->message) {
            free(in->err);
            free(in->message);
            free(in->name);
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        }
        *in->err = *e;
        pb_error_format(e, in->message, need);
    }
    p->nin++;
    return PB_OK;
}


uint64_t pbi_partial_value_max(const pb_merger_options *r) {
    /* profile_merge.c: value counts saturate at UINT64_MAX, except below
     * LLVM's maximum (iprof's Java longs) */
    return r->max_count && r->max_count < PB_MAX_COUNT_LLVM ? r->max_count : UINT64_MAX;
}

void pbi_partial_merge_options(const pb_merger_options *r, pb_merge_options *mo) {
    pb_merge_options d = PB_MERGE_OPTIONS_INIT;
    *mo = d;
    pbi_llvm_target t;
    int release = r->llvm_release ? r->llvm_release : PBI_LLVM_DEFAULT;
    if (pbi_llvm_target_of(release, &t)) pbi_llvm_target_of(PBI_LLVM_DEFAULT, &t);
    mo->llvm_release = t.release;
    mo->max_count = r->max_count                                  ? r->max_count
                    : pbi_llvm_has(&t, PBI_LF_SATURATE_U64_MAX) ? PB_MAX_COUNT_LLVM14
                                                                 : PB_MAX_COUNT_LLVM;
    mo->max_values_per_site = r->keep_all_values ? 0 : PB_MAX_VALUES_PER_SITE_LLVM;
    mo->trace_reservoir = r->trace_reservoir;
    mo->trace_max_length = r->trace_max_length;
    mo->diag = r->diag;
    mo->diag_ctx = r->diag_ctx;
}


int pbi_partial_extra_cmp(const void *a, const void *b) {
    const pbi_extra *x = a, *y = b;
    if (x->name_ref != y->name_ref) return x->name_ref < y->name_ref ? -1 : 1;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->site != y->site) return x->site < y->site ? -1 : 1;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return x->dup < y->dup ? -1 : x->dup > y->dup;
}

const pbi_extra *pbi_partial_extras_find(const pbi_extra *v, size_t n, uint64_t ref, uint64_t hash, uint8_t kind,
                                uint32_t site, uint64_t value, uint32_t dup) {
    pbi_extra key = {ref, hash, site, kind, value, dup, 0, 0};
    return n ? bsearch(&key, v, n, sizeof *v, pbi_partial_extra_cmp) : NULL;
}

const char *pbi_partial_rules_differ(const pb_merger_options *a, const pb_merger_options *b) {
    pbi_llvm_target ta, tb;
    int ra = a->llvm_release ? a->llvm_release : PBI_LLVM_DEFAULT, rb = b->llvm_release ? b->llvm_release : PBI_LLVM_DEFAULT;
    (void)ta, (void)tb;
    if (ra != rb) return "rules.llvm_release";
    if (a->max_count != b->max_count) return "rules.max_count";
    if (!a->keep_all_values != !b->keep_all_values) return "rules.keep_all_values";
    if (a->failure_mode != b->failure_mode) return "rules.failure_mode";
    if (a->trace_reservoir != b->trace_reservoir) return "rules.trace_reservoir";
    if (a->trace_max_length != b->trace_max_length) return "rules.trace_max_length";
    if (!a->keep_functions != !b->keep_functions ||
        (a->keep_functions && strcmp(a->keep_functions, b->keep_functions) != 0))
        return "rules.keep_functions";
    if (!a->drop_functions != !b->drop_functions ||
        (a->drop_functions && strcmp(a->drop_functions, b->drop_functions) != 0))
        return "rules.drop_functions";
    return NULL;
}


int pbi_partial_fail_input(pb_partial *p, size_t i, const pb_error *e, pb_error *err) {
    pbi_partial_in *in = &p->in[i];
    pb_error c = *e;
    c.source[0] = 0;
    pb_error_set_source(&c, in->name);
    size_t need = pb_error_format(&c, NULL, 0) + 1;
    pb_error *ce = malloc(sizeof *ce);
    char *msg = malloc(need);
    if (!ce || !msg) {
        free(ce);
        free(msg);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    *ce = c;
    pb_error_format(&c, msg, need);
    free(in->err);
    free(in->message);
    in->err = ce;
    in->message = msg;
    in->status = PB_PARTIAL_FAILED;
    if (p->rules.failed) p->rules.failed(p->rules.failed_ctx, i, in->name, ce);
    return 0;
}
