/*
 * archive — the store off the machine, encrypted, and back (hq-archive).
 *
 * On the remote (remote.h), under its prefix:
 *   hq-archive   in clear: the format, the key's check value, and for a
 *                passphrase Argon2id's salt and cost (never the key)
 *   manifest     sealed (seal.h): a generation number, the store's schema
 *                version and fingerprint, and one line a segment: month,
 *                object, rows, size, BLAKE2b-256 of the sealed object and of
 *                the segment (and for a month pruned from the store, of
 *                what the store still holds of it); written last, so
 *                the remote is always whole
 *   32 hex       each a sealed segment (segment.h); random names, so the
 *                remote learns sizes and times, no dates
 *
 * A push sends the months whose segment changed, then the manifest, then
 * deletes what no manifest names. A push killed anywhere leaves the last
 * manifest and its segments; the next one reuses what this one uploaded
 * (a journal in the scratch directory). The generation each machine last
 * saw is kept beside the key, so an older manifest put back on the remote
 * is refused by name.
 *
 * struct hq_archive is the caller's: it holds the remote (borrowed), the
 * key (wiped by hq_archive_done) and the local paths.
 */
#ifndef HQ_ARCHIVE_H
#define HQ_ARCHIVE_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

#include "hq/err.h"
#include "hq/remote.h"
#include "hq/seal.h"

struct hq_archive_params {
	int have_kdf;                 /* a passphrase made the key */
	unsigned long long ops;
	size_t mem;
	unsigned char salt[HQ_SEAL_SALT];
	unsigned char check[HQ_SEAL_CHECK];
};

struct hq_archive_entry {
	int month;                    /* segment.h's numbering; HQ_SEGMENT_DIMS */
	char object[33];
	int64_t rows, size;
	char sealed[65], plain[65];   /* BLAKE2b-256, hex */
	/* a pruned month: its segment as the store alone builds it, hashed
	 * (a change there is merged into the archived segment); else "" */
	char local[65];
};

struct hq_archive_manifest {
	int64_t generation, created;
	int schema;
	char *marks;
	struct hq_archive_entry *e;
	size_t n;
};

struct hq_archive {
	struct hq_remote *remote;
	unsigned char key[HQ_SEAL_KEY];
	const char *state;            /* the generations seen, a file */
	FILE *progress;               /* a terminal's stderr, or NULL */
};

struct hq_archive_counts {
	int64_t generation;
	int segments, sent, kept, deleted;
	int64_t bytes_sent, bytes_total, rows;
	int unchanged;                /* nothing to push */
};

/* The clear object: 0, 1 when the remote has none (no init), -1. */
int hq_archive_params_get(struct hq_remote *r, struct hq_archive_params *p,
    struct hq_err *e);
int hq_archive_params_put(struct hq_remote *r, const struct hq_archive_params *p,
    const char *scratch, struct hq_err *e);
/* Whether key is this archive's: 0, or -1 with "wrong key" or "wrong
 * passphrase" said. */
int hq_archive_check_key(const struct hq_archive_params *p,
    const unsigned char key[HQ_SEAL_KEY], struct hq_err *e);

/* The manifest: 0, 1 when none was pushed yet, 2 when it is older than
 * the one this machine saw (replayed or rolled back: e says so, and
 * m->generation is the one seen), -1 (e names what is wrong). */
int hq_archive_manifest_get(struct hq_archive *a, const char *scratch,
    struct hq_archive_manifest *m, struct hq_err *e);
void hq_archive_manifest_free(struct hq_archive_manifest *m);

/* Push the store at store (a path) whose open handle is db (for its
 * fingerprint and months), using scratch (a private directory). all:
 * rebuild every month even when the fingerprint is unchanged. */
int hq_archive_push(struct hq_archive *a, const char *store, sqlite3 *db,
    const char *scratch, int all, struct hq_archive_counts *c,
    struct hq_err *e);

/* Fetch, check and open one segment into path: 0, or -1 naming the month
 * and what is wrong (truncated, damaged, another month's segment). */
int hq_archive_fetch(struct hq_archive *a, const struct hq_archive_manifest *m,
    size_t i, const char *scratch, const char *path, struct hq_err *e);

/* A whole new store at path (which must not exist) from the remote:
 * built under a temporary name beside it and renamed at the end, so a
 * failure (a full disk) leaves nothing. */
int hq_archive_restore(struct hq_archive *a, const char *path,
    const char *scratch, struct hq_archive_counts *c, struct hq_err *e);

/* What a prune found or did. */
struct hq_archive_pruning {
	int *month;                   /* the months pruned (or to prune) */
	int n;
	int already;                  /* months pruned before */
	int64_t rows;                 /* rows deleted */
};

/*
 * Prune the months of the store before month before (segment.h's
 * numbering) that the archive holds: for each, the manifest names it,
 * the store's month builds into the very segment pushed, and the remote's
 * object reads back with this key as that segment; any month that fails
 * (not pushed, changed since, damaged) stops the whole prune, named, and
 * nothing is deleted. Then, when apply, their raw rows go
 * (hq_segment_prune) in one transaction: a prune killed leaves the store
 * as it was or wholly pruned. db is the store's read-write handle, in no
 * transaction. 0 with the months in *p (hq_archive_pruning_free), or -1.
 */
int hq_archive_prune(struct hq_archive *a, const char *store, sqlite3 *db,
    const char *scratch, int before, int apply, struct hq_archive_pruning *p,
    struct hq_err *e);
void hq_archive_pruning_free(struct hq_archive_pruning *p);

void hq_archive_done(struct hq_archive *a);

#endif
