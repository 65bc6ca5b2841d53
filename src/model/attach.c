/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * attach.c -- the readers' caches left on a merge destination (attach.h):
 * a handful of (tag, data, free) slots, looked up by the tag's address.
 */
#include "model/attach.h"

#include <stdlib.h>

#include "model/profile_internal.h"
#include "util/grow.h"

void *pbi_profile_attached(const pb_profile *p, const void *tag) {
    for (size_t i = 0; p && i < p->num_att; i++)
        if (p->att[i].tag == tag) return p->att[i].data;
    return NULL;
}

int pbi_profile_attach(pb_profile *p, const void *tag, void *data, void (*free_fn)(void *)) {
    size_t i = 0;
    while (i < p->num_att && p->att[i].tag != tag) i++;
    if (i == p->num_att) {
        if (pbu_grow((void **)&p->att, &p->cap_att, i + 1, sizeof *p->att)) return PB_ENOMEM;
        p->num_att++;
    } else if (p->att[i].free_fn) {
        p->att[i].free_fn(p->att[i].data);
    }
    p->att[i].tag = tag;
    p->att[i].data = data;
    p->att[i].free_fn = free_fn;
    return 0;
}

void pbi_profile_detach_all(pb_profile *p) {
    for (size_t i = 0; i < p->num_att; i++)
        if (p->att[i].free_fn) p->att[i].free_fn(p->att[i].data);
    free(p->att);
    p->att = NULL;
    p->num_att = p->cap_att = 0;
}
