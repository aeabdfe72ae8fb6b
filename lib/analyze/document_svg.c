#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/dexa.h"
#include "hq/document_read.h"
#include "hq/labs.h"
#include "hq/svg.h"

/* The charts of report.h, built from the rows document_read.c gives. */

/* ------------------------------------------------------------------ */
/* Charts                                                               */

struct trend_points {
	struct hq_chart_point *pts;
	double *lo, *hi;
	unsigned char *alert;
	struct hq_chart_mark *marks;
	char (*labels)[48];
	size_t n, cap, nmarks, results, skipped;
	char unit[32], first[11], last[11];
};

static int
trend_point(void *arg, const struct hq_lab_row *r, struct hq_err *e)
{
	struct trend_points *t = arg;

	(void)e;
	if (!t->first[0])
		snprintf(t->first, sizeof t->first, "%s", r->date);
	snprintf(t->last, sizeof t->last, "%s", r->date);
	if (isnan(r->value) || r->unconverted) {
		t->skipped++;
		return 0;
	}
	if (t->n + 2 > t->cap) {
		t->cap = t->cap ? 2 * t->cap : 32;
		t->pts = hq_xrealloc(t->pts, t->cap * sizeof *t->pts);
		t->lo = hq_xrealloc(t->lo, t->cap * sizeof *t->lo);
		t->hi = hq_xrealloc(t->hi, t->cap * sizeof *t->hi);
		t->alert = hq_xrealloc(t->alert, t->cap);
		t->marks = hq_xrealloc(t->marks, t->cap * sizeof *t->marks);
		t->labels = hq_xrealloc(t->labels, t->cap * sizeof *t->labels);
	}
	if (r->method_changed) {
		/* No line across a change of method: a gap before it. */
		t->pts[t->n] = (struct hq_chart_point){ r->time, r->time, NAN };
		t->lo[t->n] = t->hi[t->n] = NAN;
		t->alert[t->n] = 0;
		t->n++;
	}
	t->pts[t->n] = (struct hq_chart_point){ r->time, r->time, r->value };
	t->lo[t->n] = r->ref_low;
	t->hi[t->n] = r->ref_high;
	t->alert[t->n] = r->flag[0] == 'H' || r->flag[0] == 'L';
	if (r->method_changed) {
		snprintf(t->labels[t->nmarks], sizeof t->labels[0], "method: %s",
		    r->method);
		t->marks[t->nmarks] = (struct hq_chart_mark){ r->time,
			t->labels[t->nmarks] };
		t->nmarks++;
	}
	snprintf(t->unit, sizeof t->unit, "%s", r->unit);
	t->n++;
	t->results++;
	return 0;
}

int
hq_report_labs_trend_svg(struct hq_store *s, const char *test,
    const char *unit, FILE *fp, struct hq_err *e)
{
	struct trend_points t = { 0 };
	const struct hq_lab_test *cat = hq_labs_lookup(test);
	char title[160], sub[200];
	int rc = hq_report_labs_trend(s, test, unit, trend_point, &t, e);

	if (rc == 0) {
		struct hq_chart_series series = { .name = test, .unit = t.unit,
			.pts = t.pts, .n = t.n, .band_lo = t.lo, .band_hi = t.hi,
			.alert = t.alert, .connect = 1 };
		struct hq_chart c = { .title = title, .subtitle = sub,
			.by = HQ_PERIOD_NONE, .series = &series, .nseries = 1,
			.marks = t.marks, .nmarks = t.nmarks };
		snprintf(title, sizeof title, "%s%s%s (%s)", test,
		    cat ? ": " : "", cat ? cat->description : "", t.unit);
		snprintf(sub, sizeof sub, "%zu result%s, %s to %s; shaded: each "
		    "result's own reference range; red: out of range%s", t.results,
		    t.results == 1 ? "" : "s", t.first, t.last,
		    t.skipped ? "; results without a number in this unit left out" : "");
		if (hq_svg_write(fp, &c)) {
			hq_err_set(e, "writing the chart failed");
			rc = -1;
		}
	}
	free(t.pts);
	free(t.lo);
	free(t.hi);
	free(t.alert);
	free(t.marks);
	free(t.labels);
	return rc;
}

struct compare_rows {
	struct hq_compare_row *rows;
	char (*text)[3][64];
	size_t n, cap;
	char before[11], after[11];
	int within;
};

static int
compare_row(void *arg, const struct hq_dexa_row *r, struct hq_err *e)
{
	struct compare_rows *c = arg;
	char *label, *change, *note;

	(void)e;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 32;
		c->rows = hq_xrealloc(c->rows, c->cap * sizeof *c->rows);
		c->text = hq_xrealloc(c->text, c->cap * sizeof *c->text);
	}
	label = c->text[c->n][0];
	change = c->text[c->n][1];
	note = c->text[c->n][2];
	snprintf(label, 64, "%s", r->field);
	snprintf(note, 64, "%s", r->unit);
	/* A change of a percentage is in points, beside its relative change. */
	const char *u = strcmp(r->unit, "%") == 0 ? "points" : r->unit;
	if (isnan(r->pct_change))
		snprintf(change, 64, "%+.4g %s", r->change, u);
	else
		snprintf(change, 64, "%+.4g %s (%+.1f %%)", r->change, u,
		    r->pct_change);
	c->rows[c->n] = (struct hq_compare_row){ .label = label, .unit = note,
		.before = r->before, .after = r->after, .change = change,
		.note = r->within_precision ? "within the scanner's precision" : NULL };
	snprintf(c->before, sizeof c->before, "%s", r->before_date);
	snprintf(c->after, sizeof c->after, "%s", r->after_date);
	c->within += r->within_precision;
	c->n++;
	return 0;
}

int
hq_report_dexa_compare_svg(struct hq_store *s, const char *d1, const char *d2,
    int last, const char *const *fields, size_t n, FILE *fp, struct hq_err *e)
{
	struct compare_rows c = { 0 };
	char title[96];
	int rc = hq_report_dexa_compare(s, d1, d2, last, fields, n, compare_row,
	    &c, e);

	if (rc == 0) {
		struct hq_compare_chart ch = { .title = title,
			.subtitle = "each field on its own scale",
			.before_label = c.before, .after_label = c.after,
			.rows = c.rows, .n = c.n,
			.footnote = "Muted: a change within the scanner's precision "
			    "(least significant change = 2.77 x CV; lean mass CV 0.5 %, "
			    "VAT CV 5 %)." };
		snprintf(title, sizeof title, "DEXA: %s to %s", c.before, c.after);
		if (hq_svg_compare(fp, &ch)) {
			hq_err_set(e, "writing the chart failed");
			rc = -1;
		}
	}
	free(c.rows);
	free(c.text);
	return rc;
}
