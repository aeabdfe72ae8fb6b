/*
 * hq-report — the reports kept apart from samples (labs, DEXA scans,
 * glucose control) and the reports over them (the week, goals, alerts, a
 * metric's trend, training load, zones, bests). This file is the
 * dispatcher: one option table for the whole command (so one
 * --tool-schema, with the subcommand and its operands as the `args`
 * array), beside it which options go with which subcommand (opt_subs: the
 * option loop refuses the others and the completion offers only these),
 * and the table of subcommands. What each one does is below cmd/
 * (lib/cli/report_run.c), and every row is written by the library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/complete.h"
#include "hq/config.h"
#include "hq/dexa.h"
#include "hq/err.h"
#include "hq/goals.h"
#include "hq/goals_report.h"
#include "hq/labs.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "hq/report_read.h"
#include "hq/report_run.h"
#include "hq/start.h"
#include "hq/time.h"
#include "hq/week.h"
#include "hq/workout.h"

enum {
	OPT_UNIT = HQ_OPT_LONG, OPT_FIELDS, OPT_LAST, OPT_DATES, OPT_FROM,
	OPT_TO, OPT_BY, OPT_AGP, OPT_FORMAT, OPT_TZ, OPT_DB, OPT_OFFLINE, OPT_COMPLETE_TESTS,
	OPT_WEEK,
	OPT_TYPE, OPT_IDS, OPT_MAX_HR, OPT_REST_HR, OPT_LTHR, OPT_FTP,
	OPT_ENTRIES,
	OPT_AHEAD, OPT_TARGET,
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
	HQ_OPT_FROM(OPT_FROM, "cgm, trend, forecast, plan, goals, alerts, load, zones, bests, compare: from DATE",
	  "cgm, trend METRIC, forecast, plan, goals, alerts, load, zones, bests and compare workouts: start of the range, a local date: 2024-12-01, 2024-12 (a month), 2024-W49, today, yesterday, 7d/4w/3m/1y (ago), this-week, last-month... Without from and to: every reading in the store (cgm, trend METRIC), the last 4 weeks (goals), the last 7 days (alerts), the 90 days ending today (load, zones), every workout (bests, compare workouts)."),
	HQ_OPT_TO(OPT_TO, "to DATE, inclusive (same subcommands and forms as --from)",
	  "cgm, trend METRIC, forecast, plan, goals, alerts, load, zones, bests and compare workouts: end of the range, inclusive of the whole day/week/month it names: from \"2024-12\" to \"2024-12\" is all of December."),
	{ OPT_BY, "by", HQ_OPT_ENUM, "PERIOD", "cgm: a row per local day, week or month instead of one for the range",
	  "day|week|month", "cgm only: one row per local day, ISO week or month instead of one for the whole range (to compare weeks, or see a trend).", 1 },
	{ OPT_AGP, "agp", HQ_OPT_FLAG, NULL, "cgm: the daily profile, 96 rows: percentiles per 15 minutes",
	  NULL, "cgm only: the ambulatory glucose profile instead of the metrics: 96 rows (time 00:00, 00:15, ...) with p5, p25, p50, p75, p95 and n, over all days of the range. Use it for 'when in the day is my glucose high?'.", 1 },
	{ 'q', "quiet", HQ_OPT_FLAG, NULL, "alerts: print nothing, only the exit status (0: alerts, 1: none)",
	  NULL, NULL, 0 },
	HQ_OPT_FORMAT(OPT_FORMAT, "jsonl, json, csv, table, svg (trend labs, compare dexa, load, forecast, cgm's AGP) or html (cgm's AGP, week); default: table on a terminal, else jsonl",
	  "jsonl|json|csv|table|svg|html"),
	HQ_OPT_TZ(OPT_TZ, 0),
	HQ_OPT_DB(OPT_DB),
	HQ_OPT_OFFLINE(OPT_OFFLINE),
	{ OPT_WEEK, "week", HQ_OPT_STRING, "YYYY-Www", "week: the ISO week to show (2026-W47), default the last complete one; plan: default this week",
	  NULL, "week and plan: the ISO week (Monday to Sunday, local days), as YEAR-Wnn: 2026-W47. Omit for the last complete week (week: the usual question, 'how was my week?') or this week (plan).", 1 },
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
	{ OPT_ENTRIES, "entries", HQ_OPT_FLAG, NULL, "nutrition: each food logged (name, nutrients, app) instead of days",
	  NULL, "nutrition only: one row per food logged (Apple Health's Food entries): time, food (its name), meal, the nutrients, the app that logged it and counted (yes, no, part: whether the days count it), instead of one row per day. A meal logged by two apps is two entries here, one counted yes: the days count it once.", 1 },
	{ OPT_AHEAD, "ahead", HQ_OPT_STRING, "SPAN", "forecast: how far past the last day of data (30d, 8w, 3m, 1y; default 8w, at most 2y)",
	  NULL, "forecast only: how far ahead of the last day of data, as 30d, 8w (the default), 3m or 1y; a row per week, at most two years.", 1 },
	{ OPT_TARGET, "target", HQ_OPT_STRING, "VALUE", "forecast: the day the line and its band reach VALUE (72, \"72 kg\")",
	  NULL, "forecast only: a value in the metric's unit (72 or \"72 kg\" for weight); the rows then also say reach (the day the line gets there), reach_earliest and reach_latest (the band's edges), null when the line points away or the slope's interval holds 0.", 1 },
	{ OPT_COMPLETE_TESTS, "complete-tests", HQ_OPT_FLAG, NULL, "print the lab tests in the store, one per line (for shell completion)", NULL, NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

/*
 * The subcommands (opts.h): the words that name each, its operands after
 * them (min, max; -1 no limit); and in the same order what runs it
 * (report_run.h).
 */
static const struct hq_subcmd subcmds[] = {
	{ "list", "list [labs|dexa|cgm]", 0, 1 },
	{ "latest labs", "latest labs [TEST...]", 0, -1 },
	{ "trend labs", "trend labs TEST", 1, 1 },
	{ "trend", "trend METRIC", 1, 1 },
	{ "latest dexa", "latest dexa", 0, 0 },
	{ "compare dexa", "compare dexa", 0, 0 },
	{ "cgm", "cgm", 0, 0 },
	{ "goals", "goals [GOAL...]", 0, -1 },
	{ "alerts", "alerts", 0, 0 },
	{ "week", "week", 0, 0 },
	{ "load", "load", 0, 0 },
	{ "zones", "zones [ID]", 0, 1 },
	{ "bests", "bests", 0, 0 },
	{ "compare workouts", "compare workouts", 0, 0 },
	{ "nutrition", "nutrition", 0, 0 },
	{ "forecast", "forecast METRIC", 1, 1 },
	{ "plan", "plan", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static hq_report_run_fn *const runs[] = {
	hq_report_run_list, hq_report_run_latest_labs, hq_report_run_trend_labs,
	hq_report_run_trend_metric, hq_report_run_latest_dexa,
	hq_report_run_compare_dexa, hq_report_run_cgm, hq_report_run_goals,
	hq_report_run_alerts, hq_report_run_week, hq_report_run_load,
	hq_report_run_zones, hq_report_run_bests, hq_report_run_compare_workouts,
	hq_report_run_nutrition,
	hq_report_run_forecast, hq_report_run_plan,
};
_Static_assert(sizeof runs / sizeof runs[0] + 1 ==
    sizeof subcmds / sizeof subcmds[0], "a run function per subcommand");

#define RANGE "cgm|trend|goals|alerts|load|zones|bests|compare workouts|" \
	"nutrition|forecast|plan"
#define ATHLETE "load|zones|compare workouts"

/* The options (and --format's choices) that go with some reports only. */
static const struct hq_opt_subs opt_subs[] = {
	{ "unit", NULL, "latest labs|trend labs" },
	{ "fields", NULL, "latest dexa|compare dexa" },
	{ "last", NULL, "compare dexa|compare workouts" },
	{ "dates", NULL, "compare dexa" },
	{ "from", NULL, RANGE },
	{ "to", NULL, RANGE },
	{ "by", NULL, "cgm" },
	{ "agp", NULL, "cgm" },
	{ "quiet", NULL, "alerts" },
	{ "format", "svg", "trend labs|compare dexa|cgm|load|forecast" },
	{ "format", "html", "cgm|week" },
	{ "week", NULL, "week|plan" },
	{ "type", NULL, "load|zones|bests|compare workouts" },
	{ "ids", NULL, "compare workouts" },
	{ "max-hr", NULL, ATHLETE },
	{ "rest-hr", NULL, ATHLETE },
	{ "lthr", NULL, ATHLETE },
	{ "ftp", NULL, ATHLETE },
	{ "entries", NULL, "nutrition" },
	{ "ahead", NULL, "forecast" },
	{ "target", NULL, "forecast" },
	{ NULL, NULL, NULL },
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
static const struct hq_cmd_info cmd = {
	.name = "hq-report",
	.synopsis = "list [labs|dexa|cgm] | latest labs [TEST...] | trend labs TEST | "
	    "latest dexa | compare dexa | cgm [OPTION]... | week | trend METRIC | "
	    "goals [GOAL...] | alerts [-q] | load | zones [ID] | bests | "
	    "compare workouts | nutrition [--entries] | forecast METRIC | plan",
	.summary = "Lab results, DEXA scans and glucose control: the latest, a trend, "
	    "two scans compared, the CGM consensus metrics and the AGP; the week in "
	    "one look, goals, alerts, a metric's trend; training load, fitness and "
	    "form, heart-rate zones, bests, workouts compared; the food log.",
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
	    "Use [\"nutrition\"] for 'how much protein did I eat yesterday?', "
	    "'what share of my calories came from fat this week?': a row per "
	    "local day (from/to; default the last 7 days) with energy_kcal, "
	    "protein_g, carbs_g, fat_g, fiber_g, sugar_g, sodium_mg, water_ml, "
	    "caffeine_mg and protein_pct, carbs_pct, fat_pct (each macro's share "
	    "of the energy at 4/4/9 kcal per g); a meal two apps logged counts "
	    "once. With entries true, each food logged instead: time, food, "
	    "meal, the nutrients, source (the app), counted (yes; no for the "
	    "app that yields where two logged one meal; part). "
	    "Use [\"forecast\",METRIC] (weight, resting_heart_rate, hrv...) for "
	    "'when will I reach 72 kg?', 'where will my weight be in 2 months?': "
	    "the trend's Theil-Sen line continued, a row a week after the last "
	    "day of data (ahead: 8w default, 30d, 3m, 1y; at most 2y) with date, "
	    "value, low, high (a band from the slope's 95% interval and the "
	    "days' spread about the line), unit; with target (\"72\") also "
	    "reach (the day the line gets there), reach_earliest and "
	    "reach_latest (the band's edges): say the range, not just the day; "
	    "null reach: the line points away (or is flat), null reach_latest: "
	    "perhaps never. Needs 14 days of values. "
	    "Use [\"plan\"] for 'did I do what the plan said this week?' (week "
	    "\"2026-W47\" or from/to; default this week): a row per planned day "
	    "of the user's training plan and per unplanned workout: date, type, "
	    "title, planned_min, planned_load, done_min, done_load, workout_id, "
	    "status (done: >= 80% of the planned load; partial; missed; ahead: "
	    "still to come; extra: not in the plan). For 'how fresh will I be on "
	    "race day?' use [\"load\"] with to the race day: days after the "
	    "data continue with the plan's loads, rows planned true; tsb that day is "
	    "the form. "
	    "Exit 1: nothing found (the message says what).",
	.positional = "args",
	.positional_help = "The subcommand and its operands, in command-line order: "
	    "[\"list\"], [\"list\",\"labs\"], [\"list\",\"dexa\"], [\"latest\",\"labs\"], "
	    "[\"latest\",\"labs\",\"ldl\",\"hba1c\"], [\"trend\",\"labs\",\"hba1c\"], "
	    "[\"latest\",\"dexa\"], [\"compare\",\"dexa\"], [\"cgm\"], [\"list\",\"cgm\"], "
	    "[\"week\"], [\"trend\",\"resting_heart_rate\"], [\"goals\"], "
	    "[\"goals\",\"steps\"], [\"alerts\"], [\"load\"], [\"zones\"], "
	    "[\"zones\",\"123\"], [\"bests\"], [\"compare\",\"workouts\"], "
	    "[\"nutrition\"], [\"forecast\",\"weight\"], [\"plan\"].",
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
	.subcmds = subcmds,
	.opt_subs = opt_subs,
	.subcmd_noun = "report",
	.help_more = help_athlete,
};

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

/* After the subcommands' words (opts.c offers them): list's kinds, the
 * goals, trend's metrics, zones' workouts, latest's and trend's lab tests
 * from the store. */
static void
complete_operand(const struct hq_complete *c)
{
	const char *verb = c->noperands ? c->operands[0] : NULL;

	if (verb && c->noperands == 1 && strcmp(verb, "list") == 0) {
		hq_complete_add(c, "labs", NULL);
		hq_complete_add(c, "dexa", NULL);
		hq_complete_add(c, "cgm", NULL);
	}
	if (verb && strcmp(verb, "goals") == 0)
		complete_goals(c);
	if (verb && c->noperands == 1 && (strcmp(verb, "trend") == 0 ||
	    strcmp(verb, "forecast") == 0))
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

static int
print_test(void *arg, const char *name)
{
	(void)arg;
	return puts(name) < 0 ? -1 : 0;
}

/* What the command line asks. */
struct cli {
	const char *tz, *db;
	int complete, has_format, offline;
	enum hq_format format;
	int sub, used;               /* the subcommand and its words */
};

/* The options into a and c, the subcommand checked against them: the
 * index of the first operand, or -1 with *status set (0 after --help and
 * the like, 2 after a usage error). */
static int
parse_cli(int argc, char **argv, struct hq_report_ask *a, struct cli *c,
    int *status)
{
	struct hq_opts p;
	int id;

	hq_opts_init(&p, &cmd, argc, argv);
	while ((id = hq_opts_parse(&p)) > 0)
		switch (id) {
		case OPT_UNIT: a->unit = p.arg; break;
		case OPT_FIELDS: a->fields = p.arg; break;
		case OPT_LAST: a->last = p.num; a->has_last = 1; break;
		case OPT_DATES: a->dates = p.arg; break;
		case OPT_FROM: a->from = p.arg; break;
		case OPT_TO: a->to = p.arg; break;
		case OPT_BY: a->by = p.choice; break;
		case OPT_AGP: a->agp = 1; break;
		case OPT_FORMAT:
			c->has_format = 1;
			a->format_name = p.arg;
			a->svg = strcmp(p.arg, "svg") == 0;
			a->html = strcmp(p.arg, "html") == 0;
			if (!a->svg && !a->html)
				hq_output_parse_format(p.arg, &c->format);
			break;
		case OPT_TZ: c->tz = p.arg; break;
		case OPT_DB: c->db = p.arg; break;
		case OPT_OFFLINE: c->offline = 1; break;
		case OPT_COMPLETE_TESTS: c->complete = 1; break;
		case 'q': a->quiet = 1; break;
		case OPT_WEEK: a->week = p.arg; break;
		case OPT_TYPE: a->type = p.arg; break;
		case OPT_IDS: a->ids = p.arg; break;
		case OPT_MAX_HR: a->ath[HQ_ATH_MAX_HR] = p.arg; break;
		case OPT_REST_HR: a->ath[HQ_ATH_REST_HR] = p.arg; break;
		case OPT_LTHR: a->ath[HQ_ATH_LTHR] = p.arg; break;
		case OPT_FTP: a->ath[HQ_ATH_FTP] = p.arg; break;
		case OPT_ENTRIES: a->entries = 1; break;
		case OPT_AHEAD: a->ahead = p.arg; break;
		case OPT_TARGET: a->target = p.arg; break;
		}
	if (id == 0 && !c->complete && (c->sub = hq_opts_subcmd(&p, &c->used)) < 0)
		id = -1;
	if (id < 0) {
		*status = p.status;
		return -1;
	}
	return p.optind;
}

int
main(int argc, char **argv)
{
	struct hq_report_ask a = { .cmd = &cmd, .last = 2, .by = -1 };
	struct cli c = { 0 };
	struct hq_err e;
	int status = 2, first, rc;

	hq_err_init(argv[0]);
	hq_start_init(&a.st);
	if ((first = parse_cli(argc, argv, &a, &c, &status)) < 0)
		goto out;
	status = 2;
	argc -= first;
	argv += first;
	a.st.db = c.db;
	a.st.tz = c.tz;
	a.st.from = a.from;
	a.st.to = a.to;
	a.st.lookback = 1;	/* loads, baselines, trends read before --from */
	a.st.offline = c.offline;
	a.st.complete = c.complete;
	if (hq_start_store(&a.st, &status))
		goto out;
	if (c.complete) {
		status = hq_report_lab_tests(a.st.store, print_test, NULL, &e) ? 2 : 0;
		goto out;
	}
	if (hq_start_setup(&a.st))
		goto out;
	a.out = hq_out_new(stdout, c.has_format && !a.svg && !a.html ? c.format :
	    HQ_FMT_AUTO);
	rc = runs[c.sub](&a, argc - c.used, argv + c.used, &e);
	if (rc == 2) {
		status = 2;
	} else if (rc == 1) {
		if (!a.quiet)
			hq_warn("%s", e.msg);
		status = 1;
	} else if (rc < 0) {
		hq_warn("%s", e.msg);
		status = 2;
	} else {
		status = 0;
	}
out:
	if (a.out && hq_out_free(a.out) && status != 2) {
		hq_warn("write error");
		status = 2;
	}
	hq_start_end(&a.st);
	return hq_finish(status);
}
