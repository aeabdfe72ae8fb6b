#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/cgm_svg.h"
#include "hq/labs.h"
#include "hq/report_out.h"
#include "hq/report_read.h"
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

/* ---- CGM ------------------------------------------------------------------ */

#define CGM(k, t, f) HQ_COL_AT(k, t, struct hq_cgm_metrics, f)
/* Every field, in hq-report(1)'s order (cgm; cgm.c's hq_cgm_field()). */
static const struct hq_col cgm_wide_cols[] = {
	{ CGM("from", HQ_COL_DAY, from_day) },
	{ CGM("to", HQ_COL_DAY, to_day) },
	{ CGM("days", HQ_COL_LONG, days) },
	{ CGM("readings", HQ_COL_LONG, readings) },
	{ CGM("coverage_pct", HQ_COL_NUM, coverage_pct) },
	{ CGM("mean", HQ_COL_NUM, mean) },
	{ CGM("sd", HQ_COL_NUM, sd) },
	{ CGM("cv", HQ_COL_NUM, cv) },
	{ CGM("gmi", HQ_COL_NUM, gmi) },
	{ CGM("tir", HQ_COL_NUM, tir) },
	{ CGM("titr", HQ_COL_NUM, titr) },
	{ CGM("tbr", HQ_COL_NUM, tbr) },
	{ CGM("tbr2", HQ_COL_NUM, tbr2) },
	{ CGM("tar", HQ_COL_NUM, tar) },
	{ CGM("tar2", HQ_COL_NUM, tar2) },
	{ CGM("j_index", HQ_COL_NUM, j_index) },
	{ CGM("lbgi", HQ_COL_NUM, lbgi) },
	{ CGM("hbgi", HQ_COL_NUM, hbgi) },
	{ CGM("gri", HQ_COL_NUM, gri) },
	{ HQ_COL_K("unit", "mg/dL") },
	{ .key = NULL },
};

/* The fields 80 columns have room for when a table has a row per bucket
 * (JSON and CSV have them all). */
static const struct hq_col cgm_narrow_cols[] = {
	{ CGM("from", HQ_COL_DAY, from_day) },
	{ CGM("days", HQ_COL_LONG, days) },
	{ CGM("mean", HQ_COL_NUM, mean) },
	{ CGM("cv", HQ_COL_NUM, cv) },
	{ CGM("gmi", HQ_COL_NUM, gmi) },
	{ CGM("tir", HQ_COL_NUM, tir) },
	{ CGM("tbr", HQ_COL_NUM, tbr) },
	{ CGM("tbr2", HQ_COL_NUM, tbr2) },
	{ CGM("tar", HQ_COL_NUM, tar) },
	{ CGM("tar2", HQ_COL_NUM, tar2) },
	{ CGM("gri", HQ_COL_NUM, gri) },
	{ .key = NULL },
};

static int
agp_time(const void *row, char *buf, size_t n)
{
	int slot = ((const struct hq_cgm_agp_row *)row)->slot;

	snprintf(buf, n, "%02d:%02d", slot / 4, slot % 4 * 15);
	return 0;
}

#define AGP(k, t, f) HQ_COL_AT(k, t, struct hq_cgm_agp_row, f)
static const struct hq_col agp_cols[] = {
	{ HQ_COL_FN("time", agp_time) },
	{ AGP("p5", HQ_COL_NUM, p5) },
	{ AGP("p25", HQ_COL_NUM, p25) },
	{ AGP("p50", HQ_COL_NUM, p50) },
	{ AGP("p75", HQ_COL_NUM, p75) },
	{ AGP("p95", HQ_COL_NUM, p95) },
	{ AGP("n", HQ_COL_LONG, n) },
	{ HQ_COL_K("unit", "mg/dL") },
	{ .key = NULL },
};

/* "no glucose readings from 2024-06-01 to 2024-06-30" */
static void
no_readings(const struct hq_cgm_report_opts *o, struct hq_err *e)
{
	char from[16] = "", to[16] = "";

	if (o->from != INT64_MIN)
		hq_time_format_date(o->from, from, sizeof from);
	if (o->to != INT64_MAX)
		hq_time_format_date(o->to - 1, to, sizeof to);
	if (!*from && !*to)
		hq_err_set(e, "no glucose readings in the store: import a CGM "
		    "file (Dexcom Clarity, LibreView) or an Apple Health export "
		    "with hq-ingest");
	else
		hq_err_set(e, "no glucose readings%s%s%s%s", *from ? " from " : "",
		    from, *to ? " to " : " on", *to ? to : "");
}

/* The report's rows into out: the AGP's, or the metrics'. */
static void
cgm_rows(struct hq_out *out, const struct hq_cgm_report_opts *o,
    const struct hq_cgm_report *r)
{
	int table = hq_out_format(out) == HQ_FMT_TABLE;

	if (o->agp) {
		for (int i = 0; i < HQ_CGM_AGP_SLOTS; i++) {
			struct hq_cgm_agp_row a = r->agp[i];
			a.slot = i;
			hq_out_row(out, agp_cols, &a);
		}
		return;
	}
	for (size_t i = 0; i < r->nrows; i++)
		hq_out_row(out, !table || r->nrows == 1 ? cgm_wide_cols :
		    cgm_narrow_cols, &r->rows[i].m);
	if (table)
		hq_out_keyvalue(out);
}

int
hq_cgm_report_print(struct hq_store *s, const struct hq_cgm_report_opts *o,
    const char *format, FILE *fp, struct hq_err *e)
{
	struct hq_cgm_report_opts oo = *o;
	struct hq_cgm_report r;
	enum hq_format f = HQ_FMT_AUTO;
	int draw = format && (strcmp(format, "svg") == 0 ||
	    strcmp(format, "html") == 0);
	int rc, status = 0;

	if (format && !draw && hq_output_parse_format(format, &f)) {
		hq_err_set(e, "unknown format '%s'", format);
		return -1;
	}
	oo.agp = o->agp || draw;
	if ((rc = hq_cgm_report_run(s, &oo, &r, e)) <= 0) {
		if (rc == 0)
			no_readings(o, e);
		return rc < 0 ? -1 : 1;
	}
	if (draw) {
		status = (strcmp(format, "svg") == 0 ? hq_cgm_svg_write(fp, &r) :
		    hq_cgm_html_write(fp, &r)) ? -1 : 0;
		if (status)
			hq_err_set(e, "writing the AGP failed");
	} else {
		struct hq_out *out = hq_out_new(fp, f);
		cgm_rows(out, o, &r);
		if (hq_out_free(out)) {
			hq_err_set(e, "writing the rows failed");
			status = -1;
		}
	}
	hq_cgm_report_free(&r);
	return status;
}
