/*
 * geo — distances on the Earth's surface, for every layer that measures a
 * track: the device files' readers (a GPX's distance), hq-query's routes,
 * splits and bests.
 */
#ifndef HQ_GEO_H
#define HQ_GEO_H

/* The great-circle distance in metres between two points (degrees) on a
 * sphere of radius r metres (haversine). */
double hq_geo_distance(double r, double lat1, double lon1, double lat2,
    double lon2);

#endif
