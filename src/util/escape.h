/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * escape.h -- one escaping function per output kind (internal).
 *
 * Names in a profile are any bytes: an ESC, BEL or CR printed raw drives the
 * reader's terminal, a control byte makes an SVG ill-formed XML, a '<' runs
 * script in HTML. Every text taken from a profile (or a file name, a title)
 * that reaches one of these outputs goes through the function of its kind:
 *  - terminal text: pbu_esc_term,
 *  - SVG/XML and HTML: pbu_esc_markup (XML's and HTML's rules are the same
 *    for text and quoted attribute values),
 *  - JSON: json_text.h's pbu_json_put_text / pbu_json_put_text_member.
 * The llvm-profdata-identical listings (show/overlap of LLVM profiles,
 * everything through llvm-profdata-N) print the bytes llvm-profdata prints
 * and use none of these.
 */
#ifndef PB_ESCAPE_H
#define PB_ESCAPE_H

#include <stddef.h>

#include "util/buf.h"

/* Length of the well-formed UTF-8 sequence at s (n > 0 bytes left), 0 if
 * none (no overlongs, no surrogates, <= U+10FFFF). */
size_t pbu_utf8_seq(const unsigned char *s, size_t n);

/* 1 when the k-byte sequence at u (k from pbu_utf8_seq; 0: an invalid byte)
 * is one the escapers write as "\xNN": a C0 or C1 control, DEL, or not UTF-8. */
int pbu_esc_is_control(const unsigned char *u, size_t k);

/* Appends s[0..n) for a terminal: each byte 0x00-0x1F and 0x7F, each C1
 * control (U+0080-U+009F) byte and each byte that starts no valid UTF-8
 * sequence as the four characters "\xNN" (uppercase hex); everything else
 * copied. */
void pbu_esc_term(pb_buf *b, const void *s, size_t n);

/* Appends s[0..n) for XML/SVG/HTML text and double- or single-quoted
 * attributes: the bytes pbu_esc_term escapes as "\xNN" (XML 1.0 allows no
 * control character, not even as a reference), then & < > " ' as entities. */
void pbu_esc_markup(pb_buf *b, const void *s, size_t n);

/* Escapes the NUL-terminated `s` for a terminal in place into out[0..n)
 * (cut, NUL-terminated, when n is too small); returns out. For lines built
 * with snprintf that are then printed. */
char *pbu_esc_term_str(const char *s, char *out, size_t n);

#endif
