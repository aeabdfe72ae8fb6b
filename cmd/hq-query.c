/*
 * hq-query — time series of the metrics in the store, filtered and
 * aggregated: merged across devices, nights for sleep, days in the local
 * zone. The rows come from lib/select.c (the selection: --when, --where,
 * --offset, --limit over lib/query.c's series); this file turns options
 * into a selection and prints rows, charts and workouts: for scripts every
 * field, for a person at a terminal a table that fits it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/athlete_rows.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/complete.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/list.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "hq/query.h"
#include "hq/route.h"
#include "hq/rows.h"
#include "hq/search.h"
#include "hq/select.h"
#include "hq/start.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/workout.h"

enum {
	OPT_FROM = HQ_OPT_LONG, OPT_TO, OPT_BY, OPT_AGG, OPT_WHERE, OPT_WHEN,
	OPT_SOURCE, OPT_LIMIT, OPT_OFFSET, OPT_FORMAT, OPT_TZ, OPT_DB, OPT_LIST,
	OPT_TYPE, OPT_MIN_DURATION, OPT_ALL_SOURCES, OPT_RAW, OPT_COMPLETE,
	OPT_MAX_HR, OPT_REST_HR, OPT_LTHR, OPT_FTP, OPT_SPLITS,
	OPT_IN, OPT_NEAR, OPT_MODE, OPT_COUNT,
};

static const struct hq_opt options[] = {
	HQ_OPT_FROM(OPT_FROM, "start at DATE (2024-12-01, 2024-12, 2024-W49, today, 7d, last-month...)",
	  "Start of the range, inclusive: 2024-12-01, 2024-12 (a month), 2024-W49 (an ISO week), today, yesterday, 7d/3w/6m/1y (that long ago), this-week, last-month, this-year. Omit for all data."),
	HQ_OPT_TO(OPT_TO, "end with DATE, inclusive (same forms as --from)",
	  "End of the range, inclusive of the whole day/month/week it names (same forms as from): from \"2024-12\" with to \"2024-12\" is all of December."),
	{ OPT_BY, "by", HQ_OPT_ENUM, "PERIOD", "one row per hour, day, week (ISO), month or year in the local zone",
	  "hour|day|week|month|year", "Bucket size in the local time zone. Use day/week/month with an aggregation rather than raw rows: raw per-minute heart rate is thousands of rows. Weeks are ISO weeks (Monday first).", 1 },
	{ OPT_AGG, "agg", HQ_OPT_STRING, "LIST", "aggregations: avg,min,max,sum,count,median,stddev,p1..p99,first,last",
	  NULL, "Comma-separated aggregations per bucket; the first becomes `value`. Default: sum for cumulative metrics (steps, energy, exercise minutes), avg for measurements (heart rate, weight, glucose) and sleep. For steps/sleep in weeks or months, avg is the average per day/night. Without --by, --agg gives one row for the whole range (e.g. average sleep in December).", 1 },
	{ OPT_WHERE, "where", HQ_OPT_LIST, "EXPR", "keep samples (or buckets, with --by) where EXPR holds: 'value>100', 'avg<60 and n>=10'",
	  NULL, "Filter the output rows by their own values: 'value>100' on samples, or on buckets with by ('avg>70', 'max>=150', 'n>10'; every name must be an aggregation in agg, or value/n). With metrics [\"workouts\"]: any numeric field of the workout rows ('load>=50 and duration_min<=90'). Repeat to AND.", 1 },
	{ OPT_WHEN, "when", HQ_OPT_LIST, "EXPR", "only days on which another metric's daily aggregate satisfies EXPR: 'exercise_time.sum>=60' (repeat to AND)",
	  NULL, "Keep only the local days on which another metric's daily aggregate satisfies a condition, written metric.agg: 'exercise_time.sum>=60' (days with an hour of exercise), 'glucose.max>140', 'sleep.avg<6'. A day offset looks at another day: 'glucose.max[-1]>140' keeps the days after a high-glucose day, so with sleep it gives the nights after (a night is dated by the morning it ends). Use it for questions like 'heart rate on days I exercised over 60 minutes'. Several are ANDed.", 1 },
	{ OPT_SOURCE, "source", HQ_OPT_STRING, "NAME", "only samples from source NAME (no merging across sources)",
	  NULL, "Only samples from one source (exact source name as hq-query --list shows). Without it, cumulative metrics are merged across devices by priority (Watch over iPhone over apps) so nothing is counted twice; use it only to look at one device.", 1 },
	{ OPT_LIMIT, "limit", HQ_OPT_INT, "N", "print at most N rows (N >= 1)", "1..2147483647",
	  "At most this many rows. Prefer --by and a shorter range to cutting rows.", 1 },
	{ OPT_OFFSET, "offset", HQ_OPT_INT, "N", "skip the first N rows", "0..2147483647",
	  "Skip this many rows first (paging).", 1 },
	HQ_OPT_FORMAT(OPT_FORMAT, "jsonl, json, csv, table, svg (a chart), or a workout's route as gpx or geojson; default: table on a terminal, else jsonl",
	  "jsonl|json|csv|table|svg|gpx|geojson"),
	HQ_OPT_TZ(OPT_TZ, 1),
	HQ_OPT_DB(OPT_DB),
	{ OPT_LIST, "list", HQ_OPT_FLAG, NULL, "what the store holds: metrics, workouts by type, routes, activity summaries, clinical records, lab results, DEXA scans; count, first and last date, sources",
	  NULL, "List what the store holds: every metric with its unit, number of samples, first and last date and sources; workouts and routes by type, activity summaries, clinical records, lab results and DEXA scans (for hq_report). Use it first to learn which metrics exist and how far back they go.", 1 },
	{ OPT_TYPE, "type", HQ_OPT_STRING, "TYPE", "workouts: only this type (running, cycling, walking...)",
	  NULL, "With metrics [\"workouts\"]: only this workout type (running, cycling, walking, swimming, hiit...).", 1 },
	{ OPT_MIN_DURATION, "min-duration", HQ_OPT_NUMBER, "MIN", "workouts: only those lasting at least MIN minutes",
	  "0..", "With metrics [\"workouts\"]: only workouts of at least this many minutes.", 1 },
	{ OPT_ALL_SOURCES, "all-sources", HQ_OPT_FLAG, NULL, "workouts: every recording of an activity recorded twice (an Apple workout and its device file), with same_as",
	  NULL, "With metrics [\"workouts\"]: list every recording of an activity recorded twice (an Apple Health workout and the same ride's FIT file), not just the one kept; same_as names the kept one.", 1 },
	{ OPT_MAX_HR, "max-hr", HQ_OPT_STRING, "BPM", "workouts: the maximum heart rate for load and zones (over [athlete] max_hr; default: the highest in a workout)",
	  NULL, "With metrics [\"workouts\"] or [\"workout\", ID]: the athlete's maximum heart rate in bpm for trimp, hrss, edwards, load and zones. Default: max_hr under [athlete] in the config, else the highest heart rate recorded in any workout (an estimate).", 1 },
	{ OPT_REST_HR, "rest-hr", HQ_OPT_STRING, "BPM", "workouts: the resting heart rate (over [athlete] rest_hr; default: the median resting heart rate, else 60)",
	  NULL, "With workouts: the athlete's resting heart rate in bpm. Default: rest_hr under [athlete], else the median of the resting heart rate samples, else 60.", 1 },
	{ OPT_LTHR, "lthr", HQ_OPT_STRING, "BPM", "workouts: the threshold heart rate for hrss (default: rest + 0.85 (max - rest))",
	  NULL, "With workouts: the lactate threshold heart rate in bpm (an hour at it is hrss 100), between rest and max. Default: lthr under [athlete], else rest + 0.85 x (max - rest).", 1 },
	{ OPT_FTP, "ftp", HQ_OPT_STRING, "WATTS", "workouts: functional threshold power for if and tss (over [athlete] ftp)",
	  NULL, "With workouts: functional threshold power in watts, for if and tss (a ride's load is its tss when it has power). Default: ftp under [athlete]; without one, no if or tss.", 1 },
	{ OPT_SPLITS, "splits", HQ_OPT_STRING, "DIST", "workout ID: its route split every DIST: 1 (km), 0.5, 2km, 1mi, 400m",
	  NULL, "With metrics [\"workout\", ID]: split its route every DIST (1 = 1 km, \"1mi\" = a mile, \"400m\"): rows split, km, seconds (moving), pace_min_per_km, speed_kmh, avg_hr, gain_m. A split ends at the first point where the route's distance reaches its multiple.", 1 },
	{ OPT_IN, "in", HQ_OPT_STRING, "KINDS", "search: only these kinds: workouts,labs,records,metrics,sources",
	  NULL, "With metrics [\"search\", ...]: only these kinds, comma-separated: workouts, labs, records (clinical records' text), metrics (hq's metric names and descriptions), sources (devices and apps). Default: every kind.", 1 },
	{ OPT_NEAR, "near", HQ_OPT_STRING, "PLACE", "search: workouts whose route passes within KM of LAT,LON[,KM] (default 1 km) or a [places] name",
	  NULL, "With metrics [\"search\"]: only workouts whose GPS route passes within the radius of a point: \"LAT,LON\" (1 km) or \"LAT,LON,KM\" in decimal degrees, or a place's name from the user's config [places]. Rows carry distance_km, the closest approach. Landmarks are not looked up: give their coordinates (the Golden Gate Bridge is 37.8199,-122.4783).", 1 },
	{ OPT_MODE, "mode", HQ_OPT_ENUM, "MODE", "search: browse (every match, newest first; default) or find (the few best)",
	  "browse|find", "With metrics [\"search\", ...]: browse (default) lists every match newest first (page with limit/offset); find gives at most 5, the best matches first (BM25; with near and no words, the closest).", 1 },
	{ OPT_COUNT, "count", HQ_OPT_FLAG, NULL, "search: print the number of matches alone",
	  NULL, "With metrics [\"search\", ...]: print only how many rows match.", 1 },
	{ OPT_RAW, "no-rollup", HQ_OPT_FLAG, NULL, "compute from raw samples even where rollups would answer (for checking)", NULL, NULL, 0 },
	{ OPT_COMPLETE, "complete-metrics", HQ_OPT_FLAG, NULL, "print the metric names in the store, one per line (for shell completion)", NULL, NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static int
is_workouts(const char *name)
{
	return strcmp(name, "workouts") == 0 || strcmp(name, "workout") == 0;
}

/* The shell completion of the operands: metric names and aliases, then
 * workouts and workout; after "workout", the workouts' ids. */
static void
complete_operand(const struct hq_complete *c)
{
	if (c->noperands == 1 && strcmp(c->operands[0], "workout") == 0) {
		hq_complete_workouts(c);
		return;
	}
	if (c->noperands && is_workouts(c->operands[0]))
		return;
	if (c->noperands && strcmp(c->operands[0], "search") == 0)
		return;   /* the words are the person's */
	hq_complete_metrics(c);
	if (c->noperands == 0) {
		hq_complete_add(c, "workouts", "the workouts: --type, --min-duration");
		hq_complete_add(c, "workout", "one workout by its id");
		hq_complete_add(c, "search", "anything by its words, or by place: --near");
	}
}

static void
add_place(const char *name, const char *value, void *ctx)
{
	hq_complete_add(ctx, name, value);
}

/* --near: the places under [places] in the config. */
static void
complete_places(const struct hq_complete *c)
{
	struct hq_config *cfg;
	struct hq_err e;

	if ((cfg = hq_config_load(NULL, &e)))
		hq_search_places(cfg, add_place, (void *)c);
	hq_config_free(cfg);
}

/* --splits' usual distances, for completion. */
static const char *
split_at(size_t i)
{
	static const char *const v[] = { "1", "1mi", "0.5", "2km", "5km",
	    "400m" };

	return i < sizeof v / sizeof v[0] ? v[i] : NULL;
}

static const struct hq_cmd_info cmd = {
	.name = "hq-query",
	.synopsis = "METRIC... [--from DATE] [--to DATE] [--by PERIOD] [--agg LIST] "
	    "[--where EXPR] [--when EXPR] [--source NAME] [--limit N] [--offset N] "
	    "[--format FMT] [--tz ZONE] [--db PATH]\n"
	    "       hq-query --list | workouts [--type TYPE] [--min-duration MIN]\n"
	    "                [--where EXPR] [--max-hr BPM] [--rest-hr BPM] [--lthr BPM]\n"
	    "                [--ftp WATTS]\n"
	    "       hq-query workout ID|last|last:TYPE [METRIC] [--format FMT]\n"
	    "       hq-query workout ID|last|last:TYPE --splits DIST\n"
	    "       hq-query search [TEXT...] [--in KINDS] [--near PLACE]\n"
	    "                [--mode browse|find] [--count] [--type TYPE]",
	.summary = "Time series of health metrics, merged across devices, by local day, week or month.",
	.tool_description = "Query the user's health data (Apple Health and more) as time "
	    "series. Give metric names (steps, heart_rate, resting_heart_rate, hrv, sleep, "
	    "sleep_deep, exercise_time, active_energy, weight, glucose, vo2max...) with a "
	    "range and usually by=day/week/month; rows are {metric, period, start, end, value, "
	    "<agg fields>, n, unit}. Steps and other counts are de-duplicated across iPhone "
	    "and Watch; sleep is per night (keyed by the date the night ends). Use list=true "
	    "first when unsure which metrics exist. metrics [\"workouts\"] lists workouts, "
	    "newest first (type, min_duration filter; limit 3 gives the last three); "
	    "[\"workout\", ID] shows one (ID may be \"last\" or \"last:cycling\"), and "
	    "[\"workout\", ID, \"heart_rate\"] that metric's samples during it. "
	    "Workout rows carry training figures: load (the day's training "
	    "stress: tss with power, else hrss, 100 = an hour at threshold), "
	    "trimp, hrss, edwards, np, if, tss, hr_minutes, hr_coverage_pct, "
	    "z0_min..z5_min (minutes per heart-rate zone), elevation_gain_m; "
	    "with [\"workouts\"], where filters on any numeric field: "
	    "[\"load>=50 and duration_min<=90\"], [\"z2_min>=30\"]. An activity "
	    "recorded twice is listed once; filled_from names the workout ids its "
	    "distance, energy, ascent, route or power came from (null: its own). "
	    "[\"search\", WORDS...] finds anything by its words: workouts (type, "
	    "sub-sport, indoor/outdoor, brand and other metadata, device, app), lab "
	    "results (test, LOINC, flag high/low, lab), clinical records' text "
	    "(diagnoses, medications, notes, doctors' and clinics' names), metrics "
	    "(\"oxygen\" finds blood_oxygen_saturation) and sources; words, "
	    "\"a phrase\", prefix*, AND, OR, NOT, case and accents ignored; rows "
	    "kind, id, date, title, snippet, score, newest first (mode find: the "
	    "best 5). With near (\"LAT,LON,KM\" or a place's name) the workouts "
	    "whose GPS route passed within the radius, with distance_km: 'which "
	    "runs went past the Golden Gate Bridge?' is [\"search\"] with near "
	    "\"37.8199,-122.4783,0.5\" and type running. Exit 1 "
	    "means no data in the range (stderr says what there is).",
	.positional = "metrics",
	.positional_help = "Metric names, e.g. [\"heart_rate\"] or [\"steps\",\"sleep\"]; "
	    "[\"workouts\"] for the workout list, [\"workout\",\"12\"] or "
	    "[\"workout\",\"last:running\"] for one workout, [\"workout\",\"last\","
	    "\"heart_rate\"] for the heart rate during it; [\"search\", \"cholesterol\"] "
	    "or [\"search\", \"Dr\", \"Lee\"] to find anything by its words.",
	.positional_required = 0,
	.opts = options,
	.values = (const struct hq_opt_values[]){
		{ "type", hq_workout_type_at },
		{ "agg", hq_stats_agg_at },
		{ "splits", split_at },
		{ "in", hq_search_kind_at },
		{ NULL, NULL },
	},
	.completers = (const struct hq_opt_completer[]){
		{ "near", complete_places },
		{ "when", hq_complete_when },
		{ "where", hq_complete_where },
		{ "source", hq_complete_sources },
		{ NULL, NULL },
	},
	.split = "agg when where in",
	.complete_operand = complete_operand,
};

/* What --format asks for: rows (in an hq_out format), a chart, a route. */
enum shape { SHAPE_ROWS, SHAPE_SVG, SHAPE_ROUTE };

struct cli {
	const char *from, *to, *agg, *source, *tz, *db, *type;
	char **where, **when;
	size_t nwhere, nwhen;
	enum hq_period by;
	long limit, offset;
	double min_duration;
	int all_sources;
	int has_format, list, complete, no_rollup;
	enum shape shape;
	enum hq_format format;
	enum hq_route_format route_format;
	struct hq_athlete_flags athlete;   /* --max-hr ... as typed */
	const char *splits;
	const char *in, *near;             /* search */
	int find, count;
};


/* ---- rows ------------------------------------------------------------------- */


/* The options that drop rows, as typed: "--when 'x', --where 'y'". */
static void
filters_text(const struct cli *c, char *buf, size_t n)
{
	struct hq_buf b = {0};

	if (c->source)
		hq_buf_printf(&b, ", --source '%s'", c->source);
	for (size_t i = 0; i < c->nwhen; i++)
		hq_buf_printf(&b, ", --when '%s'", c->when[i]);
	for (size_t i = 0; i < c->nwhere; i++)
		hq_buf_printf(&b, ", --where '%s'", c->where[i]);
	if (c->offset)
		hq_buf_printf(&b, ", --offset %ld", c->offset);
	snprintf(buf, n, "%s", b.len > 2 ? b.data + 2 : "");
	hq_buf_free(&b);
}

/* The selection's rows, printed or charted (title: NULL, the metrics');
 * the exit status. With no rows, stderr says what the store has near them
 * (stdout stays empty, the status 1). */
static int
run_rows(struct hq_store *s, const struct cli *c, const struct hq_select *sel,
    const char *title, const char *workout, struct hq_out *out)
{
	int svg = c->shape == SHAPE_SVG;
	struct hq_rows *rows = svg ? hq_rows_new_chart(title) : hq_rows_new(out);
	char filters[2048], text[4096];
	struct hq_err e;
	long n = hq_select_run(s, sel, hq_rows_sink(rows), &e);
	int status = n < 0 ? 2 : n ? 0 : 1;

	if (n < 0) {
		hq_warn("%s", e.msg);
	} else if (svg && n && hq_rows_write_chart(rows, stdout)) {
		hq_warn("writing the chart failed");
		status = 2;
	} else if (n == 0 && workout) {
		/* a workout's metric: none recorded during it (a Zwift ride's
		 * heart rate, all 0, was no reading), whatever other days hold */
		snprintf(text, sizeof text, "%s", sel->metrics[0]);
		for (char *p = text; *p; p++)
			*p = *p == '_' ? ' ' : *p;
		hq_warn("%s has no %s", workout, text);
	} else if (n == 0) {
		filters_text(c, filters, sizeof filters);
		if (hq_rows_explain_none(rows, s, sel, filters, text, sizeof text, &e))
			hq_warn("%s", e.msg);
		else
			hq_warn_lines(text);
	}
	hq_rows_free(rows);
	return status;
}

/* ---- --list and workouts ---------------------------------------------------- */

static int
run_list(struct hq_store *s, struct hq_out *out)
{
	struct hq_err e;
	long n = hq_list_run(s, out, &e);

	if (n < 0)
		hq_warn("%s", e.msg);
	else if (n == 0)
		hq_warn("the store %s is empty: import an export with hq-ingest",
		    hq_store_filename(s));
	return n < 0 ? 2 : n ? 0 : 1;
}

/* The athlete's settings ([athlete] in the config, the flags, the
 * defaults from the store) and the figures beside the workout rows; NULL
 * after a message (exit 2). */
static struct hq_athlete_rows *
athlete_rows(struct hq_store *s, const struct cli *c,
    const struct hq_config *cfg)
{
	struct hq_athlete_rows *r;
	struct hq_err e;

	if (!(r = hq_athlete_rows_new(s, cfg, &c->athlete, &e)))
		hq_warn("%s", e.msg);
	return r;
}

/* hq-query workout ID --splits DIST */
static int
run_splits(struct hq_store *s, const char *dist, int64_t id, const char *name,
    struct hq_out *out)
{
	struct hq_err e;
	double unit_m;
	long got;

	if (hq_athlete_split_unit(dist, &unit_m, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	got = hq_athlete_splits_write(s, id, unit_m, out, &e);
	if (got < 0)
		hq_warn("%s", e.msg);
	else if (got == 0)
		hq_warn("workout %lld (%s) has no route points to split",
		    (long long)id, name);
	return got < 0 ? 2 : got ? 0 : 1;
}

/* hq-query workout REF [METRIC]: the detail, a metric's rows or chart
 * during the workout, or its route. */
static int
run_workout(struct hq_store *s, const struct cli *c, int argc, char **argv,
    struct hq_select *sel, const struct hq_config *cfg, struct hq_out *out)
{
	struct hq_athlete_rows *ar;
	struct hq_workout_ref w;
	struct hq_err e;
	char name[200], when[40], title[300], during[240];
	const char *metric;
	int found;
	long got;

	if (argc < 2 || argc > 3) {
		hq_opts_usage_error(&cmd, "workout needs an ID (see hq-query "
		    "workouts), last or last:TYPE, and may name a metric");
		return 2;
	}
	if ((found = hq_workout_find(s, argv[1], &w, &e)) < 0) {
		hq_warn("%s", e.msg);
		return 2;
	}
	if (!found) {
		hq_warn("%s", e.msg);
		return 1;
	}
	hq_time_format_local(w.start, when, sizeof when);
	when[10] = ' ';   /* "2026-11-17 18:15" */
	snprintf(name, sizeof name, "%s %.16s", w.type, when);
	if (c->splits)
		return run_splits(s, c->splits, w.id, name, out);
	if (c->shape == SHAPE_ROUTE) {
		got = hq_athlete_route_write(s, w.id, name, c->route_format,
		    stdout, &e);
		if (got < 0)
			hq_warn("%s", e.msg);
		else if (got == 0)
			hq_warn("workout %lld (%s) has no route points", (long long)w.id,
			    name);
		return got < 0 ? 2 : got ? 0 : 1;
	}
	metric = argc == 3 ? argv[2] : c->shape == SHAPE_SVG ? "heart_rate" : NULL;
	if (metric) {
		sel->metrics = (const char *const *)&metric;
		sel->nmetrics = 1;
		sel->from = w.start;
		sel->to = w.end + 1;
		snprintf(title, sizeof title, "%s during workout %lld: %s", metric,
		    (long long)w.id, name);
		snprintf(during, sizeof during, "workout %lld (%s)", (long long)w.id,
		    name);
		return run_rows(s, c, sel, title, during, out);
	}
	if (!(ar = athlete_rows(s, c, cfg)))
		return 2;
	hq_out_keyvalue(out);
	got = hq_workout_detail_more(s, w.id, hq_athlete_rows_more(ar), out, &e);
	hq_athlete_rows_free(ar);
	if (got < 0) {
		hq_warn("%s", e.msg);
		return 2;
	}
	return got ? 0 : 1;
}

static int
run_workouts(struct hq_store *s, const struct cli *c, int argc,
    const struct hq_select *sel, const struct hq_config *cfg,
    struct hq_out *out)
{
	struct hq_workout_filter f = {
		.type = c->type, .from = sel->from == INT64_MIN ? 0 : sel->from,
		.to = sel->to == INT64_MAX ? 0 : sel->to,
		.min_duration = c->min_duration, .limit = c->limit,
		.offset = c->offset, .all_sources = c->all_sources,
		.where = (const char *const *)c->where, .nwhere = c->nwhere,
	};
	struct hq_athlete_rows *ar;
	struct hq_err e;
	char text[512];
	long got;

	if (argc != 1) {
		hq_opts_usage_error(&cmd, "workouts takes no metric names");
		return 2;
	}
	if (!(ar = athlete_rows(s, c, cfg)))
		return 2;
	f.more = hq_athlete_rows_more(ar);
	got = hq_workout_list(s, &f, out, &e);
	hq_athlete_rows_free(ar);
	if (got < 0) {
		hq_warn("%s", e.msg);
		return 2;
	}
	if (got == 0 && c->nwhere) {
		filters_text(c, text, sizeof text);
		hq_warn("no workouts with %s", text);
	} else if (got == 0) {
		if (hq_workout_explain_none(s, &f, text, sizeof text, &e))
			hq_warn("%s", e.msg);
		else
			hq_warn_lines(text);
	}
	return got ? 0 : 1;
}

/* ---- search ---------------------------------------------------------------- */

/* hq-query search [TEXT...]: the operands are the words, joined. A
 * malformed search or place is a usage error (2), nothing found 1. */
static int
run_search(struct hq_store *s, const struct cli *c, int argc, char **argv,
    const struct hq_select *sel, const struct hq_config *cfg,
    struct hq_out *out)
{
	struct hq_search q = { .find = c->find, .limit = c->limit,
	    .offset = c->offset, .from = sel->from, .to = sel->to };
	struct hq_buf text = {0};
	char suggest[64], *fts = NULL;
	struct hq_err e;
	long n;
	int status = 2;

	for (int i = 1; i < argc; i++)
		hq_buf_printf(&text, "%s%s", i > 1 ? " " : "", argv[i]);
	q.text = argc > 1 ? text.data : NULL;
	if (c->type && !(q.type = hq_workout_type_identifier(c->type, suggest,
	    sizeof suggest))) {
		hq_opts_usage_error(&cmd, "--type '%.64s': no such workout type%s%s%s",
		    c->type, *suggest ? " (did you mean " : "", suggest,
		    *suggest ? "?)" : "");
		goto done;
	}
	if ((c->in && hq_search_parse_kinds(c->in, &q.kinds, &e)) ||
	    (c->near && hq_search_parse_near(c->near, cfg, &q, &e)) ||
	    (q.text && hq_search_compile(q.text, &fts, &e))) {
		hq_opts_usage_error(&cmd, "search: %s", e.msg);
		goto done;
	}
	if (c->count) {
		if ((n = hq_search_count(s, &q, &e)) >= 0)
			printf("%ld\n", n);
	} else {
		n = hq_search_run(s, &q, out, &e);
	}
	if (n < 0)
		hq_warn("%s", e.msg);
	else if (n == 0 && !c->count)
		hq_warn("nothing matches%s%s%s", q.text ? " '" : "",
		    q.text ? q.text : "", q.text ? "'" : "");
	status = n < 0 ? 2 : n || c->count ? 0 : 1;
done:
	free(fts);
	hq_buf_free(&text);
	return status;
}

/* ---- main ------------------------------------------------------------------ */

static void
print_name(const char *name, void *ctx)
{
	(void)ctx;
	puts(name);
}

/* The options into c: the index of the first operand, or -1 with
 * *status set (0 after --help and the like, 2 after a usage error). */
static int
parse_cli(int argc, char **argv, struct cli *c, int *status)
{
	struct hq_opts p;
	int id;

	hq_opts_init(&p, &cmd, argc, argv);
	while ((id = hq_opts_parse(&p)) > 0)
		switch (id) {
		case OPT_FROM: c->from = p.arg; break;
		case OPT_TO: c->to = p.arg; break;
		case OPT_BY:
			if (hq_time_parse_period(p.arg, &c->by) || c->by == HQ_PERIOD_NONE) {
				hq_opts_usage_error(&cmd, "--by '%s': use hour, day, week, "
				    "month or year", p.arg);
				*status = 2;
				return -1;
			}
			break;
		case OPT_AGG: c->agg = p.arg; break;
		case OPT_WHERE:
			c->where = hq_xrealloc(c->where, (c->nwhere + 1) * sizeof *c->where);
			c->where[c->nwhere++] = p.arg;
			break;
		case OPT_WHEN:
			c->when = hq_xrealloc(c->when, (c->nwhen + 1) * sizeof *c->when);
			c->when[c->nwhen++] = p.arg;
			break;
		case OPT_SOURCE: c->source = p.arg; break;
		case OPT_LIMIT: c->limit = p.num; break;
		case OPT_OFFSET: c->offset = p.num; break;
		case OPT_FORMAT:
			c->has_format = 1;
			if (strcmp(p.arg, "svg") == 0)
				c->shape = SHAPE_SVG;
			else if (hq_route_parse_format(p.arg, &c->route_format) == 0)
				c->shape = SHAPE_ROUTE;
			else
				hq_output_parse_format(p.arg, &c->format);
			break;
		case OPT_TZ: c->tz = p.arg; break;
		case OPT_DB: c->db = p.arg; break;
		case OPT_LIST: c->list = 1; break;
		case OPT_TYPE: c->type = p.arg; break;
		case OPT_MIN_DURATION: c->min_duration = p.real; break;
		case OPT_ALL_SOURCES: c->all_sources = 1; break;
		case OPT_RAW: c->no_rollup = 1; break;
		case OPT_COMPLETE: c->complete = 1; break;
		case OPT_MAX_HR: c->athlete.max_hr = p.arg; break;
		case OPT_REST_HR: c->athlete.rest_hr = p.arg; break;
		case OPT_LTHR: c->athlete.lthr = p.arg; break;
		case OPT_FTP: c->athlete.ftp = p.arg; break;
		case OPT_SPLITS: c->splits = p.arg; break;
		case OPT_IN: c->in = p.arg; break;
		case OPT_NEAR: c->near = p.arg; break;
		case OPT_MODE: c->find = p.choice == 1; break;
		case OPT_COUNT: c->count = 1; break;
		}
	*status = p.status;
	return id < 0 ? -1 : p.optind;
}

/* Usage errors that need no store: 0, or 2 after the message. */
static int
check_cli(const struct cli *c, int argc, char **argv)
{
	int workout = argc && strcmp(argv[0], "workout") == 0;
	int search = argc && strcmp(argv[0], "search") == 0;

	if (!c->list && !c->complete && argc == 0) {
		hq_opts_usage_error(&cmd, "which metric? (hq-query --list shows them)");
		return 2;
	}
	if (!c->list && !c->complete && !workout && strcmp(argv[0], "workouts") &&
	    !search && !hq_catalog_lookup(argv[0])) {
		/* workot: a subcommand mistyped, not a metric the store may hold */
		static const char *const subs[] = { "workouts", "workout", "search" };
		const char *pick = hq_catalog_suggest(argv[0], subs, 3);
		if (pick) {
			hq_opts_usage_error(&cmd, "unknown subcommand '%.64s' (did you "
			    "mean %s?)", argv[0], pick);
			return 2;
		}
	}
	if (c->shape == SHAPE_SVG && (c->list || c->complete ||
	    (argc && strcmp(argv[0], "workouts") == 0))) {
		hq_opts_usage_error(&cmd, "--format svg charts metric rows; use jsonl, "
		    "csv or table here");
		return 2;
	}
	if (c->shape == SHAPE_ROUTE && (!workout || argc != 2 || c->list)) {
		hq_opts_usage_error(&cmd, "--format gpx and geojson write a workout's "
		    "route: hq-query workout ID|last --format gpx");
		return 2;
	}
	if ((c->athlete.max_hr || c->athlete.rest_hr || c->athlete.lthr ||
	    c->athlete.ftp) && !(argc && is_workouts(argv[0]))) {
		hq_opts_usage_error(&cmd, "--max-hr, --rest-hr, --lthr and --ftp "
		    "set the athlete for hq-query workouts and workout ID");
		return 2;
	}
	if (c->splits && (!workout || argc != 2 || c->shape != SHAPE_ROWS)) {
		hq_opts_usage_error(&cmd, "--splits splits one workout's route into "
		    "rows: hq-query workout ID --splits 1");
		return 2;
	}
	if ((c->in || c->near || c->find || c->count) && (!search || c->list)) {
		hq_opts_usage_error(&cmd, "--in, --near, --mode and --count go with "
		    "hq-query search");
		return 2;
	}
	if (search && (c->shape != SHAPE_ROWS || c->nwhere || c->nwhen ||
	    c->by != HQ_PERIOD_NONE || c->agg || c->source || c->min_duration ||
	    c->all_sources)) {
		hq_opts_usage_error(&cmd, "search takes words, --in, --near, --type, "
		    "--from, --to, --mode, --limit, --offset, --count and --format "
		    "jsonl|json|csv|table");
		return 2;
	}
	if (search && argc == 1 && !c->near) {
		hq_opts_usage_error(&cmd, "search for what? give words, --near "
		    "PLACE, or both");
		return 2;
	}
	if (workout && (c->from || c->to)) {
		hq_opts_usage_error(&cmd, "workout: its own start and end are the "
		    "range; --from and --to pick workouts in hq-query workouts");
		return 2;
	}
	return 0;
}

/* --from/--to as a range [from, to); 0, or 2 after a message. */
static int
parse_range(const struct cli *c, int64_t *from, int64_t *to)
{
	struct hq_err e;

	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), from, to, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	return 0;
}

/* The options as a selection: 0, or 2 after a message. */
static int
make_selection(const struct cli *c, int argc, char **argv,
    struct hq_select *sel)
{
	struct hq_err e;

	if (parse_range(c, &sel->from, &sel->to))
		return 2;
	/* Workouts read --where on their own fields (hq_workout_list). */
	for (size_t i = 0; i < c->nwhere && strcmp(argv[0], "workouts"); i++)
		if (hq_select_add_where(sel, c->where[i], &e)) {
			hq_warn("%s", e.msg);
			return 2;
		}
	for (size_t i = 0; i < c->nwhen; i++)
		if (hq_select_add_when(sel, c->when[i], &e)) {
			hq_warn("%s", e.msg);
			return 2;
		}
	if (c->agg && hq_stats_parse_aggs(c->agg, sel->aggs, HQ_MAX_AGGS,
	    &sel->naggs, &e)) {
		hq_warn("--agg: %s", e.msg);
		return 2;
	}
	sel->metrics = (const char *const *)argv;
	sel->nmetrics = (size_t)argc;
	sel->by = c->by;
	sel->whole = c->by == HQ_PERIOD_NONE && c->agg != NULL;
	sel->source = c->source;
	sel->offset = c->offset;
	sel->limit = c->limit;
	sel->no_rollup = c->no_rollup;
	return 0;
}

int
main(int argc, char **argv)
{
	struct cli c = { .by = HQ_PERIOD_NONE };
	struct hq_select sel;
	struct hq_start st;
	struct hq_out *out = NULL;
	struct hq_err e;
	int status = 2, first;

	hq_err_init(argv[0]);
	hq_select_init(&sel);
	hq_start_init(&st);
	if ((first = parse_cli(argc, argv, &c, &status)) < 0)
		goto out;
	status = 2;
	argc -= first;
	argv += first;
	if (check_cli(&c, argc, argv))
		goto out;
	st.db = c.db;
	st.tz = c.tz;
	st.complete = c.complete;
	/* Years of rollups are tens of megabytes read once: mapping them
	 * saves SQLite copying every page into its cache. */
	st.mmap = 0;
	if (hq_start_store(&st, &status))
		goto out;
	if (c.complete) {
		status = hq_query_metric_names(st.store, print_name, NULL, &e) ? 2 : 0;
		goto out;
	}
	if (hq_start_setup(&st) || make_selection(&c, argc, argv, &sel))
		goto out;
	out = hq_out_new(stdout, c.has_format && c.shape == SHAPE_ROWS ? c.format
	    : HQ_FMT_AUTO);
	if (c.list)
		status = run_list(st.store, out);
	else if (strcmp(argv[0], "workouts") == 0)
		status = run_workouts(st.store, &c, argc, &sel, st.cfg, out);
	else if (strcmp(argv[0], "search") == 0)
		status = run_search(st.store, &c, argc, argv, &sel, st.cfg, out);
	else if (hq_select_config(&sel, st.cfg, &e))
		hq_warn("%s", e.msg);
	else if (strcmp(argv[0], "workout") == 0)
		status = run_workout(st.store, &c, argc, argv, &sel, st.cfg, out);
	else
		status = run_rows(st.store, &c, &sel, NULL, NULL, out);
out:
	if (out && hq_out_free(out) && status != 2) {
		hq_warn("write error");
		status = 2;
	}
	hq_select_free(&sel);
	free(c.where);
	free(c.when);
	hq_start_end(&st);
	return hq_finish(status);
}
