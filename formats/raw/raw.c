/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* raw.c -- the descriptor of the LLVM raw profile (.profraw) plugin. */
#include "raw_internal.h"

static const char *const raw_extensions[] = {".profraw", NULL};

/* Several profiles in one file (a program and its shared libraries) are merged;
 * this reads one of them alone, as `show` does to list records per profile. */
static const pb_option_desc raw_read_options[] = {
    {"raw-profile", "K", "read only the K-th profile (0-based) of a file holding several"},
    {"binary-file", "FILE", "a lightweight profile (-profile-correlate=binary): data and names from FILE's sections"},
    {"debug-info", "FILE", "a lightweight profile (-profile-correlate=debug-info): data and names from FILE's DWARF"},
    {NULL, NULL, NULL}};

static const pb_option_desc raw_write_options[] = {
    {"raw-version", "5|7|8|9|10|11", "raw format version to write (default: the LLVM release's)"},
    {"raw-pointer-width", "4|8", "pointer width of the pretended target (default 8)"},
    {"raw-byte-order", "le|be", "byte order of the pretended target (default le)"},
    {"raw-names", "zlib|plain", "names section encoding (default zlib)"},
    {NULL, NULL, NULL}};

const pb_format pbi_format_raw = {
    .abi = PB_FORMAT_ABI,
    .name = "raw",
    .description = "LLVM raw instrumentation profile (.profraw) v5, v7-v11, 32/64-bit, LE/BE",
    .family = PB_FAMILY_LLVM,
    .form = PB_FORM_RAW,
    .version_option = "raw-version",
    .extensions = raw_extensions,
    .probe = pbi_raw_probe,
    .read = pbi_raw_read,
    .write = pbi_raw_write,
    .dump = pbi_raw_dump,
    .read_options = raw_read_options,
    .write_options = raw_write_options,
    .prepare = pbi_raw_prepare,
    .read_prepared = pbi_raw_read_prepared,
    .free_prepared = pbi_raw_free_prepared,
    .visit = pbi_raw_visit,
    .merges_by_visit = 1,
    .llvm_claims = pbi_raw_llvm_claims,
    .llvm_words = pbi_raw_llvm_words,
};
