/*
 * start — the start and the end of the commands, written once: those
 * that read the store (hq-query, hq-report, hq-correlate) and those that
 * write it (hq-ingest; hq-archive's configuration):
 *
 *   hq_start_store     the store opened read-only (--db, $HQ_DB, the
 *                      default), its memory map sized; when the shell is
 *                      completing, a store that does not open is said to
 *                      nobody; with st->write, opened for writing and
 *                      created (0600) when missing
 *   hq_start_config    the configuration loaded, once a run, its warnings
 *                      said unless st->quiet
 *   hq_start_setup     hq_start_config; the zone of local days chosen
 *                      (zone.h) and,
 *                      when the data chose it and a person watches
 *                      standard error, said; a pruned store's months that
 *                      the range (from, to, lookback) reaches made
 *                      readable from the archive, each fetched when a
 *                      statement reads its raw rows (hybrid.h), or with
 *                      offline left out
 *   hq_start_settings  the [query] settings (source priority, sleep
 *                      cutoff) as hq-query takes them, for a daily series
 *                      (st->daily) or a selection
 *   hq_start_write     a writer's start (hq-ingest): the configuration;
 *                      the zone of --tz, the environment or the
 *                      configuration chosen before the store is touched
 *                      (a zone named wrong is refused first); the store
 *                      opened for writing; when no one named a zone, the
 *                      zone of the data it holds
 *   hq_start_end       the months left out offline named (only those
 *                      a statement read); everything above freed, in
 *                      one place
 *
 * Each says what went wrong itself (hq_warn) and returns the status to
 * exit with, so a command's main reads: parse, check, start, run, end.
 * struct hq_start belongs to the caller; hq_start_init first.
 */
#ifndef HQ_START_H
#define HQ_START_H

#include "hq/config.h"
#include "hq/daily.h"
#include "hq/hybrid.h"
#include "hq/select.h"
#include "hq/store.h"
#include "hq/zone.h"

struct hq_start {
	const char *db;              /* --db; NULL: $HQ_DB, else the default */
	const char *tz;              /* --tz; NULL: not given */
	int complete;                /* answering the shell */
	int write;                   /* a writer: the store opened read-write */
	int quiet;                   /* -q: the configuration's warnings unsaid */
	const char *from, *to;       /* --from, --to as given; NULL: open */
	int lookback;                /* reads before --from (baselines, loads) */
	int offline;                 /* --offline: pruned months left out */
	long long mmap;              /* PRAGMA mmap_size: 0 none, < 0 SQLite's */
	struct hq_store *store;      /* NULL until hq_start_store */
	struct hq_hybrid *hybrid;    /* a pruned store's months (hybrid.h) */
	struct hq_config *cfg;       /* NULL until hq_start_config */
	struct hq_zone_choice zone;  /* hq_start_setup's, hq_start_write's */
	struct hq_select settings;   /* the [query] settings (hq_start_settings) */
	struct hq_daily_store daily; /* the store and settings, for hq_daily_load */
};

/* Zeroed, with SQLite's own memory map and fresh settings. */
void hq_start_init(struct hq_start *st);

/* Open the store read-only (st->write: for writing, created when
 * missing): 0, or -1 with *status the exit status (2 after a message; 0
 * when completing, with nothing said). */
int hq_start_store(struct hq_start *st, int *status);

/* The configuration, its warnings said unless st->quiet: 0, or 2 after a
 * message. */
int hq_start_config(struct hq_start *st);

/* The configuration and the zone: 0, or 2 after a message. The store, if
 * open, is where the data's zone is read. */
int hq_start_setup(struct hq_start *st);

/* The configuration's [query] settings into st->settings (after
 * hq_start_setup): 0, or 2 after a message. */
int hq_start_settings(struct hq_start *st);

/* A writer's start (st->write set): the configuration, the zone, the
 * store (above): 0, or 2 after a message. */
int hq_start_write(struct hq_start *st);

void hq_start_end(struct hq_start *st);

#endif
