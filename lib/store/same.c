/*
 * same — the same activity recorded twice (hq-ingest(1), "THE SAME
 * ACTIVITY RECORDED TWICE"; HACKING.md): which recordings yield
 * (workout_same) and what a counted one takes from those that yield to it
 * (workout_fill), brought up to date at each import's commit for what the
 * import touched, in a bounded amount of memory.
 *
 * The rule. Two workouts are the same activity when their times overlap
 * by more than half of the shorter one, unless one import and one source
 * wrote both (the legs of a multisport file). A recording covers the
 * distinct seconds at which its own source has a heart-rate sample inside
 * [start, end]; recordings rank by that, then the longer, then the one
 * from a device file, then the older row (the smaller id). Best first,
 * each is counted unless it is the same activity as one already counted:
 * then it yields to the one of those it overlaps most (on a tie, the
 * best-ranked). A counted recording takes
 * each of distance, energy, ascent, route and cycling power that it lacks
 * from the best-ranked recording that yields to it, overlaps it by more
 * than half of the longer of the two and has it.
 *
 * The work. Only the workouts an import could change are settled again
 * (the seeds): its own, those holding one of its heart-rate or power
 * samples (rank, power), and every workout after a change of the rule
 * (workout_same_todo). They are taken best first (a queue ordered by
 * rank); one whose standing changes (counted or not) puts the partners it
 * outranks on the queue, and they are settled after it: the whole of a
 * chain, nothing past it. A partner's rank is read once a run. A seed's
 * partners are found through the index on start (of two that overlap, one
 * starts inside the other or holds its start: at most the longest workout
 * before it); a group of seeds of one import and source that nothing else
 * overlaps (a file's legs, however many) is settled at once, having none.
 * Coverage is counted for many recordings at once: the distinct seconds of
 * their sources' heart rates in each stretch of time they cover, numbered
 * in order, so that a recording's count is the difference of two numbers
 * (2,000 recordings over one hour of samples read the hour once, not 2,000
 * times). Everything in between lives in temporary tables, which are
 * files (temp_store = FILE, as for activity.c's points), so memory stays
 * what SQLite's page caches hold.
 */
#include <stdint.h>
#include <string.h>

#include "hq/ingest_int.h"
#include "rollup_int.h"

/* Whether a device file wrote workout W (hq-ingest's formats). */
#define DEV(W) "coalesce((SELECT i.format IN ('fit', 'tcx', 'gpx'," \
	" 'device-zip', 'gzip') FROM import i WHERE i.id = " W ".import_id), 0)"
#define COUNTED(W) W ".id NOT IN (SELECT workout_id FROM workout_same)"

/* What same_w holds of workout W, then its state, seed, was and counted
 * (was: counted before this run; counted: now, once settled). */
#define W_COLS(W) W ".id, " W ".source_id, " W ".import_id, " W ".start, " \
	W ".end, " W ".end - " W ".start, " DEV(W)
#define W_INTO "INSERT OR IGNORE INTO temp.same_w(id, src, imp, a, b, dur," \
	" dev, state, seed, was, counted) SELECT "

/* Row Y of same_w is the same activity as the recording of id ID, times
 * A to B, import IMP, source SRC, with L the longest workout's length (of
 * two that overlap, one starts inside the other or holds its start). */
#define PARTNER(Y, ID, A, B, IMP, SRC, L) \
	Y ".a >= " A " - " L " AND " Y ".a < " B " AND " Y ".b > " A " AND " \
	Y ".id != " ID " AND (" Y ".imp IS NOT " IMP " OR " Y ".src != " SRC \
	") AND 2 * (min(" Y ".b, " B ") - max(" Y ".a, " A ")) > min(" Y \
	".dur, " B " - " A ")"
/* ... of the recording being settled (struct rec's ?1 to ?6); ?7 to ?9
 * are its cov, dur and dev: RANK_ABOVE and RANK_BELOW compare. */
#define PARTNER_X(Y) PARTNER(Y, "?1", "?2", "?3", "?4", "?5", "?6")
#define RANK_ABOVE(Y) "(" Y ".cov, " Y ".dur, " Y ".dev, -" Y ".id) >" \
	" (?7, ?8, ?9, -?1)"
#define RANK_BELOW(Y) "(" Y ".cov, " Y ".dur, " Y ".dev, -" Y ".id) <" \
	" (?7, ?8, ?9, -?1)"
#define RANK_ORDER(Y) Y ".cov DESC, " Y ".dur DESC, " Y ".dev DESC, " Y ".id"

#define HR "'HKQuantityTypeIdentifierHeartRate'"
#define POWER "'HKQuantityTypeIdentifierCyclingPower'"

/* What a recording has, of the figures a counted one takes (FILL_*). */
#define HAS_STAT(W, LIKE) "EXISTS (SELECT 1 FROM workout_stat st JOIN" \
	" metric m ON m.id = st.metric_id WHERE st.workout_id = " W ".id AND" \
	" st.sum IS NOT NULL AND m.identifier LIKE " LIKE ")"
#define HAS_DISTANCE(W) "(" W ".distance IS NOT NULL OR " HAS_STAT(W, \
	"'HKQuantityTypeIdentifierDistance%'") ")"
#define HAS_ENERGY(W) "(" W ".energy IS NOT NULL OR " HAS_STAT(W, \
	"'HKQuantityTypeIdentifierActiveEnergyBurned'") ")"
#define HAS_ASCENT(W) "EXISTS (SELECT 1 FROM workout_meta wm WHERE" \
	" wm.workout_id = " W ".id AND wm.activity_uuid IS NULL AND wm.key =" \
	" 'HKElevationAscended')"
#define HAS_ROUTE(W) "EXISTS (SELECT 1 FROM route rt JOIN route_point rp" \
	" ON rp.route_id = rt.id WHERE rt.workout_id = " W ".id)"
/* Q_SECS's heart rates, from the table T. */
#define SECS(T) "INSERT INTO temp.same_sec(src, t) SELECT DISTINCT" \
	" source_id, start FROM " T " WHERE metric_id = ?1 AND start >= ?2" \
	" AND start <= ?3 AND source_id IN (SELECT src FROM temp.same_w" \
	" WHERE cov = -1 AND a >= ?2 AND a <= ?3 AND b <= ?3) ORDER BY 1, 2"
#define HAS_POWER_IN(T, W) "EXISTS (SELECT 1 FROM " T " ps WHERE ps.metric_id =" \
	" (SELECT id FROM metric WHERE identifier = " POWER ") AND" \
	" ps.source_id = " W ".source_id AND ps.start >= " W ".start AND" \
	" ps.start < " W ".end)"
#define HAS_POWER(W) HAS_POWER_IN("sample", W)
/* In a store hq-archive pruned, the archived power beside the store's
 * (rollup_int.h), when the recordings filled reach a pruned month */
#define HAS_POWER_ARC(W) HAS_POWER_IN("temp.rollup_sample", W)

/* The fill of one field for the counted workouts of same_k: the best
 * recording that yields to it, overlaps it by more than half of the
 * longer and has the field. */
#define FILL(FIELD, HAS) "INSERT INTO workout_fill(workout_id, field," \
	" from_id) SELECT kid, '" FIELD "', fid FROM (SELECT k.id AS kid," \
	" (SELECT y.id FROM workout_same ws JOIN workout y ON y.id =" \
	" ws.workout_id JOIN temp.same_w r ON r.id = y.id WHERE ws.same_as =" \
	" k.id AND 2 * (min(y.end, k.end) - max(y.start, k.start)) >" \
	" max(y.end - y.start, k.end - k.start) AND " HAS("y") " ORDER BY" \
	" r.cov DESC, r.dur DESC, r.dev DESC, r.id LIMIT 1) AS fid" \
	" FROM workout k WHERE k.id IN (SELECT id FROM temp.same_k) AND " \
	COUNTED("k") " AND NOT " HAS("k") ") WHERE fid IS NOT NULL"

enum {
	Q_LONGEST, Q_SEED_NEW, Q_SEED_TODO, Q_SEED_SAMPLES, Q_GROUPS, Q_GROUP,
	Q_OTHERS, Q_ALONE, Q_SEED_SPANS, Q_STRETCHES, Q_REGION, Q_LOAD, Q_REGION_ADD,
	Q_LONERS, Q_SETTLE_ALONE, Q_WANT_QUEUED, Q_ISLANDS, Q_SECS, Q_SECS_ARC, Q_COV,
	Q_NO_HR, Q_SECS_CLEAR, Q_POP, Q_WANT_COUNTED, Q_WANT_ALL, Q_BEST,
	Q_PUSH, Q_OLD, Q_YIELD, Q_COUNT, Q_DONE, Q_DIRTY, Q_YIELDERS,
	Q_WANT_YIELDERS, Q_FILL_CLEAR, Q_FILL_DISTANCE, Q_FILL_ENERGY,
	Q_FILL_ASCENT, Q_FILL_ROUTE, Q_FILL_POWER, Q_FILL_POWER_ARC,
	Q_FILL_SPAN, Q_FIGURES, Q_TODO,
	Q_TODO_CLEAR, Q_N
};

static const struct hq_store_sql sqls[Q_N] = {
	[Q_LONGEST] = { "SELECT coalesce(max(end - start), 0) FROM workout",
	    "the longest workout" },
	/* The seeds (state 1: on the queue). */
	[Q_SEED_NEW] = { W_INTO W_COLS("w") ", 1, 1, 0, 0 FROM workout w"
	    " WHERE w.import_id >= ?1", "the import's workouts" },
	[Q_SEED_TODO] = { W_INTO W_COLS("w") ", 1, 1, " COUNTED("w") ", "
	    COUNTED("w") " FROM workout w WHERE w.id IN (SELECT workout_id"
	    " FROM workout_same_todo)", "the workouts to settle again" },
	/* Sample ids grow inside the import's write lock (figures.c); the
	 * new ones' times from ?1 to ?2. */
	[Q_SEED_SAMPLES] = { W_INTO W_COLS("w") ", 1, 1, " COUNTED("w") ", "
	    COUNTED("w") " FROM workout w WHERE w.start >= ?1 - ?3 AND"
	    " w.start <= ?2 AND w.end >= ?1 AND EXISTS (SELECT 1 FROM sample s"
	    " WHERE s.metric_id IN (SELECT id FROM metric WHERE identifier IN"
	    " (" HR ", " POWER ")) AND s.start >= w.start AND s.start <= w.end"
	    " AND s.id >= ?4)", "the workouts holding new samples" },
	[Q_GROUPS] = { "INSERT INTO temp.same_g(imp, src, lo, hi) SELECT imp,"
	    " src, min(a), max(b) FROM temp.same_w WHERE state = 1 GROUP BY"
	    " imp, src HAVING count(*) > 1", "grouping the seeds" },
	[Q_GROUP] = { "SELECT imp, src, lo, hi FROM temp.same_g",
	    "reading the groups" },
	[Q_OTHERS] = { "SELECT EXISTS (SELECT 1 FROM workout y WHERE y.start >="
	    " ?1 - ?3 AND y.start < ?2 AND y.end > ?1 AND (y.import_id IS NOT ?4"
	    " OR y.source_id != ?5))", "looking around a group" },
	[Q_ALONE] = { "UPDATE temp.same_w SET state = 3 WHERE state = 1 AND"
	    " imp IS ?1 AND src = ?2", "settling a group" },
	[Q_SEED_SPANS] = { "SELECT a, b FROM temp.same_w WHERE state = 1"
	    " ORDER BY a", "reading the seeds" },
	/* The stretches of time whose workouts are all in same_w. */
	[Q_STRETCHES] = { "SELECT lo, hi FROM temp.same_r", "reading the seeds" },
	[Q_REGION] = { "SELECT EXISTS (SELECT 1 FROM temp.same_r WHERE lo <= ?1"
	    " AND hi >= ?2)", "reading what is loaded" },
	[Q_LOAD] = { W_INTO W_COLS("w") ", 0, 0, " COUNTED("w") ", "
	    COUNTED("w") " FROM workout w WHERE w.start >= ?1 - ?3 AND"
	    " w.start < ?2 AND w.end > ?1", "reading the workouts around" },
	[Q_REGION_ADD] = { "INSERT INTO temp.same_r(lo, hi) VALUES (?1, ?2)",
	    "noting what is loaded" },
	[Q_LONERS] = { "UPDATE temp.same_w SET state = 3 WHERE state = 1 AND"
	    " NOT EXISTS (SELECT 1 FROM temp.same_w y WHERE " PARTNER("y",
	    "same_w.id", "same_w.a", "same_w.b", "same_w.imp", "same_w.src",
	    "?1") ")", "finding the seeds without a partner" },
	/* Those without a partner are counted, and have nothing to take. */
	[Q_SETTLE_ALONE] = { "DELETE FROM workout_same WHERE workout_id IN"
	    " (SELECT id FROM temp.same_w WHERE state = 3);"
	    "INSERT OR IGNORE INTO temp.same_k(id) SELECT id FROM temp.same_w"
	    " WHERE state = 3;"
	    "UPDATE temp.same_w SET state = 2, counted = 1 WHERE state = 3;",
	    "settling the seeds without a partner" },
	/* cov -1: to be ranked (rank_new). */
	[Q_WANT_QUEUED] = { "UPDATE temp.same_w SET cov = -1 WHERE state = 1"
	    " AND cov IS NULL", "ranking the seeds" },
	[Q_ISLANDS] = { "SELECT a, b FROM temp.same_w WHERE cov = -1 ORDER BY a",
	    "reading the recordings to rank" },
	/* The distinct seconds of the heart rates of the sources to rank,
	 * ?2 to ?3, numbered in source and time order (k). */
	[Q_SECS] = { SECS("sample"), "reading heart rates" },
	/* In a store hq-archive pruned, with the archived ones of the
	 * stretch beside the store's (rollup_int.h) */
	[Q_SECS_ARC] = { SECS("temp.rollup_sample"), "reading heart rates" },
	/* A recording's seconds: the number of its last inside it less that
	 * of its first, plus one. */
	[Q_COV] = { "UPDATE temp.same_w SET cov = max(0, coalesce((SELECT k"
	    " FROM temp.same_sec WHERE src = same_w.src AND t <= same_w.b"
	    " ORDER BY src DESC, t DESC LIMIT 1), 0) - coalesce((SELECT k FROM"
	    " temp.same_sec WHERE src = same_w.src AND t >= same_w.a ORDER BY"
	    " src, t LIMIT 1), 4611686018427387904) + 1) WHERE cov = -1 AND"
	    " a >= ?1 AND a <= ?2 AND b <= ?2", "ranking recordings" },
	[Q_NO_HR] = { "UPDATE temp.same_w SET cov = 0 WHERE cov = -1",
	    "ranking recordings" },
	[Q_SECS_CLEAR] = { "DELETE FROM temp.same_sec", "ranking recordings" },
	[Q_POP] = { "SELECT id, a, b, imp, src, cov, dur, dev, seed, was FROM"
	    " temp.same_w WHERE state = 1 ORDER BY " RANK_ORDER("same_w")
	    " LIMIT 1", "taking the next recording" },
	/* The partners whose rank is needed: the counted ones, or all. */
	[Q_WANT_COUNTED] = { "UPDATE temp.same_w SET cov = -1 WHERE cov IS NULL"
	    " AND counted = 1 AND " PARTNER_X("same_w"), "reading partners" },
	[Q_WANT_ALL] = { "UPDATE temp.same_w SET cov = -1 WHERE cov IS NULL"
	    " AND " PARTNER_X("same_w"), "reading partners" },
	/* The counted partner that outranks it and overlaps it most (then
	 * the best-ranked): whom it yields to. */
	[Q_BEST] = { "SELECT id FROM temp.same_w y WHERE counted = 1 AND "
	    PARTNER_X("y") " AND " RANK_ABOVE("y") " ORDER BY min(y.b, ?3) -"
	    " max(y.a, ?2) DESC, " RANK_ORDER("y") " LIMIT 1",
	    "finding the counted one" },
	[Q_PUSH] = { "UPDATE temp.same_w SET state = 1 WHERE state = 0 AND "
	    PARTNER_X("same_w") " AND " RANK_BELOW("same_w"),
	    "queueing the partners it outranks" },
	[Q_OLD] = { "SELECT same_as FROM workout_same WHERE workout_id = ?1",
	    "reading the same activity" },
	[Q_YIELD] = { "INSERT INTO workout_same(workout_id, same_as) VALUES"
	    " (?1, ?2) ON CONFLICT(workout_id) DO UPDATE SET same_as = ?2",
	    "recording the same activity" },
	[Q_COUNT] = { "DELETE FROM workout_same WHERE workout_id = ?1",
	    "recording the same activity" },
	[Q_DONE] = { "UPDATE temp.same_w SET state = 2, counted = ?2 WHERE"
	    " id = ?1", "settling a recording" },
	[Q_DIRTY] = { "INSERT OR IGNORE INTO temp.same_k(id) VALUES (?1)",
	    "noting a fill to redo" },
	/* The recordings that yield to those whose fill is redone, ranked. */
	[Q_YIELDERS] = { W_INTO W_COLS("y") ", 2, 0, 0, 0 FROM workout_same ws"
	    " JOIN workout y ON y.id = ws.workout_id WHERE ws.same_as IN"
	    " (SELECT id FROM temp.same_k)", "reading the recordings that yield" },
	[Q_WANT_YIELDERS] = { "UPDATE temp.same_w SET cov = -1 WHERE cov IS NULL"
	    " AND id IN (SELECT ws.workout_id FROM workout_same ws WHERE"
	    " ws.same_as IN (SELECT id FROM temp.same_k))",
	    "ranking the recordings that yield" },
	[Q_FILL_CLEAR] = { "DELETE FROM workout_fill WHERE workout_id IN"
	    " (SELECT id FROM temp.same_k)", "redoing fills" },
	[Q_FILL_DISTANCE] = { FILL("distance", HAS_DISTANCE), "filling distance" },
	[Q_FILL_ENERGY] = { FILL("energy", HAS_ENERGY), "filling energy" },
	[Q_FILL_ASCENT] = { FILL("ascent", HAS_ASCENT), "filling ascent" },
	[Q_FILL_ROUTE] = { FILL("route", HAS_ROUTE), "filling a route" },
	[Q_FILL_POWER] = { FILL("power", HAS_POWER), "filling power" },
	[Q_FILL_POWER_ARC] = { FILL("power", HAS_POWER_ARC), "filling power" },
	/* the time of the counted recordings filled and of those yielding
	 * to them */
	[Q_FILL_SPAN] = { "SELECT min(start), max(end) FROM workout WHERE id IN"
	    " (SELECT id FROM temp.same_k) OR id IN (SELECT workout_id FROM"
	    " workout_same WHERE same_as IN (SELECT id FROM temp.same_k))",
	    "reading the recordings to fill" },
	/* What the kept figures read changed for these (figures.c). */
	[Q_FIGURES] = { "DELETE FROM workout_figures WHERE workout_id IN"
	    " (SELECT id FROM temp.same_k)", "dropping kept figures" },
	[Q_TODO] = { "SELECT EXISTS (SELECT 1 FROM workout_same_todo)",
	    "reading what is left to settle" },
	[Q_TODO_CLEAR] = { "DELETE FROM workout_same_todo", "settling" },
};

/* The temporary tables, files (the header comment): created once a
 * connection, emptied at each run's start. same_w: the workouts a run
 * reads, state 0 read, 1 on the queue, 2 settled, 3 settled without a
 * partner; cov NULL until wanted, -1 wanted, then the coverage. */
static const char setup_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS same_w(id INTEGER PRIMARY KEY,"
	" src INTEGER, imp INTEGER, a INTEGER, b INTEGER, dur INTEGER,"
	" dev INTEGER, cov INTEGER, state INTEGER, seed INTEGER, was INTEGER,"
	" counted INTEGER);"
	"CREATE INDEX IF NOT EXISTS temp.same_w_queue ON same_w(state,"
	" cov DESC, dur DESC, dev DESC, id);"
	"CREATE INDEX IF NOT EXISTS temp.same_w_a ON same_w(a);"
	"CREATE INDEX IF NOT EXISTS temp.same_w_counted ON same_w(counted, a);"
	"CREATE INDEX IF NOT EXISTS temp.same_w_wanted ON same_w(a)"
	" WHERE cov = -1;"
	"CREATE TEMP TABLE IF NOT EXISTS same_g(imp INTEGER, src INTEGER,"
	" lo INTEGER, hi INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS same_r(lo INTEGER, hi INTEGER);"
	"CREATE TEMP TABLE IF NOT EXISTS same_sec(k INTEGER PRIMARY KEY,"
	" src INTEGER, t INTEGER);"
	"CREATE INDEX IF NOT EXISTS temp.same_sec_t ON same_sec(src, t);"
	"CREATE TEMP TABLE IF NOT EXISTS same_k(id INTEGER PRIMARY KEY);"
	"DELETE FROM temp.same_w; DELETE FROM temp.same_g;"
	"DELETE FROM temp.same_r; DELETE FROM temp.same_sec;"
	"DELETE FROM temp.same_k;";

struct run {
	struct hq_store *s;
	sqlite3_stmt *st[Q_N];
	int64_t longest, hr;
};

static int
run_q(struct run *r, int q, const struct hq_bind *v, struct hq_err *e)
{
	return hq_store_run_sql(r->s, &sqls[q], &r->st[q], v, e);
}

static int64_t
query_q(struct run *r, int q, const struct hq_bind *v, struct hq_err *e)
{
	return hq_store_query_sql(r->s, &sqls[q], &r->st[q], v, e);
}

/* A statement that returns rows, bound and ready to step: NULL with e. */
static sqlite3_stmt *
rows_q(struct run *r, int q, const struct hq_bind *v, struct hq_err *e)
{
	sqlite3_stmt *st = hq_store_stmt(r->s, &sqls[q], &r->st[q], e);

	if (st) {
		sqlite3_reset(st);
		hq_store_bind(st, v);
	}
	return st;
}

static int
step_err(struct run *r, int q, struct hq_err *e)
{
	hq_err_set(e, "%s: %s: %s", hq_store_filename(r->s), sqls[q].what,
	    sqlite3_errmsg(hq_store_db(r->s)));
	return -1;
}

/* The end of stepping st (statement q) with rc: 0, or -1 with e. */
static int
rows_end(struct run *r, sqlite3_stmt *st, int q, int rc, struct hq_err *e)
{
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : step_err(r, q, e);
}

/* Rank the recordings of same_w wanted (cov -1): their coverage, a
 * stretch of time at a time (the stretches their times make, overlaps
 * merged). */
static int
rank_new(struct run *r, struct hq_err *e)
{
	sqlite3_stmt *q;
	const char *from;
	int64_t lo = 0, hi = 0;
	int rc, have;

	if (r->hr == 0)
		return run_q(r, Q_NO_HR, (struct hq_bind[]){ HQ_END }, e);
	for (;;) {
		/* The first stretch still wanted: read again after each, as
		 * its rows leave the partial index. */
		if (!(q = rows_q(r, Q_ISLANDS, (struct hq_bind[]){ HQ_END }, e)))
			return -1;
		have = 0;
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			int64_t a = sqlite3_column_int64(q, 0);
			int64_t b = sqlite3_column_int64(q, 1);
			if (have && a > hi)
				break;
			if (!have)
				lo = a, hi = b;
			else if (b > hi)
				hi = b;
			have = 1;
		}
		sqlite3_reset(q);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return step_err(r, Q_ISLANDS, e);
		if (!have)
			return 0;
		if (!(from = hq_rollup_pruned_samples(r->s, r->hr, lo, hi + 1, e)))
			return -1;
		if (run_q(r, strcmp(from, "main.sample") ? Q_SECS_ARC : Q_SECS,
		    (struct hq_bind[]){ HQ_INT(r->hr), HQ_INT(lo),
		    HQ_INT(hi), HQ_END }, e) ||
		    run_q(r, Q_COV, (struct hq_bind[]){ HQ_INT(lo), HQ_INT(hi),
		    HQ_END }, e) ||
		    run_q(r, Q_SECS_CLEAR, (struct hq_bind[]){ HQ_END }, e))
			return -1;
	}
}

/* Settle the groups of seeds of one import and source that no other
 * workout overlaps: a file's legs, however many, have no partner. */
static int
settle_groups(struct run *r, struct hq_err *e)
{
	sqlite3_stmt *g;
	int rc;

	if (run_q(r, Q_GROUPS, (struct hq_bind[]){ HQ_END }, e) ||
	    !(g = rows_q(r, Q_GROUP, (struct hq_bind[]){ HQ_END }, e)))
		return -1;
	while ((rc = sqlite3_step(g)) == SQLITE_ROW) {
		int64_t imp = sqlite3_column_int64(g, 0);
		int64_t src = sqlite3_column_int64(g, 1);
		int64_t lo = sqlite3_column_int64(g, 2);
		int64_t hi = sqlite3_column_int64(g, 3);
		int64_t others = query_q(r, Q_OTHERS, (struct hq_bind[]){ HQ_INT(lo), HQ_INT(hi),
		    HQ_INT(r->longest), HQ_OPT_INT(imp), HQ_INT(src), HQ_END }, e);
		if (others < 0 || (!others && run_q(r, Q_ALONE, (struct hq_bind[]){
		    HQ_OPT_INT(imp), HQ_INT(src), HQ_END }, e))) {
			sqlite3_reset(g);
			return -1;
		}
	}
	return rows_end(r, g, Q_GROUP, rc, e);
}

/* Every workout that overlaps lo to hi into same_w (once). */
static int
load(struct run *r, int64_t lo, int64_t hi, struct hq_err *e)
{
	const struct hq_bind v[] = { HQ_INT(lo), HQ_INT(hi), HQ_INT(r->longest),
	    HQ_END };
	int64_t have = query_q(r, Q_REGION, v, e);

	if (have < 0)
		return -1;
	if (have)
		return 0;
	return run_q(r, Q_LOAD, v, e) || run_q(r, Q_REGION_ADD, v, e) ? -1 : 0;
}

/* The workouts around the seeds: the stretches of time the seeds' times
 * make, overlaps merged (in same_r first: same_w grows as they load). */
static int
load_seeds(struct run *r, struct hq_err *e)
{
	sqlite3_stmt *q = rows_q(r, Q_SEED_SPANS, (struct hq_bind[]){ HQ_END },
	    e);
	int64_t lo = 0, hi = 0;
	int rc, have = 0;

	if (!q)
		return -1;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t a = sqlite3_column_int64(q, 0);
		int64_t b = sqlite3_column_int64(q, 1);
		if (have && a > hi) {
			if (run_q(r, Q_REGION_ADD, (struct hq_bind[]){ HQ_INT(lo),
			    HQ_INT(hi), HQ_END }, e)) {
				sqlite3_reset(q);
				return -1;
			}
			have = 0;
		}
		if (!have)
			lo = a, hi = b;
		else if (b > hi)
			hi = b;
		have = 1;
	}
	if (rows_end(r, q, Q_SEED_SPANS, rc, e))
		return -1;
	if (have && run_q(r, Q_REGION_ADD, (struct hq_bind[]){ HQ_INT(lo),
	    HQ_INT(hi), HQ_END }, e))
		return -1;
	/* Now each stretch's workouts. */
	if (!(q = rows_q(r, Q_STRETCHES, (struct hq_bind[]){ HQ_END }, e)))
		return -1;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if (run_q(r, Q_LOAD, (struct hq_bind[]){
		    HQ_INT(sqlite3_column_int64(q, 0)),
		    HQ_INT(sqlite3_column_int64(q, 1)), HQ_INT(r->longest),
		    HQ_END }, e)) {
			sqlite3_reset(q);
			return -1;
		}
	return rows_end(r, q, Q_STRETCHES, rc, e);
}

/* The recording being settled, as Q_POP reads it. */
struct rec {
	int64_t id, a, b, imp, src, cov, dur, dev;
	int seed, was;
};

/* Settle x: counted, or yielding to the counted partner that outranks it
 * and overlaps it most (every partner that outranks it is settled
 * already); when
 * its standing changed, or it is a counted seed (whose rank may have
 * passed others'), the partners it outranks go on the queue. Whose fill
 * to redo: its own, and that of whom it yields to, now and before. */
static int
settle(struct run *r, const struct rec *x, struct hq_err *e)
{
	const struct hq_bind p[] = { HQ_INT(x->id), HQ_INT(x->a), HQ_INT(x->b),
	    HQ_OPT_INT(x->imp), HQ_INT(x->src), HQ_INT(r->longest),
	    HQ_INT(x->cov), HQ_INT(x->dur), HQ_INT(x->dev), HQ_END };
	int64_t best, old;
	int counted;

	if (load(r, x->a, x->b, e) || run_q(r, Q_WANT_COUNTED, p, e) ||
	    rank_new(r, e) ||
	    (best = query_q(r, Q_BEST, p,
	    e)) < 0 || (old = query_q(r, Q_OLD, p, e)) < 0)
		return -1;
	counted = best == 0;
	if ((counted ? run_q(r, Q_COUNT, p, e) : run_q(r, Q_YIELD,
	    (struct hq_bind[]){ HQ_INT(x->id), HQ_INT(best), HQ_END }, e)) ||
	    run_q(r, Q_DONE, (struct hq_bind[]){ HQ_INT(x->id), HQ_INT(counted),
	    HQ_END }, e) ||
	    run_q(r, Q_DIRTY, p, e) ||
	    (best && run_q(r, Q_DIRTY, (struct hq_bind[]){ HQ_INT(best),
	    HQ_END }, e)) ||
	    (old && run_q(r, Q_DIRTY, (struct hq_bind[]){ HQ_INT(old), HQ_END },
	    e)))
		return -1;
	if (counted != x->was || (counted && x->seed))
		if (run_q(r, Q_WANT_ALL, p, e) || rank_new(r, e) ||
		    run_q(r, Q_PUSH, p, e))
			return -1;
	return 0;
}

/* Settle the queue, best first. */
static int
settle_queue(struct run *r, struct hq_err *e)
{
	sqlite3_stmt *q;
	struct rec x;
	int rc;

	for (;;) {
		if (!(q = rows_q(r, Q_POP, (struct hq_bind[]){ HQ_END }, e)))
			return -1;
		rc = sqlite3_step(q);
		if (rc == SQLITE_DONE) {
			sqlite3_reset(q);
			return 0;
		}
		if (rc != SQLITE_ROW) {
			sqlite3_reset(q);
			return step_err(r, Q_POP, e);
		}
		x.id = sqlite3_column_int64(q, 0);
		x.a = sqlite3_column_int64(q, 1);
		x.b = sqlite3_column_int64(q, 2);
		x.imp = sqlite3_column_int64(q, 3);
		x.src = sqlite3_column_int64(q, 4);
		x.cov = sqlite3_column_int64(q, 5);
		x.dur = sqlite3_column_int64(q, 6);
		x.dev = sqlite3_column_int64(q, 7);
		x.seed = sqlite3_column_int(q, 8);
		x.was = sqlite3_column_int(q, 9);
		sqlite3_reset(q);
		if (settle(r, &x, e))
			return -1;
	}
}

/* Which statement fills power: in a pruned store whose archived power
 * the recordings filled reach, the one that reads those too (read now). */
static int
fill_power(struct run *r, int *q, struct hq_err *e)
{
	struct hq_rollup_pruned p;
	sqlite3_stmt *st;
	const char *from = "main.sample";
	int64_t power, lo = 0, hi = -1;

	*q = Q_FILL_POWER;
	if (hq_rollup_pruned_begin(r->s, &p, e))
		return -1;
	if (p.from == INT64_MIN)   /* never pruned */
		return 0;
	if ((power = hq_store_metric_id(r->s, "HKQuantityTypeIdentifierCyclingPower",
	    0, e)) < 0 || !(st = rows_q(r, Q_FILL_SPAN, (struct hq_bind[]){ HQ_END }, e)))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		lo = sqlite3_column_int64(st, 0);
		hi = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	if (power && lo <= hi && lo < p.from &&
	    !(from = hq_rollup_pruned_samples(r->s, power, lo, hi + 1, e)))
		return -1;
	if (strcmp(from, "main.sample"))
		*q = Q_FILL_POWER_ARC;
	return 0;
}

int
hq_ig_same_refresh(struct hq_store *s, const struct hq_ig_added *add,
    int changed, struct hq_err *e)
{
	static const int fills[] = { Q_FILL_CLEAR, Q_FILL_DISTANCE,
	    Q_FILL_ENERGY, Q_FILL_ASCENT, Q_FILL_ROUTE, Q_FILL_POWER,
	    Q_FIGURES, Q_TODO_CLEAR };
	const struct hq_bind none[] = { HQ_END };
	struct run r = { .s = s };
	int rc = -1;

	if (!changed && (rc = (int)query_q(&r, Q_TODO, none, e)) <= 0)
		goto done;
	rc = -1;
	/* Temporary tables in files; the setting can change only while no
	 * temporary table exists (SQLite refuses it inside a transaction
	 * that has one, as after waiting for another writer): then they stay
	 * where the store put them, which is correct, only less bounded. */
	(void)sqlite3_exec(hq_store_db(s), "PRAGMA temp_store = FILE;", NULL,
	    NULL, NULL);
	if (hq_store_exec(s, setup_sql, e) ||
	    (r.longest = query_q(&r, Q_LONGEST, none, e)) < 0 ||
	    (r.hr = hq_store_metric_id(s, "HKQuantityTypeIdentifierHeartRate",
	    0, e)) < 0)
		goto done;
	if (run_q(&r, Q_SEED_NEW, (struct hq_bind[]){
	    HQ_INT(add->first_import_id), HQ_END }, e) ||
	    run_q(&r, Q_SEED_TODO, none, e) ||
	    (add->watch_lo <= add->watch_hi && run_q(&r, Q_SEED_SAMPLES,
	    (struct hq_bind[]){ HQ_INT(add->watch_lo), HQ_INT(add->watch_hi),
	    HQ_INT(r.longest), HQ_INT(add->first_sample_id), HQ_END }, e)) ||
	    settle_groups(&r, e) || load_seeds(&r, e) ||
	    run_q(&r, Q_LONERS, (struct hq_bind[]){ HQ_INT(r.longest), HQ_END },
	    e) ||
	    hq_store_exec(s, sqls[Q_SETTLE_ALONE].sql, e) ||
	    run_q(&r, Q_WANT_QUEUED, none, e) || rank_new(&r, e) ||
	    settle_queue(&r, e) || run_q(&r, Q_YIELDERS, none, e) ||
	    run_q(&r, Q_WANT_YIELDERS, none, e) || rank_new(&r, e))
		goto done;
	for (size_t i = 0; i < sizeof fills / sizeof fills[0]; i++) {
		int q = fills[i];
		if ((q == Q_FILL_POWER && fill_power(&r, &q, e)) || run_q(&r, q, none, e))
			goto done;
	}
	rc = 0;
done:
	if (rc)
		hq_err_prefix(e, "the same activity");
	hq_store_finalize(r.st, Q_N);
	return rc;
}
