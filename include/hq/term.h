/*
 * term — text for a terminal. Text from elsewhere (a model, a server, a
 * file) made safe to show: every byte that could move the cursor, change
 * colours, reorder or hide text is written as an escape or a '?' instead,
 * so what is shown is what the text says. And the terminal's width, with
 * text cut to a number of columns.
 *
 * hq_term_escape() escapes: C0 controls and DEL (\r \n \t, else \xNN),
 * bytes that are not UTF-8 (\xNN), C1 controls, Unicode's bidirectional
 * controls, line and paragraph separators and invisible format characters
 * (\uNNNN, \UNNNNNNNN). hq_term_fit() shows each of those as '?' (one
 * column), for tables where an escape would not fit.
 *
 * Memory: the caller owns every buffer (struct hq_buf appended to, or a
 * char array of n bytes).
 */
#ifndef HQ_TERM_H
#define HQ_TERM_H

#include <stddef.h>
#include <stdio.h>

#include "hq/buf.h"

enum {
	HQ_TERM_LINES = 1,	/* line feeds and tabs are kept as they are */
	HQ_TERM_BACKSLASH = 2,	/* a backslash is written \\, so escapes read back
				 * unambiguously (arguments, file names) */
};

/* Appends s[0..n) to b, escaped. */
void hq_term_escape(struct hq_buf *b, const char *s, size_t n, int flags);

/* s escaped (flags 0) into buf of n bytes, cut short at a whole
 * character or escape. */
void hq_term_escape_to(char *buf, size_t n, const char *s);

/* b reset to s escaped, cut after about max bytes of s (at a character)
 * with "... (N bytes)" when longer; b->data ("" for NULL s). */
const char *hq_term_text(struct hq_buf *b, const char *s, size_t max, int flags);

/* A field's content quoted in a message (issue 23): at most
 * HQ_TERM_EXCERPT characters of s, escaped (HQ_TERM_BACKSLASH), then
 * "..." when s goes on; into buf of n bytes (HQ_TERM_EXCERPT_SIZE holds
 * any), returned. An error about a file's content quotes no more of it:
 * a file named by a model must not come back to the model, or to a remote
 * provider, through the messages. */
#define HQ_TERM_EXCERPT 40
#define HQ_TERM_EXCERPT_SIZE (HQ_TERM_EXCERPT * 11 + 4)
const char *hq_term_excerpt(char *buf, size_t n, const char *s);
/* The columns of the terminal on fd; $COLUMNS when that cannot be asked;
 * else 80. Never less than 20. */
int hq_term_width(int fd);

/* Columns UTF-8 text takes: a code point is one column, an East Asian
 * wide one two, a combining mark none; a control or hidden character, or
 * a byte that is not UTF-8, is shown as '?' (one column). */
size_t hq_term_cols(const char *s);

/*
 * src into dst (n bytes) in at most cols columns: control and hidden
 * characters (line ends, tabs, escapes, bidi controls) as '?', and, when
 * it does not fit, cut at a character boundary with "…" at the end.
 * Returns the columns written.
 */
size_t hq_term_fit(char *dst, size_t n, const char *src, size_t cols);

/*
 * text to fp wrapped at spaces to width columns: label padded to indent
 * columns starts it (and each line after a line end of text, as spaces),
 * a line the wrapping starts is indented hang columns. Characters shown
 * as by hq_term_fit; a word wider than its line is cut with "…". An
 * operator standing alone ("=", "<", ">=") keeps the words either side on
 * its line: "p = 0.0069" and "n = 12" are never broken.
 */
void hq_term_wrap(FILE *fp, const char *label, size_t indent, size_t hang,
    const char *text, size_t width);

#endif
