#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/cgm_read.h"
#include "hq/document_out.h"
#include "hq/document_read.h"
#include "hq/labs.h"
#include "hq/rowdesc.h"
#include "hq/time.h"

/* The fits every table here shares: the text columns are cut, the widest
 * first, towards these widths (the source: a lab's or a sensor's name, as
 * long as it came). */
#define FIT_SOURCE { .min_width = 10 }
#define FIT_TEST { .min_width = 12 }
#define FIT_VALUE { .min_width = 10 }
#define FIT_RANGE { .min_width = 8 }
#define FIT_NOTE { .min_width = 10 }
#define FIT_FIELD { .min_width = 12 }

#define T HQ_COL_TABLE
#define D HQ_COL_DATA

/* ---- list ----------------------------------------------------------------- */

#define LIST(k, t, f) HQ_COL_AT(k, t, struct hq_report_list_row, f)
static const struct hq_col list_cols[] = {
	{ LIST("kind", HQ_COL_STR, kind) },
	{ LIST("date", HQ_COL_STR, date) },
	{ LIST("source", HQ_COL_STR, source), .fit = FIT_SOURCE },
	{ LIST("n", HQ_COL_LONG, n) },
	{ .key = NULL },
};

static int
list_row(void *arg, const struct hq_report_list_row *r, struct hq_err *e)
{
	(void)e;
	hq_out_row(arg, list_cols, r);
	return 0;
}

struct sessions {
	struct hq_out *o;
	long n;
};

/* A sensor session as a list row: kind cgm, its first local date, the
 * local days with readings. */
static int
session_row(void *arg, const struct hq_cgm_session *ses, struct hq_err *e)
{
	struct sessions *x = arg;
	char date[16];
	struct hq_report_list_row r = { "cgm", date, ses->source, ses->days };

	(void)e;
	hq_time_format_day(hq_time_local_day(ses->first), date, sizeof date);
	hq_out_row(x->o, list_cols, &r);
	x->n++;
	return 0;
}

int
hq_report_list_out(struct hq_store *s, const char *kind, struct hq_out *o,
    struct hq_err *e)
{
	int cgm = !kind || strcmp(kind, "cgm") == 0, rc = 1;
	struct sessions x = { o, 0 };

	hq_out_fit_cols(o, list_cols);
	if (!kind || !cgm)
		rc = hq_report_list(s, kind, list_row, o, e);
	if (rc < 0 || !cgm)
		return rc;
	if (hq_cgm_sessions(s, session_row, &x, e))
		return -1;
	if (rc == 1 && x.n == 0) {
		hq_err_set(e, "no %sreports in the store: import some with hq-ingest",
		    kind ? "CGM " : "");
		return 1;
	}
	return 0;
}

/* ---- labs ----------------------------------------------------------------- */

/* A lab value with its unit: "131 mg/dL", "<5 %". */
static int
lab_value_unit(const void *row, char *buf, size_t n)
{
	const struct hq_lab_row *r = row;
	char v[160];

	hq_report_lab_text(r, v, sizeof v, NULL, 0);
	snprintf(buf, n < 200 ? n : 200, "%s%s%s", v, *r->unit ? " " : "",
	    r->unit);
	return 0;
}

static int
lab_value(const void *row, char *buf, size_t n)
{
	hq_report_lab_text(row, buf, n < 160 ? n : 160, NULL, 0);
	return 0;
}

static int
lab_range(const void *row, char *buf, size_t n)
{
	hq_report_lab_text(row, NULL, 0, buf, n < 64 ? n : 64);
	return 0;
}

/* The change from the previous result, signed: "+3", "-0.2", "-". */
static int
lab_change(const void *row, char *buf, size_t n)
{
	const struct hq_lab_row *r = row;

	n = n < 32 ? n : 32;
	hq_format_short(r->change, buf, n);
	if (!isnan(r->change) && r->change > 0)
		snprintf(buf, n, "+%.4g", r->change);
	return 0;
}

static int
lab_note(const void *row, char *buf, size_t n)
{
	const struct hq_lab_row *r = row;

	n = n < 64 ? n : 64;
	if (r->method_changed)
		snprintf(buf, n, "method now %s", r->method);
	else if (r->unconverted && !*r->unit)
		snprintf(buf, n, "no unit given");
	else if (r->unconverted)
		snprintf(buf, n, "in %s (no conversion)", r->unit);
	return 0;
}

#define LAB(k, t, f) HQ_COL_AT(k, t, struct hq_lab_row, f)
/* latest: test, date, value, range, flag, source on a terminal. */
static const struct hq_col latest_cols[] = {
	{ LAB("test", HQ_COL_STR, test), .fit = FIT_TEST },
	{ LAB("loinc", HQ_COL_STR, loinc), .in = D },
	{ LAB("date", HQ_COL_STR, date) },
	{ HQ_COL_FN("value", lab_value_unit), .in = T, .fit = FIT_VALUE },
	{ LAB("value", HQ_COL_NUM, value), .in = D },
	{ LAB("comparator", HQ_COL_STR0, comparator), .in = D },
	{ LAB("text", HQ_COL_STR0, text), .in = D },
	{ LAB("unit", HQ_COL_STR, unit), .in = D },
	{ LAB("ref_low", HQ_COL_NUM, ref_low), .in = D },
	{ LAB("ref_high", HQ_COL_NUM, ref_high), .in = D },
	{ HQ_COL_FN("range", lab_range), .in = T, .fit = FIT_RANGE },
	{ LAB("flag", HQ_COL_STR, flag) },
	{ LAB("source", HQ_COL_STR, source), .fit = FIT_SOURCE },
	{ .key = NULL },
};

/* trend: date, value, flag, change, note on a terminal, under a heading. */
static const struct hq_col trend_cols[] = {
	{ LAB("test", HQ_COL_STR, test), .in = D },
	{ LAB("loinc", HQ_COL_STR, loinc), .in = D },
	{ LAB("date", HQ_COL_STR, date) },
	{ HQ_COL_FN("value", lab_value), .in = T, .fit = FIT_VALUE },
	{ LAB("value", HQ_COL_NUM, value), .in = D },
	{ LAB("comparator", HQ_COL_STR0, comparator), .in = D },
	{ LAB("unit", HQ_COL_STR, unit), .in = D },
	{ LAB("flag", HQ_COL_STR, flag) },
	{ HQ_COL_FN("change", lab_change), .in = T },
	{ LAB("change", HQ_COL_NUM, change), .in = D },
	{ LAB("method", HQ_COL_STR, method), .in = D },
	{ LAB("method_change", HQ_COL_BOOL, method_changed), .in = D },
	{ HQ_COL_FN("note", lab_note), .in = T, .fit = FIT_NOTE },
	{ .key = NULL },
};

/* The TEST operands as the store's names; NULL with e set. */
static char **
resolve_tests(struct hq_store *s, const char *const *args, size_t n,
    struct hq_err *e)
{
	char **tests = hq_xcalloc(n + 1, sizeof *tests);
	char name[64];

	for (size_t i = 0; i < n; i++) {
		if (hq_report_lab_test(s, args[i], name, sizeof name, e)) {
			for (size_t k = 0; k < i; k++)
				free(tests[k]);
			free(tests);
			return NULL;
		}
		tests[i] = hq_xstrdup(name);
	}
	return tests;
}

static void
free_tests(char **tests)
{
	for (size_t i = 0; tests && tests[i]; i++)
		free(tests[i]);
	free(tests);
}

/* unit (--unit) for these tests: normalised into buf, or -1 (e names the
 * units a test has). */
static int
check_unit(struct hq_store *s, const char *unit, char **tests, size_t n,
    char *buf, size_t bn, struct hq_err *e)
{
	if (!unit)
		return 0;
	hq_labs_unit_normalise(unit, buf, bn);
	if (n == 0)
		return 0;
	return hq_report_lab_unit_ok(s, (const char *const *)tests, n, buf, e);
}

static int
lab_row(void *arg, const struct hq_lab_row *r, struct hq_err *e)
{
	(void)e;
	hq_out_row(arg, latest_cols, r);
	return 0;
}

int
hq_report_latest_labs_out(struct hq_store *s, const char *const *args,
    size_t n, const char *unit, struct hq_out *o, struct hq_err *e)
{
	char **tests = resolve_tests(s, args, n, e), ubuf[32];
	int rc;

	if (!tests)
		return -1;
	hq_out_fit_cols(o, latest_cols);
	if (check_unit(s, unit, tests, n, ubuf, sizeof ubuf, e))
		rc = -1;
	else
		rc = hq_report_labs_latest(s, (const char *const *)tests, n,
		    unit ? ubuf : NULL, lab_row, o, e);
	free_tests(tests);
	return rc;
}

struct trend {
	struct hq_out *o;
	const char *unit;       /* the trend's */
	int heading;
};

static int
trend_row(void *arg, const struct hq_lab_row *r, struct hq_err *e)
{
	struct trend *t = arg;

	(void)e;
	if (!t->heading && hq_out_format(t->o) == HQ_FMT_TABLE) {
		const struct hq_lab_test *cat = hq_labs_lookup(r->test);
		struct hq_buf head = { 0 };
		hq_buf_printf(&head, "%s%s%s%s%s", r->test, cat ? ": " : "",
		    cat ? cat->description : "", *t->unit ? ", " : "", t->unit);
		hq_out_heading(t->o, head.data);
		hq_buf_free(&head);
		t->heading = 1;
	}
	hq_out_row(t->o, trend_cols, r);
	return 0;
}

int
hq_report_trend_labs_out(struct hq_store *s, const char *test,
    const char *unit, FILE *svg, struct hq_out *o, struct hq_err *e)
{
	char **tests = resolve_tests(s, &test, 1, e), ubuf[32];
	struct trend t = { o, ubuf, 0 };
	int rc;

	if (!tests)
		return -1;
	hq_out_fit_cols(o, trend_cols);
	if (!unit)
		hq_report_lab_trend_unit(s, tests[0], ubuf, sizeof ubuf);
	if (check_unit(s, unit, tests, 1, ubuf, sizeof ubuf, e))
		rc = -1;
	else if (svg)
		rc = hq_report_labs_trend_svg(s, tests[0], unit ? ubuf : NULL, svg, e);
	else
		rc = hq_report_labs_trend(s, tests[0], unit ? ubuf : NULL,
		    trend_row, &t, e);
	free_tests(tests);
	return rc;
}

/* ---- DEXA ----------------------------------------------------------------- */

#define DEXA(k, t, f) HQ_COL_AT(k, t, struct hq_dexa_row, f)
static const struct hq_col dexa_cols[] = {
	{ DEXA("field", HQ_COL_STR, field), .fit = FIT_FIELD },
	{ DEXA("date", HQ_COL_STR, date) },
	{ DEXA("value", HQ_COL_SHORT, value), .in = T, .fit = FIT_VALUE },
	{ DEXA("value", HQ_COL_NUM, value), .in = D },
	{ DEXA("unit", HQ_COL_STR, unit) },
	{ .key = NULL },
};

static int
dexa_change(const void *row, char *buf, size_t n)
{
	snprintf(buf, n < 32 ? n : 32, "%+.4g", ((const struct hq_dexa_row *)row)->change);
	return 0;
}

/* "+2.5%", with " ~" when within the scanner's precision; "-" none. */
static int
dexa_pct(const void *row, char *buf, size_t n)
{
	const struct hq_dexa_row *r = row;

	n = n < 32 ? n : 32;
	if (isnan(r->pct_change))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%+.1f%%%s", r->pct_change,
		    r->within_precision ? " ~" : "");
	return 0;
}

static const struct hq_col compare_cols[] = {
	{ DEXA("field", HQ_COL_STR, field), .fit = FIT_FIELD },
	{ DEXA("unit", HQ_COL_STR, unit) },
	{ DEXA("before_date", HQ_COL_STR, before_date), .in = D },
	{ DEXA("after_date", HQ_COL_STR, after_date), .in = D },
	{ DEXA("before", HQ_COL_SHORT, before), .in = T },
	{ DEXA("before", HQ_COL_NUM, before), .in = D },
	{ DEXA("after", HQ_COL_SHORT, after), .in = T },
	{ DEXA("after", HQ_COL_NUM, after), .in = D },
	{ HQ_COL_FN("change", dexa_change), .in = T },
	{ DEXA("change", HQ_COL_NUM, change), .in = D },
	{ HQ_COL_FN("pct", dexa_pct), .in = T },
	{ DEXA("pct_change", HQ_COL_NUM, pct_change), .in = D },
	{ DEXA("lsc_pct", HQ_COL_NUM, lsc_pct), .in = D },
	{ DEXA("within_precision", HQ_COL_BOOL, within_precision), .in = D },
	{ .key = NULL },
};

/* --fields as a list of names, pointing into copy (freed by the caller
 * with the list). */
static const char **
split_fields(const char *fields, char **copy, size_t *n)
{
	const char **list = NULL;
	char *save = NULL;

	*n = 0;
	*copy = NULL;
	if (!fields)
		return NULL;
	*copy = hq_xstrdup(fields);
	for (char *f = strtok_r(*copy, ",", &save); f;
	    f = strtok_r(NULL, ",", &save)) {
		list = hq_xrealloc(list, (*n + 1) * sizeof *list);
		list[(*n)++] = f;
	}
	return list;
}

static int
dexa_row(void *arg, const struct hq_dexa_row *r, struct hq_err *e)
{
	(void)e;
	hq_out_row(arg, dexa_cols, r);
	return 0;
}

int
hq_report_latest_dexa_out(struct hq_store *s, const char *fields,
    struct hq_out *o, struct hq_err *e)
{
	size_t n;
	char *copy;
	const char **list = split_fields(fields, &copy, &n);
	int rc;

	hq_out_fit_cols(o, dexa_cols);
	rc = hq_report_dexa_fields_ok(list, n, e) ? -1 :
	    hq_report_dexa_latest(s, list, n, dexa_row, o, e);
	free(list);
	free(copy);
	return rc;
}

struct compare {
	struct hq_out *o;
	int heading, noise;
};

static int
compare_row(void *arg, const struct hq_dexa_row *r, struct hq_err *e)
{
	struct compare *k = arg;

	(void)e;
	if (hq_out_format(k->o) == HQ_FMT_TABLE) {
		if (!k->heading) {
			struct hq_buf head = { 0 };
			hq_buf_printf(&head, "DEXA %s -> %s", r->before_date,
			    r->after_date);
			hq_out_heading(k->o, head.data);
			hq_buf_free(&head);
			k->heading = 1;
		}
		if (r->within_precision && !k->noise++)
			hq_out_footnote(k->o, "~ within the scanner's precision: a "
			    "change under 2.77 x its CV\n  (lean mass CV 0.5%, VAT "
			    "5%) is noise, not progress");
	}
	hq_out_row(k->o, compare_cols, r);
	return 0;
}

int
hq_report_compare_dexa_out(struct hq_store *s, const char *d1,
    const char *d2, int last, const char *fields, FILE *svg,
    struct hq_out *o, struct hq_err *e)
{
	size_t n;
	char *copy;
	const char **list = split_fields(fields, &copy, &n);
	struct compare k = { o, 0, 0 };
	int rc;

	hq_out_fit_cols(o, compare_cols);
	if (hq_report_dexa_fields_ok(list, n, e))
		rc = -1;
	else if (svg)
		rc = hq_report_dexa_compare_svg(s, d1, d2, last, list, n, svg, e);
	else
		rc = hq_report_dexa_compare(s, d1, d2, last, list, n, compare_row,
		    &k, e);
	free(list);
	free(copy);
	return rc;
}
