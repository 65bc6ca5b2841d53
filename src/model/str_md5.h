/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * str_md5.h -- what a reader of names (raw) hands the model's string table:
 * the MD5 NameRef of each string, computed once, and the decoded names
 * themselves, not copied (internal).
 *
 * A raw profile's reader computes the NameRef of every name to match its
 * data records; the indexed writer needs the same value as each key's hash.
 * MD5 of 100k 150-byte C++ names was a third of a raw -> indexed conversion
 * (callgrind, bench/shapes.sh cxx: 430M of 1213M instructions, half of it the
 * writer hashing again), so readers note what they computed and writers ask.
 */
#ifndef PB_STR_MD5_H
#define PB_STR_MD5_H

#include <stdint.h>

#include "profbridge/profile.h"

/* pb_md5_ref of string id's bytes, from the note when there is one. */
uint64_t pbi_profile_str_md5(const pb_profile *p, pb_str id);
/* The noted MD5 of the string bytes[0..len) when p holds that string and
 * its note, else 0 (unknown: the caller hashes). The name of p's record
 * `hint` is compared first: inputs of one program list their keys in one
 * order, so a merge's k-th key is usually its destination's k-th record.
 * For a merge of .profdata inputs: a key already in the destination needs
 * no MD5 to check its stored hash (a fifth of the merge, callgrind). */
uint64_t pbi_profile_known_str_md5(const pb_profile *p, const void *bytes, size_t len, size_t hint);
/* Notes md5 = pb_md5_ref(string id) (the caller computed it from the same
 * bytes). Without memory for the note, nothing is noted: harmless. */
void pbi_profile_note_str_md5(pb_profile *p, pb_str id, uint64_t md5);

/* The full pb_md5_ref of the name pb_profile_record_name rendered for Java
 * record i (its cache keeps it; that function gives the masked hash), so
 * the indexed writer's key hash is not a second MD5 of a long rendered name
 * (iprof -> indexed: MD5 was a quarter of the time, half of it hashing
 * again). A name the cache lacks is rendered, hashed and cached then;
 * 0 when i is no record or its name cannot be rendered. */
uint64_t pbi_profile_record_name_md5(const pb_profile *p, size_t i);

/* Renders every Java record's name pb_profile_record_name would render
 * and is not cached yet, and hashes them on two threads where the machine
 * has two cores (rname_md5.h): the writer of indexed files, which asks
 * for every name and NameRef, then finds them cached. Never fails:
 * without memory, or at a name that cannot be rendered, it stops, and
 * pb_profile_record_name renders (or reports) the rest one by one. */
void pbi_profile_render_names(const pb_profile *p);

/* When p has no strings yet, gives its string table the malloc'ed block
 * holding NUL-terminated names at bytes[0..n) (pbu_intern_adopt): names
 * interned from there afterwards are not copied. Returns 0, or nonzero when
 * p keeps nothing (strings already there, no memory: the caller frees). */
int pbi_profile_adopt_strs(pb_profile *p, void *block, const char *bytes, size_t n);

/* Interns a string the caller knows p does not hold (pbu_intern_add_new:
 * a raw reader's names, distinct by their MD5, into a table that had no
 * strings): *out = its new id. Its lookup slot is made by the next
 * pb_profile_intern or lookup. Returns 0, or PB_ENOMEM / PB_EINVAL (err
 * set), p unchanged. */
int pbi_profile_intern_new(pb_profile *p, const void *bytes, size_t len, pb_str *out, pb_error *err);
/* The number of strings p holds (pbi_profile_intern_new needs none there). */
size_t pbi_profile_str_count(const pb_profile *p);

#endif
