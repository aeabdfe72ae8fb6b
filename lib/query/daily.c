/*
 * daily — a daily series from the store, as hq-query METRIC --by day
 * gives it (daily.h); a file of day rows is read by dayrows.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/daily.h"
#include "hq/query.h"
#include "hq/time.h"

void
hq_daily_free(struct hq_daily *d)
{
	free(d->days);
	free(d->v);
	free(d->fields);
	free(d->fv);
	memset(d, 0, sizeof *d);
}

void
hq_daily_push(struct hq_daily *d, size_t *cap, int64_t day, double v)
{
	if (d->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		d->days = hq_xrealloc(d->days, *cap * sizeof *d->days);
		d->v = hq_xrealloc(d->v, *cap * sizeof *d->v);
	}
	d->days[d->n] = day;
	d->v[d->n++] = v;
}

int
hq_daily_agg_is_default(enum hq_kind kind, const char *agg)
{
	struct hq_agg d;

	hq_query_default_agg(kind, &d);
	return !agg[0] || strcmp(agg, d.name) == 0;
}

int
hq_daily_parse_operand(const char *operand, char *metric, size_t n,
    struct hq_agg *agg, int *has_agg, struct hq_err *e)
{
	const char *dot = strrchr(operand, '.');
	size_t len = dot ? (size_t)(dot - operand) : strlen(operand);

	*has_agg = 0;
	if (len == 0 || len >= n) {
		hq_err_set(e, "'%s' is not a metric name (such as glucose or "
		    "glucose.max)", operand);
		return -1;
	}
	memcpy(metric, operand, len);
	metric[len] = '\0';
	if (!dot)
		return 0;
	if (hq_stats_parse_agg(dot + 1, agg)) {
		hq_err_set(e, "%s: unknown daily aggregate '%s'; use avg, min, max, "
		    "sum, count, median, stddev, p1..p99, first or last (%s.max)",
		    operand, dot + 1, metric);
		return -1;
	}
	*has_agg = 1;
	return 0;
}

/* ---- the store ---------------------------------------------------------- */

struct collect {
	struct hq_daily *d;
	size_t cap;
};

static int
collect_series(void *ctx, const struct hq_select_series *sr, struct hq_err *e)
{
	struct hq_daily *d = ((struct collect *)ctx)->d;

	(void)e;
	snprintf(d->metric, sizeof d->metric, "%s", sr->metric->name);
	snprintf(d->identifier, sizeof d->identifier, "%s", sr->metric->identifier);
	snprintf(d->unit, sizeof d->unit, "%s", sr->metric->unit);
	snprintf(d->agg, sizeof d->agg, "%s", sr->aggs[0].name);
	d->agg_default = hq_daily_agg_is_default(sr->metric->kind, d->agg);
	d->nights = sr->metric->kind == HQ_KIND_SLEEP;
	return 0;
}

static int
collect_row(void *ctx, const struct hq_select_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	struct collect *c = ctx;

	(void)sr;
	(void)e;
	if (!isnan(r->v[0]))
		hq_daily_push(c->d, &c->cap, r->day, r->v[0]);
	return 0;
}

/* Local instants of days [from, to] (inclusive), at hours from_h on the
 * first and to_h on the day after the last. */
static void
span_instants(struct hq_daily_span sp, int from_h, int to_h, int64_t *from,
    int64_t *to)
{
	*from = sp.from_day == INT64_MIN ? INT64_MIN : hq_time_day_at(sp.from_day, from_h);
	*to = sp.to_day == INT64_MAX ? INT64_MAX : hq_time_day_at(sp.to_day + 1, to_h);
}

static struct hq_daily_span
span_shift(struct hq_daily_span sp, int by)
{
	if (sp.from_day != INT64_MIN)
		sp.from_day += by;
	if (sp.to_day != INT64_MAX)
		sp.to_day += by;
	return sp;
}

/* An operand's metric as the store knows it, and its aggregate. */
static int
resolve(const struct hq_daily_store *ds, const char *operand, char *metric,
    size_t n, struct hq_agg *agg, int *has_agg, struct hq_metric_ref *ref,
    struct hq_err *e)
{
	if (hq_daily_parse_operand(operand, metric, n, agg, has_agg, e))
		return -1;
	return hq_query_resolve(ds->s, metric, ref, e);
}

int
hq_daily_load(const struct hq_daily_store *ds, const char *operand,
    struct hq_daily_span span, int lag, int night, struct hq_daily *d,
    struct hq_err *e)
{
	struct hq_select sel = *ds->settings;   /* borrowed: never freed here */
	struct hq_metric_ref ref;
	struct collect c = { d, 0 };
	struct hq_select_sink sink = { collect_series, collect_row, &c };
	char metric[128];
	const char *names[1] = { metric };
	struct hq_agg agg;
	int has_agg;

	memset(d, 0, sizeof *d);
	if (resolve(ds, operand, metric, sizeof metric, &agg, &has_agg, &ref, e))
		return -1;
	sel.metrics = names;
	sel.nmetrics = 1;
	sel.by = HQ_DAY;
	sel.whole = 0;
	sel.naggs = 0;
	sel.offset = sel.limit = 0;
	sel.when = sel.where = NULL;
	sel.nwhen = sel.nwhere = 0;
	if (has_agg) {
		sel.aggs[0] = agg;
		sel.naggs = 1;
	}
	if (night && ref.kind != HQ_KIND_SLEEP) {
		/* the evening and night of day D itself */
		sel.day_from_hour = HQ_DAILY_NIGHT_FROM;
		sel.day_to_hour = HQ_DAILY_NIGHT_TO;
		span_instants(span, HQ_DAILY_NIGHT_FROM, HQ_DAILY_NIGHT_TO, &sel.from,
		    &sel.to);
		d->window = 1;
	} else {
		sel.day_from_hour = sel.day_to_hour = 0;
		span_instants(span_shift(span, night ? 1 : lag), 0, 0, &sel.from, &sel.to);
	}
	if (hq_select_run(ds->s, &sel, &sink, e) < 0) {
		hq_daily_free(d);
		return -1;
	}
	return 0;
}

int
hq_daily_identifier(const struct hq_daily_store *ds, const char *operand,
    char *buf, size_t n, struct hq_err *e)
{
	struct hq_metric_ref ref;
	char metric[128];
	struct hq_agg agg;
	int has_agg;

	if (resolve(ds, operand, metric, sizeof metric, &agg, &has_agg, &ref, e))
		return -1;
	snprintf(buf, n, "%s", ref.identifier);
	return 0;
}
