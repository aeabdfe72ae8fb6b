/*
 * ingest — the import writer: one input file into the store, whole or not
 * at all.
 *
 * hq_ingest_start() opens a write transaction (BEGIN IMMEDIATE) and an
 * import row; a reader (the table in reader.h: JSON lines in jsonl.h, Apple
 * Health in applehealth.h) hands it records, workouts and the rest;
 * hq_ingest_commit() writes the counts, brings the rollups up to date and
 * commits, hq_ingest_abort() rolls everything back. Both free the struct
 * hq_ingest. Every add function copies what it needs: strings passed in
 * are borrowed for the duration of the call only.
 *
 * The counts are the writer's: the add functions keep them, and a reader
 * reports what it could not add through hq_ingest_skip() (a record it
 * could not use) and hq_ingest_warn() (anything else the user should
 * know), which hand their message to the command's warning function.
 *
 * Deduplication is by natural key (HACKING.md): adding what the store
 * already holds counts a duplicate and changes nothing.
 *
 * The writer checks what every reader hands it, so a new reader inherits
 * the checks: strings are UTF-8, names (a type, source, device, unit,
 * category, key) at most HQ_INGEST_MAX_NAME bytes, numbers finite and at
 * most HQ_INGEST_MAX_VALUE in size, a metric's values (once in its
 * canonical unit) what a body makes (hq_catalog_bounds: a heart rate of
 * 60,000 is none), amounts (cumulative samples, a
 * workout's duration, distance and energy, a day's activity) not negative,
 * an end never before its start, a span at most HQ_INGEST_MAX_SPAN
 * (HQ_CUMULATIVE_MAX_SPAN of catalog.h for a cumulative sample). What
 * fails them is skipped (the add function returns 2, e says why) and the
 * reader warns with file:line; hq-ingest(1) lists the bounds under LIMITS.
 */
#ifndef HQ_INGEST_H
#define HQ_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "hq/catalog.h"
#include "hq/err.h"
#include "hq/store.h"

struct hq_input;

/* The longest name a reader may pass (bytes). */
#define HQ_INGEST_MAX_NAME 1024
/* The largest magnitude of a value, in its canonical unit: no health
 * quantity comes near (the largest are steps or metres, under 1e7 a
 * sample), and sums of values this size stay finite. */
#define HQ_INGEST_MAX_VALUE 1e12
/* The longest span of any other sample, workout or correlation: states
 * such as a pregnancy or a contraceptive last months or years; nothing a
 * person records lasts ten. Their cost does not grow with the span. */
#define HQ_INGEST_MAX_SPAN ((int64_t)3653 * 86400)

struct hq_ingest_counts {
	long records;       /* samples read (top-level Records, JSON lines) */
	long inserted;      /* samples new to the store */
	long duplicates;    /* samples the store already had */
	long skipped;       /* records that could not be used (bad values) */
	long workouts, workouts_inserted;
	long correlations, summaries, clinical, routes, route_points, beats;
	long control_chars; /* illegal XML characters dropped */
	long units_unconverted; /* samples stored in a unit hq cannot convert */
	long lab_results;   /* lab results read (new or not), also in records */
	long dexa_fields;   /* DEXA fields read, also in records */
	long partial;       /* files imported in part (a FIT that ends early) */
	/* A device file's local time, as it states it, when it is not the
	 * zone's (hq_ingest_stated_offset): minutes east of UTC. */
	int offset_differs, stated_offset_min, zone_offset_min;
};

struct hq_ingest;

/* Progress: called now and then with the bytes consumed of the input. */
typedef void hq_ingest_progress_fn(void *arg, const struct hq_input *in,
    const struct hq_ingest_counts *c);
/* Warnings about the input, one message ("file:line: what") a call. */
typedef void hq_ingest_warn_fn(void *arg, const char *msg);
/* Where the reader is, for the writer's own warnings: "file:line" into
 * buf (n bytes). */
typedef void hq_ingest_where_fn(void *arg, char *buf, size_t n);

struct hq_ingest *hq_ingest_start(struct hq_store *s, const char *path,
    const char *format, int64_t size, struct hq_err *e);
void hq_ingest_set_progress(struct hq_ingest *ig, hq_ingest_progress_fn *fn,
    void *arg);
void hq_ingest_set_warn(struct hq_ingest *ig, hq_ingest_warn_fn *fn,
    void *arg);
/* Set by a reader: without it the writer's warnings name the file only. */
void hq_ingest_set_where(struct hq_ingest *ig, hq_ingest_where_fn *fn,
    void *arg);
/* Call the progress function if enough time has passed (cheap). */
void hq_ingest_tick(struct hq_ingest *ig, const struct hq_input *in);
const struct hq_ingest_counts *hq_ingest_counts(const struct hq_ingest *ig);
/* What the file was, as its summary says it when the reader knows better
 * than the format that opened it ("gpx.gz" for a gzip of a GPX file; the
 * import row keeps the format's name); NULL when none was set. */
void hq_ingest_set_format(struct hq_ingest *ig, const char *format);
const char *hq_ingest_format(const struct hq_ingest *ig);
struct hq_store *hq_ingest_store(struct hq_ingest *ig);
/* The id the first sample of this import gets (ids only grow). */
int64_t hq_ingest_first_sample_id(const struct hq_ingest *ig);
void hq_ingest_set_export_info(struct hq_ingest *ig, int64_t export_date,
    const char *version, const char *locale);
int hq_ingest_commit(struct hq_ingest *ig, struct hq_err *e);

/*
 * A batch: several files' imports in one transaction, each file in a
 * savepoint of its own (hq-ingest's FILE...: a year of rides is 400 files).
 * hq_ingest_start_in() starts a file's import inside the batch; its
 * hq_ingest_commit() keeps the file (its import row, counts and rows) and
 * its hq_ingest_abort() takes back that file alone, so a bad file is
 * refused whole and the batch holds exactly the files kept. What depends
 * on all the rows (the rollups, the same activity, the catalog) is brought
 * up to date once, by hq_ingest_batch_commit(), which commits: only then
 * are the batch's files in the store. hq_ingest_batch_abort() rolls the
 * whole batch back. Both free the batch. Not nested, and one batch open on
 * a store at a time; hq_ingest_start() outside one is a batch of one.
 */
struct hq_ingest_batch;
struct hq_ingest_batch *hq_ingest_batch_begin(struct hq_store *s,
    struct hq_err *e);
struct hq_ingest *hq_ingest_start_in(struct hq_ingest_batch *b,
    const char *path, const char *format, int64_t size, struct hq_err *e);
int hq_ingest_batch_commit(struct hq_ingest_batch *b, struct hq_err *e);
void hq_ingest_batch_abort(struct hq_ingest_batch *b);
/* One part of the import (a file in a zip of device files) that may fail
 * alone: begin marks where it starts; undo takes back what it added (its
 * rows and its counts), keep keeps it. 0, or -1 with e set. */
int hq_ingest_part_begin(struct hq_ingest *ig, struct hq_err *e);
int hq_ingest_part_keep(struct hq_ingest *ig, struct hq_err *e);
void hq_ingest_part_undo(struct hq_ingest *ig);
void hq_ingest_abort(struct hq_ingest *ig);

/* What a reader reports besides what it adds: a record it read but could
 * not use (no type, no valid dates), counted as read and skipped, with a
 * warning that says why; a warning of anything else the user should know
 * (a workout without dates, a side file it could not read). */
void hq_ingest_skip(struct hq_ingest *ig, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hq_ingest_warn(struct hq_ingest *ig, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* n values of one kind read and skipped at once, with one warning (a
 * device file's invalid heart rates). */
void hq_ingest_skip_n(struct hq_ingest *ig, long n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A file imported in part: what it holds up to where it ends early (a
 * FIT file whose device died), warned by the reader; hq-ingest then exits
 * 1. */
void hq_ingest_partial(struct hq_ingest *ig);
/* The file states its local time as stated_min minutes east of UTC where
 * the zone in force says zone_min (a FIT activity's local_timestamp, a
 * GPX time with an offset): kept in the counts for hq-ingest, which says
 * which zone days are counted in when nobody chose it. */
void hq_ingest_stated_offset(struct hq_ingest *ig, int stated_min,
    int zone_min);
/* Characters dropped because the format forbids them (XML controls). */
void hq_ingest_dropped_chars(struct hq_ingest *ig, long n);

/* One sample as a reader found it. type is a HealthKit identifier or, when
 * by_name is set, a catalog name or alias (JSON lines). value_str is the
 * value as written (Apple) — a category value or a number — or NULL, then
 * value_num is used. */
struct hq_ingest_record {
	const char *type;
	int by_name;
	const char *source, *source_version, *device, *unit;
	const char *value_str;
	double value_num;
	int has_value;          /* value_num is set (JSON lines) */
	const char *text;       /* a category name given directly, or NULL */
	int percent_fraction;   /* "%" written as a fraction (Apple) */
	int converted;          /* the value is in the canonical unit already;
	                           unit is only what the file wrote (CGM CSV,
	                           whose mmol/L converts by hq-ingest(1)'s 18.016) */
	int64_t start, end, created;
	int offset_min;
};

/* 1 inserted, 0 duplicate, 2 skipped (e says why), -1 store error. The id
 * of the sample (new or existing) goes to *id when not NULL. A quantity in
 * a unit hq cannot convert to the metric's canonical one is stored as
 * written, warned about (where the reader is) and counted. */
int hq_ingest_record(struct hq_ingest *ig, const struct hq_ingest_record *r,
    int64_t *id, struct hq_err *e);
/* hq_ingest_record() for a reader that needs no id (a device file's
 * points): the same checks and counts, 0 (taken), 2 (skipped, e says
 * why) or -1, but the row waits to be written with others in one
 * statement (hq_store_add_samples(); HACKING.md, the year of rides).
 * hq_ingest_flush() writes those waiting (0 or -1), and so does every
 * other add of a sample, a part's begin and end, and the commit; the
 * counts of inserted and duplicates follow then. */
int hq_ingest_record_later(struct hq_ingest *ig,
    const struct hq_ingest_record *r, struct hq_err *e);
int hq_ingest_flush(struct hq_ingest *ig, struct hq_err *e);
/* The id of the sample hq_ingest_record() has just inserted (it returned
 * 1): for readers that need ids of new samples only, and so pass id NULL
 * to spare a duplicate its look-up. */
int64_t hq_ingest_new_sample_id(const struct hq_ingest *ig);
int hq_ingest_sample_meta(struct hq_ingest *ig, int64_t sample_id,
    const char *key, const char *value, struct hq_err *e);
int hq_ingest_hrv_beat(struct hq_ingest *ig, int64_t sample_id, int seq,
    double bpm, double time_of_day, struct hq_err *e);
/* The id of an existing sample with this natural key (0: none), for
 * correlation members; adds it when missing. -1 on error. */
int64_t hq_ingest_member(struct hq_ingest *ig, const struct hq_ingest_record *r,
    struct hq_err *e);

struct hq_ingest_group {          /* a Correlation or a Workout */
	const char *type;             /* correlation type / workoutActivityType */
	const char *source, *source_version, *device;
	int64_t start, end, created;
	int offset_min;
	double duration, distance, energy;  /* workouts: s, m, kcal; NaN = none */
};
/* 1 new (id in *id), 0 already in the store (*id is the old one), 2
 * skipped (e says why: a bad name, end before start, a negative or
 * non-finite amount, too long a span), -1. */
int hq_ingest_correlation(struct hq_ingest *ig, const struct hq_ingest_group *g,
    int64_t *id, struct hq_err *e);
int hq_ingest_correlation_member(struct hq_ingest *ig, int64_t corr_id,
    int64_t sample_id, struct hq_err *e);
/* A correlation's MetadataEntry (its first value of a key is kept, so a
 * later import adds what an earlier one lacked and changes nothing). */
int hq_ingest_correlation_meta(struct hq_ingest *ig, int64_t corr_id,
    const char *key, const char *value, struct hq_err *e);
int hq_ingest_workout(struct hq_ingest *ig, const struct hq_ingest_group *g,
    int64_t *id, struct hq_err *e);
int hq_ingest_workout_totals(struct hq_ingest *ig, int64_t workout_id,
    double distance, double energy, struct hq_err *e);
int hq_ingest_workout_meta(struct hq_ingest *ig, int64_t workout_id,
    const char *activity_uuid, const char *key, const char *value,
    struct hq_err *e);
int hq_ingest_workout_activity(struct hq_ingest *ig, int64_t workout_id,
    const char *uuid, const char *type, int64_t start, int64_t end,
    double duration, struct hq_err *e);
struct hq_ingest_stat {
	const char *activity_uuid;    /* NULL: the workout's own */
	const char *type, *unit;
	int64_t start, end;
	double sum, average, minimum, maximum;   /* NaN = absent */
};
int hq_ingest_workout_stat(struct hq_ingest *ig, int64_t workout_id,
    const struct hq_ingest_stat *st, struct hq_err *e);
int hq_ingest_workout_event(struct hq_ingest *ig, int64_t workout_id,
    const char *activity_uuid, const char *type, int64_t date,
    double duration, struct hq_err *e);
/* A route of a workout; file is the FileReference path or NULL (inline). */
int64_t hq_ingest_route(struct hq_ingest *ig, int64_t workout_id,
    const char *source, int64_t start, int64_t end, const char *file,
    struct hq_err *e);
struct hq_route_point {
	int64_t time;
	double lat, lon, ele, h_acc, v_acc, course, speed;   /* NaN = absent */
};
int hq_ingest_route_point(struct hq_ingest *ig, int64_t route_id, int seq,
    const struct hq_route_point *p, struct hq_err *e);
int hq_ingest_route_file(struct hq_ingest *ig, int64_t route_id,
    const char *file, struct hq_err *e);
/* Up to max ids of routes whose FileReference is file and that have no
 * points yet. Returns how many, -1 on error. */
int hq_ingest_routes_for_file(struct hq_ingest *ig, const char *file,
    int64_t *ids, int max, struct hq_err *e);
int hq_ingest_route_span(struct hq_ingest *ig, int64_t route_id,
    int64_t start, int64_t end, struct hq_err *e);

struct hq_ingest_summary {
	const char *date;                      /* YYYY-MM-DD */
	double active_energy, active_energy_goal;
	const char *active_energy_unit;
	double move_time, move_time_goal, exercise_time, exercise_time_goal;
	double stand_hours, stand_hours_goal;  /* NaN = absent */
};
/* Upsert by date: 1 new or changed, 0 unchanged, 2 skipped (e says why:
 * not a calendar date, a value negative or past its bound: 24 stand
 * hours, 1440 minutes), -1. */
int hq_ingest_activity_summary(struct hq_ingest *ig,
    const struct hq_ingest_summary *a, struct hq_err *e);

struct hq_ingest_clinical {
	const char *type, *identifier, *source, *source_url, *fhir_version;
	const char *resource_path;
	int64_t received;
};
int hq_ingest_clinical_record(struct hq_ingest *ig,
    const struct hq_ingest_clinical *c, struct hq_err *e);
/* Attach a FHIR resource to the records that name path and lack one, and
 * have every record that names it read into lab results again at the end
 * of the import (hq_ingest_clinical_reports): the number of records that
 * name path, -1 on error. */
int hq_ingest_clinical_resource(struct hq_ingest *ig, const char *path,
    const char *json, struct hq_err *e);
int hq_ingest_me(struct hq_ingest *ig, const char *key, const char *value,
    struct hq_err *e);

/* Reports (report.h): a lab result (clinical_id: the clinical record it
 * was read from, 0 none) or a DEXA scan, kept the way report.h says
 * (stored once whatever the file; amendments, retractions). Counted in
 * records, inserted and duplicates, and in lab_results or dexa_fields.
 * 0 or 1, 2 refused (report.h's checks: a value past its bound, a date in
 * the future; e says why, the reader fails the file naming file:line), or
 * -1 on a store error. */
struct hq_lab_result;
struct hq_dexa_scan;
int hq_ingest_lab_result(struct hq_ingest *ig, const struct hq_lab_result *r,
    int64_t clinical_id, struct hq_err *e);
int hq_ingest_dexa_scan(struct hq_ingest *ig, const struct hq_dexa_scan *scan,
    struct hq_err *e);
/* The FHIR resources of clinical records not read yet (this import's, or
 * those of a store from before reports) into lab results; one that cannot
 * be read is skipped with a warning. The importer (hq-ingest) calls it
 * after each file's reader, whatever the format. 0, or -1 on a store
 * error. */
int hq_ingest_clinical_reports(struct hq_ingest *ig, struct hq_err *e);

/* "<<HKDevice: 0x1234>, name:Apple Watch, ...>" → "name:Apple Watch, ..."
 * into buf (the pointer address changes per record). */
void hq_ingest_clean_device(const char *device, char *buf, size_t n);

#endif
