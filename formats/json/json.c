/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * json.c -- the "json" plugin: a documented, versioned JSON view of the model
 * (docs/json-model.md, schema docs/profbridge-model.schema.json). Lossless for
 * every format: anything a pb_profile holds is written and read back.
 */
#include <string.h>

#include "json_internal.h"

const pbi_json_flag pbi_json_flags[PBI_JSON_FLAG_COUNT] = {
    {PB_VARIANT_INSTR_LOOP_ENTRIES, "instrument_loop_entries"},
    {PB_VARIANT_IR, "ir"},
    {PB_VARIANT_CSIR, "csir"},
    {PB_VARIANT_ENTRY_FIRST, "entry_first"},
    {PB_VARIANT_DBG_CORRELATE, "debug_info_correlate"},
    {PB_VARIANT_BYTE_COVERAGE, "single_byte_coverage"},
    {PB_VARIANT_FUNCTION_ENTRY_ONLY, "function_entry_only"},
    {PB_VARIANT_MEMPROF, "memprof"},
    {PB_VARIANT_TEMPORAL, "temporal_prof_traces"},
};

const char *const pbi_json_kind_names[PB_REC_KIND_COUNT] = {
    "function", "javaCallCount", "javaBranch", "javaVirtualInvoke",
    "javaInstanceof", "javaMonitor", "javaSample",
};

const char *const pbi_json_value_kind_names[PB_VK_COUNT] = {"indirectCall", "memopSize", "vtable"};

/* Our files start with {"profbridge":"model" (whitespace allowed). */
static int json_probe(const uint8_t *head, size_t len) {
    size_t i = 0;
    while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) i++;
    if (i >= len || head[i] != '{') return 0;
    i++;
    while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) i++;
    static const char key[] = "\"profbridge\"";
    if (len - i < sizeof key - 1 || memcmp(head + i, key, sizeof key - 1) != 0) return 0;
    return (int)(i + sizeof key - 1);
}

static const char *const json_extensions[] = {".json", NULL};

const pb_format pbi_format_json = {
    .abi = PB_FORMAT_ABI,
    .name = "json",
    .description = "profbridge's JSON view of the model (lossless, documented in docs/json-model.md)",
    .family = PB_FAMILY_MODEL,
    .extensions = json_extensions,
    .probe = json_probe,
    .read = pbi_json_read,
    .write = pbi_json_write,
};
