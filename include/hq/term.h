/*
 * term — text for a terminal: its width, and a piece of text cut to a
 * number of columns with control characters made visible (anything read
 * from a file or written by a model may hold them). Nothing here
 * allocates; the caller owns every buffer.
 */
#ifndef HQ_TERM_H
#define HQ_TERM_H

#include <stddef.h>

/* The columns of the terminal on fd; $COLUMNS when that cannot be asked;
 * else 80. Never less than 20. */
int hq_term_width(int fd);

/* Columns UTF-8 text takes: a code point is one column, an East Asian
 * wide one two, a combining mark none; a control character is shown as
 * '?' (one column). */
size_t hq_term_cols(const char *s);

/*
 * src into dst (n bytes) in at most cols columns: control characters
 * (line ends, tabs, escapes) as '?', and, when it does not fit, cut at a
 * character boundary with "…" at the end. Returns the columns written.
 */
size_t hq_term_fit(char *dst, size_t n, const char *src, size_t cols);

#endif
