/* segment_int — what segment.c takes from segment_rows.c. */
#ifndef HQ_SEGMENT_INT_H
#define HQ_SEGMENT_INT_H

#include <stdint.h>

#include "hq/err.h"
#include <sqlite3.h>

/*
 * The columns of into's table, in order, as a select list over the rows
 * of from's (AS t), sqlite3_free(): "*" when both have the same columns;
 * else each column from has, t."name", and one it lacks, its default (a
 * segment written before a migration added a column to its table). NULL
 * (e set) when from has a column into lacks: a segment newer than the
 * store.
 */
char *hq_segment_columns(sqlite3 *db, const char *into, const char *from,
    const char *table, struct hq_err *e);

#endif
