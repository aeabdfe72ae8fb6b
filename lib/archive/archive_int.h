/* archive_int — what archive.c (the objects, fetch, restore), push.c
 * (push and prune: the store's months against the archive) and
 * archive_cache.c (the cache of months read back) share inside
 * lib/archive. */
#ifndef HQ_ARCHIVE_INT_H
#define HQ_ARCHIVE_INT_H

#include <pthread.h>

#include "hq/archive.h"
#include "hq/archive_conf.h"
#include "hq/buf.h"
#include "hq/config.h"

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

/* Work on a thread of its own (push's builders, restore's next fetch),
 * or done at once when no thread can start; wait joins it (or nothing). */
struct hq_archive_job {
	pthread_t t;
	int running;
};
void hq_archive_job_start(struct hq_archive_job *j, void *(*fn)(void *), void *arg);
void hq_archive_job_wait(struct hq_archive_job *j);

/* "\rhq-archive: WHAT I/N" on a terminal (a->progress), and its end. */
void hq_archive_progress(struct hq_archive *a, const char *what, int i, int n);
void hq_archive_progress_end(struct hq_archive *a);

/*
 * The cache (archive_cache.c) as a command reads months into it: the
 * remote, the key, a scratch directory in the cache (locked while used:
 * stale ones of killed commands are swept), the manifest; the cache's
 * files of the months read, which its bound never takes out.
 */
struct hq_archive_cache {
	struct hq_archive_conf conf;
	struct hq_archive a;
	struct hq_archive_manifest m;
	int have;                 /* manifest_get's answer; -2: not asked */
	struct hq_buf scratch;    /* tmp.XXXXXX in the cache */
	int lock;                 /* its lock, held: fd or -1 */
	char **need;              /* the cache's files of the months read */
	int nneed;
};

void hq_archive_cache_init(struct hq_archive_cache *c);
/* The remote, the key, the scratch directory and the manifest: 0 or -1. */
int hq_archive_cache_open(struct hq_archive_cache *c, const struct hq_config *cfg,
    struct hq_err *e);
/* month's segment in the cache, fetched unless there (else marked used
 * now), its path into *path: 0, or -1 (not in the manifest, the fetch,
 * the cache's bound). */
int hq_archive_cache_month(struct hq_archive_cache *c, int month, struct hq_buf *path,
    struct hq_err *e);
/* The least recently used months out until the cache holds at most
 * [archive] cache_size bytes, never one read: -1 when those alone are
 * more. */
int hq_archive_cache_bound(struct hq_archive_cache *c, struct hq_err *e);
void hq_archive_cache_close(struct hq_archive_cache *c);
/* e rewritten to name the months that could not be had, why, then after. */
void hq_archive_cache_explain(struct hq_err *e, const int *months, int n,
    const char *after);

#endif
