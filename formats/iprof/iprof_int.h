/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof_int.h -- internal declarations shared by the files of the iprof plugin
 * (GraalVM Native Image PGO profiles, spec: docs/iprof.md). Nothing here leaves
 * the plugin folder except through pbi_format_iprof.
 */
#ifndef PB_IPROF_INT_H
#define PB_IPROF_INT_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profile.h"
#include "profbridge/sys/format.h"

/* ---- versions (spec §1) ---- */
typedef enum pbi_iprof_layout {
    PBI_IPROF_LEGACY = 0, /* 0.2.0: typeName/methodName/methodBciList/...Points */
    PBI_IPROF_V1 = 1      /* 0.4.0, 1.0.0, 1.1.0: ctx/records sections */
} pbi_iprof_layout;

typedef struct pbi_iprof_version {
    const char *text;         /* "1.1.0" */
    pbi_iprof_layout layout;
    int has_instanceof;       /* 1: instanceOfProfiles allowed (1.1.0) */
} pbi_iprof_version;

/* The versions we know, one row each (tripwire in the tests: 4 rows). */
extern const pbi_iprof_version pbi_iprof_versions[];
extern const size_t pbi_iprof_version_count;
/* Row for `text`, or NULL. */
const pbi_iprof_version *pbi_iprof_version_find(const char *text, size_t len);
/* major*10000+minor*100+patch for "a.b.c" (each part saturates at 99); 0 when
 * the text is not three dot-separated decimal numbers. */
uint64_t pbi_iprof_version_number(const char *text, size_t len);
/* 1 if text matches ^[0-9]+\.[0-9]+\.[0-9]+$ */
int pbi_iprof_version_well_formed(const char *text, size_t len);

/* ---- profile sections: one row per section (spec §3.4-3.9) ---- */
typedef enum pbi_iprof_shape {
    PBI_SHAPE_COUNT,  /* records = [count] */
    PBI_SHAPE_BRANCH, /* records = (succBci, index, count)* */
    PBI_SHAPE_TYPES   /* records = (typeId, count)* */
} pbi_iprof_shape;

typedef enum pbi_iprof_ctx_rule {
    PBI_CTX_ANY,        /* ^[0-9]+:-?[0-9]+(<[0-9]+:-?[0-9]+)*$ */
    PBI_CTX_ENTRY,      /* first frame's BCI is literally "0" */
    PBI_CTX_MONITOR     /* exactly "0:0" */
} pbi_iprof_ctx_rule;

typedef struct pbi_iprof_section {
    const char *key;        /* 1.x key ("callCountProfiles") */
    const char *legacy_key; /* 0.2.0 key ("hotnessPoints") or NULL */
    uint8_t kind;           /* enum pb_record_kind */
    pbi_iprof_shape shape;
    pbi_iprof_ctx_rule ctx_rule;
} pbi_iprof_section;

/* In the order the writer emits them (spec §5, 1.0.0/1.1.0 order). */
extern const pbi_iprof_section pbi_iprof_sections[];
extern const size_t pbi_iprof_section_count;

#include "iprof_map.h"

/* The rules both readers (iprof_stream.c, iprof_read.c) build the model by:
 * counts add saturating at PB_MAX_COUNT_IPROF, and a site's values sort by
 * value, then count, so that the two paths give the same model. */
static inline uint64_t pbi_iprof_sat_add(uint64_t a, uint64_t b) {
    uint64_t s = a + b;
    return (s < a || s > PB_MAX_COUNT_IPROF) ? PB_MAX_COUNT_IPROF : s;
}

static inline int pbi_iprof_cmp_value(const void *a, const void *b) {
    const pb_value *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    if (x->count != y->count) return x->count < y->count ? -1 : 1;
    return 0;
}

/* ---- context strings ("m:b<m:b", spec §3) ---- */
typedef struct pbi_ctx_frame {
    int64_t method; /* >= 0 */
    int32_t bci;
} pbi_ctx_frame;

typedef enum pbi_ctx_status {
    PBI_CTX_OK = 0,
    PBI_CTX_SYNTAX,       /* breaks the grammar; *bad = character index */
    PBI_CTX_RANGE_METHOD, /* method id does not fit in 32 bits */
    PBI_CTX_RANGE_BCI,    /* BCI does not fit in 32 bits */
    PBI_CTX_ENTRY_BCI,    /* call-count rule: first BCI must be "0" */
    PBI_CTX_MONITOR_CTX   /* monitor rule: exactly "0:0" */
} pbi_ctx_status;

/* Parses `s` (len bytes) with frame separator `sep` ('<', or ',' for 0.2.0).
 * Frames go to *frames (grown with realloc, *cap its capacity), *n their
 * number. Returns a pbi_ctx_status, or PB_ENOMEM (negative). */
int pbi_ctx_parse(const char *s, size_t len, char sep, pbi_iprof_ctx_rule rule,
                  pbi_ctx_frame **frames, size_t *cap, size_t *n, size_t *bad);

/* ---- JSON path tracker for syntax errors ---- */
#define PBI_JPATH_DEPTH 12
#define PBI_JPATH_KEY 64
typedef struct pbi_jpath_level {
    char kind;          /* '{' or '[' */
    uint8_t in_value;   /* object: after ':' */
    uint8_t key_len;    /* bytes captured of the current key */
    uint8_t key_cut;    /* key longer than PBI_JPATH_KEY */
    uint64_t index;     /* array: current element */
    char key[PBI_JPATH_KEY];
} pbi_jpath_level;

typedef struct pbi_jpath {
    uint64_t pos;       /* bytes consumed */
    uint32_t depth;     /* may exceed PBI_JPATH_DEPTH; deeper levels are not kept */
    uint8_t in_string, escape, string_is_key, in_num;
    uint8_t tok_len;    /* last scalar token (numbers), for messages */
    char tok[40];
    pbi_jpath_level lv[PBI_JPATH_DEPTH];
} pbi_jpath;

void pbi_jpath_init(pbi_jpath *t);
void pbi_jpath_feed(pbi_jpath *t, const uint8_t *p, size_t n);
/* Renders "methods[812].signature" into buf (always terminated). */
void pbi_jpath_render(const pbi_jpath *t, char *buf, size_t cap);
/* Index of the innermost array element (UINT64_MAX when not in an array). */
uint64_t pbi_jpath_array_index(const pbi_jpath *t);

/* ---- read / write entry points ---- */
/* The reader: the streaming fast path when the source can be read again,
 * else (or when the fast path gives up) the tree reader. */
int pbi_iprof_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err);
/* The tree reader (iprof_read.c): jansson's tree, then the model; every
 * rule, message, lenient repair and report-all lives here. Returns what
 * pbi_iprof_read returns. */
int pbi_iprof_read_tree(pb_profile **out, pb_source *in, const pb_read_options *o,
                        pb_error *err);
/* The streaming fast path (iprof_stream.c), for files that break no rule:
 * returns 0 and *out (the model the tree reader would build from the same
 * bytes, in any mode), PB_ENOMEM (err says so), or PBI_IPROF_STREAM_OTHER
 * when the input holds anything else (a syntax error, a rule broken, a
 * lenient repair, a notice, the 0.2.0 layout, members in another order, a
 * read error): nothing reported, *out NULL, err untouched, and the source
 * must be rewound for the tree reader. */
#define PBI_IPROF_STREAM_OTHER 1000
int pbi_iprof_stream_read(pb_profile **out, pb_source *in, pb_error *err);
int pbi_iprof_write(const pb_profile *p, pb_sink *out, const pb_write_options *o,
                    pb_error *err);
int pbi_iprof_probe(const uint8_t *head, size_t len);

#endif
