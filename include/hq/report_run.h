/*
 * report_run — what each of hq-report's subcommands does, below the
 * command: its engine run (document_out.h, cgm_read.h, goals_out.h,
 * alert_out.h, trend_out.h, week.h, athlete_out.h) with the options as
 * struct hq_report_ask, into ask->out or a drawing on standard output.
 * cmd/hq-report.c parses the options (its tables say which go with which
 * subcommand, opts.h), starts (start.h) and calls the run function its
 * table of subcommands names; a new report is a run function here, its
 * engine in lib/analyze/, and a line in that table.
 *
 * A run function gets the operands after the subcommand's words and
 * returns 0, 1 (nothing to show; e says why), 2 (a usage error it said in
 * ask->cmd's words) or -1 (e set).
 */
#ifndef HQ_REPORT_RUN_H
#define HQ_REPORT_RUN_H

#include "hq/athlete.h"
#include "hq/err.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "hq/start.h"

struct hq_report_ask {
	const struct hq_cmd_info *cmd;   /* the command, for usage errors */
	const char *unit, *dates, *from, *to, *week;
	const char *format_name;     /* as given (cgm draws svg and html itself) */
	char *fields;
	long last;
	int by, agp;                 /* by: index in "day|week|month", -1 none */
	int has_last, svg, html, quiet;
	const char *type, *ids;      /* load, zones, bests, compare workouts */
	const char *ahead, *target;  /* forecast */
	const char *ath[HQ_ATH_NKEYS];   /* --max-hr, --rest-hr, --lthr, --ftp */
	int entries;                 /* nutrition: each food logged */
	struct hq_start st;          /* the store, config, zone, settings */
	struct hq_out *out;          /* NULL once a report wrote its own */
};

typedef int hq_report_run_fn(struct hq_report_ask *a, int argc, char **argv,
    struct hq_err *e);

/* list [labs|dexa|cgm], latest labs [TEST...], trend labs TEST, latest
 * dexa, compare dexa, cgm */
hq_report_run_fn hq_report_run_list, hq_report_run_latest_labs,
    hq_report_run_trend_labs, hq_report_run_latest_dexa,
    hq_report_run_compare_dexa, hq_report_run_cgm;
/* goals [GOAL...], alerts, trend METRIC, week */
hq_report_run_fn hq_report_run_goals, hq_report_run_alerts,
    hq_report_run_trend_metric, hq_report_run_week;
/* load, zones [ID], bests, compare workouts */
hq_report_run_fn hq_report_run_load, hq_report_run_zones,
    hq_report_run_bests, hq_report_run_compare_workouts;
/* nutrition [--entries] */
hq_report_run_fn hq_report_run_nutrition;
/* forecast METRIC */
hq_report_run_fn hq_report_run_forecast;
/* plan */
hq_report_run_fn hq_report_run_plan;

#endif
