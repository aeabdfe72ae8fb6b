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

/* "2020-03" into buf (8 bytes); "dims" for HQ_SEGMENT_DIMS. */
void hq_segment_month_name(int month, char *buf, size_t n);
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
 * new file out (0600): 0, with its rows in *rows, or -1. */
int hq_segment_build(const char *store, int month, const char *out,
    int64_t *rows, struct hq_err *e);

/* Whether table is one of hq-query search's indexes or their shadow
 * tables: derived from the rows, in no segment, built again at a restore. */
int hq_segment_derived(const char *table);
/* Insert a segment's rows into db (a store of the segment's schema
 * version, in no transaction): 0 or -1. */
int hq_segment_merge(sqlite3 *db, const char *seg, struct hq_err *e);

/* The segment's schema version (PRAGMA user_version), or -1. */
int hq_segment_schema(const char *seg, struct hq_err *e);

#endif
