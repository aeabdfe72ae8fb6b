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

/*
 * For a query over [from, to) (UTC seconds; INT64_MIN, INT64_MAX: open)
 * on db, the store's read-only connection: 0 when no pruned month is
 * reached or every one reached was put in; 1 when offline, with the
 * months left out named in *left ("2019-01..2019-12, 2021-03"); -1 when
 * they could not be had (e names the months and why: no remote, a wrong
 * key, a damaged segment, the cache's bound).
 */
int hq_archive_hybrid(sqlite3 *db, const struct hq_config *cfg, int64_t from,
    int64_t to, int offline, struct hq_buf *left, struct hq_err *e);

#endif
