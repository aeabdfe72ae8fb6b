#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/csv.h"
#include "hq/csvline.h"

int
hq_csvline_split(char *line, size_t len, char sep, char **fields, int max,
    struct hq_err *e)
{
	struct hq_csv_line_err err;
	int n;

	if (len && line[len - 1] == '\r')
		len--;
	if ((n = hq_csv_split_line(line, len, sep, fields,
	    max > 0 ? (size_t)max : 0, &err)) >= 0)
		return n;
	if (err.kind == HQ_CSV_UNCLOSED)
		hq_err_set(e, "field %d: quote not closed on this line", err.field);
	else if (err.kind == HQ_CSV_AFTER_QUOTE)
		hq_err_set(e, "field %d: text after the closing quote", err.field);
	else
		hq_err_set(e, "more than %d fields", max);
	return -1;
}

int
hq_csvline_column(char *const *fields, int n, const char *name)
{
	for (int i = 0; i < n; i++) {
		const char *a = fields[i], *b = name;
		for (; *a && *b; a++, b++) {
			int ca = tolower((unsigned char)*a);
			if (ca == ' ' || ca == '-')
				ca = '_';
			if (ca != *b)
				break;
		}
		if (!*a && !*b)
			return i;
	}
	return -1;
}

int
hq_csvline_number(const char *s, double *out)
{
	const char *p = s;
	char *end;
	int digits = 0, points = 0;

	if (*p == '+' || *p == '-')
		p++;
	for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
		digits += isdigit((unsigned char)*p) != 0;
		points += *p == '.';
	}
	if (!digits || points > 1)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	while (*p == ' ')
		p++;
	if (*p)
		return -1;
	*out = strtod(s, &end);
	return isfinite(*out) ? 0 : -1;
}

/* The first line loses a byte-order mark; a line too long is an error. */
static int
line_start(char **line, size_t *len, int first, struct hq_err *e)
{
	if (*len > HQ_CSVLINE_MAX_LINE) {
		hq_err_set(e, "line longer than %d bytes", HQ_CSVLINE_MAX_LINE);
		return -1;
	}
	if (first && *len >= 3 && memcmp(*line, "\xEF\xBB\xBF", 3) == 0) {
		*line += 3;
		*len -= 3;
	}
	return 0;
}

static int
table_header(struct hq_csvline_table *t, struct hq_err *e)
{
	char missing[256] = "", want[256] = "";

	for (int i = 0; t->names[i] && i < HQ_CSVLINE_MAX_FIELDS; i++) {
		const char *name = t->names[i];
		t->col[i] = hq_csvline_column(t->f, t->n, name);
		if (t->col[i] >= 0 && hq_csvline_column(t->f + t->col[i] + 1,
		    t->n - t->col[i] - 1, name) >= 0) {
			hq_err_set(e, "column '%s' given twice", name);
			return -1;
		}
		if (i >= t->nrequired)
			continue;
		size_t k = strlen(want);
		snprintf(want + k, sizeof want - k, "%s%s", k ? ", " : "", name);
		if (t->col[i] < 0) {
			k = strlen(missing);
			snprintf(missing + k, sizeof missing - k, "%s%s",
			    k ? ", " : "", name);
		}
	}
	if (missing[0]) {
		hq_err_set(e, "the header needs the columns %s (missing: %s)", want,
		    missing);
		return -1;
	}
	t->ncols = t->n;
	return 0;
}

int
hq_csvline_table_line(struct hq_csvline_table *t, char *line, size_t len,
    struct hq_err *e)
{
	if (line_start(&line, &len, !t->ncols, e) ||
	    (t->n = hq_csvline_split(line, len, ',', t->f, HQ_CSVLINE_MAX_FIELDS, e)) < 0)
		return -1;
	if (!t->ncols)
		return table_header(t, e) ? -1 : 0;
	if (t->n == 1 && !t->f[0][0])
		return 0;   /* a blank line */
	if (t->n != t->ncols) {
		hq_err_set(e, "%d fields, the header has %d", t->n, t->ncols);
		return -1;
	}
	return 1;
}

const char *
hq_csvline_table_get(const struct hq_csvline_table *t, int which)
{
	int i = t->col[which];

	return i >= 0 && i < t->n ? t->f[i] : NULL;
}

int
hq_csvline_header_has(const char *line, size_t len, const char *const *names)
{
	char buf[1024], *f[64], *p = buf;
	struct hq_err e;
	int n;

	if (len >= sizeof buf)
		return 0;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (line_start(&p, &len, 1, &e) ||
	    (n = hq_csvline_split(p, len, ',', f, 64, &e)) < 0)
		return 0;
	for (; *names; names++)
		if (hq_csvline_column(f, n, *names) < 0)
			return 0;
	return 1;
}
