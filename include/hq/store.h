/*
 * store — the one SQLite file that holds everything hq knows.
 *
 * hq_store_open() finds the file (--db, $HQ_DB, $XDG_DATA_HOME/hq/hq.db),
 * creates it 0600 in a 0700 directory, turns on WAL and a busy timeout, and
 * brings the schema up to date (migrations in store.c, PRAGMA user_version).
 * The store owns its sqlite3 handle and its cached statements;
 * hq_store_close() frees them. Times are UTC seconds (HACKING.md).
 */
#ifndef HQ_STORE_H
#define HQ_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "hq/err.h"

enum {
	HQ_STORE_CREATE = 1,   /* create the file if missing */
	HQ_STORE_READONLY = 2, /* never write (queries) */
};

struct hq_store;

/* The path the store would use for dbpath (NULL = default); 0 or -1. */
int hq_store_path(const char *dbpath, char *buf, size_t n, struct hq_err *e);
struct hq_store *hq_store_open(const char *dbpath, int flags, struct hq_err *e);
void hq_store_close(struct hq_store *s);
sqlite3 *hq_store_db(struct hq_store *s);
const char *hq_store_filename(const struct hq_store *s);
int hq_store_schema_version(struct hq_store *s);
/* The newest schema version this build knows. */
int hq_store_latest_version(void);

void hq_store_set_busy_timeout(struct hq_store *s, int ms);
/* BEGIN IMMEDIATE: the write lock is taken now, so two writers queue up
 * here (within the busy timeout) instead of failing half-way. */
int hq_store_begin(struct hq_store *s, struct hq_err *e);
int hq_store_commit(struct hq_store *s, struct hq_err *e);
void hq_store_rollback(struct hq_store *s);
int hq_store_exec(struct hq_store *s, const char *sql, struct hq_err *e);
/* Prepare a statement that the caller finalizes. */
int hq_store_prepare(struct hq_store *s, const char *sql, sqlite3_stmt **st,
    struct hq_err *e);

/* Interned names: the id of a metric identifier (a HealthKit identifier or
 * a catalog name), a source name, a device description; created on first
 * use. Return -1 with e set on failure. Lookups (create = 0) return 0 when
 * the name is unknown. */
int64_t hq_store_metric_id(struct hq_store *s, const char *identifier,
    int create, struct hq_err *e);
int64_t hq_store_source_id(struct hq_store *s, const char *name, int create,
    struct hq_err *e);
int64_t hq_store_device_id(struct hq_store *s, const char *descr,
    struct hq_err *e);

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
int64_t hq_store_last_id(struct hq_store *s);

#endif
