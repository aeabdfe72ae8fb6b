/*
 * store — the one SQLite file that holds everything hq knows.
 *
 * hq_store_open() finds the file (--db, $HQ_DB, $XDG_DATA_HOME/hq/hq.db),
 * creates it 0600 in a 0700 directory, turns on WAL and a busy timeout, and
 * brings the schema up to date (migrations in schema.c, PRAGMA user_version).
 * The store owns its sqlite3 handle, its cached statements and the one
 * cache of interned names (metric, source and device ids, both ways);
 * hq_store_close() frees them. Times are UTC seconds (HACKING.md).
 */
#ifndef HQ_STORE_H
#define HQ_STORE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sqlite3.h>

#include "hq/buf.h"
#include "hq/err.h"

enum {
	HQ_STORE_CREATE = 1,   /* create the file if missing */
	HQ_STORE_READONLY = 2, /* never write (queries) */
};

struct hq_store;

/*
 * The archive's months, read for the writer (hq-archive(1), PRUNED MONTHS):
 * a store that hq-archive prune took months out of keeps their rollups but
 * not their raw samples, and an import whose new samples fall in those
 * months totals their hours again with the archived samples (rollup.c).
 * lib/archive sits above this layer, so the command sets the hook: it makes
 * the segments of months[0..n) (as hq-archive numbers months) readable now,
 * each a SQLite file of the store's own schema, and puts their paths in
 * *paths (n of them; free() each and the array): 0, or -1 with e naming
 * the months and why (no remote, a wrong key, no network). Without a hook,
 * an import that needs them is refused.
 */
typedef int hq_store_archive_fn(void *arg, const int *months, int n,
    char ***paths, struct hq_err *e);
void hq_store_set_archive(struct hq_store *s, hq_store_archive_fn *fn,
    void *arg);

/* The path the store would use for dbpath (NULL = default); 0 or -1. */
int hq_store_path(const char *dbpath, char *buf, size_t n, struct hq_err *e);
struct hq_store *hq_store_open(const char *dbpath, int flags, struct hq_err *e);
void hq_store_close(struct hq_store *s);
sqlite3 *hq_store_db(struct hq_store *s);
/* The SQL function name (of nargs arguments, at most 4) registered on
 * db, unless it is already (sqlfunc.c: registering again can fail). 0, or
 * -1 (sqlite3_errmsg says why). */
int hq_store_function(sqlite3 *db, const char *name, int nargs,
    void (*fn)(sqlite3_context *, int, sqlite3_value **));
/* hq-query search's indexes brought up to the rows (search_index.c): the
 * fill above, then hq's metrics and the store's sources; by every import,
 * the migration to 13 and a restore. 0, or -1. */
int hq_store_search_refresh(sqlite3 *db, struct hq_err *e);
const char *hq_store_filename(const struct hq_store *s);
/* Into b: the "file:" URI of path (sqlite.org/uri.html), every byte but
 * the unreserved ones percent-encoded, then "?" and query
 * ("immutable=1", "mode=ro"). */
struct hq_buf;
void hq_store_uri(const char *path, const char *query, struct hq_buf *b);
int hq_store_schema_version(struct hq_store *s);
/* The newest schema version this build knows (schema.c). */
int hq_store_latest_version(void);
/* The SQL that brings a store from schema version to version + 1 (0: an
 * empty file), or NULL past the latest. */
const char *hq_store_migration(int version);
/* The SQL that brings hq-query search's indexes (search_text, route_box)
 * up to the store's workouts, labs, records and routes (migration 13's). */
/* The SQL creating search_text_key (migration 16), if it is not there. */
const char *hq_store_search_key(void);
const char *hq_store_search_fill(void);

/* BEGIN IMMEDIATE: the write lock is taken now, so two writers queue up
 * here (within the busy timeout) instead of failing half-way. */
int hq_store_begin(struct hq_store *s, struct hq_err *e);
int hq_store_commit(struct hq_store *s, struct hq_err *e);
void hq_store_rollback(struct hq_store *s);
/* A savepoint inside the transaction (one file of a zip): undo rolls back
 * to it and forgets interned ids made since, keep releases it. */
int hq_store_savepoint(struct hq_store *s, struct hq_err *e);
int hq_store_savepoint_keep(struct hq_store *s, struct hq_err *e);
void hq_store_savepoint_undo(struct hq_store *s);
/* The same for a file of a batch (ingest.h), a savepoint of another name:
 * undoing it undoes the savepoints made inside it, even one its reader
 * left open on an error. */
int hq_store_file_savepoint(struct hq_store *s, struct hq_err *e);
int hq_store_file_savepoint_keep(struct hq_store *s, struct hq_err *e);
void hq_store_file_savepoint_undo(struct hq_store *s);
int hq_store_exec(struct hq_store *s, const char *sql, struct hq_err *e);
/* Prepare a statement that the caller finalizes. */
int hq_store_prepare(struct hq_store *s, const char *sql, sqlite3_stmt **st,
    struct hq_err *e);

/*
 * Values for a statement's parameters 1, 2, ... in order, as an array
 * ended by HQ_END: (struct hq_bind[]){ HQ_INT(id), HQ_OPT_TEXT(unit),
 * HQ_END }. Each kind says what stands for SQL NULL:
 *   HQ_INT(x)   an integer          HQ_OPT_INT(x)   NULL when 0 (no id, no time)
 *   HQ_REAL(x)  a number            HQ_OPT_REAL(x)  NULL when NaN
 *   HQ_TEXT(s)  text, '' for NULL   HQ_OPT_TEXT(s)  NULL when NULL
 * Text is bound without a copy: it must live until the statement is reset.
 * Parameters past the last value are bound NULL.
 */
enum hq_bind_kind {
	HQ_BIND_END, HQ_BIND_INT, HQ_BIND_OPT_INT, HQ_BIND_REAL, HQ_BIND_OPT_REAL,
	HQ_BIND_TEXT, HQ_BIND_OPT_TEXT,
};
struct hq_bind {
	enum hq_bind_kind kind;
	int64_t i;
	double d;
	const char *s;
};
/* The store's table of the months hq-archive prune took out of it
 * (month, rows): this machine's own, never in a segment; and the natural
 * keys (HACKING.md) of the samples a prune deleted, so that importing
 * them again (Apple Health's export holds every year, each night) finds
 * them duplicates, as before the prune. Made by hq-archive prune; read by
 * hq-ingest for the hours of a pruned month (rollup_pruned.c). */
#define HQ_STORE_PRUNED "archive_pruned"
#define HQ_STORE_PRUNED_KEY "archive_pruned_key"
/* And what the pruned samples were, by month, metric and source (month,
 * metric_id, source_id, n, first, last, newest, unit: their count, first
 * start, last end, newest start, greatest unit; and for each month a row
 * of metric_id 0: it is summed), so that a store's metrics and routes
 * are listed (hq-query --list) and its newest day found without reading
 * the archive. */
#define HQ_STORE_PRUNED_METRIC "archive_pruned_metric"
/* And how many points of each route a prune took (route_id, points). */
#define HQ_STORE_PRUNED_ROUTE "archive_pruned_route"
/* 1 when the store has pruned months and every one is summed in
 * HQ_STORE_PRUNED_METRIC (a month pruned by an older hq-archive is not:
 * 0, as for a store never pruned, and the archive is read); -1 an
 * error. */
int hq_store_pruned_summed(struct hq_store *s, struct hq_err *e);
/* In SQL, the UTC month of a time column t (seconds): year * 12 + month
 * - 1, as hq-archive numbers months (its segments, archive_pruned). */
#define HQ_SQL_MONTH_OF(t) "(CAST(strftime('%Y', " t ", 'unixepoch') AS INT) " \
	"* 12 + CAST(strftime('%m', " t ", 'unixepoch') AS INT) - 1)"
/* Such a month's [*a, *b) in UTC seconds; its name ("2020-03") into buf
 * (8 bytes); months (ascending) named into out, a run of them as one
 * ("2019-01..2019-12, 2021-03"). */
void hq_store_month_bounds(int month, int64_t *a, int64_t *b);
void hq_store_month_name(int month, char *buf, size_t n);
void hq_store_month_list(struct hq_buf *out, const int *m, int n);

#define HQ_INT(x)       { HQ_BIND_INT, (x), 0, NULL }
#define HQ_OPT_INT(x)   { HQ_BIND_OPT_INT, (x), 0, NULL }
#define HQ_REAL(x)      { HQ_BIND_REAL, 0, (x), NULL }
#define HQ_OPT_REAL(x)  { HQ_BIND_OPT_REAL, 0, (x), NULL }
#define HQ_TEXT(x)      { HQ_BIND_TEXT, 0, 0, (x) }
#define HQ_OPT_TEXT(x)  { HQ_BIND_OPT_TEXT, 0, 0, (x) }
#define HQ_END          { HQ_BIND_END, 0, 0, NULL }

void hq_store_bind(sqlite3_stmt *st, const struct hq_bind *v);
/* Column i of a row as a number, NAN when it is NULL (a figure the row
 * does not have). */
static inline double
hq_store_col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN :
	    sqlite3_column_double(st, i);
}
/* Bind v to a statement that returns no rows, step it and reset it: 0, or
 * -1 with e "store: what: why". Text that is not UTF-8 is refused (-1,
 * "what: text that is not UTF-8"): every writer stores UTF-8 alone. */
int hq_store_run(struct hq_store *s, sqlite3_stmt *st, const struct hq_bind *v,
    const char *what, struct hq_err *e);

/* The newest export date (ExportDate) the store's imports record, 0 when
 * none does (JSON lines, CSV), -1 with e set. */
int64_t hq_store_newest_export(struct hq_store *s, struct hq_err *e);

/*
 * A module's statements, prepared on first use and kept: a table of the
 * SQL and what it does (for errors), and an array as long for the prepared
 * statements, which the module zeroes and ends with hq_store_finalize().
 * hq_store_stmt() gives the prepared statement of an entry (NULL with e
 * set); hq_store_run_sql() and hq_store_query_sql() run it.
 */
struct hq_store_sql {
	const char *sql, *what;
};
sqlite3_stmt *hq_store_stmt(struct hq_store *s, const struct hq_store_sql *q,
    sqlite3_stmt **st, struct hq_err *e);
int hq_store_run_sql(struct hq_store *s, const struct hq_store_sql *q,
    sqlite3_stmt **st, const struct hq_bind *v, struct hq_err *e);
int64_t hq_store_query_sql(struct hq_store *s, const struct hq_store_sql *q,
    sqlite3_stmt **st, const struct hq_bind *v, struct hq_err *e);
void hq_store_finalize(sqlite3_stmt **st, size_t n);

/* Interned names: the id of a metric identifier (a HealthKit identifier or
 * a catalog name), a source name, a device description; created on first
 * use. Return -1 with e set on failure (a new name that is not UTF-8
 * among them). Lookups (create = 0) return 0 when the name is unknown. */
int64_t hq_store_metric_id(struct hq_store *s, const char *identifier,
    int create, struct hq_err *e);
int64_t hq_store_source_id(struct hq_store *s, const char *name, int create,
    struct hq_err *e);
int64_t hq_store_device_id(struct hq_store *s, const char *descr,
    struct hq_err *e);

/*
 * The names behind ids, for readers: the metric identifier, source name
 * or device description of an id, or NULL when no row has it. They come
 * from the same cache, which loads a whole table at its first reverse
 * look-up; hq_store_load_names() loads all three up front and says when
 * that fails (the look-ups then answer NULL). A name is borrowed: valid
 * until a name of its table is interned, the store rolls back or closes.
 */
int hq_store_load_names(struct hq_store *s, struct hq_err *e);
const char *hq_store_metric_name(struct hq_store *s, int64_t id);
/* The id of the metric spelt name: its identifier or the identifier's
 * snake-case name (hq_catalog_snake), in any case; the lowest id when
 * several are spelt so. 0 when none, -1 with e set when the names cannot
 * be read. From the same cache, indexed once: a look-up costs log(n). */
int64_t hq_store_metric_find(struct hq_store *s, const char *name,
    struct hq_err *e);
const char *hq_store_source_name(struct hq_store *s, int64_t id);
const char *hq_store_device_name(struct hq_store *s, int64_t id);
/* Every source name in name order (*n of them), and the place of a source
 * in that order (-1: unknown): merge.h ranks equal classes by it. */
const char *const *hq_store_source_names(struct hq_store *s, size_t *n);
ssize_t hq_store_source_order(struct hq_store *s, int64_t id);

struct hq_sample {
	int64_t metric_id, source_id;
	int64_t device_id;          /* 0 = none */
	int64_t start, end;         /* UTC seconds */
	double value;               /* canonical unit; category code */
	const char *text;           /* category name; NULL or "" for quantities */
	const char *unit;           /* as written in the file; may be NULL */
	const char *source_version; /* may be NULL */
	int64_t created;            /* 0 = unknown */
	int offset_min;             /* offset written in the file */
	int64_t import_id;
};

/* Insert unless an equal natural key exists: 1 inserted, 0 duplicate, -1
 * error. The new row's id is hq_store_last_id(). */
int hq_store_add_sample(struct hq_store *s, const struct hq_sample *smp,
    struct hq_err *e);
/* The same for n samples, HQ_STORE_SAMPLES_AT_ONCE in one statement (one
 * execution of SQLite's program, its cursors open across the rows): the
 * number inserted, or -1 on error (the rows before it may be in). */
#define HQ_STORE_SAMPLES_AT_ONCE 32
int hq_store_add_samples(struct hq_store *s, const struct hq_sample *smp,
    size_t n, struct hq_err *e);
/* The id of the sample with smp's natural key: 0 when none, -1 on error. */
int64_t hq_store_find_sample(struct hq_store *s, const struct hq_sample *smp,
    struct hq_err *e);
int64_t hq_store_last_id(struct hq_store *s);

#endif
