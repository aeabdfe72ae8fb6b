#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/list.h"
#include "hq/rows.h"
#include "hq/svg.h"
#include "hq/time.h"

struct hq_rows {
	struct hq_select_sink sink;
	struct hq_out *out;         /* NULL: a chart */
	int table;
	/* the series being printed */
	int whole;                  /* it counts things: whole numbers */
	int raw;                    /* one row per sample (or night) */
	char label[HQ_MAX_AGGS][24];
	/* every series announced, to say what there is when nothing passes */
	struct hq_metric_ref *seen;
	size_t nseen;
	/* a chart: every series' points */
	struct hq_chart ch;
	struct hq_chart_series *cs;
	size_t *cap;
	char *title;
};

/* ---- printing ----------------------------------------------------------- */

static void
row_period(const struct hq_select_series *sr, const struct hq_row *r,
    char *buf, size_t n)
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

/* "avg/day" for an avg of daily totals (query.h: cumulative metrics by
 * week and longer), "avg/sample" for the per-sample avg of their hours
 * and days, "avg/night" for sleep; other aggregations as named. */
static void
agg_label(const struct hq_select_series *sr, const struct hq_agg *a,
    char *buf, size_t n)
{
	const char *per = NULL;

	if (a->kind == HQ_AGG_AVG) {
		if (sr->metric->kind == HQ_KIND_SLEEP)
			per = "night";
		else if (sr->metric->kind == HQ_KIND_CUMULATIVE)
			per = sr->whole || sr->by >= HQ_WEEK ? "day" : "sample";
	}
	if (per)
		snprintf(buf, n, "%s/%s", a->name, per);
	else
		snprintf(buf, n, "%s", a->name);
}

static void
remember(struct hq_rows *p, const struct hq_select_series *sr)
{
	p->seen = hq_xrealloc(p->seen, (p->nseen + 1) * sizeof *p->seen);
	p->seen[p->nseen++] = *sr->metric;
}

static int
print_series(void *ctx, const struct hq_select_series *sr, struct hq_err *e)
{
	struct hq_rows *p = ctx;

	(void)e;
	remember(p, sr);
	p->whole = sr->metric->kind == HQ_KIND_CUMULATIVE &&
	    strcmp(sr->metric->unit, "count") == 0;
	p->raw = sr->by == HQ_PERIOD_NONE && !sr->whole;
	for (size_t k = 0; k < sr->naggs; k++)
		agg_label(sr, &sr->aggs[k], p->label[k], sizeof p->label[k]);
	return 0;
}

static void
time_of_day(int64_t t, char *buf, size_t n)
{
	struct hq_local l;

	hq_time_to_local(t, &l);
	snprintf(buf, n, "%02d:%02d:%02d", l.hour, l.min, l.sec);
}

static void
table_row(struct hq_rows *p, const struct hq_select_series *sr,
    const struct hq_row *r, const char *period)
{
	struct hq_out *out = p->out;
	char t[16];

	hq_out_str(out, "metric", sr->metric->name);
	hq_out_str(out, "period", period);
	if (p->raw) {
		time_of_day(r->start, t, sizeof t);
		hq_out_str(out, "start", t);
		if (r->end != r->start) {
			time_of_day(r->end, t, sizeof t);
			hq_out_str(out, "end", t);
		}
	}
	if (p->raw || sr->naggs == 0)
		hq_out_num(out, "value", p->whole ? round(r->v[0]) : r->v[0]);
	else
		for (size_t k = 0; k < sr->naggs; k++)
			hq_out_num(out, p->label[k], p->whole ? round(r->v[k]) : r->v[k]);
	if (!p->raw)
		hq_out_int(out, "n", r->n);
	hq_out_str(out, "unit", sr->metric->unit);
	if (r->source >= 0)
		hq_out_str(out, "source", sr->sources[r->source]);
	if (!isnan(r->sample_value))
		hq_out_num(out, "sample_value", p->whole ? round(r->sample_value)
		    : r->sample_value);
	if (r->category[0])
		hq_out_str(out, "category", r->category);
}

static int
print_row(void *ctx, const struct hq_select_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	struct hq_rows *p = ctx;
	struct hq_out *out = p->out;
	char period[64], start[40], end[40];

	(void)e;
	row_period(sr, r, period, sizeof period);
	hq_out_begin(out);
	if (p->table) {
		table_row(p, sr, r, period);
		hq_out_end(out);
		return 0;
	}
	hq_time_format_local(r->start, start, sizeof start);
	hq_time_format_local(r->end, end, sizeof end);
	hq_out_str(out, "metric", sr->metric->name);
	hq_out_str(out, "period", period);
	hq_out_str(out, "start", start);
	hq_out_str(out, "end", end);
	hq_out_num(out, "value", r->v[0]);
	for (size_t k = 0; k < sr->naggs; k++)
		hq_out_num(out, sr->aggs[k].name, r->v[k]);
	hq_out_int(out, "n", r->n);
	hq_out_str(out, "unit", sr->metric->unit);
	if (r->source >= 0)
		hq_out_str(out, "source", sr->sources[r->source]);
	if (!isnan(r->sample_value))
		hq_out_num(out, "sample_value", r->sample_value);
	if (r->category[0])
		hq_out_str(out, "category", r->category);
	hq_out_end(out);
	return 0;
}

struct hq_rows *
hq_rows_new(struct hq_out *out)
{
	struct hq_rows *p = hq_xcalloc(1, sizeof *p);

	p->out = out;
	p->table = hq_out_format(out) == HQ_FMT_TABLE;
	p->sink = (struct hq_select_sink){ print_series, print_row, p };
	if (p->table) {
		hq_out_fit(out, "end", (struct hq_out_fit){ .drop = 1 });
		hq_out_fit(out, "source", (struct hq_out_fit){ .min_width = 10 });
	}
	return p;
}

/* ---- charts ------------------------------------------------------------- */

static int
chart_series(void *ctx, const struct hq_select_series *sr, struct hq_err *e)
{
	struct hq_rows *c = ctx;
	struct hq_chart_series *s;

	(void)e;
	remember(c, sr);
	c->cs = hq_xrealloc(c->cs, (c->ch.nseries + 1) * sizeof *c->cs);
	c->cap = hq_xrealloc(c->cap, (c->ch.nseries + 1) * sizeof *c->cap);
	s = &c->cs[c->ch.nseries];
	memset(s, 0, sizeof *s);
	s->name = hq_xstrdup(sr->metric->name);
	s->unit = hq_xstrdup(sr->metric->unit);
	s->bars = sr->naggs && sr->aggs[0].kind == HQ_AGG_SUM &&
	    sr->by != HQ_PERIOD_NONE;
	c->cap[c->ch.nseries] = 0;
	if (c->ch.nseries++ == 0)
		c->ch.by = sr->by;
	c->ch.series = c->cs;
	return 0;
}

static int
chart_point(void *ctx, const struct hq_select_series *sr, const struct hq_row *r,
    struct hq_err *e)
{
	struct hq_rows *c = ctx;
	struct hq_chart_series *s = &c->cs[c->ch.nseries - 1];
	size_t *cap = &c->cap[c->ch.nseries - 1];
	struct hq_chart_point *pts = (struct hq_chart_point *)s->pts;

	(void)sr;
	(void)e;
	if (s->n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		pts = hq_xrealloc(pts, *cap * sizeof *pts);
		s->pts = pts;
	}
	pts[s->n++] = (struct hq_chart_point){ r->start, r->end, r->v[0] };
	return 0;
}

struct hq_rows *
hq_rows_new_chart(const char *title)
{
	struct hq_rows *c = hq_xcalloc(1, sizeof *c);

	c->sink = (struct hq_select_sink){ chart_series, chart_point, c };
	if (title)
		c->ch.title = c->title = hq_xstrdup(title);
	return c;
}

int
hq_rows_write_chart(const struct hq_rows *r, FILE *fp)
{
	return hq_svg_write(fp, &r->ch);
}

const struct hq_select_sink *
hq_rows_sink(struct hq_rows *r)
{
	return &r->sink;
}

void
hq_rows_free(struct hq_rows *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ch.nseries; i++) {
		free((void *)r->cs[i].name);
		free((void *)r->cs[i].unit);
		free((void *)r->cs[i].pts);
	}
	free(r->cs);
	free(r->cap);
	free(r->title);
	free(r->seen);
	free(r);
}

/* ---- nothing found ------------------------------------------------------ */

int
hq_rows_explain_none(const struct hq_rows *r, struct hq_store *s,
    const struct hq_select *sel, const char *filters, char *buf, size_t n,
    struct hq_err *e)
{
	char range[80], first[16], last[16];
	struct hq_list_extent x;
	struct hq_buf b = {0};

	hq_time_range_text(sel->from, sel->to, range, sizeof range);
	for (size_t i = 0; i < r->nseen; i++) {
		const struct hq_metric_ref *m = &r->seen[i];
		if (hq_list_extent(s, m, sel->from, sel->to, &x, e)) {
			hq_buf_free(&b);
			return -1;
		}
		if (b.len)
			hq_buf_putc(&b, '\n');
		hq_time_format_date(x.first, first, sizeof first);
		hq_time_format_date(x.last, last, sizeof last);
		if (!x.any)
			hq_buf_printf(&b, "no %s in the store (see hq-query --list)",
			    m->name);
		else if (x.n_range == 0)
			hq_buf_printf(&b, "no %s%s\n%s has data from %s to %s",
			    m->name, range, m->name, first, last);
		else if (filters && *filters)
			hq_buf_printf(&b, "%s has %lld samples%s\nbut no row passes %s",
			    m->name, (long long)x.n_range, range, filters);
		else
			hq_buf_printf(&b, "%s has %lld samples%s\nbut they make no rows",
			    m->name, (long long)x.n_range, range);
	}
	snprintf(buf, n, "%s", b.len ? b.data : "");
	hq_buf_free(&b);
	return 0;
}
