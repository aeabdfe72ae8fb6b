/*
 * athlete_bests — a workout's route and what it gives: the fastest
 * stretch for a distance, the best mean power for a time, splits per
 * km or mile, the heart rate in force at a point (GPX). Pure functions
 * over arrays but hq_athlete_route, which reads the store.
 */
#ifndef HQ_ATHLETE_BESTS_H
#define HQ_ATHLETE_BESTS_H

#include <stddef.h>
#include <stdint.h>

#include "hq/athlete_load.h"
#include "hq/err.h"
#include "hq/store.h"

#define HQ_ATHLETE_EARTH_R 6371000.0 /* metres: bests and splits */
#define HQ_ATHLETE_MAX_POINTS 500000L   /* route points read per workout */

/* ---- bests and splits ---- */

struct hq_route_pt {
	int64_t t;
	double lat, lon, ele;           /* ele NAN when unknown */
	int64_t route;                  /* a new route starts a new stretch */
};

/* The fastest stretch of at least target_m metres: from a point to the
 * first later point at which the great-circle distance (haversine,
 * R = HQ_ATHLETE_EARTH_R) summed since it reaches target_m, never across a
 * pause (points with start <= t < end outside the pauses; a pause between
 * two points, or a new route, breaks the chain). 1 with *seconds and
 * *t_from (ties: the earliest), 0 when no stretch is that long. */
int hq_athlete_best_distance(const struct hq_route_pt *pt, size_t n,
    int64_t start, int64_t end, const struct hq_span *p, size_t np,
    double target_m, double *seconds, int64_t *t_from);

/* The best mean power over window_s seconds of the 1 s power series,
 * inside one run of consecutive seconds (a pause or a gap breaks it).
 * 1 with *watts and *t_from (ties: the earliest), 0 when no run is that
 * long. */
int hq_athlete_best_power(const struct hq_held *p, size_t n,
    int64_t window_s, double *watts, int64_t *t_from);

struct hq_athlete_split {
	long split;                     /* 1, 2, ... */
	double km;                      /* its length */
	double seconds;                 /* moving: pauses inside left out */
	double pace_min_per_km, speed_kmh;
	double avg_hr;                  /* time-weighted over its time; NAN */
	double gain_m;                  /* hysteresis gain of its points; NAN */
};

/* Splits of every unit_m metres along the route: split k ends at the first
 * point whose cumulative distance (all points, each route's own) reaches
 * k * unit_m; the last, shorter, ends at the last point. *out malloc'd.
 * Returns the count, or -1 with e set (unit_m <= 0). */
long hq_athlete_splits(const struct hq_route_pt *pt, size_t n,
    const struct hq_athlete_workout *w, double unit_m,
    struct hq_athlete_split **out, struct hq_err *e);

/* The workout's route points ordered by route and sequence (those with a
 * time): *pt malloc'd, *n of them. 0, or -1 with e set (more than
 * HQ_ATHLETE_MAX_POINTS). */
int hq_athlete_route(struct hq_store *s, int64_t id, struct hq_route_pt **pt,
    size_t *n, struct hq_err *e);

double hq_athlete_haversine(double lat1, double lon1, double lat2, double lon2);

/* The heart rate in force at t (the held piece covering it), NAN when
 * none does: GPX's gpxtpx:hr for a route point. */
double hq_athlete_value_at(const struct hq_held *p, size_t n, int64_t t);

#endif
