/*
 * hq-correlate — does one thing move with another? Pairs two daily series
 * (metrics from the store, or files of hq-query day rows) by day, a lag or
 * the night after, and reports Pearson's and Spearman's correlations; with
 * --when, compares B on days a condition holds against the others; with
 * --against, ranks every other metric against A. The engine is
 * lib/correlate.c (series, pairs, conditions) over lib/select.c and
 * lib/stats.c; this file reads options, runs it and prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/agent.h"
#include "hq/buf.h"
#include "hq/complete.h"
#include "hq/correlate.h"
#include "hq/err.h"
#include "hq/expr.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "hq/select.h"
#include "hq/start.h"
#include "hq/store.h"
#include "hq/term.h"
#include "hq/time.h"

enum {
	OPT_LAG = HQ_OPT_LONG, OPT_NIGHT, OPT_FROM, OPT_TO, OPT_METHOD, OPT_MIN_N,
	OPT_WHEN, OPT_AGAINST, OPT_FORMAT, OPT_TZ, OPT_DB, OPT_OFFLINE,
};

static const struct hq_opt options[] = {
	{ OPT_LAG, "lag", HQ_OPT_INT, "N", "pair A on day D with B on day D+N (N may be negative)",
	  "-3650..3650", "Days B follows A: 1 pairs each day with the next day's B (\"does a hard workout lower HRV the next day?\"), -1 with the day before. Default 0, the same day.", 1 },
	{ OPT_NIGHT, "night", HQ_OPT_FLAG, NULL, "B for the night after day D: a sleep metric's night dated D+1, else 18:00 on D to 12:00 on D+1",
	  NULL, "Pair each day with the night that follows it: sleep metrics take the night dated the next morning, other metrics (heart rate, HRV, glucose) their values from 18:00 that day to 12:00 the next. Use it for questions about 'that night' or sleep after something; not with lag.", 1 },
	HQ_OPT_FROM(OPT_FROM, "first day of A to pair (2024-12-01, 2024-12, 7d, last-month...)",
	  "First day of A to consider, inclusive: 2024-12-01, 2024-12, 2024-W49, 90d, 6m, 1y, last-month. Omit for all data."),
	HQ_OPT_TO(OPT_TO, "last day of A to pair, inclusive (same forms as --from)",
	  "Last day of A to consider, inclusive of the whole day/month it names."),
	{ OPT_METHOD, "method", HQ_OPT_ENUM, "M", "the coefficient sentences and --against ranking use (default spearman)",
	  "spearman|pearson", "Which coefficient the answer leads with and --against ranks by: spearman (rho, robust to outliers; the default) or pearson (r). Rows carry both either way.", 1 },
	{ OPT_MIN_N, "min-n", HQ_OPT_INT, "N", "refuse below N paired days (default 10)",
	  "3..100000", "The fewest paired days to report anything (default 10). Lower it only when the user accepts a weak answer.", 1 },
	{ OPT_WHEN, "when", HQ_OPT_LIST, "EXPR", "compare B on A's days where EXPR holds against the others: 'glucose.max>140' (repeat to AND)",
	  NULL, "Split A's days by a condition on that day, written as in hq-query (metric.agg, day offsets as glucose.max[-1]), and compare B between days with and without it: means, medians, difference, Welch's t, p and Hedges' g. For 'when X goes above/below a threshold, what happens to Y'. Several are ANDed.", 1 },
	{ OPT_AGAINST, "against", HQ_OPT_STRING, "LIST", "rank every other metric against A: all, or a comma-separated list",
	  NULL, "Instead of B: 'all' pairs A with every other metric in the store (or a comma-separated list of metrics) and ranks them by |rho|, with p adjusted for the number tested (Benjamini-Hochberg). For 'which of my metrics move with my sleep?'. Metrics of A's own family (sleep stages against sleep) are left out.", 1 },
	HQ_OPT_FORMAT(OPT_FORMAT, "jsonl, json, csv, table, text (sentences) or svg (a chart); default: text on a terminal, else jsonl",
	  "jsonl|json|csv|table|text|svg"),
	HQ_OPT_TZ(OPT_TZ, 1),
	HQ_OPT_DB(OPT_DB),
	HQ_OPT_OFFLINE(OPT_OFFLINE),
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

/* --against: all, or metric names (a list: the last one). */
static void
complete_against(const struct hq_complete *c)
{
	if (c->head == 0)
		hq_complete_add(c, "all", "every other metric in the store");
	hq_complete_metrics(c);
}

static const struct hq_cmd_info cmd = {
	.name = "hq-correlate",
	.synopsis = "A B [--lag N | --night] [--when EXPR] [--from DATE] [OPTION]...\n"
	    "       hq-correlate A --against all|LIST [OPTION]...",
	.summary = "Does one thing move with another? Daily series paired by day, a lag or the night after.",
	.tool_description = "Does one health metric move with another? Pairs two daily "
	    "series by local day and returns correlations (Pearson r and Spearman rho with "
	    "p, n, 95% CI, slope in B's unit per A's unit), or with 'when' the difference in "
	    "B between days a condition holds and the rest (means, medians, diff, Welch p, "
	    "Hedges' g). Questions to calls: 'When my glucose goes above 140, how does it "
	    "affect my sleep that night?' -> metrics [\"glucose\",\"sleep\"], when "
	    "[\"glucose.max>140\"], night true (answer with diff, in hours). 'Which of my "
	    "metrics move with my sleep?' -> metrics [\"sleep\"], against \"all\" (rows "
	    "ranked by |rho|; report p_adj). 'Do my steps go with my resting heart rate?' -> "
	    "metrics [\"steps\",\"resting_heart_rate\"]. 'Does HRV drop the day after hard "
	    "workouts?' -> metrics [\"active_energy\",\"hrv\"], lag 1. A metric may carry "
	    "its daily aggregate: glucose.max, heart_rate.avg. Exit 1 means too few paired "
	    "days (the message says how many). Results are associations, never causes: say "
	    "so.",
	.positional = "metrics",
	.positional_help = "In command-line order: A then B, metric names with an optional "
	    "daily aggregate (\"glucose.max\", \"sleep\"); with against, A alone.",
	.positional_required = 1,
	.opts = options,
	.completers = (const struct hq_opt_completer[]){
		{ "when", hq_complete_when },
		{ "against", complete_against },
		{ NULL, NULL },
	},
	.split = "when against",
	/* A and B: metric names, then .agg after a dot */
	.complete_operand = hq_complete_when,
};

struct cli {
	const char *from, *to, *tz, *db, *against;
	char **when;
	size_t nwhen;
	long lag, min_n;
	int night, pearson, has_format, svg, text, offline;
	enum hq_format format;
};

/* Everything a run holds, freed in one place. */
struct run {
	struct cli c;
	struct hq_start st;            /* the store, config, zone, settings */
	struct hq_daily_span span;
	struct hq_daily a, b;
	struct hq_expr **conds;
	size_t nconds;
	struct hq_buf condition;       /* the conditions as one text */
	struct hq_out *out;
	int sentences;                 /* on a terminal without --format */
};

/* ---- the three questions ---------------------------------------------------- */

static void
say(struct hq_buf *b)
{
	hq_corr_wrap(stdout, b->data ? b->data : "", 79);
	hq_buf_reset(b);
}

static void
refuse_few(const struct run *rn, size_t n)
{
	hq_warn("only %zu day%s with both %s and %s%s (at least %ld needed; --min-n "
	    "lowers it, --from/--to widen the range)", n, n == 1 ? "" : "s",
	    rn->a.metric, rn->b.metric, rn->c.night ? " the night after" : "",
	    rn->c.min_n);
}

static int
run_pair(struct run *rn)
{
	struct hq_corr_pairs p;
	struct hq_corr_result r;
	struct hq_buf b = { 0 };
	int lag, shift, status = 1;

	hq_corr_lag(&rn->b, (int)rn->c.lag, rn->c.night, &lag, &shift);
	hq_corr_pair(&rn->a, &rn->b, shift, rn->span, &p);
	if (p.n < (size_t)rn->c.min_n)
		refuse_few(rn, p.n);
	else if (hq_corr_stats(&p, &r) != HQ_STATS_OK)
		hq_warn("no correlation over %zu days: %s", p.n, r.status == HQ_STATS_CONSTANT_X
		    ? "A never changes" : r.status == HQ_STATS_CONSTANT_Y ? "B never changes"
		    : hq_stats_status_str(r.status));
	else if (rn->c.svg)
		status = hq_corr_svg_pairs(stdout, &rn->a, &rn->b, lag, rn->c.night, &p, &r,
		    rn->c.pearson) ? 2 : 0;
	else {
		if (rn->sentences) {
			hq_corr_sentence_pair(&b, &rn->a, &rn->b, lag, rn->c.night, &r,
			    rn->c.pearson);
			say(&b);
		} else
			hq_corr_row_pair(rn->out, &rn->a, &rn->b, lag, &r, -1);
		status = 0;
	}
	hq_buf_free(&b);
	hq_corr_pairs_free(&p);
	return status;
}

static int
run_when(struct run *rn)
{
	struct hq_corr_groups g;
	struct hq_stats_welch w;
	struct hq_buf b = { 0 };
	struct hq_err e;
	size_t paired;
	int lag, shift, status = 1;

	if (hq_corr_when(&rn->st.daily, &rn->a, &rn->b, rn->conds, rn->nconds, rn->span,
	    (int)rn->c.lag, rn->c.night, &g, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	hq_corr_lag(&rn->b, (int)rn->c.lag, rn->c.night, &lag, &shift);
	paired = g.with.n + g.without.n;
	if (paired < (size_t)rn->c.min_n)
		refuse_few(rn, paired);
	else if (g.with.n < 5 || g.without.n < 5)
		hq_warn("%s held on %zu of the %zu paired days and not on %zu: at least 5 "
		    "of each are needed to compare them", rn->condition.data, g.with.n,
		    paired, g.without.n);
	else if (hq_stats_welch(g.with.b, g.with.n, g.without.b, g.without.n, &w)
	    != HQ_STATS_OK)
		hq_warn("%s is the same on every one of those days: nothing to compare",
		    rn->b.metric);
	else if (rn->c.svg)
		status = hq_corr_svg_groups(stdout, &rn->b, rn->condition.data, lag,
		    rn->c.night, &g, &w) ? 2 : 0;
	else {
		if (rn->sentences) {
			hq_corr_sentence_groups(&b, &rn->b, rn->condition.data, lag,
			    rn->c.night, &g, &w);
			say(&b);
		} else
			hq_corr_row_groups(rn->out, &rn->a, &rn->b, rn->condition.data, lag, &w);
		status = 0;
	}
	hq_buf_free(&b);
	hq_corr_groups_free(&g);
	return status;
}

static int
run_against(struct run *rn)
{
	struct hq_corr_ranking rk;
	struct hq_buf b = { 0 };
	struct hq_err e;
	int serial = 0;

	if (hq_corr_against(&rn->st.daily, &rn->a, rn->c.against, rn->span, (int)rn->c.lag,
	    rn->c.night, rn->c.min_n, rn->c.pearson, &rk, &e)) {
		hq_warn("--against: %s", e.msg);
		return 2;
	}
	if (!rk.n) {
		hq_warn("no metric has %ld days paired with %s%s (--min-n lowers it)",
		    rn->c.min_n, rn->a.metric, rn->c.night ? " the night before" : "");
		hq_corr_ranking_free(&rk);
		return 1;
	}
	for (size_t k = 0; k < rk.n; k++)
		if (rn->sentences) {
			serial |= hq_corr_sentence_against(&b, k + 1, &rn->a, &rk.b[k],
			    rk.lag, rn->c.night, &rk.r[k], rn->c.pearson);
			say(&b);
		} else if (hq_out_format(rn->out) == HQ_FMT_TABLE)
			hq_corr_row_ranked(rn->out, &rk.b[k], &rk.r[k]);
		else
			hq_corr_row_pair(rn->out, &rn->a, &rk.b[k], rk.lag, &rk.r[k],
			    (long)rk.n);
	if (rn->sentences) {
		hq_buf_printf(&b, "%zu metrics with %ld or more days paired; p adjusted "
		    "for %zu tests (Benjamini-Hochberg). Associations, not proof of "
		    "causes.", rk.n, rn->c.min_n, rk.n);
		say(&b);
		if (serial) {
			hq_corr_serial_note(&b);
			say(&b);
		}
	}
	hq_buf_free(&b);
	hq_corr_ranking_free(&rk);
	return 0;
}

/* ---- main ------------------------------------------------------------------ */

/* The options into c: the index of the first operand, or -1 with *status
 * set (0 after --help and the like, 2 after a usage error). */
static int
parse_cli(int argc, char **argv, struct cli *c, int *status)
{
	struct hq_opts p;
	int id;

	hq_opts_init(&p, &cmd, argc, argv);
	while ((id = hq_opts_parse(&p)) > 0)
		switch (id) {
		case OPT_LAG: c->lag = p.num; break;
		case OPT_NIGHT: c->night = 1; break;
		case OPT_FROM: c->from = p.arg; break;
		case OPT_TO: c->to = p.arg; break;
		case OPT_METHOD: c->pearson = p.choice == 1; break;
		case OPT_MIN_N: c->min_n = p.num; break;
		case OPT_WHEN:
			c->when = hq_xrealloc(c->when, (c->nwhen + 1) * sizeof *c->when);
			c->when[c->nwhen++] = p.arg;
			break;
		case OPT_AGAINST: c->against = p.arg; break;
		case OPT_FORMAT:
			c->has_format = 1;
			c->svg = strcmp(p.arg, "svg") == 0;
			c->text = strcmp(p.arg, "text") == 0;
			if (!c->svg && !c->text)
				hq_output_parse_format(p.arg, &c->format);
			break;
		case OPT_TZ: c->tz = p.arg; break;
		case OPT_DB: c->db = p.arg; break;
		case OPT_OFFLINE: c->offline = 1; break;
		}
	*status = p.status;
	return id < 0 ? -1 : p.optind;
}

/* The operands and options that cannot go together: 0, or 2 after a
 * usage message. */
static int
check_cli(const struct cli *c, int nops)
{
	const char *why = NULL;

	if (c->against && nops != 1)
		why = "--against takes A alone (hq-correlate sleep --against all)";
	else if (!c->against && nops != 2)
		why = nops < 2 ? "which two? (hq-correlate glucose sleep --night; "
		    "hq-query --list shows the metrics)" : "two metrics, A and B";
	else if (c->night && c->lag)
		why = "--night is the lag of one night; give --lag or --night";
	else if (c->against && c->nwhen)
		why = "--when compares one B between two groups of days; name B "
		    "instead of --against";
	else if (c->against && c->svg)
		why = "--format svg draws one pair; name B instead of --against";
	if (why)
		hq_opts_usage_error(&cmd, "%s", why);
	return why ? 2 : 0;
}

/* --from/--to as A's days: 0, or 2 after a message. */
static int
parse_span(const struct cli *c, struct hq_daily_span *sp)
{
	struct hq_err e;
	int64_t start, end;

	if (hq_time_parse_from_to(c->from, c->to, hq_time_now(), &start,
	    &end, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	sp->from_day = start == INT64_MIN ? INT64_MIN : hq_time_local_day(start);
	sp->to_day = end == INT64_MAX ? INT64_MAX : hq_time_local_day(end - 1);
	return 0;
}

static int
parse_conditions(struct run *rn)
{
	struct hq_err e;

	rn->conds = hq_xcalloc(rn->c.nwhen + 1, sizeof *rn->conds);
	for (size_t i = 0; i < rn->c.nwhen; i++) {
		if (!(rn->conds[i] = hq_expr_parse(rn->c.when[i], &e))) {
			hq_warn("--when: %s", e.msg);
			return 2;
		}
		rn->nconds++;
		hq_buf_printf(&rn->condition, "%s%s", i ? " and " : "", rn->c.when[i]);
	}
	return 0;
}

/* A or B, from a file or the store. */
static int
load_operand(struct run *rn, const char *op, int is_b, struct hq_daily *s)
{
	struct hq_err e;
	int rc;

	if (hq_corr_is_file(op)) {
		rc = hq_daily_read(op, s, &e);
		if (rc == 0 && is_b && rn->c.night && !s->nights) {
			hq_warn("--night: %s holds daily %s rows, whose evenings and nights "
			    "cannot be told apart; name the metric so it is read from the "
			    "store", op, s->metric);
			return 2;
		}
	} else if (!rn->st.store) {
		hq_warn("%s", "no store to read from");
		return 2;
	} else
		rc = hq_daily_load(&rn->st.daily, op, rn->span, is_b ? (int)rn->c.lag : 0,
		    is_b && rn->c.night, s, &e);
	if (rc)
		hq_warn("%s", e.msg);
	return rc ? 2 : 0;
}

/* A model (hq-agent) names metrics of the store, never a file (issue 23):
 * a file operand would let it, and a remote provider behind it, read any
 * file the user can, field by field through the rows or the messages. A
 * person who wants a file's rows correlated runs hq-correlate, or imports
 * the file with hq-ingest (which asks before it writes). 0, or 2 after a
 * message. */
static int
model_files(char **ops, int nops)
{
	const char *from = getenv(HQ_AGENT_FROM_MODEL);
	char x[HQ_TERM_EXCERPT_SIZE];

	if (!from || !*from)
		return 0;
	for (int i = 0; i < nops; i++)
		if (hq_corr_is_file(ops[i])) {
			hq_warn("'%s' is a file: from a model (hq-agent) hq-correlate reads "
			    "metrics of the store only, such as steps or glucose.max",
			    hq_term_excerpt(x, sizeof x, ops[i]));
			return 2;
		}
	return 0;
}

int
main(int argc, char **argv)
{
	struct run rn = { .c = { .min_n = 10 } };
	int status = 2, first, nops, store;

	hq_err_init(argv[0]);
	hq_start_init(&rn.st);
	if ((first = parse_cli(argc, argv, &rn.c, &status)) < 0)
		goto out;
	status = 2;
	nops = argc - first;
	argv += first;
	if (check_cli(&rn.c, nops) || model_files(argv, nops))
		goto out;
	if (parse_conditions(&rn))
		goto out;
	/* The store, unless every series and condition comes from files;
	 * days in the zone hq-query's days are in (zone.h). */
	rn.st.db = rn.c.db;
	rn.st.tz = rn.c.tz;
	rn.st.from = rn.c.from;
	rn.st.to = rn.c.to;
	rn.st.lookback = 1;	/* a lag, a night's sleep: days before --from */
	rn.st.offline = rn.c.offline;
	rn.st.mmap = 1073741824;
	store = !hq_corr_is_file(argv[0]) || rn.c.against || nops < 2 ||
	    !hq_corr_is_file(argv[1]) || rn.nconds;
	if ((store && hq_start_store(&rn.st, &status)) || hq_start_setup(&rn.st) ||
	    (store && hq_start_settings(&rn.st)) || parse_span(&rn.c, &rn.span))
		goto out;
	if (load_operand(&rn, argv[0], 0, &rn.a) ||
	    (nops == 2 && load_operand(&rn, argv[1], 1, &rn.b)))
		goto out;
	rn.sentences = rn.c.text || (!rn.c.has_format && isatty(STDOUT_FILENO));
	if (!rn.c.svg && !rn.sentences) {
		rn.out = hq_out_new(stdout, rn.c.has_format ? rn.c.format : HQ_FMT_AUTO);
		if (!rn.c.against)
			hq_out_keyvalue(rn.out);
	}
	status = rn.c.against ? run_against(&rn) : rn.nconds ? run_when(&rn) : run_pair(&rn);
out:
	if (rn.out && hq_out_free(rn.out) && status != 2) {
		hq_warn("write error");
		status = 2;
	}
	for (size_t i = 0; i < rn.nconds; i++)
		hq_expr_free(rn.conds[i]);
	free(rn.conds);
	free(rn.c.when);
	hq_buf_free(&rn.condition);
	hq_daily_free(&rn.a);
	hq_daily_free(&rn.b);
	hq_start_end(&rn.st);
	return hq_finish(status);
}
