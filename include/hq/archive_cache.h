/*
 * archive_cache — months of the archive read back into the cache for a
 * writer (hq-archive(1), PRUNED MONTHS): hq-ingest, whose new samples in
 * a pruned month have their hours totalled again with the archived ones
 * (the store's archive hook, store.h). The cache is the hybrid read's
 * (hybrid.h): 0700, its files 0600, at most [archive] cache_size bytes.
 */
#ifndef HQ_ARCHIVE_CACHE_H
#define HQ_ARCHIVE_CACHE_H

#include "hq/config.h"
#include "hq/err.h"

/* The segments of months[0..n) (year * 12 + month - 1) fetched into the
 * cache unless there, and their paths into *paths (free() each and the
 * array): 0, or -1 with e naming the months and why (no remote, no key,
 * a damaged segment, no network, the cache's bound). cfg is a struct
 * hq_config (void * for store.h's hook). */
int hq_archive_cache_months(void *cfg, const int *months, int n, char ***paths,
    struct hq_err *e);

#endif
