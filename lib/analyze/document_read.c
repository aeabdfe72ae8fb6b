#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/dexa.h"
#include "hq/document_read.h"
#include "hq/labs.h"
#include "hq/output.h"
#include "hq/store.h"
#include "hq/time.h"

/* document_read.h: list, latest and trend labs, latest and
 * compare DEXA. */

static int
query_err(struct hq_store *s, struct hq_err *e)
{
	hq_err_set(e, "%s: %s", hq_store_filename(s),
	    sqlite3_errmsg(hq_store_db(s)));
	return -1;
}

static const char *
col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

int
hq_report_list(struct hq_store *s, const char *kind, hq_report_list_fn *fn,
    void *arg, struct hq_err *e)
{
	sqlite3_stmt *st;
	long rows = 0;
	int rc;

	if (hq_store_prepare(s,
	    "SELECT kind, date, source, n FROM ("
	    " SELECT r.kind, r.date, r.source, count(*) AS n FROM report r"
	    "  JOIN lab_result l ON l.report_id = r.id AND l.superseded_by IS NULL"
	    "  WHERE r.kind = 'labs' GROUP BY r.id"
	    " UNION ALL"
	    " SELECT r.kind, r.date, r.source, count(*) FROM report r"
	    "  JOIN dexa_value v ON v.report_id = r.id"
	    "  WHERE r.kind = 'dexa' GROUP BY r.id)"
	    " WHERE ?1 IS NULL OR kind = ?1 ORDER BY date, kind, source", &st, e))
		return -1;
	if (kind)
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct hq_report_list_row r = { col_text(st, 0), col_text(st, 1),
			col_text(st, 2), sqlite3_column_int64(st, 3) };
		rows++;
		if (fn(arg, &r, e)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	if (rc != SQLITE_DONE)
		rc = query_err(s, e);
	else
		rc = 0;
	sqlite3_finalize(st);
	if (rc == 0 && rows == 0) {
		hq_err_set(e, "no %s reports in the store", kind ? kind : "DEXA or lab");
		return 1;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Reading: labs                                                        */

static int
store_has(struct hq_store *s, const char *sql, const char *key, char *buf,
    size_t n)
{
	sqlite3_stmt *st;
	int found = 0;

	if (hq_store_prepare(s, sql, &st, &(struct hq_err){ { 0 } }))
		return 0;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(buf, n, "%s", col_text(st, 0));
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

int
hq_report_lab_test(struct hq_store *s, const char *arg, char *buf, size_t n,
    struct hq_err *e)
{
	const struct hq_lab_test *t = hq_labs_lookup(arg);
	struct hq_catalog_suggestion sg;
	sqlite3_stmt *st;
	char key[64];

	if (t) {
		snprintf(buf, n, "%s", t->name);
		return 0;
	}
	hq_labs_snake(arg, key, sizeof key);
	if (store_has(s, "SELECT test FROM lab_result WHERE test = ?1 LIMIT 1",
	    key, buf, n) ||
	    store_has(s, "SELECT test FROM lab_result WHERE loinc = ?1 LIMIT 1",
	    arg, buf, n))
		return 0;
	hq_catalog_suggest_start(&sg, key);
	for (size_t i = 0; i < hq_labs_count(); i++) {
		t = hq_labs_at(i);
		hq_catalog_suggest_word(&sg, t->name, strlen(t->name));
		hq_catalog_suggest_words(&sg, t->aliases, 3);
	}
	if (hq_store_prepare(s, "SELECT DISTINCT test FROM lab_result", &st, e))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW)
		hq_catalog_suggest_word(&sg, col_text(st, 0),
		    strlen(col_text(st, 0)));
	sqlite3_finalize(st);
	if (hq_catalog_suggest_pick(&sg))
		hq_err_set(e, "unknown test '%.60s' (did you mean %s?)", arg, sg.pick);
	else
		hq_err_set(e, "unknown test '%.60s' (hq-report list labs shows "
		    "what the store holds)", arg);
	return -1;
}

void
hq_report_lab_units(struct hq_store *s, const char *test, char *buf, size_t n)
{
	const struct hq_lab_test *t = hq_labs_lookup(test);
	struct hq_buf b = { 0 };
	sqlite3_stmt *st;

	if (t)
		hq_buf_puts(&b, t->units);
	if (hq_store_prepare(s, "SELECT DISTINCT unit FROM lab_result WHERE "
	    "test = ?1 AND unit != '' ORDER BY unit", &st,
	    &(struct hq_err){ { 0 } }) == 0) {
		sqlite3_bind_text(st, 1, test, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *u = col_text(st, 0);
			if (hq_catalog_word_in(b.data ? b.data : "", u))
				continue;
			if (b.len)
				hq_buf_putc(&b, ' ');
			hq_buf_puts(&b, u);
		}
		sqlite3_finalize(st);
	}
	snprintf(buf, n, "%s", b.data ? b.data : "");
	hq_buf_free(&b);
}

/* Whether a test's values can be shown in unit: a catalog test converts
 * from its canonical unit; another one from a unit its results have. */
static int
unit_fits(struct hq_store *s, const char *test, const char *unit)
{
	const struct hq_lab_test *t = hq_labs_lookup(test);
	char units[256], *save = NULL;
	double out;

	if (t)
		return hq_labs_convert(t, 1, t->unit, unit, &out) == 0;
	hq_report_lab_units(s, test, units, sizeof units);
	for (char *u = strtok_r(units, " ", &save); u; u = strtok_r(NULL, " ", &save))
		if (hq_labs_convert(NULL, 1, u, unit, &out) == 0)
			return 1;
	return 0;
}

int
hq_report_lab_unit_ok(struct hq_store *s, const char *const *tests, size_t n,
    const char *unit, struct hq_err *e)
{
	char units[256];

	for (size_t i = 0; i < n; i++) {
		if (unit_fits(s, tests[i], unit))
			continue;
		hq_report_lab_units(s, tests[i], units, sizeof units);
		hq_err_set(e, "%s cannot be shown in '%.20s' (its units: %s)",
		    tests[i], unit, units[0] ? units : "none");
		return -1;
	}
	return 0;
}

void
hq_report_lab_text(const struct hq_lab_row *r, char *value, size_t vn,
    char *range, size_t rn)
{
	char a[32], b[32];

	if (value && isnan(r->value))
		snprintf(value, vn, "%s", r->text);
	else if (value) {
		hq_format_short(r->value, a, sizeof a);
		snprintf(value, vn, "%s%s", r->comparator, a);
	}
	if (!range)
		return;
	hq_format_short(r->ref_low, a, sizeof a);
	hq_format_short(r->ref_high, b, sizeof b);
	if (!isnan(r->ref_low) && !isnan(r->ref_high))
		snprintf(range, rn, "%s-%s", a, b);
	else if (!isnan(r->ref_high))
		snprintf(range, rn, "<=%s", b);
	else if (!isnan(r->ref_low))
		snprintf(range, rn, ">=%s", a);
	else
		range[0] = '\0';
}

#define LAB_COLUMNS "l.test, l.name, l.loinc, l.date, l.value, l.comparator, " \
	"l.text, l.unit, l.ref_low, l.ref_high, l.lab_flag, r.source, l.time "
#define LAB_FROM "FROM lab_result l JOIN report r ON r.id = l.report_id " \
	"WHERE l.test = ?1 AND l.superseded_by IS NULL "

/* A row from LAB_COLUMNS, converted to unit when given and possible. */
static void
lab_row(sqlite3_stmt *st, const char *unit, struct hq_lab_row *r,
    char *ubuf, size_t un)
{
	const struct hq_lab_test *t;
	double v, lo, hi;

	memset(r, 0, sizeof *r);
	r->test = col_text(st, 0);
	r->name = col_text(st, 1);
	r->loinc = col_text(st, 2);
	r->date = col_text(st, 3);
	r->time = sqlite3_column_int64(st, 12);
	r->value = hq_store_col_num(st, 4);
	r->comparator = col_text(st, 5);
	r->text = col_text(st, 6);
	r->unit = col_text(st, 7);
	r->ref_low = hq_store_col_num(st, 8);
	r->ref_high = hq_store_col_num(st, 9);
	r->source = col_text(st, 11);
	r->method = hq_labs_method(r->loinc);
	r->change = NAN;
	t = hq_labs_lookup(r->test);
	if (unit && strcmp(unit, r->unit) != 0 && !isnan(r->value)) {
		if (hq_labs_convert(t, r->value, r->unit, unit, &v) == 0) {
			/* Limits written without a unit are in the value's. */
			hq_labs_convert(t, r->ref_low, r->unit, unit, &lo);
			hq_labs_convert(t, r->ref_high, r->unit, unit, &hi);
			r->value = v;
			r->ref_low = lo;
			r->ref_high = hi;
			snprintf(ubuf, un, "%s", unit);
			r->unit = ubuf;
		} else {
			r->unconverted = 1;
		}
	}
	r->flag = hq_labs_flag(r->value, r->ref_low, r->ref_high, col_text(st, 10));
}

static int
each_test(struct hq_store *s, const char *const *tests, size_t n,
    const char *unit, hq_lab_row_fn *fn, void *arg, long *rows,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	char ubuf[32];
	int rc = 0;

	if (hq_store_prepare(s, "SELECT " LAB_COLUMNS LAB_FROM
	    "ORDER BY l.time DESC, l.id DESC LIMIT 1", &st, e))
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct hq_lab_row r;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, tests[i], -1, SQLITE_STATIC);
		int k = sqlite3_step(st);
		if (k == SQLITE_ROW) {
			lab_row(st, unit, &r, ubuf, sizeof ubuf);
			(*rows)++;
			rc = fn(arg, &r, e) ? -1 : 0;
		} else if (k != SQLITE_DONE) {
			rc = query_err(s, e);
		}
	}
	sqlite3_finalize(st);
	return rc;
}

int
hq_report_labs_latest(struct hq_store *s, const char *const *tests, size_t n,
    const char *unit, hq_lab_row_fn *fn, void *arg, struct hq_err *e)
{
	long rows = 0;
	int rc;

	if (n) {
		rc = each_test(s, tests, n, unit, fn, arg, &rows, e);
	} else {
		sqlite3_stmt *st;
		char **all = NULL;
		size_t k = 0, cap = 0;
		if (hq_store_prepare(s, "SELECT DISTINCT test FROM lab_result "
		    "WHERE superseded_by IS NULL ORDER BY test", &st, e))
			return -1;
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (k == cap) {
				cap = cap ? 2 * cap : 32;
				all = hq_xrealloc(all, cap * sizeof *all);
			}
			all[k++] = hq_xstrdup(col_text(st, 0));
		}
		sqlite3_finalize(st);
		rc = each_test(s, (const char *const *)all, k, unit, fn, arg,
		    &rows, e);
		for (size_t i = 0; i < k; i++)
			free(all[i]);
		free(all);
	}
	if (rc == 0 && rows == 0) {
		if (n == 1)
			hq_err_set(e, "no %s results in the store", tests[0]);
		else
			hq_err_set(e, "no lab results in the store");
		return 1;
	}
	return rc;
}

void
hq_report_lab_trend_unit(struct hq_store *s, const char *test, char *buf,
    size_t n)
{
	buf[0] = '\0';
	store_has(s, "SELECT unit FROM lab_result WHERE test = ?1 AND "
	    "superseded_by IS NULL AND value IS NOT NULL AND unit != '' "
	    "ORDER BY time DESC, id DESC LIMIT 1", test, buf, n);
}

int
hq_report_labs_trend(struct hq_store *s, const char *test, const char *unit,
    hq_lab_row_fn *fn, void *arg, struct hq_err *e)
{
	sqlite3_stmt *st;
	char newest[32] = "", ubuf[32], prev_method[32] = "", prev_unit[32] = "";
	double prev = NAN;
	long rows = 0;
	int rc;

	if (!unit) {
		hq_report_lab_trend_unit(s, test, newest, sizeof newest);
		unit = newest;
	}
	if (hq_store_prepare(s, "SELECT " LAB_COLUMNS LAB_FROM
	    "ORDER BY l.time, l.id", &st, e))
		return -1;
	sqlite3_bind_text(st, 1, test, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct hq_lab_row r;
		lab_row(st, unit, &r, ubuf, sizeof ubuf);
		r.method_changed = rows && *prev_method && *r.method &&
		    strcmp(prev_method, r.method) != 0;
		/* From the previous result whatever its method (hq-report(1): the
		 * change is from the previous result; method_change says the
		 * two are not the same measurement), so changes sum to the
		 * last value less the first. */
		if (!isnan(prev) && !isnan(r.value) &&
		    strcmp(prev_unit, r.unit) == 0)
			r.change = r.value - prev;
		if (!isnan(r.value)) {
			prev = r.value;
			snprintf(prev_unit, sizeof prev_unit, "%s", r.unit);
		}
		if (*r.method)
			snprintf(prev_method, sizeof prev_method, "%s", r.method);
		rows++;
		if (fn(arg, &r, e)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	rc = rc == SQLITE_DONE ? 0 : query_err(s, e);
	sqlite3_finalize(st);
	if (rc == 0 && rows == 0) {
		hq_err_set(e, "no %s results in the store", test);
		return 1;
	}
	return rc;
}

int
hq_report_lab_tests(struct hq_store *s, hq_report_name_fn *fn, void *arg,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (hq_store_prepare(s, "SELECT DISTINCT test FROM lab_result WHERE "
	    "superseded_by IS NULL ORDER BY test", &st, e))
		return -1;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW)
		rc = fn(arg, col_text(st, 0));
	sqlite3_finalize(st);
	return rc;
}

struct flagged {
	int64_t from, to;
	hq_lab_flagged_fn *fn;
	void *arg;
	char **tests;
	size_t n;
};

static int
add_flagged_test(void *arg, const char *name)
{
	struct flagged *f = arg;

	f->tests = hq_xrealloc(f->tests, (f->n + 1) * sizeof *f->tests);
	f->tests[f->n++] = hq_xstrdup(name);
	return 0;
}

static int
flagged_row(void *arg, const struct hq_lab_row *r, struct hq_err *e)
{
	struct flagged *f = arg;
	int64_t day = hq_time_local_day(r->time);

	(void)e;
	if (day < f->from || day > f->to || !r->flag ||
	    (strcmp(r->flag, "H") != 0 && strcmp(r->flag, "L") != 0))
		return 0;
	return f->fn(f->arg, r, day);
}

int
hq_report_labs_flagged(struct hq_store *s, int64_t from, int64_t to,
    hq_lab_flagged_fn *fn, void *arg, struct hq_err *e)
{
	struct flagged f = { from, to, fn, arg, NULL, 0 };
	int rc = hq_report_lab_tests(s, add_flagged_test, &f, e);

	for (size_t i = 0; i < f.n && rc == 0; i++)
		rc = hq_report_labs_trend(s, f.tests[i], NULL, flagged_row, &f, e)
		    < 0 ? -1 : 0;
	for (size_t i = 0; i < f.n; i++)
		free(f.tests[i]);
	free(f.tests);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Reading: DEXA                                                        */

/*
 * Precision: lean mass CV
 * below 0.5 % (Hologic whitepaper); VAT CV about 5-15 % (Goldberg & Fung,
 * J Clin Densitom 2019), the lower end taken, so that a change called
 * beyond noise is beyond it even on the best scanner. A change between
 * two scans is within precision below the least significant change, LSC
 * = 1.96 × √2 × CV = 2.77 × CV (ISCD: 95 % confidence, two measurements).
 */
static const struct { const char *field; double cv; const char *why; } precision[] = {
	{ "lean_mass", 0.5, "lean mass CV < 0.5 % (Hologic)" },
	{ "vat_mass", 5, "VAT CV 5-15 % (Goldberg & Fung 2019)" },
	{ "vat_volume", 5, "VAT CV 5-15 % (Goldberg & Fung 2019)" },
	{ "vat_area", 5, "VAT CV 5-15 % (Goldberg & Fung 2019)" },
};

double
hq_report_dexa_cv(const char *field, const char **why)
{
	for (size_t i = 0; i < sizeof precision / sizeof precision[0]; i++)
		if (strcmp(field, precision[i].field) == 0) {
			if (why)
				*why = precision[i].why;
			return precision[i].cv;
		}
	return NAN;
}

/* The catalog's order of a field: whole-body fields first, then regions. */
static int
field_order(const char *name)
{
	const char *n;
	int i;

	for (i = 0; (n = hq_dexa_name_at((size_t)i)); i++)
		if (strcmp(n, name) == 0)
			break;
	return i;
}

int
hq_report_dexa_fields_ok(const char *const *fields, size_t n, struct hq_err *e)
{
	char name[96];
	const char *unit;

	for (size_t i = 0; i < n; i++)
		if (hq_dexa_field_name(fields[i], NULL, name, sizeof name, &unit, e))
			return -1;
	return 0;
}

static int
wanted(const char *field, const char *const *fields, size_t n)
{
	char name[96];
	const char *unit;
	struct hq_err e;

	if (n == 0)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (hq_dexa_field_name(fields[i], NULL, name, sizeof name, &unit,
		    &e) == 0 && strcmp(name, field) == 0)
			return 1;
	return 0;
}

struct scan_value {
	char field[48], unit[16];
	double value;
	int order;
};

static int
cmp_order(const void *a, const void *b)
{
	const struct scan_value *x = a, *y = b;

	return x->order - y->order;
}

/* A scan's values, sorted in the catalog's order (at most
 * HQ_DEXA_MAX_FIELDS; fields is filled, *n set). */
static int
scan_values(struct hq_store *s, int64_t id, struct scan_value *v, size_t *n,
    struct hq_err *e)
{
	sqlite3_stmt *st;

	*n = 0;
	if (hq_store_prepare(s, "SELECT field, value, unit FROM dexa_value "
	    "WHERE report_id = ?", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW && *n < HQ_DEXA_MAX_FIELDS) {
		struct scan_value *x = &v[(*n)++];
		snprintf(x->field, sizeof x->field, "%s", col_text(st, 0));
		x->value = sqlite3_column_double(st, 1);
		snprintf(x->unit, sizeof x->unit, "%s", col_text(st, 2));
		x->order = field_order(x->field);
	}
	sqlite3_finalize(st);
	qsort(v, *n, sizeof *v, cmp_order);
	return 0;
}

struct scan {
	int64_t id;
	char date[11];
};

/* The newest scans, newest first: up to max. The number found, -1. */
static int
last_scans(struct hq_store *s, struct scan *sc, int max, long *total,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	int n = 0;

	*total = 0;
	if (hq_store_prepare(s, "SELECT r.id, r.date, (SELECT count(*) FROM report "
	    "WHERE kind = 'dexa') FROM report r WHERE r.kind = 'dexa' AND EXISTS "
	    "(SELECT 1 FROM dexa_value v WHERE v.report_id = r.id) "
	    "ORDER BY r.date DESC, r.id DESC", &st, e))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		(*total)++;
		if (n < max) {
			sc[n].id = sqlite3_column_int64(st, 0);
			snprintf(sc[n].date, sizeof sc[n].date, "%s", col_text(st, 1));
			n++;
		}
	}
	sqlite3_finalize(st);
	return n;
}

int
hq_report_dexa_latest(struct hq_store *s, const char *const *fields, size_t n,
    hq_dexa_row_fn *fn, void *arg, struct hq_err *e)
{
	struct scan sc;
	struct scan_value *v;
	size_t nv;
	long total, rows = 0;
	int rc;

	if ((rc = last_scans(s, &sc, 1, &total, e)) < 0)
		return -1;
	if (rc == 0) {
		hq_err_set(e, "no DEXA scans in the store");
		return 1;
	}
	v = hq_xcalloc(HQ_DEXA_MAX_FIELDS, sizeof *v);
	rc = scan_values(s, sc.id, v, &nv, e);
	for (size_t i = 0; rc == 0 && i < nv; i++) {
		struct hq_dexa_row r = { .field = v[i].field, .unit = v[i].unit,
			.date = sc.date, .value = v[i].value };
		if (!wanted(v[i].field, fields, n))
			continue;
		rows++;
		rc = fn(arg, &r, e) ? -1 : 0;
	}
	free(v);
	if (rc == 0 && rows == 0) {
		hq_err_set(e, "the scan of %s has none of those fields", sc.date);
		return 1;
	}
	return rc;
}

/* The newest scan on a date as typed (2024-03-01, 2024-03, ...). */
static int
scan_on(struct hq_store *s, const char *when, struct scan *sc, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t start, end;
	char d0[11], d1[11];
	int found = 0;

	if (hq_time_parse_range(when, hq_time_now(), &start, &end, e))
		return -1;
	hq_time_format_date(start, d0, sizeof d0);
	hq_time_format_date(end > start ? end - 1 : start, d1, sizeof d1);
	if (hq_store_prepare(s, "SELECT r.id, r.date FROM report r WHERE "
	    "r.kind = 'dexa' AND r.date BETWEEN ?1 AND ?2 ORDER BY r.date DESC, "
	    "r.id DESC LIMIT 1", &st, e))
		return -1;
	sqlite3_bind_text(st, 1, d0, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, d1, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		sc->id = sqlite3_column_int64(st, 0);
		snprintf(sc->date, sizeof sc->date, "%s", col_text(st, 1));
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

int
hq_report_dexa_compare(struct hq_store *s, const char *d1, const char *d2,
    int last, const char *const *fields, size_t n, hq_dexa_row_fn *fn,
    void *arg, struct hq_err *e)
{
	struct scan sc[2];
	struct scan_value *a, *b;
	size_t na, nb;
	long total, rows = 0;
	int rc;

	if (d1 && d2) {
		const char *when[2] = { d1, d2 };
		for (int i = 0; i < 2; i++) {
			if ((rc = scan_on(s, when[i], &sc[i], e)) < 0)
				return -1;
			if (rc == 0) {
				hq_err_set(e, "no DEXA scan on %.40s", when[i]);
				return 1;
			}
		}
	} else {
		struct scan *recent;
		if (last < 2)
			last = 2;
		recent = hq_xcalloc((size_t)last, sizeof *recent);
		if ((rc = last_scans(s, recent, last, &total, e)) < 0) {
			free(recent);
			return -1;
		}
		if (rc < last) {
			if (last == 2)
				hq_err_set(e, "a comparison needs two DEXA scans; the "
				    "store has %ld", total);
			else
				hq_err_set(e, "the last %d DEXA scans: the store has "
				    "%ld", last, total);
			free(recent);
			return 1;
		}
		sc[0] = recent[last - 1];
		sc[1] = recent[0];
		free(recent);
	}
	a = hq_xcalloc(HQ_DEXA_MAX_FIELDS, sizeof *a);
	b = hq_xcalloc(HQ_DEXA_MAX_FIELDS, sizeof *b);
	rc = scan_values(s, sc[0].id, a, &na, e);
	if (rc == 0)
		rc = scan_values(s, sc[1].id, b, &nb, e);
	for (size_t i = 0; rc == 0 && i < na; i++) {
		const struct scan_value *after = NULL;
		for (size_t j = 0; j < nb && !after; j++)
			if (strcmp(a[i].field, b[j].field) == 0)
				after = &b[j];
		if (!after || !wanted(a[i].field, fields, n))
			continue;
		struct hq_dexa_row r = { .field = a[i].field, .unit = a[i].unit,
			.before_date = sc[0].date, .after_date = sc[1].date,
			.before = a[i].value, .after = after->value,
			.change = after->value - a[i].value, .value = NAN };
		r.pct_change = a[i].value > 0 ? 100 * r.change / a[i].value : NAN;
		r.lsc_pct = 1.96 * sqrt(2) * hq_report_dexa_cv(a[i].field, NULL);
		r.within_precision = !isnan(r.lsc_pct) && !isnan(r.pct_change) &&
		    fabs(r.pct_change) <= r.lsc_pct;
		rows++;
		rc = fn(arg, &r, e) ? -1 : 0;
	}
	free(a);
	free(b);
	if (rc == 0 && rows == 0) {
		hq_err_set(e, "the scans of %s and %s share none of those fields",
		    sc[0].date, sc[1].date);
		return 1;
	}
	return rc;
}
