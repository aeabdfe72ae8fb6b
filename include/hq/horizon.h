/*
 * horizon — how far the store's data reaches, for the every-day reports
 * (hq-report(1), alerts: silence is not "all fine").
 *
 * The newest data is the newest sample's start in the store (read by the
 * index on (metric_id, start), one look per metric) or the newest
 * activity summary's date, whichever is later, as a local day. A period
 * after it is no data: hq-report load, week, goals and trend show no row
 * past the newest data or today, whichever is sooner (`last`). A plan
 * that continues load into the future would add rows of its own after
 * `last`; nothing here forbids them.
 *
 * hq-report alerts asks two more things: the newest sample of one
 * measure, and the newest import (its export date, else the time it
 * ran), to say when they have gone quiet.
 */
#ifndef HQ_HORIZON_H
#define HQ_HORIZON_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"
#include "hq/store.h"

struct hq_horizon {
	int none;          /* the store holds no sample and no summary */
	int64_t newest;    /* the local day of the newest data (none: 0) */
	int64_t today;     /* the local day of now */
	int64_t last;      /* the last day a report shows: the sooner of
	                    * newest and today (none: today) */
};

/* The horizon of s at now (UTC seconds, hq_time_now()): 0, or -1 with e. */
int hq_horizon_read(struct hq_store *s, int64_t now, struct hq_horizon *h,
    struct hq_err *e);

/* Why day (a local day after h->last) has no row, for a message: "2030-01-01
 * is after today (2026-12-07)", or "... after the newest data in the store
 * (2026-11-23)". */
void hq_horizon_after(const struct hq_horizon *h, int64_t day, char *buf,
    size_t n);

/* An activity summary's date (YYYY-MM-DD) as a local day number: 0, or
 * -1 when it is no date. */
int hq_horizon_summary_day(const unsigned char *text, int64_t *day);

/* When the newest sample (the latest start) of the metric a catalog name
 * or alias names ended (the nights: their sleep-analysis samples), UTC
 * seconds; *none when the store holds none. 0, or -1 with e. */
int hq_horizon_metric_newest(struct hq_store *s, const char *metric,
    int64_t *end, int *none, struct hq_err *e);

/* The newest import: the latest export date an import recorded, or the
 * time an import without one (JSON lines, CSV) began, whichever is
 * later; *none without any import. 0, or -1 with e. */
int hq_horizon_import_newest(struct hq_store *s, int64_t *t, int *none,
    struct hq_err *e);

#endif
