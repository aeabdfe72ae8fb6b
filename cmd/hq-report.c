/*
 * hq-report — the reports kept apart from samples: lab results and DEXA
 * scans (lib/analyze/report_read.c), glucose control from CGM readings
 * (lib/analyze/cgm_report.c). This file is the dispatcher: one option
 * table for the whole command (so one --tool-schema, with the subcommand
 * and its operands as the `args` array) and a table of subcommands. Every
 * question is answered, and every row written, by the library
 * (lib/analyze/report_out.c: a row description per report kind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/athlete_out.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/complete.h"
#include "hq/config.h"
#include "hq/correlate.h"
#include "hq/dexa.h"
#include "hq/err.h"
#include "hq/alert_report.h"
#include "hq/goals_report.h"
#include "hq/labs.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "hq/report_out.h"
#include "hq/report_read.h"
#include "hq/select.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/trend_out.h"
#include "hq/week.h"
#include "hq/workout.h"
#include "hq/zone.h"

enum {
	OPT_UNIT = HQ_OPT_LONG, OPT_FIELDS, OPT_LAST, OPT_DATES, OPT_FROM,
	OPT_TO, OPT_BY, OPT_AGP, OPT_FORMAT, OPT_TZ, OPT_DB, OPT_COMPLETE_TESTS,
	OPT_WEEK,
	OPT_TYPE, OPT_IDS, OPT_MAX_HR, OPT_REST_HR, OPT_LTHR, OPT_FTP,
};

static const struct hq_opt options[] = {
	{ OPT_UNIT, "unit", HQ_OPT_STRING, "UNIT", "labs: values and limits in UNIT (mmol/L, mg/dL, mmol/mol...)",
	  NULL, "Labs only: show values and reference limits in this unit, converted with the analyte's own factor (LDL mg/dL <-> mmol/L, HbA1c % <-> mmol/mol). Omit to get each result as the lab wrote it (latest) or the newest result's unit (trend).", 1 },
	{ OPT_FIELDS, "fields", HQ_OPT_STRING, "LIST", "dexa: only these fields (vat_mass,lean_mass,trunk_fat_mass...)",
	  NULL, "DEXA only: comma-separated fields, e.g. \"vat_mass\" for visceral fat, \"lean_mass,fat_mass,total_body_fat_pct\"; regional ones as region_field (trunk_fat_mass, left_arm_lean_mass). Omit for every field.", 1 },
	{ OPT_LAST, "last", HQ_OPT_INT, "N", "compare dexa: the last N scans' oldest against the newest (default 2); compare workouts: the last N (default 3)",
	  "2..1000", "compare dexa: compare the oldest of the last N scans with the newest; 2 (the default) is the last two scans. compare workouts: the last N workouts (of type) side by side, default 3.", 1 },
	{ OPT_DATES, "dates", HQ_OPT_STRING, "D1,D2", "compare dexa: the scans of two dates (2024-01-10,2024-07-12)",
	  NULL, "compare dexa: the scans of two dates, \"D1,D2\" (2024-01-10,2024-07-12; a month such as 2024-01 takes the newest scan in it). Use hq-report list dexa to see the dates.", 1 },
	HQ_OPT_FROM(OPT_FROM, "cgm, trend, goals, alerts, load, zones, bests, compare: from DATE",
	  "cgm, trend METRIC, goals, alerts, load, zones, bests and compare workouts: start of the range, a local date: 2024-12-01, 2024-12 (a month), 2024-W49, today, yesterday, 7d/4w/3m/1y (ago), this-week, last-month... Without from and to: every reading in the store (cgm, trend METRIC), the last 4 weeks (goals), the last 7 days (alerts), the 90 days ending today (load, zones), every workout (bests, compare workouts)."),
	HQ_OPT_TO(OPT_TO, "to DATE, inclusive (same subcommands and forms as --from)",
	  "cgm, trend METRIC, goals, alerts, load, zones, bests and compare workouts: end of the range, inclusive of the whole day/week/month it names: from \"2024-12\" to \"2024-12\" is all of December."),
	{ OPT_BY, "by", HQ_OPT_ENUM, "PERIOD", "cgm: a row per local day, week or month instead of one for the range",
	  "day|week|month", "cgm only: one row per local day, ISO week or month instead of one for the whole range (to compare weeks, or see a trend).", 1 },
	{ OPT_AGP, "agp", HQ_OPT_FLAG, NULL, "cgm: the daily profile, 96 rows: percentiles per 15 minutes",
	  NULL, "cgm only: the ambulatory glucose profile instead of the metrics: 96 rows (time 00:00, 00:15, ...) with p5, p25, p50, p75, p95 and n, over all days of the range. Use it for 'when in the day is my glucose high?'.", 1 },
	{ 'q', "quiet", HQ_OPT_FLAG, NULL, "alerts: print nothing, only the exit status (0: alerts, 1: none)",
	  NULL, NULL, 0 },
	HQ_OPT_FORMAT(OPT_FORMAT, "jsonl, json, csv, table, svg (trend labs, compare dexa, load, cgm's AGP) or html (cgm's AGP, week); default: table on a terminal, else jsonl",
	  "jsonl|json|csv|table|svg|html"),
	HQ_OPT_TZ(OPT_TZ, 0),
	HQ_OPT_DB(OPT_DB),
	{ OPT_WEEK, "week", HQ_OPT_STRING, "YYYY-Www", "week: the ISO week to show (2026-W47); default the last complete one",
	  NULL, "week only: the ISO week (Monday to Sunday, local days), as YEAR-Wnn: 2026-W47. Omit for the last complete week, the usual question ('how was my week?').", 1 },
	{ OPT_TYPE, "type", HQ_OPT_STRING, "TYPE,...", "load, zones, bests, compare workouts: only these workout types",
	  NULL, "load, zones, bests and compare workouts only: workout types, comma-separated (running, walking, cycling, swimming, hiking...; bests: running, walking or cycling). Omit for every type.", 1 },
	{ OPT_IDS, "ids", HQ_OPT_STRING, "A,B,...", "compare workouts: these workouts (ids from hq-query workouts)",
	  NULL, "compare workouts only: the workout ids to compare, comma-separated (two or more; the ids hq-query workouts prints). Omit to compare the last N (--last, default 3).", 1 },
	{ OPT_MAX_HR, "max-hr", HQ_OPT_NUMBER, "BPM", "load, zones, compare: maximum heart rate (default: [athlete] max_hr, else the store's highest in a workout)",
	  NULL, "load, zones, compare workouts: the athlete's maximum heart rate in bpm, over the config's [athlete] max_hr (default: the highest heart rate recorded during any workout, an estimate).", 1 },
	{ OPT_REST_HR, "rest-hr", HQ_OPT_NUMBER, "BPM", "load, zones, compare: resting heart rate (default: [athlete] rest_hr, else the median resting HR, else 60)",
	  NULL, "load, zones, compare workouts: resting heart rate in bpm, over the config's [athlete] rest_hr (default: the median of the store's resting heart rate, else 60).", 1 },
	{ OPT_LTHR, "lthr", HQ_OPT_NUMBER, "BPM", "load, zones, compare: threshold heart rate (default: rest + 0.85 (max - rest))",
	  NULL, "load, zones, compare workouts: lactate threshold heart rate in bpm, between rest and max (default: rest_hr + 0.85 x (max_hr - rest_hr)).", 1 },
	{ OPT_FTP, "ftp", HQ_OPT_NUMBER, "WATTS", "load, compare: functional threshold power, for TSS from cycling power",
	  NULL, "load and compare workouts: functional threshold power in W; with it, rides with power get TSS from normalized power (else load is from heart rate).", 1 },
	{ OPT_COMPLETE_TESTS, "complete-tests", HQ_OPT_FLAG, NULL, "print the lab tests in the store, one per line (for shell completion)", NULL, NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static void complete_operand(const struct hq_complete *c);
static void complete_weeks(const struct hq_complete *c);

/* --help's end: the training reports' settings, whose defaults are
 * estimates. */
static void
help_athlete(FILE *fp)
{
	fputs("\ntraining settings (load, zones, compare workouts): a flag, else\n"
	    "~/.config/hq/config ($XDG_CONFIG_HOME/hq/config) under [athlete]:\n"
	    "  max_hr, rest_hr, lthr (bpm), ftp (W), sex, zones (4 bpm edges)\n"
	    "else estimates: max_hr the highest heart rate in any workout, rest_hr\n"
	    "the median resting heart rate (else 60), lthr rest + 0.85 (max - rest).\n"
	    "Set max_hr and rest_hr when you know them, e.g.\n"
	    "  [athlete]\n  max_hr = 188\n  rest_hr = 48\n"
	    "The rows say each value used and its basis (config, store, default).\n",
	    fp);
}
static int complete_offers(const struct hq_complete *c, const struct hq_opt *o);

static const struct hq_cmd_info cmd = {
	.name = "hq-report",
	.synopsis = "list [labs|dexa|cgm] | latest labs [TEST...] | trend labs TEST | "
	    "latest dexa | compare dexa | cgm [OPTION]... | week | trend METRIC | "
	    "goals [GOAL...] | alerts [-q] | load | zones [ID] | bests | "
	    "compare workouts",
	.summary = "Lab results, DEXA scans and glucose control: the latest, a trend, "
	    "two scans compared, the CGM consensus metrics and the AGP; the week in "
	    "one look, goals, alerts, a metric's trend; training load, fitness and "
	    "form, heart-rate zones, bests, workouts compared.",
	.tool_description = "The user's lab results (blood work) and DEXA body-composition "
	    "scans. Use [\"latest\",\"labs\",TEST...] for 'what is my latest LDL, is it in "
	    "range?': rows test, loinc, date, value, comparator, unit, ref_low, ref_high, "
	    "flag (H high, L low, N in range, from the result's own reference range), "
	    "source; without TEST, every test's newest result. Use [\"trend\",\"labs\",TEST] "
	    "for 'how has my HbA1c changed?': every result oldest first with the change "
	    "from the previous one; method_change true marks a change of method (LDL "
	    "calculated vs direct, CRP vs hs-CRP): its change is still from the "
	    "previous result, partly the method's. TEST is a name "
	    "such as ldl, hdl, total_cholesterol, triglycerides, hba1c, glucose, "
	    "vitamin_d, tsh, crp, ferritin, creatinine, egfr, or a LOINC code. Use "
	    "[\"latest\",\"dexa\"] for the newest scan's fields and [\"compare\",\"dexa\"] "
	    "for 'compare my visceral fat between my last two DEXA scans' (fields "
	    "vat_mass, fat_mass, lean_mass, total_body_fat_pct, bmd_total...; "
	    "within_precision true means the change is within the scanner's "
	    "measurement error, not real progress). Use [\"cgm\"] for glucose control "
	    "from continuous glucose monitor readings (Dexcom, Libre, or blood glucose "
	    "from Apple Health): one row per range (or by day|week|month) with readings, "
	    "coverage_pct, mean, sd, cv, gmi (estimated HbA1c %), tir (% time in range "
	    "70-180 mg/dL), titr (70-140), tbr (<70), tbr2 (<54), tar (>180), tar2 "
	    "(>250), j_index, lbgi, hbgi, gri (glycemia risk index): for 'how is my "
	    "glucose control?', 'what was my time in range last month?', 'am I having "
	    "lows?', 'compare my glucose this week and last' (by: week); with agp true "
	    "the daily profile (percentiles per 15 minutes of the day), for 'when in the "
	    "day is my glucose high?'. Readings in mg/dL; a reading stored twice (a CGM "
	    "file and its copy in Apple Health) counts once. Use [\"list\"] to see which "
	    "reports exist and their dates (for cgm, each sensor session's first day and "
	    "days of readings). Use [\"week\"] for 'how was my week?': one row per "
	    "measure for the last complete ISO week (or week: \"2026-W47\"): "
	    "measure, week, value, previous (the week before), change, unit, days; "
	    "measures steps (avg/day), sleep (h, avg/night), resting_heart_rate, hrv "
	    "(avg of daily means), active_energy (avg/day), exercise_time (min, "
	    "total), workouts, workout_minutes, load (sum), ctl (fitness), weight "
	    "(last), glucose_tir, glucose_mean, labs_flagged; a measure without data "
	    "is left out. Use [\"trend\",METRIC] (a metric such as "
	    "resting_heart_rate, hrv, weight, steps, sleep; not a lab test) for 'is "
	    "my resting heart rate going up?': over its daily values (from/to to "
	    "narrow them), one row metric, from, to, n (days), slope_per_week "
	    "(Theil-Sen), ci_low, ci_high (its 95% interval), tau, p (Kendall); a "
	    "trend is clear when p < 0.05 and the interval excludes 0; daily values "
	    "carry over from day to day, so p is optimistic: say so. "
	    "Use [\"goals\"] for 'am I keeping my step goal?': rows goal, period, "
	    "op, target, actual, pct, met (null: the period is still going on, or "
	    "a measurement such as weight was not taken), streak "
	    "(periods met in a row) for the goals in the user's config (steps, sleep, "
	    "exercise_time, weight...) and Apple's rings (move, exercise, stand); "
	    "[\"goals\",\"steps\"] for one goal; default range the last 4 weeks. "
	    "Use [\"alerts\"] for 'is anything off?': rows date, measure, kind "
	    "(baseline: resting heart rate, HRV or sleep at least 2 SD from its "
	    "28-day baseline; lab: a result flagged high or low; cgm: glucose "
	    "missing a consensus target; stale: no resting HR, HRV, sleep or "
	    "glucose, or no new export, for over 2 days: the import may have "
	    "stopped), value, baseline_mean, baseline_sd, z, "
	    "unit, message; default the last 7 days; exit 1 with nothing off. "
	    "Training, from workouts and the heart rate and power "
	    "recorded during them: use [\"load\"] for 'am I getting fitter?', "
	    "'what was my training load this month?': a row per day with load "
	    "(TSS from power with ftp, else hrss: an hour at threshold = 100), ctl "
	    "(fitness, 42-day), atl (fatigue, 7-day), tsb (form = yesterday's "
	    "ctl - atl; negative: tired), ramp (ctl change over 7 days; rising "
	    "ctl = getting fitter), and the max_hr, rest_hr, lthr used with their "
	    "basis (default = an estimate); from/to pick the days (default the "
	    "last 90; compare ctl at the start and the end). Use "
	    "[\"compare\",\"workouts\"] for 'how did my last 3 rides compare?' "
	    "(type cycling; last N, or ids): rows field, unit, workout_id, date, "
	    "value, change from the previous workout for duration_min, "
	    "distance_km, speed_kmh, pace_min_per_km, avg_hr, max_hr, energy_kcal, "
	    "load, elevation_gain_m, efficiency (metres per heartbeat: higher at the "
	    "same effort = fitter). Use [\"zones\"] for 'how long was I in zone 2 "
	    "this week?' (minutes and pct per heart-rate zone 0-5; or "
	    "[\"zones\",ID] for one workout) and [\"bests\"] for 'what is my fastest "
	    "5 km this year?' (type running|walking|cycling: fastest times over "
	    "400 m to marathon, 5-100 km rides, best power 5 s to 60 min). "
	    "Exit 1: nothing found (the message says what).",
	.positional = "args",
	.positional_help = "The subcommand and its operands, in command-line order: "
	    "[\"list\"], [\"list\",\"labs\"], [\"list\",\"dexa\"], [\"latest\",\"labs\"], "
	    "[\"latest\",\"labs\",\"ldl\",\"hba1c\"], [\"trend\",\"labs\",\"hba1c\"], "
	    "[\"latest\",\"dexa\"], [\"compare\",\"dexa\"], [\"cgm\"], [\"list\",\"cgm\"], "
	    "[\"week\"], [\"trend\",\"resting_heart_rate\"], [\"goals\"], "
	    "[\"goals\",\"steps\"], [\"alerts\"], [\"load\"], [\"zones\"], "
	    "[\"zones\",\"123\"], [\"bests\"], [\"compare\",\"workouts\"].",
	.positional_required = 1,
	.opts = options,
	.values = (const struct hq_opt_values[]){
		{ "unit", hq_labs_unit_at },
		{ "fields", hq_dexa_name_at },
		{ "type", hq_workout_type_at },
		{ NULL, NULL },
	},
	.split = "fields",
	.completers = (const struct hq_opt_completer[]){
		{ "week", complete_weeks },
		{ NULL, NULL },
	},
	.complete_operand = complete_operand,
	.complete_offers = complete_offers,
	.help_more = help_athlete,
};

/* What the options asked for, and the run's shared state. */
struct cli {
	const char *unit, *dates, *tz, *db, *from, *to;
	const char *week;
	const char *format_name;     /* as given (cgm draws svg and html itself) */
	char *fields;
	long last;
	int by, agp;                 /* by: index in "day|week|month", -1 none */
	int has_format, svg, html, has_last, complete, quiet;
	const char *type, *ids;      /* load, zones, bests, compare workouts */
	const char *ath[HQ_ATH_NKEYS];   /* --max-hr, --rest-hr, --lthr, --ftp */
	enum hq_format format;
	struct hq_store *store;
	struct hq_out *out;
};

/* ---- the reports: each runs its engine into c->out (report_out.h) ------- */

static int
run_list(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	const char *kind = argc > 0 ? argv[0] : NULL;

	if (kind && strcmp(kind, "labs") && strcmp(kind, "dexa") &&
	    strcmp(kind, "cgm")) {
		hq_opts_usage_error(&cmd, "list what? '%s' (labs, dexa or cgm)", kind);
		return 2;
	}
	return hq_report_list_out(c->store, kind, c->out, e);
}

static int
run_latest_labs(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	return hq_report_latest_labs_out(c->store, (const char *const *)argv,
	    (size_t)argc, c->unit, c->out, e);
}

static int
run_trend_labs(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	(void)argc;
	return hq_report_trend_labs_out(c->store, argv[0], c->unit,
	    c->svg ? stdout : NULL, c->out, e);
}

static int
run_latest_dexa(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	(void)argc, (void)argv;
	return hq_report_latest_dexa_out(c->store, c->fields, c->out, e);
}

static int
run_compare_dexa(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	char *d1 = NULL, *d2 = NULL, *copy = NULL;
	int rc;

	(void)argc, (void)argv;
	if (c->dates) {
		copy = hq_xstrdup(c->dates);
		d1 = copy;
		d2 = strchr(copy, ',');
		if (!d2 || strchr(d2 + 1, ',') || d2 == d1 || !d2[1]) {
			hq_opts_usage_error(&cmd, "--dates takes two dates: D1,D2");
			free(copy);
			return 2;
		}
		*d2++ = '\0';
	}
	rc = hq_report_compare_dexa_out(c->store, d1, d2, (int)c->last,
	    c->fields, c->svg ? stdout : NULL, c->out, e);
	free(copy);
	return rc;
}

static int
run_cgm(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	static const enum hq_period by[] = { HQ_DAY, HQ_WEEK, HQ_MONTH };
	struct hq_cgm_report_opts o = { .by = HQ_PERIOD_NONE, .agp = c->agp };

	(void)argc, (void)argv;
	if (c->agp && c->by >= 0) {
		hq_opts_usage_error(&cmd, "--agp is one profile over the range: "
		    "drop --by, or narrow the range with --from/--to");
		return 2;
	}
	if (c->by >= 0)
		o.by = by[c->by];
	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &o.from,
	    &o.to, e)) {
		hq_warn("%s", e->msg);
		return 2;
	}
	/* The report writes its own rows (or its drawing). */
	hq_out_free(c->out);
	c->out = NULL;
	return hq_cgm_report_print(c->store, &o, c->format_name, stdout, e);
}

/* ---- goals and alerts (goals_report.h, alert_report.h) ------------------ */

/* --from and --to as local days [*from, *to]; without --to, today;
 * without --from, back days before --to, to the Monday of its week when
 * monday. 0, or -1 with e. */
static int
range_days(const struct cli *c, int back, int monday, int64_t *from,
    int64_t *to, struct hq_err *e)
{
	int64_t start, end;

	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &start,
	    &end, e))
		return -1;
	hq_time_day_range(start, end, hq_time_now(), back, from, to);
	if (start == INT64_MIN && monday)
		*from -= hq_time_weekday(*from);
	return 0;
}

/* The [query] settings (source priority, sleep cutoff) as hq-query takes
 * them, and the configuration (for the athlete's); -1 with e set. */
static int
load_config(struct hq_select *settings, struct hq_config **cfg,
    struct hq_err *e)
{
	hq_select_init(settings);
	if (!(*cfg = hq_config_load(NULL, e)) || hq_select_config(settings, *cfg, e)) {
		hq_config_free(*cfg);
		*cfg = NULL;
		hq_select_free(settings);
		return -1;
	}
	return 0;
}

/* The goals named (a goal's name or a ring), or all. */
static int
run_goals(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	struct hq_goal *goals = NULL, *kept;
	struct hq_buf notes = { 0 };
	struct hq_select sel;
	struct hq_config *cfg;
	size_t n = 0, k = 0;
	int64_t from, to;
	int rc, rings = argc == 0;

	if (range_days(c, 21, 1, &from, &to, e) || load_config(&sel, &cfg, e))
		return -1;
	rc = hq_goals_from_config(cfg, &goals, &n, e) ? -1 : 0;
	hq_config_free(cfg);
	if (rc)
		goto done;
	kept = goals;
	for (int i = 0; i < argc; i++) {
		int found = 0;
		for (size_t j = 0; j < n; j++)
			found |= strcmp(argv[i], goals[j].name) == 0;
		for (size_t j = 0; hq_goal_ring_at(j); j++)
			if (strcmp(argv[i], hq_goal_ring_at(j)) == 0)
				found = rings = 1;
		if (!found) {
			hq_opts_usage_error(&cmd, "no goal '%s' (the config's [goals] "
			    "and the rings move, exercise, stand)", argv[i]);
			rc = 2;
			goto done;
		}
	}
	if (argc > 0)       /* the goals named, in the config's order */
		for (size_t j = 0; j < n; j++) {
			int named = 0;
			for (int i = 0; i < argc; i++)
				named |= strcmp(argv[i], goals[j].name) == 0;
			if (named)
				kept[k++] = goals[j];
		}
	else
		k = n;
	rc = hq_goals_report_out(c->store, &sel, kept, k, from, to,
	    hq_time_now(), rings, argc > 0 ? (const char *const *)argv : NULL,
	    (size_t)argc, &notes, c->out, e);
	hq_warn_lines(notes.data);
	hq_buf_free(&notes);
done:
	free(goals);
	hq_select_free(&sel);
	return rc;
}

static int
run_alerts(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	struct hq_select sel;
	struct hq_config *cfg;
	int64_t from, to;
	char a[16], b[16];
	long n;

	(void)argc, (void)argv;
	if (range_days(c, 6, 0, &from, &to, e) || load_config(&sel, &cfg, e))
		return -1;
	hq_config_free(cfg);
	n = hq_alerts_report_out(c->store, &sel, from, to, hq_time_now(),
	    c->quiet ? NULL : c->out, e);
	hq_select_free(&sel);
	if (n < 0)
		return -1;
	if (n == 0) {
		hq_time_format_day(from, a, sizeof a);
		hq_time_format_day(to, b, sizeof b);
		hq_err_set(e, "nothing off from %s to %s", a, b);
		return 1;
	}
	return 0;
}

/* The metric's daily values as hq-query --by day gives them, with the
 * [query] settings of the config (source priority, sleep cutoff). */
static int
run_trend_metric(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	struct hq_select settings;
	struct hq_config *cfg;
	struct hq_corr_store cs = { c->store, &settings };
	int64_t from, to;
	int rc;

	(void)argc;
	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &from,
	    &to, e)) {
		hq_warn("%s", e->msg);
		return 2;
	}
	if (load_config(&settings, &cfg, e))
		return -1;
	hq_config_free(cfg);
	rc = hq_trend_metric_out(&cs, argv[0],
	    from == INT64_MIN ? INT64_MIN : hq_time_local_day(from),
	    to == INT64_MAX ? INT64_MAX : hq_time_local_day(to - 1), c->out, e);
	hq_select_free(&settings);
	return rc;
}

static int
run_week(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	struct hq_select settings;
	struct hq_config *cfg;
	struct hq_corr_store cs = { c->store, &settings };
	struct hq_week *w;
	int64_t monday;
	int rc = 0;

	(void)argc, (void)argv;
	if (hq_week_parse(c->week, hq_time_now(), &monday, e)) {
		hq_opts_usage_error(&cmd, "%s", e->msg);
		return 2;
	}
	if (load_config(&settings, &cfg, e))
		return -1;
	w = hq_xcalloc(1, sizeof *w);
	if ((rc = hq_week_run(&cs, cfg, monday, hq_time_now(), w, e)) == 0 &&
	    w->note[0])
		hq_warn("%s", w->note);
	if (rc == 0 && c->html &&
	    (rc = hq_week_goals_alerts(&cs, cfg, hq_time_now(), w, e)) == 0 &&
	    w->goals_note[0])
		hq_warn("%s", w->goals_note);
	if (rc == 0 && c->html) {
		if (hq_week_html(stdout, w)) {
			hq_err_set(e, "write error");
			rc = -1;
		}
	} else if (rc == 0 && hq_week_out(w, c->out) == 0) {
		hq_err_set(e, "no data in %s (%s): import some, or ask for another "
		    "--week", w->label, "Monday to Sunday, local days");
		rc = 1;
	}
	hq_week_done(w);
	free(w);
	hq_config_free(cfg);
	hq_select_free(&settings);
	return rc;
}

/* ---- training: load, zones, bests, compare workouts (athlete_out.h) ---- */

/* The options as an hq_athlete_ask: types (only: the ones allowed), the
 * workouts of --ids, the range, the settings (config, flags, store). 0, 1
 * with e (a workout of --ids is not in the store), or -1 with e. */
static int
athlete_ask(const struct cli *c, struct hq_athlete_ask *ask, const char *only,
    struct hq_err *e)
{
	int rc;

	memset(ask, 0, sizeof *ask);
	ask->last = c->has_last ? c->last : 3;
	if (hq_athlete_parse_types(ask, c->type, only, e))
		return -1;
	if (c->ids && (rc = hq_athlete_parse_ids(ask, c->store, c->ids, e)))
		return rc;
	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &ask->from,
	    &ask->to, e))
		return -1;
	return hq_athlete_setup(&ask->ath, c->store, c->ath, NULL, e);
}

static int
run_load(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	struct hq_athlete_ask ask;

	(void)argc, (void)argv;
	if (athlete_ask(c, &ask, NULL, e))
		return -1;
	return hq_athlete_load_out(c->store, &ask, hq_time_now(),
	    c->svg ? stdout : NULL, c->out, e);
}

static int
run_zones(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	struct hq_athlete_ask ask;
	struct hq_workout_ref w;
	int rc;

	if (athlete_ask(c, &ask, NULL, e))
		return -1;
	if (argc) {
		if (c->from || c->to || c->type) {
			hq_opts_usage_error(&cmd, "zones ID is one workout: drop "
			    "--from, --to and --type");
			return 2;
		}
		if ((rc = hq_workout_find(c->store, argv[0], &w, e)) <= 0)
			return rc < 0 ? -1 : 1;
		ask.id = w.id;
	}
	return hq_athlete_zones_out(c->store, &ask, hq_time_now(), c->out, e);
}

static int
run_bests(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	struct hq_athlete_ask ask;

	(void)argc, (void)argv;
	if (athlete_ask(c, &ask, "running|walking|cycling", e))
		return -1;
	return hq_athlete_bests_out(c->store, &ask, c->out, e);
}

static int
run_compare_workouts(struct cli *c, int argc, char **argv, struct hq_err *e)
{
	struct hq_athlete_ask ask;
	int rc;

	(void)argc, (void)argv;
	if (c->ids && c->has_last) {
		hq_opts_usage_error(&cmd, "--ids and --last: choose one");
		return 2;
	}
	if ((rc = athlete_ask(c, &ask, NULL, e)))
		return rc;
	return hq_athlete_compare_out(c->store, &ask, c->out, e);
}

/* ---- dispatch ------------------------------------------------------------- */

/*
 * The subcommands: verb, kind (NULL: none), operands after them (min,
 * max; -1 no limit), what it accepts, how to run it. A run function
 * returns 0, 1 (nothing to show; e says why), 2 (a usage error it
 * printed) or -1 (e set).
 */
enum { O_UNIT = 1, O_FIELDS = 2, O_COMPARE = 4, O_SVG = 8, O_HTML = 16,
	O_CGM = 32, O_RANGE = 64, O_QUIET = 128, O_WEEK = 256, O_TYPE = 512,
	O_ATH = 1024, O_LASTN = 2048, O_IDS = 4096 };

static const struct sub {
	const char *verb, *kind, *usage;
	int min, max, accepts;
	int (*run)(struct cli *, int, char **, struct hq_err *);
} subs[] = {
	{ "list", NULL, "list [labs|dexa|cgm]", 0, 1, 0, run_list },
	{ "latest", "labs", "latest labs [TEST...]", 0, -1, O_UNIT, run_latest_labs },
	{ "trend", "labs", "trend labs TEST", 1, 1, O_UNIT | O_SVG, run_trend_labs },
	{ "trend", NULL, "trend METRIC", 1, 1, O_RANGE, run_trend_metric },
	{ "latest", "dexa", "latest dexa", 0, 0, O_FIELDS, run_latest_dexa },
	{ "compare", "dexa", "compare dexa", 0, 0, O_FIELDS | O_COMPARE | O_SVG,
	  run_compare_dexa },
	{ "cgm", NULL, "cgm", 0, 0, O_CGM | O_SVG | O_HTML, run_cgm },
	{ "goals", NULL, "goals [GOAL...]", 0, -1, O_RANGE, run_goals },
	{ "alerts", NULL, "alerts", 0, 0, O_RANGE | O_QUIET, run_alerts },
	{ "week", NULL, "week", 0, 0, O_WEEK | O_HTML, run_week },
	{ "load", NULL, "load", 0, 0, O_RANGE | O_TYPE | O_ATH | O_SVG, run_load },
	{ "zones", NULL, "zones [ID]", 0, 1, O_RANGE | O_TYPE | O_ATH, run_zones },
	{ "bests", NULL, "bests", 0, 0, O_RANGE | O_TYPE, run_bests },
	{ "compare", "workouts", "compare workouts", 0, 0,
	  O_RANGE | O_TYPE | O_ATH | O_LASTN | O_IDS, run_compare_workouts },
};

#define NSUBS (sizeof subs / sizeof subs[0])

/* goals' operands: the config's goals, then the rings. */
static void
complete_goals(const struct hq_complete *c)
{
	struct hq_config *cfg;
	struct hq_goal *goals = NULL;
	struct hq_err e;
	size_t n = 0;

	if ((cfg = hq_config_load(NULL, &e)) &&
	    hq_goals_from_config(cfg, &goals, &n, &e) == 0)
		for (size_t i = 0; i < n; i++)
			hq_complete_add(c, goals[i].name, NULL);
	free(goals);
	hq_config_free(cfg);
	for (size_t i = 0; hq_goal_ring_at(i); i++)
		hq_complete_add(c, hq_goal_ring_at(i), "Apple's activity ring");
}

/* The verbs, then the kinds a verb takes, then latest's and trend's lab
 * tests from the store. */
static void
complete_operand(const struct hq_complete *c)
{
	const char *verb = c->noperands ? c->operands[0] : NULL;

	for (size_t i = 0; i < NSUBS; i++) {
		int seen = 0;
		if (!verb) {
			for (size_t k = 0; k < i; k++)
				seen |= strcmp(subs[k].verb, subs[i].verb) == 0;
			if (!seen)
				hq_complete_add(c, subs[i].verb, subs[i].kind ? NULL
				    : subs[i].usage);
		} else if (c->noperands == 1 && strcmp(verb, subs[i].verb) == 0 &&
		    subs[i].kind)
			hq_complete_add(c, subs[i].kind, subs[i].usage);
	}
	if (verb && c->noperands == 1 && strcmp(verb, "list") == 0) {
		hq_complete_add(c, "labs", NULL);
		hq_complete_add(c, "dexa", NULL);
		hq_complete_add(c, "cgm", NULL);
	}
	if (verb && strcmp(verb, "goals") == 0)
		complete_goals(c);
	if (verb && c->noperands == 1 && strcmp(verb, "trend") == 0)
		hq_complete_metrics(c);     /* trend METRIC */
	if (verb && c->noperands == 1 && strcmp(verb, "zones") == 0)
		hq_complete_workouts(c);
	if (c->noperands >= 2 && strcmp(c->operands[1], "labs") == 0 &&
	    (strcmp(verb, "latest") == 0 || (strcmp(verb, "trend") == 0 &&
	    c->noperands == 2)))
		hq_complete_lab_tests(c);
}

/* --week: the last few ISO weeks, newest first, the last complete one
 * named so. */
static void
complete_weeks(const struct hq_complete *c)
{
	struct hq_err e;
	int64_t monday;
	char label[16];

	if (hq_week_parse(NULL, hq_time_now(), &monday, &e))
		return;
	for (int i = -1; i < 8; i++) {
		hq_time_bucket_label(hq_time_day_start(monday - 7 * i), HQ_WEEK, label,
		    sizeof label);
		hq_complete_add(c, label, i == -1 ? "this week (still going on)" :
		    i == 0 ? "last week (the default)" : NULL);
	}
}

static const struct sub *find_sub(int argc, char **argv, int *used);

/* The options a subcommand takes, once it is typed: hq-report cgm --<TAB>
 * offers cgm's, not labs' --unit nor dexa's --fields. */
static int
complete_offers(const struct hq_complete *c, const struct hq_opt *o)
{
	static const struct { int id, needs; } only[] = {
		{ OPT_UNIT, O_UNIT }, { OPT_FIELDS, O_FIELDS },
		{ OPT_LAST, O_COMPARE | O_LASTN },
		{ OPT_DATES, O_COMPARE }, { OPT_FROM, O_CGM | O_RANGE },
		{ OPT_TO, O_CGM | O_RANGE }, { 'q', O_QUIET }, { OPT_WEEK, O_WEEK },
		{ OPT_TYPE, O_TYPE }, { OPT_IDS, O_IDS }, { OPT_MAX_HR, O_ATH },
		{ OPT_REST_HR, O_ATH }, { OPT_LTHR, O_ATH }, { OPT_FTP, O_ATH },
		{ OPT_BY, O_CGM }, { OPT_AGP, O_CGM },
	};
	int used = 0;
	const struct sub *s = c->noperands ? find_sub(c->noperands, c->operands, &used) : NULL;

	if (!s)
		return 1;
	for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
		if (only[i].id == o->id)
			return (s->accepts & only[i].needs) != 0;
	return 1;
}

static const struct sub *
find_sub(int argc, char **argv, int *used)
{
	for (size_t i = 0; i < NSUBS; i++) {
		if (strcmp(argv[0], subs[i].verb) != 0)
			continue;
		if (!subs[i].kind) {
			*used = 1;
			return &subs[i];
		}
		if (argc > 1 && strcmp(argv[1], subs[i].kind) == 0) {
			*used = 2;
			return &subs[i];
		}
	}
	return NULL;
}

/* what, then the subcommands: "unknown subcommand 'x' (the subcommands
 * are: list, latest, trend, compare, cgm)"; with a verb, the forms of its
 * reports ("the reports are: compare dexa, compare workouts"). */
static void
usage_subs(const char *what, const char *verb)
{
	struct hq_buf b = { 0 };

	for (size_t i = 0; i < NSUBS; i++) {
		int seen = verb && strcmp(verb, subs[i].verb) != 0;
		for (size_t k = 0; k < i && !verb; k++)
			seen |= strcmp(subs[k].verb, subs[i].verb) == 0;
		if (seen)
			continue;
		hq_buf_puts(&b, b.len ? ", " : "");
		hq_buf_puts(&b, verb ? subs[i].usage : subs[i].verb);
	}
	hq_opts_usage_error(&cmd, "%s (the %s are: %s)", what,
	    verb ? "reports" : "subcommands", b.data);
	hq_buf_free(&b);
}

/* argv names no report: the closest one, as an unknown metric or command
 * gets it ("unknown subcommand 'wek' (did you mean week?)", "no such
 * report 'compare workout' (did you mean compare workouts?)"), else the
 * subcommands, or the reports of a verb known. */
static void
no_such_sub(int argc, char **argv)
{
	const char *names[NSUBS], *pick = NULL;
	char what[300];
	size_t n = 0;
	int verb = 0;

	for (size_t i = 0; i < NSUBS; i++)
		verb |= strcmp(argv[0], subs[i].verb) == 0;
	for (size_t i = 0; i < NSUBS; i++) {
		const char *w = verb ? subs[i].kind : subs[i].verb;
		int seen = !w || (verb && strcmp(argv[0], subs[i].verb) != 0);
		for (size_t k = 0; k < n && !seen; k++)
			seen = strcmp(names[k], w) == 0;
		if (!seen)
			names[n++] = w;
	}
	if (!verb || argc > 1)
		pick = hq_catalog_suggest(argv[verb], names, n);
	if (pick && verb)
		hq_opts_usage_error(&cmd, "no such report '%.100s %.100s' (did you "
		    "mean %s %s?)", argv[0], argv[1], argv[0], pick);
	else if (pick)
		hq_opts_usage_error(&cmd, "unknown subcommand '%.100s' (did you "
		    "mean %s?)", argv[0], pick);
	else {
		snprintf(what, sizeof what, verb ? "no such report '%.100s%s%.100s'"
		    : "unknown subcommand '%.100s'", argv[0],
		    verb && argc > 1 ? " " : "", verb && argc > 1 ? argv[1] : "");
		usage_subs(what, verb ? argv[0] : NULL);
	}
}

/* The options a subcommand does not take are a usage error. */
static int
check_accepts(const struct cli *c, const struct sub *s)
{
	const char *wrong = NULL;

	if (c->unit && !(s->accepts & O_UNIT))
		wrong = "--unit";
	else if (c->fields && !(s->accepts & O_FIELDS))
		wrong = "--fields";
	else if ((c->has_last || c->dates) && !(s->accepts & (c->dates ?
	    O_COMPARE : O_COMPARE | O_LASTN)))
		wrong = c->dates ? "--dates" : "--last";
	else if (c->svg && !(s->accepts & O_SVG))
		wrong = "--format svg";
	else if (c->html && !(s->accepts & O_HTML))
		wrong = "--format html";
	else if ((c->from || c->to) && !(s->accepts & (O_CGM | O_RANGE)))
		wrong = c->from ? "--from" : "--to";
	else if ((c->by >= 0 || c->agp) && !(s->accepts & O_CGM))
		wrong = c->agp ? "--agp" : "--by";
	else if (c->quiet && !(s->accepts & O_QUIET))
		wrong = "-q";
	else if (c->week && !(s->accepts & O_WEEK))
		wrong = "--week";
	else if (c->has_last && c->dates)
		wrong = "--last with --dates";
	else if (c->type && !(s->accepts & O_TYPE))
		wrong = "--type";
	else if (c->ids && !(s->accepts & O_IDS))
		wrong = "--ids";
	else if (!(s->accepts & O_ATH) && (c->ath[HQ_ATH_MAX_HR] ||
	    c->ath[HQ_ATH_REST_HR] || c->ath[HQ_ATH_LTHR] || c->ath[HQ_ATH_FTP]))
		wrong = c->ath[HQ_ATH_MAX_HR] ? "--max-hr" : c->ath[HQ_ATH_REST_HR] ?
		    "--rest-hr" : c->ath[HQ_ATH_LTHR] ? "--lthr" : "--ftp";
	if (wrong) {
		hq_opts_usage_error(&cmd, "%s does not go with '%s'", wrong, s->usage);
		return -1;
	}
	return 0;
}

static int
print_test(void *arg, const char *name)
{
	(void)arg;
	return puts(name) < 0 ? -1 : 0;
}

static int
parse_cli(int argc, char **argv, struct cli *c, int *status)
{
	struct hq_opts p;
	int id;

	hq_opts_init(&p, &cmd, argc, argv);
	while ((id = hq_opts_parse(&p)) > 0)
		switch (id) {
		case OPT_UNIT: c->unit = p.arg; break;
		case OPT_FIELDS: c->fields = p.arg; break;
		case OPT_LAST: c->last = p.num; c->has_last = 1; break;
		case OPT_DATES: c->dates = p.arg; break;
		case OPT_FROM: c->from = p.arg; break;
		case OPT_TO: c->to = p.arg; break;
		case OPT_BY: c->by = p.choice; break;
		case OPT_AGP: c->agp = 1; break;
		case OPT_FORMAT:
			c->has_format = 1;
			c->format_name = p.arg;
			c->svg = strcmp(p.arg, "svg") == 0;
			c->html = strcmp(p.arg, "html") == 0;
			if (!c->svg && !c->html)
				hq_output_parse_format(p.arg, &c->format);
			break;
		case OPT_TZ: c->tz = p.arg; break;
		case OPT_DB: c->db = p.arg; break;
		case OPT_COMPLETE_TESTS: c->complete = 1; break;
		case 'q': c->quiet = 1; break;
		case OPT_WEEK: c->week = p.arg; break;
		case OPT_TYPE: c->type = p.arg; break;
		case OPT_IDS: c->ids = p.arg; break;
		case OPT_MAX_HR: c->ath[HQ_ATH_MAX_HR] = p.arg; break;
		case OPT_REST_HR: c->ath[HQ_ATH_REST_HR] = p.arg; break;
		case OPT_LTHR: c->ath[HQ_ATH_LTHR] = p.arg; break;
		case OPT_FTP: c->ath[HQ_ATH_FTP] = p.arg; break;
		}
	if (id < 0) {
		*status = p.status;
		return -1;
	}
	return p.optind;
}

/* The zone of local dates, chosen as hq-query chooses it (zone.h), and
 * said on a terminal when the data chose it; the configuration's
 * warnings. 0, or -1 after a message. */
static int
choose_zone(const struct cli *c)
{
	struct hq_config *cfg;
	struct hq_err e;
	int rc;

	if (!(cfg = hq_config_load(NULL, &e))) {
		hq_warn("%s", e.msg);
		return -1;
	}
	rc = hq_zone_setup(c->tz, cfg, c->store);
	hq_config_free(cfg);
	return rc;
}

int
main(int argc, char **argv)
{
	struct cli c = { .last = 2, .by = -1 };
	const struct sub *sub = NULL;
	struct hq_err e;
	int status = 2, first, used = 0, n, rc;

	hq_err_init(argv[0]);
	if ((first = parse_cli(argc, argv, &c, &status)) < 0)
		goto out;
	status = 2;
	argc -= first;
	argv += first;
	if (!c.complete) {
		if (argc == 0) {
			usage_subs("no subcommand", NULL);
			goto out;
		}
		if (!(sub = find_sub(argc, argv, &used))) {
			no_such_sub(argc, argv);
			goto out;
		}
		n = argc - used;
		if (n < sub->min || (sub->max >= 0 && n > sub->max)) {
			hq_opts_usage_error(&cmd, "usage: hq-report %s", sub->usage);
			goto out;
		}
		if (check_accepts(&c, sub))
			goto out;
	}
	if (hq_time_set_zone(c.tz, &e)) {
		hq_warn("%s", e.msg);
		goto out;
	}
	if (!(c.store = hq_store_open(c.db, HQ_STORE_READONLY, &e))) {
		if (!c.complete)
			hq_warn("%s", e.msg);
		status = c.complete ? 0 : 2;
		goto out;
	}
	if (c.complete) {
		status = hq_report_lab_tests(c.store, print_test, NULL, &e) ? 2 : 0;
		goto out;
	}
	if (choose_zone(&c))
		goto out;
	c.out = hq_out_new(stdout, c.has_format && !c.svg && !c.html ? c.format :
	    HQ_FMT_AUTO);
	rc = sub->run(&c, argc - used, argv + used, &e);
	if (rc == 2) {
		status = 2;
	} else if (rc == 1) {
		if (!c.quiet)
			hq_warn("%s", e.msg);
		status = 1;
	} else if (rc < 0) {
		hq_warn("%s", e.msg);
		status = 2;
	} else {
		status = 0;
	}
out:
	if (c.out && hq_out_free(c.out) && status != 2) {
		hq_warn("write error");
		status = 2;
	}
	hq_store_close(c.store);
	return hq_finish(status);
}
