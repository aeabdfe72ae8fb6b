/*
 * utf8 — UTF-8 well-formedness (RFC 3629).
 *
 * Everything hq stores and prints is UTF-8: the import writer refuses a
 * string that is not (hq_utf8_valid), JSON output writes U+FFFD for bytes
 * that are not (hq_buf_json_str), and what reaches a terminal — table
 * cells, warnings that echo a file's content or a file name — goes through
 * term.h, which decodes with hq_utf8_decode(). Nothing here allocates.
 */
#ifndef HQ_UTF8_H
#define HQ_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"

/* The length (1 to 4) of the well-formed UTF-8 character at p, within n
 * bytes; 0 when the bytes there are not one (a stray continuation byte,
 * an overlong form, a surrogate, past U+10FFFF, cut short). */
size_t hq_utf8_char(const unsigned char *p, size_t n);

/* 1 when the n bytes at s are well-formed UTF-8 (NUL included). */
int hq_utf8_valid(const char *s, size_t n);

/* The string s as UTF-8 into buf (n bytes, NUL included): each byte that
 * is not part of a well-formed character becomes U+FFFD, and the copy is
 * cut at a character's end where buf is too short (a FIT file's product
 * name in Latin-1, or cut by its field's size). */
void hq_utf8_repair(const char *s, char *buf, size_t n);

/* UTF-16, as a GPX or TCX file may be written: which byte order the
 * first bytes show (a byte order mark, or an ASCII character as a 16-bit
 * unit), 0 when they are not UTF-16. */
enum { HQ_UTF16_LE = 1, HQ_UTF16_BE = 2 };
int hq_utf16_detect(const unsigned char *p, size_t n);
/* UTF-16 in that byte order into UTF-8, as a stream: the state carries a
 * byte or a high surrogate from one call to the next. n bytes at p into
 * out, which needs room for 3 * n / 2 + 8 bytes: the bytes written. An
 * unpaired surrogate becomes U+FFFD; a mark becomes U+FEFF (UTF-8's). */
struct hq_utf16 {
	int order;                   /* HQ_UTF16_LE or HQ_UTF16_BE */
	int have_byte;
	unsigned char byte;
	uint32_t high;               /* a high surrogate waiting */
};
size_t hq_utf16_decode(struct hq_utf16 *u, const unsigned char *p, size_t n,
    char *out);

/* hq_utf8_char() and the character's code point in *cp. */
size_t hq_utf8_decode(const unsigned char *p, size_t n, uint32_t *cp);

/* The rule of every reader of text (lines, CSV, JSON: hq-ingest's
 * formats but Apple's XML, which its filter cleans, and hq-correlate's
 * files): a NUL byte is refused, never read as the end of a string, which
 * would drop what follows it without a word. The n bytes at p, the first
 * of them on line *line of name: 0 with *line moved past their newlines,
 * or -1 with e "name:L: NUL byte: not a text file" (L the NUL's line). */
int hq_text_check(const void *p, size_t n, const char *name, long *line,
    struct hq_err *e);

#endif
