/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cmd_cov_request.c -- a parsed export/report command line as one request
 * for the library (cmd_cov.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_cov.h"
#include "llvm_options.h"
#include "opts.h"

static const struct {
    int since, until;
} cli_rows[] = {
#define PBC_X(id, since, until, meaning) {since, until},
    PBC_COV_CLI_ROWS(PBC_X)
#undef PBC_X
};

int pbc_cov_cli_has(int release, enum pbc_cov_cli_row r) {
    return release >= cli_rows[r].since && (!cli_rows[r].until || release <= cli_rows[r].until);
}

/* Every value of option `id`, in command-line order, into a new array. */
static int collect(const pbc_args *a, int id, const char ***out, size_t *n) {
    size_t k = 0;
    for (size_t i = 0; i < a->nopt; i++) k += a->opt[i].id == id;
    *n = 0;
    *out = calloc(k + 1, sizeof **out);
    if (!*out) return -1;
    for (size_t i = 0; i < a->nopt; i++)
        if (a->opt[i].id == id) (*out)[(*n)++] = a->opt[i].value;
    return 0;
}

static int flag(const pbc_args *a, int id) {
    const pbc_arg *r = pbc_args_last(a, id);
    return r ? (int)r->u : -1;
}

/* cl::opt's positionals: the object, then the sources; once the named
 * positional -sources appears (16+), every later positional is a source. */
static int positionals(pbc_cov_request *q, const pbc_args *a) {
    size_t k = a->npos, nsrc = 0;
    for (size_t i = 0; i < a->nopt; i++) {
        if (a->opt[i].id != PBC_CO_SOURCES) continue;
        if (a->opt[i].npos_before < k) k = a->opt[i].npos_before;
        nsrc++;
    }
    size_t nobj = 0;
    for (size_t i = 0; i < a->nopt; i++) nobj += a->opt[i].id == PBC_CO_OBJECT;
    q->objects = calloc(nobj + 2, sizeof *q->objects);
    q->sources = calloc(a->npos + nsrc + 1, sizeof *q->sources);
    if (!q->objects || !q->sources) return -1;
    if (k > 0) q->objects[q->nobjects++] = a->pos[0];
    for (size_t i = 0; i < a->nopt; i++)
        if (a->opt[i].id == PBC_CO_OBJECT) q->objects[q->nobjects++] = a->opt[i].value;
    size_t ns = 0;
    for (size_t j = 1; j < k; j++) q->sources[ns++] = a->pos[j];
    size_t o = 0;
    for (size_t j = k; j <= a->npos; j++) {
        for (; o < a->nopt; o++) { /* the -sources values before positional j */
            if (a->opt[o].id != PBC_CO_SOURCES) continue;
            if (a->opt[o].npos_before > j) break;
            if (a->opt[o].value) q->sources[ns++] = a->opt[o].value;
        }
        if (j < a->npos) q->sources[ns++] = a->pos[j];
    }
    q->o.sources = q->sources;
    q->o.nsources = ns;
    return 0;
}

/* --weighted-instr-profile W,FILE (profbridge's name only): W as merge's
 * --weighted-input takes it, decimal digits, at least 1. */
static int weighted(pbc_cov_request *q, const char *v) {
    const char *comma = strchr(v, ',');
    uint64_t w = 0;
    char num[32];
    size_t len = comma ? (size_t)(comma - v) : 0;
    if (comma && len < sizeof num) {
        memcpy(num, v, len);
        num[len] = '\0';
    }
    if (!comma || len >= sizeof num || pbc_parse_u64(num, &w) || w == 0 || !comma[1])
        return pbc_usage_error(q->which == PBC_COV_EXPORT ? "cov export" : "cov report",
                               "--weighted-instr-profile wants W,FILE with W a positive integer, got '%s'", v);
    q->profiles[q->nprofiles] = comma + 1;
    q->weights[q->nprofiles++] = w;
    return 0;
}

/* The profiles: under llvm-cov-N's name its cl::opt (the last one counts),
 * under profbridge's every -instr-profile (weight 1) and
 * --weighted-instr-profile, in command-line order. */
static int profiles(pbc_cov_request *q, const pbc_args *a, int llvm_style) {
    q->profiles = calloc(a->nopt + 1, sizeof *q->profiles);
    q->weights = calloc(a->nopt + 1, sizeof *q->weights);
    if (!q->profiles || !q->weights) return -1;
    const pbc_arg *last = pbc_args_last(a, PBC_CO_INSTR_PROFILE);
    q->have_instr_profile = last != NULL;
    if (llvm_style) {
        if (last) {
            q->profiles[0] = last->value;
            q->weights[0] = 1;
            q->nprofiles = 1;
        }
        return 0;
    }
    for (size_t i = 0; i < a->nopt; i++) {
        if (a->opt[i].id == PBC_CO_INSTR_PROFILE) {
            q->profiles[q->nprofiles] = a->opt[i].value;
            q->weights[q->nprofiles++] = 1;
        } else if (a->opt[i].id == PBC_COV_OPT_WEIGHTED) {
            int rc = weighted(q, a->opt[i].value);
            if (rc) return rc;
        }
    }
    q->have_instr_profile = q->nprofiles > 0;
    return 0;
}

static int lists(pbc_cov_request *q, const pbc_args *a) {
    pb_cov_options *o = &q->o;
    if (collect(a, PBC_CO_NAME, &q->names, &o->nnames) ||
        collect(a, PBC_CO_NAME_REGEX, &q->name_regexes, &o->nname_regexes) ||
        collect(a, PBC_CO_NAME_ALLOWLIST, &q->allowlists, &o->nname_allowlists) ||
        collect(a, PBC_CO_IGNORE_FILENAME_REGEX, &q->ignore_res, &o->nignore_filename_regexes) ||
        collect(a, PBC_CO_INCLUDE_FILENAME_REGEX, &q->include_res, &o->ninclude_filename_regexes) ||
        collect(a, PBC_CO_ARCH, &q->arches, &q->narches) ||
        collect(a, PBC_CO_PATH_EQUIVALENCE, &q->path_equivs, &q->npath_equivs) ||
        collect(a, PBC_CO_XDEMANGLER, &q->demangler, &q->ndemangler))
        return -1;
    o->names = q->names;
    o->name_regexes = q->name_regexes;
    o->name_allowlists = q->allowlists;
    o->ignore_filename_regexes = q->ignore_res;
    o->include_filename_regexes = q->include_res;
    /* the library takes one architecture and one equivalence: the last */
    o->arch = q->narches ? q->arches[q->narches - 1] : NULL;
    o->path_equivalence = q->npath_equivs ? q->path_equivs[q->npath_equivs - 1] : NULL;
    return 0;
}

static void scalars(pbc_cov_request *q, const pbc_args *a) {
    const pbc_arg *r = pbc_args_last(a, PBC_CO_FORMAT);
    q->format = !r ? PBC_COV_FMT_TEXT : strcmp(r->value, "html") == 0 ? PBC_COV_FMT_HTML
                : strcmp(r->value, "lcov") == 0 ? PBC_COV_FMT_LCOV : PBC_COV_FMT_TEXT;
    q->use_color = flag(a, PBC_CO_USE_COLOR);
    q->dump_objects = flag(a, PBC_CO_DUMP_COLLECTED_OBJECTS) == 1;
    q->version = pbc_args_last(a, PBC_ARG_VERSION_ID) != NULL;
    pb_cov_options *o = &q->o;
    o->llvm_release = q->t.release;
    if ((r = pbc_args_last(a, PBC_CO_COMPILATION_DIR))) o->compilation_dir = r->value;
    if ((r = pbc_args_last(a, PBC_CO_NUM_THREADS))) o->threads = (unsigned)r->u;
    o->check_binary_ids = flag(a, PBC_CO_CHECK_BINARY_IDS) == 1;
    o->empty_profile = flag(a, PBC_CO_EMPTY_PROFILE) == 1;
    pb_cov_export_options *eo = &q->eo;
    eo->format = q->format == PBC_COV_FMT_LCOV ? PB_COV_LCOV : PB_COV_JSON;
    eo->summary_only = flag(a, PBC_CO_SUMMARY_ONLY) == 1;
    eo->skip_expansions = flag(a, PBC_CO_SKIP_EXPANSIONS) == 1;
    eo->skip_functions = flag(a, PBC_CO_SKIP_FUNCTIONS) == 1;
    eo->skip_branches = flag(a, PBC_CO_SKIP_BRANCHES) == 1;
    /* cl::init(true) in llvm-cov 21+ */
    eo->unify_instantiations = flag(a, PBC_CO_UNIFY_INSTANTIATIONS) != 0;
    eo->show_mcdc_non_executed_vectors = flag(a, PBC_CO_SHOW_MCDC_NON_EXECUTED_VECTORS) == 1;
    pb_cov_report_options *ro = &q->ro;
    ro->show_functions = flag(a, PBC_CO_SHOW_FUNCTIONS) == 1;
    ro->show_region_summary = flag(a, PBC_CO_SHOW_REGION_SUMMARY);
    ro->show_branch_summary = flag(a, PBC_CO_SHOW_BRANCH_SUMMARY);
    ro->show_instantiation_summary = flag(a, PBC_CO_SHOW_INSTANTIATION_SUMMARY);
    ro->show_mcdc_summary = flag(a, PBC_CO_SHOW_MCDC_SUMMARY);
    ro->use_color = q->use_color == 1;
}

int pbc_cov_request_from_args(pbc_cov_request *q, int which, const pbc_args *a, const pbc_release *t,
                              int llvm_style) {
    memset(q, 0, sizeof *q);
    pb_cov_options o = PB_COV_OPTIONS_INIT;
    pb_cov_export_options eo = PB_COV_EXPORT_OPTIONS_INIT;
    pb_cov_report_options ro = PB_COV_REPORT_OPTIONS_INIT;
    q->o = o;
    q->eo = eo;
    q->ro = ro;
    q->which = which;
    q->t = *t;
    int rc = profiles(q, a, llvm_style);
    if (rc > 0) return rc;
    if (rc < 0 || positionals(q, a) || lists(q, a)) {
        fprintf(stderr, "%s: out of memory\n", pbc_args_prog);
        return PBC_EXIT_USAGE;
    }
    scalars(q, a);
    return 0;
}

void pbc_cov_request_free(pbc_cov_request *q) {
    free(q->objects);
    free(q->profiles);
    free(q->weights);
    free(q->arches);
    free(q->path_equivs);
    free(q->demangler);
    free(q->demangler_path);
    free(q->names);
    free(q->name_regexes);
    free(q->allowlists);
    free(q->ignore_res);
    free(q->include_res);
    free(q->sources);
    memset(q, 0, sizeof *q);
}
