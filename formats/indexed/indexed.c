/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed.c -- the descriptor of the LLVM indexed-profile plugin (.profdata).
 * Layout: indexed_layout.h; structure walk: indexed_file.c; model reader:
 * indexed_read.c; writer: indexed_write.c; dump: indexed_dump.c.
 */
#include "indexed_internal.h"

/* The magic is 8 bytes of evidence; the version is not checked here so that
 * an unknown version gets a precise PB_EVERSION from the reader. */
static int indexed_probe(const uint8_t *head, size_t len) {
    static const uint8_t magic[8] = {0xff, 0x6c, 0x70, 0x72, 0x6f, 0x66, 0x69, 0x81};
    if (len < 8) return 0;
    for (int i = 0; i < 8; i++)
        if (head[i] != magic[i]) return 0;
    return 8;
}

static const char *const indexed_extensions[] = {".profdata", NULL};

static const pb_option_desc indexed_write_options[] = {
    {"indexed-version", "N", "write indexed version N (4-14; default: the LLVM release's, 12 for 19)"},
    {"keep-vtable-symbols", NULL, "write the vtable names (default; = llvm-profdata-19 --keep-vtable-symbols)"},
    {"no-keep-vtable-symbols", NULL, "write an empty vtable-names section (llvm-profdata's default)"},
    {"sparse", NULL, "leave out names whose records are all zero (llvm-profdata --sparse)"},
    {"order", "auto|llvm|preserve", "key and record order: as llvm-profdata's containers, as read, or auto "
                                    "(as read from an indexed file, else llvm's; docs/indexed.md)"},
    {NULL, NULL, NULL}};

const pb_format pbi_format_indexed = {
    .abi = PB_FORMAT_ABI,
    .name = "indexed",
    .description = "LLVM indexed instrumentation profile (.profdata), versions 1-14",
    .family = PB_FAMILY_LLVM,
    .form = PB_FORM_INDEXED,
    .version_option = "indexed-version",
    .extensions = indexed_extensions,
    .probe = indexed_probe,
    .read = pbi_indexed_read,
    .write = pbi_indexed_write,
    .dump = pbi_indexed_dump,
    .write_options = indexed_write_options,
    .prepare = pbi_indexed_prepare,
    .read_prepared = pbi_indexed_read_prepared,
    .free_prepared = pbi_indexed_free_prepared,
    .visit = pbi_indexed_visit,
    .llvm_claims = pbi_indexed_llvm_claims,
    .llvm_words = pbi_indexed_llvm_words,
};
