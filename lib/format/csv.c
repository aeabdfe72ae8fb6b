#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/csv.h"
#include "hq/utf8.h"

#define IBUF 65536

struct hq_csv {
	const char *name;
	hq_csv_read_fn *read;
	void *arg;
	char sep;
	unsigned char ibuf[IBUF];
	size_t ipos, ilen;
	int eof, started;
	uint64_t bytes;
	long line;          /* the current physical line */
	long rec_line;      /* where the current record starts */
	char *rec;          /* fields, each NUL-terminated */
	size_t reclen;
	size_t *off;        /* field offsets into rec */
	size_t nfields;
};

enum { END = -1, FAIL = -2 };

struct hq_csv *
hq_csv_new(const char *name, hq_csv_read_fn *read, void *arg, char sep)
{
	struct hq_csv *c = hq_xcalloc(1, sizeof *c);

	c->name = name;
	c->read = read;
	c->arg = arg;
	c->sep = sep;
	c->line = 1;
	c->rec = hq_xmalloc(HQ_CSV_MAX_RECORD + HQ_CSV_MAX_FIELDS + 1);
	c->off = hq_xmalloc(HQ_CSV_MAX_FIELDS * sizeof *c->off);
	return c;
}

void
hq_csv_free(struct hq_csv *c)
{
	if (!c)
		return;
	free(c->rec);
	free(c->off);
	free(c);
}

/* Read more into the buffer, keeping what is unread. 0, or FAIL. */
static int
fill(struct hq_csv *c, struct hq_err *e)
{
	ssize_t n;

	if (c->eof)
		return 0;
	if (c->ipos > 0) {
		memmove(c->ibuf, c->ibuf + c->ipos, c->ilen - c->ipos);
		c->ilen -= c->ipos;
		c->ipos = 0;
	}
	if (c->ilen == IBUF)
		return 0;
	do
		n = c->read(c->arg, c->ibuf + c->ilen, IBUF - c->ilen);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		hq_err_set(e, "%s: %s", c->name, strerror(errno));
		return FAIL;
	}
	if (n == 0)
		c->eof = 1;
	c->ilen += (size_t)n;
	c->bytes += (uint64_t)n;
	return 0;
}

static int
peekc(struct hq_csv *c, struct hq_err *e)
{
	if (c->ipos == c->ilen) {
		c->ipos = c->ilen = 0;
		if (fill(c, e))
			return FAIL;
		if (c->ilen == 0)
			return END;
	}
	return c->ibuf[c->ipos];
}

/* Skip the byte order mark; with no separator given, count ',' and ';'
 * outside quotes in the first line the buffer holds. */
static int
start(struct hq_csv *c, struct hq_err *e)
{
	size_t commas = 0, semis = 0;
	int quoted = 0;

	c->started = 1;
	while (!c->eof && c->ilen < IBUF)
		if (fill(c, e))
			return FAIL;
	if (c->ilen >= 3 && memcmp(c->ibuf, "\xEF\xBB\xBF", 3) == 0)
		c->ipos = 3;
	if (c->sep)
		return 0;
	for (size_t i = c->ipos; i < c->ilen; i++) {
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
	c->sep = semis > commas ? ';' : ',';
	return 0;
}

static int
fail(struct hq_csv *c, struct hq_err *e, long line, const char *what)
{
	hq_err_set(e, "%s:%ld: %s", c->name, line, what);
	return -1;
}

/* A NUL byte where a field is read: the rule of every text reader. */
static int
nul_byte(struct hq_csv *c, struct hq_err *e)
{
	long line = c->line;

	return hq_text_check("", 1, c->name, &line, e);
}

/* Append a byte to the current field. */
static int
put(struct hq_csv *c, struct hq_err *e, int ch)
{
	if (c->reclen >= HQ_CSV_MAX_RECORD + c->nfields) {
		char msg[96];
		snprintf(msg, sizeof msg, "line longer than %d bytes",
		    HQ_CSV_MAX_RECORD);
		return fail(c, e, c->rec_line, msg);
	}
	c->rec[c->reclen++] = (char)ch;
	return 0;
}

static int
begin_field(struct hq_csv *c, struct hq_err *e)
{
	if (c->nfields == HQ_CSV_MAX_FIELDS) {
		char msg[96];
		snprintf(msg, sizeof msg, "more than %d fields",
		    HQ_CSV_MAX_FIELDS);
		return fail(c, e, c->rec_line, msg);
	}
	c->off[c->nfields] = c->reclen;
	return 0;
}

/* Consume a line end starting at ch ('\r' or '\n'). */
static int
eat_newline(struct hq_csv *c, struct hq_err *e, int ch)
{
	int nx;

	c->ipos++;
	c->line++;
	if (ch == '\r') {
		if ((nx = peekc(c, e)) == FAIL)
			return -1;
		if (nx == '\n')
			c->ipos++;
	}
	return 0;
}

int
hq_csv_next(struct hq_csv *c, struct hq_err *e)
{
	int ch;

	if (!c->started && start(c, e))
		return -1;
	for (;;) {
		/* Skip blank lines. */
		if ((ch = peekc(c, e)) == FAIL)
			return -1;
		if (ch == END)
			return 0;
		if (ch != '\r' && ch != '\n')
			break;
		if (eat_newline(c, e, ch))
			return -1;
	}
	c->rec_line = c->line;
	c->reclen = 0;
	c->nfields = 0;
	for (;;) {
		/* One field. */
		if (begin_field(c, e))
			return -1;
		if ((ch = peekc(c, e)) == FAIL)
			return -1;
		if (ch == '"') {
			long qline = c->line;
			c->ipos++;
			for (;;) {
				if ((ch = peekc(c, e)) == FAIL)
					return -1;
				if (ch == END)
					return fail(c, e, qline, "quoted field not closed");
				c->ipos++;
				if (ch == '"') {
					if ((ch = peekc(c, e)) == FAIL)
						return -1;
					if (ch != '"')
						break;
					c->ipos++;
				} else if (ch == '\0') {
					return nul_byte(c, e);
				} else if (ch == '\n' || (ch == '\r' &&
				    (peekc(c, e) != '\n'))) {
					c->line++;
				}
				if (put(c, e, ch))
					return -1;
			}
			if (ch != END && ch != c->sep && ch != '\n' && ch != '\r')
				return fail(c, e, c->line,
				    "text after a closing quote (a quote inside a "
				    "quoted field must be doubled)");
		} else {
			while (ch != END && ch != c->sep && ch != '\n' && ch != '\r') {
				if (ch == '\0')
					return nul_byte(c, e);
				c->ipos++;
				if (put(c, e, ch))
					return -1;
				if ((ch = peekc(c, e)) == FAIL)
					return -1;
			}
		}
		c->rec[c->reclen++] = '\0';
		c->nfields++;
		if (ch == c->sep) {
			c->ipos++;
			continue;
		}
		if (ch != END && eat_newline(c, e, ch))
			return -1;
		return 1;
	}
}

size_t
hq_csv_nfields(const struct hq_csv *c)
{
	return c->nfields;
}

const char *
hq_csv_field(const struct hq_csv *c, size_t i)
{
	return i < c->nfields ? c->rec + c->off[i] : "";
}

long
hq_csv_line(const struct hq_csv *c)
{
	return c->rec_line;
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
