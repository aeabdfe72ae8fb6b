#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/plan.h"
#include "hq/time.h"

int
hq_plan_put(struct hq_store *s, const struct hq_plan_day *days, size_t n,
    long *replaced, struct hq_err *e)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
	char a[16], b[16];
	int rc = -1;

	*replaced = 0;
	if (n == 0)
		return 0;
	hq_time_format_day(days[0].day, a, sizeof a);
	hq_time_format_day(days[n - 1].day, b, sizeof b);
	if (hq_store_prepare(s, "DELETE FROM plan WHERE date >= ?1 AND "
	    "date <= ?2", &del, e) ||
	    hq_store_prepare(s, "INSERT INTO plan (date, type, duration_min, "
	    "load, if_, title) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &ins, e) ||
	    hq_store_run(s, del, (struct hq_bind[]){ HQ_TEXT(a), HQ_TEXT(b),
	    HQ_END }, "plan", e))
		goto out;
	*replaced = sqlite3_changes(hq_store_db(s));
	for (size_t i = 0; i < n; i++) {
		hq_time_format_day(days[i].day, a, sizeof a);
		if (hq_store_run(s, ins, (struct hq_bind[]){ HQ_TEXT(a),
		    HQ_TEXT(days[i].type), HQ_REAL(days[i].minutes),
		    HQ_REAL(days[i].load), HQ_OPT_REAL(days[i].if_),
		    HQ_OPT_TEXT(days[i].title[0] ? days[i].title : NULL), HQ_END },
		    "plan", e))
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return rc;
}

int
hq_plan_get(struct hq_store *s, int64_t from, int64_t to,
    struct hq_plan_day **out, size_t *n, struct hq_err *e)
{
	sqlite3_stmt *st = NULL;
	char a[16], b[16];
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	hq_time_format_day(from, a, sizeof a);
	hq_time_format_day(to, b, sizeof b);
	if (hq_store_prepare(s, "SELECT date, type, duration_min, load, if_, "
	    "title FROM plan WHERE date >= ?1 AND date <= ?2 ORDER BY date", &st,
	    e))
		return -1;
	hq_store_bind(st, (struct hq_bind[]){ HQ_TEXT(a), HQ_TEXT(b), HQ_END });
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(st, 0);
		const char *t = (const char *)sqlite3_column_text(st, 1);
		const char *ti = (const char *)sqlite3_column_text(st, 5);
		int y, m, dd;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*out = hq_xrealloc(*out, cap * sizeof **out);
		}
		struct hq_plan_day *p = &(*out)[(*n)++];
		memset(p, 0, sizeof *p);
		if (!d || sscanf(d, "%d-%d-%d", &y, &m, &dd) != 3)
			y = 1970, m = 1, dd = 1;
		p->day = hq_time_days_from_civil(y, m, dd);
		snprintf(p->type, sizeof p->type, "%s", t ? t : "");
		p->minutes = sqlite3_column_double(st, 2);
		p->load = sqlite3_column_double(st, 3);
		p->if_ = sqlite3_column_type(st, 4) == SQLITE_NULL ? NAN :
		    sqlite3_column_double(st, 4);
		snprintf(p->title, sizeof p->title, "%s", ti ? ti : "");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "store: plan: %s", sqlite3_errstr(rc));
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}
