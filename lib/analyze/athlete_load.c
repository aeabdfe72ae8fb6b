/* A workout's heart rate and power as held pieces, its load, zones and
 * elevation, and the daily fitness/fatigue/form series (athlete_load.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete_cache.h"
#include "hq/athlete_load.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/workout.h"

#define POWER_ID "HKQuantityTypeIdentifierCyclingPower"

size_t
hq_athlete_hold(const struct hq_tv *smp, size_t n, int64_t start,
    int64_t end, const struct hq_span *p, size_t np, struct hq_held *out)
{
	size_t k = 0, ip = 0, i = 0, m = 0;

	/* Keep the samples inside [start, end) and outside the pauses. */
	for (i = 0; i < n; i++) {
		int64_t t = smp[i].t;
		if (t < start || t >= end)
			continue;
		while (ip < np && p[ip].to <= t)
			ip++;
		if (ip < np && p[ip].from <= t)
			continue;
		out[k].t = t;
		out[k].v = smp[i].v;
		k++;
	}
	/* Each holds until the next, the end or the next pause, at most
	 * HQ_ATHLETE_HOLD_S. */
	ip = 0;
	for (i = 0; i < k; i++) {
		int64_t t = out[i].t, lim = t + HQ_ATHLETE_HOLD_S;
		if (i + 1 < k && out[i + 1].t < lim)
			lim = out[i + 1].t;
		if (end < lim)
			lim = end;
		while (ip < np && p[ip].from <= t)
			ip++;
		if (ip < np && p[ip].from < lim)
			lim = p[ip].from;
		out[i].dt = lim - t;
		m++;
	}
	return m;
}

/* The statements a walk over workouts keeps. */
enum {
	Q_WORKOUT, Q_EVENTS, Q_SAMPLES, Q_META, Q_ELE, Q_N,
};

static const struct hq_store_sql sqls[Q_N] = {
	/* An activity recorded twice: the distance, and the source of the
	 * power, of the recording it takes them from (workout.h). */
	[Q_WORKOUT] = { "SELECT activity_type, source_id, start, end,"
	    " coalesce(distance, (SELECT d.distance FROM workout d WHERE d.id ="
	    " " HQ_WORKOUT_FILLED("distance", "?1") ")), (SELECT p.source_id"
	    " FROM workout_fill f JOIN workout p ON p.id = f.from_id WHERE"
	    " f.workout_id = ?1 AND f.field = 'power')"
	    " FROM workout WHERE id = ?1", "reading a workout" },
	/* Workout-level events when there are any, else the activities'. */
	[Q_EVENTS] = { "SELECT type, date FROM workout_event WHERE workout_id = ?1"
	    " AND (activity_uuid IS NULL) = (SELECT count(*) > 0 FROM workout_event"
	    " WHERE workout_id = ?1 AND activity_uuid IS NULL)"
	    " ORDER BY date, rowid", "reading a workout's events" },
	[Q_SAMPLES] = { "SELECT start, value, source_id FROM sample"
	    " WHERE metric_id = ?1 AND start >= ?2 AND start < ?3 AND text = ''"
	    " ORDER BY start, source_id, end, value, text",   /* sample_key's order */
	    "reading a workout's samples" },
	[Q_META] = { "SELECT value FROM workout_meta WHERE workout_id = "
	    HQ_WORKOUT_FILLED("ascent", "?1") " AND activity_uuid IS NULL"
	    " AND key = 'HKElevationAscended' ORDER BY rowid LIMIT 1",
	    "reading a workout's metadata" },
	/* ordered by columns it returns: SQLite then joins each part of a
	 * pruned store's route_point (the store's, the archive's: hybrid.h)
	 * by route_id, which reads only the route's month; ordered by
	 * another it reads the whole view first (every pruned month) */
	[Q_ELE] = { "SELECT rp.ele, r.id, rp.seq FROM route r JOIN route_point rp"
	    " ON rp.route_id = r.id WHERE r.workout_id = "
	    HQ_WORKOUT_FILLED("route", "?1") " AND rp.ele IS NOT NULL"
	    " ORDER BY 2, 3", "reading a workout's route" },
};

struct reader {
	struct hq_store *s;
	sqlite3_stmt *st[Q_N];
	int64_t hr_id, power_id;
	struct hq_tv *tv;
	int64_t *src;
	size_t cap;
	double *ele;
	size_t ele_cap;
};

static int
step_error(struct reader *r, int q, struct hq_err *e)
{
	hq_err_set(e, "%s: %s: %s", hq_store_filename(r->s), sqls[q].what,
	    sqlite3_errmsg(hq_store_db(r->s)));
	return -1;
}

static sqlite3_stmt *
stmt(struct reader *r, int q, const struct hq_bind *v, struct hq_err *e)
{
	sqlite3_stmt *st = hq_store_stmt(r->s, &sqls[q], &r->st[q], e);

	if (st) {
		sqlite3_reset(st);
		hq_store_bind(st, v);
	}
	return st;
}

static void
reader_done(struct reader *r)
{
	hq_store_finalize(r->st, Q_N);
	free(r->tv);
	free(r->src);
	free(r->ele);
}

/* The pause [a, b) clipped to w, unless empty. */
static void
add_pause(struct hq_athlete_workout *w, size_t *cap, int64_t a, int64_t b)
{
	if (a < w->start)
		a = w->start;
	if (b > w->end)
		b = w->end;
	if (b <= a)
		return;
	if (w->npauses == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		w->pauses = hq_xrealloc(w->pauses, *cap * sizeof *w->pauses);
	}
	w->pauses[w->npauses].from = a;
	w->pauses[w->npauses].to = b;
	w->npauses++;
	w->paused_s += b - a;
}

/* Pauses from the events (Pause or MotionPaused to the next Resume or
 * MotionResumed; an unclosed one to the end), clipped to [start, end). */
static int
read_pauses(struct reader *r, struct hq_athlete_workout *w, struct hq_err *e)
{
	sqlite3_stmt *q = stmt(r, Q_EVENTS, (struct hq_bind[]){ HQ_INT(w->id),
	    HQ_END }, e);
	size_t cap = 0;
	int64_t since = 0;
	int in_pause = 0, rc;

	if (!q)
		return -1;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(q, 0);
		int64_t date = sqlite3_column_int64(q, 1);

		if (!type)
			continue;
		enum hq_workout_event_kind k = hq_workout_event_kind(type);

		if (k == HQ_EVENT_PAUSE) {
			if (!in_pause) {
				in_pause = 1;
				since = date;
			}
		} else if (k == HQ_EVENT_RESUME && in_pause) {
			in_pause = 0;
			add_pause(w, &cap, since, date);
		}
	}
	if (rc != SQLITE_DONE)
		return step_error(r, Q_EVENTS, e);
	if (in_pause)
		add_pause(w, &cap, since, w->end);
	sqlite3_reset(q);
	return 0;
}

/* The held pieces of metric's samples inside w from one source: w's own
 * when it has some, else then's (0: none) when it has some, else the one
 * with the most. */
static int
read_series(struct reader *r, struct hq_athlete_workout *w, int64_t metric,
    int64_t then, struct hq_held **out, size_t *nout, int64_t *source,
    double *sample_max, struct hq_err *e)
{
	sqlite3_stmt *q;
	size_t n = 0, kept = 0, kept_then = 0, ip = 0, best_n = 0, k;
	int64_t best = 0;
	int rc, hr = metric == r->hr_id;
	double lo, hi;

	*out = NULL;
	*nout = 0;
	*source = 0;
	*sample_max = NAN;
	if (metric <= 0)
		return 0;
	/* What a body makes (catalog.h): a store filled before the import
	 * writer checked (a file's heart rate of 60,000, power of -50 W)
	 * poisons no load. */
	hq_catalog_bounds(hq_catalog_by_identifier(hr ? HQ_HEART_RATE_ID :
	    POWER_ID), &lo, &hi);
	q = stmt(r, Q_SAMPLES, (struct hq_bind[]){ HQ_INT(metric),
	    HQ_INT(w->start), HQ_INT(w->end), HQ_END }, e);
	if (!q)
		return -1;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t t = sqlite3_column_int64(q, 0);
		double v = sqlite3_column_double(q, 1);
		if (!(v >= lo && v <= hi))
			continue;
		/* The highest of any source, pauses included: max_hr's
		 * default, among the rates a setting could be. */
		if (hr && v >= HQ_ATHLETE_HR_LO && v <= HQ_ATHLETE_HR_HI &&
		    (isnan(*sample_max) || v > *sample_max))
			*sample_max = v;
		/* Only samples outside the pauses count towards a source. */
		while (ip < w->npauses && w->pauses[ip].to <= t)
			ip++;
		if (ip < w->npauses && w->pauses[ip].from <= t)
			continue;
		if (n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 1024;
			r->tv = hq_xrealloc(r->tv, r->cap * sizeof *r->tv);
			r->src = hq_xrealloc(r->src, r->cap * sizeof *r->src);
		}
		r->tv[n].t = t;
		r->tv[n].v = v;
		r->src[n] = sqlite3_column_int64(q, 2);
		n++;
	}
	if (rc != SQLITE_DONE)
		return step_error(r, Q_SAMPLES, e);
	sqlite3_reset(q);
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		kept += r->src[i] == w->source_id;
		kept_then += then && r->src[i] == then;
	}
	if (kept) {
		best = w->source_id;
	} else if (kept_then) {
		best = then;
	} else {
		/* Sources are few: count them in a short list. */
		struct { int64_t id; size_t n; } *c = NULL;
		size_t nc = 0, j;
		for (size_t i = 0; i < n; i++) {
			for (j = 0; j < nc && c[j].id != r->src[i]; j++)
				;
			if (j == nc) {
				c = hq_xrealloc(c, (nc + 1) * sizeof *c);
				c[nc].id = r->src[i];
				c[nc++].n = 0;
			}
			c[j].n++;
		}
		for (j = 0; j < nc; j++)
			if (c[j].n > best_n || (c[j].n == best_n && c[j].id < best)) {
				best_n = c[j].n;
				best = c[j].id;
			}
		free(c);
	}
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (r->src[i] == best)
			r->tv[k++] = r->tv[i];
	*out = hq_xmalloc(k * sizeof **out);
	*nout = hq_athlete_hold(r->tv, k, w->start, w->end, w->pauses,
	    w->npauses, *out);
	*source = best;
	return 0;
}

double
hq_athlete_gain(const double *ele, size_t n)
{
	double ref = NAN, gain = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(ele[i]))
			continue;
		if (isnan(ref))
			ref = ele[i];
		else if (ele[i] - ref >= 3) {
			gain += ele[i] - ref;
			ref = ele[i];
		} else if (ref - ele[i] >= 3)
			ref = ele[i];
	}
	return isnan(ref) ? NAN : gain;
}

static int
read_elevation(struct reader *r, struct hq_athlete_workout *w,
    struct hq_err *e)
{
	sqlite3_stmt *q;
	size_t n = 0;
	int rc;

	w->ascended_m = w->route_gain_m = NAN;
	q = stmt(r, Q_META, (struct hq_bind[]){ HQ_INT(w->id), HQ_END }, e);
	if (!q)
		return -1;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(q, 0);
		char *end;
		double x = v ? strtod(v, &end) : NAN, m;
		if (v && end != v && isfinite(x)) {
			while (*end == ' ')
				end++;
			if (hq_unit_convert(x, *end ? end : "m", "m", &m) == 0)
				w->ascended_m = m;
		}
	} else if (rc != SQLITE_DONE)
		return step_error(r, Q_META, e);
	sqlite3_reset(q);
	q = stmt(r, Q_ELE, (struct hq_bind[]){ HQ_INT(w->id), HQ_END }, e);
	if (!q)
		return -1;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (n == r->ele_cap) {
			r->ele_cap = r->ele_cap ? 2 * r->ele_cap : 1024;
			r->ele = hq_xrealloc(r->ele, r->ele_cap * sizeof *r->ele);
		}
		r->ele[n++] = sqlite3_column_double(q, 0);
	}
	if (rc != SQLITE_DONE)
		return step_error(r, Q_ELE, e);
	sqlite3_reset(q);
	w->route_gain_m = hq_athlete_gain(r->ele, n);
	return 0;
}

/* The workout row alone: 1, 0 when there is none, -1. */
static int
reader_head(struct reader *r, int64_t id, struct hq_athlete_workout *w,
    struct hq_err *e)
{
	sqlite3_stmt *q = stmt(r, Q_WORKOUT, (struct hq_bind[]){ HQ_INT(id),
	    HQ_END }, e);
	int rc;

	memset(w, 0, sizeof *w);
	if (!q)
		return -1;
	rc = sqlite3_step(q);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(q);
		return 0;
	}
	if (rc != SQLITE_ROW)
		return step_error(r, Q_WORKOUT, e);
	w->id = id;
	snprintf(w->type, sizeof w->type, "%s",
	    (const char *)sqlite3_column_text(q, 0));
	w->source_id = sqlite3_column_int64(q, 1);
	w->start = sqlite3_column_int64(q, 2);
	w->end = sqlite3_column_int64(q, 3);
	w->distance_m = hq_store_col_num(q, 4);
	w->power_fill_source = sqlite3_column_int64(q, 5);
	w->ascended_m = w->route_gain_m = w->hr_sample_max = NAN;
	sqlite3_reset(q);
	return 1;
}

/* The rest of w after reader_head: pauses, series, elevation. */
static int
reader_body(struct reader *r, unsigned flags, struct hq_athlete_workout *w,
    struct hq_err *e)
{
	double pmax;

	if (read_pauses(r, w, e) ||
	    read_series(r, w, r->hr_id, 0, &w->hr, &w->nhr, &w->hr_source,
	    &w->hr_sample_max, e) ||
	    read_series(r, w, r->power_id, w->power_fill_source, &w->power,
	    &w->npower, &w->power_source, &pmax, e) ||
	    (!(flags & HQ_ATHLETE_LOAD_ONLY) && read_elevation(r, w, e))) {
		hq_athlete_workout_free(w);
		return -1;
	}
	return 1;
}

static int
reader_read(struct reader *r, int64_t id, unsigned flags,
    struct hq_athlete_workout *w, struct hq_err *e)
{
	int rc = reader_head(r, id, w, e);

	return rc <= 0 ? rc : reader_body(r, flags, w, e);
}

/* Workout id's figures from its kept summary, else from its samples
 * (then kept): 1, 0 when there is no such workout, -1. */
static int
reader_cached(struct reader *r, struct hq_athcache *c,
    const struct hq_athlete *a, int64_t id, struct hq_athlete_workout *w,
    struct hq_athlete_figures *f, struct hq_err *e)
{
	struct hq_athlete_summary sum;
	int rc = reader_head(r, id, w, e);

	if (rc <= 0)
		return rc;
	if ((rc = hq_athcache_get(c, id, &sum, e)) < 0) {
		hq_athlete_workout_free(w);
		return -1;
	}
	if (rc) {
		w->cached = 1;
		w->paused_s = sum.paused_s;
		w->hr_source = sum.hr_source;
		w->power_source = sum.power_source;
		w->hr_sample_max = sum.hr_sample_max;
		w->route_gain_m = sum.route_gain_m;
		w->ascended_m = sum.ascended_m;
	} else {
		/* Everything, elevation too: the row serves every walk. */
		if (reader_body(r, 0, w, e) < 0)
			return -1;
		hq_athlete_summarize(w, &sum);
		hq_athcache_put(c, &sum);
	}
	sum.start = w->start;
	sum.end = w->end;
	hq_athlete_figures_of(a, &sum, f);
	hq_athlete_summary_free(&sum);
	return 1;
}

static int
reader_start(struct reader *r, struct hq_store *s, struct hq_err *e)
{
	memset(r, 0, sizeof *r);
	r->s = s;
	if ((r->hr_id = hq_store_metric_id(s, HQ_HEART_RATE_ID, 0, e)) < 0 ||
	    (r->power_id = hq_store_metric_id(s, POWER_ID, 0, e)) < 0)
		return -1;
	return 0;
}

int
hq_athlete_read(struct hq_store *s, int64_t id, struct hq_athlete_workout *w,
    struct hq_err *e)
{
	struct reader r;
	int rc;

	memset(w, 0, sizeof *w);
	if (reader_start(&r, s, e))
		return -1;
	rc = reader_read(&r, id, 0, w, e);
	reader_done(&r);
	return rc;
}

void
hq_athlete_workout_free(struct hq_athlete_workout *w)
{
	free(w->pauses);
	free(w->hr);
	free(w->power);
	memset(w, 0, sizeof *w);
}

/* The 1 s series of held pieces, malloc'd; *n its length. */
static double *
per_second(const struct hq_held *p, size_t n, size_t *len)
{
	size_t total = 0, k = 0;
	double *v;

	for (size_t i = 0; i < n; i++)
		total += (size_t)p[i].dt;
	*len = total;
	v = hq_xmalloc((total ? total : 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		for (int64_t s = 0; s < p[i].dt; s++)
			v[k++] = p[i].v;
	return v;
}

double
hq_athlete_np(const struct hq_held *p, size_t n, double *seconds)
{
	size_t len;
	double *v = per_second(p, n, &len), sum = 0, sum4 = 0;

	*seconds = (double)len;
	if (len < 30) {
		free(v);
		return NAN;
	}
	for (size_t i = 0; i < len; i++) {
		sum += v[i];
		if (i >= 30)
			sum -= v[i - 30];
		if (i >= 29) {
			double r = sum / 30;
			sum4 += r * r * r * r;
		}
	}
	free(v);
	return pow(sum4 / (double)(len - 29), 0.25);
}

static int
by_hr(const void *x, const void *y)
{
	double a = ((const struct hq_athlete_bin *)x)->hr;
	double b = ((const struct hq_athlete_bin *)y)->hr;

	return (a > b) - (a < b);
}

/* The bins of heart rates that are all whole beats below WHOLE_MAX (what
 * devices write), counted rather than sorted: their number, 0 when some
 * is not. The same bins as sorting gives, since seconds are integers. */
#define WHOLE_MAX 512

static size_t
whole_bins(const struct hq_held *hr, size_t nhr, struct hq_athlete_bin *out)
{
	int64_t secs[WHOLE_MAX];
	unsigned char seen[WHOLE_MAX];
	size_t n = 0;

	memset(seen, 0, sizeof seen);
	for (size_t i = 0; i < nhr; i++) {
		double v = hr[i].v;
		if (!(v >= 1 && v < WHOLE_MAX) || v != (double)(int)v)
			return 0;
		if (!seen[(int)v]) {
			seen[(int)v] = 1;
			secs[(int)v] = 0;
		}
		secs[(int)v] += hr[i].dt;
	}
	for (int b = 0; b < WHOLE_MAX; b++)
		if (seen[b]) {
			out[n].hr = b;
			out[n++].secs = secs[b];
		}
	return n;
}

void
hq_athlete_summarize(const struct hq_athlete_workout *w,
    struct hq_athlete_summary *s)
{
	size_t n = 0;

	memset(s, 0, sizeof *s);
	s->id = w->id;
	s->start = w->start;
	s->end = w->end;
	s->paused_s = w->paused_s;
	s->hr_source = w->hr_source;
	s->power_source = w->power_source;
	s->nhr = w->nhr;
	s->hr_max = NAN;
	s->hr_sample_max = w->hr_sample_max;
	s->bins = hq_xmalloc((w->nhr ? w->nhr : 1) * sizeof *s->bins);
	for (size_t i = 0; i < w->nhr; i++)
		if (isnan(s->hr_max) || w->hr[i].v > s->hr_max)
			s->hr_max = w->hr[i].v;
	s->nbins = whole_bins(w->hr, w->nhr, s->bins);
	if (s->nbins == 0 && w->nhr) {
		for (size_t i = 0; i < w->nhr; i++) {
			s->bins[i].hr = w->hr[i].v;
			s->bins[i].secs = w->hr[i].dt;
		}
		qsort(s->bins, w->nhr, sizeof *s->bins, by_hr);
		for (size_t i = 0; i < w->nhr; i++) {
			if (n && s->bins[n - 1].hr == s->bins[i].hr)
				s->bins[n - 1].secs += s->bins[i].secs;
			else
				s->bins[n++] = s->bins[i];
		}
		s->nbins = n;
	}
	s->np = NAN;
	if (w->npower)
		s->np = hq_athlete_np(w->power, w->npower, &s->power_s);
	s->route_gain_m = w->route_gain_m;
	s->ascended_m = w->ascended_m;
}

void
hq_athlete_summary_free(struct hq_athlete_summary *s)
{
	free(s->bins);
	memset(s, 0, sizeof *s);
}

void
hq_athlete_figures_of(const struct hq_athlete *a,
    const struct hq_athlete_summary *s, struct hq_athlete_figures *f)
{
	double lo[6], ca, cb, range = a->max_hr - a->rest_hr, secs = 0, vsum = 0;

	f->moving_min = (double)(s->end - s->start - s->paused_s) / 60;
	f->trimp = f->hrss = f->edwards = f->avg_hr = NAN;
	f->max_hr = s->nhr ? s->hr_max : NAN;
	for (int z = 0; z < 6; z++)
		f->z_min[z] = NAN;
	hq_athlete_zone_edges(a, lo);
	hq_athlete_banister(a->sex, &ca, &cb);
	for (size_t i = 0; i < s->nbins; i++) {
		secs += (double)s->bins[i].secs;
		vsum += s->bins[i].hr * (double)s->bins[i].secs;
	}
	f->hr_minutes = secs / 60;
	f->hr_coverage_pct = f->moving_min > 0 ? 100 * f->hr_minutes /
	    f->moving_min : NAN;
	if (s->nhr && secs > 0)
		f->avg_hr = vsum / secs;
	if (s->nhr && !isnan(a->max_hr) && range > 0) {
		double trimp = 0, edw = 0, xlt;
		for (int z = 0; z < 6; z++)
			f->z_min[z] = 0;
		for (size_t i = 0; i < s->nbins; i++) {
			double hr = s->bins[i].hr, dt = (double)s->bins[i].secs / 60;
			double x = (hr - a->rest_hr) / range, q = hr / a->max_hr;
			int z = 0;
			if (x < 0)
				x = 0;
			trimp += dt * x * ca * exp(cb * x);
			edw += dt * (q >= 0.9 ? 5 : q >= 0.8 ? 4 : q >= 0.7 ? 3 :
			    q >= 0.6 ? 2 : q >= 0.5 ? 1 : 0);
			for (int k = 5; k > 0; k--)
				if (hr >= lo[k]) {
					z = k;
					break;
				}
			f->z_min[z] += dt;
		}
		f->trimp = trimp;
		f->edwards = edw;
		xlt = (a->lthr - a->rest_hr) / range;
		if (!isnan(xlt) && xlt > 0)
			f->hrss = 100 * trimp / (60 * xlt * ca * exp(cb * xlt));
	}
	f->np = s->np;
	f->power_s = s->power_s;
	f->if_ = f->tss = NAN;
	if (!isnan(f->np) && a->ftp > 0) {
		f->if_ = f->np / a->ftp;
		f->tss = f->power_s * f->np * f->if_ / (a->ftp * 3600) * 100;
	}
	f->load = !isnan(f->tss) ? f->tss : f->hrss;
	f->elevation_gain_m = !isnan(s->route_gain_m) ? s->route_gain_m :
	    s->ascended_m;
	/* Nothing non-finite leaves here: an infinite load would make every
	 * later day's ctl, atl and tsb NaN, on every page. */
	double *all[] = { &f->trimp, &f->hrss, &f->edwards, &f->avg_hr,
		&f->max_hr, &f->np, &f->if_, &f->tss, &f->load,
		&f->elevation_gain_m, &f->hr_minutes, &f->hr_coverage_pct };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (!isfinite(*all[i]))
			*all[i] = NAN;
	for (int z = 0; z < 6; z++)
		if (!isfinite(f->z_min[z]))
			f->z_min[z] = NAN;
}

void
hq_athlete_figures(const struct hq_athlete *a,
    const struct hq_athlete_workout *w, struct hq_athlete_figures *f)
{
	struct hq_athlete_summary s;

	hq_athlete_summarize(w, &s);
	hq_athlete_figures_of(a, &s, f);
	hq_athlete_summary_free(&s);
}

void
hq_athlete_pmc(struct hq_athlete_day *d, size_t n)
{
	const double k42 = 1 - exp(-1.0 / 42), k7 = 1 - exp(-1.0 / 7);
	double ctl = 0, atl = 0;

	for (size_t i = 0; i < n; i++) {
		d[i].tsb = ctl - atl;
		ctl += (d[i].load - ctl) * k42;
		atl += (d[i].load - atl) * k7;
		d[i].ctl = ctl;
		d[i].atl = atl;
		d[i].ramp = i >= 7 ? ctl - d[i - 7].ctl : NAN;
	}
}

/* "SELECT id FROM workout WHERE activity_type IN (?,...) AND ..." */
static int
prepare_walk(struct hq_store *s, size_t ntypes, const char *const *types,
    int64_t from, int64_t to, sqlite3_stmt **q, struct hq_err *e)
{
	struct hq_buf b = {0};
	int rc, i = 1;

	hq_buf_puts(&b, "SELECT id FROM workout WHERE 1");
	/* An activity recorded twice counts once (issue 22, workout.h). */
	if (hq_workout_has_same(s))
		hq_buf_puts(&b, " AND id NOT IN (SELECT workout_id FROM"
		    " workout_same)");
	if (ntypes) {
		hq_buf_puts(&b, " AND activity_type IN (");
		for (size_t k = 0; k < ntypes; k++)
			hq_buf_puts(&b, k ? ",?" : "?");
		hq_buf_puts(&b, ")");
	}
	if (from || to)
		hq_buf_puts(&b, " AND start >= ? AND start < ?");
	hq_buf_puts(&b, " ORDER BY start, id");
	rc = hq_store_prepare(s, b.data, q, e);
	hq_buf_free(&b);
	if (rc)
		return -1;
	for (size_t k = 0; k < ntypes; k++)
		sqlite3_bind_text(*q, i++, types[k], -1, SQLITE_STATIC);
	if (from || to) {
		sqlite3_bind_int64(*q, i++, from);
		sqlite3_bind_int64(*q, i++, to ? to : INT64_MAX);
	}
	return 0;
}

long
hq_athlete_each(struct hq_store *s, const struct hq_athlete *a,
    const char *const *types, size_t ntypes, int64_t from, int64_t to,
    unsigned flags, hq_athlete_fn *fn, void *arg, struct hq_err *e)
{
	struct reader r;
	struct hq_athcache *c = NULL;
	sqlite3_stmt *q;
	long n = 0;
	int rc;

	if (reader_start(&r, s, e))
		return -1;
	if (((flags & HQ_ATHLETE_CACHED) && !(c = hq_athcache_open(s, e))) ||
	    prepare_walk(s, ntypes, types, from, to, &q, e)) {
		hq_athcache_close(c);
		reader_done(&r);
		return -1;
	}
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct hq_athlete_workout w;
		struct hq_athlete_figures f;
		int64_t id = sqlite3_column_int64(q, 0);
		int got = c ? reader_cached(&r, c, a, id, &w, &f, e) :
		    reader_read(&r, id, flags, &w, e);
		int stop;

		if (got < 0) {
			n = -1;
			break;
		}
		if (got == 0)
			continue;
		if (!c)
			hq_athlete_figures(a, &w, &f);
		stop = fn(arg, &w, &f);
		hq_athlete_workout_free(&w);
		n++;
		if (stop)
			break;
	}
	if (n >= 0 && rc != SQLITE_ROW && rc != SQLITE_DONE) {
		hq_err_set(e, "%s: walking the workouts: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		n = -1;
	}
	sqlite3_finalize(q);
	hq_athcache_close(c);
	reader_done(&r);
	return n;
}

struct hq_athlete_reader {
	struct reader r;
	struct hq_athcache *c;
};

struct hq_athlete_reader *
hq_athlete_reader_new(struct hq_store *s, struct hq_err *e)
{
	struct hq_athlete_reader *k = hq_xcalloc(1, sizeof *k);

	if (reader_start(&k->r, s, e) || !(k->c = hq_athcache_open(s, e))) {
		reader_done(&k->r);
		free(k);
		return NULL;
	}
	return k;
}

int
hq_athlete_figures_id(struct hq_athlete_reader *k, const struct hq_athlete *a,
    int64_t id, struct hq_athlete_workout *w, struct hq_athlete_figures *f,
    struct hq_err *e)
{
	struct hq_athlete_workout mine;
	int rc = reader_cached(&k->r, k->c, a, id, w ? w : &mine, f, e);

	if (rc > 0 && !w)
		hq_athlete_workout_free(&mine);
	return rc;
}

void
hq_athlete_reader_free(struct hq_athlete_reader *k)
{
	if (!k)
		return;
	hq_athcache_close(k->c);
	reader_done(&k->r);
	free(k);
}

/* Every workout without a kept row read, summarized and kept, one at a
 * time (the rows kept are good: an import drops those it changes). strict:
 * a failure to write them is an error (-1 with e), else 0 (nothing kept). */
static int
fill(struct hq_store *s, int strict, struct hq_err *e)
{
	struct hq_athlete_reader *k;
	struct hq_athlete a;
	struct hq_athlete_figures f;
	sqlite3_stmt *q;
	int rc, got = 0;

	/* None missing: no writer opened, nothing read. */
	if (hq_store_prepare(s, "SELECT id FROM workout WHERE id NOT IN"
	    " (SELECT workout_id FROM workout_figures) ORDER BY id", &q, e))
		return -1;
	if ((rc = sqlite3_step(q)) == SQLITE_DONE) {
		sqlite3_finalize(q);
		return 1;
	}
	if (rc != SQLITE_ROW || !(k = hq_athlete_reader_new(s, e))) {
		if (rc != SQLITE_ROW)
			hq_err_set(e, "%s: walking the workouts: %s",
			    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		sqlite3_finalize(q);
		return -1;
	}
	if (!hq_athcache_writable(k->c)) {
		sqlite3_finalize(q);
		hq_athlete_reader_free(k);
		return 0;
	}
	hq_athlete_init(&a);
	for (; rc == SQLITE_ROW; rc = sqlite3_step(q))
		if ((got = hq_athlete_figures_id(k, &a, sqlite3_column_int64(q, 0),
		    NULL, &f, e)) < 0)
			break;
	if (got >= 0 && rc != SQLITE_DONE) {
		hq_err_set(e, "%s: walking the workouts: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		got = -1;
	}
	sqlite3_finalize(q);
	if (got < 0)
		rc = -1;
	else if (strict)
		rc = hq_athcache_finish(k->c, e) < 0 ? -1 : 1;
	else
		rc = hq_athcache_writable(k->c);
	if (strict && got >= 0)
		k->c = NULL;       /* finished */
	hq_athlete_reader_free(k);
	return rc;
}

int
hq_athlete_fill_figures(struct hq_store *s, struct hq_err *e)
{
	return fill(s, 0, e);
}

int
hq_athlete_keep_figures(struct hq_store *s, struct hq_err *e)
{
	return fill(s, 1, e);
}

struct days {
	struct hq_athlete_day *d;
	size_t n, cap;
};

static int
add_day(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct days *ds = arg;
	int64_t day = hq_time_local_day(w->start);

	if (!ds->n) {
		ds->cap = 64;
		ds->d = hq_xcalloc(ds->cap, sizeof *ds->d);
		ds->d[0].day = day;
		ds->n = 1;
	}
	/* Workouts come oldest first: days only grow. */
	while (ds->d[ds->n - 1].day < day) {
		if (ds->n == ds->cap) {
			ds->cap *= 2;
			ds->d = hq_xrealloc(ds->d, ds->cap * sizeof *ds->d);
		}
		memset(&ds->d[ds->n], 0, sizeof ds->d[ds->n]);
		ds->d[ds->n].day = ds->d[ds->n - 1].day + 1;
		ds->n++;
	}
	ds->d[ds->n - 1].workouts++;
	if (isnan(f->load))
		ds->d[ds->n - 1].workouts_no_hr++;
	else
		ds->d[ds->n - 1].load += f->load;
	return 0;
}

int
hq_athlete_days(struct hq_store *s, const struct hq_athlete *a,
    const char *const *types, size_t ntypes, int64_t last_day,
    struct hq_athlete_day **days, size_t *n, struct hq_err *e)
{
	struct days ds = {0};

	*days = NULL;
	*n = 0;
	if (hq_athlete_each(s, a, types, ntypes, 0, 0, HQ_ATHLETE_LOAD_ONLY |
	    HQ_ATHLETE_CACHED, add_day, &ds, e) < 0) {
		free(ds.d);
		return -1;
	}
	if (!ds.n)
		return 0;
	while (ds.d[ds.n - 1].day < last_day) {
		if (ds.n == ds.cap) {
			ds.cap *= 2;
			ds.d = hq_xrealloc(ds.d, ds.cap * sizeof *ds.d);
		}
		memset(&ds.d[ds.n], 0, sizeof ds.d[ds.n]);
		ds.d[ds.n].day = ds.d[ds.n - 1].day + 1;
		ds.n++;
	}
	hq_athlete_pmc(ds.d, ds.n);
	*days = ds.d;
	*n = ds.n;
	return 0;
}
