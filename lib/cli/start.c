/*
 * start — what every command that reads or writes the store does first
 * and last (start.h).
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

	if (!(st->store = hq_store_open(st->db, st->write ? HQ_STORE_CREATE :
	    HQ_STORE_READONLY, &e))) {
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

/* A pruned store: the months of the range readable from the archive, each
 * fetched when a statement first reads its raw rows (hybrid.h).
 * The range is widened by 8 days each side (a zone's day, a week begun
 * before --from); a command that looks back reads from the first month. A
 * range that does not parse reaches every month: the command says what is
 * wrong with it. */
static int
hybrid(struct hq_start *st)
{
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
	    &st->hybrid, &e);
	if (rc < 0)
		hq_warn("%s", e.msg);
	return rc < 0 ? 2 : 0;
}

/* The configuration loaded: 0, or 2 after a message. */
static int
load_config(struct hq_start *st)
{
	struct hq_err e;

	if (!(st->cfg = hq_config_load(NULL, &e))) {
		hq_warn("%s", e.msg);
		return 2;
	}
	return 0;
}

static void
say_config_warnings(const struct hq_start *st)
{
	const char *w;

	for (size_t i = 0; !st->quiet && (w = hq_config_warning(st->cfg, i)); i++)
		hq_warn("%s", w);
}

int
hq_start_config(struct hq_start *st)
{
	if (load_config(st))
		return 2;
	say_config_warnings(st);
	return 0;
}

int
hq_start_setup(struct hq_start *st)
{
	struct hq_err e;
	char note[1024];

	if (hq_start_config(st))
		return 2;
	if (hq_zone_choose(st->tz, st->cfg, st->store, &st->zone, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	if (isatty(STDERR_FILENO)) {
		hq_zone_note(&st->zone, note, sizeof note);
		hq_warn_lines(note);
	}
	return st->store && !st->complete ? hybrid(st) : 0;
}

int
hq_start_write(struct hq_start *st)
{
	struct hq_err e;
	int status;

	/* Times written without a zone (CGM files) are read in the zone of
	 * --tz, the environment or the config, else of the data already
	 * stored: a zone named wrong is refused before the store is touched
	 * (and before the configuration's warnings). */
	if (load_config(st))
		return 2;
	if (hq_zone_choose(st->tz, st->cfg, NULL, &st->zone, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	say_config_warnings(st);
	if (hq_start_store(st, &status))
		return status;
	if (st->zone.from == HQ_ZONE_SYSTEM &&
	    hq_zone_choose(NULL, NULL, st->store, &st->zone, &e)) {
		hq_warn("%s", e.msg);
		return 2;
	}
	return 0;
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
	struct hq_buf left = {0};

	if (hq_archive_hybrid_left(st->hybrid, &left))
		hq_warn("--offline: left out %s: pruned from this store, only in the "
		    "archive", left.data);
	hq_buf_free(&left);
	hq_store_close(st->store);
	hq_archive_hybrid_free(st->hybrid);
	hq_select_free(&st->settings);
	hq_config_free(st->cfg);
	memset(st, 0, sizeof *st);
}
