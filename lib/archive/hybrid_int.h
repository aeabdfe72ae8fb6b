/*
 * hybrid_int — what hybrid.c (the months fetched, the rows put in) and
 * hybrid_vtab.c (the reads that ask for them) share: the state of one
 * command's hybrid read (hybrid.h).
 */
#ifndef HQ_HYBRID_INT_H
#define HQ_HYBRID_INT_H

#include "hq/archive.h"
#include "hq/archive_conf.h"
#include "hq/hybrid.h"
#include "archive_int.h"

/* a month's state in struct hq_hybrid's got[]: not read; every row in;
 * left out (offline); some metrics' samples in (part[]) */
enum { HYBRID_UNREAD, HYBRID_IN, HYBRID_LEFT, HYBRID_PART };

/* the metrics whose samples (and their metadata and beats) are in */
struct hybrid_part {
	int64_t *metric;
	int n;
};

struct hq_hybrid {
	sqlite3 *db;
	const struct hq_config *cfg;
	int offline;
	int *months;              /* the pruned months reached, ascending */
	int n;
	unsigned char *got;       /* per month: HYBRID_* */
	struct hybrid_part *part; /* per month, when HYBRID_PART */
	int failed;               /* a month could not be had: e says why */
	struct hq_err e;
	struct hq_archive_cache c; /* opened at the first month read */
};

/* Whether month i's rows of metric (NULL: every row) are in, or left out. */
int hq_hybrid_has(const struct hq_hybrid *h, int i, const int64_t *metric);

/* The months which[0..k) (indexes into h->months) read into the temp
 * tables, all their rows or (metric) that metric's samples with their
 * metadata and beats, or offline marked left out: 0, or -1 with h->e
 * naming the months and why (and every later call failing the same). */
int hq_hybrid_read(struct hq_hybrid *h, const int *which, int k, const int64_t *metric);

/* The virtual tables over the temp tables and the views over them and
 * the store's tables, on h->db: 0 or -1. */
int hq_hybrid_vtab_install(struct hq_hybrid *h, struct hq_err *e);

#endif
