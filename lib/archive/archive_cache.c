/*
 * archive_cache — the cache of months read back from the archive
 * (hq-archive(1), PRUNED MONTHS): the [archive] cache directory, 0700,
 * its files 0600, at most [archive] cache_size bytes, the least recently
 * used months out first. The hybrid read fills it for a query (hybrid.c),
 * hq-ingest for the hours its new samples share with pruned months (the
 * store's archive hook, store.h; archive_cache.h).
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
#include "hq/archive_cache.h"
#include "hq/archive_conf.h"
#include "hq/seal.h"
#include "hq/segment.h"
#include "hq/store.h"
#include "archive_int.h"

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

void
hq_archive_cache_init(struct hq_archive_cache *c)
{
	memset(c, 0, sizeof *c);
	c->conf.addressing = -1;
	c->have = -2;
	c->lock = -1;
}

int
hq_archive_cache_open(struct hq_archive_cache *c, const struct hq_config *cfg,
    struct hq_err *e)
{
	if (hq_seal_init(e) || hq_archive_conf_load(&c->conf, cfg, e) ||
	    !(c->a.remote = hq_archive_conf_remote(&c->conf, NULL, e)))
		return -1;
	c->a.state = c->conf.state;
	if (hq_archive_key(&c->a, c->conf.key, e) || hq_archive_mkdir(c->conf.cache, e))
		return -1;
	chmod(c->conf.cache, 0700);
	hq_buf_printf(&c->scratch, "%s/tmp.XXXXXX", c->conf.cache);
	if (!mkdtemp(c->scratch.data) || (c->lock = scratch_lock(c->scratch.data)) < 0) {
		hq_err_set(e, "%s: %s", c->conf.cache, strerror(errno));
		return -1;
	}
	cache_sweep(c->conf.cache);
	if ((c->have = hq_archive_manifest_get(&c->a, c->scratch.data, &c->m, e)) == 1)
		hq_err_set(e, "nothing was pushed to %s", hq_remote_name(c->a.remote));
	return c->have ? -1 : 0;
}

int
hq_archive_cache_month(struct hq_archive_cache *c, int month, struct hq_buf *path,
    struct hq_err *e)
{
	size_t k;
	char name[72];
	int i;

	for (k = 0; k < c->m.n && c->m.e[k].month != month; k++)
		;
	if (k == c->m.n) {
		char mn[16];
		hq_segment_month_name(month, mn, sizeof mn);
		hq_err_set(e, "month %s was pruned, and the archive's manifest "
		    "does not name it", mn);
		return -1;
	}
	snprintf(name, sizeof name, "%s.db", c->m.e[k].plain);
	for (i = 0; i < c->nneed && strcmp(c->need[i], name); i++)
		;
	if (i == c->nneed) {
		c->need = hq_xrealloc(c->need, (size_t)(c->nneed + 1) * sizeof *c->need);
		c->need[c->nneed++] = hq_xstrdup(name);
	}
	hq_buf_reset(path);
	hq_buf_printf(path, "%s/%s", c->conf.cache, name);
	if (access(path->data, R_OK) == 0) {
		utimensat(AT_FDCWD, path->data, NULL, 0);  /* used now */
		return 0;
	}
	return cache_fetch_month(&c->a, &c->m, k, c->scratch.data, path->data, e) ||
	    hq_archive_cache_bound(c, e) ? -1 : 0;
}

int
hq_archive_cache_bound(struct hq_archive_cache *c, struct hq_err *e)
{
	return cache_trim(c->conf.cache, c->need, c->nneed, c->conf.cache_max, e);
}

void
hq_archive_cache_close(struct hq_archive_cache *c)
{
	if (c->have == 0)
		hq_archive_manifest_free(&c->m);
	if (c->scratch.data) {
		if (c->lock >= 0) {
			char *l = hq_archive_path(c->scratch.data, "lock");
			unlink(l);
			free(l);
			close(c->lock);
		}
		rmdir(c->scratch.data);
		hq_buf_free(&c->scratch);
	}
	for (int i = 0; i < c->nneed; i++)
		free(c->need[i]);
	free(c->need);
	hq_archive_done(&c->a);
	hq_remote_free(c->a.remote);
	hq_archive_cache_init(c);
}

void
hq_archive_cache_explain(struct hq_err *e, const int *months, int n,
    const char *after)
{
	char why[sizeof e->msg];
	struct hq_buf names = {0};

	snprintf(why, sizeof why, "%s", e->msg);
	hq_store_month_list(&names, months, n);
	hq_err_set(e, "the archive's months %.200s%s could not be read back: "
	    "%.600s%s", names.data, names.len > 200 ? "..." : "", why, after);
	hq_buf_free(&names);
}

int
hq_archive_cache_months(void *cfg, const int *months, int n, char ***paths,
    struct hq_err *e)
{
	struct hq_archive_cache c;
	struct hq_buf path = {0};
	char **got = hq_xcalloc((size_t)n, sizeof *got);
	int rc = -1, i;

	*paths = NULL;
	hq_archive_cache_init(&c);
	if (hq_archive_cache_open(&c, cfg, e) == 0) {
		for (i = 0; i < n && hq_archive_cache_month(&c, months[i], &path, e) == 0; i++)
			got[i] = hq_buf_steal(&path);
		if (i == n && hq_archive_cache_bound(&c, e) == 0) {
			*paths = got;
			got = NULL;
			rc = 0;
		}
	}
	if (rc)
		hq_archive_cache_explain(e, months, n, "");
	for (i = 0; got && i < n; i++)
		free(got[i]);
	free(got);
	hq_buf_free(&path);
	hq_archive_cache_close(&c);
	return rc;
}
