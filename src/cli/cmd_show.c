/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_show.c -- `profbridge show IN`: the Java view (show_iprof.c) for
 * profiles read from iprof, otherwise (or with --llvm) what
 * `llvm-profdata-N show` prints for the same flags (show_llvm.c), N the
 * release of --llvm-version / PROFBRIDGE_LLVM_VERSION (19 by default): the
 * flags that release lacks are refused, the files it cannot read are
 * refused as it refuses them. An indexed input is streamed from the file to
 * that printer without a model when the flags need no name table
 * (show_indexed.c, docs/show.md).
 *
 * Flags are parsed with getopt_long_only because llvm-profdata accepts
 * -flag as well as --flag, and --flag=value.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare_read.h"
#include "correlation.h"
#include "opts.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " show IN [--topn N] [--llvm] [--llvm-version N] [llvm-profdata show flags] [-o OUT]\n"
          "\n"
          "Prints a profile. For a profile read from iprof (without --llvm): a summary\n"
          "(version, types, methods, entries per section, total call count, contexts,\n"
          "deepest context) and every method's entries with resolved names: the kind,\n"
          "the context callee-first joined by '<', the counts, branch successors or\n"
          "receiver types. With --topn N only the N hottest entries (by first counter).\n"
          "\n"
          "For LLVM profiles, or with --llvm, the output is that of\n"
          "'llvm-profdata-N show' for the same flags, N the --llvm-version (19 by\n"
          "default); flags release N lacks are refused, and so are files it cannot\n"
          "read. Flags may be written -flag or --flag, values as '--flag VALUE' or\n"
          "'--flag=VALUE'.\n"
          "\nOptions:\n"
          "      --llvm                      LLVM view even for iprof input\n"
          "      --llvm-version N            print as llvm-profdata-N show (13..24; default\n"
          "                                  PROFBRIDGE_LLVM_VERSION, else 19)\n"
          "      --topn N                    the N hottest functions/entries\n"
          "      --all-functions             details of every function\n"
          "      --counts                    counter values\n"
          "      --function NAME             functions whose name contains NAME\n"
          "      --ic-targets                indirect-call targets\n"
          "      --memop-sizes               memory-operation size values\n"
          "      --show-vtables              vtable values (19+)\n"
          "      --detailed-summary          the detailed profile summary\n"
          "      --detailed-summary-cutoffs LIST  cutoffs for it (comma-separated)\n"
          "      --value-cutoff N            only functions whose max count is >= N\n"
          "      --list-below-cutoff         list the functions below the cutoff\n"
          "      --showcs                    context-sensitive records only\n"
          "      --covered                   names of covered functions (14+)\n"
          "      --binary-ids                binary ids\n"
          "      --temporal-profile-traces   temporal profile traces (17+)\n"
          "      --profile-version           the profile's version (16+)\n"
          "      --show-format FMT           text (16+; json and yaml are refused for\n"
          "                                  instrumentation profiles, as llvm-profdata does)\n"
          "      --text                      the profile as text (.proftext)\n"
          "      --json                      the same content as JSON\n"
          "      --debug-info PROG           no IN: the functions PROG's debug info has for\n"
          "                                  -profile-correlate=debug-info (14+; yaml: the list)\n"
          "      --max-debug-info-correlation-warnings N  warnings about its DWARF (default 5)\n"
          "      --instr                     accepted for llvm-profdata compatibility\n"
          "      --from FORMAT               read IN as FORMAT instead of recognising it\n"
          "      --lenient                   read with the plugin's lenient rules\n"
          "  -o, --output OUT                write to OUT instead of standard output\n"
          "  -h, --help                      show this help\n"
          "\nExit status: 0 shown, 1 IN is invalid, 2 usage or I/O error.\n",
          out);
}

enum {
    OPT_LLVM = 256, OPT_FROM, OPT_LENIENT, OPT_INSTR, OPT_FUNCTION, OPT_CUTOFFS, OPT_TOPN,
    OPT_VALUE_CUTOFF, OPT_LLVM_VERSION, OPT_SHOW_FORMAT, OPT_DEBUG_INFO, OPT_MAX_CORR_WARN,
    OPT_BOOL_BASE = 512 /* + index into bool_flags */
};

/* The boolean flags, the field of pbc_show_llvm_opts each sets and the
 * feature of the releases whose llvm-profdata show has the flag (-1: all). */
static const struct {
    const char *name;
    size_t field;
    int feature;
} bool_flags[] = {
    {"all-functions", offsetof(pbc_show_llvm_opts, all_functions), -1},
    {"counts", offsetof(pbc_show_llvm_opts, counts), -1},
    {"ic-targets", offsetof(pbc_show_llvm_opts, ic_targets), -1},
    {"memop-sizes", offsetof(pbc_show_llvm_opts, memop_sizes), -1},
    {"show-vtables", offsetof(pbc_show_llvm_opts, show_vtables), PBI_LF_SHOW_OPT_VTABLES},
    {"detailed-summary", offsetof(pbc_show_llvm_opts, detailed_summary), -1},
    {"list-below-cutoff", offsetof(pbc_show_llvm_opts, list_below_cutoff), -1},
    {"showcs", offsetof(pbc_show_llvm_opts, showcs), -1},
    {"covered", offsetof(pbc_show_llvm_opts, covered), PBI_LF_SHOW_OPT_COVERED},
    {"binary-ids", offsetof(pbc_show_llvm_opts, binary_ids), -1},
    {"temporal-profile-traces", offsetof(pbc_show_llvm_opts, temporal_traces), PBI_LF_SHOW_OPT_TEMPORAL},
    {"profile-version", offsetof(pbc_show_llvm_opts, profile_version), PBI_LF_SHOW_OPT_VERSION_FORMAT},
    {"text", offsetof(pbc_show_llvm_opts, text), -1},
    {"json", offsetof(pbc_show_llvm_opts, json), -1}, /* ours */
};
#define NUM_BOOL_FLAGS (sizeof bool_flags / sizeof bool_flags[0])

static const struct option fixed_opts[] = {
    {"llvm", no_argument, NULL, OPT_LLVM},
    {"from", required_argument, NULL, OPT_FROM},
    {"lenient", no_argument, NULL, OPT_LENIENT},
    {"instr", optional_argument, NULL, OPT_INSTR},
    {"function", required_argument, NULL, OPT_FUNCTION},
    {"detailed-summary-cutoffs", required_argument, NULL, OPT_CUTOFFS},
    {"topn", required_argument, NULL, OPT_TOPN},
    {"value-cutoff", required_argument, NULL, OPT_VALUE_CUTOFF},
    {"llvm-version", required_argument, NULL, OPT_LLVM_VERSION},
    {"show-format", required_argument, NULL, OPT_SHOW_FORMAT},
    {"debug-info", required_argument, NULL, OPT_DEBUG_INFO},
    {"max-debug-info-correlation-warnings", required_argument, NULL, OPT_MAX_CORR_WARN},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
};
#define NUM_FIXED (sizeof fixed_opts / sizeof fixed_opts[0])

/* Fixed options, then one entry per boolean flag (optional "=true/false"). */
static void build_longopts(struct option *lo) {
    size_t k = 0;
    for (size_t i = 0; i < NUM_FIXED; i++) lo[k++] = fixed_opts[i];
    for (size_t i = 0; i < NUM_BOOL_FLAGS; i++) {
        lo[k].name = bool_flags[i].name;
        lo[k].has_arg = optional_argument;
        lo[k].flag = NULL;
        lo[k].val = OPT_BOOL_BASE + (int)i;
        k++;
    }
    lo[k] = (struct option){NULL, 0, NULL, 0};
}

/* Flags that only the LLVM view reads (to say they are ignored otherwise). */
static int any_llvm_flag(const pbc_show_llvm_opts *o) {
    return o->all_functions || o->counts || o->function || o->ic_targets || o->memop_sizes ||
           o->show_vtables || o->detailed_summary || o->cutoffs || o->value_cutoff ||
           o->list_below_cutoff || o->showcs || o->covered || o->binary_ids || o->temporal_traces ||
           o->profile_version || o->text || o->json;
}

/*
 * A raw file may hold several profiles back to back (a program and its shared
 * libraries write into one file). llvm-profdata show lists the records of
 * each profile, so a function in two of them appears twice; the model merges
 * them. So each profile is read again alone (raw-profile K), from the bytes
 * read once (the input may be a pipe). Asking for profile 1 costs only a
 * walk over profile 0's header and value data, so a file with one profile
 * (*nparts = 0 then) is not parsed twice.
 */
typedef struct raw_bytes {
    const uint8_t *data;
    size_t len;
    const char *name;
} raw_bytes;

static int read_raw_part(const raw_bytes *path, const pb_read_options *base, size_t k, pb_profile **one,
                         pb_error *err) {
    char num[24];
    snprintf(num, sizeof num, "%zu", k);
    pb_kv kv = {"raw-profile", num};
    pb_read_options ro = *base;
    ro.format = "raw";
    ro.kv = &kv;
    ro.nkv = 1;
    pb_source *src = NULL;
    int rc = pb_source_open_memory(&src, path->data, path->len, path->name, err);
    if (rc == 0) rc = pb_read(one, src, &ro, err);
    pb_source_free(src);
    return rc;
}

static int read_raw_parts(const raw_bytes *path, const pb_read_options *base, pb_profile ***parts,
                          size_t *nparts, pb_error *err) {
    pb_profile *second = NULL;
    pb_error e;
    pb_error_clear(&e);
    int rc = read_raw_part(path, base, 1, &second, &e);
    if (rc == PB_ENOTFOUND) return 0; /* one profile: the merged model is the file */
    for (size_t k = 0; rc == 0; k++) {
        pb_profile *one = NULL;
        if (k == 1) one = second, second = NULL;
        else rc = read_raw_part(path, base, k, &one, &e);
        if (rc == PB_ENOTFOUND) {
            rc = 0;
            break;
        }
        if (rc) break;
        pb_profile **n = realloc(*parts, (*nparts + 1) * sizeof *n);
        if (!n) {
            pb_profile_free(one);
            rc = pb_error_set(&e, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            break;
        }
        *parts = n;
        (*parts)[(*nparts)++] = one;
    }
    pb_profile_free(second);
    if (rc) *err = e;
    return rc;
}

int pbc_cmd_show(int argc, char **argv) {
    struct option longopts[NUM_FIXED + NUM_BOOL_FLAGS + 1];
    build_longopts(longopts);
    pbc_show_llvm_opts so;
    memset(&so, 0, sizeof so);
    const char *from = NULL, *out_path = NULL, *llvm_version = NULL, *show_format = NULL, *debug_info = NULL;
    uint64_t max_corr_warn = 5;
    int lenient = 0, llvm = 0, c, rc = PBC_EXIT_USAGE;
    unsigned char given[NUM_BOOL_FLAGS] = {0};
    uint64_t n;
    pb_profile *p = NULL, **parts = NULL;
    size_t nparts = 0;
    FILE *out = stdout;
    pb_error err;
    pb_error_clear(&err);

    while ((c = getopt_long_only(argc, argv, "o:h", longopts, NULL)) != -1) {
        if (c >= OPT_BOOL_BASE && c < OPT_BOOL_BASE + (int)NUM_BOOL_FLAGS) {
            int v = pbc_parse_bool(optarg);
            if (v < 0)
                return pbc_usage_error("show", "'%s' is not a boolean value for -%s", optarg,
                                       bool_flags[c - OPT_BOOL_BASE].name);
            *(int *)((char *)&so + bool_flags[c - OPT_BOOL_BASE].field) = v;
            given[c - OPT_BOOL_BASE] = 1;
            continue;
        }
        switch (c) {
        case OPT_LLVM: llvm = 1; break;
        case OPT_FROM: from = optarg; break;
        case OPT_LENIENT: lenient = 1; break;
        case OPT_INSTR: break; /* instrumentation profiles are all we read */
        case OPT_FUNCTION: so.function = optarg; break;
        case OPT_CUTOFFS: so.cutoffs = optarg; break;
        case OPT_TOPN:
            if (pbc_parse_u64(optarg, &n) || n > 0x7fffffff)
                return pbc_usage_error("show", "--topn needs a number, found '%s'", optarg);
            so.topn = (unsigned)n;
            break;
        case OPT_VALUE_CUTOFF:
            if (pbc_parse_u64(optarg, &so.value_cutoff))
                return pbc_usage_error("show", "--value-cutoff needs a number, found '%s'", optarg);
            break;
        case OPT_LLVM_VERSION: llvm_version = optarg; break;
        case OPT_SHOW_FORMAT: show_format = optarg; break;
        case OPT_DEBUG_INFO: debug_info = optarg; break;
        case OPT_MAX_CORR_WARN:
            if (pbc_parse_u64(optarg, &max_corr_warn) || max_corr_warn > UINT32_MAX)
                return pbc_usage_error("show", "--max-debug-info-correlation-warnings needs a number, found '%s'",
                                       optarg);
            break;
        case 'o': out_path = optarg; break;
        case 'h': help(stdout); return PBC_EXIT_OK;
        default: return pbc_try_help("show");
        }
    }
    /* the release, before any input is read: a bad value is a usage error
     * even when the input is broken */
    pbi_llvm_target target;
    if ((rc = pbc_llvm_target("show", llvm_version, &target)) != 0) return rc;
    rc = PBC_EXIT_USAGE;
    so.t = &target;
    /* a flag the release's llvm-profdata show does not have: it refuses
     * the command line ("Unknown command line argument") */
    for (size_t i = 0; i < NUM_BOOL_FLAGS; i++)
        if (given[i] && bool_flags[i].feature >= 0 &&
            !pbi_llvm_has(&target, (enum pbi_llvm_feature)bool_flags[i].feature))
            return pbc_usage_error("show", "llvm-profdata-%d show has no -%s (--llvm-version %d)", target.release,
                                   bool_flags[i].name, target.release);
    if (debug_info) /* llvm-profdata show --debug-info: the binary's functions, no input (correlation.c) */
        return pbc_show_debug_info(&target, debug_info, show_format, (unsigned)max_corr_warn, out_path);
    if (show_format) {
        if (!pbi_llvm_has(&target, PBI_LF_SHOW_OPT_VERSION_FORMAT))
            return pbc_usage_error("show", "llvm-profdata-%d show has no -show-format (--llvm-version %d)",
                                   target.release, target.release);
        if (strcmp(show_format, "json") == 0 || strcmp(show_format, "yaml") == 0)
            return pbc_usage_error("show", "%s output is not supported for instr profiles (llvm-profdata "
                                   "refuses it; --json is ours)", strcmp(show_format, "json") == 0 ? "JSON" : "YAML");
        if (strcmp(show_format, "text") != 0)
            return pbc_usage_error("show", "-show-format wants text, json or yaml, got '%s'", show_format);
    }
    if (optind != argc - 1)
        return pbc_usage_error("show", optind >= argc ? "missing input file" : "exactly one input file expected");
    if (from && !pbc_format_arg("show", "--from", from)) return PBC_EXIT_USAGE;
    const char *in_path = argv[optind];
    if (pbc_check_output("show", out_path, &in_path, 1)) return PBC_EXIT_USAGE;

    pbc_diag_ctx dc = {0, 0, 0};
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = from;
    ro.lenient = lenient;
    ro.diag = pbc_diag;
    ro.diag_ctx = &dc;
    pbc_apply_limits(&ro);
    /* Detect first, so that the --lenient hint follows only a reader's failure. */
    const pb_format *f = NULL;
    pb_source *src = NULL, *held = NULL;
    raw_bytes raw = {NULL, 0, NULL};
    int read_failed = 0, prc = pbc_open_input(in_path, &src, &err);
    if (prc == 0 && !from) prc = pb_format_detect(src, &f, &err);
    if (prc == 0 && strcmp(f ? f->name : from, "raw") == 0) {
        /* read once, parsed once per profile it holds (read_raw_parts) */
        held = src;
        src = NULL;
        prc = pb_source_read_all(held, &raw.data, &raw.len, &err);
        raw.name = pb_source_name(held);
        if (prc == 0) prc = pb_source_open_memory(&src, raw.data, raw.len, raw.name, &err);
    }
    if (prc == 0 && strcmp(f ? f->name : from, "indexed") == 0 && pbc_show_llvm_streamable(&so)) {
        /* records straight from the file to the printer (show_indexed.c) */
        rc = pbc_show_indexed(in_path, src, &ro, &so, out_path); /* checks the version too */
        pb_source_free(src);
        return rc;
    }
    if (prc == 0) {
        if (f) ro.format = f->name;
        prc = pb_read(&p, src, &ro, &err);
        read_failed = prc != 0;
    }
    pb_source_free(src);
    if (prc) {
        pbc_print_error(&err);
        if (read_failed) pbc_lenient_hint(prc, lenient);
        pb_source_free(held);
        return pbc_exit_for(prc);
    }
    const char *name = strcmp(in_path, "-") == 0 ? "<stdin>" : in_path;
    /* a raw or indexed file the release cannot read: it says so, and so do we */
    if ((rc = pbc_llvm_check_readable(&target, p, name)) != 0) goto out;
    rc = PBC_EXIT_USAGE;
    if (!(out = pbc_open_out(out_path))) {
        out = stdout; /* nothing to close */
        goto out;
    }
    if (!llvm && strcmp(pb_profile_origin(p)->format, "iprof") == 0) {
        if (any_llvm_flag(&so))
            pbc_msg("note: llvm-profdata flags are ignored in the Java view; add --llvm to use them");
        prc = pbc_show_iprof(p, name, so.topn, out, &err);
    } else {
        if (strcmp(pb_profile_origin(p)->format, "raw") == 0 && raw.data &&
            (prc = read_raw_parts(&raw, &ro, &parts, &nparts, &err)) != 0) {
            pbc_print_error(&err);
            rc = pbc_exit_for(prc);
            goto out;
        }
        /* a file llvm-profdata cannot read is shown as the .profdata convert
         * writes of it (compare_read.h: one rule for show, overlap, diff) */
        if (!pbc_is_llvm_format(f ? f->name : from) && (prc = pbc_llvm_view(&p, name, &target, &err)) != 0) {
            pbc_print_error(&err);
            rc = pbc_exit_for(prc);
            goto out;
        }
        so.parts = (const pb_profile *const *)parts;
        so.nparts = nparts;
        prc = pbc_show_llvm(p, name, &so, out, &err);
    }
    if (prc) {
        pbc_print_error(&err);
        rc = pbc_exit_for(prc);
        goto out;
    }
    rc = PBC_EXIT_OK;
out:
    rc = pbc_close_out(out, out_path, rc);
    for (size_t k = 0; k < nparts; k++) pb_profile_free(parts[k]);
    free(parts);
    pb_profile_free(p);
    pb_source_free(held);
    return rc;
}
