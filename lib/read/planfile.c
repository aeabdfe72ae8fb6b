#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/csvline.h"
#include "hq/input.h"
#include "hq/planfile.h"
#include "hq/time.h"

enum { C_DATE, C_TYPE, C_MIN, C_LOAD, C_IF, C_TITLE, C_N };
static const char *const names[] = { "date", "type", "duration_min", "load",
	"if", "title", NULL };

/* A number field: 0, 1 absent, -1 with e. */
static int
number(const char *what, const char *s, double *v, struct hq_err *e)
{
	if (!s || !*s)
		return 1;
	if (hq_csvline_number(s, v) || !isfinite(*v)) {
		hq_err_set(e, "%s '%.40s' is not a number", what, s);
		return -1;
	}
	return 0;
}

/* One day's fields (NULL: absent) checked into p. 0, or -1 with e. */
static int
fill(const char *f[C_N], const double *num[C_N], struct hq_plan_day *p,
    struct hq_err *e)
{
	double v[C_N];
	int has[C_N], y, m, d, k;
	char suggest[64], tail;
	const char *id;

	memset(p, 0, sizeof *p);
	p->if_ = NAN;
	if (!f[C_DATE] || sscanf(f[C_DATE], "%4d-%2d-%2d%c", &y, &m, &d,
	    &tail) != 3 || strlen(f[C_DATE]) != 10 || m < 1 || m > 12 || d < 1 ||
	    d > hq_time_days_in_month(y, m)) {
		hq_err_set(e, "date '%.40s': expected YYYY-MM-DD", f[C_DATE] ?
		    f[C_DATE] : "");
		return -1;
	}
	if (y < HQ_PLAN_FIRST_YEAR || y > HQ_PLAN_LAST_YEAR) {
		hq_err_set(e, "date %s: a plan's days are in the years %d to %d",
		    f[C_DATE], HQ_PLAN_FIRST_YEAR, HQ_PLAN_LAST_YEAR);
		return -1;
	}
	p->day = hq_time_days_from_civil(y, m, d);
	if (!f[C_TYPE] || !*f[C_TYPE]) {
		hq_err_set(e, "no type (running, cycling, swimming...)");
		return -1;
	}
	if (!(id = hq_workout_type_identifier(f[C_TYPE], suggest, sizeof suggest))) {
		hq_err_set(e, "type '%.40s': unknown workout type%s%s%s", f[C_TYPE],
		    *suggest ? " (did you mean " : " (try running, cycling, "
		    "swimming, walking, strength", suggest, ")");
		return -1;
	}
	snprintf(p->type, sizeof p->type, "%s", id);
	for (int c = C_MIN; c <= C_IF; c++) {
		if (num[c]) {
			v[c] = *num[c];
			has[c] = isfinite(v[c]);
			if (!has[c]) {
				hq_err_set(e, "%s is not a number", names[c]);
				return -1;
			}
		} else if ((k = number(names[c], f[c], &v[c], e)) < 0)
			return -1;
		else
			has[c] = k == 0;
	}
	if (!has[C_MIN] || !(v[C_MIN] > 0) || v[C_MIN] > HQ_PLAN_MAX_MIN) {
		hq_err_set(e, "duration_min: minutes above 0, at most %d",
		    HQ_PLAN_MAX_MIN);
		return -1;
	}
	p->minutes = v[C_MIN];
	if (has[C_LOAD] == has[C_IF]) {
		hq_err_set(e, "%s: give load or if", has[C_LOAD] ? "both load and if" :
		    "neither load nor if");
		return -1;
	}
	if (has[C_LOAD]) {
		if (!(v[C_LOAD] >= 0) || v[C_LOAD] > HQ_PLAN_MAX_LOAD) {
			hq_err_set(e, "load %g: from 0 to %d (an hour at threshold "
			    "is 100)", v[C_LOAD], HQ_PLAN_MAX_LOAD);
			return -1;
		}
		p->load = v[C_LOAD];
	} else {
		if (!(v[C_IF] > 0) || v[C_IF] > HQ_PLAN_MAX_IF) {
			hq_err_set(e, "if %g: an intensity factor above 0, at most %g",
			    v[C_IF], HQ_PLAN_MAX_IF);
			return -1;
		}
		p->if_ = v[C_IF];
		p->load = p->minutes / 60 * v[C_IF] * v[C_IF] * 100;
	}
	if (f[C_TITLE]) {
		if (strlen(f[C_TITLE]) > HQ_PLAN_MAX_TITLE) {
			hq_err_set(e, "title: more than %d bytes", HQ_PLAN_MAX_TITLE);
			return -1;
		}
		for (const unsigned char *q = (const unsigned char *)f[C_TITLE]; *q;
		    q++)
			if (*q < 0x20 || *q == 0x7f) {
				hq_err_set(e, "title: a control character");
				return -1;
			}
		snprintf(p->title, sizeof p->title, "%s", f[C_TITLE]);
	}
	return 0;
}

/* A JSON line's object into p. */
static int
json_line(const char *line, struct hq_plan_day *p, struct hq_err *e)
{
	cJSON *o = cJSON_Parse(line), *it;
	const char *f[C_N] = { 0 };
	const double *num[C_N] = { 0 };
	double v[C_N];
	int rc;

	if (!cJSON_IsObject(o)) {
		hq_err_set(e, "not a JSON object");
		cJSON_Delete(o);
		return -1;
	}
	for (int c = 0; c < C_N; c++) {
		if (!(it = cJSON_GetObjectItemCaseSensitive(o, names[c])) ||
		    cJSON_IsNull(it))
			continue;
		if (c >= C_MIN && c <= C_IF && cJSON_IsNumber(it)) {
			v[c] = it->valuedouble;
			num[c] = &v[c];
		} else if (cJSON_IsString(it)) {
			f[c] = it->valuestring;
		} else {
			hq_err_set(e, "%s: expected a %s", names[c], c >= C_MIN &&
			    c <= C_IF ? "number" : "string");
			cJSON_Delete(o);
			return -1;
		}
	}
	rc = fill(f, num, p, e);
	cJSON_Delete(o);
	return rc;
}

static int
by_day(const void *a, const void *b)
{
	const struct hq_plan_day *x = a, *y = b;

	return (x->day > y->day) - (x->day < y->day);
}

/* A CSV line into p: 1, 0 for the header (read into t), or -1 with e. */
static int
csv_line(struct hq_csvline_table *t, struct hq_buf *line,
    struct hq_plan_day *p, struct hq_err *e)
{
	const char *f[C_N];
	const double *num[C_N] = { 0 };
	int r = hq_csvline_table_line(t, line->data, line->len, e);

	if (r <= 0)
		return r;
	if (hq_csvline_table_get(t, C_LOAD) == NULL &&
	    hq_csvline_table_get(t, C_IF) == NULL) {
		hq_err_set(e, "the header needs a column load or if");
		return -1;
	}
	for (int c = 0; c < C_N; c++)
		f[c] = hq_csvline_table_get(t, c);
	return fill(f, num, p, e) ? -1 : 1;
}

/* The days d[0..k) sorted; a day planned twice: 1 with e saying so and
 * *line the first of its two lines, else 0. */
static int
twice(struct hq_plan_day *d, size_t k, long *line, struct hq_err *e)
{
	qsort(d, k, sizeof *d, by_day);
	for (size_t i = 1; i < k; i++)
		if (d[i].day == d[i - 1].day) {
			char day[16];
			hq_time_format_day(d[i].day, day, sizeof day);
			hq_err_set(e, "%s is planned twice (line %ld too): one "
			    "workout a day", day, d[i].line < d[i - 1].line ?
			    d[i - 1].line : d[i].line);
			*line = d[i].line < d[i - 1].line ? d[i].line : d[i - 1].line;
			return 1;
		}
	return 0;
}

int
hq_planfile_read(const char *path, struct hq_plan_day **days, size_t *n,
    struct hq_err *e)
{
	struct hq_input in;
	struct hq_input_lines l;
	struct hq_csvline_table t = { .names = names, .nrequired = 3 };
	struct hq_plan_day *d = NULL;
	struct hq_err le;
	size_t cap = 0, k = 0;
	int rc, json = -1, bad = 0;
	long line = 0;

	*days = NULL;
	*n = 0;
	if (hq_input_open(&in, path, e))
		return -1;
	hq_input_lines_start(&l, &in, HQ_PLAN_MAX_LINE);
	while ((rc = hq_input_lines_next(&l, e)) > 0) {
		char *p = l.line.data;
		line = l.lineno;
		if (l.too_long) {
			hq_err_set(&le, "line longer than %d bytes", HQ_PLAN_MAX_LINE);
			bad = 1;
			break;
		}
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			continue;
		if (json < 0)
			json = *p == '{' || strncmp(p, "\xef\xbb\xbf{", 4) == 0;
		if (k == cap) {
			if (k == HQ_PLAN_MAX_DAYS) {
				hq_err_set(&le, "more than %d days in a plan",
				    HQ_PLAN_MAX_DAYS);
				bad = 1;
				break;
			}
			cap = cap ? 2 * cap : 64;
			cap = cap > HQ_PLAN_MAX_DAYS ? HQ_PLAN_MAX_DAYS : cap;
			d = hq_xrealloc(d, cap * sizeof *d);
		}
		if (json) {
			if (json_line(p[0] == '{' ? p : p + 3, &d[k], &le)) {
				bad = 1;
				break;
			}
		} else {
			int r = csv_line(&t, &l.line, &d[k], &le);
			if (r < 0) {
				bad = 1;
				break;
			}
			if (r == 0)
				continue;
		}
		d[k++].line = l.lineno;
	}
	hq_input_lines_end(&l);
	hq_input_close(&in);
	if (!bad && rc == 0 && k == 0 && json < 0) {
		hq_err_set(&le, "no planned days");
		bad = 1;
		line = 0;
	}
	if (!bad && rc == 0 && k == 0 && !json) {
		hq_err_set(&le, "no planned days under the header");
		bad = 1;
	}
	if (!bad && rc == 0 && twice(d, k, &line, &le))
		bad = 1;
	if (bad || rc < 0) {
		if (bad && line)
			hq_err_set(e, "%s:%ld: %s", path, line, le.msg);
		else if (bad)
			hq_err_set(e, "%s: %s", path, le.msg);
		free(d);
		return -1;
	}
	*days = d;
	*n = k;
	return 0;
}
