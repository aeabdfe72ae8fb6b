#include <stdint.h>
#include <stdio.h>

#include "hq/catalog.h"
#include "hq/horizon.h"
#include "hq/time.h"

/* One integer (or NULL: *none) from st, bound already; st finalized. */
static int
query_int(struct hq_store *s, sqlite3_stmt *st, int64_t *v, int *none,
    const char *what, struct hq_err *e)
{
	int rc = sqlite3_step(st);

	*none = rc != SQLITE_ROW || sqlite3_column_type(st, 0) == SQLITE_NULL;
	*v = *none ? 0 : sqlite3_column_int64(st, 0);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		hq_err_set(e, "%s: %s: %s", hq_store_filename(s), what,
		    sqlite3_errmsg(hq_store_db(s)));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}

int
hq_horizon_summary_day(const unsigned char *text, int64_t *day)
{
	int y, m, d;
	char end;

	if (!text || sscanf((const char *)text, "%4d-%2d-%2d%c", &y, &m, &d,
	    &end) != 3 || m < 1 || m > 12 || d < 1 ||
	    d > hq_time_days_in_month(y, m))
		return -1;
	*day = hq_time_days_from_civil(y, m, d);
	return 0;
}

int
hq_horizon_read(struct hq_store *s, int64_t now, struct hq_horizon *h,
    struct hq_err *e)
{
	/* Each metric's newest start by the index on (metric_id, start); a
	 * pruned store's, and its pruned samples' newest (store.h). */
	static const char *samples = "SELECT max((SELECT max(start) FROM sample "
	    "WHERE metric_id = metric.id)) FROM metric";
	static const char *pruned = "SELECT max(t) FROM (SELECT (SELECT "
	    "max(start) FROM main.sample WHERE metric_id = metric.id) AS t FROM "
	    "metric UNION ALL SELECT max(newest) FROM main." HQ_STORE_PRUNED_METRIC ")";
	sqlite3_stmt *st;
	int64_t t, d;
	int no, summed;

	h->today = hq_time_local_day(now);
	if ((summed = hq_store_pruned_summed(s, e)) < 0 ||
	    hq_store_prepare(s, summed ? pruned : samples, &st, e) ||
	    query_int(s, st, &t, &no, "the newest sample", e))
		return -1;
	h->none = no;
	h->newest = no ? 0 : hq_time_local_day(t);
	if (hq_store_prepare(s, "SELECT max(date) FROM activity_summary", &st, e))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW &&
	    hq_horizon_summary_day(sqlite3_column_text(st, 0), &d) == 0 &&
	    (h->none || d > h->newest)) {
		h->newest = d;
		h->none = 0;
	}
	sqlite3_finalize(st);
	h->last = h->none || h->newest > h->today ? h->today : h->newest;
	return 0;
}

void
hq_horizon_after(const struct hq_horizon *h, int64_t day, char *buf, size_t n)
{
	char d[16], last[16];

	hq_time_format_day(day, d, sizeof d);
	hq_time_format_day(h->last, last, sizeof last);
	if (h->none || h->newest >= h->today)
		snprintf(buf, n, "%s is after today (%s)", d, last);
	else
		snprintf(buf, n, "%s is after the newest data in the store (%s)",
		    d, last);
}

int
hq_horizon_metric_newest(struct hq_store *s, const char *metric,
    int64_t *start, int *none, struct hq_err *e)
{
	const struct hq_metric_info *m = hq_catalog_lookup(metric);
	sqlite3_stmt *st;
	int64_t id;

	*none = 1;
	*start = 0;
	if ((id = hq_store_metric_find(s, m ? m->identifier : metric, e)) < 0)
		return -1;
	if (id == 0)
		return 0;
	/* The newest sample by the index, and when it ended: the night's
	 * last stage, the same instant for a measurement. */
	if (hq_store_prepare(s, "SELECT end FROM sample WHERE metric_id = ? "
	    "ORDER BY start DESC LIMIT 1", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	return query_int(s, st, start, none, "the newest sample", e);
}

int
hq_horizon_import_newest(struct hq_store *s, int64_t *t, int *none,
    struct hq_err *e)
{
	sqlite3_stmt *st;

	if (hq_store_prepare(s, "SELECT max(coalesce(nullif(export_date, 0), "
	    "started)) FROM import", &st, e))
		return -1;
	return query_int(s, st, t, none, "the newest import", e);
}
