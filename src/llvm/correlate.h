/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * correlate.h -- what llvm-profdata's InstrProfCorrelator takes from an ELF
 * binary to read a "lightweight" raw profile (internal).
 *
 * Programs built with `-mllvm -profile-correlate=binary` (LLVM 18+) or
 * `-mllvm -profile-correlate=debug-info -g` (18+; `-mllvm
 * -debug-info-correlate` in 14-17) write raw profiles holding only their
 * counters: no data records, no names. The records and names are in the
 * binary:
 *
 *  - binary: section __llvm_covdata holds the data records (the raw
 *    layout of the compiler's version, CounterPtr the absolute address of
 *    the function's counters) and __llvm_covnames the names blob;
 *  - debug info: every `__profc_*` variable of a subprogram has
 *    DW_TAG_LLVM_annotation children "Function Name", "CFG Hash" and
 *    "Num Counters"; its DW_AT_location is the counters' address. A
 *    `__profbm_*` variable of the same subprogram ("Function Name", "Num
 *    BitmapBits") locates its MC/DC bitmap (clang 23+ emit it).
 *
 * Both need __llvm_prf_cnts's address range (counter addresses become
 * offsets into the counters the profile holds). This file reads ELF (libelf)
 * and DWARF (libdw) only; turning a correlation and a raw profile into
 * records is the raw plugin's business (formats/raw/raw_correlate.c), as
 * the record layout is raw_layout.h's.
 */
#ifndef PB_LLVM_CORRELATE_H
#define PB_LLVM_CORRELATE_H

#include <stddef.h>
#include <stdint.h>

#include "llvm/target.h"
#include "profbridge/error.h"

enum pbi_corr_kind { PBI_CORR_BINARY = 1, PBI_CORR_DEBUG_INFO = 2 };

/* One function found in the debug info (LLVM's "probe"). */
typedef struct pbi_corr_probe {
    uint64_t name_ref;       /* MD5 of the function name (IndexedInstrProf::ComputeHash) */
    uint64_t hash;           /* "CFG Hash" */
    uint64_t counter_offset; /* counters' address - start of __llvm_prf_cnts */
    uint64_t fn_ptr;         /* the subprogram's DW_AT_low_pc, or 0 */
    uint32_t num_counters;   /* "Num Counters" */
    uint64_t bitmap_offset;  /* the __profbm_ variable's address - start of __llvm_prf_bits */
    uint32_t num_bitmap_bytes; /* its "Num BitmapBits" in bytes; 0 without one */
    const char *name;        /* "Function Name", into pbi_correlation.strings */
    const char *linkage;     /* the subprogram's linkage name or NULL */
    const char *file;        /* DW_AT_decl_file's name or NULL */
    uint64_t line;           /* DW_AT_decl_line, 0 when absent */
} pbi_corr_probe;

typedef struct pbi_correlation {
    int kind;       /* enum pbi_corr_kind */
    unsigned ptr;   /* 4 (ELFCLASS32) or 8 (ELFCLASS64) */
    int order;      /* PB_ORDER_LE or PB_ORDER_BE (the ELF's data encoding) */
    uint64_t cnts_start, cnts_end; /* __llvm_prf_cnts's address range */
    uint64_t bits_start, bits_end; /* __llvm_prf_bits's (MC/DC bitmaps), 0 and 0 without one */
    /* binary: __llvm_covdata and __llvm_covnames, as stored */
    uint8_t *data;
    size_t data_len;
    uint8_t *names;
    size_t names_len;
    /* debug info: the probes in DWARF order, LLVM's warnings counted */
    pbi_corr_probe *probes;
    size_t nprobes;
    char **strings; /* owned copies the probes point into */
    size_t nstrings;
} pbi_correlation;

/* Called for each warning LLVM prints while correlating ("Incomplete DIE
 * for function f: ..."), text without "warning: ". */
typedef void (*pbi_corr_warn_fn)(void *ctx, const char *msg);

/* The input limits of pb_read_options (0: the default, PB_NO_LIMIT: none):
 * the ELF file's size plus every byte its SHF_COMPRESSED sections inflate
 * to (libelf and libdw inflate them whole) must stay within max_size, and a
 * compressed section may inflate at most max_inflation:1 once the inflated
 * total passes PB_INFLATION_FLOOR, as a gzip input. */
typedef struct pbi_corr_limits {
    uint64_t max_size, max_inflation;
} pbi_corr_limits;

/*
 * Reads what `kind` needs from the ELF file at `path`. Errors name the file
 * (err->source) and say what was expected, in llvm-profdata's words where it
 * has some ("could not find section (__llvm_prf_cnts)", "The file was not
 * recognized as a valid object file"), in release t's words (NULL: the
 * default release's). lim (NULL: the defaults) bounds what is read; past
 * it PB_ELIMIT, before anything is inflated. With max_warnings N > 0 at most N
 * warnings go to warn (then "Suppressed K additional warnings"), 0 means all.
 * Returns 0 or a negative PB_E*; *c is zeroed first and freed on error.
 */
int pbi_correlation_load(pbi_correlation *c, const char *path, int kind, const pbi_llvm_target *t,
                         const pbi_corr_limits *lim, unsigned max_warnings, pbi_corr_warn_fn warn, void *warn_ctx, pb_error *err);
void pbi_correlation_free(pbi_correlation *c);

/* The DWARF half (correlate_dwarf.c): fills c->probes from the open ELF
 * (an `Elf *` of libelf), counted against [cnts_start, cnts_end); t (NULL:
 * the default release) words its error. */
int pbi_correlate_dwarf(pbi_correlation *c, void *elf, const char *path, const pbi_llvm_target *t,
                        unsigned max_warnings, pbi_corr_warn_fn warn, void *warn_ctx, pb_error *err);

#endif
