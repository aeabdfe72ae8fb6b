/*
 * athlete_cache — the per-workout figures kept between runs (internal to
 * lib/analyze/): each workout's hq_athlete_summary, which is all the
 * figures need whatever the settings, in the store's workout_figures
 * (schema.c, migrations 9 and 10). A row is good until an import drops
 * it, and an import drops only the rows it could change: its own
 * workouts' and those holding a new heart-rate or power sample
 * (lib/store/figures.c); the next use computes those again. A row is
 * written only when no import came since the run read the store (its
 * stamp, the latest import id then). Settings need no key: the figures
 * are computed from the summary for the settings of each run
 * (hq_athlete_figures_of), so a changed setting gives new figures without
 * reading a sample.
 *
 * Queries open the store read-only; the cache writes through a second
 * connection of its own, best effort: where it cannot (a read-only file
 * or mount, another process holding the write lock) nothing is kept and
 * the figures are computed from the samples as before.
 */
#ifndef HQ_ATHLETE_CACHE_H
#define HQ_ATHLETE_CACHE_H

#include <stdint.h>

#include "hq/athlete_load.h"
#include "hq/err.h"
#include "hq/store.h"

struct hq_athcache;

/* The cache of s, stamped with its latest import id; NULL with e set on
 * an SQL error. */
struct hq_athcache *hq_athcache_open(struct hq_store *s, struct hq_err *e);
/* Workout id's summary: 1 with *sum filled (free it with
 * hq_athlete_summary_free), 0 when none is kept, -1. */
int hq_athcache_get(struct hq_athcache *c, int64_t id,
    struct hq_athlete_summary *sum, struct hq_err *e);
/* Keep sum (best effort: silently nothing when the store cannot be
 * written). */
void hq_athcache_put(struct hq_athcache *c, const struct hq_athlete_summary *sum);
/* Whether puts can be kept (tries to open the writer once). */
int hq_athcache_writable(struct hq_athcache *c);
/* Commits what was put and frees c. */
void hq_athcache_close(struct hq_athcache *c);
/* The same, -1 with e set when a put or the commit failed (nothing then
 * kept of what was put), else 0. */
int hq_athcache_finish(struct hq_athcache *c, struct hq_err *e);

/* max_hr's default from the kept summaries: 1 with *v (NAN: no heart
 * rate in any workout) when every workout of the store has a good row,
 * 0 when some has none, -1. */
int hq_athcache_max_hr(struct hq_store *s, double *v, struct hq_err *e);

#endif
