/*
 * utf8 — UTF-8 well-formedness, and text made safe to show on a terminal.
 *
 * Everything hq stores and prints is UTF-8: the import writer refuses a
 * string that is not (hq_utf8_valid), JSON output writes U+FFFD for bytes
 * that are not (hq_buf_json_str), and what reaches a terminal — table
 * cells, warnings that echo a file's content or a file name — goes through
 * hq_utf8_escape(), which shows control characters (C0, DEL, C1) and
 * invalid bytes as escapes, so no byte of data can move the cursor, erase
 * a line or change colours. Nothing here allocates but the caller's buffer.
 */
#ifndef HQ_UTF8_H
#define HQ_UTF8_H

#include <stddef.h>

#include "hq/buf.h"

/* The length (1 to 4) of the well-formed UTF-8 character at p, within n
 * bytes; 0 when the bytes there are not one (a stray continuation byte,
 * an overlong form, a surrogate, past U+10FFFF, cut short). */
size_t hq_utf8_char(const unsigned char *p, size_t n);

/* 1 when the n bytes at s are well-formed UTF-8 (NUL included). */
int hq_utf8_valid(const char *s, size_t n);

/* Append s to b with what a terminal would act on escaped: \n \r \t,
 * other C0 controls and DEL as \xNN, C1 controls as \u00NN, bytes that are
 * not UTF-8 as \xNN. Everything else is copied as is. */
void hq_utf8_escape(struct hq_buf *b, const char *s);

/* The same into a fixed buffer of n bytes, cut short at a character. */
void hq_utf8_escape_to(char *buf, size_t n, const char *s);

#endif
