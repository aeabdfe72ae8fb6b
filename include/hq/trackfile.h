/*
 * trackfile — TCX and GPX activity files into the store, through
 * libxml2's streaming reader (xmlTextReader: one node at a time, libxml2's
 * own bounds without XML_PARSE_HUGE: 10 MB a text node, 256 levels), into
 * activity.h's model.
 *
 * TCX (Training Center Database v2): each Activity is a workout (Sport
 * Running, Biking, else other); its start the Id, its duration the sum of
 * its laps' TotalTimeSeconds, distance and energy their sums; each Lap a
 * lap; each Trackpoint a point (Time, Position, AltitudeMeters,
 * DistanceMeters, HeartRateBpm, Cadence, TPX Speed and Watts). The source
 * is the Activity's Creator: "Edge 520 (SN 3931533084)" (Name, UnitId).
 *
 * GPX 1.1: each trk is a workout from its first point's time to its
 * last's (its type, else its name, says the sport: running or "... Run",
 * cycling or "... Ride", walking, hiking, swimming; else other); each
 * trkpt a point (ele, time, and in any extension, matched by local name
 * whatever the prefix: hr, cad, speed, power, PowerInWatts: Garmin's
 * TrackPointExtension v1/v2, PowerExtension, Apple's and Strava's power).
 * The source is the gpx creator attribute.
 *
 * Sniffed by the root element (TrainingCenterDatabase, gpx) past an XML
 * declaration, comments, a DOCTYPE with its internal subset, a BOM and
 * white space, which is also dropped before the parser sees it (Strava
 * writes white space before <?xml); UTF-16 (either byte order) is read as
 * the UTF-8 it becomes. The parser reads the file through xmlfilter.h's
 * filter, as the Apple reader does: the DTD dropped (an entity it
 * declares, external above all, is never read: a file that uses one
 * fails), each tag at most 1 MiB and 1024 attributes (100,000 attributes
 * cost libxml2 more than 60 s: refused at the bound in 0.2 s). Times
 * without a zone are UTC, as both formats define them, whatever --tz
 * (counted and warned); what holds a time more than a day after the
 * import is skipped, counted and said with its line (a file with nothing
 * else fails); numbers are decimal (0x10, inf, nan: none, counted). A
 * lap's TotalTimeSeconds no clock makes is the lap's, not the workout's.
 * Apple's own workout-route GPX files inside an export are read by the
 * Apple reader, not here. Malformed XML fails the file with its line;
 * a trackpoint without a time is skipped, counted and warned.
 */
#ifndef HQ_TRACKFILE_H
#define HQ_TRACKFILE_H

#include <stddef.h>

#include "hq/err.h"
#include "hq/reader.h"

struct hq_ingest;
struct hq_input;

int hq_trackfile_sniff_tcx(const unsigned char *p, size_t n);
int hq_trackfile_sniff_gpx(const unsigned char *p, size_t n);
int hq_trackfile_read_tcx(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);
int hq_trackfile_read_gpx(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);

#endif
