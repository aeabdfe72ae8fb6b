/*
 * hq-query — time series of the metrics in the store, filtered and
 * aggregated: merged across devices, nights for sleep, days in the local
 * zone. The engine is lib/query.c; this file reads options, builds the
 * --when day set, applies --where, --limit and --offset, and prints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/expr.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "hq/query.h"
#include "hq/store.h"
#include "hq/svg.h"
#include "hq/time.h"
#include "hq/workout.h"

enum {
	OPT_FROM = HQ_OPT_LONG, OPT_TO, OPT_BY, OPT_AGG, OPT_WHERE, OPT_WHEN,
	OPT_SOURCE, OPT_LIMIT, OPT_OFFSET, OPT_FORMAT, OPT_TZ, OPT_DB, OPT_LIST,
	OPT_TYPE, OPT_MIN_DURATION, OPT_RAW, OPT_COMPLETE, OPT_HELP,
	OPT_VERSION, OPT_SCHEMA,
};

static const struct hq_opt options[] = {
	{ OPT_FROM, "from", HQ_OPT_STRING, "DATE", "start at DATE (2024-12-01, 2024-12, 2024-W49, today, 7d, last-month...)",
	  NULL, "Start of the range, inclusive: 2024-12-01, 2024-12 (a month), 2024-W49 (an ISO week), today, yesterday, 7d/3w/6m/1y (that long ago), this-week, last-month, this-year. Omit for all data.", 1 },
	{ OPT_TO, "to", HQ_OPT_STRING, "DATE", "end with DATE, inclusive (same forms as --from)",
	  NULL, "End of the range, inclusive of the whole day/month/week it names (same forms as from): from \"2024-12\" with to \"2024-12\" is all of December.", 1 },
	{ OPT_BY, "by", HQ_OPT_ENUM, "PERIOD", "one row per hour, day, week (ISO), month or year in the local zone",
	  "hour|day|week|month|year", "Bucket size in the local time zone. Use day/week/month with an aggregation rather than raw rows: raw per-minute heart rate is thousands of rows. Weeks are ISO weeks (Monday first).", 1 },
	{ OPT_AGG, "agg", HQ_OPT_STRING, "LIST", "aggregations: avg,min,max,sum,count,median,stddev,p1..p99,first,last",
	  NULL, "Comma-separated aggregations per bucket; the first becomes `value`. Default: sum for cumulative metrics (steps, energy, exercise minutes), avg for measurements (heart rate, weight, glucose) and sleep. For steps/sleep in weeks or months, avg is the average per day/night. Without --by, --agg gives one row for the whole range (e.g. average sleep in December).", 1 },
	{ OPT_WHERE, "where", HQ_OPT_LIST, "EXPR", "keep samples (or buckets, with --by) where EXPR holds: 'value>100', 'avg<60 and n>=10'",
	  NULL, "Filter the output rows by their own values: 'value>100' on samples, or on buckets with by ('avg>70', 'max>=150', 'n>10'; every name must be an aggregation in agg, or value/n). Repeat to AND.", 1 },
	{ OPT_WHEN, "when", HQ_OPT_LIST, "EXPR", "only days on which another metric's daily aggregate satisfies EXPR: 'exercise_time.sum>=60' (repeat to AND)",
	  NULL, "Keep only the local days on which another metric's daily aggregate satisfies a condition, written metric.agg: 'exercise_time.sum>=60' (days with an hour of exercise), 'glucose.max>140', 'sleep.avg<6'. A day offset looks at another day: 'glucose.max[-1]>140' keeps the days after a high-glucose day, so with sleep it gives the nights after (a night is dated by the morning it ends). Use it for questions like 'heart rate on days I exercised over 60 minutes'. Several are ANDed.", 1 },
	{ OPT_SOURCE, "source", HQ_OPT_STRING, "NAME", "only samples from source NAME (no merging across sources)",
	  NULL, "Only samples from one source (exact source name as hq-query --list shows). Without it, cumulative metrics are merged across devices by priority (Watch over iPhone over apps) so nothing is counted twice; use it only to look at one device.", 1 },
	{ OPT_LIMIT, "limit", HQ_OPT_INT, "N", "print at most N rows", NULL,
	  "At most this many rows. Prefer --by and a shorter range to cutting rows.", 1 },
	{ OPT_OFFSET, "offset", HQ_OPT_INT, "N", "skip the first N rows", NULL,
	  "Skip this many rows first (paging).", 1 },
	{ OPT_FORMAT, "format", HQ_OPT_ENUM, "FMT", "jsonl, json, csv, table or svg (a chart); default: table on a terminal, else jsonl",
	  "jsonl|json|csv|table|svg", NULL, 0 },
	{ OPT_TZ, "tz", HQ_OPT_STRING, "ZONE", "local days in IANA zone ZONE (default $HQ_TZ, $TZ, system)",
	  NULL, "IANA time zone for local days (America/New_York). Only when the user asks about another zone; the default is the user's.", 1 },
	{ OPT_DB, "db", HQ_OPT_STRING, "PATH", "the store (default $HQ_DB, ~/.local/share/hq/hq.db)", NULL, NULL, 0 },
	{ OPT_LIST, "list", HQ_OPT_FLAG, NULL, "list the metrics in the store: unit, count, first and last date, sources",
	  NULL, "List every metric present with its unit, number of samples, first and last date and sources: use it first to learn which metrics exist and how far back they go.", 1 },
	{ OPT_TYPE, "type", HQ_OPT_STRING, "TYPE", "workouts: only this type (running, cycling, walking...)",
	  NULL, "With metrics [\"workouts\"]: only this workout type (running, cycling, walking, swimming, hiit...).", 1 },
	{ OPT_MIN_DURATION, "min-duration", HQ_OPT_NUMBER, "MIN", "workouts: only those lasting at least MIN minutes",
	  NULL, "With metrics [\"workouts\"]: only workouts of at least this many minutes.", 1 },
	{ OPT_RAW, "no-rollup", HQ_OPT_FLAG, NULL, "compute from raw samples even where rollups would answer (for checking)", NULL, NULL, 0 },
	{ OPT_COMPLETE, "complete-metrics", HQ_OPT_FLAG, NULL, "print the metric names in the store, one per line (for shell completion)", NULL, NULL, 0 },
	{ OPT_HELP, "help", HQ_OPT_FLAG, NULL, "show this help", NULL, NULL, 0 },
	{ OPT_VERSION, "version", HQ_OPT_FLAG, NULL, "show the version", NULL, NULL, 0 },
	{ OPT_SCHEMA, "tool-schema", HQ_OPT_FLAG, NULL, "print the tool definition for hq-agent as JSON", NULL, NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const struct hq_cmd_info cmd = {
	.name = "hq-query",
	.synopsis = "METRIC... [--from DATE] [--to DATE] [--by PERIOD] [--agg LIST] "
	    "[--where EXPR] [--when EXPR] [--source NAME] [--limit N] [--offset N] "
	    "[--format FMT] [--tz ZONE] [--db PATH]\n"
	    "       hq-query --list | workouts [--type TYPE] [--min-duration MIN] | workout ID",
	.summary = "Time series of health metrics, merged across devices, by local day, week or month.",
	.tool_description = "Query the user's health data (Apple Health and more) as time "
	    "series. Give metric names (steps, heart_rate, resting_heart_rate, hrv, sleep, "
	    "sleep_deep, exercise_time, active_energy, weight, glucose, vo2max...) with a "
	    "range and usually by=day/week/month; rows are {metric, period, start, end, value, "
	    "<agg fields>, n, unit}. Steps and other counts are de-duplicated across iPhone "
	    "and Watch; sleep is per night (keyed by the date the night ends). Use list=true "
	    "first when unsure which metrics exist. metrics [\"workouts\"] lists workouts "
	    "(type, min_duration filter); [\"workout\", ID] shows one. Exit 1 means no data "
	    "in the range.",
	.positional = "metrics",
	.positional_help = "Metric names, e.g. [\"heart_rate\"] or [\"steps\",\"sleep\"]; "
	    "[\"workouts\"] for the workout list, [\"workout\",\"12\"] for one workout.",
	.positional_required = 0,
	.opts = options,
};

struct cli {
	const char *from, *to, *agg, *source, *tz, *db, *type;
	char **where, **when;
	size_t nwhere, nwhen;
	enum hq_period by;
	long limit, offset;
	double min_duration;
	int has_format, svg, list, complete, no_rollup;
	enum hq_format format;
};

/* ---- --when: the days that qualify -------------------------------------- */

struct day_values {
	int64_t day;
	double v[HQ_MAX_AGGS * 4];
};

struct when_ctx {
	const struct hq_expr *x;
	const int *slot;        /* per ref: index into the day's values */
	const double *values;
};

static int
when_lookup(void *ctx, size_t ref, double *v)
{
	struct when_ctx *w = ctx;

	*v = w->values[w->slot[ref]];
	return isnan(*v) ? -1 : 0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Every --when names metric.agg pairs. Query each metric by day over the
 * range, gather the days any of them has, and keep the days on which every
 * expression holds.
 */
static int
build_dayset(struct hq_store *s, struct hq_expr **xs, size_t nx,
    const struct hq_query *base, struct hq_dayset *out, struct hq_err *e)
{
	struct hq_query q;
	struct {
		char metric[128];
		struct hq_metric_ref ref;
		struct hq_agg aggs[HQ_MAX_AGGS];
		size_t naggs;
		struct hq_series series;
	} m[16];
	size_t nm = 0;
	int64_t *days = NULL;
	size_t ndays = 0;
	int rc = -1;

	memset(m, 0, sizeof m);
	/* Which metrics, and which aggregations of each. */
	for (size_t i = 0; i < nx; i++)
		for (size_t r = 0; r < hq_expr_nrefs(xs[i]); r++) {
			const struct hq_expr_ref *ref = hq_expr_ref(xs[i], r);
			struct hq_agg a;
			size_t k;
			if (!ref->metric) {
				hq_err_set(e, "--when '%s': '%s' needs a metric, as in "
				    "exercise_time.sum>=60 (to filter this metric's own "
				    "values use --where)", hq_expr_source(xs[i]), ref->field);
				goto out;
			}
			if (strcmp(ref->field, "value") == 0 || strcmp(ref->field, "n") == 0)
				a.kind = HQ_AGG_COUNT; /* placeholder, resolved below */
			else if (hq_stats_parse_agg(ref->field, &a)) {
				hq_err_set(e, "--when '%s': unknown aggregation '%s' in "
				    "%s.%s; use sum, avg, min, max, count, median, p90...",
				    hq_expr_source(xs[i]), ref->field, ref->metric, ref->field);
				goto out;
			}
			for (k = 0; k < nm; k++)
				if (strcmp(m[k].metric, ref->metric) == 0)
					break;
			if (k == nm) {
				if (nm == sizeof m / sizeof m[0]) {
					hq_err_set(e, "--when: too many metrics");
					goto out;
				}
				snprintf(m[k].metric, sizeof m[k].metric, "%s", ref->metric);
				if (hq_query_resolve(s, ref->metric, &m[k].ref, e)) {
					hq_err_prefix(e, "--when '%s'", hq_expr_source(xs[i]));
					goto out;
				}
				hq_query_default_agg(m[k].ref.kind, &m[k].aggs[0]);
				m[k].naggs = 1;
				nm++;
			}
			if (strcmp(ref->field, "value") == 0 || strcmp(ref->field, "n") == 0)
				continue;
			size_t j;
			for (j = 0; j < m[k].naggs; j++)
				if (strcmp(m[k].aggs[j].name, a.name) == 0)
					break;
			if (j == m[k].naggs && m[k].naggs < HQ_MAX_AGGS)
				m[k].aggs[m[k].naggs++] = a;
		}
	for (size_t k = 0; k < nm; k++) {
		q = *base;
		q.metric = m[k].ref;
		q.by = HQ_DAY;
		q.whole = 0;
		q.days = NULL;
		q.source = NULL;
		memcpy(q.aggs, m[k].aggs, sizeof q.aggs);
		q.naggs = m[k].naggs;
		if (hq_query_run(s, &q, &m[k].series, e))
			goto out;
	}
	/* A day is a candidate when some reference has a value for it: the
	 * metric's row on day + lag. */
	for (size_t i = 0; i < nx; i++)
		for (size_t r = 0; r < hq_expr_nrefs(xs[i]); r++) {
			const struct hq_expr_ref *ref = hq_expr_ref(xs[i], r);
			size_t k = 0;
			while (strcmp(m[k].metric, ref->metric) != 0)
				k++;
			for (size_t row = 0; row < m[k].series.n; row++) {
				days = hq_xrealloc(days, (ndays + 1) * sizeof *days);
				days[ndays++] = m[k].series.rows[row].day - ref->lag;
			}
		}
	if (ndays)
		qsort(days, ndays, sizeof *days, cmp_i64);
	out->days = hq_xmalloc((ndays + 1) * sizeof *out->days);
	out->n = 0;
	for (size_t d = 0; d < ndays; d++) {
		if (d && days[d] == days[d - 1])
			continue;
		int keep = 1;
		for (size_t i = 0; keep && i < nx; i++) {
			double vals[64];
			int slot[64];
			size_t nv = 0;
			for (size_t r = 0; r < hq_expr_nrefs(xs[i]) && r < 64; r++) {
				const struct hq_expr_ref *ref = hq_expr_ref(xs[i], r);
				size_t k = 0, j = 0;
				double v = NAN;
				while (strcmp(m[k].metric, ref->metric) != 0)
					k++;
				const struct hq_series *sr = &m[k].series;
				for (size_t row = 0; row < sr->n; row++)
					if (sr->rows[row].day == days[d] + ref->lag) {
						if (strcmp(ref->field, "n") == 0)
							v = (double)sr->rows[row].n;
						else {
							if (strcmp(ref->field, "value") != 0)
								while (strcmp(sr->aggs[j].name, ref->field) != 0)
									j++;
							v = sr->rows[row].v[j];
						}
						break;
					}
				slot[r] = (int)nv;
				vals[nv++] = v;
			}
			struct when_ctx wc = { xs[i], slot, vals };
			keep = hq_expr_eval(xs[i], when_lookup, &wc);
		}
		if (keep)
			out->days[out->n++] = days[d];
	}
	rc = 0;
out:
	for (size_t k = 0; k < nm; k++)
		hq_series_free(&m[k].series);
	free(days);
	return rc;
}

/* ---- --where ------------------------------------------------------------ */

struct where_ctx {
	const struct hq_series *sr;
	const struct hq_row *row;
	const int *slot;     /* per ref: agg index, -1 value, -2 n */
};

static int
where_lookup(void *ctx, size_t ref, double *v)
{
	struct where_ctx *w = ctx;

	switch (w->slot[ref]) {
	case -2: *v = (double)w->row->n; break;
	case -1: *v = w->row->v[0]; break;
	default: *v = w->row->v[w->slot[ref]];
	}
	return isnan(*v) ? -1 : 0;
}

/* Each --where name must be value, n or one of the row's aggregations. */
static int
where_slots(const struct hq_expr *x, const struct hq_agg *aggs, size_t naggs,
    int *slot, struct hq_err *e)
{
	for (size_t r = 0; r < hq_expr_nrefs(x); r++) {
		const struct hq_expr_ref *ref = hq_expr_ref(x, r);
		size_t j;
		if (ref->lag) {
			hq_err_set(e, "--where '%s': day offsets such as [%d] are for "
			    "--when", hq_expr_source(x), ref->lag);
			return -1;
		}
		if (ref->metric) {
			hq_err_set(e, "--where '%s': %s.%s names another metric; use "
			    "--when to filter days by another metric", hq_expr_source(x),
			    ref->metric, ref->field);
			return -1;
		}
		if (strcmp(ref->field, "value") == 0) {
			slot[r] = -1;
			continue;
		}
		if (strcmp(ref->field, "n") == 0) {
			slot[r] = -2;
			continue;
		}
		for (j = 0; j < naggs; j++)
			if (strcmp(aggs[j].name, ref->field) == 0)
				break;
		if (j == naggs) {
			struct hq_agg a;
			if (hq_stats_parse_agg(ref->field, &a) == 0)
				hq_err_set(e, "--where '%s' uses %s, which --agg does not "
				    "compute; add it, e.g. --agg avg,%s", hq_expr_source(x),
				    ref->field, ref->field);
			else
				hq_err_set(e, "--where '%s': unknown name '%s'; use value, n "
				    "or an aggregation such as avg or max", hq_expr_source(x),
				    ref->field);
			return -1;
		}
		slot[r] = (int)j;
	}
	return 0;
}

/* ---- output ---------------------------------------------------------------- */

static void
row_period(const struct hq_series *sr, const struct hq_row *r, char *buf,
    size_t n)
{
	int y, m, d, y2, m2, d2;

	if (sr->by != HQ_PERIOD_NONE) {
		hq_time_bucket_label(r->start, sr->by, buf, n);
		return;
	}
	if (sr->whole) {
		hq_time_civil_from_days(hq_time_local_day(r->start), &y, &m, &d);
		hq_time_civil_from_days(hq_time_local_day(r->end > r->start ? r->end - 1 : r->end),
		    &y2, &m2, &d2);
		snprintf(buf, n, "%04d-%02d-%02d/%04d-%02d-%02d", y, m, d, y2, m2, d2);
		return;
	}
	hq_time_civil_from_days(r->day, &y, &m, &d);
	snprintf(buf, n, "%04d-%02d-%02d", y, m, d);
}

static void
print_row(struct hq_out *out, const struct hq_series *sr, const struct hq_row *r)
{
	char period[64], start[40], end[40];

	row_period(sr, r, period, sizeof period);
	hq_time_format_local(r->start, start, sizeof start);
	hq_time_format_local(r->end, end, sizeof end);
	hq_out_begin(out);
	hq_out_str(out, "metric", sr->metric.name);
	hq_out_str(out, "period", period);
	hq_out_str(out, "start", start);
	hq_out_str(out, "end", end);
	hq_out_num(out, "value", r->v[0]);
	for (size_t k = 0; k < sr->naggs; k++)
		hq_out_num(out, sr->aggs[k].name, r->v[k]);
	hq_out_int(out, "n", r->n);
	hq_out_str(out, "unit", sr->metric.unit);
	if (r->source >= 0)
		hq_out_str(out, "source", sr->sources[r->source]);
	if (!isnan(r->sample_value))
		hq_out_num(out, "sample_value", r->sample_value);
	if (r->category[0])
		hq_out_str(out, "category", r->category);
	hq_out_end(out);
}

static int
write_svg(struct hq_series *series, size_t ns)
{
	struct hq_chart_series *cs = hq_xcalloc(ns + 1, sizeof *cs);
	struct hq_chart ch = {0};
	int rc;

	for (size_t i = 0; i < ns; i++) {
		struct hq_chart_point *pts = hq_xcalloc(series[i].n + 1, sizeof *pts);
		for (size_t r = 0; r < series[i].n; r++) {
			pts[r].start = series[i].rows[r].start;
			pts[r].end = series[i].rows[r].end;
			pts[r].value = series[i].rows[r].v[0];
		}
		cs[i].name = series[i].metric.name;
		cs[i].unit = series[i].metric.unit;
		cs[i].bars = series[i].aggs[0].kind == HQ_AGG_SUM &&
		    series[i].by != HQ_PERIOD_NONE;
		cs[i].pts = pts;
		cs[i].n = series[i].n;
	}
	ch.by = ns ? series[0].by : HQ_PERIOD_NONE;
	ch.series = cs;
	ch.nseries = ns;
	rc = hq_svg_write(stdout, &ch);
	for (size_t i = 0; i < ns; i++)
		free((void *)cs[i].pts);
	free(cs);
	return rc;
}

/* ---- workouts ------------------------------------------------------------ */

static int
run_workouts(struct hq_store *s, const struct cli *c, int argc, char **argv,
    int64_t from, int64_t to, struct hq_out *out)
{
	struct hq_err e;
	long got;

	if (strcmp(argv[0], "workout") == 0) {
		long id;
		if (argc != 2 || hq_opts_parse_long(argv[1], 1, INT32_MAX, &id)) {
			hq_opts_usage_error(&cmd, "workout needs one numeric ID (see "
			    "hq-query workouts)");
			return 2;
		}
		hq_out_keyvalue(out);
		got = hq_workout_detail(s, id, out, &e);
		if (got < 0) {
			hq_warn("%s", e.msg);
			return 2;
		}
		if (got == 0)
			hq_warn("no workout %ld; hq-query workouts lists them", id);
		return got ? 0 : 1;
	}
	if (argc != 1) {
		hq_opts_usage_error(&cmd, "workouts takes no metric names");
		return 2;
	}
	struct hq_workout_filter f = {
		.type = c->type, .from = from == INT64_MIN ? 0 : from,
		.to = to == INT64_MAX ? 0 : to, .min_duration = c->min_duration,
		.limit = c->limit, .offset = c->offset,
	};
	if (c->type) {
		const char *sugg = NULL;
		if (!hq_workout_type_identifier(c->type, &sugg)) {
			if (sugg)
				hq_warn("unknown workout type '%s' (did you mean %s?)", c->type, sugg);
			else
				hq_warn("unknown workout type '%s'; try running, cycling, "
				    "walking, swimming", c->type);
			return 2;
		}
	}
	got = hq_workout_list(s, &f, out, &e);
	if (got < 0) {
		hq_warn("%s", e.msg);
		return 2;
	}
	return got ? 0 : 1;
}

/* ---- main ------------------------------------------------------------------ */

static void
print_name(const char *name, void *ctx)
{
	(void)ctx;
	puts(name);
}

static int
parse_cli(int argc, char **argv, struct cli *c)
{
	char shortopts[64];
	struct option *lo = hq_opts_longopts(&cmd, shortopts, sizeof shortopts);
	int ch, rc = -1;

	while ((ch = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		switch (ch) {
		case OPT_FROM: c->from = optarg; break;
		case OPT_TO: c->to = optarg; break;
		case OPT_BY:
			if (hq_time_parse_period(optarg, &c->by) || c->by == HQ_PERIOD_NONE) {
				hq_opts_usage_error(&cmd, "--by '%s': use hour, day, week, "
				    "month or year", optarg);
				goto out;
			}
			break;
		case OPT_AGG: c->agg = optarg; break;
		case OPT_WHERE:
			c->where = hq_xrealloc(c->where, (c->nwhere + 1) * sizeof *c->where);
			c->where[c->nwhere++] = optarg;
			break;
		case OPT_WHEN:
			c->when = hq_xrealloc(c->when, (c->nwhen + 1) * sizeof *c->when);
			c->when[c->nwhen++] = optarg;
			break;
		case OPT_SOURCE: c->source = optarg; break;
		case OPT_LIMIT:
		case OPT_OFFSET:
			if (hq_opts_parse_long(optarg, 0, INT32_MAX,
			    ch == OPT_LIMIT ? &c->limit : &c->offset)) {
				hq_opts_usage_error(&cmd, "--%s '%s': expected a whole number",
				    ch == OPT_LIMIT ? "limit" : "offset", optarg);
				goto out;
			}
			break;
		case OPT_FORMAT:
			c->has_format = 1;
			if (strcmp(optarg, "svg") == 0)
				c->svg = 1;
			else if (hq_output_parse_format(optarg, &c->format)) {
				hq_opts_usage_error(&cmd, "--format '%s': use jsonl, json, "
				    "csv, table or svg", optarg);
				goto out;
			}
			break;
		case OPT_TZ: c->tz = optarg; break;
		case OPT_DB: c->db = optarg; break;
		case OPT_LIST: c->list = 1; break;
		case OPT_TYPE: c->type = optarg; break;
		case OPT_MIN_DURATION:
			if (hq_opts_parse_double(optarg, &c->min_duration) || c->min_duration < 0) {
				hq_opts_usage_error(&cmd, "--min-duration '%s': expected "
				    "minutes, such as 45", optarg);
				goto out;
			}
			break;
		case OPT_RAW: c->no_rollup = 1; break;
		case OPT_COMPLETE: c->complete = 1; break;
		case OPT_HELP: hq_opts_help(&cmd, stdout); rc = 1; goto out;
		case OPT_VERSION: hq_opts_version(&cmd, stdout); rc = 1; goto out;
		case OPT_SCHEMA: hq_opts_tool_schema(&cmd, stdout); rc = 1; goto out;
		case ':':
			hq_opts_usage_error(&cmd, "%s needs a value", argv[optind - 1]);
			goto out;
		default:
			hq_opts_usage_error(&cmd, "unknown option %s", argv[optind - 1]);
			goto out;
		}
	}
	rc = 0;
out:
	free(lo);
	return rc;
}

/* --from/--to as a range [from, to); 0, or 2 after a message. */
static int
parse_range(const struct cli *c, int64_t *from, int64_t *to)
{
	struct hq_err e;
	int64_t s, end, now = (int64_t)time(NULL);

	*from = INT64_MIN;
	*to = INT64_MAX;
	if (c->from) {
		if (hq_time_parse_range(c->from, now, &s, &end, &e)) {
			hq_warn("--from: %s", e.msg);
			return 2;
		}
		*from = s;
	}
	if (c->to) {
		if (hq_time_parse_range(c->to, now, &s, &end, &e)) {
			hq_warn("--to: %s", e.msg);
			return 2;
		}
		/* --to names the last day (or month...) to include. */
		*to = end > s ? end : s;
	}
	if (*from != INT64_MIN && *to != INT64_MAX && *from >= *to) {
		hq_warn("--from %s is after --to %s; swap them", c->from, c->to);
		return 2;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct cli c = { .by = HQ_PERIOD_NONE };
	struct hq_store *s = NULL;
	struct hq_config *cfg = NULL;
	struct hq_out *out = NULL;
	struct hq_expr *where[16], *when[16];
	size_t nwhere = 0, nwhen = 0;
	struct hq_series *series = NULL;
	struct hq_dayset days = {0};
	struct hq_priority prio = {0};
	struct hq_query q = {0};
	struct hq_err e;
	int64_t from, to;
	int status = 2, rc;
	long skipped = 0, printed = 0;
	size_t nseries = 0;

	hq_err_init(argv[0]);
	rc = parse_cli(argc, argv, &c);
	if (rc) {
		status = rc > 0 ? 0 : 2;
		goto out;
	}
	argc -= optind;
	argv += optind;
	if (hq_time_set_zone(c.tz, &e)) {
		hq_warn("%s", e.msg);
		goto out;
	}
	if (!c.list && !c.complete && argc == 0) {
		hq_opts_usage_error(&cmd, "which metric? (hq-query --list shows them)");
		goto out;
	}
	if (parse_range(&c, &from, &to))
		goto out;
	if (c.nwhere > 16 || c.nwhen > 16) {
		hq_warn("at most 16 --where and 16 --when");
		goto out;
	}
	for (size_t i = 0; i < c.nwhere; i++, nwhere++)
		if (!(where[i] = hq_expr_parse(c.where[i], &e))) {
			hq_warn("--where: %s", e.msg);
			goto out;
		}
	for (size_t i = 0; i < c.nwhen; i++, nwhen++)
		if (!(when[i] = hq_expr_parse(c.when[i], &e))) {
			hq_warn("--when: %s", e.msg);
			goto out;
		}
	if (c.agg && hq_stats_parse_aggs(c.agg, q.aggs, HQ_MAX_AGGS, &q.naggs, &e)) {
		hq_warn("--agg: %s", e.msg);
		goto out;
	}
	if (c.svg && (c.list || c.complete || (argc && (strcmp(argv[0], "workouts") == 0 ||
	    strcmp(argv[0], "workout") == 0)))) {
		hq_opts_usage_error(&cmd, "--format svg charts metric rows; use jsonl, "
		    "csv or table here");
		goto out;
	}

	s = hq_store_open(c.db, HQ_STORE_READONLY, &e);
	if (!s) {
		if (c.complete) {
			status = 0;
			goto out;
		}
		hq_warn("%s", e.msg);
		goto out;
	}
	/* Years of rollups are tens of megabytes read once: mapping them
	 * saves SQLite copying every page into its cache. */
	if (hq_store_exec(s, "PRAGMA mmap_size = 1073741824", &e))
		hq_warn("%s (continuing without mmap)", e.msg);
	if (c.complete) {
		status = hq_query_metric_names(s, print_name, NULL, &e) ? 2 : 0;
		goto out;
	}
	out = hq_out_new(stdout, c.has_format && !c.svg ? c.format : HQ_FMT_AUTO);
	if (c.list) {
		long n = hq_query_list(s, out, &e);
		if (n < 0)
			hq_warn("%s", e.msg);
		status = n < 0 ? 2 : n ? 0 : 1;
		goto out;
	}
	if (strcmp(argv[0], "workouts") == 0 || strcmp(argv[0], "workout") == 0) {
		status = run_workouts(s, &c, argc, argv, from, to, out);
		goto out;
	}

	cfg = hq_config_load(NULL, &e);
	if (!cfg) {
		hq_warn("%s", e.msg);
		goto out;
	}
	hq_merge_priority_parse(&prio, hq_config_get(cfg, "query", "source_priority"));
	const char *cut = hq_config_get(cfg, "query", "sleep_cutoff");
	long cutoff = 18;
	if (cut && hq_opts_parse_long(cut, 1, 23, &cutoff)) {
		hq_warn("config [query] sleep_cutoff = %s: expected an hour 1..23", cut);
		goto out;
	}
	q.from = from;
	q.to = to;
	q.by = c.by;
	q.whole = c.by == HQ_PERIOD_NONE && c.agg != NULL;
	q.source = c.source;
	q.priority = prio.n ? &prio : NULL;
	q.sleep_cutoff = (int)cutoff;
	q.no_rollup = c.no_rollup;

	series = hq_xcalloc((size_t)argc + 1, sizeof *series);
	struct hq_metric_ref *refs = hq_xcalloc((size_t)argc + 1, sizeof *refs);
	for (int i = 0; i < argc; i++)
		if (hq_query_resolve(s, argv[i], &refs[i], &e)) {
			hq_warn("%s", e.msg);
			free(refs);
			goto out;
		}
	if (nwhen) {
		if (build_dayset(s, when, nwhen, &q, &days, &e)) {
			hq_warn("%s", e.msg);
			free(refs);
			goto out;
		}
		q.days = &days;
	}
	for (int i = 0; i < argc; i++) {
		q.metric = refs[i];
		if (hq_query_run(s, &q, &series[nseries], &e)) {
			hq_warn("%s", e.msg);
			free(refs);
			goto out;
		}
		nseries++;
	}
	free(refs);

	/* --where, then --offset and --limit, over the rows in order. */
	for (size_t i = 0; i < nseries; i++) {
		struct hq_series *sr = &series[i];
		int slot[16][64];
		size_t k = 0;
		for (size_t w = 0; w < nwhere; w++)
			if (hq_expr_nrefs(where[w]) > 64 ||
			    where_slots(where[w], sr->aggs, sr->naggs, slot[w], &e)) {
				hq_warn("%s", e.msg);
				goto out;
			}
		for (size_t r = 0; r < sr->n; r++) {
			int keep = 1;
			for (size_t w = 0; keep && w < nwhere; w++) {
				struct where_ctx wc = { sr, &sr->rows[r], slot[w] };
				keep = hq_expr_eval(where[w], where_lookup, &wc);
			}
			if (!keep)
				continue;
			if (skipped < c.offset) {
				skipped++;
				continue;
			}
			if (c.limit && printed >= c.limit)
				break;
			sr->rows[k++] = sr->rows[r];
			printed++;
		}
		sr->n = k;
	}
	if (c.svg) {
		if (printed && write_svg(series, nseries)) {
			hq_warn("writing the chart failed");
			goto out;
		}
	} else
		for (size_t i = 0; i < nseries; i++)
			for (size_t r = 0; r < series[i].n; r++)
				print_row(out, &series[i], &series[i].rows[r]);
	status = printed ? 0 : 1;
out:
	if (out && hq_out_free(out) && status != 2) {
		hq_warn("write error");
		status = 2;
	}
	for (size_t i = 0; i < nseries; i++)
		hq_series_free(&series[i]);
	free(series);
	for (size_t i = 0; i < nwhere; i++)
		hq_expr_free(where[i]);
	for (size_t i = 0; i < nwhen; i++)
		hq_expr_free(when[i]);
	free(days.days);
	free(c.where);
	free(c.when);
	hq_merge_priority_free(&prio);
	hq_config_free(cfg);
	hq_store_close(s);
	return hq_finish(status);
}
