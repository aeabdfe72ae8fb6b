#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/alert.h"
#include "hq/alert_out.h"
#include "hq/buf.h"
#include "hq/cgm_read.h"
#include "hq/daily.h"
#include "hq/document_read.h"
#include "hq/horizon.h"
#include "hq/rowdesc.h"
#include "hq/time.h"

/* An alert kept until all are sorted: its strings copied. */
struct kept {
	struct hq_alert a;
	int rank;                /* baseline 0, lab 1, cgm 2 */
	size_t seq;
	char measure[128], unit[32];
};

struct alerts {
	struct kept *k;
	size_t n, cap;
	int rank;
};

static int
keep(void *arg, const struct hq_alert *a)
{
	struct alerts *al = arg;
	struct kept *k;

	if (al->n == al->cap) {
		al->cap = al->cap ? al->cap * 2 : 16;
		al->k = hq_xrealloc(al->k, al->cap * sizeof *al->k);
	}
	k = &al->k[al->n];
	k->a = *a;
	k->rank = al->rank;
	k->seq = al->n++;
	snprintf(k->measure, sizeof k->measure, "%s", a->measure ? a->measure : "");
	snprintf(k->unit, sizeof k->unit, "%s", a->unit ? a->unit : "");
	return 0;
}

static int
cmp_kept(const void *x, const void *y)
{
	const struct kept *a = x, *b = y;

	if (a->a.day != b->a.day)
		return a->a.day < b->a.day ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* ---- the three kinds ------------------------------------------------------- */

static int
baselines(struct hq_store *s, const struct hq_select *settings, int64_t from,
    int64_t to, struct alerts *al, struct hq_err *e)
{
	struct hq_daily_store ds = { s, settings };
	struct hq_daily_span span = { from - HQ_ALERT_BASELINE_DAYS, to };
	const struct hq_alert_rule *r;

	al->rank = 0;
	for (size_t i = 0; (r = hq_alert_rule_at(i)); i++) {
		struct hq_daily sr;
		if (hq_daily_load(&ds, r->metric, span, 0, 0, &sr, e))
			return -1;
		hq_alert_scan(r, sr.unit, sr.days, sr.v, sr.n, from, to, keep, al);
		hq_daily_free(&sr);
	}
	return 0;
}

static int
lab_row(void *arg, const struct hq_lab_row *r, int64_t day)
{
	struct hq_alert a;

	if (hq_alert_lab(r, day, &a))
		keep(arg, &a);
	return 0;
}

/* Every result of the range flagged H or L (hq-report trend labs' rows). */
static int
lab_alerts(struct hq_store *s, int64_t from, int64_t to, struct alerts *al,
    struct hq_err *e)
{
	al->rank = 1;
	return hq_report_labs_flagged(s, from, to, lab_row, al, e);
}

static int
cgm(struct hq_store *s, int64_t from, int64_t to, struct alerts *al,
    struct hq_err *e)
{
	struct hq_cgm_report_opts o = { .by = HQ_PERIOD_NONE };
	struct hq_cgm_report r;
	int rc;

	o.from = hq_time_day_start(from);
	o.to = hq_time_day_start(to + 1);
	if ((rc = hq_cgm_report_run(s, &o, &r, e)) < 0)
		return -1;
	al->rank = 2;
	if (rc > 0)
		hq_alert_cgm(&r.total.m, to, keep, al);
	hq_cgm_report_free(&r);
	return 0;
}

/* The watched measures and the newest import, against the range's end:
 * its last day's end, or now when sooner. */
static int
stale(struct hq_store *s, int64_t to, int64_t now, struct alerts *al,
    struct hq_err *e)
{
	int64_t end = hq_time_day_start(to + 1), t;
	const char *metric, *what;
	struct hq_alert a;
	int none;

	if (now < end)
		end = now;
	al->rank = 3;
	for (size_t i = 0; (metric = hq_alert_watched_at(i, &what)); i++) {
		if (hq_horizon_metric_newest(s, metric, &t, &none, e))
			return -1;
		/* Silent for longer than a baseline: no longer watched. */
		if (none || t < end - (int64_t)HQ_ALERT_BASELINE_DAYS * 86400)
			continue;
		if (hq_alert_stale(metric, what, t, end, to, &a))
			keep(al, &a);
	}
	if (hq_horizon_import_newest(s, &t, &none, e))
		return -1;
	if (!none && hq_alert_stale("import", "new export", t, end, to, &a))
		keep(al, &a);
	return 0;
}

/* ---- rows ------------------------------------------------------------------ */

static int
z_text(const void *row, char *buf, size_t n)
{
	const struct hq_alert *a = row;

	if (isnan(a->z))
		return -1;
	snprintf(buf, n, "%+.1f", a->z);
	return 0;
}

#define A(k, t, f) HQ_COL_AT(k, t, struct hq_alert, f)
#define T HQ_COL_TABLE
#define D HQ_COL_DATA
static const struct hq_col alert_cols[] = {
	{ A("date", HQ_COL_DAY, day) },
	{ A("measure", HQ_COL_STR, measure), .in = D },
	{ A("kind", HQ_COL_STR, kind), .in = D },
	{ A("value", HQ_COL_NUM, value), .in = D },
	{ A("baseline_mean", HQ_COL_NUM, baseline_mean), .in = D },
	{ A("baseline_sd", HQ_COL_NUM, baseline_sd), .in = D },
	{ A("z", HQ_COL_NUM, z), .in = D },
	{ HQ_COL_FN("z", z_text), .in = T },
	{ A("unit", HQ_COL_STR0, unit), .in = D },
	{ A("message", HQ_COL_CHARS, message), .fit = { .min_width = 30 } },
	{ .key = NULL },
};

long
hq_alerts_each(struct hq_store *s, const struct hq_select *settings,
    int64_t from, int64_t to, int64_t now, hq_alert_fn *fn, void *arg,
    struct hq_err *e)
{
	struct alerts al = { 0 };
	long n = -1;

	if (baselines(s, settings, from, to, &al, e) == 0 &&
	    lab_alerts(s, from, to, &al, e) == 0 && cgm(s, from, to, &al, e) == 0 &&
	    stale(s, to, now, &al, e) == 0) {
		if (al.n > 1)
			qsort(al.k, al.n, sizeof *al.k, cmp_kept);
		for (size_t i = 0; fn && i < al.n; i++) {
			/* its own copies, now that the array stays put */
			al.k[i].a.measure = al.k[i].measure;
			al.k[i].a.unit = al.k[i].unit;
			if (fn(arg, &al.k[i].a) < 0)
				break;
		}
		n = (long)al.n;
	}
	free(al.k);
	return n;
}

static int
write_row(void *arg, const struct hq_alert *a)
{
	hq_out_row(arg, alert_cols, a);
	return 0;
}

long
hq_alerts_report_out(struct hq_store *s, const struct hq_select *settings,
    int64_t from, int64_t to, int64_t now, struct hq_out *o,
    struct hq_err *e)
{
	if (o)
		hq_out_fit_cols(o, alert_cols);
	return hq_alerts_each(s, settings, from, to, now, o ? write_row : NULL,
	    o, e);
}
