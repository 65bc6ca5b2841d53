/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * correlate_dwarf.c -- the DWARF half of pbi_correlation_load (correlate.h),
 * with libdw: DwarfInstrProfCorrelator's walk. Every DIE of every unit, in
 * DWARF order, that is a DW_TAG_variable with children, named `__profc_*`,
 * whose parent is a subprogram, is a probe; its DW_TAG_LLVM_annotation
 * children give "Function Name", "CFG Hash" and "Num Counters", its
 * DW_AT_location (DW_OP_addr or DW_OP_addrx) the counters' address, the
 * subprogram's DW_AT_low_pc the function's. LLVM's rules: a probe with
 * neither address was dead-stripped and is skipped silently; one missing an
 * annotation or whose counters lie outside __llvm_prf_cnts is skipped with a
 * warning; one without a function address is kept with a warning.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvm/correlate.h"
#include "profbridge/profile.h"
#include "util/grow.h"

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000 /* LLVM's vendor tag (dwarf.h of elfutils lacks it) */
#endif
#ifndef DW_OP_addrx
#define DW_OP_addrx 0xa1
#endif
#define COUNTERS_PREFIX "__profc_"
#define BITMAP_PREFIX "__profbm_"

typedef struct walk {
    pbi_correlation *c;
    size_t cap_probes, cap_strings; /* of c->probes, c->strings */
    unsigned max_warnings; /* 0: all */
    unsigned long warned, suppressed;
    pbi_corr_warn_fn warn;
    void *warn_ctx;
    pb_error *err;
    void *bitmap_bufs[258]; /* each walk_children depth's bitmap_table.v, freed if libdw's OOM jumps out */
} walk;

static void warnf(walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(walk *w, const char *fmt, ...) {
    if (w->max_warnings && w->warned >= w->max_warnings) {
        w->suppressed++;
        return;
    }
    w->warned++;
    if (!w->warn) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    w->warn(w->warn_ctx, msg);
}

/* A copy of s owned by the correlation in *out (NULL for NULL); -1 when
 * out of memory. */
static int keep(walk *w, const char *s, const char **out) {
    *out = NULL;
    if (!s) return 0;
    if (pbu_grow((void **)&w->c->strings, &w->cap_strings, w->c->nstrings + 1, sizeof *w->c->strings)) return -1;
    char *d = strdup(s);
    if (!d) return -1;
    w->c->strings[w->c->nstrings++] = d;
    *out = d;
    return 0;
}

/* Whether libdw's last error (cleared here) was a failed allocation. */
static int out_of_memory(void) {
    int e = dwarf_errno();
    const char *m = e ? dwarf_errmsg(e) : NULL;
    return m && strcmp(m, "out of memory") == 0;
}

/* libdw's last error as ours: out of memory, or DWARF it cannot read. */
static int libdw_failed(pb_error *err) {
    const char *m = dwarf_errmsg(dwarf_errno());
    if (m && strcmp(m, "out of memory") == 0)
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL, "cannot read the DWARF: libdw says %s",
                        m ? m : "nothing");
}

/* The counters' address: the first DW_OP_addr or DW_OP_addrx of the location. */
static int location(Dwarf_Die *die, uint64_t *addr) {
    Dwarf_Attribute at;
    Dwarf_Op *ops;
    size_t n;
    if (!dwarf_attr(die, DW_AT_location, &at) || dwarf_getlocation(&at, &ops, &n) != 0) return 0;
    for (size_t i = 0; i < n; i++) {
        if (ops[i].atom == DW_OP_addr) {
            *addr = ops[i].number;
            return 1;
        }
        if (ops[i].atom == DW_OP_addrx || ops[i].atom == DW_OP_GNU_addr_index) {
            Dwarf_Attribute res;
            Dwarf_Addr a;
            if (dwarf_getlocation_attr(&at, &ops[i], &res) == 0 && dwarf_formaddr(&res, &a) == 0) {
                *addr = a;
                return 1;
            }
        }
    }
    return 0;
}

/* The subprogram's DW_AT_decl_file relative to the compilation directory,
 * as LLVM's RelativeFilePath gives it (show --debug-info's YAML). Read by
 * hand: libdw's dwarf_decl_file refuses index 0, DWARF 5's primary file,
 * and its names come joined with their directory. */
static const char *decl_file(Dwarf_Die *fn) {
    Dwarf_Attribute a;
    Dwarf_Word idx;
    Dwarf_Die cu;
    Dwarf_Files *files;
    size_t nfiles, ndirs;
    const char *const *dirs;
    if (!dwarf_attr_integrate(fn, DW_AT_decl_file, &a) || dwarf_formudata(&a, &idx) != 0 ||
        !dwarf_diecu(fn, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 || idx >= nfiles)
        return NULL;
    const char *name = dwarf_filesrc(files, idx, NULL, NULL);
    if (name && dwarf_getsrcdirs(files, &dirs, &ndirs) == 0 && ndirs && dirs[0]) {
        size_t n = strlen(dirs[0]);
        if (n && strncmp(name, dirs[0], n) == 0 && name[n] == '/') name += n + 1;
    }
    return name;
}

/* The DW_TAG_LLVM_annotation children of a __profc_ or __profbm_ variable. */
typedef struct annots {
    const char *fname;
    uint64_t hash, ncnt, bits;
    int has_hash, has_ncnt;
} annots;

static void read_annotations(Dwarf_Die *var, annots *a) {
    memset(a, 0, sizeof *a);
    Dwarf_Die ch;
    if (dwarf_child(var, &ch) != 0) return;
    do {
        Dwarf_Attribute an, av;
        Dwarf_Word u;
        const char *name;
        if (dwarf_tag(&ch) != DW_TAG_LLVM_annotation || !dwarf_attr(&ch, DW_AT_name, &an) ||
            !dwarf_attr(&ch, DW_AT_const_value, &av) || !(name = dwarf_formstring(&an)))
            continue;
        if (strcmp(name, "Function Name") == 0) a->fname = dwarf_formstring(&av);
        else if (strcmp(name, "CFG Hash") == 0 && dwarf_formudata(&av, &u) == 0) a->hash = u, a->has_hash = 1;
        else if (strcmp(name, "Num Counters") == 0 && dwarf_formudata(&av, &u) == 0) a->ncnt = u, a->has_ncnt = 1;
        else if (strcmp(name, "Num BitmapBits") == 0 && dwarf_formudata(&av, &u) == 0) a->bits = u;
    } while (dwarf_siblingof(&ch, &ch) == 0);
}

/* A subprogram's `__profbm_*` children whose address lies in
 * __llvm_prf_bits, sorted by "Function Name" then DWARF order: read once
 * per subprogram, so a function with n `__profc_` variables costs n log n,
 * not n times its children. */
typedef struct bitmap_var {
    const char *fname; /* libdw's string, valid while the Dwarf is open */
    uint64_t addr, bits;
    size_t idx;
} bitmap_var;
typedef struct bitmap_table {
    bitmap_var *v;
    size_t n, cap;
    int built;
    int depth; /* of the walk: where walk.bitmap_bufs keeps v */
} bitmap_table;

static int cmp_bitmap_var(const void *a, const void *b) {
    const bitmap_var *x = a, *y = b;
    int c = strcmp(x->fname, y->fname);
    if (c) return c;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int build_bitmaps(walk *w, Dwarf_Die *fn, bitmap_table *tab) {
    tab->built = 1;
    Dwarf_Die v;
    if (dwarf_child(fn, &v) != 0) return 0;
    size_t idx = 0;
    do {
        const char *n = dwarf_diename(&v);
        uint64_t addr;
        annots a;
        idx++;
        if (dwarf_tag(&v) != DW_TAG_variable || !n || strncmp(n, BITMAP_PREFIX, sizeof BITMAP_PREFIX - 1) != 0 ||
            !location(&v, &addr))
            continue;
        read_annotations(&v, &a);
        if (!a.fname || addr < w->c->bits_start || addr >= w->c->bits_end) continue;
        if (pbu_grow_err((void **)&tab->v, &tab->cap, tab->n + 1, sizeof *tab->v, w->err)) return PB_ENOMEM;
        w->bitmap_bufs[tab->depth] = tab->v;
        tab->v[tab->n++] = (bitmap_var){a.fname, addr, a.bits, idx};
    } while (dwarf_siblingof(&v, &v) == 0);
    if (tab->n > 1) qsort(tab->v, tab->n, sizeof *tab->v, cmp_bitmap_var);
    return 0;
}

/* The MC/DC bitmap of function `fname`: the first `__profbm_*` child of fn
 * (DWARF order) whose "Function Name" is fname, at an address inside
 * __llvm_prf_bits. */
static int find_bitmap(walk *w, Dwarf_Die *fn, bitmap_table *tab, const char *fname, pbi_corr_probe *p) {
    int rc;
    if (!tab->built && (rc = build_bitmaps(w, fn, tab))) return rc;
    size_t lo = 0, hi = tab->n;
    while (lo < hi) { /* the first entry not below fname */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(tab->v[mid].fname, fname) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < tab->n && strcmp(tab->v[lo].fname, fname) == 0) {
        p->bitmap_offset = tab->v[lo].addr - w->c->bits_start;
        p->num_bitmap_bytes = (uint32_t)((tab->v[lo].bits + 7) / 8);
    }
    return 0;
}

static int add_probe(walk *w, Dwarf_Die *var, Dwarf_Die *fn, bitmap_table *bitmaps) {
    uint64_t cptr = 0, fptr = 0;
    int has_cptr = location(var, &cptr);
    Dwarf_Addr lo;
    int has_fptr = dwarf_lowpc(fn, &lo) == 0;
    if (has_fptr) fptr = lo;
    annots a;
    read_annotations(var, &a);
    const char *fname = a.fname;
    uint64_t hash = a.hash, ncnt = a.ncnt;
    int has_hash = a.has_hash, has_ncnt = a.has_ncnt;
    if (!has_fptr && !has_cptr) return 0; /* dead-stripped */
    if (!fname || !has_hash || !has_cptr || !has_ncnt) {
        warnf(w, "Incomplete DIE for function %s: CFGHash=%s  CounterPtr=%s  NumCounters=%s", fname ? fname : "None",
              has_hash ? "set" : "None", has_cptr ? "set" : "None", has_ncnt ? "set" : "None");
        return 0;
    }
    if (cptr < w->c->cnts_start || cptr >= w->c->cnts_end) {
        warnf(w, "CounterPtr out of range for function %s: Actual=0x%" PRIx64 " Expected=[0x%" PRIx64 ", 0x%" PRIx64 ")",
              fname, cptr, w->c->cnts_start, w->c->cnts_end);
        return 0;
    }
    if (!has_fptr) warnf(w, "Could not find address of function %s", fname);
    if (pbu_grow_err((void **)&w->c->probes, &w->cap_probes, w->c->nprobes + 1, sizeof *w->c->probes, w->err))
        return PB_ENOMEM;
    pbi_corr_probe *p = &w->c->probes[w->c->nprobes];
    memset(p, 0, sizeof *p);
    if (keep(w, fname, &p->name)) return pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    p->name_ref = pb_md5_ref(fname, strlen(fname));
    p->hash = hash;
    p->counter_offset = cptr - w->c->cnts_start;
    p->fn_ptr = fptr;
    p->num_counters = ncnt > UINT32_MAX ? UINT32_MAX : (uint32_t)ncnt;
    int rc = find_bitmap(w, fn, bitmaps, fname, p);
    if (rc) return rc;
    Dwarf_Attribute la;
    const char *link = dwarf_attr_integrate(fn, DW_AT_linkage_name, &la) ? dwarf_formstring(&la) : NULL;
    if (!link) link = dwarf_diename(fn);
    if (keep(w, link, &p->linkage) || keep(w, decl_file(fn), &p->file))
        return pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    int line;
    if (dwarf_decl_line(fn, &line) == 0 && line > 0) p->line = (uint64_t)line;
    w->c->nprobes++;
    return 0;
}

/* Pre-order walk of die's children; `parent_tag` is die's own tag. */
static int walk_children(walk *w, Dwarf_Die *die, int depth) {
    Dwarf_Die ch;
    if (depth > 256 || dwarf_child(die, &ch) != 0) return 0;
    int is_sub = dwarf_tag(die) == DW_TAG_subprogram;
    bitmap_table bitmaps = {NULL, 0, 0, 0, depth};
    int rc = 0;
    do {
        int tag = dwarf_tag(&ch);
        /* a DIE whose abbreviation libdw could not read (out of memory,
         * broken DWARF): walking on would read garbage */
        if (tag == DW_TAG_invalid) {
            rc = libdw_failed(w->err);
            break;
        }
        if (is_sub && tag == DW_TAG_variable && dwarf_haschildren(&ch) > 0) {
            const char *n = dwarf_diename(&ch);
            if (!n && out_of_memory()) {
                rc = pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
                break;
            }
            if (n && strncmp(n, COUNTERS_PREFIX, sizeof COUNTERS_PREFIX - 1) == 0 &&
                (rc = add_probe(w, &ch, die, &bitmaps)))
                break;
        }
        /* libdw reports some allocation failures only through dwarf_errno
         * and goes on with what it has: stop before reading it */
        if (out_of_memory()) {
            rc = pb_error_set(w->err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            break;
        }
        if ((rc = walk_children(w, &ch, depth + 1))) break;
    } while (dwarf_siblingof(&ch, &ch) == 0);
    free(bitmaps.v);
    w->bitmap_bufs[depth] = NULL;
    return rc;
}

static int walk_units(walk *w, Dwarf *dw) {
    Dwarf_Off off = 0, next;
    size_t hsize;
    int rc = 0, more;
    while (rc == 0 && (more = dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) == 0) {
        Dwarf_Die cu;
        if (!dwarf_offdie(dw, off + hsize, &cu)) return libdw_failed(w->err);
        rc = walk_children(w, &cu, 0);
        off = next;
    }
    return rc ? rc : more < 0 ? libdw_failed(w->err) : 0;
}

/* No __profc_ variable was found. A function of its own: `t` must not be
 * assigned in pbi_correlate_dwarf after its setjmp (gcc -O2 -Wclobbered). */
static int no_probes(const char *path, const pbi_llvm_target *t, pb_error *err) {
    pbi_llvm_target def;
    if (!t) pbi_llvm_target_of(PBI_LLVM_DEFAULT, &def), t = &def;
    int rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, NULL,
                          "unable to correlate profile: could not find any profile %s (expected __profc_ variables "
                          "with DW_TAG_LLVM_annotation children: build with -g and -profile-correlate=debug-info)",
                          pbi_llvm_has(t, PBI_LF_CORRELATE_BINARY_WORDS) ? "data metadata in correlated file"
                                                                         : "metadata in debug info");
    pb_error_set_source(err, path);
    return rc;
}

/* libdw calls its out-of-memory handler where it cannot return an error;
 * the default one exits the process. Ours jumps back to the walk's caller,
 * which reports PB_ENOMEM (and leaves the Dwarf unfreed: libdw's state is
 * unknown there). */
static _Thread_local jmp_buf *oom_jump;
static void libdw_oom(void) __attribute__((noreturn));
static void libdw_oom(void) { longjmp(*oom_jump, 1); }

int pbi_correlate_dwarf(pbi_correlation *c, void *elf, const char *path, const pbi_llvm_target *t,
                        unsigned max_warnings, pbi_corr_warn_fn warn, void *warn_ctx, pb_error *err) {
    walk w = {c, 0, 0, max_warnings, 0, 0, warn, warn_ctx, err, {0}};
    (void)dwarf_errno(); /* clears an earlier error */
    Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    volatile int rc = 0;
    if (!dw) {
        /* no DWARF at all reads as no probes, as in LLVM */
        const char *m = dwarf_errmsg(-1);
        if (m && strcmp(m, "no DWARF information") != 0) rc = libdw_failed(err);
    } else if (dwarf_errno() != 0) {
        /* libdw returns a handle even when an allocation failed while it
         * read the sections; walking it reads freed or missing data */
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        dwarf_end(dw);
    } else {
        jmp_buf jb;
        oom_jump = &jb;
        dwarf_new_oom_handler(dw, libdw_oom);
        if (setjmp(jb) == 0) {
            rc = walk_units(&w, dw);
            dwarf_end(dw);
        } else {
            /* the walk's frames are gone: their bitmap tables are freed here */
            for (size_t i = 0; i < sizeof w.bitmap_bufs / sizeof *w.bitmap_bufs; i++) free(w.bitmap_bufs[i]);
            rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        }
        oom_jump = NULL;
    }
    if (w.suppressed && warn) {
        char msg[64];
        snprintf(msg, sizeof msg, "Suppressed %lu additional warnings", w.suppressed);
        warn(warn_ctx, msg);
    }
    if (rc) {
        pb_error_set_source(err, path);
        return rc;
    }
    return c->nprobes == 0 ? no_probes(path, t, err) : 0;
}
