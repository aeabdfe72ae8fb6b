#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/cgmfile.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/time.h"

/* Clarity's columns, the same in every language it exports. */
enum { DX_TIME = 1, DX_TYPE = 2, DX_DEVINFO = 5, DX_SRCDEV = 6, DX_GLUCOSE = 7,
    DX_TXID = 13, DX_MINFIELDS = 8 };
/* LibreView's, by position (Tidepool's libreViewDriver). */
enum { LV_DEVICE = 0, LV_SERIAL = 1, LV_TIME = 2, LV_TYPE = 3,
    LV_HISTORIC = 4, LV_SCAN = 5, LV_STRIP = 14, LV_MINHEADER = 15,
    LV_MAXPREAMBLE = 3 };

#define DEXCOM_LOW 39.0
#define DEXCOM_HIGH 401.0
#define LIBRE_LOW 39.0
#define LIBRE_HIGH 501.0
/* Plausible glucose, mg/dL: outside it a number is a broken line. */
#define MGDL_MIN 1.0
#define MGDL_MAX 1500.0

static int
line_err(struct hq_err *e, const char *name, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
line_err(struct hq_err *e, const char *name, long line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hq_err_set(e, "%s:%ld: %s", name, line, msg);
	return -1;
}

/* Copy s into buf, trimmed, control characters turned into spaces; the
 * copy is cut to fit. */
static void
clean_copy(char *buf, size_t n, const char *s)
{
	size_t k = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; *s && k + 1 < n; s++)
		buf[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
	while (k > 0 && buf[k - 1] == ' ')
		k--;
	buf[k] = '\0';
}

static int
blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

static int
word_is(const char *s, const char *w)
{
	char t[64];

	clean_copy(t, sizeof t, s);
	return strcasecmp(t, w) == 0;
}

/* A glucose number as written: digits with one '.' or ',' as the decimal
 * mark (German exports write "5,8"). 0 or -1. */
static int
parse_number(const char *s, double *out)
{
	char t[64], *end;
	size_t k = 0;
	int digits = 0, marks = 0;

	clean_copy(t, sizeof t, s);
	for (k = 0; t[k]; k++) {
		if (isdigit((unsigned char)t[k]))
			digits++;
		else if ((t[k] == '.' || t[k] == ',') && marks++ == 0)
			t[k] = '.';
		else
			return -1;
	}
	if (!digits || k >= sizeof t - 1)
		return -1;
	errno = 0;
	*out = strtod(t, &end);
	return *end || errno || !isfinite(*out) ? -1 : 0;
}

/* n digits (1..max) at *p, advancing it. */
static int
num(const char **p, int maxd, int *out, int *len)
{
	int v = 0, k = 0;

	while (k < maxd && isdigit((unsigned char)(*p)[k]))
		v = v * 10 + ((*p)[k++] - '0');
	if (k == 0 || isdigit((unsigned char)(*p)[k]))
		return -1;
	*p += k;
	*out = v;
	if (len)
		*len = k;
	return 0;
}

/* "H:MM[:SS[.fff]]" then optionally " AM"/" PM". 0 or -1. */
static int
parse_clock(const char *p, int *hh, int *mm, int *ss, const char **rest)
{
	int h, m, s = 0, ampm = 0;

	if (num(&p, 2, &h, NULL) || *p++ != ':' || num(&p, 2, &m, NULL))
		return -1;
	if (*p == ':') {
		p++;
		if (num(&p, 2, &s, NULL))
			return -1;
		if (*p == '.' || *p == ',')
			for (p++; isdigit((unsigned char)*p); p++)
				;
	}
	while (*p == ' ')
		p++;
	if (strncasecmp(p, "AM", 2) == 0 || strncasecmp(p, "PM", 2) == 0) {
		ampm = toupper((unsigned char)*p) == 'A' ? 1 : 2;
		p += 2;
		if (h < 1 || h > 12)
			return -1;
		h = h % 12 + (ampm == 2 ? 12 : 0);
	}
	while (*p == ' ')
		p++;
	if (h > 23 || m > 59 || s > 60)
		return -1;
	*hh = h;
	*mm = m;
	*ss = s > 59 ? 59 : s;
	if (rest)
		*rest = p;
	return 0;
}

static int
valid_date(int y, int m, int d)
{
	return y >= 1970 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 &&
	    d <= hq_time_days_in_month(y, m);
}

/* Local wall times to UTC in file order: on a fall-back night a repeated
 * wall time takes the occurrence nearer the reading before it. */
struct wallclock {
	int64_t prev;
	int have_prev;
};

static int64_t
wall_to_utc(struct wallclock *w, int y, int mo, int d, int h, int mi, int s)
{
	int64_t t[2];
	int n = hq_time_from_local_all(y, mo, d, h, mi, s, t);
	int64_t r = t[0];

	if (n == 2 && w->have_prev &&
	    llabs(t[1] - w->prev) < llabs(t[0] - w->prev))
		r = t[1];
	w->prev = r;
	w->have_prev = 1;
	return r;
}

/* Hand a reading over at its wall time (year, month, day, h, m, s). */
static int
deliver(struct wallclock *w, const int wall[6], struct hq_cgm_reading *rd,
    hq_cgmfile_emit_fn *emit, void *arg, struct hq_cgmfile_stats *st,
    struct hq_err *e)
{
	rd->time = wall_to_utc(w, wall[0], wall[1], wall[2], wall[3], wall[4],
	    wall[5]);
	if (emit(arg, rd, e))
		return -1;
	st->readings++;
	return 0;
}

/* ---- Dexcom Clarity ---- */

/* "(YYYY-MM-DDThh:mm:ss)", "(JJJJ-MM-TTThh:mm:ss)": the timestamp column's
 * header in every language names the ISO form with localised letters. */
static int
dexcom_time_header(const char *s)
{
	const char *p = strchr(s, '(');

	if (!p)
		return 0;
	p++;
	for (int i = 0; i < 10; i++) {
		int dash = i == 4 || i == 7;
		if (dash ? p[i] != '-' : !isalpha((unsigned char)p[i]))
			return 0;
	}
	return p[10] == 'T' && strncasecmp(p + 11, "hh:mm:ss)", 9) == 0;
}

/* The glucose column's unit: 1 mg/dL, 2 mmol/L, 0 neither. */
static int
glucose_unit(const char *s)
{
	if (strcasestr(s, "mg/dl"))
		return 1;
	if (strcasestr(s, "mmol/l"))
		return 2;
	return 0;
}

static int
dexcom_header(const struct hq_csv *c)
{
	return hq_csv_nfields(c) >= DX_MINFIELDS &&
	    dexcom_time_header(hq_csv_field(c, DX_TIME)) &&
	    glucose_unit(hq_csv_field(c, DX_GLUCOSE)) != 0;
}

/* Clarity's "2019-10-14T16:42:37" and "2025-05-01 0:01:47" into w: year,
 * month, day, hour, minute, second. */
static int
dexcom_time(const char *s, int w[6])
{
	const char *p = s, *rest;
	int len;

	while (*p == ' ')
		p++;
	if (num(&p, 4, &w[0], &len) || len != 4 || *p++ != '-' ||
	    num(&p, 2, &w[1], NULL) || *p++ != '-' || num(&p, 2, &w[2], NULL))
		return -1;
	if (*p != 'T' && *p != ' ')
		return -1;
	p++;
	if (parse_clock(p, &w[3], &w[4], &w[5], &rest) || *rest)
		return -1;
	return valid_date(w[0], w[1], w[2]) ? 0 : -1;
}

struct dexcom_device {
	char srcdev[64];
	char name[128];
};

#define DX_MAXDEVICES 16

struct dexcom {
	struct dexcom_device dev[DX_MAXDEVICES];
	int ndev;
};

/* "Dexcom G6 Mobile App" → "Dexcom G6". */
static void
dexcom_device_row(struct dexcom *dx, const struct hq_csv *c)
{
	struct dexcom_device *d;
	char info[96];
	size_t n;

	if (dx->ndev == DX_MAXDEVICES)
		return;
	clean_copy(info, sizeof info, hq_csv_field(c, DX_DEVINFO));
	if (!*info)
		return;
	n = strlen(info);
	if (n > 11 && strcasecmp(info + n - 11, " Mobile App") == 0)
		info[n - 11] = '\0';
	d = &dx->dev[dx->ndev++];
	clean_copy(d->srcdev, sizeof d->srcdev, hq_csv_field(c, DX_SRCDEV));
	snprintf(d->name, sizeof d->name, "%s%s",
	    strncasecmp(info, "Dexcom", 6) == 0 ? "" : "Dexcom ", info);
}

static void
dexcom_source(const struct dexcom *dx, const struct hq_csv *c, char *buf,
    size_t n)
{
	char srcdev[64], tx[64], name[160];
	const char *dev = NULL;

	clean_copy(srcdev, sizeof srcdev, hq_csv_field(c, DX_SRCDEV));
	clean_copy(tx, sizeof tx, hq_csv_field(c, DX_TXID));
	for (int i = 0; i < dx->ndev && !dev; i++)
		if (strcmp(dx->dev[i].srcdev, srcdev) == 0)
			dev = dx->dev[i].name;
	if (!dev && dx->ndev == 1)
		dev = dx->dev[0].name;
	if (dev)
		snprintf(name, sizeof name, "%s", dev);
	else
		snprintf(name, sizeof name, "Dexcom%s%s", *srcdev ? " " : "", srcdev);
	if (*tx)
		snprintf(buf, n, "%s (SN %s)", name, tx);
	else
		snprintf(buf, n, "%s", name);
}

/* Every record of a CSV stream to fn, until the end or an error. */
typedef int row_fn(void *ctx, const struct hq_csv *c, struct hq_err *e);

static int
each_row(const char *name, hq_csv_read_fn *rd, void *rdarg, row_fn *fn,
    void *ctx, struct hq_err *e)
{
	struct hq_csv *c = hq_csv_new(name, rd, rdarg, 0);
	int r;

	while ((r = hq_csv_next(c, e)) == 1)
		if (fn(ctx, c, e)) {
			r = -1;
			break;
		}
	hq_csv_free(c);
	return r < 0 ? -1 : 0;
}

/* What the readers share while they go through a file. */
struct reader {
	const struct hq_cgmfile_input *in;
	hq_cgmfile_emit_fn *emit;
	void *arg;
	struct hq_cgmfile_stats *st;
	struct wallclock wc;
	long records;
	char source[256];
};

struct dexcom_reader {
	struct reader r;
	struct dexcom dx;
	double factor;
	const char *unit;
};

static int
dexcom_row(void *ctx, const struct hq_csv *c, struct hq_err *e)
{
	struct dexcom_reader *x = ctx;
	const char *name = x->r.in->name;
	const char *type = hq_csv_field(c, DX_TYPE);
	const char *ts = hq_csv_field(c, DX_TIME);
	const char *val = hq_csv_field(c, DX_GLUCOSE);
	struct hq_cgm_reading rd = { .unit = x->unit, .kind = HQ_CGM_REGULAR,
	    .line = hq_csv_line(c), .source = x->r.source };
	int w[6];

	if (x->r.records++ == 0) {
		if (!dexcom_header(c))
			return line_err(e, name, rd.line, "not a Dexcom Clarity "
			    "header (the timestamp in column 2, the glucose value "
			    "with its unit in column 8)");
		if (glucose_unit(hq_csv_field(c, DX_GLUCOSE)) == 2) {
			x->factor = HQ_CGM_MMOL_FACTOR;
			x->unit = "mmol/L";
		}
		return 0;
	}
	x->r.st->rows++;
	if (word_is(type, "Device") || word_is(type, "Gerät")) {
		dexcom_device_row(&x->dx, c);
		return 0;
	}
	if (blank(ts) || !(word_is(type, "EGV") || word_is(type, "EGW")))
		return 0;
	if (dexcom_time(ts, w))
		return line_err(e, name, rd.line, "timestamp '%.40s' is not "
		    "YYYY-MM-DDThh:mm:ss", ts);
	if (blank(val)) {
		x->r.st->skipped++;
		rd.mgdl = NAN;
		return x->r.emit(x->r.arg, &rd, e);
	}
	if (word_is(val, "Low") || word_is(val, "Niedrig")) {
		rd.mgdl = DEXCOM_LOW;
		rd.censored = -1;
	} else if (word_is(val, "High") || word_is(val, "Hoch")) {
		rd.mgdl = DEXCOM_HIGH;
		rd.censored = 1;
	} else if (parse_number(val, &rd.mgdl) == 0) {
		rd.mgdl *= x->factor;
		if (rd.mgdl < MGDL_MIN || rd.mgdl > MGDL_MAX)
			return line_err(e, name, rd.line, "glucose value '%.40s' "
			    "%s is out of range", val, x->unit);
	} else {
		return line_err(e, name, rd.line, "glucose value '%.40s' is "
		    "neither a number nor Low/High", val);
	}
	dexcom_source(&x->dx, c, x->r.source, sizeof x->r.source);
	return deliver(&x->r.wc, w, &rd, x->r.emit, x->r.arg, x->r.st, e);
}

static int
dexcom_read(const struct hq_cgmfile_input *in, hq_cgmfile_emit_fn *emit,
    void *arg, struct hq_cgmfile_stats *st, struct hq_err *e)
{
	struct dexcom_reader x = { .r = { .in = in, .emit = emit, .arg = arg,
	    .st = st }, .factor = 1, .unit = "mg/dL" };

	if (each_row(in->name, in->read, in->arg, dexcom_row, &x, e))
		return -1;
	if (x.r.records == 0)
		return line_err(e, in->name, 1, "empty file");
	return 0;
}

/* ---- LibreView ---- */

/* A LibreView timestamp's parts as written: a-b-c (either order) or a
 * leading year, and the clock. */
struct ltime {
	int a, b, c, ymd;
	int h, mi, s;
};

static int
libre_time(const char *s, struct ltime *t)
{
	const char *p = s;
	int la, lb, lc;
	char sep;

	while (*p == ' ')
		p++;
	if (num(&p, 4, &t->a, &la))
		return -1;
	sep = *p;
	if (sep != '-' && sep != '/' && sep != '.')
		return -1;
	p++;
	if (num(&p, 2, &t->b, &lb) || *p++ != sep || num(&p, 4, &t->c, &lc))
		return -1;
	if (*p != ' ' && *p != 'T')
		return -1;
	while (*p == ' ' || *p == 'T')
		p++;
	if (parse_clock(p, &t->h, &t->mi, &t->s, &p) || *p)
		return -1;
	t->ymd = la == 4;
	if (t->ymd ? lc > 2 : (la > 2 || (lc != 4 && lc != 2)))
		return -1;
	if (!t->ymd && lc == 2)
		t->c += 2000;
	return 0;
}

/* The civil date of t in the order decided; 0 or -1. */
static int
libre_date(const struct ltime *t, enum hq_date_order o, int *y, int *m, int *d)
{
	if (t->ymd) {
		*y = t->a;
		*m = t->b;
		*d = t->c;
	} else {
		*y = t->c;
		*m = o == HQ_DATES_DMY ? t->b : t->a;
		*d = o == HQ_DATES_DMY ? t->a : t->b;
	}
	return valid_date(*y, *m, *d) ? 0 : -1;
}

struct libre_plan {
	long header_line;
	int unit[15];               /* per value column: 1 mg/dL, 2 mmol/L */
	enum hq_date_order order;
};

/* The record type of a data row: 0..9, -1 when the row is empty of it (a
 * patient line of a LibreView Pro export), -2 when it is not a number. */
static int
libre_type(const struct hq_csv *c)
{
	const char *t = hq_csv_field(c, LV_TYPE);
	long v;
	char *end;

	if (blank(t))
		return -1;
	errno = 0;
	v = strtol(t, &end, 10);
	while (*end == ' ')
		end++;
	if (*end || errno || v < 0 || v > 99 || !isdigit((unsigned char)*t))
		return -2;
	return (int)v;
}

static int
libre_value_col(int type)
{
	return type == 0 ? LV_HISTORIC : type == 1 ? LV_SCAN : LV_STRIP;
}

/* The header is the first record with enough columns, after at most
 * LV_MAXPREAMBLE preamble lines. */
static int
libre_header(const struct hq_csv *c)
{
	return hq_csv_nfields(c) >= LV_MINHEADER;
}

/* Pass one: check every row, decide the date order and the units. */
struct libre_planner {
	const char *name;
	struct libre_plan *pl;
	long records;
	long dmy_line, mdy_line, amb_line, ymd_line, other_line;
	double maxval;
	char amb[48];
};

static int
libre_plan_row(void *ctx, const struct hq_csv *c, struct hq_err *e)
{
	struct libre_planner *x = ctx;
	int type = libre_type(c);
	long line = hq_csv_line(c);
	const char *ts = hq_csv_field(c, LV_TIME), *val;
	struct ltime t;
	double v;

	if (!x->pl->header_line) {
		if (libre_header(c)) {
			x->pl->header_line = line;
			x->pl->unit[LV_HISTORIC] = glucose_unit(hq_csv_field(c, LV_HISTORIC));
			x->pl->unit[LV_SCAN] = glucose_unit(hq_csv_field(c, LV_SCAN));
			x->pl->unit[LV_STRIP] = glucose_unit(hq_csv_field(c, LV_STRIP));
		} else if (++x->records > LV_MAXPREAMBLE) {
			return line_err(e, x->name, line, "no LibreView header (%d "
			    "or more columns) in the first %d lines", LV_MINHEADER,
			    LV_MAXPREAMBLE + 1);
		}
		return 0;
	}
	if (type == -1)
		return 0;
	if (type == -2)
		return line_err(e, x->name, line, "record type '%.20s' is not a "
		    "number", hq_csv_field(c, LV_TYPE));
	if (libre_time(ts, &t))
		return line_err(e, x->name, line, "timestamp '%.40s' is not a "
		    "date and time", ts);
	if (t.ymd) {
		x->ymd_line = x->ymd_line ? x->ymd_line : line;
	} else {
		if (t.a > 31 || t.b > 31 || (t.a > 12 && t.b > 12))
			return line_err(e, x->name, line, "'%.40s' is not a date", ts);
		x->other_line = x->other_line ? x->other_line : line;
		if (t.a > 12 && !x->dmy_line)
			x->dmy_line = line;
		if (t.b > 12 && !x->mdy_line)
			x->mdy_line = line;
		if (t.a <= 12 && t.b <= 12 && !x->amb_line) {
			x->amb_line = line;
			snprintf(x->amb, sizeof x->amb, "%.40s", ts);
		}
	}
	if (type > 2)
		return 0;
	val = hq_csv_field(c, libre_value_col(type));
	if (blank(val) || word_is(val, "LO") || word_is(val, "HI") ||
	    word_is(val, "Low") || word_is(val, "High"))
		return 0;
	if (parse_number(val, &v))
		return line_err(e, x->name, line, "glucose value '%.40s' is not "
		    "a number", val);
	if (v > x->maxval)
		x->maxval = v;
	return 0;
}

static int
libre_plan(const struct hq_cgmfile_input *in, hq_csv_read_fn *rd, void *rdarg,
    enum hq_date_order forced, struct libre_plan *pl, struct hq_err *e)
{
	struct libre_planner x = { .name = in->name, .pl = pl };

	memset(pl, 0, sizeof *pl);
	if (each_row(in->name, rd, rdarg, libre_plan_row, &x, e))
		return -1;
	if (!pl->header_line)
		return line_err(e, in->name, 1, "no LibreView header (%d or more "
		    "columns)", LV_MINHEADER);
	if (x.ymd_line && x.other_line)
		return line_err(e, in->name, x.other_line, "dates written two "
		    "ways: year first on line %ld, year last here", x.ymd_line);
	if (x.dmy_line && x.mdy_line)
		return line_err(e, in->name, x.mdy_line, "a month-first date here "
		    "but a day-first one on line %ld", x.dmy_line);
	if (forced != HQ_DATES_AUTO)
		pl->order = forced;
	else if (x.dmy_line)
		pl->order = HQ_DATES_DMY;
	else if (x.mdy_line || x.ymd_line || !x.other_line)
		pl->order = HQ_DATES_MDY;
	else {
		hq_err_set(e, "%s: dates such as '%s' (line %ld) could be "
		    "day-first or month-first and no date in the file settles "
		    "it (a day above 12 or a leading year); say which with "
		    "--date-order dmy or --date-order mdy", in->name, x.amb,
		    x.amb_line);
		return -1;
	}
	/* A header that names no unit: Tidepool's rule, mmol/L unless a
	 * value could only be mg/dL. */
	for (int i = 0; i < 15; i++)
		if (pl->unit[i] == 0)
			pl->unit[i] = x.maxval >= 40 ? 1 : 2;
	return 0;
}

/* Pass two: the readings. */
struct libre_reader {
	struct reader r;
	const struct libre_plan *pl;
};

static int
libre_row(void *ctx, const struct hq_csv *c, struct hq_err *e)
{
	static const char *const kinds[] = { "", " scan", " strip" };
	struct libre_reader *x = ctx;
	const char *name = x->r.in->name;
	int type = libre_type(c), col, w[6];
	struct hq_cgm_reading rd = { .line = hq_csv_line(c), .source = x->r.source };
	struct ltime t;
	const char *val;
	char dev[128], serial[96];

	if (rd.line <= x->pl->header_line || type < 0)
		return 0;
	x->r.st->rows++;
	if (type > 2)
		return 0;
	col = libre_value_col(type);
	val = hq_csv_field(c, col);
	if (blank(val)) {
		x->r.st->skipped++;
		rd.mgdl = NAN;
		return x->r.emit(x->r.arg, &rd, e);
	}
	libre_time(hq_csv_field(c, LV_TIME), &t);
	if (libre_date(&t, x->pl->order, &w[0], &w[1], &w[2]))
		return line_err(e, name, rd.line, "'%.40s' is not a date read %s",
		    hq_csv_field(c, LV_TIME),
		    x->pl->order == HQ_DATES_DMY ? "day first" : "month first");
	w[3] = t.h;
	w[4] = t.mi;
	w[5] = t.s;
	rd.kind = type == 0 ? HQ_CGM_REGULAR : type == 1 ? HQ_CGM_SCAN :
	    HQ_CGM_STRIP;
	rd.unit = x->pl->unit[col] == 2 ? "mmol/L" : "mg/dL";
	if (word_is(val, "LO") || word_is(val, "Low")) {
		rd.mgdl = LIBRE_LOW;
		rd.censored = -1;
	} else if (word_is(val, "HI") || word_is(val, "High")) {
		rd.mgdl = LIBRE_HIGH;
		rd.censored = 1;
	} else {
		parse_number(val, &rd.mgdl);
		if (x->pl->unit[col] == 2)
			rd.mgdl *= HQ_CGM_MMOL_FACTOR;
		if (rd.mgdl < MGDL_MIN || rd.mgdl > MGDL_MAX)
			return line_err(e, name, rd.line, "glucose value '%.40s' "
			    "%s is out of range", val, rd.unit);
	}
	clean_copy(dev, sizeof dev, hq_csv_field(c, LV_DEVICE));
	clean_copy(serial, sizeof serial, hq_csv_field(c, LV_SERIAL));
	snprintf(x->r.source, sizeof x->r.source, "%s%s%s%s%s",
	    *dev ? dev : "FreeStyle Libre", kinds[type],
	    *serial ? " (SN " : "", serial, *serial ? ")" : "");
	return deliver(&x->r.wc, w, &rd, x->r.emit, x->r.arg, x->r.st, e);
}

static int
libre_emit(const struct hq_cgmfile_input *in, hq_csv_read_fn *rd,
    void *rdarg, const struct libre_plan *pl, hq_cgmfile_emit_fn *emit,
    void *arg, struct hq_cgmfile_stats *st, struct hq_err *e)
{
	struct libre_reader x = { .r = { .in = in, .emit = emit, .arg = arg,
	    .st = st }, .pl = pl };

	return each_row(in->name, rd, rdarg, libre_row, &x, e);
}

/* Pass one's reader when the input cannot be rewound: what it reads is
 * kept, up to HQ_CGMFILE_MAX_SPOOL bytes, for pass two. */
struct tee {
	const struct hq_cgmfile_input *in;
	struct hq_buf spool;
	size_t max;
	int over;
};

static ssize_t
tee_read(void *arg, void *buf, size_t n)
{
	struct tee *t = arg;
	ssize_t r = t->in->read(t->in->arg, buf, n);

	if (r > 0) {
		if (t->spool.len + (size_t)r > t->max) {
			t->over = 1;
			errno = EFBIG;
			return -1;
		}
		hq_buf_append(&t->spool, buf, (size_t)r);
	}
	return r;
}

static int
libre_read(const struct hq_cgmfile_input *in, enum hq_date_order order,
    hq_cgmfile_emit_fn *emit, void *arg, struct hq_cgmfile_stats *st,
    struct hq_err *e)
{
	struct libre_plan pl;
	struct tee tee = { .in = in, .max = in->spool_max ? in->spool_max :
	    HQ_CGMFILE_MAX_SPOOL };
	int rc;

	if (in->rewind) {
		if (libre_plan(in, in->read, in->arg, order, &pl, e))
			return -1;
		if (in->rewind(in->arg) == 0)
			return libre_emit(in, in->read, in->arg, &pl, emit, arg, st, e);
		hq_err_set(e, "%s: cannot read the file a second time: %s",
		    in->name, strerror(errno));
		return -1;
	}
	rc = libre_plan(in, tee_read, &tee, order, &pl, e);
	if (tee.over)
		hq_err_set(e, "%s: a LibreView file is read twice (to decide "
		    "its date order), and this input cannot be rewound and is "
		    "longer than %zu bytes: give it as a file", in->name,
		    tee.max);
	if (rc == 0) {
		struct hq_csv_mem m = { (const unsigned char *)tee.spool.data,
		    tee.spool.len, 0 };
		rc = libre_emit(in, hq_csv_mem_read, &m, &pl, emit, arg, st, e);
	}
	hq_buf_free(&tee.spool);
	return rc;
}

/* ---- both ---- */

enum hq_cgm_format
hq_cgmfile_sniff(const unsigned char *p, size_t n)
{
	struct hq_csv_mem m = { p, n, 0 };
	struct hq_csv *c;
	struct hq_err e;
	enum hq_cgm_format f = HQ_CGMFILE_NONE;
	struct ltime t;

	/* Binary or XML/JSON: not a CSV. */
	if (n == 0 || memchr(p, '\0', n))
		return f;
	c = hq_csv_new("sniff", hq_csv_mem_read, &m, 0);
	if (hq_csv_next(c, &e) == 1 && dexcom_header(c)) {
		f = HQ_CGMFILE_DEXCOM;
		goto out;
	}
	hq_csv_free(c);
	m.pos = 0;
	c = hq_csv_new("sniff", hq_csv_mem_read, &m, 0);
	for (int i = 0; i <= LV_MAXPREAMBLE; i++)
		if (hq_csv_next(c, &e) != 1 || libre_header(c))
			break;
	if (!libre_header(c))
		goto out;
	/* The row after the header must look like LibreView's. */
	while (hq_csv_next(c, &e) == 1) {
		int type = libre_type(c);
		if (type == -1)
			continue;
		if (type >= 0 && type <= 9 &&
		    libre_time(hq_csv_field(c, LV_TIME), &t) == 0)
			f = HQ_CGMFILE_LIBRE;
		break;
	}
out:
	hq_csv_free(c);
	return f;
}

int
hq_cgmfile_parse_date_order(const char *s, enum hq_date_order *o)
{
	if (strcmp(s, "auto") == 0)
		*o = HQ_DATES_AUTO;
	else if (strcmp(s, "dmy") == 0)
		*o = HQ_DATES_DMY;
	else if (strcmp(s, "mdy") == 0)
		*o = HQ_DATES_MDY;
	else
		return -1;
	return 0;
}

int
hq_cgmfile_read(const struct hq_cgmfile_input *in, enum hq_cgm_format f,
    enum hq_date_order order, hq_cgmfile_emit_fn *emit, void *arg,
    struct hq_cgmfile_stats *st, struct hq_err *e)
{
	memset(st, 0, sizeof *st);
	switch (f) {
	case HQ_CGMFILE_DEXCOM:
		return dexcom_read(in, emit, arg, st, e);
	case HQ_CGMFILE_LIBRE:
		return libre_read(in, order, emit, arg, st, e);
	case HQ_CGMFILE_NONE:
		break;
	}
	hq_err_set(e, "%s: not a Dexcom Clarity or LibreView file", in->name);
	return -1;
}

/* ---- the readers of hq-ingest's format table ---- */

int
hq_cgmfile_sniff_dexcom(const unsigned char *p, size_t n)
{
	return hq_cgmfile_sniff(p, n) == HQ_CGMFILE_DEXCOM;
}

int
hq_cgmfile_sniff_libre(const unsigned char *p, size_t n)
{
	return hq_cgmfile_sniff(p, n) == HQ_CGMFILE_LIBRE;
}

struct import {
	struct hq_ingest *ig;
	struct hq_input *in;
};

static ssize_t
input_read(void *arg, void *buf, size_t n)
{
	struct hq_input *in = arg;
	ssize_t r = hq_input_read(in, buf, n);

	if (r < 0 && !errno)
		errno = EIO;
	return r;
}

static int
input_rewind(void *arg)
{
	return hq_input_rewind(arg);
}

/* A reading into the import: a blood_glucose sample in mg/dL whose source
 * is the sensor; the unit the file wrote is kept beside it. */
static int
import_reading(void *arg, const struct hq_cgm_reading *rd, struct hq_err *e)
{
	struct import *im = arg;
	struct hq_ingest_record r = { .type = "blood_glucose", .by_name = 1,
	    .source = rd->source, .unit = rd->unit, .value_num = rd->mgdl,
	    .has_value = 1, .converted = 1, .start = rd->time,
	    .end = rd->time };
	int rc;

	if (isnan(rd->mgdl)) {
		hq_ingest_skip(im->ig, "%s:%ld: a glucose row without a value",
		    im->in->name, rd->line);
		return 0;
	}
	rc = hq_ingest_record(im->ig, &r, NULL, e);
	if (rc == 2)
		hq_err_prefix(e, "%s:%ld", im->in->name, rd->line);
	hq_ingest_tick(im->ig, im->in);
	return rc == 2 || rc < 0 ? -1 : 0;
}

static int
import(struct hq_input *in, enum hq_date_order order, struct hq_ingest *ig,
    enum hq_cgm_format f, struct hq_err *e)
{
	struct import im = { ig, in };
	struct hq_cgmfile_input ci = { in->name, input_read, in, NULL, 0 };
	struct hq_cgmfile_stats st;

	/* Read twice from the file when it can seek, else kept in memory. */
	if (in->fd >= 0 && lseek(in->fd, 0, SEEK_CUR) >= 0)
		ci.rewind = input_rewind;
	return hq_cgmfile_read(&ci, f, order, import_reading, &im, &st, e);
}

int
hq_cgmfile_read_dexcom(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	return import(in, o->date_order, ig, HQ_CGMFILE_DEXCOM, e);
}

int
hq_cgmfile_read_libre(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	return import(in, o->date_order, ig, HQ_CGMFILE_LIBRE, e);
}
