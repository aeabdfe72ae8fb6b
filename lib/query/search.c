/*
 * search — hq-query search (search.h): the matches of the words (the
 * store's FTS5 index, the text checked and rewritten by search_parse.c)
 * and of a place: the R*Tree's boxes of 64 route points each give the
 * candidate segments, whose points are then read one by one (never a
 * whole route in memory) for the exact great-circle distance; the rows
 * browsed, found or counted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "hq/buf.h"
#include "hq/geo.h"
#include "hq/rowdesc.h"
#include "hq/search.h"
#include "hq/time.h"

/* ---- places: the workouts whose route passes near ------------------------- */

/* A workout near; km < 0: within the radius, its closest approach not
 * measured yet (near_exact). */
struct near_hit {
	int64_t workout;
	double km;
};

struct near_set {
	struct near_hit *v;
	size_t n, cap;
	/* the circle's bounding boxes: one, or two across the antimeridian */
	double box[2][4];
	int nbox;
	/* near_exact's statements, prepared at its first call */
	sqlite3_stmt *rt, *mm, *bx, *pt;
};

static void
near_add(struct near_set *ns, int64_t workout, double km)
{
	if (ns->n == ns->cap)
		ns->v = hq_xrealloc(ns->v, (ns->cap = ns->cap ? 2 * ns->cap : 64) *
		    sizeof *ns->v);
	ns->v[ns->n++] = (struct near_hit){ workout, km };
}

static int
cmp_hit_id(const void *a, const void *b)
{
	const struct near_hit *x = a, *y = b;

	return (x->workout > y->workout) - (x->workout < y->workout);
}

static int sql_fail(sqlite3 *db, struct hq_err *e);

/* A segment of a route whose box meets the circle's. */
struct cand {
	int64_t route, lo, hi;
	double guess;          /* km to the box's middle: which to read first */
	double lat_gap;        /* km of latitude between the box and the centre */
};

/* The great-circle distance is at least the latitudes' difference. */
static double
lat_gap(const struct hq_search *q, double lat_lo, double lat_hi)
{
	double g = q->lat < lat_lo ? lat_lo - q->lat : q->lat > lat_hi ?
	    q->lat - lat_hi : 0;

	/* a hair less: a bound, never above the exact distance */
	return g * M_PI / 180 * (HQ_SEARCH_EARTH_R / 1000) * (1 - 1e-9);
}

static int
cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return (x->guess > y->guess) - (x->guess < y->guess);
}

static double
km_to(const struct hq_search *q, double lat, double lon)
{
	return hq_geo_distance(HQ_SEARCH_EARTH_R / 1000, q->lat, q->lon, lat, lon);
}

/*
 * The closest point of the segments c[0..n) (exact), or the first point
 * found within the radius (!exact: whether the workout is in), the
 * segments nearest their middle first. A point on the circle counts (a
 * micrometre of slack: the distance of a point placed on it, computed
 * another way, may differ in its last digit). INFINITY: none within.
 */
static int
settle(sqlite3 *db, sqlite3_stmt *pt, const struct hq_search *q,
    struct cand *c, size_t n, int exact, double *best, struct hq_err *e)
{
	int step;

	*best = INFINITY;
	qsort(c, n, sizeof *c, cmp_cand);
	for (size_t i = 0; i < n; i++) {
		/* no point of a box is nearer than its latitudes are */
		if (c[i].lat_gap > *best)
			continue;
		sqlite3_reset(pt);
		sqlite3_bind_int64(pt, 1, c[i].route);
		sqlite3_bind_int64(pt, 2, c[i].lo);
		sqlite3_bind_int64(pt, 3, c[i].hi);
		while ((step = sqlite3_step(pt)) == SQLITE_ROW) {
			double d = km_to(q, sqlite3_column_double(pt, 0),
			    sqlite3_column_double(pt, 1));
			if (d < *best)
				*best = d;
			if (!exact && *best <= q->km + 1e-9)
				return 0;
		}
		if (step != SQLITE_DONE)
			return sql_fail(db, e);
	}
	if (*best > q->km + 1e-9)
		*best = INFINITY;
	return 0;
}

/*
 * The circle's bounding boxes: latitudes lat ± d (d the angle the radius
 * spans), and longitudes lon ± asin(sin d / cos lat), the widest the
 * circle reaches; every longitude when the circle holds a pole; two
 * boxes when it crosses the antimeridian. A hair wider than exact, so
 * that rounding never leaves out a point on the circle (the R*Tree's
 * boxes are rounded outward; the exact distance decides).
 */
static void
near_bounds(const struct hq_search *q, struct near_set *ns)
{
	const double deg = 180 / M_PI;
	double d = q->km / (HQ_SEARCH_EARTH_R / 1000) * (1 + 1e-9) + 1e-12;
	double lat_lo = q->lat - d * deg, lat_hi = q->lat + d * deg;
	double dlon, lo, hi;

	ns->nbox = 0;
	if (lat_lo <= -90 || lat_hi >= 90 || sin(d) >= cos(q->lat / deg)) {
		memcpy(ns->box[ns->nbox++], (double[]){ lat_lo, lat_hi, -180, 180 },
		    sizeof ns->box[0]);
		return;
	}
	dlon = asin(sin(d) / cos(q->lat / deg)) * deg + 1e-9;
	lo = q->lon - dlon;
	hi = q->lon + dlon;
	memcpy(ns->box[ns->nbox++], (double[]){ lat_lo, lat_hi, lo < -180 ? -180 :
	    lo, hi > 180 ? 180 : hi }, sizeof ns->box[0]);
	if (lo < -180)
		memcpy(ns->box[ns->nbox++], (double[]){ lat_lo, lat_hi, lo + 360, 180 },
		    sizeof ns->box[0]);
	if (hi > 180)
		memcpy(ns->box[ns->nbox++], (double[]){ lat_lo, lat_hi, -180, hi - 360 },
		    sizeof ns->box[0]);
}

static int
meets(const struct near_set *ns, double lat_lo, double lat_hi, double lon_lo,
    double lon_hi)
{
	for (int i = 0; i < ns->nbox; i++)
		if (lat_hi >= ns->box[i][0] && lat_lo <= ns->box[i][1] &&
		    lon_hi >= ns->box[i][2] && lon_lo <= ns->box[i][3])
			return 1;
	return 0;
}

/*
 * The workouts within the radius into ns, sorted by id: the R*Tree's
 * segments in the circle's boxes, a workout's read together (its
 * segments are few: held, never its points); exact: each one's closest
 * approach, else only whether it is in (near_exact measures the rows
 * shown).
 */
static int
near_collect(sqlite3 *db, const struct hq_search *q, struct near_set *ns,
    int exact, struct hq_err *e)
{
	sqlite3_stmt *box = NULL, *pt = NULL;
	struct cand *c = NULL;
	size_t nc = 0, cap = 0, i, k;
	int rc = -1, step;

	near_bounds(q, ns);
	if (sqlite3_prepare_v2(db, "SELECT r.workout_id, b.route_id, b.seq_lo,"
	    " b.seq_hi, b.lat_lo, b.lat_hi, b.lon_lo, b.lon_hi FROM route_box AS b"
	    " JOIN route AS r ON r.id = b.route_id WHERE b.lat_hi >= ?1 AND"
	    " b.lat_lo <= ?2 AND b.lon_hi >= ?3 AND b.lon_lo <= ?4 ORDER BY"
	    " r.workout_id", -1, &box, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT lat, lon FROM route_point WHERE"
	    " route_id = ?1 AND seq BETWEEN ?2 AND ?3", -1, &pt, NULL) != SQLITE_OK) {
		sql_fail(db, e);
		goto done;
	}
	for (int x = 0; x < ns->nbox; x++) {
		int64_t cur = -1;
		double best;
		for (int j = 0; j < 4; j++)
			sqlite3_bind_double(box, j + 1, ns->box[x][j]);
		for (;;) {
			step = sqlite3_step(box);
			if (step != SQLITE_ROW && step != SQLITE_DONE) {
				sql_fail(db, e);
				goto done;
			}
			if (nc && (step == SQLITE_DONE ||
			    sqlite3_column_int64(box, 0) != cur)) {
				if (settle(db, pt, q, c, nc, exact, &best, e))
					goto done;
				if (best < INFINITY)
					near_add(ns, cur, exact ? best : -1);
				nc = 0;
			}
			if (step == SQLITE_DONE)
				break;
			cur = sqlite3_column_int64(box, 0);
			if (nc == cap)
				c = hq_xrealloc(c, (cap = cap ? 2 * cap : 64) * sizeof *c);
			c[nc++] = (struct cand){ sqlite3_column_int64(box, 1),
			    sqlite3_column_int64(box, 2), sqlite3_column_int64(box, 3),
			    km_to(q, (sqlite3_column_double(box, 4) +
			    sqlite3_column_double(box, 5)) / 2,
			    (sqlite3_column_double(box, 6) +
			    sqlite3_column_double(box, 7)) / 2),
			    lat_gap(q, sqlite3_column_double(box, 4),
			    sqlite3_column_double(box, 5)) };
		}
		sqlite3_reset(box);
	}
	/* two boxes may name one workout: once, its closest */
	qsort(ns->v, ns->n, sizeof *ns->v, cmp_hit_id);
	for (i = k = 0; i < ns->n; i++)
		if (k && ns->v[k - 1].workout == ns->v[i].workout) {
			if (ns->v[i].km < ns->v[k - 1].km)
				ns->v[k - 1].km = ns->v[i].km;
		} else {
			ns->v[k++] = ns->v[i];
		}
	ns->n = k;
	rc = 0;
done:
	free(c);
	sqlite3_finalize(box);
	sqlite3_finalize(pt);
	return rc;
}

/* One workout's closest approach, from its routes' segments whose box
 * meets the circle's (the closest point is within the radius, so in one
 * of them), each route's boxes looked up by id. */
static int
near_exact(sqlite3 *db, const struct hq_search *q, struct near_set *ns,
    int64_t workout, double *km, struct hq_err *e)
{
	sqlite3_stmt *rt, *mm, *bx, *pt;
	struct cand *c = NULL;
	size_t nc = 0, cap = 0;
	int rc = -1, step;

	/* A route's boxes from its points' first and last seq, by a bound
	 * route_id: a term SQLite passes into a pruned store's route_point
	 * view (hybrid.h), whose archive then reads the route's month
	 * alone; a correlated subquery read the whole view. */
	if (!ns->rt && (sqlite3_prepare_v2(db, "SELECT id FROM route WHERE"
	    " workout_id = ?1", -1, &ns->rt, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT min(seq) / 64, max(seq) / 64 FROM"
	    " route_point WHERE route_id = ?1", -1, &ns->mm, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT lat_lo, lat_hi, lon_lo, lon_hi, seq_lo,"
	    " seq_hi FROM route_box WHERE id = ?1", -1, &ns->bx, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT lat, lon FROM route_point WHERE"
	    " route_id = ?1 AND seq BETWEEN ?2 AND ?3", -1, &ns->pt, NULL) !=
	    SQLITE_OK)) {
		sql_fail(db, e);
		goto done;
	}
	rt = ns->rt;
	mm = ns->mm;
	bx = ns->bx;
	pt = ns->pt;
	sqlite3_reset(rt);
	sqlite3_bind_int64(rt, 1, workout);
	while ((step = sqlite3_step(rt)) == SQLITE_ROW) {
		int64_t r = sqlite3_column_int64(rt, 0), lo, hi;
		sqlite3_reset(mm);
		sqlite3_bind_int64(mm, 1, r);
		if (sqlite3_step(mm) != SQLITE_ROW) {
			step = SQLITE_ERROR;
			break;
		}
		lo = sqlite3_column_int64(mm, 0);
		hi = sqlite3_column_type(mm, 1) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(mm, 1);
		for (int64_t k = lo; k <= hi; k++) {
			sqlite3_reset(bx);
			sqlite3_bind_int64(bx, 1, r * 1048576 + k);
			if (sqlite3_step(bx) != SQLITE_ROW ||
			    !meets(ns, sqlite3_column_double(bx, 0),
			    sqlite3_column_double(bx, 1), sqlite3_column_double(bx, 2),
			    sqlite3_column_double(bx, 3)))
				continue;
			if (nc == cap)
				c = hq_xrealloc(c, (cap = cap ? 2 * cap : 64) * sizeof *c);
			c[nc++] = (struct cand){ r, sqlite3_column_int64(bx, 4),
			    sqlite3_column_int64(bx, 5), km_to(q,
			    (sqlite3_column_double(bx, 0) + sqlite3_column_double(bx, 1)) / 2,
			    (sqlite3_column_double(bx, 2) + sqlite3_column_double(bx, 3)) / 2),
			    lat_gap(q, sqlite3_column_double(bx, 0),
			    sqlite3_column_double(bx, 1)) };
		}
	}
	if (step != SQLITE_DONE) {
		sql_fail(db, e);
		goto done;
	}
	rc = settle(db, pt, q, c, nc, 1, km, e);
done:
	free(c);
	return rc;
}

/* ---- the rows -------------------------------------------------------------- */

struct hit {
	const char *kind, *id, *title, *snippet;
	int64_t time;          /* INT64_MIN: none */
	double score, km;      /* NaN: none */
};

static int
sql_fail(sqlite3 *db, struct hq_err *e)
{
	hq_err_set(e, "searching: %s", sqlite3_errmsg(db));
	return -1;
}

static int
id_text(const void *row, char *buf, size_t n)
{
	snprintf(buf, n, "%s", ((const struct hit *)row)->id);
	return 0;
}

/* The id as a number where it is one (workout, lab, record ids), the
 * name of a metric or a source. */
static void
id_put(struct hq_out *o, const char *key, const void *row)
{
	const struct hit *h = row;

	if (strcmp(h->kind, "metric") && strcmp(h->kind, "source"))
		hq_out_int(o, key, strtoll(h->id, NULL, 10));
	else
		hq_out_str(o, key, h->id);
}

static int
date_text(const void *row, char *buf, size_t n)
{
	const struct hit *h = row;

	if (h->time == INT64_MIN)
		return -1;
	hq_time_format_local(h->time, buf, n);
	return 0;
}

/* "2026-11-17 18:15" for a person */
static int
date_short(const void *row, char *buf, size_t n)
{
	char t[40];

	if (date_text(row, t, sizeof t))
		return -1;
	t[10] = ' ';
	snprintf(buf, n, "%.16s", t);
	return 0;
}

#define HIT(k, t, f) HQ_COL_AT(k, t, struct hit, f)

/* Every row's first columns, then its snippet and score (for a table:
 * WORDS, or none, --near alone), then distance_km with --near. */
#define HIT_COLS \
	{ HIT("kind", HQ_COL_STR, kind) }, \
	{ HQ_COL_P("id", id_put), .in = HQ_COL_DATA }, \
	{ HQ_COL_FN("id", id_text), .in = HQ_COL_TABLE, .fit = { .min_width = 6 } }, \
	{ HQ_COL_FN("date", date_text), .in = HQ_COL_DATA }, \
	{ HQ_COL_FN("date", date_short), .in = HQ_COL_TABLE, .fit = { .drop = 3 } }, \
	{ HIT("title", HQ_COL_STR0, title), .fit = { .min_width = 12 } }
#define WORDS \
	{ HIT("snippet", HQ_COL_STR0, snippet), .fit = { .drop = 1, .min_width = 16 } }, \
	{ HIT("score", HQ_COL_NUM, score), .in = HQ_COL_DATA }, \
	{ HIT("score", HQ_COL_SHORT, score), .in = HQ_COL_TABLE, .fit = { .drop = 2 } }
#define DISTANCE \
	{ HIT("distance_km", HQ_COL_NUM, km), .in = HQ_COL_DATA }, \
	{ HIT("distance_km", HQ_COL_SHORT, km), .in = HQ_COL_TABLE }

static const struct hq_col hit_cols[] = { HIT_COLS, WORDS, { .key = NULL } };
static const struct hq_col near_cols[] = { HIT_COLS, WORDS, DISTANCE,
    { .key = NULL } };
static const struct hq_col near_plain_cols[] = {
	HIT_COLS,
	{ HIT("snippet", HQ_COL_STR0, snippet), .in = HQ_COL_DATA },
	{ HIT("score", HQ_COL_NUM, score), .in = HQ_COL_DATA },
	DISTANCE,
	{ .key = NULL },
};

/*
 * The statement of the matches' rowids (and, for find, their scores): in
 * order, paged when paged. A kind is its rowid modulo 8 (schema.c), so
 * --in and an activity recorded twice need no read of the row; the
 * snippets and scores of the rows shown are read afterwards, one by one
 * (detail): computing them for every match before sorting was most of a
 * search's time.
 */
static sqlite3_stmt *
prepare(sqlite3 *db, const struct hq_search *q, const char *fts,
    unsigned bits, int paged, struct hq_err *e)
{
	struct hq_buf b = {0}, in = {0};
	sqlite3_stmt *st = NULL;
	int ranged = q->from != INT64_MIN || q->to != INT64_MAX;

	/* the kind of bit 1 << i is rowid % 8 = i + 1 (schema.c) */
	for (int i = 0; i < 5; i++)
		if (bits & (1u << i))
			hq_buf_printf(&in, "%s%d", in.len ? ", " : "", i + 1);
	/* the time and title sorted on from search_text_key (schema.c),
	 * joined: read from the FTS5 table's content, they were 2/3 of a
	 * search of 3,000 matches (make bench) */
	hq_buf_printf(&b, "SELECT f.rowid, %s FROM search_text AS f JOIN"
	    " search_text_key AS k ON k.id = f.rowid WHERE %s 1", fts ?
	    "-bm25(search_text, 4.0, 1.0) AS score" : "NULL AS score", fts ?
	    "search_text MATCH ?1 AND" : "");
	if (bits != HQ_SEARCH_ALL)
		hq_buf_printf(&b, " AND f.rowid %% 8 IN (%s)", in.data);
	/* metrics and sources have no date: a range leaves them out */
	if (ranged)
		hq_buf_puts(&b, " AND k.time >= ?2 AND k.time < ?3");
	if (q->type)
		hq_buf_puts(&b, " AND f.rowid / 8 IN (SELECT id FROM workout WHERE"
		    " activity_type = ?4)");
	/* an activity recorded twice: the recording counted */
	if (bits & HQ_SEARCH_WORKOUT)
		hq_buf_puts(&b, " AND NOT (f.rowid % 8 = 1 AND f.rowid / 8 IN"
		    " (SELECT workout_id FROM workout_same))");
	/* find reads at most its five (with --near, it skips the workouts not
	 * near): a sort of the best five, not of every match */
	if (q->find && q->near)
		hq_buf_puts(&b, " ORDER BY score DESC, k.time DESC");
	else if (q->find)
		hq_buf_printf(&b, " ORDER BY score DESC, k.time DESC LIMIT %d",
		    HQ_SEARCH_FIND_ROWS);
	else
		hq_buf_puts(&b, " ORDER BY k.time IS NULL, k.time DESC, f.rowid % 8,"
		    " k.title");
	if (paged && q->limit)
		hq_buf_printf(&b, " LIMIT %ld OFFSET %ld", q->limit, q->offset);
	else if (paged && q->offset)
		hq_buf_printf(&b, " LIMIT -1 OFFSET %ld", q->offset);
	if (sqlite3_prepare_v2(db, b.data, -1, &st, NULL) != SQLITE_OK) {
		sql_fail(db, e);
		goto done;
	}
	if (fts)
		sqlite3_bind_text(st, 1, fts, -1, SQLITE_STATIC);
	if (ranged) {
		sqlite3_bind_int64(st, 2, q->from);
		sqlite3_bind_int64(st, 3, q->to);
	}
	if (q->type)
		sqlite3_bind_text(st, 4, q->type, -1, SQLITE_STATIC);
done:
	hq_buf_free(&b);
	hq_buf_free(&in);
	return st;
}

/* What the search asks for, checked: the kinds it reads (bits). */
static int
kinds_of(const struct hq_search *q, unsigned *bits, struct hq_err *e)
{
	*bits = q->kinds ? q->kinds : HQ_SEARCH_ALL;
	if (q->near || q->type) {
		if (q->kinds && !(q->kinds & HQ_SEARCH_WORKOUT)) {
			hq_err_set(e, "%s finds workouts: --in must name workouts",
			    q->near ? "--near" : "--type");
			return -1;
		}
		*bits = HQ_SEARCH_WORKOUT;
	}
	if (!q->text && !q->near) {
		hq_err_set(e, "search for what? give words, --near PLACE, or both");
		return -1;
	}
	return 0;
}

/* Rows shown at most at once: their snippets read in one pass over the
 * matches. */
#define PAGE_ROWS 64

/* A row to show, read by its rowid: its kind, id, time and title; with
 * words its snippet, read beforehand for the rows about to be shown
 * (detail_snippets; its score is the list's: bm25() here would count
 * each word's rows again for every row). */
struct detail {
	sqlite3_stmt *st;
	const char *fts;
	int64_t rowid[PAGE_ROWS];
	char *snippet[PAGE_ROWS];
	size_t n;
};

static int
detail_open(sqlite3 *db, struct detail *d, const char *fts, struct hq_err *e)
{
	d->fts = fts;
	if (sqlite3_prepare_v2(db, "SELECT kind, ref, time, title FROM"
	    " search_text WHERE rowid = ?1", -1, &d->st, NULL) != SQLITE_OK)
		return sql_fail(db, e);
	return 0;
}

static void
detail_close(struct detail *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->snippet[i]);
	d->n = 0;
	sqlite3_finalize(d->st);
}

/*
 * The snippets of the rows of rowid[0..n) (n <= PAGE_ROWS), kept in d:
 * one statement, the matches read once and a snippet made for these
 * alone. A statement a row (MATCH and rowid = ?) read the words' lists
 * again each time: 0.46 M instructions a row of a word with 3,160
 * matches (make bench).
 */
static int
detail_snippets(sqlite3 *db, struct detail *d, const int64_t *rowid,
    size_t n, struct hq_err *e)
{
	struct hq_buf b = {0};
	sqlite3_stmt *st = NULL;
	int rc = 0, step;

	for (size_t i = 0; i < d->n; i++)
		free(d->snippet[i]);
	d->n = 0;
	if (!d->fts || !n)
		return 0;
	hq_buf_puts(&b, "SELECT rowid, snippet(search_text, 1, '[', ']', '…', 10)"
	    " FROM search_text WHERE search_text MATCH ?1 AND ");
	/* a row or three: each found by its rowid (a pass over the matches
	 * costs about three) */
	hq_buf_puts(&b, n <= 3 ? "rowid IN (" : "+rowid IN (");
	for (size_t i = 0; i < n; i++)
		hq_buf_printf(&b, "%s%lld", i ? "," : "", (long long)rowid[i]);
	hq_buf_puts(&b, ")");
	if (sqlite3_prepare_v2(db, b.data, -1, &st, NULL) != SQLITE_OK) {
		hq_buf_free(&b);
		return sql_fail(db, e);
	}
	hq_buf_free(&b);
	sqlite3_bind_text(st, 1, d->fts, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW && d->n < PAGE_ROWS) {
		const char *t = (const char *)sqlite3_column_text(st, 1);
		d->rowid[d->n] = sqlite3_column_int64(st, 0);
		d->snippet[d->n++] = t ? hq_xstrdup(t) : NULL;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = sql_fail(db, e);
	sqlite3_finalize(st);
	return rc;
}

/* The row of rowid into h (its strings the statement's and d's, good
 * until the next call): 1, 0 when there is none, -1. */
static int
detail_get(sqlite3 *db, struct detail *d, int64_t rowid, struct hit *h,
    struct hq_err *e)
{
	int step;

	sqlite3_reset(d->st);
	sqlite3_bind_int64(d->st, 1, rowid);
	if ((step = sqlite3_step(d->st)) == SQLITE_DONE)
		return 0;
	if (step != SQLITE_ROW)
		return sql_fail(db, e);
	*h = (struct hit){
		.kind = (const char *)sqlite3_column_text(d->st, 0),
		.id = (const char *)sqlite3_column_text(d->st, 1),
		.time = sqlite3_column_type(d->st, 2) == SQLITE_NULL ? INT64_MIN :
		    sqlite3_column_int64(d->st, 2),
		.title = (const char *)sqlite3_column_text(d->st, 3),
		.score = NAN,
		.km = NAN,
	};
	for (size_t i = 0; i < d->n; i++)
		if (d->rowid[i] == rowid)
			h->snippet = d->snippet[i];
	return h->kind && h->id ? 1 : 0;
}

/* --near without words: the workouts near that pass --type, --from and
 * --to and are not a recording that yields, in ns (bounded by the
 * workouts near, never the points), newest first or closest first. */
struct kept {
	int64_t workout, time;
	double km;
};

static int
cmp_kept_time(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	if (x->time != y->time)
		return (x->time < y->time) - (x->time > y->time);
	return (x->workout > y->workout) - (x->workout < y->workout);
}

static int
cmp_kept_km(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	if (x->km != y->km)
		return (x->km > y->km) - (x->km < y->km);
	return cmp_kept_time(a, b);
}

static long
near_only(sqlite3 *db, const struct hq_search *q, struct near_set *ns,
    struct hq_out *out, struct hq_err *e)
{
	sqlite3_stmt *w = NULL;
	struct detail d = {0};
	struct kept *k = hq_xcalloc(ns->n ? ns->n : 1, sizeof *k);
	size_t n = 0, i, first, end;
	long rows = -1;
	int step;

	if (sqlite3_prepare_v2(db, "SELECT start FROM workout AS w WHERE id = ?1"
	    " AND (?2 IS NULL OR activity_type = ?2) AND start >= ?3 AND start"
	    " < ?4 AND NOT EXISTS (SELECT 1 FROM workout_same WHERE workout_id ="
	    " w.id)", -1, &w, NULL) != SQLITE_OK) {
		sql_fail(db, e);
		goto done;
	}
	for (i = 0; i < ns->n; i++) {
		sqlite3_reset(w);
		sqlite3_bind_int64(w, 1, ns->v[i].workout);
		if (q->type)
			sqlite3_bind_text(w, 2, q->type, -1, SQLITE_STATIC);
		sqlite3_bind_int64(w, 3, q->from);
		sqlite3_bind_int64(w, 4, q->to);
		if ((step = sqlite3_step(w)) == SQLITE_ROW)
			k[n++] = (struct kept){ ns->v[i].workout,
			    sqlite3_column_int64(w, 0), ns->v[i].km };
		else if (step != SQLITE_DONE) {
			sql_fail(db, e);
			goto done;
		}
	}
	if (!out) {
		rows = (long)n;
		goto done;
	}
	qsort(k, n, sizeof *k, q->find ? cmp_kept_km : cmp_kept_time);
	first = q->find ? 0 : (size_t)q->offset;
	end = q->find ? HQ_SEARCH_FIND_ROWS : q->limit ? first + (size_t)q->limit : n;
	if (detail_open(db, &d, NULL, e))
		goto done;
	rows = 0;
	for (i = first; i < n && i < end; i++) {
		struct hit h;
		int got = detail_get(db, &d, k[i].workout * 8 + 1, &h, e);
		if (got < 0) {
			rows = -1;
			goto done;
		}
		if (!got)
			continue;
		h.km = k[i].km;
		if (h.km < 0 && near_exact(db, q, ns, k[i].workout, &h.km, e)) {
			rows = -1;
			goto done;
		}
		hq_out_row(out, near_plain_cols, &h);
		rows++;
	}
done:
	detail_close(&d);
	sqlite3_finalize(w);
	free(k);
	return rows;
}

/* A match to show: its rowid, score and distance (NaN: none; < 0: in,
 * not measured yet). */
struct shown {
	int64_t rowid;
	double score, km;
};

/* The rows of page[0..*n), to out, their snippets read at once: the rows
 * written, or -1. */
static long
show(sqlite3 *db, const struct hq_search *q, struct near_set *ns,
    struct detail *d, struct shown *page, size_t *n, struct hq_out *out,
    struct hq_err *e)
{
	int64_t rowid[PAGE_ROWS];
	long rows = 0;

	for (size_t i = 0; i < *n; i++)
		rowid[i] = page[i].rowid;
	if (detail_snippets(db, d, rowid, *n, e))
		return -1;
	for (size_t i = 0; i < *n; i++) {
		struct hit h;
		int got = detail_get(db, d, page[i].rowid, &h, e);
		if (got < 0)
			return -1;
		if (!got)
			continue;
		h.km = page[i].km;
		if (h.km < 0 && near_exact(db, q, ns, page[i].rowid / 8, &h.km, e))
			return -1;
		h.score = page[i].score;
		hq_out_row(out, q->near ? near_cols : hit_cols, &h);
		rows++;
	}
	*n = 0;
	return rows;
}

/*
 * Every match, in order, to out (NULL: counted only): the rows written.
 * Without --near SQLite pages; with words and --near the matches are
 * those of the workouts near, and the paging is here.
 */
static long
run(struct hq_store *s, const struct hq_search *q, struct hq_out *out,
    struct hq_err *e)
{
	sqlite3 *db = hq_store_db(s);
	struct near_set ns = {0};
	struct detail d = {0};
	struct shown page[PAGE_ROWS];
	size_t npage = 0;
	sqlite3_stmt *st = NULL;
	char *fts = NULL;
	unsigned bits;
	int find = q->find && out != NULL;
	long n = -1, seen = 0, want = find ? HQ_SEARCH_FIND_ROWS : out ? q->limit : 0;
	double best = NAN;
	int step;

	if (kinds_of(q, &bits, e) ||
	    (q->text && hq_search_compile(q->text, &fts, e)))
		return -1;
	/* the closest five, and every row shown, need every workout's
	 * distance; a page or a count, whether each is in (and the distance
	 * of the rows shown) */
	if (q->near && near_collect(db, q, &ns, (find && !fts) || (out &&
	    !q->limit && !find), e))
		goto done;
	if (out)
		hq_out_fit_cols(out, q->near ? fts ? near_cols : near_plain_cols :
		    hit_cols);
	if (q->near && !fts) {
		struct hq_search qq = *q;
		qq.find = find;
		n = near_only(db, &qq, &ns, out, e);
		goto done;
	}
	if (!(st = prepare(db, &(struct hq_search){ .from = q->from, .to = q->to,
	    .type = q->type, .find = find, .near = q->near, .limit = q->limit,
	    .offset = q->offset }, fts, bits, !q->near && !find && out, e)) ||
	    (out && detail_open(db, &d, fts, e)))
		goto done;
	n = 0;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t rowid = sqlite3_column_int64(st, 0);
		double km = NAN;

		if (q->near) {
			struct near_hit key = { rowid / 8, 0 };
			const struct near_hit *nh = bsearch(&key, ns.v, ns.n,
			    sizeof *ns.v, cmp_hit_id);
			if (!nh)
				continue;
			km = nh->km;
			if (!find && seen++ < q->offset)
				continue;
		}
		/* find: the strong matches, at least half the best's score */
		if (find) {
			double score = sqlite3_column_double(st, 1);
			if (isnan(best))
				best = score;
			else if (!(score >= best / 2))
				break;
		}
		if (out) {
			page[npage++] = (struct shown){ rowid, fts ?
			    sqlite3_column_double(st, 1) : NAN, km };
			if (npage == PAGE_ROWS && show(db, q, &ns, &d, page, &npage,
			    out, e) < 0) {
				n = -1;
				goto done;
			}
		}
		if (++n == want)
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		sql_fail(db, e);
		n = -1;
	} else if (out && show(db, q, &ns, &d, page, &npage, out, e) < 0)
		n = -1;
done:
	detail_close(&d);
	sqlite3_finalize(st);
	sqlite3_finalize(ns.rt);
	sqlite3_finalize(ns.mm);
	sqlite3_finalize(ns.bx);
	sqlite3_finalize(ns.pt);
	free(ns.v);
	free(fts);
	return n;
}

long
hq_search_run(struct hq_store *s, const struct hq_search *q,
    struct hq_out *out, struct hq_err *e)
{
	return run(s, q, out, e);
}

long
hq_search_count(struct hq_store *s, const struct hq_search *q,
    struct hq_err *e)
{
	return run(s, q, NULL, e);
}
