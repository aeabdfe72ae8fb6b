/*
 * sleep — nights out of sleep-analysis samples.
 *
 * A night is keyed by the local date on which its sleep ends; a sample
 * ending at or after the cut-off hour (default 18:00) belongs to the next
 * date, so an evening nap before midnight and the night that follows are
 * one night. Per night:
 *   asleep  = the union of the asleep-stage intervals (core, deep, REM,
 *             unspecified/legacy "asleep") of the preferred source — the
 *             highest-ranked source (hq_merge_source_class) with asleep
 *             samples that night; never a sum across sources;
 *   stages  = the union of each stage's intervals of that same source;
 *   in_bed  = the union of in-bed intervals of every source (in bed is not
 *             sleep, and usually comes from the phone).
 * Durations are in seconds. Output arrays are malloc'd; free() them.
 */
#ifndef HQ_SLEEP_H
#define HQ_SLEEP_H

#include <stddef.h>
#include <stdint.h>

enum hq_sleep_stage {
	HQ_SLEEP_IN_BED, HQ_SLEEP_UNSPECIFIED, HQ_SLEEP_AWAKE,
	HQ_SLEEP_CORE, HQ_SLEEP_DEEP, HQ_SLEEP_REM,
	HQ_SLEEP_NSTAGES
};

struct hq_sleep_sample {
	int64_t start, end;
	int stage;            /* enum hq_sleep_stage, or -1: ignored */
	uint64_t rank;        /* lower is preferred */
};

struct hq_night {
	int64_t day;          /* local day number of the night's date */
	int64_t start, end;   /* first start and last end of its samples */
	double asleep, in_bed, stage[HQ_SLEEP_NSTAGES];  /* seconds */
	long n;               /* samples that made it */
};

/* The stage of a stored category name ("asleep_core"), or -1. */
int hq_sleep_stage_from_name(const char *name);
/* The night (local day number) of a sample ending at `end`. */
int64_t hq_sleep_night_of(int64_t end, int cutoff_hour);
/* When the window of the night dated day (a local day number) closes: the
 * cut-off hour of that date, after which no sample can join it. */
int64_t hq_sleep_night_closes(int64_t day, int cutoff_hour);
/* A night still going on is not a short night: a night whose window is
 * still open at until (the newest export date in the store, or now when
 * sooner) counts only once its last sample ended HQ_SLEEP_UP_SECONDS
 * before until (the person is up: an export at 08:00 counts the night
 * that ended at 06:30; one at 23:30, during the night, does not). A
 * night whose window has closed by until always counts. */
#define HQ_SLEEP_UP_SECONDS 3600
int hq_sleep_night_counts(const struct hq_night *night, int cutoff_hour,
    int64_t until);
/* Nights, oldest first. */
void hq_sleep_nights(const struct hq_sleep_sample *in, size_t n,
    int cutoff_hour, struct hq_night **out, size_t *nout);
/* The seconds a per-night metric ("sleep", "sleep_deep", "sleep_in_bed"...)
 * takes from a night; -1 when the name is not a sleep metric. */
int hq_sleep_metric_seconds(const char *metric, const struct hq_night *night,
    double *seconds);

#endif
