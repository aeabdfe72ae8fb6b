/*
 * cgm_read — what `hq-report cgm` computes: glucose readings out of the
 * store (blood_glucose samples from any source: CGM files, Apple Health),
 * through the double-source rule, into consensus-metric rows per range or
 * local day/week/month, and the AGP; and the sensor sessions `hq-report
 * list cgm` shows.
 *
 * Memory does not grow with the number of readings: the readings stream
 * out of SQLite in time order, once: with more than one source, the
 * rollups' counts rank them and the top source's first 1024 spacings give
 * the interval ahead of the pass (8192 readings held at most meanwhile),
 * and both are checked against the whole range after it; when either
 * differs, or the rollups are stale, the readings are read again through
 * the double-source rule. Rows keep running sums, and the AGP keeps
 * distinct values (cgm.h). A report holds one row per bucket;
 * hq_cgm_report_free() releases it. The report itself (struct
 * hq_cgm_report) is cgm.h's, so that its drawing (cgm_svg.h) and its rows
 * (document_out.h) need not include this header.
 *
 * Coverage per row: the readings expected at the sensor's interval over
 * the row's span, which runs from the first to the last reading of the
 * whole range, cut to the row's bucket (a day in the middle of a range
 * expects a whole day's readings; the first day from the first reading).
 */
#ifndef HQ_CGM_READ_H
#define HQ_CGM_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/cgm.h"
#include "hq/err.h"
#include "hq/store.h"
#include "hq/time.h"

struct hq_cgm_report_opts {
	int64_t from, to;      /* [from, to) UTC; INT64_MIN / INT64_MAX: open */
	enum hq_period by;     /* HQ_PERIOD_NONE, HQ_DAY, HQ_WEEK, HQ_MONTH */
	int agp;               /* compute the AGP too */
};

/* 1 when the range holds readings, 0 when it holds none (r is empty),
 * -1 with e set. */
int hq_cgm_report_run(struct hq_store *s, const struct hq_cgm_report_opts *o,
    struct hq_cgm_report *r, struct hq_err *e);
void hq_cgm_report_free(struct hq_cgm_report *r);

/* A sensor session: one source's readings with no gap of
 * HQ_CGM_SESSION_GAP seconds or more (a Dexcom G6 warms up for two hours
 * after a sensor change); for a source whose readings so far are further
 * apart than a CGM's (median spacing over 15 minutes: finger sticks), no
 * gap under HQ_CGM_SESSION_GAP_SPARSE, so four readings a day are one
 * session rather than four. */
#define HQ_CGM_SESSION_GAP 7200
#define HQ_CGM_SESSION_GAP_SPARSE 86400
struct hq_cgm_session {
	const char *source;
	int64_t first, last;         /* UTC of its first and last reading */
	long readings;
	long days;                   /* local days holding its readings */
};
/* Every session, oldest first: 0 or -1 (fn's -1 stops, e as fn set it). */
typedef int hq_cgm_session_fn(void *arg, const struct hq_cgm_session *ses,
    struct hq_err *e);
int hq_cgm_sessions(struct hq_store *s, hq_cgm_session_fn *fn, void *arg,
    struct hq_err *e);

#endif
