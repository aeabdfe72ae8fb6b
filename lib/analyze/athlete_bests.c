/* Bests (the fastest stretch of route for a distance, the best mean power
 * for a time) and splits of a workout (athlete_bests.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete_bests.h"
#include "hq/buf.h"
#include "hq/store.h"
#include "hq/workout.h"

double
hq_athlete_haversine(double lat1, double lon1, double lat2, double lon2)
{
	return hq_workout_great_circle(HQ_ATHLETE_EARTH_R, lat1, lon1, lat2,
	    lon2);
}

/* Whether t lies in a pause; *ip walks p as t grows. */
static int
paused_at(const struct hq_span *p, size_t np, size_t *ip, int64_t t)
{
	while (*ip < np && p[*ip].to <= t)
		(*ip)++;
	return *ip < np && p[*ip].from <= t;
}

/* Whether a pause starts in (a, b). */
static int
pause_between(const struct hq_span *p, size_t np, int64_t a, int64_t b)
{
	for (size_t i = 0; i < np; i++)
		if (p[i].from > a && p[i].from < b)
			return 1;
	return 0;
}

int
hq_athlete_best_distance(const struct hq_route_pt *pt, size_t n,
    int64_t start, int64_t end, const struct hq_span *p, size_t np,
    double target_m, double *seconds, int64_t *t_from)
{
	int64_t *t = hq_xmalloc((n ? n : 1) * sizeof *t);
	double *cum = hq_xmalloc((n ? n : 1) * sizeof *cum);
	size_t k = 0, ip = 0, chain = 0, prev = 0;
	int found = 0;

	*seconds = NAN;
	*t_from = 0;
	/* Chains of kept points: a pause or a new route starts a new one,
	 * which is scanned as soon as it ends. */
	for (size_t i = 0; i <= n; i++) {
		int last = i == n, brk = last;

		if (!last) {
			if (pt[i].t < start || pt[i].t >= end ||
			    paused_at(p, np, &ip, pt[i].t))
				continue;
			brk = k > chain && (pt[i].route != pt[prev].route ||
			    pause_between(p, np, pt[prev].t, pt[i].t));
		}
		if (brk) {
			size_t j = chain;
			for (size_t a = chain; a < k; a++) {
				if (j <= a)
					j = a + 1;
				while (j < k && cum[j] - cum[a] < target_m)
					j++;
				if (j == k)
					break;
				double s = (double)(t[j] - t[a]);
				if (!found || s < *seconds) {
					*seconds = s;
					*t_from = t[a];
					found = 1;
				}
			}
			chain = k;
		}
		if (last)
			break;
		t[k] = pt[i].t;
		cum[k] = k > chain ? cum[k - 1] + hq_athlete_haversine(pt[prev].lat,
		    pt[prev].lon, pt[i].lat, pt[i].lon) : 0;
		k++;
		prev = i;
	}
	free(t);
	free(cum);
	return found;
}

int
hq_athlete_best_power(const struct hq_held *p, size_t n, int64_t window_s,
    double *watts, int64_t *t_from)
{
	double *v = NULL, sum;
	size_t cap = 0;
	int found = 0;

	*watts = NAN;
	*t_from = 0;
	if (window_s <= 0)
		return 0;
	for (size_t i = 0; i < n;) {
		/* One run: pieces each starting where the last one ended. */
		size_t j = i, len = 0;
		int64_t t0 = p[i].t;
		while (j < n && (j == i || p[j - 1].t + p[j - 1].dt == p[j].t))
			len += (size_t)p[j++].dt;
		if (len >= (size_t)window_s) {
			size_t k = 0;
			if (len > cap) {
				cap = len;
				v = hq_xrealloc(v, cap * sizeof *v);
			}
			for (size_t m = i; m < j; m++)
				for (int64_t s = 0; s < p[m].dt; s++)
					v[k++] = p[m].v;
			sum = 0;
			for (size_t s = 0; s < len; s++) {
				sum += v[s];
				if (s >= (size_t)window_s)
					sum -= v[s - (size_t)window_s];
				if (s + 1 >= (size_t)window_s) {
					double mean = sum / (double)window_s;
					if (!found || mean > *watts) {
						*watts = mean;
						*t_from = t0 + (int64_t)(s + 1) - window_s;
						found = 1;
					}
				}
			}
		}
		i = j;
	}
	free(v);
	return found;
}

double
hq_athlete_value_at(const struct hq_held *p, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	/* The last piece starting at or before t. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && t < p[lo - 1].t + p[lo - 1].dt ? p[lo - 1].v : NAN;
}

/* Seconds of [a, b) outside the pauses. */
static double
moving(const struct hq_span *p, size_t np, int64_t a, int64_t b)
{
	int64_t s = b - a;

	for (size_t i = 0; i < np; i++) {
		int64_t lo = p[i].from > a ? p[i].from : a;
		int64_t hi = p[i].to < b ? p[i].to : b;
		if (hi > lo)
			s -= hi - lo;
	}
	return (double)s;
}

/* The time-weighted mean of the pieces over [a, b); NAN when none. */
static double
mean_over(const struct hq_held *p, size_t n, int64_t a, int64_t b)
{
	double sum = 0, secs = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t lo = p[i].t > a ? p[i].t : a;
		int64_t hi = p[i].t + p[i].dt < b ? p[i].t + p[i].dt : b;
		if (hi > lo) {
			sum += p[i].v * (double)(hi - lo);
			secs += (double)(hi - lo);
		}
	}
	return secs > 0 ? sum / secs : NAN;
}

static void
close_split(struct hq_athlete_split *sp, const struct hq_route_pt *pt,
    const double *cum, size_t a, size_t b, double gain, int have_gain,
    const struct hq_athlete_workout *w)
{
	sp->km = (cum[b] - cum[a]) / 1000;
	sp->seconds = moving(w->pauses, w->npauses, pt[a].t, pt[b].t);
	sp->pace_min_per_km = sp->km > 0 ? sp->seconds / 60 / sp->km : NAN;
	sp->speed_kmh = sp->seconds > 0 ? sp->km / (sp->seconds / 3600) : NAN;
	sp->avg_hr = mean_over(w->hr, w->nhr, pt[a].t, pt[b].t);
	sp->gain_m = have_gain ? gain : NAN;
}

/* One more split, of points a..b, into *sp. */
static void
add_split(struct hq_athlete_split **sp, long *ns, size_t *cap,
    const struct hq_route_pt *pt, const double *cum, size_t a, size_t b,
    double gain, int any_ele, const struct hq_athlete_workout *w)
{
	if ((size_t)*ns == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*sp = hq_xrealloc(*sp, *cap * sizeof **sp);
	}
	(*sp)[*ns].split = *ns + 1;
	close_split(&(*sp)[*ns], pt, cum, a, b, gain, any_ele, w);
	(*ns)++;
}

long
hq_athlete_splits(const struct hq_route_pt *pt, size_t n,
    const struct hq_athlete_workout *w, double unit_m,
    struct hq_athlete_split **out, struct hq_err *e)
{
	struct hq_athlete_split *sp = NULL;
	double *cum, ref = NAN, gain = 0;
	size_t a = 0, cap = 0;
	long ns = 0;
	int any_ele = 0;

	*out = NULL;
	if (!(unit_m > 0) || !isfinite(unit_m)) {
		hq_err_set(e, "a split must be longer than 0");
		return -1;
	}
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		any_ele |= !isnan(pt[i].ele);
	cum = hq_xmalloc(n * sizeof *cum);
	cum[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			cum[i] = cum[i - 1] + (pt[i].route == pt[i - 1].route ?
			    hq_athlete_haversine(pt[i - 1].lat, pt[i - 1].lon,
			    pt[i].lat, pt[i].lon) : 0);
		/* 3 m hysteresis over the whole route; a point's gain belongs
		 * to the split that ends at or after it. */
		if (!isnan(pt[i].ele)) {
			if (isnan(ref))
				ref = pt[i].ele;
			else if (pt[i].ele - ref >= 3) {
				gain += pt[i].ele - ref;
				ref = pt[i].ele;
			} else if (ref - pt[i].ele >= 3)
				ref = pt[i].ele;
		}
		/* Split k ends at the first point reaching k units. */
		while (i > 0 && cum[i] >= (double)(ns + 1) * unit_m) {
			add_split(&sp, &ns, &cap, pt, cum, a, i, gain, any_ele, w);
			gain = 0;
			a = i;
		}
	}
	if (cum[n - 1] > cum[a])
		add_split(&sp, &ns, &cap, pt, cum, a, n - 1, gain, any_ele, w);
	free(cum);
	*out = sp;
	return ns;
}

int
hq_athlete_route(struct hq_store *s, int64_t id, struct hq_route_pt **pt,
    size_t *n, struct hq_err *e)
{
	sqlite3_stmt *q;
	size_t cap = 0;
	int rc;

	*pt = NULL;
	*n = 0;
	/* ordered by columns it returns, as athlete_load.c's Q_ELE */
	if (hq_store_prepare(s, "SELECT r.id, rp.time, rp.lat, rp.lon, rp.ele,"
	    " rp.seq FROM route r JOIN route_point rp ON rp.route_id = r.id"
	    " WHERE r.workout_id = " HQ_WORKOUT_FILLED("route", "?1")
	    " AND rp.time IS NOT NULL ORDER BY 1, 6", &q, e))
		return -1;
	sqlite3_bind_int64(q, 1, id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (*n == (size_t)HQ_ATHLETE_MAX_POINTS) {
			hq_err_set(e, "workout %lld: a route of more than %ld points",
			    (long long)id, HQ_ATHLETE_MAX_POINTS);
			goto fail;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			*pt = hq_xrealloc(*pt, cap * sizeof **pt);
		}
		(*pt)[*n].route = sqlite3_column_int64(q, 0);
		(*pt)[*n].t = sqlite3_column_int64(q, 1);
		(*pt)[*n].lat = sqlite3_column_double(q, 2);
		(*pt)[*n].lon = sqlite3_column_double(q, 3);
		(*pt)[*n].ele = hq_store_col_num(q, 4);
		(*n)++;
	}
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "%s: reading the route of workout %lld: %s",
		    hq_store_filename(s), (long long)id,
		    sqlite3_errmsg(hq_store_db(s)));
		goto fail;
	}
	sqlite3_finalize(q);
	return 0;
fail:
	sqlite3_finalize(q);
	free(*pt);
	*pt = NULL;
	*n = 0;
	return -1;
}
