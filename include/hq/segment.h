/*
 * segment — the store cut into what hq-archive sends: one SQLite file per
 * UTC month, in the store's own schema (its tables, no index), holding
 * every row of that month and the rows that hang from them (a workout's
 * route points stay with the workout's start month), and one file of the
 * tables that are not by month (metrics, sources, devices, imports...),
 * "dims". A table of the store that this file has no rule for is an
 * error, so a new table cannot silently stay out of the archive.
 *
 * Months are numbered year * 12 + month - 1 (2020-03 is 24242).
 * A segment is built from a snapshot of the store (one read
 * transaction), its rows in rowid order: the same store gives the same
 * bytes, so a month whose bytes hash as before is unchanged.
 */
#ifndef HQ_SEGMENT_H
#define HQ_SEGMENT_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "hq/buf.h"
#include "hq/err.h"

#define HQ_SEGMENT_DIMS (-1)

/* hq_store_month_name's, and "dims" for HQ_SEGMENT_DIMS. */
void hq_segment_month_name(int month, char *buf, size_t n);
/* Two months (int *) compared, for qsort() and bsearch(). */
int hq_segment_month_cmp(const void *a, const void *b);
/* "2020-03" -> its number, or -1. */
int hq_segment_month_parse(const char *s);

/* The months the store at db holds rows of, ascending, into *months
 * (free()); their count, or -1. */
int hq_segment_months(sqlite3 *db, int **months, struct hq_err *e);

/* A cheap fingerprint of the store: its schema version, and the size and
 * time of change of its file and WAL, as text. A store whose fingerprint
 * is unchanged has nothing new to push. */
int hq_segment_marks(sqlite3 *db, struct hq_buf *out, struct hq_err *e);

/* Write month's segment (or the dims) of the store file at store into a
 * new file out (0600): 0, with its rows in *rows, or -1. arc: the
 * month's segment as archived, whose raw rows the store no longer has
 * (pruned) are put back beside the store's (a sample the store holds
 * again under another id once), or NULL. */
int hq_segment_build(const char *store, int month, const char *arc,
    const char *out, int64_t *rows, struct hq_err *e);
/* The same, into a database in memory of at most limit bytes: 0 with
 * *db its connection (sqlite3_close() it), 1 when the month is larger
 * (build it into a file), or -1. */
int hq_segment_build_mem(const char *store, int month, const char *arc,
    int64_t limit, sqlite3 **db, int64_t *rows, struct hq_err *e);
/* The bytes of a segment built in memory, valid until db changes or
 * closes; NULL if it has none. */
const unsigned char *hq_segment_bytes(sqlite3 *db, int64_t *size);

/* Whether table is one of hq-query search's indexes or their shadow
 * tables: derived from the rows, in no segment, built again at a restore. */
int hq_segment_derived(const char *table);
/* Whether hq_segment_merge inserts table's rows as they are (a month's
 * table): none replaces another, so a restore may build its indexes
 * after the merge; a dims table's rows replace by its keys. */
int hq_segment_merged_by_rows(const char *table);
/* Insert a segment's rows into db (a store of the segment's schema
 * version, in no transaction): 0 or -1. */
int hq_segment_merge(sqlite3 *db, const char *seg, struct hq_err *e);

/* The segment's schema version (PRAGMA user_version), or -1. */
int hq_segment_schema(const char *seg, struct hq_err *e);

/*
 * Prune: month's raw rows deleted from the store db, in the caller's
 * transaction: its samples (but those a correlation names, and the
 * store's newest, whose id must stay the greatest) with their
 * metadata and heartbeats, and the route points of its workouts. Kept:
 * the rollups, workouts, their figures and routes, everything else. The
 * month is recorded in HQ_STORE_PRUNED, its samples' keys in
 * HQ_STORE_PRUNED_KEY, and a trigger makes an insert of one of those
 * samples a duplicate (ignored). 0 with the rows deleted in *rows, or -1.
 */
int hq_segment_prune(sqlite3 *db, int month, int64_t *rows, struct hq_err *e);
/* The months pruned from db, ascending, into *months (free()); their
 * count (0: none, or a store never pruned), or -1. */
int hq_segment_pruned(sqlite3 *db, int **months, struct hq_err *e);

/*
 * The hybrid read (hybrid.h): on a connection to a pruned store, temp
 * tables archive_TABLE, for each table a prune takes rows of, hold the
 * rows of the segments read back that the store no longer has.
 * hq_segment_hybrid_tables makes them, empty, with their indexes (main's
 * columns and defaults: a segment of an older schema lacks a column, its
 * rows take its default).
 * hq_segment_hybrid_table: the i-th such table, NULL past the last, and
 * in *missing the condition a segment's row t meets when the store
 * (schema %s, sqlite3_mprintf()) no longer has it.
 */
int hq_segment_hybrid_tables(sqlite3 *db, struct hq_err *e);
const char *hq_segment_hybrid_table(size_t i, const char **missing);

#endif
