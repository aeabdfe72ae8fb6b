#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/output.h"
#include "hq/term.h"

enum cell_type { CELL_STR, CELL_NUM, CELL_RAW, CELL_NULL, CELL_ARRAY };

struct cell {
	char *key, *text;   /* text: the value as JSON (numbers, raw, arrays) or plain */
	char *plain;        /* arrays: the strings joined, for csv and tables */
	enum cell_type type;
	double num;
};

/* hq_out_fit(): how a table column gives way. */
struct fit {
	char *key;
	struct hq_out_fit f;
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
	int width;             /* tables fit this many columns */
	struct fit *fits;
	size_t nfits;
	struct hq_buf head, foot; /* table: hq_out_heading, hq_out_footnote */
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
		free(r->cells[i].plain);
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
	o->width = hq_term_width(fileno(fp));
	return o;
}

int
hq_out_width(const struct hq_out *o)
{
	return o->width;
}

void
hq_out_set_width(struct hq_out *o, int width)
{
	o->width = width > 0 ? width : 80;
}

void
hq_out_fit(struct hq_out *o, const char *key, struct hq_out_fit fit)
{
	struct fit *f = NULL;

	for (size_t i = 0; i < o->nfits; i++)
		if (strcmp(o->fits[i].key, key) == 0)
			f = &o->fits[i];
	if (!f) {
		o->fits = hq_xrealloc(o->fits, (o->nfits + 1) * sizeof *o->fits);
		f = &o->fits[o->nfits++];
		f->key = hq_xstrdup(key);
	}
	f->f.drop = fit.drop > 0 ? fit.drop : 0;
	f->f.min_width = fit.min_width > 0 ? fit.min_width : 0;
	f->f.right = fit.right;
}

void
hq_out_heading(struct hq_out *o, const char *line)
{
	hq_buf_puts(&o->head, line);
	hq_buf_puts(&o->head, "\n");
}

void
hq_out_footnote(struct hq_out *o, const char *line)
{
	hq_buf_puts(&o->foot, line);
	hq_buf_puts(&o->foot, "\n");
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
	r->cells[r->n].plain = NULL;
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

void
hq_out_strv(struct hq_out *o, const char *key, const char *const *v, size_t n)
{
	struct hq_buf json = {0}, plain = {0};
	struct cell *c;

	if (o->direct) {
		direct_key(o, key);
		hq_buf_putc(&o->line, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				hq_buf_putc(&o->line, ',');
			hq_buf_json_str(&o->line, v[i]);
		}
		hq_buf_putc(&o->line, ']');
		return;
	}
	hq_buf_putc(&json, '[');
	hq_buf_puts(&plain, "");
	for (size_t i = 0; i < n; i++) {
		if (i) {
			hq_buf_putc(&json, ',');
			hq_buf_puts(&plain, ", ");
		}
		hq_buf_json_str(&json, v[i]);
		hq_buf_puts(&plain, v[i]);
	}
	hq_buf_putc(&json, ']');
	add_cell(o, key, CELL_ARRAY, json.data, NAN);
	c = &o->cur.cells[o->cur.n - 1];
	c->plain = hq_buf_steal(&plain);
	hq_buf_free(&json);
}

/* A cell as people read it (csv and tables): arrays joined. */
static const char *
plain_text(const struct cell *c)
{
	return c->type == CELL_ARRAY ? c->plain : c->text;
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
				csv_field(b, plain_text(c));
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

/* A cell as a table shows it: numbers short, null "-", and text from a
 * file or a model escaped for the terminal (hq_term_escape: an escape
 * sequence in a lab's name shows as \x1b). b->data. */
static const char *
table_text(struct hq_buf *b, const struct cell *c)
{
	const char *s;

	hq_buf_reset(b);
	hq_buf_puts(b, "");
	if (c->type == CELL_NUM && c->num != floor(c->num)) {
		double a = fabs(c->num);
		hq_buf_printf(b, a >= 100 ? "%.1f" : a >= 0.01 ? "%.2f" : "%.3g", c->num);
	} else if (c->type == CELL_NULL) {
		hq_buf_puts(b, "-");
	} else {
		/* A table is for a terminal: no byte of data may act on it. */
		s = plain_text(c);
		hq_term_escape(b, s, strlen(s), 0);
	}
	return b->data;
}

/* A column's key as its header shows it (keys may come from data). */
static const char *
key_text(struct hq_buf *b, const char *key)
{
	hq_buf_reset(b);
	hq_buf_puts(b, "");
	hq_term_escape(b, key, strlen(key), 0);
	return b->data;
}

/* A table's columns: key, width, alignment, and whether it is shown. */
struct column {
	const char *key;
	size_t w;
	int numeric, right, shown, drop, min_width;
};

static const struct fit *
find_fit(const struct hq_out *o, const char *key)
{
	for (size_t i = 0; i < o->nfits; i++)
		if (strcmp(o->fits[i].key, key) == 0)
			return &o->fits[i];
	return NULL;
}

static size_t
table_width(const struct column *c, size_t n)
{
	size_t total = 0, shown = 0;

	for (size_t j = 0; j < n; j++)
		if (c[j].shown) {
			total += c[j].w;
			shown++;
		}
	return total + (shown ? 2 * (shown - 1) : 0);
}

/*
 * Fit the columns to width. Columns give way in the order of their drop,
 * lowest first: one with a minimum width is cut towards it first, and left
 * out only when that is not enough. Then the columns that are never left
 * out (drop 0) but have a minimum width are cut, the widest first. A table
 * that cannot fit is cut as far as it goes and written so (its numbers are
 * never cut).
 */
static void
fit_columns(struct column *c, size_t n, size_t width)
{
	while (table_width(c, n) > width) {
		size_t pick = n;
		for (size_t j = 0; j < n; j++)
			if (c[j].shown && c[j].drop &&
			    (pick == n || c[j].drop < c[pick].drop))
				pick = j;
		if (pick == n)
			break;
		if (c[pick].min_width && c[pick].w > (size_t)c[pick].min_width)
			c[pick].w--;
		else
			c[pick].shown = 0;
	}
	while (table_width(c, n) > width) {
		size_t pick = n;
		for (size_t j = 0; j < n; j++)
			if (c[j].shown && c[j].min_width && c[j].w > (size_t)c[j].min_width &&
			    (pick == n || c[j].w > c[pick].w))
				pick = j;
		if (pick == n)
			return;
		c[pick].w--;
	}
}

/* Append text to a line, cut to w columns (ending in "…", hq_term_fit)
 * and padded to w, on the side alignment says. */
static void
put_cell(struct hq_buf *line, const char *text, size_t w, int right)
{
	size_t tw = hq_term_cols(text);

	if (tw > w) {
		char cut[4096];
		size_t used = hq_term_fit(cut, sizeof cut, text, w);
		hq_buf_printf(line, "%s%*s", cut, (int)(w - used), "");
		return;
	}
	if (right)
		hq_buf_printf(line, "%*s%s", (int)(w - tw), "", text);
	else
		hq_buf_printf(line, "%s%*s", text, (int)(w - tw), "");
}

static void
write_table(struct hq_out *o)
{
	struct column *cols = NULL;
	size_t ncols = 0;
	struct hq_buf cell = {0};
	const char *text;

	for (size_t r = 0; r < o->nheld; r++)
		for (size_t i = 0; i < o->held[r].n; i++) {
			const char *key = o->held[r].cells[i].key;
			size_t j;
			for (j = 0; j < ncols; j++)
				if (strcmp(cols[j].key, key) == 0)
					break;
			if (j == ncols) {
				const struct fit *f = find_fit(o, key);
				cols = hq_xrealloc(cols, (ncols + 1) * sizeof *cols);
				cols[ncols++] = (struct column){ .key = key,
				    .w = hq_term_cols(key_text(&cell, key)),
				    .numeric = 1, .shown = 1,
				    .drop = f ? f->f.drop : 0,
				    .min_width = f ? f->f.min_width : 0,
				    .right = f ? f->f.right : 0 };
			}
		}
	for (size_t r = 0; r < o->nheld; r++)
		for (size_t j = 0; j < ncols; j++) {
			const struct cell *c = find_cell(&o->held[r], cols[j].key);
			if (!c)
				continue;
			text = table_text(&cell, c);
			if (hq_term_cols(text) > cols[j].w)
				cols[j].w = hq_term_cols(text);
			if (c->type == CELL_STR || c->type == CELL_RAW ||
			    c->type == CELL_ARRAY)
				cols[j].numeric = 0;
		}
	for (size_t j = 0; j < ncols; j++)
		if (cols[j].numeric)
			cols[j].min_width = 0;
	fit_columns(cols, ncols, (size_t)o->width);
	struct hq_buf line = {0};
	for (long r = -1; r < (long)o->nheld; r++) {
		int first = 1;
		hq_buf_reset(&line);
		for (size_t j = 0; j < ncols; j++) {
			const struct cell *c = r < 0 ? NULL : find_cell(&o->held[r], cols[j].key);
			if (!cols[j].shown)
				continue;
			if (r < 0)
				text = key_text(&cell, cols[j].key);
			else if (c)
				text = table_text(&cell, c);
			else
				text = "";
			if (!first)
				hq_buf_puts(&line, "  ");
			first = 0;
			put_cell(&line, text, cols[j].w,
			    cols[j].numeric || cols[j].right);
		}
		while (line.len && line.data[line.len - 1] == ' ')
			line.data[--line.len] = '\0';
		if (r < 0 && o->color)
			fprintf(o->fp, "\033[1m%s\033[0m\n", line.data ? line.data : "");
		else
			fprintf(o->fp, "%s\n", line.data ? line.data : "");
	}
	hq_buf_free(&line);
	hq_buf_free(&cell);
	free(cols);
}

/* One row as a two-column table: field, value (left-aligned: the values
 * of one column are of every type). A detail has room for every digit, so
 * numbers are written as in JSON; null is "-" as in other tables. */
static void
write_keyvalue(struct hq_out *o)
{
	const struct row *r = &o->held[0];
	size_t wk = hq_term_cols("field");
	struct hq_buf key = {0}, val = {0};

	for (size_t i = 0; i < r->n; i++)
		if (hq_term_cols(key_text(&key, r->cells[i].key)) > wk)
			wk = hq_term_cols(key.data);
	if (o->color)
		fprintf(o->fp, "\033[1m%s%*s  value\033[0m\n", "field",
		    (int)(wk - hq_term_cols("field")), "");
	else
		fprintf(o->fp, "%s%*s  value\n", "field",
		    (int)(wk - hq_term_cols("field")), "");
	for (size_t i = 0; i < r->n; i++) {
		const struct cell *c = &r->cells[i];
		const char *v = c->type == CELL_NULL ? "-" : plain_text(c);
		size_t room = (size_t)o->width > wk + 12 ? (size_t)o->width - wk - 2 : 10;
		key_text(&key, c->key);
		hq_buf_reset(&val);
		hq_buf_puts(&val, "");
		hq_term_escape(&val, v, strlen(v), 0);
		/* a long text (a source's name) is cut to the width; a number never */
		fprintf(o->fp, "%s%*s  ", key.data, (int)(wk - hq_term_cols(key.data)), "");
		hq_buf_reset(&key);
		put_cell(&key, val.data, c->type == CELL_NUM ? hq_term_cols(val.data) :
		    hq_term_cols(val.data) < room ? hq_term_cols(val.data) : room, 0);
		fprintf(o->fp, "%s\n", key.data);
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
	if (o->fmt == HQ_FMT_TABLE && o->head.len)
		fwrite(o->head.data, 1, o->head.len, o->fp);
	if (o->fmt == HQ_FMT_TABLE && o->nheld == 1 && o->keyvalue) {
		write_keyvalue(o);
	} else if (o->fmt == HQ_FMT_TABLE && o->nheld) {
		write_table(o);
	} else if (o->fmt == HQ_FMT_JSON) {
		/* The rows went out as they came: "[\n{...},\n{...}". */
		fputs(o->rows ? "\n]\n" : "[]\n", o->fp);
	}
	if (o->fmt == HQ_FMT_TABLE && o->foot.len)
		fwrite(o->foot.data, 1, o->foot.len, o->fp);
	for (size_t r = 0; r < o->nheld; r++)
		free_row(&o->held[r]);
	free(o->held);
	free_row(&o->cur);
	for (size_t i = 0; i < o->ncsv; i++)
		free(o->csv_cols[i]);
	free(o->csv_cols);
	for (size_t i = 0; i < o->nfits; i++)
		free(o->fits[i].key);
	free(o->fits);
	hq_buf_free(&o->line);
	hq_buf_free(&o->head);
	hq_buf_free(&o->foot);
	rc = fflush(o->fp) == 0 && !ferror(o->fp) ? 0 : -1;
	free(o);
	return rc;
}

void
hq_format_short(double v, char *buf, size_t n)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1000)
		snprintf(buf, n, "%.0f", v);
	else if (fabs(v) < 0.0001)       /* where %g turns to 1.117e-12 */
		snprintf(buf, n, "0");
	else
		snprintf(buf, n, "%.4g", v);
}
