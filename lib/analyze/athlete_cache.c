/* The per-workout figures kept between runs (athlete_cache.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete_cache.h"
#include "hq/buf.h"
#include "hq/store.h"

enum { C_STAMP, C_GET, C_N };

static const struct hq_store_sql sqls[C_N] = {
	[C_STAMP] = { "SELECT coalesce(max(id), 0) FROM import",
	    "reading the latest import" },
	[C_GET] = { "SELECT paused_s, hr_source, power_source, nhr, hr_max,"
	    " hr_sample_max, np, power_s, route_gain_m, ascended_m, bins"
	    " FROM workout_figures WHERE workout_id = ?1",
	    "reading a workout's kept figures" },
};

#define PUT_SQL "INSERT OR REPLACE INTO workout_figures(workout_id, stamp," \
	" paused_s, hr_source, power_source, nhr, hr_max, hr_sample_max, np," \
	" power_s, route_gain_m, ascended_m, bins)" \
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"

struct hq_athcache {
	struct hq_store *s;
	sqlite3_stmt *st[C_N];
	int64_t stamp;
	int tried;                  /* the writer was tried */
	sqlite3 *w;                 /* the writer; NULL: cannot write */
	sqlite3_stmt *put;
	char *werr;                 /* why a put or the commit failed */
};

static int64_t
stamp_of(struct hq_store *s, sqlite3_stmt **st, struct hq_err *e)
{
	return hq_store_query_sql(s, &sqls[C_STAMP], st, (struct hq_bind[]){
	    HQ_END }, e);
}

struct hq_athcache *
hq_athcache_open(struct hq_store *s, struct hq_err *e)
{
	struct hq_athcache *c = hq_xcalloc(1, sizeof *c);

	c->s = s;
	if ((c->stamp = stamp_of(s, &c->st[C_STAMP], e)) < 0) {
		hq_athcache_close(c);
		return NULL;
	}
	return c;
}

int
hq_athcache_get(struct hq_athcache *c, int64_t id,
    struct hq_athlete_summary *sum, struct hq_err *e)
{
	sqlite3_stmt *q = hq_store_stmt(c->s, &sqls[C_GET], &c->st[C_GET], e);
	const void *blob;
	size_t len;
	int rc;

	memset(sum, 0, sizeof *sum);
	if (!q)
		return -1;
	sqlite3_reset(q);
	hq_store_bind(q, (struct hq_bind[]){ HQ_INT(id), HQ_END });
	rc = sqlite3_step(q);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(q);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		hq_err_set(e, "%s: %s: %s", hq_store_filename(c->s),
		    sqls[C_GET].what, sqlite3_errmsg(hq_store_db(c->s)));
		sqlite3_reset(q);
		return -1;
	}
	blob = sqlite3_column_blob(q, 10);
	len = (size_t)sqlite3_column_bytes(q, 10);
	if (len % sizeof *sum->bins) {
		sqlite3_reset(q);    /* not ours: computed again */
		return 0;
	}
	sum->id = id;
	sum->paused_s = sqlite3_column_int64(q, 0);
	sum->hr_source = sqlite3_column_int64(q, 1);
	sum->power_source = sqlite3_column_int64(q, 2);
	sum->nhr = (size_t)sqlite3_column_int64(q, 3);
	sum->hr_max = hq_store_col_num(q, 4);
	sum->hr_sample_max = hq_store_col_num(q, 5);
	sum->np = hq_store_col_num(q, 6);
	sum->power_s = sqlite3_column_double(q, 7);
	sum->route_gain_m = hq_store_col_num(q, 8);
	sum->ascended_m = hq_store_col_num(q, 9);
	sum->nbins = len / sizeof *sum->bins;
	sum->bins = hq_xmalloc(len ? len : 1);
	if (len)
		memcpy(sum->bins, blob, len);
	sqlite3_reset(q);
	return 1;
}

/* The store's latest import id as the writer sees it, -1. */
static int64_t
writer_stamp(sqlite3 *w)
{
	sqlite3_stmt *q;
	int64_t v = -1;

	if (sqlite3_prepare_v2(w, "SELECT coalesce(max(id), 0) FROM import", -1,
	    &q, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

/* The writer: a connection of its own, in one transaction until close.
 * Only when no import came since the stamp was read: the summaries were
 * read from the store of that stamp, and an import that came since has
 * dropped the rows it changes before these would be written. Once in the
 * transaction no import can come until close. */
int
hq_athcache_writable(struct hq_athcache *c)
{
	if (c->tried)
		return c->w != NULL;
	c->tried = 1;
	if (sqlite3_open_v2(hq_store_filename(c->s), &c->w,
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		goto no;
	/* Never wait long for an import's lock: the figures are computed
	 * anyway, and the next run keeps them. */
	sqlite3_busy_timeout(c->w, 200);
	if (sqlite3_exec(c->w, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		goto no;
	if (writer_stamp(c->w) != c->stamp ||
	    sqlite3_prepare_v2(c->w, PUT_SQL, -1, &c->put, NULL) != SQLITE_OK) {
		sqlite3_exec(c->w, "ROLLBACK", NULL, NULL, NULL);
		goto no;
	}
	return 1;
no:
	sqlite3_close(c->w);
	c->w = NULL;
	return 0;
}

static void
bind_num(sqlite3_stmt *q, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_double(q, i, v);
}

void
hq_athcache_put(struct hq_athcache *c, const struct hq_athlete_summary *sum)
{
	sqlite3_stmt *q;

	if (!hq_athcache_writable(c))
		return;
	q = c->put;
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, sum->id);
	sqlite3_bind_int64(q, 2, c->stamp);
	sqlite3_bind_int64(q, 3, sum->paused_s);
	sqlite3_bind_int64(q, 4, sum->hr_source);
	sqlite3_bind_int64(q, 5, sum->power_source);
	sqlite3_bind_int64(q, 6, (int64_t)sum->nhr);
	bind_num(q, 7, sum->hr_max);
	bind_num(q, 8, sum->hr_sample_max);
	bind_num(q, 9, sum->np);
	sqlite3_bind_double(q, 10, sum->power_s);
	bind_num(q, 11, sum->route_gain_m);
	bind_num(q, 12, sum->ascended_m);
	sqlite3_bind_blob(q, 13, sum->bins, (int)(sum->nbins * sizeof
	    *sum->bins), SQLITE_STATIC);
	if (sqlite3_step(q) != SQLITE_DONE) {
		/* A full disk: give the rest up, keep nothing. */
		c->werr = hq_xstrdup(sqlite3_errmsg(c->w));
		sqlite3_finalize(c->put);
		c->put = NULL;
		sqlite3_exec(c->w, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(c->w);
		c->w = NULL;
		return;
	}
	sqlite3_reset(q);
}

int
hq_athcache_finish(struct hq_athcache *c, struct hq_err *e)
{
	int rc = 0;

	if (!c)
		return 0;
	hq_store_finalize(c->st, C_N);
	if (c->w) {
		sqlite3_finalize(c->put);
		if (sqlite3_exec(c->w, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			if (!c->werr)
				c->werr = hq_xstrdup(sqlite3_errmsg(c->w));
			sqlite3_exec(c->w, "ROLLBACK", NULL, NULL, NULL);
		}
		/* Into the store file now and the -wal file emptied, unless a
		 * reader holds it back (then not waiting): a reader opening a
		 * store with a -wal file of frames pays for it on every run
		 * (bench/workouts-list.sh: 1.15x against 1.02x). */
		sqlite3_busy_timeout(c->w, 0);
		sqlite3_wal_checkpoint_v2(c->w, NULL, SQLITE_CHECKPOINT_TRUNCATE,
		    NULL, NULL);
		sqlite3_close(c->w);
	}
	if (c->werr) {
		hq_err_set(e, "%s: keeping the workouts' figures: %s",
		    hq_store_filename(c->s), c->werr);
		rc = -1;
	}
	free(c->werr);
	free(c);
	return rc;
}

void
hq_athcache_close(struct hq_athcache *c)
{
	struct hq_err e;

	hq_athcache_finish(c, &e);
}

int
hq_athcache_max_hr(struct hq_store *s, double *v, struct hq_err *e)
{
	sqlite3_stmt *q;
	int rc, all = 0;

	*v = NAN;
	/* A kept row is good (an import drops those it changes, and those of
	 * workouts gone): every workout kept when the counts agree. (The
	 * index on hr_sample_max answers both.) */
	if (hq_store_prepare(s, "SELECT (SELECT count(*) FROM workout) ="
	    " (SELECT count(*) FROM workout_figures),"
	    " (SELECT max(hr_sample_max) FROM workout_figures"
	    "  WHERE hr_sample_max BETWEEN ?1 AND ?2)", &q, e))
		return -1;
	/* A row kept before these bounds held (a file's 60,000) is no
	 * maximum either. */
	sqlite3_bind_double(q, 1, HQ_ATHLETE_HR_LO);
	sqlite3_bind_double(q, 2, HQ_ATHLETE_HR_HI);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		all = sqlite3_column_int(q, 0);
		*v = hq_store_col_num(q, 1);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW) {
		hq_err_set(e, "%s: reading the kept figures: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return all;
}
