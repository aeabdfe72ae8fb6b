/*
 * term — text from elsewhere (a model, a server, a file) made safe to
 * show on a terminal: every byte that could move the cursor, change
 * colours, reorder or hide text is written as an escape instead, so what
 * is shown is what the text says.
 *
 * Escaped: C0 controls and DEL (\r \n \t, else \xNN), bytes that are not
 * UTF-8 (\xNN), C1 controls, Unicode's bidirectional controls, line and
 * paragraph separators and invisible format characters (\uNNNN,
 * \UNNNNNNNN).
 *
 * Memory: the caller owns the buffer appended to.
 */
#ifndef HQ_TERM_H
#define HQ_TERM_H

#include <stddef.h>

#include "hq/buf.h"

enum {
	HQ_TERM_LINES = 1,	/* line feeds and tabs are kept as they are */
	HQ_TERM_BACKSLASH = 2,	/* a backslash is written \\, so escapes read back
				 * unambiguously (arguments, file names) */
};

/* Appends s[0..n) to b, escaped. */
void hq_term_escape(struct hq_buf *b, const char *s, size_t n, int flags);

/* b reset to s escaped, cut after about max bytes of s (at a character)
 * with "... (N bytes)" when longer; b->data ("" for NULL s). */
const char *hq_term_text(struct hq_buf *b, const char *s, size_t max, int flags);

#endif
