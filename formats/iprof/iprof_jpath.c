/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof_jpath.c -- follows the structure of JSON text byte by byte so that a
 * syntax error at byte N can be given a JSON path ("methods[812]") as well as
 * jansson's line and column. It does not validate anything: jansson does.
 */
#include <stdio.h>
#include <string.h>

#include "iprof_int.h"

void pbi_jpath_init(pbi_jpath *t) { memset(t, 0, sizeof *t); }

static pbi_jpath_level *top(pbi_jpath *t) {
    return t->depth && t->depth <= PBI_JPATH_DEPTH ? &t->lv[t->depth - 1] : NULL;
}

static int is_num_char(uint8_t c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* String bytes from p[i] up to and past the closing quote, the key's bytes
 * kept when the string is a key; returns where feeding goes on. */
static size_t feed_string(pbi_jpath *t, const uint8_t *p, size_t i, size_t n) {
    pbi_jpath_level *l = t->string_is_key ? top(t) : NULL;
    /* Fast path: plain string bytes. */
    while (i < n) {
        uint8_t c = p[i];
        if (t->escape) {
            t->escape = 0;
        } else if (c == '\\') {
            t->escape = 1;
        } else if (c == '"') {
            break;
        }
        if (l) {
            if (l->key_len < PBI_JPATH_KEY) l->key[l->key_len++] = (char)c;
            else l->key_cut = 1;
        }
        i++;
    }
    if (i < n) { /* closing quote */
        t->in_string = 0;
        i++;
    }
    return i;
}

/* A byte of a number: kept as the last scalar token, for messages. */
static void feed_number(pbi_jpath *t, uint8_t c) {
    if (!t->in_num) {
        t->in_num = 1;
        t->tok_len = 0;
    }
    if (t->tok_len < sizeof t->tok - 1) t->tok[t->tok_len++] = (char)c;
}

/* A byte outside strings and numbers: a string starts, a level opens or
 * closes, a value or an element begins. */
static void feed_structure(pbi_jpath *t, uint8_t c) {
    pbi_jpath_level *l = top(t);
    switch (c) {
    case '"':
        t->in_string = 1;
        t->escape = 0;
        t->string_is_key = l && l->kind == '{' && !l->in_value;
        if (t->string_is_key) {
            l->key_len = 0;
            l->key_cut = 0;
        }
        break;
    case '{':
    case '[':
        t->depth++;
        if (t->depth <= PBI_JPATH_DEPTH) {
            l = &t->lv[t->depth - 1];
            l->kind = (char)c;
            l->in_value = 0;
            l->key_len = 0;
            l->key_cut = 0;
            l->index = 0;
        }
        break;
    case '}':
    case ']':
        if (t->depth) t->depth--;
        break;
    case ':':
        if (l && l->kind == '{') l->in_value = 1;
        break;
    case ',':
        if (l && l->kind == '[') l->index++;
        else if (l) l->in_value = 0;
        break;
    default:
        break;
    }
}

void pbi_jpath_feed(pbi_jpath *t, const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (t->in_string) {
            i = feed_string(t, p, i, n);
            continue;
        }
        uint8_t c = p[i++];
        if (is_num_char(c)) {
            feed_number(t, c);
            continue;
        }
        t->in_num = 0;
        feed_structure(t, c);
    }
    t->pos += n;
}

void pbi_jpath_render(const pbi_jpath *t, char *buf, size_t cap) {
    size_t k = 0;
    uint32_t d = t->depth < PBI_JPATH_DEPTH ? t->depth : PBI_JPATH_DEPTH;
    if (!cap) return;
    buf[0] = '\0';
    for (uint32_t i = 0; i < d && k + 1 < cap; i++) {
        const pbi_jpath_level *l = &t->lv[i];
        int w = 0;
        if (l->kind == '[') {
            w = snprintf(buf + k, cap - k, "[%llu]", (unsigned long long)l->index);
        } else if (l->in_value) {
            w = snprintf(buf + k, cap - k, "%s%.*s%s", k ? "." : "", (int)l->key_len, l->key,
                         l->key_cut ? "..." : "");
        } else {
            break; /* between members: the object itself is the place */
        }
        if (w < 0) break;
        k = k + (size_t)w >= cap ? cap - 1 : k + (size_t)w;
    }
    if (t->depth > PBI_JPATH_DEPTH && k + 4 < cap) {
        memcpy(buf + k, "...", 4);
    }
}

uint64_t pbi_jpath_array_index(const pbi_jpath *t) {
    if (!t->depth || t->depth > PBI_JPATH_DEPTH) return UINT64_MAX;
    const pbi_jpath_level *l = &t->lv[t->depth - 1];
    return l->kind == '[' ? l->index : UINT64_MAX;
}
