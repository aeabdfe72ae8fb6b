/*
 * cgm_report — what `hq-report cgm` computes: glucose readings out of the
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
 * hq_cgm_report_free() releases it.
 *
 * Coverage per row: the readings expected at the sensor's interval over
 * the row's span, which runs from the first to the last reading of the
 * whole range, cut to the row's bucket (a day in the middle of a range
 * expects a whole day's readings; the first day from the first reading).
 */
#ifndef HQ_CGM_REPORT_H
#define HQ_CGM_REPORT_H

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

struct hq_cgm_row {
	int64_t start, end;    /* the bucket, [start, end) UTC */
	struct hq_cgm_metrics m;
};

struct hq_cgm_report {
	struct hq_cgm_row *rows;     /* one per bucket holding readings */
	size_t nrows;
	struct hq_cgm_row total;     /* the whole range */
	int interval_min;            /* the counting source's interval */
	int nsources;                /* sources with readings in the range */
	long readings_stored;        /* before the double-source rule */
	int has_agp;
	struct hq_cgm_agp_row agp[HQ_CGM_AGP_SLOTS];
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

/*
 * What `hq-report cgm` prints, for the command (cmd/hq-report.c): the
 * metric rows (from, to, days, readings, ... gri, unit), the AGP rows
 * (time, p5, p25, p50, p75, p95, n, unit) with o->agp, or the AGP drawn
 * (format "svg" or "html", with or without o->agp). format is a name
 * hq_output_parse_format() takes, "svg", "html", or NULL (a table on a
 * terminal, JSON lines otherwise). On a table, a range's row is a list of
 * field and value; rows per bucket keep the columns a terminal has room
 * for (JSON and CSV have every field). 0; 1 when the range holds no
 * readings (e says so, in words for a person); -1 with e set.
 */
int hq_cgm_report_print(struct hq_store *s, const struct hq_cgm_report_opts *o,
    const char *format, FILE *fp, struct hq_err *e);

/* `hq-report list cgm`: a row kind "cgm", date (the session's first local
 * date), source, n (local days with readings) per sensor session, oldest
 * first, into out. The number of rows, or -1 with e set. */
struct hq_out;
long hq_cgm_list(struct hq_store *s, struct hq_out *out, struct hq_err *e);

#endif
