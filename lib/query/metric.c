/*
 * metric — naming a metric (query.h): a name as typed (catalog name,
 * alias, identifier, or a type the store holds) to what a series needs,
 * with a suggestion when it is none of them; and the names of the metrics
 * in the store, for shell completion.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/query.h"

static void
fill_from_info(struct hq_metric_ref *m, const struct hq_metric_info *info)
{
	snprintf(m->name, sizeof m->name, "%s", info->name);
	snprintf(m->identifier, sizeof m->identifier, "%s", info->identifier);
	m->kind = info->kind;
	snprintf(m->unit, sizeof m->unit, "%s", info->unit ? info->unit
	    : info->kind == HQ_KIND_CATEGORY ? hq_catalog_category_unit(info->name)
	    : "");
	m->info = info;
}

int
hq_query_resolve(struct hq_store *s, const char *name, struct hq_metric_ref *m,
    struct hq_err *e)
{
	const struct hq_metric_info *info = hq_catalog_lookup(name);
	struct hq_catalog_suggestion known;
	sqlite3_stmt *st = NULL;
	char **cands = NULL;
	size_t nc = 0;
	const char *sugg;
	int64_t id = 0;

	memset(m, 0, sizeof *m);
	if (info) {
		fill_from_info(m, info);
		return 0;
	}
	/* Not in the catalog: perhaps a type the store holds, found through
	 * the store's index of spellings (a scan of every metric per name
	 * made hq-correlate --against all quadratic in their number). */
	if (s && (id = hq_store_metric_find(s, name, e)) < 0)
		return -1;
	if (id > 0) {
		const char *ident = hq_store_metric_name(s, id);
		char snake[128];
		if (!ident)
			ident = name;
		hq_catalog_snake(ident, snake, sizeof snake);
		snprintf(m->name, sizeof m->name, "%s", snake);
		snprintf(m->identifier, sizeof m->identifier, "%s", ident);
		m->kind = hq_catalog_guess_kind(ident);
		if (m->kind == HQ_KIND_CATEGORY)
			snprintf(m->unit, sizeof m->unit, "%s",
			    hq_catalog_category_unit(snake));
		else if (hq_store_prepare(s, "SELECT unit FROM sample WHERE "
		    "metric_id = ?1 LIMIT 1", &st, e) == 0) {
			const char *unit;
			sqlite3_bind_int64(st, 1, id);
			unit = sqlite3_step(st) == SQLITE_ROW ?
			    (const char *)sqlite3_column_text(st, 0) : NULL;
			snprintf(m->unit, sizeof m->unit, "%s", unit ? unit : "");
			sqlite3_finalize(st);
		} else
			return -1;
		return 0;
	}
	/* Unknown: the names the store holds, for a suggestion. */
	if (s && hq_store_prepare(s, "SELECT identifier FROM metric", &st, e) == 0) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			char snake[128];
			hq_catalog_snake((const char *)sqlite3_column_text(st, 0),
			    snake, sizeof snake);
			cands = hq_xrealloc(cands, (nc + 1) * sizeof *cands);
			cands[nc++] = hq_xstrdup(snake);
		}
		sqlite3_finalize(st);
	}
	sugg = hq_catalog_suggest(name, (const char *const *)cands, nc);
	if (!sugg)
		sugg = hq_catalog_suggest_known(name, &known);
	if (sugg)
		hq_err_set(e, "unknown metric '%s' (did you mean %s?)", name, sugg);
	else
		hq_err_set(e, "unknown metric '%s'; hq-query --list shows the "
		    "metrics in the store", name);
	for (size_t i = 0; i < nc; i++)
		free(cands[i]);
	free(cands);
	return -1;
}

/* ---- names for completion ------------------------------------------- */

int
hq_query_metric_names(struct hq_store *s, void (*fn)(const char *, void *),
    void *ctx, struct hq_err *e)
{
	sqlite3_stmt *st;
	/* a pruned store's: also those only its pruned months held (store.h) */
	int summed = hq_store_pruned_summed(s, e);

	if (summed < 0 || hq_store_prepare(s, summed ? "SELECT identifier FROM "
	    "metric m WHERE EXISTS (SELECT 1 FROM main.sample WHERE metric_id = "
	    "m.id) OR EXISTS (SELECT 1 FROM main." HQ_STORE_PRUNED_METRIC " AS p "
	    "WHERE p.metric_id = m.id) ORDER BY identifier" :
	    "SELECT identifier FROM metric m WHERE EXISTS "
	    "(SELECT 1 FROM sample WHERE metric_id = m.id) ORDER BY identifier", &st, e))
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const struct hq_metric_info *info = hq_catalog_lookup(id);
		char snake[128];

		if (info)
			snprintf(snake, sizeof snake, "%s", info->name);
		else
			hq_catalog_snake(id, snake, sizeof snake);
		fn(snake, ctx);
		/* The nights made from sleep analysis. */
		if (strcmp(snake, "sleep_analysis") == 0)
			for (size_t i = 0; i < hq_catalog_count(); i++)
				if (hq_catalog_at(i)->kind == HQ_KIND_SLEEP)
					fn(hq_catalog_at(i)->name, ctx);
	}
	sqlite3_finalize(st);
	return 0;
}
