/*
 * archive_cache — months of the archive read back into the cache for a writer
 * (archive_cache.h), through hybrid.c's cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hq/archive.h"
#include "hq/archive_cache.h"
#include "hq/archive_conf.h"
#include "hq/seal.h"
#include "hq/segment.h"
#include "archive_int.h"

/* Each month's file in the cache (HASH.db), fetched when missing. */
static int
cache_get(struct hq_archive *a, const struct hq_archive_conf *conf,
    const int *months, int n, const char *scratch, char **need,
    struct hq_err *e)
{
	struct hq_archive_manifest m = {0};
	struct hq_buf path = {0};
	int have, rc = -1;

	if ((have = hq_archive_manifest_get(a, scratch, &m, e)) == 1)
		hq_err_set(e, "nothing was pushed to %s", hq_remote_name(a->remote));
	if (have)
		return -1;
	for (int i = 0; i < n; i++) {
		size_t k;
		for (k = 0; k < m.n && m.e[k].month != months[i]; k++)
			;
		if (k == m.n) {
			char name[16];
			hq_segment_month_name(months[i], name, sizeof name);
			hq_err_set(e, "month %s was pruned, and the archive's manifest "
			    "does not name it", name);
			goto out;
		}
		need[i] = hq_xmalloc(72);
		snprintf(need[i], 72, "%s.db", m.e[k].plain);
		hq_buf_reset(&path);
		hq_buf_printf(&path, "%s/%s", conf->cache, need[i]);
		if (access(path.data, R_OK) == 0)
			utimensat(AT_FDCWD, path.data, NULL, 0);  /* used now */
		else if (hq_archive_cache_fetch(a, &m, k, scratch, path.data, e) ||
		    hq_archive_cache_trim(conf->cache, need, i + 1, conf->cache_max, e))
			goto out;
	}
	rc = hq_archive_cache_trim(conf->cache, need, n, conf->cache_max, e);
out:
	hq_archive_manifest_free(&m);
	hq_buf_free(&path);
	return rc;
}

/* Rewrites e to say which months could not be had, and why. */
static void
explain(struct hq_err *e, const int *months, int n)
{
	char why[sizeof e->msg];
	struct hq_buf names = {0};

	snprintf(why, sizeof why, "%s", e->msg);
	hq_segment_month_list(&names, months, n);
	hq_err_set(e, "the archive's months %.200s%s could not be read back: "
	    "%.600s", names.data, names.len > 200 ? "..." : "", why);
	hq_buf_free(&names);
}

int
hq_archive_cache_months(void *cfg, const int *months, int n, char ***paths,
    struct hq_err *e)
{
	struct hq_archive_conf conf = { .addressing = -1 };
	struct hq_archive a = {0};
	struct hq_buf scratch = {0};
	char **need = hq_xcalloc((size_t)n, sizeof *need);
	int rc = -1, lock = -1;

	*paths = NULL;
	if (hq_seal_init(e) || hq_archive_conf_load(&conf, cfg, e) ||
	    !(a.remote = hq_archive_conf_remote(&conf, NULL, e)))
		goto out;
	a.state = conf.state;
	if (hq_archive_key(&a, conf.key, e) || hq_archive_mkdir(conf.cache, e))
		goto out;
	chmod(conf.cache, 0700);
	hq_buf_printf(&scratch, "%s/tmp.XXXXXX", conf.cache);
	if (!mkdtemp(scratch.data) ||
	    (lock = hq_archive_scratch_lock(scratch.data)) < 0) {
		hq_err_set(e, "%s: %s", conf.cache, strerror(errno));
		goto out;
	}
	hq_archive_cache_sweep(conf.cache);
	if (cache_get(&a, &conf, months, n, scratch.data, need, e))
		goto out;
	for (int i = 0; i < n; i++) {
		char *full = hq_archive_path(conf.cache, need[i]);
		free(need[i]);
		need[i] = full;
	}
	*paths = need;
	need = NULL;
	rc = 0;
out:
	if (rc)
		explain(e, months, n);
	if (lock >= 0) {
		char *l = hq_archive_path(scratch.data, "lock");
		unlink(l);
		free(l);
		close(lock);
	}
	if (scratch.data && scratch.data[scratch.len - 1] != 'X')
		rmdir(scratch.data);
	hq_buf_free(&scratch);
	for (int i = 0; need && i < n; i++)
		free(need[i]);
	free(need);
	hq_archive_done(&a);
	hq_remote_free(a.remote);
	return rc;
}
