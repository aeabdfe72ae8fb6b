/* hq-correlate A --against all grows with the number of metrics, not with
 * its square (issue 23 item 2: resolving each name scanned every metric,
 * so 5,000 metrics took minutes). Counted, not timed: the SQLite virtual
 * machine's instructions (a progress handler every 64) over a store of N
 * metrics of 20 days each, for N and 4 N. Linear work reads about 4 times
 * as many; the scan of every metric per name read 16 times as many.
 * The count is the same under ASan and on a loaded machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "fixture.h"
#include "hq/correlate.h"
#include "hq/rollup.h"
#include "hq/select.h"
#include "tap.h"

static int
count_ops(void *arg)
{
	(*(long *)arg)++;
	return 0;
}

/* The instructions (in 64s) hq_corr_against("all") runs over a new store
 * of n custom metrics m0..m{n-1}, 20 days of one value each; -1 when the
 * store cannot be made or the ranking fails. *tested: the metrics paired. */
static long
against_ops(const char *dir, int n, size_t *tested)
{
	char path[300], sql[1024];
	struct hq_store *s;
	struct hq_err e;
	struct hq_select settings;
	struct hq_daily_store cs;
	struct hq_daily_span all = { INT64_MIN, INT64_MAX };
	struct hq_daily a;
	struct hq_corr_ranking rk;
	long ops = 0;
	int rc;

	snprintf(path, sizeof path, "%s/hq.db", dir);
	unlink(path);
	if (!(s = hq_store_open(path, HQ_STORE_CREATE, &e)))
		return -1;
	/* Days from 2024-03-01 noon UTC; values vary by metric and day. */
	snprintf(sql, sizeof sql,
	    "INSERT INTO source(id, name) VALUES (1, 'gen');"
	    "WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m "
	    "WHERE i + 1 < %d) INSERT INTO metric(id, identifier) "
	    "SELECT i + 1, 'm' || i FROM m;"
	    "WITH RECURSIVE d(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM d "
	    "WHERE j + 1 < 20) INSERT INTO sample(metric_id, source_id, start, "
	    "end, value) SELECT m.id, 1, 1709294400 + 86400 * j, "
	    "1709294400 + 86400 * j, (m.id * 7 + j * j * 3) %% 11 FROM metric m, d;",
	    n);
	fixture_sql(s, sql);
	if (hq_store_begin(s, &e) || hq_rollup_refresh(s, 1, &e) ||
	    hq_store_commit(s, &e)) {
		printf("# %s\n", e.msg);
		hq_store_close(s);
		return -1;
	}
	hq_select_init(&settings);
	cs = (struct hq_daily_store){ s, &settings };
	if (hq_daily_load(&cs, "m0", all, 0, 0, &a, &e)) {
		printf("# %s\n", e.msg);
		hq_store_close(s);
		return -1;
	}
	sqlite3_progress_handler(hq_store_db(s), 64, count_ops, &ops);
	rc = hq_corr_against(&cs, &a, "all", all, 0, 0, 10, 0, &rk, &e);
	sqlite3_progress_handler(hq_store_db(s), 0, NULL, NULL);
	if (rc)
		printf("# %s\n", e.msg);
	else {
		*tested = rk.n;
		hq_corr_ranking_free(&rk);
	}
	hq_daily_free(&a);
	hq_store_close(s);
	return rc ? -1 : ops;
}

int
main(void)
{
	char dir[] = "/tmp/hq-correlate-scale.XXXXXX";
	size_t t1 = 0, t4 = 0;
	long o1, o4;

	if (!mkdtemp(dir) || fixture_zone())
		return 1;
	o1 = against_ops(dir, 150, &t1);
	o4 = against_ops(dir, 600, &t4);
	ok(o1 > 0 && o4 > 0, "--against all over 150 and 600 metrics");
	is_int((long)t1, 149, "150 metrics: A and 149 others, each paired");
	is_int((long)t4, 599, "600 metrics: 599 paired");
	ok(o1 > 0 && o4 < 6 * o1, "4 times the metrics, at most 6 times the SQL "
	    "work (linear: 4; a scan per name: 16): %ld vs %ld", o4, o1);
	fixture_remove_store(dir);
	return done_testing();
}
