#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/correlate.h"
#include "hq/rowdesc.h"
#include "hq/term.h"
#include "hq/time.h"
#include "hq/trend.h"
#include "hq/trend_out.h"

struct trend_row {
	const char *metric, *unit;
	int64_t from, to;
	long n;
	double slope, lo, hi, tau, p;
};

/* p for people: two significant digits, never scientific notation. */
static int
p_text(const void *row, char *buf, size_t n)
{
	double p = ((const struct trend_row *)row)->p;

	if (isnan(p))
		return -1;
	if (p < 0.0001)
		snprintf(buf, n, "< 0.0001");
	else
		snprintf(buf, n, "%.2g", p);
	return 0;
}

#define TR(k, t, f) HQ_COL_AT(k, t, struct trend_row, f)
static const struct hq_col trend_cols[] = {
	{ TR("metric", HQ_COL_STR, metric), .fit = { .min_width = 12 } },
	{ TR("from", HQ_COL_DAY, from) },
	{ TR("to", HQ_COL_DAY, to) },
	{ TR("n", HQ_COL_LONG, n) },
	{ TR("slope_per_week", HQ_COL_NUM, slope), .in = HQ_COL_DATA },
	{ TR("slope_per_week", HQ_COL_SHORT, slope), .in = HQ_COL_TABLE },
	{ TR("ci_low", HQ_COL_NUM, lo), .in = HQ_COL_DATA },
	{ TR("ci_low", HQ_COL_SHORT, lo), .in = HQ_COL_TABLE },
	{ TR("ci_high", HQ_COL_NUM, hi), .in = HQ_COL_DATA },
	{ TR("ci_high", HQ_COL_SHORT, hi), .in = HQ_COL_TABLE },
	{ TR("tau", HQ_COL_NUM, tau), .in = HQ_COL_DATA },
	{ TR("tau", HQ_COL_SHORT, tau), .in = HQ_COL_TABLE },
	{ TR("p", HQ_COL_NUM, p), .in = HQ_COL_DATA },
	{ HQ_COL_FN("p", p_text), .in = HQ_COL_TABLE },
	{ TR("unit", HQ_COL_STR0, unit), .fit = { .drop = 1 } },
	{ .key = NULL },
};

void
hq_trend_sentence(struct hq_buf *b, const char *label, const char *unit,
    int64_t first, int64_t last, const struct hq_trend *tr)
{
	char sl[32], lo[32], hi[32], tau[32], p[32], d0[16], d1[16], u[40];
	int clear = tr->status == HQ_STATS_OK && tr->p < 0.05;

	hq_corr_format2(fabs(tr->slope_week), sl, sizeof sl);
	hq_corr_format2(tr->ci_low, lo, sizeof lo);
	hq_corr_format2(tr->ci_high, hi, sizeof hi);
	snprintf(tau, sizeof tau, "%.2f", fabs(tr->tau) < 0.005 ? 0.0 : tr->tau);
	hq_corr_format_p(tr->p, p, sizeof p);
	hq_time_format_day(first, d0, sizeof d0);
	hq_time_format_day(last, d1, sizeof d1);
	snprintf(u, sizeof u, "%s%s", unit[0] && strcmp(unit, "count") ? " " : "",
	    strcmp(unit, "count") ? unit : "");
	if (tr->status != HQ_STATS_OK) {
		hq_buf_printf(b, "No trend in %s: it did not change (n = %zu days, "
		    "%s to %s).", label, tr->n, d0, d1);
		return;
	}
	if (clear)
		hq_buf_printf(b, "%c%s went %s by %s%s a week", label[0] >= 'a' &&
		    label[0] <= 'z' ? label[0] - 'a' + 'A' : label[0], label + 1,
		    tr->slope_week < 0 ? "down" : "up", sl, u);
	else
		hq_buf_printf(b, "No clear trend in %s: %s%s%s a week", label,
		    tr->slope_week < 0 ? "-" : "", sl, u);
	if (isnan(tr->ci_low) || isnan(tr->ci_high))
		hq_buf_printf(b, " (too few days for an interval;");
	else
		hq_buf_printf(b, " (95 %% interval %s to %s;", lo, hi);
	hq_buf_printf(b, " Kendall's tau = %s, p %s, n = %zu days, %s to %s).",
	    tau, p, tr->n, d0, d1);
	if (clear && tr->serial)
		hq_corr_serial_caution(b, "the series carries over from day to day",
		    tr->n, tr->n_eff);
}

/* text under the table, wrapped to its width as hq-correlate wraps its
 * sentences (hq_term_wrap), one footnote a line. */
void
hq_trend_footnote(struct hq_out *o, const char *text)
{
	char *mem = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&mem, &len);

	if (!fp) {
		hq_out_footnote(o, text);
		return;
	}
	hq_out_footnote(o, "");
	hq_term_wrap(fp, "", 0, 0, text, (size_t)hq_out_width(o));
	if (fclose(fp) == 0 && mem)
		for (line = strtok_r(mem, "\n", &save); line;
		    line = strtok_r(NULL, "\n", &save))
			hq_out_footnote(o, line);
	free(mem);
}

int
hq_trend_metric_out(const struct hq_daily_store *ds, const char *metric,
    int64_t from_day, int64_t to_day, struct hq_out *o, struct hq_err *e)
{
	struct hq_daily s;
	struct hq_daily_span span = { from_day, to_day };
	struct hq_trend tr;
	struct trend_row row;
	char label[160], range[96];

	if (hq_daily_load(ds, metric, span, 0, 0, &s, e))
		return -1;  /* an unknown metric: e names the one it may mean */
	hq_time_range_text(from_day == INT64_MIN ? INT64_MIN : hq_time_day_start(from_day),
	    to_day == INT64_MAX ? INT64_MAX : hq_time_day_start(to_day + 1), range,
	    sizeof range);
	if (s.n < 3) {
		hq_err_set(e, "%s has %s daily values%s: a trend needs at least 3 "
		    "days", metric, s.n == 0 ? "no" : s.n == 1 ? "1 day of" :
		    "2 days of", range);
		hq_daily_free(&s);
		return 1;
	}
	if (hq_trend(s.days, s.v, s.n, &tr, e)) {
		hq_daily_free(&s);
		return -1;
	}
	row = (struct trend_row){
		.metric = s.metric, .unit = s.unit, .from = s.days[0],
		.to = s.days[s.n - 1], .n = (long)s.n, .slope = tr.slope_week,
		.lo = tr.ci_low, .hi = tr.ci_high, .tau = tr.tau, .p = tr.p,
	};
	hq_out_keyvalue(o);   /* one row: a field a line on a terminal */
	hq_out_fit_cols(o, trend_cols);
	hq_out_row(o, trend_cols, &row);
	if (hq_out_format(o) == HQ_FMT_TABLE) {
		struct hq_buf b = { 0 };
		hq_corr_label(&s, label, sizeof label);
		hq_trend_sentence(&b, label, s.unit, row.from, row.to, &tr);
		hq_trend_footnote(o, b.data);
		hq_buf_free(&b);
	}
	hq_daily_free(&s);
	return 0;
}
