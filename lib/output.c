#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/output.h"
#include "hq/term.h"

enum cell_type { CELL_STR, CELL_NUM, CELL_RAW, CELL_NULL };

struct cell {
	char *key, *text;   /* text: the value as JSON (numbers, raw) or plain */
	enum cell_type type;
	double num;
};

struct row {
	struct cell *cells;
	size_t n, cap;
};

struct hq_out {
	FILE *fp;
	enum hq_format fmt;
	int color;
	int keyvalue;          /* hq_out_keyvalue() */
	long rows;
	struct row cur;
	struct row *held;      /* table and json */
	size_t nheld, capheld;
	char **csv_cols;       /* csv: the first row's keys */
	size_t ncsv;
	struct hq_buf line;
	int direct;            /* jsonl, json: fields go straight into line */
	size_t fields;         /* direct: of the row being written */
};

int
hq_output_parse_format(const char *s, enum hq_format *f)
{
	static const struct { const char *name; enum hq_format f; } names[] = {
		{ "jsonl", HQ_FMT_JSONL }, { "json", HQ_FMT_JSON },
		{ "csv", HQ_FMT_CSV }, { "table", HQ_FMT_TABLE },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0) {
			*f = names[i].f;
			return 0;
		}
	return -1;
}

/* Free a row's strings but keep its cell array for the next row. */
static void
clear_row(struct row *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->cells[i].key);
		free(r->cells[i].text);
	}
	r->n = 0;
}

static void
free_row(struct row *r)
{
	clear_row(r);
	free(r->cells);
	memset(r, 0, sizeof *r);
}

struct hq_out *
hq_out_new(FILE *fp, enum hq_format f)
{
	struct hq_out *o = hq_xcalloc(1, sizeof *o);
	int tty = isatty(fileno(fp));

	o->fp = fp;
	o->fmt = f == HQ_FMT_AUTO ? (tty ? HQ_FMT_TABLE : HQ_FMT_JSONL) : f;
	o->color = tty && !getenv("NO_COLOR");
	/* JSON is written field by field as it comes: no row is held. */
	o->direct = o->fmt == HQ_FMT_JSONL || o->fmt == HQ_FMT_JSON;
	return o;
}

enum hq_format
hq_out_format(const struct hq_out *o)
{
	return o->fmt;
}

void
hq_out_keyvalue(struct hq_out *o)
{
	o->keyvalue = 1;
}

/* The digits of an integer, into buf (n >= 22). */
static void
format_int(int64_t v, char *buf)
{
	char t[24], *p = t + sizeof t;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	*--p = '\0';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	memcpy(buf, p, (size_t)(t + sizeof t - p));
}

void
hq_format_number(double v, char *buf, size_t n)
{
	if (!isfinite(v))
		snprintf(buf, n, "null");
	else if (v == floor(v) && fabs(v) < 1e15) {
		/* What "%.0f" prints, without printf: most values are counts. */
		if (n >= 22)
			format_int((int64_t)v, buf);
		else
			snprintf(buf, n, "%.0f", v == 0 ? 0.0 : v);
	} else
		snprintf(buf, n, "%.10g", v);
}

static void
add_cell(struct hq_out *o, const char *key, enum cell_type t, const char *text,
    double num)
{
	struct row *r = &o->cur;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->cells = hq_xrealloc(r->cells, r->cap * sizeof *r->cells);
	}
	r->cells[r->n].key = hq_xstrdup(key);
	r->cells[r->n].text = hq_xstrdup(text ? text : "");
	r->cells[r->n].type = t;
	r->cells[r->n].num = num;
	r->n++;
}

void
hq_out_begin(struct hq_out *o)
{
	if (o->direct) {
		hq_buf_reset(&o->line);
		if (o->fmt == HQ_FMT_JSON)
			hq_buf_puts(&o->line, o->rows ? ",\n" : "[\n");
		hq_buf_putc(&o->line, '{');
		o->fields = 0;
		return;
	}
	clear_row(&o->cur);
}

/* JSON: the key of the next field, written. */
static void
direct_key(struct hq_out *o, const char *key)
{
	if (o->fields++)
		hq_buf_putc(&o->line, ',');
	hq_buf_json_str(&o->line, key);
	hq_buf_putc(&o->line, ':');
}

void
hq_out_str(struct hq_out *o, const char *key, const char *val)
{
	if (o->direct) {
		direct_key(o, key);
		if (val)
			hq_buf_json_str(&o->line, val);
		else
			hq_buf_puts(&o->line, "null");
		return;
	}
	if (!val)
		add_cell(o, key, CELL_NULL, "", NAN);
	else
		add_cell(o, key, CELL_STR, val, NAN);
}

void
hq_out_num(struct hq_out *o, const char *key, double v)
{
	char buf[64];

	if (!isfinite(v)) {
		hq_out_null(o, key);
		return;
	}
	hq_format_number(v, buf, sizeof buf);
	if (o->direct) {
		direct_key(o, key);
		hq_buf_puts(&o->line, buf);
		return;
	}
	add_cell(o, key, CELL_NUM, buf, v);
}

void
hq_out_int(struct hq_out *o, const char *key, int64_t v)
{
	char buf[32];

	format_int(v, buf);
	if (o->direct) {
		direct_key(o, key);
		hq_buf_puts(&o->line, buf);
		return;
	}
	add_cell(o, key, CELL_NUM, buf, (double)v);
}

void
hq_out_bool(struct hq_out *o, const char *key, int v)
{
	hq_out_raw(o, key, v ? "true" : "false");
}

void
hq_out_null(struct hq_out *o, const char *key)
{
	if (o->direct) {
		direct_key(o, key);
		hq_buf_puts(&o->line, "null");
		return;
	}
	add_cell(o, key, CELL_NULL, "", NAN);
}

void
hq_out_raw(struct hq_out *o, const char *key, const char *json)
{
	if (o->direct) {
		direct_key(o, key);
		hq_buf_puts(&o->line, json ? json : "");
		return;
	}
	add_cell(o, key, CELL_RAW, json, NAN);
}

static void
csv_field(struct hq_buf *b, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		hq_buf_puts(b, s);
		return;
	}
	hq_buf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"')
			hq_buf_putc(b, '"');
		hq_buf_putc(b, *s);
	}
	hq_buf_putc(b, '"');
}

static const struct cell *
find_cell(const struct row *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->cells[i].key, key) == 0)
			return &r->cells[i];
	return NULL;
}

void
hq_out_end(struct hq_out *o)
{
	struct hq_buf *b = &o->line;

	o->rows++;
	if (o->direct) {
		hq_buf_putc(b, '}');
		if (o->fmt == HQ_FMT_JSONL)
			hq_buf_putc(b, '\n');
		fwrite(b->data, 1, b->len, o->fp);
		return;
	}
	hq_buf_reset(b);
	switch (o->fmt) {
	case HQ_FMT_CSV:
		if (!o->csv_cols) {
			o->ncsv = o->cur.n;
			o->csv_cols = hq_xcalloc(o->ncsv, sizeof *o->csv_cols);
			for (size_t i = 0; i < o->ncsv; i++) {
				o->csv_cols[i] = hq_xstrdup(o->cur.cells[i].key);
				if (i)
					hq_buf_putc(b, ',');
				csv_field(b, o->csv_cols[i]);
			}
			hq_buf_putc(b, '\n');
		}
		for (size_t i = 0; i < o->ncsv; i++) {
			const struct cell *c = find_cell(&o->cur, o->csv_cols[i]);
			if (i)
				hq_buf_putc(b, ',');
			if (c && c->type != CELL_NULL)
				csv_field(b, c->text);
		}
		hq_buf_putc(b, '\n');
		fwrite(b->data, 1, b->len, o->fp);
		clear_row(&o->cur);
		return;
	default:
		if (o->nheld == o->capheld) {
			o->capheld = o->capheld ? o->capheld * 2 : 64;
			o->held = hq_xrealloc(o->held, o->capheld * sizeof *o->held);
		}
		o->held[o->nheld++] = o->cur;
		memset(&o->cur, 0, sizeof o->cur);
	}
}

long
hq_out_rows(const struct hq_out *o)
{
	return o->rows;
}

/* Display width of UTF-8 text: code points, not bytes. */
static size_t
width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void
table_text(const struct cell *c, char *buf, size_t n)
{
	if (c->type == CELL_NUM && c->num != floor(c->num)) {
		double a = fabs(c->num);
		snprintf(buf, n, a >= 100 ? "%.1f" : a >= 0.01 ? "%.2f" : "%.3g", c->num);
	} else if (c->type == CELL_NULL) {
		snprintf(buf, n, "-");
	} else {
		/* A table is for a terminal: no byte of data may act on it. */
		hq_term_escape_to(buf, n, c->text);
	}
}

static void
write_table(struct hq_out *o)
{
	char **cols = NULL;
	size_t ncols = 0, *w, *numeric;
	char buf[4096];

	for (size_t r = 0; r < o->nheld; r++)
		for (size_t i = 0; i < o->held[r].n; i++) {
			size_t j;
			for (j = 0; j < ncols; j++)
				if (strcmp(cols[j], o->held[r].cells[i].key) == 0)
					break;
			if (j == ncols) {
				cols = hq_xrealloc(cols, (ncols + 1) * sizeof *cols);
				cols[ncols++] = o->held[r].cells[i].key;
			}
		}
	w = hq_xcalloc(ncols, sizeof *w);
	numeric = hq_xcalloc(ncols, sizeof *numeric);
	for (size_t j = 0; j < ncols; j++) {
		hq_term_escape_to(buf, sizeof buf, cols[j]);
		w[j] = width(buf);
		numeric[j] = 1;
	}
	for (size_t r = 0; r < o->nheld; r++)
		for (size_t j = 0; j < ncols; j++) {
			const struct cell *c = find_cell(&o->held[r], cols[j]);
			if (!c)
				continue;
			table_text(c, buf, sizeof buf);
			if (width(buf) > w[j])
				w[j] = width(buf);
			if (c->type == CELL_STR || c->type == CELL_RAW)
				numeric[j] = 0;
		}
	struct hq_buf line = {0};
	for (long r = -1; r < (long)o->nheld; r++) {
		hq_buf_reset(&line);
		for (size_t j = 0; j < ncols; j++) {
			const struct cell *c = r < 0 ? NULL : find_cell(&o->held[r], cols[j]);
			if (r < 0)
				hq_term_escape_to(buf, sizeof buf, cols[j]);
			else if (c)
				table_text(c, buf, sizeof buf);
			else
				buf[0] = '\0';
			int pad = (int)(w[j] - width(buf));
			if (j)
				hq_buf_puts(&line, "  ");
			if (numeric[j])
				hq_buf_printf(&line, "%*s%s", pad, "", buf);
			else
				hq_buf_printf(&line, "%s%*s", buf, pad, "");
		}
		while (line.len && line.data[line.len - 1] == ' ')
			line.data[--line.len] = '\0';
		if (r < 0 && o->color)
			fprintf(o->fp, "\033[1m%s\033[0m\n", line.data);
		else
			fprintf(o->fp, "%s\n", line.data);
	}
	hq_buf_free(&line);
	free(cols);
	free(w);
	free(numeric);
}

/* One row as a two-column table: field, value (left-aligned: the values
 * of one column are of every type). A detail has room for every digit, so
 * numbers are written as in JSON; null is "-" as in other tables. */
static void
write_keyvalue(struct hq_out *o)
{
	const struct row *r = &o->held[0];
	size_t wk = width("field");
	struct hq_buf key = {0}, val = {0};

	for (size_t i = 0; i < r->n; i++) {
		hq_buf_reset(&key);
		hq_term_escape(&key, r->cells[i].key, strlen(r->cells[i].key), 0);
		if (width(key.data) > wk)
			wk = width(key.data);
	}
	if (o->color)
		fprintf(o->fp, "\033[1m%s%*s  value\033[0m\n", "field",
		    (int)(wk - width("field")), "");
	else
		fprintf(o->fp, "%s%*s  value\n", "field", (int)(wk - width("field")), "");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->cells[i];
		hq_buf_reset(&key);
		hq_buf_reset(&val);
		hq_term_escape(&key, c->key, strlen(c->key), 0);
		const char *v = c->type == CELL_NULL ? "-" : c->text;
		hq_term_escape(&val, v, strlen(v), 0);
		fprintf(o->fp, "%s%*s  %s\n", key.data, (int)(wk - width(key.data)),
		    "", val.data);
	}
	hq_buf_free(&key);
	hq_buf_free(&val);
}

int
hq_out_free(struct hq_out *o)
{
	int rc;

	if (!o)
		return 0;
	if (o->fmt == HQ_FMT_TABLE && o->nheld == 1 && o->keyvalue) {
		write_keyvalue(o);
	} else if (o->fmt == HQ_FMT_TABLE && o->nheld) {
		write_table(o);
	} else if (o->fmt == HQ_FMT_JSON) {
		/* The rows went out as they came: "[\n{...},\n{...}". */
		fputs(o->rows ? "\n]\n" : "[]\n", o->fp);
	}
	for (size_t r = 0; r < o->nheld; r++)
		free_row(&o->held[r]);
	free(o->held);
	free_row(&o->cur);
	for (size_t i = 0; i < o->ncsv; i++)
		free(o->csv_cols[i]);
	free(o->csv_cols);
	hq_buf_free(&o->line);
	rc = fflush(o->fp) == 0 && !ferror(o->fp) ? 0 : -1;
	free(o);
	return rc;
}

void
hq_format_short(double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1000)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

void
hq_out_cut(const char *s, char *buf, size_t n, size_t width)
{
	size_t k = 0, w = 0;

	for (; *s && k + 4 < n; s++) {
		if (((unsigned char)*s & 0xC0) != 0x80 && ++w > width) {
			memcpy(buf + k, "\xe2\x80\xa6", 3);   /* … */
			k += 3;
			break;
		}
		buf[k++] = *s;
	}
	buf[k] = '\0';
}
