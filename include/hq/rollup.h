/*
 * rollup — per-15-minute summaries of quantity samples, kept at ingest, so
 * that day buckets over years of per-minute data cost a few thousand rows
 * instead of millions.
 *
 * Table rollup (schema in schema.c), one row per (metric, UTC 15-minute
 * slot, source):
 *   n, sum, sumsq, min, max   of the samples that start in the slot
 *                             (how discrete metrics bucket);
 *   psum, pn                  the pro-rata share of every sample that
 *                             overlaps the slot, and how many overlap it
 *                             (how cumulative metrics bucket; a sample of
 *                             another kind counts whole in its start slot,
 *                             so its cost does not grow with its span).
 * Every local hour, day, week, month and year in every real zone starts on
 * a 15-minute UTC boundary, so these slots add up exactly to any bucket.
 *
 * Table rollup_merged holds cumulative metrics merged across sources by the
 * default priority (merge.h), per UTC hour: sum, and n the samples whose
 * counted part starts there. Hours are coarse enough to make years of
 * steps cheap; zones whose days do not start on a UTC hour (+05:30...) read
 * raw samples instead.
 * Table rollup_vals holds the values of discrete metrics per slot and
 * source, each distinct value once with its count, for exact medians and
 * percentiles (a day of per-minute heart rate is 96 rows of a few dozen
 * distinct values, not 1440 samples). rollup_vals_state says which
 * samples they cover, as rollup_state does for the rest (a store from
 * before them has none until the next import's refresh).
 * Samples are only ever added (INSERT OR IGNORE), so the summaries are
 * kept by adding. Category samples (text != '') are not rolled up.
 */
#ifndef HQ_ROLLUP_H
#define HQ_ROLLUP_H

#include <stdint.h>

#include "hq/err.h"
#include "hq/store.h"

#define HQ_ROLLUP_SLOT 900
#define HQ_ROLLUP_HOUR 3600

/* Fold every sample with id >= first_sample_id into the rollups (and any
 * older sample an import without a refresh left out; none twice: table
 * rollup_state records how far they go). Call it inside the import
 * transaction, after the last sample and before commit. 0, or -1. */
int hq_rollup_refresh(struct hq_store *s, int64_t first_sample_id,
    struct hq_err *e);

/* For a store that hq-archive prune took months out of: the archived
 * samples that the rollups' merge of the new samples (id >=
 * first_sample_id) reaches, read through the store's archive hook
 * (hq_store_set_archive), before the import is kept, so that a file
 * whose hours cannot be totalled is refused alone: 0 (*n: its new
 * samples in or beside pruned months, of metrics merged across
 * sources), or -1 with e naming the months and why. */
int hq_rollup_pruned_fetch(struct hq_store *s, int64_t first_sample_id,
    long *n, struct hq_err *e);

/* 1 when the rollups cover every sample in the store; else queries must
 * read raw samples. */
int hq_rollup_current(struct hq_store *s);
/* The same for rollup_vals. */
int hq_rollup_vals_current(struct hq_store *s);

/* The values of a rollup_vals blob, ascending, each with its count:
 * start, then next until it returns 0 (the end, or a blob that is not
 * one: it stops there). */
struct hq_rollup_vals {
	const unsigned char *p, *end;
	int ints;
	int64_t prev;
};
void hq_rollup_vals_start(struct hq_rollup_vals *r, const void *blob,
    size_t n);
int hq_rollup_vals_next(struct hq_rollup_vals *r, double *v, long *count);

/* The slot (15 minutes) holding t. */
int64_t hq_rollup_slot(int64_t t);

#endif
