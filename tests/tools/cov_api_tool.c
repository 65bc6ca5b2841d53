/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_api_tool.c -- pb_coverage_load + export/report through the public
 * API only, printing what llvm-cov-N prints (tests/tools/cov_cases_llvm.sh
 * sets it beside the real llvm-cov-N before the CLI has its cov command):
 *   cov_api_tool RELEASE export|lcov|report [-m] OBJECT[,OBJECT...] PROFILE
 * -m: report's -show-mcdc-summary. Warnings llvm-cov prints (out of date,
 * mismatched data) go to stderr in llvm-cov's form; a failed load prints
 * "error: " and the library's message (llvm-cov-N's words) and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profbridge/coverage.h"

static void diag(void *ctx, int severity, const pb_error *e) {
    (void)ctx;
    (void)severity;
    if (strcmp(e->path, PB_COV_OUT_OF_DATE) == 0) fprintf(stderr, "warning: %s: %s\n", e->source, e->message);
    else if (strcmp(e->path, PB_COV_MISMATCHED) == 0) fprintf(stderr, "warning: %s\n", e->message);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: cov_api_tool RELEASE export|lcov|report [-m] OBJECT[,OBJECT...] PROFILE\n");
        return 2;
    }
    pb_cov_options o = PB_COV_OPTIONS_INIT;
    o.llvm_release = (int)strtol(argv[1], NULL, 10);
    o.diag = diag;
    pb_cov_export_options eo = PB_COV_EXPORT_OPTIONS_INIT;
    pb_cov_report_options ro = PB_COV_REPORT_OPTIONS_INIT;
    const char *mode = argv[2];
    int i = 3;
    if (strcmp(argv[i], "-m") == 0) {
        ro.show_mcdc_summary = 1;
        i++;
    }
    if (i + 1 >= argc) return 2;
    eo.format = strcmp(mode, "lcov") == 0 ? PB_COV_LCOV : PB_COV_JSON;
    eo.unify_instantiations = 1; /* llvm-cov 21+'s default; earlier releases ignore it */
    const char *objs[16];
    size_t nobj = 0;
    for (char *tok = strtok(argv[i], ","); tok && nobj < 16; tok = strtok(NULL, ",")) objs[nobj++] = tok;
    const char *prof[1] = {argv[i + 1]};
    pb_error err;
    pb_coverage *cov = NULL;
    if (pb_coverage_load(&cov, objs, nobj, prof, NULL, 1, &o, &err)) {
        fprintf(stderr, "error: %s\n", err.message);
        return 1;
    }
    pb_sink *s = NULL;
    int rc = pb_sink_open_file(&s, "-", 0, &err);
    if (!rc) rc = strcmp(mode, "report") == 0 ? pb_coverage_report(cov, &ro, s, &err) : pb_coverage_export(cov, &eo, s, &err);
    if (!rc) rc = pb_sink_commit(s, &err);
    if (rc) fprintf(stderr, "error: %s\n", err.message);
    pb_sink_free(s);
    pb_coverage_free(cov);
    return rc ? 1 : 0;
}
