/*
 * hq-report — the reports kept apart from samples: glucose control from
 * CGM readings (cgm), and what the store holds of them (list).
 *
 * A thin dispatcher: one option table for the whole command (so one
 * --tool-schema, with the subcommand and its operands as the `args`
 * array), then a table of subcommands, each a library module's function
 * (lib/cgm_report.c for cgm). Reports of another kind add a line to each
 * table and their options to the first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/cgm_report.h"
#include "hq/err.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "hq/store.h"
#include "hq/time.h"

enum {
	OPT_FROM = HQ_OPT_LONG, OPT_TO, OPT_FORMAT, OPT_TZ, OPT_DB,
	/* cgm */
	OPT_BY, OPT_AGP,
};

static const struct hq_opt options[] = {
	{ OPT_FROM, "from", HQ_OPT_STRING, "DATE", "start at DATE (2024-12-01, 2024-12, 2024-W49, today, 30d, last-month...)",
	  NULL, "Start of the range, a local date: 2024-12-01, 2024-12 (a month), 2024-W49, today, yesterday, 7d/4w/3m/1y (ago), this-week, last-month... Without from and to, everything in the store.", 1 },
	{ OPT_TO, "to", HQ_OPT_STRING, "DATE", "end with DATE, inclusive (same forms as --from)",
	  NULL, "End of the range, inclusive of the whole day/week/month it names: from \"2024-12\" to \"2024-12\" is all of December.", 1 },
	{ OPT_FORMAT, "format", HQ_OPT_ENUM, "F", "jsonl, json, csv, table, or svg/html (cgm: the AGP drawn)",
	  "jsonl|json|csv|table|svg|html", "Output format; the default (JSON lines) is what to use. svg and html draw the ambulatory glucose profile for a person to look at.", 1 },
	{ OPT_TZ, "tz", HQ_OPT_STRING, "ZONE", "IANA zone for local days and times of day (default $HQ_TZ, $TZ)", NULL, NULL, 1 },
	{ OPT_DB, "db", HQ_OPT_STRING, "PATH", "the store (default $HQ_DB, ~/.local/share/hq/hq.db)", NULL, NULL, 0 },
	/* ---- cgm ---- */
	{ OPT_BY, "by", HQ_OPT_ENUM, "PERIOD", "cgm: a row per local day, week or month instead of one for the range",
	  "day|week|month", "cgm only: one row per local day, ISO week or month instead of one for the whole range (to compare weeks, or see a trend).", 1 },
	{ OPT_AGP, "agp", HQ_OPT_FLAG, NULL, "cgm: the daily profile, 96 rows: percentiles per 15 minutes",
	  NULL, "cgm only: the ambulatory glucose profile instead of the metrics: 96 rows (time 00:00, 00:15, ...) with p5, p25, p50, p75, p95 and n, over all days of the range. Use it for 'when in the day is my glucose high?'.", 1 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const struct hq_cmd_info cmd = {
	.name = "hq-report",
	.synopsis = "SUBCOMMAND [ARG...] [--from DATE] [--to DATE] [--format F] "
	    "[--tz ZONE] [--db PATH] [--by day|week|month] [--agp]",
	.summary = "Reports from the store: glucose control from CGM readings "
	    "(cgm), and the reports it holds (list).",
	.tool_description = "Reports on data hq keeps apart from plain time "
	    "series. args [\"cgm\"]: glucose control from continuous glucose "
	    "monitor readings (Dexcom, Libre, or blood glucose from Apple "
	    "Health): one row per range (or --by day|week|month) with readings, "
	    "coverage_pct, mean, sd, cv, gmi (estimated HbA1c %), tir (% time in "
	    "range 70-180 mg/dL), titr (70-140), tbr (<70), tbr2 (<54), tar "
	    "(>180), tar2 (>250), j_index, lbgi, hbgi, gri (glycemia risk "
	    "index). Use it for 'how is my glucose control?', 'what was my time "
	    "in range last month?', 'am I having lows?', 'compare my glucose "
	    "this week and last' (by: week). With agp true: the daily profile "
	    "(percentiles per 15 minutes of the day), for 'when in the day is "
	    "my glucose high?'. args [\"list\"] or [\"list\",\"cgm\"]: which "
	    "reports the store holds (for cgm, each sensor session's first day "
	    "and days of readings): 'what glucose data do I have?'. Readings in "
	    "mg/dL; a reading stored twice (a CGM file and its copy in Apple "
	    "Health) counts once. Exit 1 with a message when the range has no "
	    "readings.",
	.positional = "args",
	.positional_help = "the subcommand and its operands, in command-line "
	    "order: [\"cgm\"] or [\"list\"] or [\"list\",\"cgm\"]",
	.positional_required = 1,
	.opts = options,
};

struct cli {
	const char *from, *to, *format, *tz, *db;
	int by, agp;                 /* by: index in "day|week|month", -1 none */
	struct hq_store *store;
};

/* ---- list ---- */

static const struct {
	const char *kind;
	long (*rows)(struct hq_store *s, struct hq_out *out, struct hq_err *e);
} kinds[] = {
	{ "cgm", hq_cgm_list },
};

#define NKINDS (sizeof kinds / sizeof kinds[0])

static int
run_list(struct cli *c, int argc, char **argv)
{
	enum hq_format f = HQ_FMT_AUTO;
	struct hq_out *out;
	struct hq_err e;
	long n = 0, k;
	size_t i;

	if (argc > 1) {
		hq_opts_usage_error(&cmd, "list takes one kind at most");
		return 2;
	}
	for (i = 0; argc == 1 && i < NKINDS; i++)
		if (strcmp(argv[0], kinds[i].kind) == 0)
			break;
	if (argc == 1 && i == NKINDS) {
		hq_opts_usage_error(&cmd, "unknown kind '%s' (hq-report lists: "
		    "%s)", argv[0], kinds[0].kind);
		return 2;
	}
	if (c->by >= 0 || c->agp || c->from || c->to) {
		hq_opts_usage_error(&cmd, "list takes no --from, --to, --by or --agp");
		return 2;
	}
	if (c->format && hq_output_parse_format(c->format, &f)) {
		hq_opts_usage_error(&cmd, "list prints rows: --format jsonl, json, "
		    "csv or table");
		return 2;
	}
	out = hq_out_new(stdout, f);
	for (i = 0; i < NKINDS; i++) {
		if (argc == 1 && strcmp(argv[0], kinds[i].kind) != 0)
			continue;
		if ((k = kinds[i].rows(c->store, out, &e)) < 0) {
			hq_out_free(out);
			hq_warn("%s", e.msg);
			return 2;
		}
		n += k;
	}
	if (hq_out_free(out))
		return 2;
	if (n == 0) {
		hq_warn("no reports in the store%s%s: import some with hq-ingest",
		    argc ? " of kind " : "", argc ? argv[0] : "");
		return 1;
	}
	return 0;
}

/* ---- cgm ---- */

static int
run_cgm(struct cli *c, int argc, char **argv)
{
	static const enum hq_period by[] = { HQ_DAY, HQ_WEEK, HQ_MONTH };
	struct hq_cgm_report_opts o = { .by = HQ_PERIOD_NONE, .agp = c->agp };
	struct hq_err e;
	int rc;

	(void)argv;
	if (argc > 0) {
		hq_opts_usage_error(&cmd, "cgm takes no operands");
		return 2;
	}
	if (c->agp && c->by >= 0) {
		hq_opts_usage_error(&cmd, "--agp is one profile over the range: "
		    "drop --by, or narrow the range with --from/--to");
		return 2;
	}
	if (c->by >= 0)
		o.by = by[c->by];
	if (hq_time_parse_from_to(c->from, c->to, (int64_t)time(NULL), &o.from,
	    &o.to, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	rc = hq_cgm_report_print(c->store, &o, c->format, stdout, &e);
	if (rc)
		hq_warn("%s", e.msg);
	return rc < 0 ? 2 : rc;
}

/* ---- dispatch ---- */

static const struct subcommand {
	const char *name;
	int (*run)(struct cli *c, int argc, char **argv);
} subcommands[] = {
	{ "list", run_list },
	{ "cgm", run_cgm },
};

#define NSUB (sizeof subcommands / sizeof subcommands[0])

/* "list, cgm": the subcommands, for messages. */
static const char *
subcommand_names(char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NSUB && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "",
		    subcommands[i].name);
	return buf;
}

int
main(int argc, char **argv)
{
	struct cli c = { .by = -1 };
	struct hq_opts p;
	struct hq_err e;
	int id, status = 2;
	size_t i;
	char names[256];

	hq_err_init(argv[0]);
	hq_opts_init(&p, &cmd, argc, argv);
	while ((id = hq_opts_parse(&p)) > 0)
		switch (id) {
		case OPT_FROM: c.from = p.arg; break;
		case OPT_TO: c.to = p.arg; break;
		case OPT_FORMAT: c.format = p.arg; break;
		case OPT_TZ: c.tz = p.arg; break;
		case OPT_DB: c.db = p.arg; break;
		case OPT_BY: c.by = p.choice; break;
		case OPT_AGP: c.agp = 1; break;
		}
	if (id < 0) {
		status = p.status;
		goto done;
	}
	argc -= p.optind;
	argv = p.argv + p.optind;
	if (argc == 0) {
		hq_opts_usage_error(&cmd, "no subcommand (%s)",
		    subcommand_names(names, sizeof names));
		goto done;
	}
	for (i = 0; i < NSUB; i++)
		if (strcmp(argv[0], subcommands[i].name) == 0)
			break;
	if (i == NSUB) {
		hq_opts_usage_error(&cmd, "unknown subcommand '%s' (the "
		    "subcommands are: %s)", argv[0],
		    subcommand_names(names, sizeof names));
		goto done;
	}
	if (hq_time_set_zone(c.tz, &e)) {
		hq_warn("%s", e.msg);
		goto done;
	}
	if (!(c.store = hq_store_open(c.db, HQ_STORE_READONLY, &e))) {
		hq_warn("%s", e.msg);
		goto done;
	}
	status = subcommands[i].run(&c, argc - 1, argv + 1);
done:
	hq_store_close(c.store);
	return hq_finish(status);
}
