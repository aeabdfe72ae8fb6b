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
#include "hybrid_int.h"
#include "hq/seal.h"
#include "hq/segment.h"
#include "archive_int.h"

void
hq_hybrid_month_bounds(int month, int64_t *a, int64_t *b)
{
	struct tm ta = { .tm_year = month / 12 - 1900, .tm_mon = month % 12, .tm_mday = 1 };
	struct tm tb = { .tm_year = (month + 1) / 12 - 1900, .tm_mon = (month + 1) % 12,
	    .tm_mday = 1 };

	*a = timegm(&ta);
	*b = timegm(&tb);
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

/*
 * The rows of the segment at path that db's store no longer has into the
 * temp tables (segment.h, the hybrid read), read through a connection of
 * their own: an ATTACH could not be undone while the statement that asks
 * for them runs. The segment's columns are named, so one of an older
 * schema leaves a newer column NULL. In one savepoint: all or none.
 *
 * BATCH rows an INSERT (one a row spent 2.2x the instructions of the
 * whole query in statement overhead); a last batch's unused rows are
 * NULL, and left out: each table's first column is NOT NULL (a sample's
 * id, sample_meta's and hrv_beat's sample_id, route_point's route_id).
 */
#define BATCH 64

static sqlite3_stmt *
batch_insert(sqlite3 *db, sqlite3_stmt *sel, const char *table, const char *missing)
{
	struct hq_buf cols = {0}, as = {0}, sql = {0};
	int n = sqlite3_column_count(sel);
	sqlite3_stmt *ins = NULL;
	char *s;

	for (int j = 0; j < n; j++) {
		s = sqlite3_mprintf("%s\"%w\"", j ? ", " : "", sqlite3_column_name(sel, j));
		hq_buf_puts(&cols, s);
		hq_buf_printf(&as, "%scolumn%d AS %s", j ? ", " : "", j + 1, s + (j ? 2 : 0));
		sqlite3_free(s);
	}
	s = sqlite3_mprintf("INSERT INTO temp.\"archive_%w\" (%s) SELECT * FROM (SELECT "
	    "%s FROM (VALUES ", table, cols.data, as.data);
	hq_buf_puts(&sql, s);
	sqlite3_free(s);
	for (int r = 0; r < BATCH; r++) {
		hq_buf_puts(&sql, r ? ", (?" : "(?");
		for (int j = 1; j < n; j++)
			hq_buf_puts(&sql, ", ?");
		hq_buf_putc(&sql, ')');
	}
	s = sqlite3_mprintf(missing, "main");
	hq_buf_puts(&sql, ")) AS t WHERE t.");
	hq_buf_append(&sql, cols.data, strcspn(cols.data, ","));
	hq_buf_printf(&sql, " IS NOT NULL AND %s", s);
	sqlite3_free(s);
	if (sqlite3_prepare_v2(db, sql.data, -1, &ins, NULL) != SQLITE_OK)
		ins = NULL;
	hq_buf_free(&cols);
	hq_buf_free(&as);
	hq_buf_free(&sql);
	return ins;
}
static int
load_table(sqlite3 *db, sqlite3 *seg, const char *table, const char *missing,
    const char *where, struct hq_err *e)
{
	sqlite3_stmt *sel = NULL, *ins = NULL;
	char *sql = sqlite3_mprintf("SELECT * FROM main.\"%w\"%s%s", table,
	    where ? " WHERE " : "", where ? where : "");
	int n, k = 0, rc, ok = 1;

	rc = sqlite3_prepare_v2(seg, sql, -1, &sel, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		if (!strncmp(sqlite3_errmsg(seg), "no such table", 13))  /* none */
			return 0;
		hq_err_set(e, "%s", sqlite3_errmsg(seg));
		return -1;
	}
	if ((n = sqlite3_column_count(sel)) == 0 || !(ins = batch_insert(db, sel, table, missing))) {
		hq_err_set(e, "%s: %s", table, n ? sqlite3_errmsg(db) : "no columns");
		sqlite3_finalize(sel);
		return -1;
	}
	while (ok && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
		for (int j = 0; j < n; j++)
			sqlite3_bind_value(ins, k * n + j + 1, sqlite3_column_value(sel, j));
		if (++k == BATCH) {
			ok = sqlite3_step(ins) == SQLITE_DONE;
			sqlite3_reset(ins);
			k = 0;
		}
	}
	if (ok && rc == SQLITE_DONE && k) {
		for (int j = k * n; j < BATCH * n; j++)
			sqlite3_bind_null(ins, j + 1);
		ok = sqlite3_step(ins) == SQLITE_DONE;
	}
	if (!ok || rc != SQLITE_DONE)
		hq_err_set(e, "%s", !ok ? sqlite3_errmsg(db) : sqlite3_errmsg(seg));
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	return ok && rc == SQLITE_DONE ? 0 : -1;
}

/* Which of a segment's rows a read takes: those of the samples of
 * metric, or (whole) all but those of the metrics in part already. NULL:
 * every row; "": none of the table. sqlite3_free(). */
static char *
rows_of(const char *table, const struct hybrid_part *part, const int64_t *metric)
{
	struct hq_buf ids = {0};
	char *s;

	if (!metric && part->n == 0)
		return NULL;
	if (!strcmp(table, "route_point"))   /* by the workout: whole months */
		return sqlite3_mprintf("%s", metric ? "0" : "1");
	if (metric)
		hq_buf_printf(&ids, "= %lld", (long long)*metric);
	for (int i = 0; !metric && i < part->n; i++)
		hq_buf_printf(&ids, "%s%lld", i ? ", " : "NOT IN (", (long long)part->metric[i]);
	if (!metric)
		hq_buf_putc(&ids, ')');
	s = !strcmp(table, "sample") ? sqlite3_mprintf("metric_id %s", ids.data) :
	    sqlite3_mprintf("sample_id IN (SELECT id FROM main.sample WHERE "
	    "metric_id %s)", ids.data);
	hq_buf_free(&ids);
	return s;
}

static int
load_month(sqlite3 *db, const char *path, const struct hybrid_part *part,
    const int64_t *metric, struct hq_err *e)
{
	sqlite3 *seg = NULL;
	const char *table, *missing;
	int rc = 0;

	if (sqlite3_open_v2(path, &seg, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s: %s", path, seg ? sqlite3_errmsg(seg) : "out of memory");
		sqlite3_close(seg);
		return -1;
	}
	if (sqlite3_exec(db, "SAVEPOINT hq_hybrid", NULL, NULL, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		sqlite3_close(seg);
		return -1;
	}
	for (size_t i = 0; rc == 0 && (table = hq_segment_hybrid_table(i, &missing)); i++) {
		char *where = rows_of(table, part, metric);
		rc = load_table(db, seg, table, missing, where, e);
		sqlite3_free(where);
	}
	if (rc)
		sqlite3_exec(db, "ROLLBACK TO hq_hybrid", NULL, NULL, NULL);
	if (sqlite3_exec(db, "RELEASE hq_hybrid", NULL, NULL, NULL) != SQLITE_OK && rc == 0) {
		hq_err_set(e, "%s", sqlite3_errmsg(db));
		rc = -1;
	}
	sqlite3_close(seg);
	return rc;
}

/* Rewrites e to say which months could not be had, and why. */
static void
explain_months_unread(struct hq_err *e, const int *months, int n)
{
	char why[sizeof e->msg];
	struct hq_buf names = {0};

	snprintf(why, sizeof why, "%s", e->msg);
	hq_segment_month_list(&names, months, n);
	hq_err_set(e, "the archive's months %.200s%s could not be read "
	    "back: %.600s (--offline answers from this store alone)",
	    names.data, names.len > 200 ? "..." : "", why);
	hq_buf_free(&names);
}

/* The remote, the key, a scratch directory (locked) in the cache, the
 * manifest: once a command, when its first month is needed. */
static int
hybrid_ready(struct hq_hybrid *h, struct hq_err *e)
{
	if (hq_seal_init(e) || hq_archive_conf_load(&h->conf, h->cfg, e) ||
	    !(h->remote = hq_archive_conf_remote(&h->conf, NULL, e)))
		return -1;
	h->a.remote = h->remote;
	h->a.state = h->conf.state;
	if (hq_archive_key(&h->a, h->conf.key, e) || hq_archive_mkdir(h->conf.cache, e))
		return -1;
	chmod(h->conf.cache, 0700);
	hq_buf_printf(&h->scratch, "%s/tmp.XXXXXX", h->conf.cache);
	if (!mkdtemp(h->scratch.data) || (h->lock = scratch_lock(h->scratch.data)) < 0) {
		hq_err_set(e, "%s: %s", h->conf.cache, strerror(errno));
		return -1;
	}
	cache_sweep(h->conf.cache);
	if ((h->have = hq_archive_manifest_get(&h->a, h->scratch.data, &h->m, e)) == 1)
		hq_err_set(e, "nothing was pushed to %s", hq_remote_name(h->remote));
	if (h->have)
		return -1;
	h->ready = 1;
	return 0;
}

int
hq_hybrid_has(const struct hq_hybrid *h, int i, const int64_t *metric)
{
	if (h->got[i] == HYBRID_IN || h->got[i] == HYBRID_LEFT)
		return 1;
	for (int j = 0; metric && h->got[i] == HYBRID_PART && j < h->part[i].n; j++)
		if (h->part[i].metric[j] == *metric)
			return 1;
	return 0;
}

/* Month i of h into the cache (fetched, or marked used) and its rows (of
 * metric) into the temp tables. */
static int
read_month(struct hq_hybrid *h, int i, const int64_t *metric, struct hq_buf *path,
    struct hq_err *e)
{
	struct hybrid_part *part = &h->part[i];
	size_t k;
	char name[72];

	if (hq_hybrid_has(h, i, metric))
		return 0;
	for (k = 0; k < h->m.n && h->m.e[k].month != h->months[i]; k++)
		;
	if (k == h->m.n) {
		char month[16];
		hq_segment_month_name(h->months[i], month, sizeof month);
		hq_err_set(e, "month %s was pruned, and the archive's manifest "
		    "does not name it", month);
		return -1;
	}
	snprintf(name, sizeof name, "%s.db", h->m.e[k].plain);
	if (h->got[i] == HYBRID_UNREAD) {
		h->need = hq_xrealloc(h->need, (size_t)(h->nneed + 1) * sizeof *h->need);
		h->need[h->nneed++] = hq_xstrdup(name);
	}
	hq_buf_reset(path);
	hq_buf_printf(path, "%s/%s", h->conf.cache, name);
	if (access(path->data, R_OK) == 0)
		utimensat(AT_FDCWD, path->data, NULL, 0);  /* used now */
	else if (cache_fetch_month(&h->a, &h->m, k, h->scratch.data, path->data, e) ||
	    cache_trim(h->conf.cache, h->need, h->nneed, h->conf.cache_max, e))
		return -1;
	if (load_month(h->db, path->data, part, metric, e))
		return -1;
	if (metric) {
		part->metric = hq_xrealloc(part->metric, (size_t)(part->n + 1) *
		    sizeof *part->metric);
		part->metric[part->n++] = *metric;
		h->got[i] = HYBRID_PART;
	} else
		h->got[i] = HYBRID_IN;
	return 0;
}

int
hq_hybrid_read(struct hq_hybrid *h, const int *which, int k, const int64_t *metric)
{
	struct hq_buf path = {0};
	int *months, rc = 0;

	if (h->failed)
		return -1;
	if (h->offline) {
		for (int j = 0; j < k; j++)
			h->got[which[j]] = HYBRID_LEFT;
		return 0;
	}
	if (!h->ready && hybrid_ready(h, &h->e))
		rc = -1;
	for (int j = 0; rc == 0 && j < k; j++)
		rc = read_month(h, which[j], metric, &path, &h->e);
	if (rc == 0)
		rc = cache_trim(h->conf.cache, h->need, h->nneed, h->conf.cache_max, &h->e);
	hq_buf_free(&path);
	if (rc == 0)
		return 0;
	months = hq_xmalloc((size_t)k * sizeof *months);
	for (int j = 0; j < k; j++)
		months[j] = h->months[which[j]];
	explain_months_unread(&h->e, months, k);
	free(months);
	h->failed = 1;
	return -1;
}

int
hq_archive_hybrid(sqlite3 *db, const struct hq_config *cfg, int64_t from,
    int64_t to, int offline, struct hq_hybrid **hp, struct hq_err *e)
{
	struct hq_hybrid *h;
	int *pruned = NULL, np, n = 0;

	*hp = NULL;
	if ((np = hq_segment_pruned(db, &pruned, e)) <= 0)
		return np;
	for (int i = 0; i < np; i++) {
		int64_t a, b;
		hq_hybrid_month_bounds(pruned[i], &a, &b);
		if (a < to && b > from)
			pruned[n++] = pruned[i];
	}
	if (n == 0) {
		free(pruned);
		return 0;
	}
	h = hq_xcalloc(1, sizeof *h);
	h->db = db;
	h->cfg = cfg;
	h->offline = offline;
	h->months = pruned;
	h->n = n;
	h->got = hq_xcalloc((size_t)n, 1);
	h->part = hq_xcalloc((size_t)n, sizeof *h->part);
	h->conf.addressing = -1;
	h->have = -2;
	h->lock = -1;
	*hp = h;
	if (sqlite3_exec(db, "PRAGMA temp_store = FILE", NULL, NULL, NULL) != SQLITE_OK ||
	    hq_segment_hybrid_begin(db, e) || hq_segment_hybrid_end(db, e) ||
	    hq_hybrid_vtab_install(h, e))
		return -1;
	return 0;
}

int
hq_archive_hybrid_left(const struct hq_hybrid *h, struct hq_buf *left)
{
	int *m, k = 0;

	if (!h)
		return 0;
	m = hq_xmalloc((size_t)h->n * sizeof *m);
	for (int i = 0; i < h->n; i++)
		if (h->got[i] == HYBRID_LEFT)
			m[k++] = h->months[i];
	if (k)
		hq_segment_month_list(left, m, k);
	free(m);
	return k;
}

void
hq_archive_hybrid_free(struct hq_hybrid *h)
{
	if (!h)
		return;
	if (h->have == 0)
		hq_archive_manifest_free(&h->m);
	if (h->scratch.data) {
		if (h->lock >= 0) {
			struct hq_buf path = {0};
			hq_buf_printf(&path, "%s/lock", h->scratch.data);
			unlink(path.data);
			close(h->lock);
			hq_buf_free(&path);
		}
		rmdir(h->scratch.data);
		hq_buf_free(&h->scratch);
	}
	for (int i = 0; i < h->nneed; i++)
		free(h->need[i]);
	free(h->need);
	hq_archive_done(&h->a);
	hq_remote_free(h->remote);
	for (int i = 0; i < h->n; i++)
		free(h->part[i].metric);
	free(h->part);
	free(h->months);
	free(h->got);
	free(h);
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
