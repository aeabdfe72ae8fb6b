/*
 * The store's interned names (store.h): metrics, sources and devices, name
 * to id for the import writer (interned, created when asked) and id to
 * name for readers (each table loaded whole once, in name order), and a
 * metric found by any spelling hq accepts. What it shares with store.c is
 * store_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/store.h"
#include "hq/utf8.h"

#include "store_int.h"

void
hq_store_names_init(struct hq_store *s)
{
	s->metrics = (struct names){ .table = "metric", .column = "identifier" };
	s->sources = (struct names){ .table = "source", .column = "name" };
	s->devices = (struct names){ .table = "device", .column = "descr" };
}

/* Empty the list (it keeps its table). */
static void
spell_free(struct names *c)
{
	for (size_t i = 0; i < c->nspell; i++)
		free(c->spell[i].key);
	free(c->spell);
	c->spell = NULL;
	c->nspell = 0;
}

static void
names_free(struct names *c)
{
	spell_free(c);
	for (size_t i = 0; i < c->n; i++)
		free(c->name[i]);
	free(c->name);
	free(c->id);
	free(c->by_id);
	*c = (struct names){ .table = c->table, .column = c->column };
}

void
hq_store_names_forget(struct hq_store *s)
{
	names_free(&s->metrics);
	names_free(&s->sources);
	names_free(&s->devices);
}

static int64_t
names_find(struct names *c, const char *name)
{
	if (c->n && strcmp(c->name[c->last], name) == 0)
		return c->id[c->last];
	if (c->whole) {
		/* A whole table is in name order (names_load). */
		size_t lo = 0, hi = c->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int d = strcmp(c->name[mid], name);
			if (d == 0) {
				c->last = mid;
				return c->id[mid];
			}
			if (d < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		return 0;
	}
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0) {
			c->last = i;
			return c->id[i];
		}
	return 0;
}

static void
names_add(struct names *c, const char *name, int64_t id)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->name = hq_xrealloc(c->name, c->cap * sizeof *c->name);
		c->id = hq_xrealloc(c->id, c->cap * sizeof *c->id);
	}
	c->name[c->n] = hq_xstrdup(name);
	c->id[c->n] = id;
	c->last = c->n++;
	c->whole = 0;
	spell_free(c);
}

/* Look a name up in c's table, inserting it when create is set. */
static int64_t
intern(struct hq_store *s, struct names *c, const char *name, int create,
    struct hq_err *e)
{
	char sql[256];
	sqlite3_stmt *st;
	int64_t id = names_find(c, name);

	if (id)
		return id;
	snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE %s = ?", c->table,
	    c->column);
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!id && create) {
		if (!hq_utf8_valid(name, strlen(name))) {
			hq_err_set(e, "adding a %s name: text that is not UTF-8",
			    c->table);
			return -1;
		}
		snprintf(sql, sizeof sql, "INSERT INTO %s(%s) VALUES (?)", c->table,
		    c->column);
		if (hq_store_prepare(s, sql, &st, e))
			return -1;
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return hq_store_sql_err(s, e, "adding a name");
		}
		sqlite3_finalize(st);
		id = sqlite3_last_insert_rowid(s->db);
	}
	if (id)
		names_add(c, name, id);
	return id;
}

int64_t
hq_store_metric_id(struct hq_store *s, const char *identifier, int create,
    struct hq_err *e)
{
	return intern(s, &s->metrics, identifier, create, e);
}

int64_t
hq_store_source_id(struct hq_store *s, const char *name, int create,
    struct hq_err *e)
{
	return intern(s, &s->sources, name, create, e);
}

int64_t
hq_store_device_id(struct hq_store *s, const char *descr, struct hq_err *e)
{
	return intern(s, &s->devices, descr, 1, e);
}

static const struct names *by_id_base;

static int
cmp_by_id(const void *a, const void *b)
{
	int64_t x = by_id_base->id[*(const size_t *)a];
	int64_t y = by_id_base->id[*(const size_t *)b];

	return (x > y) - (x < y);
}

/* The whole table into c, in name order (SQLite's BINARY collation, which
 * is strcmp's order). 0 or -1. */
static int
names_load(struct hq_store *s, struct names *c, struct hq_err *e)
{
	char sql[256];
	sqlite3_stmt *st;
	int rc;

	if (c->whole)
		return 0;
	snprintf(sql, sizeof sql, "SELECT id, %s FROM %s ORDER BY %s", c->column,
	    c->table, c->column);
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	names_free(c);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		names_add(c, (const char *)sqlite3_column_text(st, 1),
		    sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		names_free(c);
		return hq_store_sql_err(s, e, "reading names");
	}
	c->by_id = hq_xmalloc((c->n + 1) * sizeof *c->by_id);
	for (size_t i = 0; i < c->n; i++)
		c->by_id[i] = i;
	by_id_base = c;
	qsort(c->by_id, c->n, sizeof *c->by_id, cmp_by_id);
	c->whole = 1;
	return 0;
}

int
hq_store_load_names(struct hq_store *s, struct hq_err *e)
{
	if (names_load(s, &s->metrics, e) || names_load(s, &s->sources, e) ||
	    names_load(s, &s->devices, e))
		return -1;
	return 0;
}

/* The place of id in c's name order, or -1 (unknown, or not loadable). */
static ssize_t
names_index(struct hq_store *s, struct names *c, int64_t id)
{
	struct hq_err e;
	size_t lo = 0, hi;

	if (!c->whole && names_load(s, c, &e))
		return -1;
	if (c->n && c->id[c->last] == id)
		return (ssize_t)c->last;
	for (hi = c->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t x = c->id[c->by_id[mid]];
		if (x == id) {
			c->last = c->by_id[mid];
			return (ssize_t)c->last;
		}
		if (x < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static const char *
name_of(struct hq_store *s, struct names *c, int64_t id)
{
	ssize_t i = names_index(s, c, id);

	return i < 0 ? NULL : c->name[i];
}

const char *
hq_store_metric_name(struct hq_store *s, int64_t id)
{
	return name_of(s, &s->metrics, id);
}

static int
cmp_spelling(const void *a, const void *b)
{
	const struct spelling *x = a, *y = b;
	int d = strcasecmp(x->key, y->key);

	return d ? d : (x->id > y->id) - (x->id < y->id);
}

int64_t
hq_store_metric_find(struct hq_store *s, const char *name, struct hq_err *e)
{
	struct names *c = &s->metrics;
	size_t lo = 0, hi;

	if (names_load(s, c, e))
		return -1;
	if (!c->spell && c->n) {
		char snake[256];
		c->spell = hq_xmalloc(2 * c->n * sizeof *c->spell);
		for (size_t i = 0; i < c->n; i++) {
			hq_catalog_snake(c->name[i], snake, sizeof snake);
			c->spell[c->nspell++] = (struct spelling){
			    hq_xstrdup(c->name[i]), c->id[i] };
			c->spell[c->nspell++] = (struct spelling){
			    hq_xstrdup(snake), c->id[i] };
		}
		qsort(c->spell, c->nspell, sizeof *c->spell, cmp_spelling);
	}
	/* The first of the run of equal keys: the lowest id. */
	for (hi = c->nspell; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcasecmp(c->spell[mid].key, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nspell && strcasecmp(c->spell[lo].key, name) == 0)
		return c->spell[lo].id;
	return 0;
}

const char *
hq_store_source_name(struct hq_store *s, int64_t id)
{
	return name_of(s, &s->sources, id);
}

const char *
hq_store_device_name(struct hq_store *s, int64_t id)
{
	return name_of(s, &s->devices, id);
}

ssize_t
hq_store_source_order(struct hq_store *s, int64_t id)
{
	return names_index(s, &s->sources, id);
}

const char *const *
hq_store_source_names(struct hq_store *s, size_t *n)
{
	struct hq_err e;

	if (names_load(s, &s->sources, &e)) {
		*n = 0;
		return NULL;
	}
	*n = s->sources.n;
	return (const char *const *)s->sources.name;
}
