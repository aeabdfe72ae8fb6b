/*
 * hybrid — pruned months read back from the archive for a query
 * (hybrid.h): the cache, its bound, and the segments put beside the store.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hq/archive.h"
#include "hq/archive_conf.h"
#include "hq/hybrid.h"
#include "hq/seal.h"
#include "hq/segment.h"
#include "archive_int.h"

static int
month_reached(int month, int64_t from, int64_t to)
{
	struct tm ta = { .tm_year = month / 12 - 1900, .tm_mon = month % 12, .tm_mday = 1 };
	struct tm tb = { .tm_year = (month + 1) / 12 - 1900, .tm_mon = (month + 1) % 12,
	    .tm_mday = 1 };
	int64_t a = timegm(&ta), b = timegm(&tb);

	return a < to && b > from;
}

struct cached {
	char name[80];
	off_t size;
	struct timespec used;
	int needed;
};

static int
by_use(const void *x, const void *y)
{
	const struct cached *p = x, *q = y;

	if (p->used.tv_sec != q->used.tv_sec)
		return p->used.tv_sec < q->used.tv_sec ? -1 : 1;
	return (p->used.tv_nsec > q->used.tv_nsec) - (p->used.tv_nsec < q->used.tv_nsec);
}

/* The cache's months (HASH.db), least recently used first; the needed
 * ones (names in need[]) marked. Their total size into *total. */
static struct cached *
cache_scan(const char *dir, char **need, int nneed, size_t *n, long long *total)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct cached *v = NULL;
	size_t cap = 0;

	*n = 0;
	*total = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		struct stat st;
		char path[8400];
		size_t len = strlen(de->d_name);
		if (len != 67 || strcmp(de->d_name + 64, ".db"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (stat(path, &st))
			continue;
		if (*n == cap)
			v = hq_xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
		memcpy(v[*n].name, de->d_name, len + 1);   /* 67 bytes, checked */
		v[*n].size = st.st_size;
		v[*n].used = st.st_mtim;
		v[*n].needed = 0;
		for (int i = 0; i < nneed; i++)
			if (!strcmp(need[i], de->d_name))
				v[*n].needed = 1;
		*total += st.st_size;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, by_use);
	return v;
}

/* Least recently used months out, never a needed one, until the cache
 * holds at most max bytes: 0, or -1 when the needed ones alone are more. */
static int
cache_trim(const char *dir, char **need, int nneed, long long max, struct hq_err *e)
{
	long long total, needed = 0;
	size_t n;
	struct cached *v = cache_scan(dir, need, nneed, &n, &total);

	for (size_t i = 0; i < n; i++)
		if (v[i].needed)
			needed += v[i].size;
	for (size_t i = 0; i < n && total > max; i++) {
		char path[8400];
		if (v[i].needed)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, v[i].name);
		if (unlink(path) == 0)
			total -= v[i].size;
	}
	free(v);
	if (needed > max) {
		hq_err_set(e, "the months this query needs are %lld MB, over the "
		    "archive cache's bound of %lld MB ([archive] cache_size): "
		    "narrow --from/--to, or raise it", (needed + (1 << 20) - 1) >> 20,
		    max >> 20);
		return -1;
	}
	return 0;
}

/*
 * A query killed while it fetched leaves its scratch directory
 * (tmp.XXXXXX, in the cache): removed by the next query that fetches,
 * once nothing in it changed for STALE seconds and no query holds its
 * lock (each holds its own while it runs; a killed one's goes with it).
 */
#define STALE (10 * 60)

static void
sweep_one(const char *path, time_t now)
{
	struct hq_buf p = {0};
	struct dirent *de;
	struct stat st;
	time_t newest;
	DIR *d;
	int fd;

	if (lstat(path, &st) || !S_ISDIR(st.st_mode) || !(d = opendir(path)))
		return;
	newest = st.st_mtime;
	while ((de = readdir(d))) {
		hq_buf_reset(&p);
		hq_buf_printf(&p, "%s/%s", path, de->d_name);
		if (de->d_name[0] != '.' && lstat(p.data, &st) == 0 && st.st_mtime > newest)
			newest = st.st_mtime;
	}
	hq_buf_reset(&p);
	hq_buf_printf(&p, "%s/lock", path);
	fd = open(p.data, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (now - newest >= STALE && (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0)) {
		rewinddir(d);
		while ((de = readdir(d))) {
			hq_buf_reset(&p);
			hq_buf_printf(&p, "%s/%s", path, de->d_name);
			if (de->d_name[0] != '.')
				unlink(p.data);
		}
		rmdir(path);
	}
	if (fd >= 0)
		close(fd);
	closedir(d);
	hq_buf_free(&p);
}

static void
cache_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct hq_buf p = {0};
	time_t now = time(NULL);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "tmp.", 4) || strlen(de->d_name) != 10)
			continue;
		hq_buf_reset(&p);
		hq_buf_printf(&p, "%s/%s", dir, de->d_name);
		sweep_one(p.data, now);
	}
	closedir(d);
	hq_buf_free(&p);
}

/* scratch's lock, held (flock) while this query uses it: fd, or -1 */
static int
scratch_lock(const char *scratch)
{
	struct hq_buf p = {0};
	int fd;

	hq_buf_printf(&p, "%s/lock", scratch);
	fd = open(p.data, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0 && flock(fd, LOCK_SH)) {
		close(fd);
		fd = -1;
	}
	hq_buf_free(&p);
	return fd;
}

/* Fetches the manifest's segment k into the cache as dest, through
 * scratch so that the cache never holds a part-fetched month; 0600. */
static int
cache_fetch_month(struct hq_archive *a, const struct hq_archive_manifest *m,
    size_t k, const char *scratch, const char *dest, struct hq_err *e)
{
	struct hq_buf got = {0};
	mode_t old;
	int f;

	hq_buf_printf(&got, "%s/month.db", scratch);
	old = umask(077);
	f = hq_archive_fetch(a, m, k, scratch, got.data, e);
	umask(old);
	if (f || chmod(got.data, 0600) || rename(got.data, dest)) {
		if (!f)
			hq_err_set(e, "%s: %s", dest, strerror(errno));
		unlink(got.data);
		hq_buf_free(&got);
		return -1;
	}
	hq_buf_free(&got);
	return 0;
}

/* Attaches the cached months named by need (file names in cache) to db
 * for the query, beside the store's own rows. */
static int
attach_cached_months(sqlite3 *db, const char *cache, char **need, int nneed,
    struct hq_err *e)
{
	struct hq_buf path = {0};
	int rc = -1;

	if (sqlite3_exec(db, "PRAGMA temp_store = FILE", NULL, NULL, NULL) != SQLITE_OK ||
	    hq_segment_hybrid_begin(db, e))
		return -1;
	for (int i = 0; i < nneed; i++) {
		hq_buf_reset(&path);
		hq_buf_printf(&path, "%s/%s", cache, need[i]);
		if (hq_segment_hybrid_add(db, path.data, e))
			goto done;
	}
	if (hq_segment_hybrid_end(db, e))
		goto done;
	rc = 0;
done:
	hq_buf_free(&path);
	return rc;
}

/* Rewrites e to say which months could not be had, and why. */
static void
explain_months_unread(struct hq_err *e, const int *pruned, int nneed)
{
	char why[sizeof e->msg];
	struct hq_buf names = {0};

	snprintf(why, sizeof why, "%s", e->msg);
	hq_segment_month_list(&names, pruned, nneed);
	hq_err_set(e, "the archive's months %.200s%s could not be read "
	    "back: %.600s (--offline answers from this store alone)",
	    names.data, names.len > 200 ? "..." : "", why);
	hq_buf_free(&names);
}

int
hq_archive_hybrid(sqlite3 *db, const struct hq_config *cfg, int64_t from,
    int64_t to, int offline, struct hq_buf *left, struct hq_err *e)
{
	struct hq_archive_conf conf = { .addressing = -1 };
	struct hq_archive_manifest m = {0};
	struct hq_archive a = {0};
	struct hq_remote *remote = NULL;
	struct hq_buf scratch = {0}, path = {0};
	int *pruned = NULL, np, nneed = 0, rc = -1, have = -1, lock = -1;
	char **need = NULL;

	if ((np = hq_segment_pruned(db, &pruned, e)) <= 0)
		return np;
	for (int i = 0; i < np; i++)
		if (month_reached(pruned[i], from, to))
			pruned[nneed++] = pruned[i];
	if (nneed == 0) {
		rc = 0;
		goto done;
	}
	if (offline) {
		hq_segment_month_list(left, pruned, nneed);
		rc = 1;
		goto done;
	}
	if (hq_seal_init(e) || hq_archive_conf_load(&conf, cfg, e) ||
	    !(remote = hq_archive_conf_remote(&conf, NULL, e)))
		goto why;
	a.remote = remote;
	a.state = conf.state;
	if (hq_archive_key(&a, conf.key, e) || hq_archive_mkdir(conf.cache, e))
		goto why;
	chmod(conf.cache, 0700);
	hq_buf_printf(&scratch, "%s/tmp.XXXXXX", conf.cache);
	if (!mkdtemp(scratch.data) || (lock = scratch_lock(scratch.data)) < 0) {
		hq_err_set(e, "%s: %s", conf.cache, strerror(errno));
		goto why;
	}
	cache_sweep(conf.cache);
	if ((have = hq_archive_manifest_get(&a, scratch.data, &m, e)) == 1)
		hq_err_set(e, "nothing was pushed to %s", hq_remote_name(remote));
	if (have)
		goto why;
	need = hq_xcalloc((size_t)nneed, sizeof *need);
	for (int i = 0; i < nneed; i++) {
		size_t k;
		for (k = 0; k < m.n && m.e[k].month != pruned[i]; k++)
			;
		if (k == m.n) {
			char name[16];
			hq_segment_month_name(pruned[i], name, sizeof name);
			hq_err_set(e, "month %s was pruned, and the archive's manifest "
			    "does not name it", name);
			goto why;
		}
		need[i] = hq_xmalloc(72);
		snprintf(need[i], 72, "%s.db", m.e[k].plain);
		hq_buf_reset(&path);
		hq_buf_printf(&path, "%s/%s", conf.cache, need[i]);
		if (access(path.data, R_OK) == 0) {
			utimensat(AT_FDCWD, path.data, NULL, 0);  /* used now */
			continue;
		}
		if (cache_fetch_month(&a, &m, k, scratch.data, path.data, e) ||
		    cache_trim(conf.cache, need, i + 1, conf.cache_max, e))
			goto why;
	}
	if (cache_trim(conf.cache, need, nneed, conf.cache_max, e) ||
	    attach_cached_months(db, conf.cache, need, nneed, e))
		goto why;
	rc = 0;
	goto done;
why:
	explain_months_unread(e, pruned, nneed);
done:
	if (have == 0)
		hq_archive_manifest_free(&m);
	if (scratch.data) {
		if (lock >= 0) {
			hq_buf_reset(&path);
			hq_buf_printf(&path, "%s/lock", scratch.data);
			unlink(path.data);
			close(lock);
		}
		rmdir(scratch.data);
		hq_buf_free(&scratch);
	}
	for (int i = 0; need && i < nneed; i++)
		free(need[i]);
	free(need);
	hq_buf_free(&path);
	hq_archive_done(&a);
	hq_remote_free(remote);
	free(pruned);
	return rc;
}

/* The cache's steps, for archive_cache.c (archive_int.h). */
int
hq_archive_scratch_lock(const char *scratch)
{
	return scratch_lock(scratch);
}

void
hq_archive_cache_sweep(const char *dir)
{
	cache_sweep(dir);
}

int
hq_archive_cache_fetch(struct hq_archive *a, const struct hq_archive_manifest *m,
    size_t k, const char *scratch, const char *dest, struct hq_err *e)
{
	return cache_fetch_month(a, m, k, scratch, dest, e);
}

int
hq_archive_cache_trim(const char *dir, char **need, int nneed, long long max,
    struct hq_err *e)
{
	return cache_trim(dir, need, nneed, max, e);
}
