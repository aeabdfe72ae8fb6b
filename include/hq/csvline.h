/*
 * csvline — one line of comma-separated values, split in place; columns
 * found by their header names; strict numbers.
 *
 * RFC 4180 quoting within one line ("a ""b""", c); a quoted field that
 * runs past the end of the line is an error, as is text after a closing
 * quote. The fields point into the caller's line, which is modified
 * (quotes removed); nothing is allocated. The splitting is csv.c's, the
 * one CSV splitter (hq_csv_split_line); this file words its errors and
 * adds the columns by name.
 */
#ifndef HQ_CSVLINE_H
#define HQ_CSVLINE_H

#include <stddef.h>

#include "hq/err.h"

/* Split line (len bytes and a NUL after them; no line ending, a trailing
 * '\r' is dropped) at sep into at most max fields, each NUL-terminated and
 * trimmed of spaces outside quotes. Returns the number of fields, or -1
 * with e set (an unterminated quote, text after a quote, more than max
 * fields). */
int hq_csvline_split(char *line, size_t len, char sep, char **fields, int max,
    struct hq_err *e);

/* The index of name among the n header fields (case-insensitive, spaces
 * and '-' taken as '_'), or -1. */
int hq_csvline_column(char *const *fields, int n, const char *name);

#define HQ_CSVLINE_MAX_LINE 65536

#define HQ_CSVLINE_MAX_LINE 65536
#define HQ_CSVLINE_MAX_FIELDS 64

/* A file of rows under a header that names its columns (any order; other
 * columns ignored). The caller sets names and nrequired, zeroes the rest,
 * and feeds every line. */
struct hq_csvline_table {
	const char *const *names;   /* the columns a reader knows, NULL-ended */
	int nrequired;              /* the first nrequired must be there */
	int col[HQ_CSVLINE_MAX_FIELDS]; /* names[i] is field col[i], or -1 */
	int ncols;                  /* fields in the header; 0 before it */
	char *f[HQ_CSVLINE_MAX_FIELDS]; /* the current row, into the caller's line */
	int n;
};

/* One line (len bytes and a NUL): 1 a row in t->f, 0 nothing to do (the
 * header, a blank line), -1 with e set: a line over HQ_CSVLINE_MAX_LINE, a
 * quote, a header without a required column ("the header needs the
 * columns a, b (missing: b)"), a column named twice, a row with more or
 * fewer fields than the header. The first line loses a UTF-8 byte-order
 * mark. */
int hq_csvline_table_line(struct hq_csvline_table *t, char *line, size_t len,
    struct hq_err *e);
/* The current row's field of column names[which], or NULL (no such
 * column). */
const char *hq_csvline_table_get(const struct hq_csvline_table *t, int which);

/* Whether a first line (a byte-order mark allowed) is a header that names
 * every column of names (NULL-terminated). */
int hq_csvline_header_has(const char *line, size_t len, const char *const *names);

/* A plain decimal number, the whole of s (trailing spaces allowed):
 * digits, a point, an exponent; no hex, inf or nan as strtod would take.
 * 0, or -1. */
int hq_csvline_number(const char *s, double *out);

#endif
