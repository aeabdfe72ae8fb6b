/*
 * start — what every command that reads the store does first and last
 * (start.h).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hq/err.h"
#include "hq/start.h"
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
	hq_select_free(&st->settings);
	hq_config_free(st->cfg);
	hq_store_close(st->store);
	memset(st, 0, sizeof *st);
}
