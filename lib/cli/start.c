/*
 * start — what every command that reads the store does first and last
 * (start.h).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hq/err.h"
#include "hq/hybrid.h"
#include "hq/start.h"
#include "hq/time.h"
#include "hq/zone.h"

void
hq_start_init(struct hq_start *st)
{
	memset(st, 0, sizeof *st);
	st->mmap = -1;
	hq_select_init(&st->settings);
	st->daily.settings = &st->settings;
}

int
hq_start_store(struct hq_start *st, int *status)
{
	struct hq_err e;
	char pragma[64];

	if (!(st->store = hq_store_open(st->db, HQ_STORE_READONLY, &e))) {
		if (!st->complete)
			hq_warn("%s", e.msg);
		*status = st->complete ? 0 : 2;
		return -1;
	}
	st->daily.s = st->store;
	snprintf(pragma, sizeof pragma, "PRAGMA mmap_size = %lld", st->mmap);
	if (st->mmap >= 0 && hq_store_exec(st->store, pragma, &e))
		hq_warn("%s (continuing without mmap)", e.msg);
	return 0;
}

/* A pruned store: the months of the range read back from the archive.
 * The range is widened by 8 days each side (a zone's day, a week begun
 * before --from); a command that looks back reads from the first month. A
 * range that does not parse reaches every month: the command says what is
 * wrong with it. */
static int
hybrid(struct hq_start *st)
{
	struct hq_buf left = {0};
	struct hq_err e;
	int64_t from = INT64_MIN, to = INT64_MAX;
	const int64_t margin = 8 * 86400;
	int rc;

	if ((st->from || st->to) &&
	    hq_time_parse_from_to(st->from, st->to, hq_time_now(), &from, &to, &e) == 0) {
		if (from != INT64_MIN)
			from -= margin;
		if (to != INT64_MAX)
			to += margin;
	}
	if (st->lookback)
		from = INT64_MIN;
	rc = hq_archive_hybrid(hq_store_db(st->store), st->cfg, from, to, st->offline,
	    &left, &e);
	if (rc == 1)
		hq_warn("--offline: left out %s: pruned from this store, only in the "
		    "archive", left.data);
	else if (rc < 0)
		hq_warn("%s", e.msg);
	hq_buf_free(&left);
	return rc < 0 ? 2 : 0;
}

int
hq_start_setup(struct hq_start *st)
{
	struct hq_zone_choice z;
	struct hq_err e;
	const char *w;
	char note[1024];

	if (!(st->cfg = hq_config_load(NULL, &e))) {
		hq_warn("%s", e.msg);
		return 2;
	}
	for (size_t i = 0; (w = hq_config_warning(st->cfg, i)); i++)
		hq_warn("%s", w);
	if (hq_zone_choose(st->tz, st->cfg, st->store, &z, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	if (isatty(STDERR_FILENO)) {
		hq_zone_note(&z, note, sizeof note);
		hq_warn_lines(note);
	}
	return st->store && !st->complete ? hybrid(st) : 0;
}

int
hq_start_settings(struct hq_start *st)
{
	struct hq_err e;

	if (hq_select_config(&st->settings, st->cfg, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	return 0;
}

void
hq_start_end(struct hq_start *st)
{
	hq_select_free(&st->settings);
	hq_config_free(st->cfg);
	hq_store_close(st->store);
	memset(st, 0, sizeof *st);
}
