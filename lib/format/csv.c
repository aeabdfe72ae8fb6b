#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/csv.h"
#include "hq/utf8.h"

#define IBUF 65536

enum { END = -1, FAIL = -2 };

/*
 * The one CSV splitter: a record's fields out of bytes at hand, those of
 * a stream (struct hq_csv, which refills them) or of one line split in
 * place (hq_csv_split_line, for csvline.c). The fields are written to
 * rec, NUL-terminated, and fld[i] points at each; in place, rec is the
 * line itself (what is written never passes what is read).
 *
 * A record (the stream's dialect): fields separated by sep, a field that
 * starts with '"' quoted ("" a quote, line breaks inside counted), text
 * after a closing quote, a NUL byte, more than max_fields fields or more
 * than max_bytes bytes an error; it ends at CR, LF or the end. A line
 * (line_mode, csvline's dialect): the whole of the bytes is one record,
 * whose line breaks and NULs are bytes like any other, and spaces and
 * tabs around a field (outside its quotes) are dropped.
 */
struct scan {
	const unsigned char *buf;   /* bytes at hand: buf[pos..len) */
	size_t pos, len;
	struct hq_csv *more;        /* refills buf; NULL: all is at hand */
	char sep;
	int line_mode;
	size_t max_fields, max_bytes;
	long line;                  /* the current physical line */
	long rec_line;              /* where the current record starts */
	char *rec;                  /* fields, each NUL-terminated */
	size_t reclen;
	char **fld;
	size_t nfields;
	/* what went wrong (a read error: none, e set) */
	int err;
	long err_line;
};

enum { E_NONE, E_UNCLOSED, E_AFTER_QUOTE, E_NUL, E_FIELDS, E_LONG };

struct hq_csv {
	const char *name;
	hq_csv_read_fn *read;
	void *arg;
	unsigned char ibuf[IBUF];
	struct scan s;              /* s.buf is ibuf */
	int eof, started;
	uint64_t bytes;
};

struct hq_csv *
hq_csv_new(const char *name, hq_csv_read_fn *read, void *arg, char sep)
{
	struct hq_csv *c = hq_xcalloc(1, sizeof *c);

	c->name = name;
	c->read = read;
	c->arg = arg;
	c->s = (struct scan){ .buf = c->ibuf, .more = c, .sep = sep,
	    .max_fields = HQ_CSV_MAX_FIELDS, .max_bytes = HQ_CSV_MAX_RECORD,
	    .line = 1 };
	c->s.rec = hq_xmalloc(HQ_CSV_MAX_RECORD + HQ_CSV_MAX_FIELDS + 1);
	c->s.fld = hq_xmalloc(HQ_CSV_MAX_FIELDS * sizeof *c->s.fld);
	return c;
}

void
hq_csv_free(struct hq_csv *c)
{
	if (!c)
		return;
	free(c->s.rec);
	free(c->s.fld);
	free(c);
}

/* Read more into the buffer, keeping what is unread. 0, or FAIL. */
static int
fill(struct hq_csv *c, struct hq_err *e)
{
	struct scan *s = &c->s;
	ssize_t n;

	if (c->eof)
		return 0;
	if (s->pos > 0) {
		memmove(c->ibuf, c->ibuf + s->pos, s->len - s->pos);
		s->len -= s->pos;
		s->pos = 0;
	}
	if (s->len == IBUF)
		return 0;
	do
		n = c->read(c->arg, c->ibuf + s->len, IBUF - s->len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		hq_err_set(e, "%s: %s", c->name, strerror(errno));
		return FAIL;
	}
	if (n == 0)
		c->eof = 1;
	s->len += (size_t)n;
	c->bytes += (uint64_t)n;
	return 0;
}

static int
peekc(struct scan *s, struct hq_err *e)
{
	if (s->pos == s->len) {
		if (!s->more)
			return END;
		s->pos = s->len = 0;
		if (fill(s->more, e))
			return FAIL;
		if (s->len == 0)
			return END;
	}
	return s->buf[s->pos];
}

/* Skip the byte order mark; with no separator given, count ',' and ';'
 * outside quotes in the first line the buffer holds. */
static int
start(struct hq_csv *c, struct hq_err *e)
{
	struct scan *s = &c->s;
	size_t commas = 0, semis = 0;
	int quoted = 0;

	c->started = 1;
	while (!c->eof && s->len < IBUF)
		if (fill(c, e))
			return FAIL;
	if (s->len >= 3 && memcmp(c->ibuf, "\xEF\xBB\xBF", 3) == 0)
		s->pos = 3;
	if (s->sep)
		return 0;
	for (size_t i = s->pos; i < s->len; i++) {
		unsigned char ch = c->ibuf[i];
		if (ch == '"')
			quoted = !quoted;
		else if (!quoted && (ch == '\n' || ch == '\r'))
			break;
		else if (!quoted && ch == ',')
			commas++;
		else if (!quoted && ch == ';')
			semis++;
	}
	s->sep = semis > commas ? ';' : ',';
	return 0;
}

static int
fail(struct scan *s, int err, long line)
{
	s->err = err;
	s->err_line = line;
	return -1;
}

/* Append a byte to the current field. */
static int
put(struct scan *s, int ch)
{
	if (s->reclen - s->nfields >= s->max_bytes)
		return fail(s, E_LONG, s->rec_line);
	s->rec[s->reclen++] = (char)ch;
	return 0;
}

/* Whether ch ends a record (in a line, nothing does but the end). */
static int
ends(const struct scan *s, int ch)
{
	return ch == END || ch == s->sep ||
	    (!s->line_mode && (ch == '\n' || ch == '\r'));
}

/* Spaces and tabs around a field, in a line. FAIL, or the byte after. */
static int
skip_blanks(struct scan *s, int ch, struct hq_err *e)
{
	while (s->line_mode && (ch == ' ' || ch == '\t')) {
		s->pos++;
		ch = peekc(s, e);
	}
	return ch;
}

/* A quoted field, its opening quote at hand: 0, or -1. */
static int
quoted(struct scan *s, int *chp, struct hq_err *e)
{
	long qline = s->line;
	int ch;

	s->pos++;
	for (;;) {
		if ((ch = peekc(s, e)) == FAIL)
			return -1;
		if (ch == END)
			return fail(s, E_UNCLOSED, qline);
		s->pos++;
		if (ch == '"') {
			if ((ch = peekc(s, e)) == FAIL)
				return -1;
			if (ch != '"')
				break;
			s->pos++;
		} else if (s->line_mode) {
			/* a line's bytes are all bytes */
		} else if (ch == '\0') {
			return fail(s, E_NUL, s->line);
		} else if (ch == '\n' || (ch == '\r' &&
		    (peekc(s, e) != '\n'))) {
			s->line++;
		}
		if (put(s, ch))
			return -1;
	}
	if ((ch = skip_blanks(s, ch, e)) == FAIL)
		return -1;
	if (!ends(s, ch))
		return fail(s, E_AFTER_QUOTE, s->line);
	*chp = ch;
	return 0;
}

/* A field that is not quoted, its first byte ch: 0, or -1. */
static int
unquoted(struct scan *s, int *chp, struct hq_err *e)
{
	size_t keep = s->reclen;    /* in a line: up to the last non-blank */
	int ch = *chp;

	while (!ends(s, ch)) {
		if (ch == '\0' && !s->line_mode)
			return fail(s, E_NUL, s->line);
		s->pos++;
		if (put(s, ch))
			return -1;
		if (ch != ' ' && ch != '\t')
			keep = s->reclen;
		if ((ch = peekc(s, e)) == FAIL)
			return -1;
	}
	if (s->line_mode)
		s->reclen = keep;
	*chp = ch;
	return 0;
}

/* One record's fields, its first byte at hand: the byte that ended it
 * (END, CR or LF, not consumed), or FAIL (s->err says what, or E_NONE
 * after a read error, e set). */
static int
scan_record(struct scan *s, struct hq_err *e)
{
	int ch;

	s->rec_line = s->line;
	s->reclen = 0;
	s->nfields = 0;
	s->err = E_NONE;
	for (;;) {
		if (s->nfields == s->max_fields) {
			fail(s, E_FIELDS, s->rec_line);
			return FAIL;
		}
		s->fld[s->nfields] = s->rec + s->reclen;
		if ((ch = peekc(s, e)) == FAIL ||
		    (ch = skip_blanks(s, ch, e)) == FAIL)
			return FAIL;
		if (ch == '"' ? quoted(s, &ch, e) : unquoted(s, &ch, e))
			return FAIL;
		s->rec[s->reclen++] = '\0';
		s->nfields++;
		if (ch != s->sep)
			return ch;
		s->pos++;
	}
}

/* Consume a line end starting at ch ('\r' or '\n'). */
static int
eat_newline(struct scan *s, struct hq_err *e, int ch)
{
	int nx;

	s->pos++;
	s->line++;
	if (ch == '\r') {
		if ((nx = peekc(s, e)) == FAIL)
			return -1;
		if (nx == '\n')
			s->pos++;
	}
	return 0;
}

int
hq_csv_next(struct hq_csv *c, struct hq_err *e)
{
	struct scan *s = &c->s;
	int ch;

	if (!c->started && start(c, e))
		return -1;
	for (;;) {
		/* Skip blank lines. */
		if ((ch = peekc(s, e)) == FAIL)
			return -1;
		if (ch == END)
			return 0;
		if (ch != '\r' && ch != '\n')
			break;
		if (eat_newline(s, e, ch))
			return -1;
	}
	if ((ch = scan_record(s, e)) == FAIL) {
		static const char *const what[] = {
			[E_UNCLOSED] = "quoted field not closed",
			[E_AFTER_QUOTE] = "text after a closing quote (a quote "
			    "inside a quoted field must be doubled)",
		};
		if (s->err == E_FIELDS || s->err == E_LONG)
			hq_err_set(e, "%s:%ld: %s %d %s", c->name, s->err_line,
			    s->err == E_FIELDS ? "more than" : "line longer than",
			    s->err == E_FIELDS ? HQ_CSV_MAX_FIELDS : HQ_CSV_MAX_RECORD,
			    s->err == E_FIELDS ? "fields" : "bytes");
		else if (s->err == E_NUL) {
			/* the rule of every text reader (utf8.h) */
			long line = s->err_line;
			hq_text_check("", 1, c->name, &line, e);
		} else if (s->err != E_NONE)
			hq_err_set(e, "%s:%ld: %s", c->name, s->err_line,
			    what[s->err]);
		return -1;
	}
	if (ch != END && eat_newline(s, e, ch))
		return -1;
	return 1;
}

int
hq_csv_split_line(char *line, size_t len, char sep, char **fields,
    size_t max, struct hq_csv_line_err *err)
{
	struct scan s = { .buf = (const unsigned char *)line, .len = len,
	    .sep = sep, .line_mode = 1, .max_fields = max,
	    .max_bytes = SIZE_MAX, .line = 1, .rec = line, .fld = fields };
	struct hq_err e;   /* for reads, and a line has nothing to read */

	if (scan_record(&s, &e) == FAIL) {
		err->kind = s.err == E_UNCLOSED ? HQ_CSV_UNCLOSED
		    : s.err == E_AFTER_QUOTE ? HQ_CSV_AFTER_QUOTE : HQ_CSV_FIELDS;
		err->field = (int)s.nfields + 1;
		return -1;
	}
	return (int)s.nfields;
}

size_t
hq_csv_nfields(const struct hq_csv *c)
{
	return c->s.nfields;
}

const char *
hq_csv_field(const struct hq_csv *c, size_t i)
{
	return i < c->s.nfields ? c->s.fld[i] : "";
}

long
hq_csv_line(const struct hq_csv *c)
{
	return c->s.rec_line;
}

uint64_t
hq_csv_bytes(const struct hq_csv *c)
{
	return c->bytes;
}

ssize_t
hq_csv_fd_read(void *arg, void *buf, size_t n)
{
	ssize_t r;

	do
		r = read(*(int *)arg, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

ssize_t
hq_csv_mem_read(void *arg, void *buf, size_t n)
{
	struct hq_csv_mem *m = arg;
	size_t k = m->n - m->pos;

	if (k > n)
		k = n;
	memcpy(buf, m->p + m->pos, k);
	m->pos += k;
	return (ssize_t)k;
}
