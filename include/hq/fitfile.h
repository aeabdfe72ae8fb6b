/*
 * fitfile — FIT activity files into the store: the decoder of
 * lib/format/fit.c read into the device-file model of activity.h.
 *
 * The source is the device from file_id: "Garmin fenix 5 (SN 3945849289)"
 * (manufacturer, product name or number, serial when there is one). Each
 * session becomes a workout (sport and sub-sport mapped: running, trail
 * and treadmill runs are HKWorkoutActivityTypeRunning with HQSubSport and
 * HKIndoorWorkout saying which; indoor and virtual rides are cycling,
 * indoor, a virtual ride's positions kept as a route marked virtual;
 * a multisport file's legs are one workout each, its transitions of type
 * HKWorkoutActivityTypeTransition); laps, timer stops and starts, records
 * as activity.h stores them. A heart rate the file marks invalid is
 * skipped, counted and warned; a record without a time too.
 *
 * What fails the file whole (the store unchanged), with its byte offset:
 * whatever the decoder refuses (fit.h), and device-relative times (below
 * 0x10000000: seconds since the device was switched on, as the Forerunner
 * 70 writes): nothing in such a file says on which day it was recorded.
 */
#ifndef HQ_FITFILE_H
#define HQ_FITFILE_H

#include <stddef.h>

#include "hq/err.h"
#include "hq/reader.h"

struct hq_ingest;
struct hq_input;

int hq_fitfile_sniff(const unsigned char *p, size_t n);
int hq_fitfile_read(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);

/* "Garmin fenix 5 (SN 3945849289)" into buf from file_id's manufacturer,
 * product (number), product name ("" if none) and serial (-1 if none). */
void hq_fitfile_source(int manufacturer, int product,
    const char *product_name, long long serial, char *buf, size_t n);

#endif
