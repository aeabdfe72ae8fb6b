/*
 * route — a workout's route, the WorkoutRoute points hq-ingest stored, as
 * GPX 1.1 (for Strava, Garmin, OsmAnd, GPXSee) or as GeoJSON (RFC 7946:
 * for QGIS, geojson.io, Leaflet).
 *
 * Points are written as they are read from the store, so a route of any
 * length takes the same memory. A workout with several routes (the export
 * may split one) gives one GPX track segment, or one GeoJSON feature, per
 * route, in the order stored. Times are UTC ("2020-02-24T17:44:00Z").
 */
#ifndef HQ_ROUTE_H
#define HQ_ROUTE_H

#include <stdint.h>
#include <stdio.h>

#include "hq/err.h"
#include "hq/store.h"

enum hq_route_format { HQ_ROUTE_GPX, HQ_ROUTE_GEOJSON };

/* "gpx", "geojson" → 0; else -1. */
int hq_route_parse_format(const char *s, enum hq_route_format *f);

/* Workout id's route to fp: the number of points written, 0 when it has
 * none (nothing is written), -1 with e set. name names the track ("running
 * 2020-02-24"; may be NULL). GPX points carry hr_at(arg, t), the heart
 * rate at each point's time t (NAN: none there), as Garmin's
 * TrackPointExtension gpxtpx:hr in whole beats (its schema's type), the
 * namespace declared; hr_at NULL: none. GeoJSON ignores it. */
long hq_route_write_hr(struct hq_store *s, int64_t workout_id,
    const char *name, enum hq_route_format f, FILE *fp,
    double (*hr_at)(void *arg, int64_t t), void *arg, struct hq_err *e);

#endif
