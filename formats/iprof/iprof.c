/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof.c -- the iprof plugin's descriptor, its version and section tables,
 * and the content probe.
 */
#include <string.h>

#include "iprof_int.h"

/* One row per version we can read (spec §1). 0.4.0 has the 1.0.0 keys. */
const pbi_iprof_version pbi_iprof_versions[] = {
    {"0.2.0", PBI_IPROF_LEGACY, 0},
    {"0.4.0", PBI_IPROF_V1, 0},
    {"1.0.0", PBI_IPROF_V1, 0},
    {"1.1.0", PBI_IPROF_V1, 1},
};
const size_t pbi_iprof_version_count = sizeof pbi_iprof_versions / sizeof pbi_iprof_versions[0];

/* Sections in the order GraalVM 1.0.0/1.1.0 writes them (spec §5). */
const pbi_iprof_section pbi_iprof_sections[] = {
    {"callCountProfiles", "hotnessPoints", PB_REC_JAVA_CALL_COUNT, PBI_SHAPE_COUNT, PBI_CTX_ENTRY},
    {"conditionalProfiles", "conditionalPoints", PB_REC_JAVA_BRANCH, PBI_SHAPE_BRANCH, PBI_CTX_ANY},
    {"virtualInvokeProfiles", "invokePoints", PB_REC_JAVA_VIRTUAL_INVOKE, PBI_SHAPE_TYPES,
     PBI_CTX_ANY},
    {"monitorProfiles", NULL, PB_REC_JAVA_MONITOR, PBI_SHAPE_TYPES, PBI_CTX_MONITOR},
    {"samplingProfiles", NULL, PB_REC_JAVA_SAMPLE, PBI_SHAPE_COUNT, PBI_CTX_ANY},
    {"instanceOfProfiles", NULL, PB_REC_JAVA_INSTANCEOF, PBI_SHAPE_TYPES, PBI_CTX_ANY},
};
const size_t pbi_iprof_section_count = sizeof pbi_iprof_sections / sizeof pbi_iprof_sections[0];

const pbi_iprof_version *pbi_iprof_version_find(const char *text, size_t len) {
    for (size_t i = 0; i < pbi_iprof_version_count; i++)
        if (strlen(pbi_iprof_versions[i].text) == len &&
            memcmp(pbi_iprof_versions[i].text, text, len) == 0)
            return &pbi_iprof_versions[i];
    return NULL;
}

int pbi_iprof_version_well_formed(const char *text, size_t len) {
    int parts = 0;
    size_t digits = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] >= '0' && text[i] <= '9') {
            digits++;
        } else if (text[i] == '.' && digits > 0 && parts < 2) {
            parts++;
            digits = 0;
        } else {
            return 0;
        }
    }
    return parts == 2 && digits > 0;
}

uint64_t pbi_iprof_version_number(const char *text, size_t len) {
    if (!pbi_iprof_version_well_formed(text, len)) return 0;
    uint64_t part[3] = {0, 0, 0};
    int k = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '.') {
            k++;
        } else {
            part[k] = part[k] * 10 + (uint64_t)(text[i] - '0');
            if (part[k] > 99) part[k] = 99; /* keeps the packing unambiguous */
        }
    }
    return part[0] * 10000 + part[1] * 100 + part[2];
}

/* ---- probe -------------------------------------------------------------- */

/* Top-level keys of every iprof layout; each one found as `"key":` is evidence. */
static const char *const probe_keys[] = {
    "version", "types", "methods", "callCountProfiles", "conditionalProfiles",
    "virtualInvokeProfiles", "monitorProfiles", "samplingProfiles", "instanceOfProfiles",
    "instanceofProfiles", "hotnessPoints", "conditionalPoints", "invokePoints",
    "monitorsProfile", "typeName", "methodName", "methodBciList", "signature", NULL};

static size_t skip_ws(const uint8_t *h, size_t len, size_t i) {
    while (i < len && (h[i] == ' ' || h[i] == '\t' || h[i] == '\n' || h[i] == '\r')) i++;
    return i;
}

/* 1 if `"key"` followed by optional whitespace and ':' occurs in the head. */
static int has_key(const uint8_t *h, size_t len, const char *key) {
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl + 2 <= len; i++) {
        if (h[i] != '"' || memcmp(h + i + 1, key, kl) != 0 || h[i + 1 + kl] != '"') continue;
        size_t j = skip_ws(h, len, i + kl + 2);
        if (j < len && h[j] == ':') return 1;
    }
    return 0;
}

int pbi_iprof_probe(const uint8_t *head, size_t len) {
    size_t i = 0;
    if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF) i = 3;
    i = skip_ws(head, len, i);
    if (i >= len || head[i] != '{') return 0;
    /* The json model view writes {"profbridge": ...}: never ours. */
    size_t j = skip_ws(head, len, i + 1);
    static const char pbkey[] = "\"profbridge\"";
    if (len - j >= sizeof pbkey - 1 && memcmp(head + j, pbkey, sizeof pbkey - 1) == 0) return 0;
    int bid = 0, top = 0;
    for (size_t k = 0; probe_keys[k]; k++) {
        if (!has_key(head, len, probe_keys[k])) continue;
        bid += (int)strlen(probe_keys[k]) + 3;
        if (k < 14) top++; /* the first 14 keys are top-level iprof keys */
    }
    if (!top) return 0;
    return bid + (int)i + 1;
}

static const char *const iprof_extensions[] = {".iprof.gz", ".iprof", NULL};

static const pb_option_desc iprof_write_options[] = {
    {"iprof-version", "V", "write this iprof version (1.0.0, 1.1.0, 0.4.0)"},
    {NULL, NULL, NULL}};

const pb_format pbi_format_iprof = {
    .abi = PB_FORMAT_ABI,
    .name = "iprof",
    .description = "GraalVM Native Image PGO profile (JSON, versions 0.2.0, 0.4.0, 1.0.0, 1.1.0)",
    .family = PB_FAMILY_JAVA,
    .version_option = "iprof-version",
    .extensions = iprof_extensions,
    .probe = pbi_iprof_probe,
    .read = pbi_iprof_read,
    .write = pbi_iprof_write,
    .write_options = iprof_write_options,
};
