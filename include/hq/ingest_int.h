/*
 * ingest_int — what the import writer's files share (lib/store/ingest.c:
 * the import's life, warnings, zones; ingest_sample.c: a record made a
 * sample, the checks every reader inherits; ingest_other.c: what is not a
 * sample), as curl's vtls_int.h. Only lib/store includes it (layers.pl).
 */
#ifndef HQ_INGEST_INT_H
#define HQ_INGEST_INT_H

#include <stdint.h>

#include "hq/catalog.h"
#include "hq/err.h"
#include "hq/ingest.h"
#include "hq/store.h"

/* Prepared statements, one per kind of row, with what they do (for
 * errors); finalized by ig_free(). */
enum {
	ST_SAMPLE_META, ST_BEAT, ST_CORR, ST_CORR_ID, ST_CORR_MEMBER, ST_CORR_META,
	ST_WORKOUT, ST_WORKOUT_ID, ST_WORKOUT_TOTALS, ST_WORKOUT_META,
	ST_WORKOUT_ACTIVITY, ST_WORKOUT_STAT, ST_WORKOUT_EVENT, ST_ROUTE,
	ST_ROUTE_POINT, ST_ROUTE_FILE, ST_ROUTES_FOR_FILE, ST_ROUTE_SPAN, ST_SUMMARY,
	ST_CLINICAL, ST_CLINICAL_RESOURCE, ST_ME, ST_IMPORT_END, ST_ZONE,
	ST_ROUTE_POINTS, ST_ROUTE_BOX, ST_ROUTE_BOX_MERGE, ST_ROUTE_MARK, NSTMT
};

/* Route points written ROUTE_POINTS_AT_ONCE to a statement (as samples,
 * store.h): they wait in struct hq_ingest until then. */
#define ROUTE_POINTS_AT_ONCE 32

struct later_point {
	int64_t route_id;
	int seq;
	struct hq_route_point p;
};

/* The box of search's R*Tree (route_box, schema.c) the points written
 * are growing: one route's seq / 64, written when a point of another
 * comes (ingest_other.c, hq_ig_flush_box). */
struct box_growing {
	int64_t route, seg, lo, hi;
	double lat_lo, lat_hi, lon_lo, lon_hi;
	int n;
};

/* The zones an import's HKTimeZone metadata names (store.c, time_zone):
 * a handful in any real export; past MAX_ZONES the rest are not counted. */
#define MAX_ZONES 32

struct zone_seen {
	char name[65];
	int64_t first, last;
	long n;
};

/* The metric a record's type resolves to, kept for the next records: an
 * export lists each type's records together, a device file's point gives
 * five types in turn (heart rate, power, cadence, speed, distance), so a
 * few are kept (TYPE_CACHE), the last one tried first. */
#define TYPE_CACHE 8

struct type_cache {
	char type[HQ_INGEST_MAX_NAME + 1];
	int by_name;
	int watched;                /* heart rate or cycling power (same.c) */
	int64_t metric_id;
	const struct hq_metric_info *info;
	enum hq_kind kind;
	char identifier[HQ_INGEST_MAX_NAME + 1];
};

/* What an import (or a batch of them) added, for what is brought up to
 * date at its commit: its first sample and import ids, and the times of
 * its heart-rate and cycling-power records (watch_lo > watch_hi: none). */
struct hq_ig_added {
	int64_t first_sample_id, first_import_id;
	int64_t watch_lo, watch_hi;
};

/* A batch of files in one transaction (ingest.h). */
struct hq_ingest_batch {
	struct hq_store *s;
	int64_t first_sample_id;    /* of the batch's first file */
	int64_t first_import_id;    /* its import row */
	int64_t watch_lo, watch_hi; /* its files' (struct hq_ig_added) */
	int changed;                /* a file kept inserted something */
	int lost;                   /* SQLite rolled it back (a failed file) */
};

struct hq_ingest {
	struct hq_store *s;
	struct hq_ingest_batch *batch;   /* the file's batch, or NULL */
	sqlite3 *db;
	sqlite3_stmt *st[NSTMT];
	int64_t import_id, first_sample_id;
	int64_t watch_lo, watch_hi;      /* struct hq_ig_added */
	struct hq_ingest_counts c;
	struct type_cache tcs[TYPE_CACHE], *tc;   /* tc: the last resolved */
	unsigned tc_next;                        /* the slot to fill next */
	char last_source[256];
	int64_t last_source_id;
	char last_device[HQ_INGEST_MAX_NAME + 1];
	int64_t last_device_id;
	int64_t export_date;
	char *export_version, *locale;
	hq_ingest_progress_fn *progress;
	void *progress_arg;
	hq_ingest_warn_fn *warn;
	void *warn_arg;
	hq_ingest_where_fn *where;
	void *where_arg;
	char *path;                 /* the file, for warnings without where */
	char format[32];            /* what the summary says, if set */
	double last_tick;
	unsigned ticks;
	struct zone_seen zones[MAX_ZONES];
	size_t nzones;
	/* The last sample and workout inserted: their metadata follows them. */
	int64_t new_sample_id, new_sample_start, new_workout_id, new_workout_start;
	struct hq_report_writer *reports;   /* made on first use */
	struct hq_ingest_counts part;       /* the counts when a part began */
	/* Samples waiting (hq_ingest_record_later()), each unit its own. */
	struct hq_sample later[HQ_STORE_SAMPLES_AT_ONCE];
	char later_unit[HQ_STORE_SAMPLES_AT_ONCE][32];
	size_t nlater;
	struct later_point later_points[ROUTE_POINTS_AT_ONCE];
	size_t nlater_points;
	struct box_growing box;
	int64_t box_last;           /* the largest box id written, or 0 */
	int boxed;                  /* boxes written since the mark moved */
};

/* ingest.c's and ingest_sample.c's helpers, for each other and
 * ingest_other.c. */
int hq_ig_db_err(struct hq_ingest *ig, struct hq_err *e, const char *what);
sqlite3_stmt *hq_ig_stmt(struct hq_ingest *ig, int which, struct hq_err *e);
/* Statement which with the values v (store.h): 0 or -1. */
int hq_ig_run(struct hq_ingest *ig, int which, const struct hq_bind *v,
    struct hq_err *e);
/* What statement which does, for errors ("adding a route"). */
const char *hq_ig_what(int which);
/* The id statement which finds for v: 0 when none, -1 on error. */
int64_t hq_ig_query_id(struct hq_ingest *ig, int which,
    const struct hq_bind *v, struct hq_err *e);
/* A warning of the writer's own, where the reader is (the reader's
 * where, else the file). */
void hq_ig_note(struct hq_ingest *ig, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A zone named in metadata (HKTimeZone) at time t, for the time_zone table. */
void hq_ig_note_zone(struct hq_ingest *ig, const char *zone, int64_t t);
int64_t hq_ig_source_id(struct hq_ingest *ig, const char *name,
    struct hq_err *e);
int64_t hq_ig_device_id(struct hq_ingest *ig, const char *raw,
    struct hq_err *e);
/* The checks every reader inherits (ingest.h): 0, or -1 with e saying
 * why. */
int hq_ig_check_name(const char *what, const char *s, struct hq_err *e);
int hq_ig_check_amount(const char *what, double v, double max,
    struct hq_err *e);
int hq_ig_check_span(int64_t start, int64_t end, int64_t max,
    struct hq_err *e);
/* The route points waiting, written (ingest_other.c): 0 or -1. */
int hq_ig_flush_points(struct hq_ingest *ig, struct hq_err *e);
/* Search's boxes of the points written (ingest_other.c): a point added to
 * the box growing, which is written first (merged with the one of its id
 * when points came out of order) when the point is another box's. Not
 * static: bench/search.sh counts its instructions (callgrind, inclusive)
 * as the indexes' share of an import, which inlined it could not. */
int hq_ig_box_grow(struct hq_ingest *ig, const struct later_point *p,
    struct hq_err *e);
/* The box growing written, and search's mark of the routes boxed moved
 * past every route (hq_ingest_flush: every point is written then). */
int hq_ig_flush_box(struct hq_ingest *ig, struct hq_err *e);

/* The same activity recorded twice (same.c): which recordings yield
 * (workout_same) and what the counted ones take (workout_fill), settled
 * again for what the import added (when it added anything: changed) and
 * what a change of the rule left to do (workout_same_todo): 0, or -1
 * with e. */
int hq_ig_same_refresh(struct hq_store *s, const struct hq_ig_added *add,
    int changed, struct hq_err *e);

/* Drop the kept athlete figures that the imports from first_import_id on
 * (one, or a batch's) could change (figures.c). */
int hq_ig_figures_stale(struct hq_store *s, int64_t first_import_id,
    int64_t first_sample_id, struct hq_err *e);

#endif
