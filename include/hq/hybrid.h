/*
 * hybrid — one query over the store and the archive (hq-archive(1),
 * "PRUNED MONTHS"). A store pruned by hq-archive prune lacks the raw rows
 * of its old months; a query whose range reaches them has them fetched
 * from the archive into the cache (the [archive] cache directory, 0700,
 * its files 0600, at most [archive] cache_size bytes: the least recently
 * used months go first) and put beside the store on its connection
 * (segment.h, the hybrid read), so that it answers as before the prune.
 */
#ifndef HQ_HYBRID_H
#define HQ_HYBRID_H

#include <stdint.h>
#include <sqlite3.h>

#include "hq/buf.h"
#include "hq/config.h"
#include "hq/err.h"

struct hq_hybrid;

/*
 * For a command over [from, to) (UTC seconds; INT64_MIN, INT64_MAX:
 * open) on db, the store's read-only connection: the pruned months the
 * range reaches made readable, lazily. Temp views named sample,
 * sample_meta, hrv_beat and route_point put the store's rows and the
 * archived ones together (unqualified names find the temp schema first);
 * a month is fetched and its rows put in only when a statement reads
 * those views' archived part over that month (a sample's start, a
 * sample's id, a route's workout; a read the month cannot be told of
 * fetches every month reached), so a command the rollups answer fetches
 * nothing. A month that cannot be had fails that statement (SQLite's
 * error names the months and why: no remote, a wrong key, a damaged
 * segment, the cache's bound); offline, its rows are left out and the
 * month noted (hq_archive_hybrid_left).
 *
 * 0 with *h NULL when no pruned month is reached, 0 with *h set, or -1
 * (e says why). h holds cfg until freed.
 */
int hq_archive_hybrid(sqlite3 *db, const struct hq_config *cfg, int64_t from,
    int64_t to, int offline, struct hq_hybrid **h, struct hq_err *e);

/* The months left out so far (offline) appended to left as runs
 * ("2019-01..2019-12, 2021-03"): their count. */
int hq_archive_hybrid_left(const struct hq_hybrid *h, struct hq_buf *left);

/* h freed, its scratch directory removed: after db is closed. */
void hq_archive_hybrid_free(struct hq_hybrid *h);

#endif
