/* archive_int — what archive.c (the objects, fetch, restore) and push.c
 * (push and prune: the store's months against the archive) share inside
 * lib/archive. */
#ifndef HQ_ARCHIVE_INT_H
#define HQ_ARCHIVE_INT_H

#include "hq/archive.h"
#include "hq/buf.h"

/* "DIR/NAME" (free()). */
char *hq_archive_path(const char *dir, const char *name);
/* The AD a segment's object is sealed with: its month and its name. */
void hq_archive_ad(const struct hq_archive_entry *x, char *ad, size_t n);

/* A manifest's (or the journal's) "segment ..." line: 0 or -1. */
int hq_archive_entry_parse(const char *line, struct hq_archive_entry *x);
void hq_archive_entry_print(struct hq_buf *b, const struct hq_archive_entry *x);
void hq_archive_entry_add(struct hq_archive_manifest *m,
    const struct hq_archive_entry *x);
/* The manifest sealed and put on the remote (the last write of a push). */
int hq_archive_manifest_put(struct hq_archive *a,
    const struct hq_archive_manifest *m, const char *scratch, struct hq_err *e);
/* The generation this machine saw of remote, kept in state. */
int hq_archive_state_put(const char *state, const char *remote, int64_t gen,
    struct hq_err *e);

/* "\rhq-archive: WHAT I/N" on a terminal (a->progress), and its end. */
void hq_archive_progress(struct hq_archive *a, const char *what, int i, int n);
void hq_archive_progress_end(struct hq_archive *a);

/* hybrid.c's cache (hybrid.h), for archive_cache.c: a scratch directory's lock
 * (flock, held while it is used: fd or -1); the stale scratch directories
 * removed; the manifest's segment k fetched into the cache as dest,
 * through scratch; the least recently used months out until the cache
 * holds at most max bytes, never one named in need (-1 when those alone
 * are more). */
int hq_archive_scratch_lock(const char *scratch);
void hq_archive_cache_sweep(const char *dir);
int hq_archive_cache_fetch(struct hq_archive *a, const struct hq_archive_manifest *m,
    size_t k, const char *scratch, const char *dest, struct hq_err *e);
int hq_archive_cache_trim(const char *dir, char **need, int nneed, long long max,
    struct hq_err *e);

#endif
