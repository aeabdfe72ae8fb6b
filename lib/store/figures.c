/*
 * figures — an import drops the kept athlete figures (workout_figures,
 * lib/analyze/athlete_cache.c) it could change, and only those: a
 * workout's figures read its own row, events, metadata and route (added
 * only with a new workout: a workout imported before skips its children)
 * and the heart-rate and cycling-power samples starting in its [start,
 * end). So the rows dropped are those of this import's workouts and of
 * the workouts that hold a new sample of those two kinds. Which recording
 * of an activity counts (workout_same) is chosen by each walk, not kept.
 * Rows of workouts gone go too (none go today).
 *
 * The new samples are those with id >= the import's first (rowids grow
 * inside the import's write lock, as the rollups use them); read by rowid
 * (the unary + keeps the planner off sample_key, which would read every
 * heart-rate sample of the store: 0.13 s more for a day's import beside
 * ten years of workouts, bench store of bench/athlete.sh),
 * grouped by hour, each hour's first and last start, adjacent hours
 * merged: the spans, a few for a nightly import. A span drops the
 * workouts that start at most the longest workout before it and end after
 * its first sample (the index on start). Nothing is read when no figures
 * are kept (a first import).
 */
#include "hq/ingest_int.h"

static const char spans_sql[] =
	"SELECT start / 3600 AS h, min(start), max(start) FROM sample"
	" WHERE id >= ?1 AND +metric_id IN (SELECT id FROM metric WHERE"
	" identifier IN ('HKQuantityTypeIdentifierHeartRate',"
	" 'HKQuantityTypeIdentifierCyclingPower'))"
	" GROUP BY h ORDER BY h";

static const char drop_sql[] =
	"DELETE FROM workout_figures WHERE workout_id IN (SELECT id FROM"
	" workout WHERE start <= ?2 AND start >= ?1 - ?3 AND end > ?1)";

static int
failed(struct hq_store *s, sqlite3_stmt *q, sqlite3_stmt *d,
    struct hq_err *e)
{
	hq_err_set(e, "%s: dropping the kept figures an import changes: %s",
	    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
	sqlite3_finalize(q);
	sqlite3_finalize(d);
	return -1;
}

/* Drop the figures of workouts with a sample in [a, b] (sample starts). */
static int
drop(sqlite3_stmt *d, int64_t a, int64_t b, int64_t longest)
{
	sqlite3_reset(d);
	sqlite3_bind_int64(d, 1, a);
	sqlite3_bind_int64(d, 2, b);
	sqlite3_bind_int64(d, 3, longest);
	return sqlite3_step(d) == SQLITE_DONE ? 0 : -1;
}

int
hq_ig_figures_stale(struct hq_store *s, int64_t first_import_id,
    int64_t first_sample_id, struct hq_err *e)
{
	sqlite3_stmt *q = NULL, *d = NULL;
	int64_t longest, a = 0, b = 0, h = 0;
	int rc, have = 0;

	if (hq_store_prepare(s, "SELECT EXISTS (SELECT 1 FROM workout_figures),"
	    " coalesce((SELECT max(end - start) FROM workout), 0)", &q, e))
		return -1;
	if (sqlite3_step(q) != SQLITE_ROW)
		return failed(s, q, d, e);
	rc = sqlite3_column_int(q, 0);
	longest = sqlite3_column_int64(q, 1);
	sqlite3_finalize(q);
	q = NULL;
	if (!rc)
		return 0;
	if (hq_store_prepare(s, "DELETE FROM workout_figures WHERE workout_id IN"
	    " (SELECT id FROM workout WHERE import_id >= ?1) OR workout_id NOT IN"
	    " (SELECT id FROM workout)", &q, e))
		return -1;
	sqlite3_bind_int64(q, 1, first_import_id);
	if (sqlite3_step(q) != SQLITE_DONE)
		return failed(s, q, d, e);
	sqlite3_finalize(q);
	q = NULL;
	if (hq_store_prepare(s, spans_sql, &q, e) ||
	    hq_store_prepare(s, drop_sql, &d, e)) {
		sqlite3_finalize(q);
		return -1;
	}
	sqlite3_bind_int64(q, 1, first_sample_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t hour = sqlite3_column_int64(q, 0);
		int64_t lo = sqlite3_column_int64(q, 1);
		int64_t hi = sqlite3_column_int64(q, 2);

		if (have && hour == h + 1) {
			b = hi;
		} else {
			if (have && drop(d, a, b, longest))
				return failed(s, q, d, e);
			a = lo;
			b = hi;
			have = 1;
		}
		h = hour;
	}
	if (rc != SQLITE_DONE || (have && drop(d, a, b, longest)))
		return failed(s, q, d, e);
	sqlite3_finalize(q);
	sqlite3_finalize(d);
	return 0;
}
