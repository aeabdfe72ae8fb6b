/*
 * store_int — what store.c (the store's file, transactions, samples) and
 * names.c (its interned names) share: the store itself. Internal to
 * lib/store/ (scripts/layers.pl: a header inside a layer's folder is
 * reached only from that folder).
 */
#ifndef HQ_STORE_INT_H
#define HQ_STORE_INT_H

#include <stdint.h>
#include <stddef.h>

#include "hq/err.h"
#include "hq/store.h"

/*
 * The interned names of one table (metric, source or device), both ways:
 * name → id for interning (a partial list, filled as names are looked
 * up), id → name for readers (the whole table, loaded once, in name order,
 * with by_id to find an id by binary search). Interning a name the list
 * lacks appends it, and the list is no longer whole: the next reverse
 * look-up loads it again. A rollback empties it (hq_store_rollback).
 */
struct names {
	const char *table, *column;
	char **name;
	int64_t *id;
	size_t n, cap, last;
	int whole;
	size_t *by_id;            /* whole: indexes of name[] in id order */
	/* Metrics: every identifier and its snake-case name, in strcasecmp
	 * order then id (hq_store_metric_find); built from a whole table. */
	struct spelling { char *key; int64_t id; } *spell;
	size_t nspell;
};

struct hq_store {
	sqlite3 *db;
	char path[4096];
	int readonly;
	sqlite3_stmt *ins_sample, *ins_samples, *find_sample;
	struct names metrics, sources, devices;
	hq_store_archive_fn *archive;   /* hq_store_set_archive */
	void *archive_arg;
};

/* e says "PATH: what: SQLite's message"; returns -1. */
int hq_store_sql_err(struct hq_store *s, struct hq_err *e, const char *what);
/* Whether schema ("main", "temp") has table. */
int hq_store_has_table(struct hq_store *s, const char *schema, const char *table);

/* The three lists of names, empty, each knowing its table. */
void hq_store_names_init(struct hq_store *s);
/* Every list emptied (a rollback: interned ids created inside it are gone;
 * a close). */
void hq_store_names_forget(struct hq_store *s);

#endif
