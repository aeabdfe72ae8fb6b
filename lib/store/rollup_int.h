/*
 * rollup_int — what rollup.c (the rollups refreshed in each import),
 * rollup_pruned.c (the hours of pruned months totalled again with the
 * archived samples) and same.c (heart rates that rank recordings) share.
 * Internal to lib/store/.
 */
#ifndef HQ_ROLLUP_INT_H
#define HQ_ROLLUP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"
#include "hq/store.h"

/* Whether metric (an id of the store) is cumulative: its samples are
 * merged across sources (rollup_merged). */
int hq_rollup_cumulative(struct hq_store *s, int64_t metric);
/* The UTC hour holding t. */
int64_t hq_rollup_hour(int64_t t);

/*
 * The merged rollups of a store that hq-archive prune took months out of
 * (hq-archive(1), PRUNED MONTHS): the store keeps their rollups, not
 * their raw samples, and a merge window that reaches a pruned sample
 * (a new sample of a cumulative metric in a pruned month, or beside one)
 * must read it, or the hour's total would leave it out. The new samples
 * before `from` (the end of the newest pruned month, plus the longest
 * span a merge looks back) are kept apart as spans of hours, each merged
 * alone, so that a late sample of 2019 and today's do not make one window
 * over every month between; the months of the pruned samples those spans
 * (and metrics merged whole) reach are read through the store's archive
 * hook (hq_store_set_archive) into temp.rollup_arc, and the merge reads
 * `samples`: main.sample, or the view temp.rollup_sample (the store's
 * samples and those).
 */
struct hq_rollup_span {
	int64_t metric, lo, hi;   /* hours [lo, hi) */
};
struct hq_rollup_pruned {
	int64_t from;             /* INT64_MIN: the store was never pruned */
	struct hq_rollup_span *v;
	size_t n, cap, last;
	int64_t gap;              /* spans of a metric this close are one */
	const char *samples;
};

/* p set up for s: 0, or -1. */
int hq_rollup_pruned_begin(struct hq_store *s, struct hq_rollup_pruned *p,
    struct hq_err *e);
/* A new sample of cumulative metric touching hours [lo, hi), lo < from. */
void hq_rollup_pruned_note(struct hq_rollup_pruned *p, int64_t metric,
    int64_t lo, int64_t hi);
/* The archived samples the spans and the metrics merged whole (whole[])
 * reach read, once each month and metric: 0, or -1 with e naming the
 * months and why. */
int hq_rollup_pruned_load(struct hq_store *s, struct hq_rollup_pruned *p,
    const int64_t *whole, size_t nwhole, struct hq_err *e);
void hq_rollup_pruned_end(struct hq_rollup_pruned *p);
/* Where to read metric's samples starting in [lo, hi) (same.c's heart
 * rates, when it ranks recordings): "main.sample", or in a pruned store
 * whose archived samples of metric reach that time, those read and
 * "temp.rollup_sample"; NULL with e. */
const char *hq_rollup_pruned_samples(struct hq_store *s, int64_t metric,
    int64_t lo, int64_t hi, struct hq_err *e);

#endif
