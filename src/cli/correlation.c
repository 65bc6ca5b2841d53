/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* correlation.c -- merge's and show's --debug-info / --binary-file (correlation.h). */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "correlation.h"
#include "llvm_args.h"
#include "opts.h"

/* LLVM prints its correlation warnings with WithColor::warning(): "warning: MSG". */
static void print_warning(void *ctx, int severity, const pb_error *e) {
    (void)severity; /* the library passes warnings only */
    pbc_diag_ctx *dc = ctx;
    if (dc) dc->warnings++;
    fprintf(stderr, "%s: warning: %s\n", pbc_args_prog, e->message);
}

/* The options of a load for `release`, its limits the command line's. */
static pb_correlate_options options_for(int release, int kind, unsigned max_warnings, pbc_diag_ctx *dc) {
    pb_correlate_options o = PB_CORRELATE_OPTIONS_INIT;
    o.llvm_release = release;
    o.kind = kind;
    o.max_input_size = pbc_limits.max_input_size;
    o.max_inflation = pbc_limits.max_inflation;
    o.max_warnings = max_warnings;
    o.diag = print_warning;
    o.diag_ctx = dc;
    return o;
}

static int load_failed(pb_error *err, pbc_diag_ctx *dc) {
    /* llvm-profdata-N: LLVM's words on the error line, profbridge's hint on
     * the next, as for unreadable inputs (docs/llvm-profdata.md) */
    char *hint = pbc_args_llvm_style ? strstr(err->message, " (expected ") : NULL;
    if (hint) {
        char detail[sizeof err->message];
        snprintf(detail, sizeof detail, "%s", hint + 2);
        *hint = '\0';
        pbc_diag(dc, PB_DIAG_ERROR, err);
        size_t n = strlen(detail);
        if (n && detail[n - 1] == ')') detail[n - 1] = '\0';
        fprintf(stderr, "  (profbridge: %s: %s)\n", err->source, detail);
        return pbc_exit_for(err->code);
    }
    pbc_diag(dc, PB_DIAG_ERROR, err);
    return pbc_exit_for(err->code);
}

int pbc_correlation_stream(const char **path, char *name, size_t name_len) {
    struct stat st;
    if (stat(*path, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return 0; /* opened as it is */
    int in = open(*path, O_RDONLY | O_CLOEXEC);
    if (in < 0) return 0; /* the check names the error in LLVM's words */
    int fd = memfd_create("profbridge-correlation", MFD_CLOEXEC);
    uint64_t max = pbc_limits.max_input_size ? pbc_limits.max_input_size : (uint64_t)4 << 30;
    uint64_t total = 0;
    char buf[1 << 16];
    int rc = fd < 0 ? -1 : 0;
    while (rc == 0) {
        ssize_t r = read(in, buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            rc = r < 0 ? -1 : 0;
            break;
        }
        total += (uint64_t)r;
        if (max != PB_NO_LIMIT && total > max) {
            fprintf(stderr, "%s: error: %s: the object is larger than %" PRIu64
                            " bytes (raise it with --max-input-size N, 0 = no limit)\n",
                    pbc_args_prog, *path, max);
            close(in);
            if (fd >= 0) close(fd);
            return PBC_EXIT_USAGE;
        }
        for (ssize_t w = 0; w < r && rc == 0;) {
            ssize_t k = write(fd, buf + w, (size_t)(r - w));
            if (k < 0 && errno != EINTR) rc = -1;
            else if (k > 0) w += k;
        }
    }
    int e = errno;
    close(in);
    if (rc != 0) {
        fprintf(stderr, "%s: error: %s: %s\n", pbc_args_prog, *path, strerror(e));
        if (fd >= 0) close(fd);
        return PBC_EXIT_USAGE;
    }
    /* kept open for the whole run: every reader opens this name afresh */
    snprintf(name, name_len, "/proc/self/fd/%d", fd);
    *path = name;
    return 0;
}

int pbc_merge_correlation_check(int release, const char *debug_info, const char *binary_file, unsigned max_warnings,
                                pbc_diag_ctx *dc) {
    if (debug_info && binary_file) {
        /* llvm-profdata's exitWithError names no program */
        fprintf(stderr, "%s%serror: Expected only one of -debug-info, -binary-file%s\n",
                pbc_args_llvm_style ? "" : pbc_args_prog, pbc_args_llvm_style ? "" : ": ", pb_release_has(release, "CORRELATE_FOUR_SOURCES") ? ", -debuginfod or -debug-file-directory" : "");
        return PBC_EXIT_USAGE;
    }
    pb_error err;
    pb_correlate_options o = options_for(release, debug_info ? PB_CORRELATE_DEBUG_INFO : PB_CORRELATE_BINARY,
                                         max_warnings, dc);
    if (pb_correlate_check(debug_info ? debug_info : binary_file, &o, &err)) return load_failed(&err, dc);
    return 0;
}

int pbc_show_debug_info(const pbc_release *r, const char *path, const char *format, unsigned max_warnings,
                        const char *out_path) {
    if (format && strcmp(format, "json") == 0) {
        /* exitWithError: no program name under llvm-profdata-N */
        fprintf(stderr, "%s%serror: JSON output is not supported for debug info correlation\n",
                pbc_args_llvm_style ? "" : pbc_args_prog, pbc_args_llvm_style ? "" : ": ");
        return PBC_EXIT_INVALID;
    }
    pb_error err;
    pb_error_clear(&err);
    pb_correlate_options o = options_for(r->release, PB_CORRELATE_DEBUG_INFO, max_warnings, NULL);
    o.style = format && strcmp(format, "yaml") == 0 ? PB_CORRELATE_YAML : PB_CORRELATE_COUNT;
    pb_sink *mem = NULL;
    int rc = pb_sink_open_memory(&mem, &err);
    if (rc == 0) rc = pb_correlate_show(mem, path, &o, &err);
    if (rc) {
        pb_sink_free(mem);
        return load_failed(&err, NULL);
    }
    size_t len = 0;
    const uint8_t *bytes = pb_sink_memory(mem, &len);
    FILE *out = pbc_open_out(out_path);
    rc = PBC_EXIT_USAGE;
    if (out) rc = pbc_close_out(out, out_path, fwrite(bytes, 1, len, out) == len ? PBC_EXIT_OK : PBC_EXIT_USAGE);
    pb_sink_free(mem);
    return rc;
}
