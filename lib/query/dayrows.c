/*
 * dayrows — a file of hq-query day rows as a daily series (daily.h:
 * hq_daily_read): hq-correlate's file operands.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hq/buf.h"
#include "hq/daily.h"
#include "hq/input.h"
#include "hq/stats.h"
#include "hq/term.h"
#include "hq/time.h"

/* Whether s holds a control character: text from a file that messages,
 * labels and tables would send to a terminal. */
static int
has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* "2024-12-01" as a day number; -1 when it is not a date. */
static int
parse_day(const char *s, int64_t *day)
{
	int y, m, d, k = 0;

	if (!s || strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &k) != 3 ||
	    k != 10 || m < 1 || m > 12 || d < 1 || d > hq_time_days_in_month(y, m))
		return -1;
	*day = hq_time_days_from_civil(y, m, d);
	return 0;
}

/* What the first row with a value says about the file: unit, aggregate
 * (the key after "value", as hq-query writes rows), the numeric fields. */
static int
first_row(struct hq_daily *s, const cJSON *o, struct hq_err *e)
{
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(o, "unit"), *f;
	int after_value = 0;

	if (cJSON_IsString(unit))
		snprintf(s->unit, sizeof s->unit, "%s", has_control(unit->valuestring)
		    ? "?" : unit->valuestring);
	cJSON_ArrayForEach(f, o) {
		struct hq_agg a;
		if (!cJSON_IsNumber(f) || !f->string || has_control(f->string) ||
		    strlen(f->string) >= sizeof s->fields[0])
			continue;
		if (strcmp(f->string, "value") == 0) {
			after_value = 1;
			continue;
		}
		if (after_value == 1 && hq_stats_parse_agg(f->string, &a) == 0)
			snprintf(s->agg, sizeof s->agg, "%s", a.name);
		after_value = 2;
		if (s->nfields == HQ_DAILY_MAX_FIELDS) {
			hq_err_set(e, "more than %d numeric fields in a row",
			    HQ_DAILY_MAX_FIELDS);
			return -1;
		}
		s->fields = hq_xrealloc(s->fields, (s->nfields + 1) * sizeof *s->fields);
		snprintf(s->fields[s->nfields++], sizeof s->fields[0], "%s", f->string);
	}
	return 0;
}

/* One line: 1 a day added, 0 nothing (a blank line, a null value), -1
 * with e saying what is wrong (the caller adds file:line). */
static int
file_row(struct hq_daily *s, const char *line, size_t *cap,
    struct hq_err *e)
{
	cJSON *o;
	const char *metric, *period;
	const cJSON *value;
	int64_t day;
	int rc = -1;

	while (*line == ' ' || *line == '\t' || *line == '\r')
		line++;
	if (!*line)
		return 0;
	o = cJSON_Parse(line);
	if (!cJSON_IsObject(o)) {
		hq_err_set(e, "not a JSON object; hq-correlate reads hq-query's rows "
		    "as JSON lines (hq-query METRIC --by day --format jsonl)");
		goto out;
	}
	metric = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "metric"));
	period = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "period"));
	value = cJSON_GetObjectItemCaseSensitive(o, "value");
	if (!metric || !*metric || !period || !value) {
		hq_err_set(e, "a row needs metric, period and value, as hq-query "
		    "--by day writes them");
		goto out;
	}
	if (strlen(metric) >= sizeof s->metric) {
		hq_err_set(e, "a metric name longer than %zu bytes", sizeof s->metric - 1);
		goto out;
	}
	if (has_control(metric)) {
		/* it would reach a terminal in every message */
		hq_err_set(e, "a control character in the metric's name");
		goto out;
	}
	if (!s->metric[0])
		snprintf(s->metric, sizeof s->metric, "%s", metric);
	else if (strcmp(s->metric, metric) != 0) {
		char a[HQ_TERM_EXCERPT_SIZE], b[HQ_TERM_EXCERPT_SIZE];
		hq_term_excerpt(a, sizeof a, s->metric);
		hq_term_excerpt(b, sizeof b, metric);
		hq_err_set(e, "rows of two metrics ('%s', '%s'); give one metric per "
		    "file (hq-query %s --by day > %s.jsonl)", a, b, b, b);
		goto out;
	}
	if (parse_day(period, &day)) {
		char p[HQ_TERM_EXCERPT_SIZE];
		hq_err_set(e, "period '%s' is not a day; make the rows with "
		    "hq-query --by day", hq_term_excerpt(p, sizeof p, period));
		goto out;
	}
	if (cJSON_IsNull(value)) {
		rc = 0;
		goto out;
	}
	if (!cJSON_IsNumber(value) || !isfinite(value->valuedouble)) {
		hq_err_set(e, "value is not a number");
		goto out;
	}
	if (s->n == 0 && !s->fields && first_row(s, o, e))
		goto out;
	if (s->n == HQ_DAILY_MAX_DAYS) {
		hq_err_set(e, "more than %d days", HQ_DAILY_MAX_DAYS);
		goto out;
	}
	size_t had = *cap;
	hq_daily_push(s, cap, day, value->valuedouble);
	if (*cap != had)
		s->fv = hq_xrealloc(s->fv, (*cap * s->nfields + 1) * sizeof *s->fv);
	for (size_t j = 0; j < s->nfields; j++) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, s->fields[j]);
		s->fv[(s->n - 1) * s->nfields + j] = cJSON_IsNumber(f) ? f->valuedouble : NAN;
	}
	rc = 1;
out:
	cJSON_Delete(o);
	return rc;
}

/* Rows in day order, each day once (the second of a day is an error). */
static int
sort_rows(struct hq_daily *s, const long *lines, const char *name,
    struct hq_err *e)
{
	size_t *o = hq_xcalloc(s->n + 1, sizeof *o);
	int64_t *days = hq_xcalloc(s->n + 1, sizeof *days);
	double *v = hq_xcalloc(s->n + 1, sizeof *v);
	double *fv = hq_xcalloc(s->n * s->nfields + 1, sizeof *fv);
	int rc = 0;

	/* Day numbers are exact as doubles; rows are in line order, so a
	 * stable sort keeps a day's first line first. */
	for (size_t i = 0; i < s->n; i++)
		v[i] = (double)s->days[i];
	hq_stats_order(v, s->n, o);
	for (size_t k = 0; k < s->n; k++) {
		if (k && s->days[o[k]] == s->days[o[k - 1]]) {
			char date[16];
			hq_time_format_day(s->days[o[k]], date, sizeof date);
			hq_err_set(e, "%s:%ld: a second row for %s (line %ld has it)",
			    name, lines[o[k]], date, lines[o[k - 1]]);
			rc = -1;
			break;
		}
		days[k] = s->days[o[k]];
		v[k] = s->v[o[k]];
		memcpy(fv + k * s->nfields, s->fv + o[k] * s->nfields,
		    s->nfields * sizeof *fv);
	}
	free(s->days);
	free(s->v);
	free(s->fv);
	s->days = days;
	s->v = v;
	s->fv = fv;
	free(o);
	return rc;
}

/* What a file's metric means, as the store would say it. */
static void
meaning(struct hq_daily *s)
{
	const struct hq_metric_info *info = hq_catalog_lookup(s->metric);

	if (info) {
		snprintf(s->identifier, sizeof s->identifier, "%s", info->identifier);
		s->nights = info->kind == HQ_KIND_SLEEP;
	} else {
		snprintf(s->identifier, sizeof s->identifier, "%s", s->metric);
	}
	s->agg_default = hq_daily_agg_is_default(info ? info->kind
	    : hq_catalog_guess_kind(s->metric), s->agg);
}

int
hq_daily_read(const char *path, struct hq_daily *s, struct hq_err *e)
{
	struct hq_input in;
	struct hq_input_lines ln;
	long *lines = NULL;
	size_t cap = 0, lcap = 0;
	int rc, status = -1;

	memset(s, 0, sizeof *s);
	if (hq_input_open(&in, path, e))
		return -1;
	hq_input_lines_start(&ln, &in, HQ_DAILY_MAX_LINE);
	while ((rc = hq_input_lines_next(&ln, e)) > 0) {
		struct hq_err le;
		if (ln.too_long) {
			hq_err_set(e, "%s:%ld: a line longer than %d bytes", in.name,
			    ln.lineno, HQ_DAILY_MAX_LINE);
			goto out;
		}
		rc = file_row(s, ln.line.data ? ln.line.data : "", &cap, &le);
		if (rc < 0) {
			hq_err_set(e, "%s:%ld: %s", in.name, ln.lineno, le.msg);
			goto out;
		}
		if (rc > 0) {
			if (s->n > lcap) {
				lcap = cap;
				lines = hq_xrealloc(lines, lcap * sizeof *lines);
			}
			lines[s->n - 1] = ln.lineno;
		}
	}
	if (rc < 0)
		goto out;
	if (!s->metric[0]) {
		hq_err_set(e, "%s: no rows", in.name);
		goto out;
	}
	status = sort_rows(s, lines, in.name, e);
	s->path = path;
	if (status == 0 && s->n)   /* every value null: the metric is all there is */
		meaning(s);
out:
	hq_input_lines_end(&ln);
	hq_input_close(&in);
	free(lines);
	if (status)
		hq_daily_free(s);
	return status;
}
