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
#include "llvm/correlate.h"
#include "llvm_args.h"
#include "opts.h"

/* LLVM prints its correlation warnings with WithColor::warning(): "warning: MSG". */
static void print_warning(void *ctx, const char *msg) {
    pbc_diag_ctx *dc = ctx;
    if (dc) dc->warnings++;
    fprintf(stderr, "%s: warning: %s\n", pbc_args_prog, msg);
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
    pb_error_clear(&err);
    pbi_correlation c;
    pbi_llvm_target tt;
    if (pbi_llvm_target_of(release, &tt)) return PBC_EXIT_USAGE;
    tt.chosen = 1;
    const pbi_llvm_target *t = &tt;
    const char *path = debug_info ? debug_info : binary_file;
    pbi_corr_limits lim = {pbc_limits.max_input_size, pbc_limits.max_inflation};
    if (pbi_correlation_load(&c, path, debug_info ? PBI_CORR_DEBUG_INFO : PBI_CORR_BINARY, t, &lim, max_warnings,
                             print_warning, dc, &err))
        return load_failed(&err, dc);
    pbi_correlation_free(&c);
    return 0;
}

/* As llvm::yaml::needsQuotes decides: plain when every byte is safe
 * (alphanumerics, "_-^., " and tab) and the text does not read as null, a
 * boolean or a number nor starts with an indicator; single quotes otherwise
 * ('/' included: LLVM quotes paths). Names with control bytes or UTF-8
 * (double quotes in LLVM) are single-quoted here. */
static int yaml_special(const char *s) {
    static const char *const words[] = {"null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False",
                                        "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off",
                                        "Off", "OFF", NULL};
    for (size_t i = 0; words[i]; i++)
        if (strcmp(s, words[i]) == 0) return 1;
    char *end;
    (void)strtod(s, &end);
    return *s && !*end;
}

static void yaml_str(FILE *out, const char *s) {
    int quote = !*s || *s == ' ' || s[strlen(s) ? strlen(s) - 1 : 0] == ' ' || strchr("-?:,[]{}#&*!|>'\"%@`", *s) ||
                yaml_special(s);
    for (const char *p = s; *p && !quote; p++)
        if (!(((*p | 32) >= 'a' && (*p | 32) <= 'z') || (*p >= '0' && *p <= '9') || strchr("_-^., \t", *p)))
            quote = 1;
    if (!quote) {
        fputs(s, out);
        return;
    }
    fputc('\'', out);
    for (const char *p = s; *p; p++) {
        if (*p == '\'') fputc('\'', out);
        fputc(*p, out);
    }
    fputc('\'', out);
}

typedef struct off_idx {
    uint64_t off;
    size_t idx;
} off_idx;
static int cmp_off_idx(const void *a, const void *b) {
    const off_idx *x = a, *y = b;
    if (x->off != y->off) return x->off < y->off ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* dup[i] = 1 when probe i's counters are an earlier probe's (LLVM keeps the first). */
static unsigned char *duplicates(const pbi_correlation *c, size_t *unique) {
    size_t n = c->nprobes;
    off_idx *v = malloc((n ? n : 1) * sizeof *v);
    unsigned char *dup = calloc(n ? n : 1, 1);
    if (!v || !dup) {
        free(v);
        free(dup);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) v[i] = (off_idx){c->probes[i].counter_offset, i};
    qsort(v, n, sizeof *v, cmp_off_idx);
    *unique = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && v[i].off == v[i - 1].off) dup[v[i].idx] = 1;
        else ++*unique;
    }
    free(v);
    return dup;
}

static int show_probes(const pbi_llvm_target *t, const pbi_correlation *c, int yaml, FILE *out) {
    size_t unique;
    unsigned char *dup = duplicates(c, &unique);
    if (!dup) {
        pbc_msg("out of memory");
        return PBC_EXIT_USAGE;
    }
    if (yaml) {
        int once = pb_release_has(t->release, "SHOW_DEBUG_INFO_UNIQUE");
        fputs("---\nProbes:\n", out);
        for (size_t i = 0; i < c->nprobes; i++) {
            const pbi_corr_probe *p = &c->probes[i];
            if (once && dup[i]) continue;
            fputs("  - Function Name:   ", out);
            yaml_str(out, p->name);
            if (p->linkage) fputs("\n    Linkage Name:    ", out), yaml_str(out, p->linkage);
            fprintf(out, "\n    CFG Hash:        0x%" PRIX64 "\n    Counter Offset:  0x%" PRIX64
                         "\n    Num Counters:    %" PRIu32 "\n",
                    p->hash, p->counter_offset, p->num_counters);
            if (pb_release_has(t->release, "CORRELATE_BITMAPS"))
                fprintf(out, "    Bitmap Offset:   0x%" PRIX64 "\n    Num BitmapBytes: %" PRIu32 "\n", p->bitmap_offset,
                        p->num_bitmap_bytes);
            if (p->file) fputs("    File:            ", out), yaml_str(out, p->file), fputc('\n', out);
            if (p->line) fprintf(out, "    Line:            %" PRIu64 "\n", p->line);
        }
        fputs("...\n", out);
    } else {
        /* LLVM counts the records left once duplicate counter addresses are dropped */
        fprintf(out, "Found %zu functions\n", unique);
    }
    free(dup);
    return 0;
}

int pbc_show_debug_info(const pbc_release *r, const char *path, const char *format, unsigned max_warnings,
                        const char *out_path) {
    pbi_llvm_target tt;
    if (pbi_llvm_target_of(r->release, &tt)) return PBC_EXIT_USAGE;
    tt.chosen = r->chosen;
    const pbi_llvm_target *t = &tt;
    if (format && strcmp(format, "json") == 0) {
        /* exitWithError: no program name under llvm-profdata-N */
        fprintf(stderr, "%s%serror: JSON output is not supported for debug info correlation\n",
                pbc_args_llvm_style ? "" : pbc_args_prog, pbc_args_llvm_style ? "" : ": ");
        return PBC_EXIT_INVALID;
    }
    pb_error err;
    pb_error_clear(&err);
    pbi_correlation c;
    pbi_corr_limits lim = {pbc_limits.max_input_size, pbc_limits.max_inflation};
    int yaml = format && strcmp(format, "yaml") == 0;
    if (pbi_correlation_load(&c, path, PBI_CORR_DEBUG_INFO, t, &lim, max_warnings, print_warning, NULL, &err)) {
        /* --show-format=yaml dumps through LLVM's DWARF correlator itself,
         * whose words (18-24) still say "in debug info" where the loader
         * says "in correlated file" */
        static const char was[] = "in correlated file", now[] = "in debug info";
        char *at = yaml ? strstr(err.message, "metadata in correlated file") : NULL;
        if (at) {
            at += sizeof "metadata " - 1;
            memmove(at + sizeof now - 1, at + sizeof was - 1, strlen(at + sizeof was - 1) + 1);
            memcpy(at, now, sizeof now - 1);
        }
        return load_failed(&err, NULL);
    }
    FILE *out = pbc_open_out(out_path);
    int rc = PBC_EXIT_USAGE;
    if (out) rc = pbc_close_out(out, out_path, show_probes(t, &c, yaml, out));
    pbi_correlation_free(&c);
    return rc;
}
