/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_cov.h -- `profbridge cov export|report` and the llvm-cov personality:
 * the command line of llvm-cov-N export/report (llvm_options.c's tables,
 * parsed by llvm_args.c) turned into one request for the library
 * (profbridge/coverage.h), which does the work.
 */
#ifndef PBC_CMD_COV_H
#define PBC_CMD_COV_H

#include <stddef.h>
#include <stdint.h>

#include "llvm_args.h"
#include "llvm_options.h"
#include "profbridge/coverage.h"

/*
 * What llvm-cov's front end itself does differently by release (the
 * library's rows are target.h's PBI_LLVM_COV_FEATURES; these concern only the
 * command line and its messages, checked by tests/interop/cli_cov_args.sh
 * against llvm-cov-13..19, 21..24):
 */
/*   id                    since until meaning */
#define PBC_COV_CLI_ROWS(X)                                                                                       \
    X(PATH_EQUIV_CHECKED,  14, 0, "-path-equivalence without 'from,to' is an error (13 takes it)")               \
    X(PROFILE_STAT_FIRST,  15, 0, "a profile that does not exist fails before the objects are read")             \
    X(LOWERCASE_ERRORS,    18, 0, "error messages start lower-case ('could not read profile data!')")            \
    X(EMPTY_PROFILE,       21, 0, "-empty-profile: exactly one of it and -instr-profile")                          \
    X(LOAD_ERROR_NAMES_PROFILE, 15, 0, "a load failure names the profile ('failed to load coverage: 'P': ...')")

enum pbc_cov_cli_row {
#define PBC_X(id, since, until, meaning) PBC_COVR_##id,
    PBC_COV_CLI_ROWS(PBC_X)
#undef PBC_X
    PBC_COVR_COUNT_
};

/* Whether llvm-cov of `release` has row r. */
int pbc_cov_cli_has(int release, enum pbc_cov_cli_row r);

enum { PBC_COV_EXPORT = 0, PBC_COV_REPORT = 1 };
/* cmd_cov's own options (profbridge's name only) */
enum { PBC_COV_OPT_LLVM_VERSION = PBC_CO_OWN, PBC_COV_OPT_WEIGHTED };
enum { PBC_COV_FMT_TEXT = 0, PBC_COV_FMT_HTML = 1, PBC_COV_FMT_LCOV = 2 };

/* One command line of export or report, as the library takes it. */
typedef struct pbc_cov_request {
    int which;               /* PBC_COV_EXPORT or PBC_COV_REPORT */
    pbc_release t;           /* the release acted as */
    int format;              /* PBC_COV_FMT_* */
    int use_color;           /* -1: not given, else 0/1 */
    int dump_objects;        /* -dump-collected-objects */
    int version;             /* --version */
    int have_instr_profile;  /* -instr-profile given (21+: exactly one of it and -empty-profile) */
    int as_link;             /* started as llvm-cov or llvm-cov-N: llvm-cov's lines alone on stderr */
    const char **objects;    size_t nobjects;
    const char **profiles;   uint64_t *weights; size_t nprofiles;
    const char **arches;     size_t narches;
    const char **path_equivs; size_t npath_equivs;
    const char **demangler;  size_t ndemangler; /* -Xdemangler: the program, then its arguments */
    char *demangler_path;    /* the program as found on PATH (check_request) */
    /* lists handed to the library through o */
    const char **names, **name_regexes, **allowlists, **ignore_res, **include_res, **sources;
    pb_cov_options o;
    pb_cov_export_options eo;
    pb_cov_report_options ro;
} pbc_cov_request;

/*
 * Fills *q from a parsed command line (a: llvm-cov's table, with cmd_cov's
 * own options under profbridge's name; llvm_style: acting as llvm-cov-N,
 * where -instr-profile's last occurrence counts). Returns 0, or the exit
 * status after a message (a bad weight, out of memory).
 */
int pbc_cov_request_from_args(pbc_cov_request *q, int which, const pbc_args *a, const pbc_release *t,
                              int llvm_style);
void pbc_cov_request_free(pbc_cov_request *q);

/* Runs export or report as llvm-cov-N (N = pbc_release_of's release)
 * under the llvm-cov personality: argv[0] is "llvm-cov-N export". Returns
 * the exit status (0 or 1, as llvm-cov). */
int pbc_cov_personality(int which, int argc, char **argv);

#endif
