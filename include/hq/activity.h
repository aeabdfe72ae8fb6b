/*
 * activity — what the readers of device files (FIT, TCX, GPX) hand the
 * import writer, in one model: the activity's sessions, laps, timer
 * events and points (a time, a position, heart rate, power, cadence,
 * speed, cumulative distance), and the device that recorded them.
 *
 * Points come in as the file gives them and are kept in memory up to
 * 32,768 (a ride of 9 hours at 1 Hz, 2.6 MB), past that all of them in a
 * temporary table of the store (inside the import's transaction), so
 * memory stays bounded whatever the file's length; sessions, laps and
 * events are few and kept in arrays (bounded: HQ_ACT_MAX_MARKS).
 * hq_act_finish() then writes:
 *
 * - each session as a workout of the device's source (its HealthKit
 *   activity type; duration = timer time, pauses excluded; distance, or
 *   when the file states none the great-circle steps between its
 *   positions outside pauses, R = HQ_ACT_EARTH_R, as hq-query's --splits
 *   and bests measure them; energy), spanning [start, end] but never past
 *   the next session's start, with metadata HKIndoorWorkout,
 *   HKElevationAscended, HQSubSport (the file's sub-sport word),
 *   HQVirtualRoute (a virtual ride: the positions are a game's map),
 *   HQMultisportLeg ("2/5"), HQPartial (the file ended early:
 *   hq_act_partial); statistics of heart rate and power from the file's
 *   summary. A file that ended early without a session is one session
 *   from its first point to its last, of the sport hq_act_partial says;
 * - timer stops and starts inside a session as HKWorkoutEventTypePause and
 *   HKWorkoutEventTypeResume events (as Apple stores them: the athlete
 *   code reads one model), its laps as HKWorkoutEventTypeLap events with
 *   their elapsed time as duration: the laps the file gives it
 *   (laps_given), else those that start inside its span (a lap starting
 *   before every session's span, the one its end falls in);
 * - the positions inside a session, unless indoor, as its route (with
 *   altitude and speed);
 * - every point's values as samples of the device's source, whatever
 *   session holds it: heart_rate (count/min), cycling_power or
 *   running_power (W), cycling_cadence (rides only: a run's cadence has no
 *   HealthKit metric), cycling_speed or running_speed, and distance as
 *   the steps between points (distance_cycling, distance_walking_running,
 *   distance_swimming), by the sport of the session the point is in (else
 *   the nearest session); heart beats given apart (hq_act_beat: FIT's hr
 *   messages) merged into the points first, as Garmin's FIT SDK merges
 *   them (mergeHeartRates): a point takes the rounded mean of the beats
 *   since the point before it.
 *
 * A workout already in the store (the same file imported again) gets no
 * second set of events, metadata or route; samples are deduplicated by
 * their natural key. Heart rates of 0 (Zwift writes 0 without a strap)
 * are no reading: skipped, counted and warned, like the invalid ones a
 * reader hands as -1 (unless a beat gives the point its rate).
 *
 * What no body or clock makes is left out and said, one warning a kind,
 * the rest of the file kept: a sample the writer skips (a heart rate of
 * 60,000, a power of -50 W: catalog.h's bounds, counted as skipped); a
 * session's figure past its bound (a maximum heart rate of 60,000, an
 * energy of 1e30 kcal: dropped); a lap whose length is not one (negative,
 * past HQ_INGEST_MAX_SPAN: skipped); a distance step faster than 100 m/s;
 * an altitude below -1,000 m or above 15,000 m (dropped from the route).
 * What holds a time more than a day after the import (a record, session,
 * lap or event) is skipped by its reader (hq_act_future()), counted and
 * said once with the first one's time and where: a device's wrong clock,
 * or the nonsense last record of a broken file (Strava's of 2085).
 */
#ifndef HQ_ACTIVITY_H
#define HQ_ACTIVITY_H

#include <stdint.h>

#include "hq/err.h"

struct hq_ingest;
struct hq_input;

/* Sessions + laps + events one file may hold. */
#define HQ_ACT_MAX_MARKS 100000
/* Heart beats one file may hold apart (hq_act_beat): a day of beats at
 * 3 a second with the SDK's fill between them, 9 bytes each. */
#define HQ_ACT_MAX_BEATS 1000000
/* The sphere's radius the distance of a track is measured on (m). */
#define HQ_ACT_EARTH_R 6371000.0

struct hq_act_point {
	int64_t time;                       /* Unix seconds */
	double lat, lon, ele;               /* degrees, m; NaN = absent */
	double hr, power, cadence, speed;   /* bpm, W, rpm, m/s; NaN; hr -1:
	                                     * marked invalid in the file */
	double distance;                    /* m, cumulative; NaN */
};

enum hq_act_sport {
	HQ_ACT_OTHER, HQ_ACT_RUNNING, HQ_ACT_CYCLING, HQ_ACT_WALKING,
	HQ_ACT_HIKING, HQ_ACT_SWIMMING, HQ_ACT_TRANSITION, HQ_ACT_ROWING,
};

struct hq_act_session {
	enum hq_act_sport sport;
	const char *type;          /* HealthKit type; NULL: the sport's */
	const char *sub_sport;     /* "trail", "treadmill"...; NULL */
	const char *name;          /* the file's name for it (GPX <name>); NULL */
	int indoor;                /* 1 indoor, 0 outdoor, -1 unknown */
	int virtual_route;         /* positions from a game's map */
	int64_t start, end;       /* end: clipped to the next session's start */
	/* The session's own laps when the file says which (FIT's
	 * first_lap_index, num_laps): laps first_lap .. first_lap +
	 * num_laps - 1, counted from 0 in the order hq_act_lap() got them. */
	int laps_given;
	long first_lap, num_laps;
	double duration, distance, energy, ascent;        /* s m kcal m;
	                                        * distance NaN: the track's */
	double avg_hr, max_hr, avg_power, max_power;      /* NaN = absent */
};

struct hq_act;

/* in is the file (its name for warnings, its bytes for progress),
 * borrowed for the act's life. NULL with e set on a store error. */
struct hq_act *hq_act_new(struct hq_ingest *ig, const struct hq_input *in,
    struct hq_err *e);
void hq_act_free(struct hq_act *a);
/* The device: source name ("Garmin fenix 5 (SN 3945849289)") and device
 * description, copied. */
void hq_act_source(struct hq_act *a, const char *source, const char *device);
/* 0, or -1 with e set (a store error). */
int hq_act_point(struct hq_act *a, const struct hq_act_point *p,
    struct hq_err *e);
/* 0, or -1 with e set (more than HQ_ACT_MAX_MARKS). Strings copied. */
int hq_act_session(struct hq_act *a, const struct hq_act_session *s,
    struct hq_err *e);
/* A lap from start to end (NaN elapsed, INT64_MIN end: not known). */
int hq_act_lap(struct hq_act *a, int64_t start, int64_t end, double elapsed,
    struct hq_err *e);
/* A timer event: pause 1 (a stop), 0 (a start). */
int hq_act_timer(struct hq_act *a, int64_t time, int pause, struct hq_err *e);
/* A heart rate at a time finer than the points' (Unix seconds): beats
 * come in time order, as the file gives them. Past HQ_ACT_MAX_BEATS the
 * rest are skipped, counted and warned. */
void hq_act_beat(struct hq_act *a, double time, double bpm);
/* The local time the file states at t (minutes east of UTC): when it is
 * not the zone's, the counts say so (hq_ingest_stated_offset). The first
 * one counts. */
void hq_act_local_offset(struct hq_act *a, int64_t t, int offset_min);
/* The file ended early: every session is marked HQPartial, and without
 * a session the points are one of sport. */
void hq_act_partial(struct hq_act *a, enum hq_act_sport sport);

/* How far past the start of the import a device file's time may be (a
 * device's clock a little fast, a zone ahead), as a report's date. */
#define HQ_ACT_MAX_AHEAD 86400
/* 1 when t is past that: the reader skips what holds it, and a is told
 * (where: "byte 7451", "line 14", for the warning). 0 otherwise. */
int hq_act_future(struct hq_act *a, int64_t t, const char *where);
/* Whether seconds is a length a session or lap can have: 0 to
 * HQ_INGEST_MAX_SPAN (ingest.h). NaN (absent) is not. */
int hq_act_length_ok(double seconds);
/* start + seconds rounded: a session's end. A length no session has (not
 * finite, 9.2e21 s) gives an end the writer refuses (too long a span),
 * never a signed overflow; NaN gives start. */
int64_t hq_act_end(int64_t start, double seconds);
/* Write everything (above): 0, or -1 with e set. */
int hq_act_finish(struct hq_act *a, struct hq_err *e);

#endif
