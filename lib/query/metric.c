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
	int found = 0;

	memset(m, 0, sizeof *m);
	if (info) {
		fill_from_info(m, info);
		return 0;
	}
	/* Not in the catalog: perhaps a type the store holds. */
	if (s && hq_store_prepare(s, "SELECT m.identifier, (SELECT unit FROM sample "
	    "WHERE metric_id = m.id LIMIT 1) FROM metric m", &st, e) == 0) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *id = (const char *)sqlite3_column_text(st, 0);
			const char *unit = (const char *)sqlite3_column_text(st, 1);
			char snake[128];
			hq_catalog_snake(id, snake, sizeof snake);
			if (!found && (strcasecmp(id, name) == 0 || strcasecmp(snake, name) == 0)) {
				snprintf(m->name, sizeof m->name, "%s", snake);
				snprintf(m->identifier, sizeof m->identifier, "%s", id);
				m->kind = hq_catalog_guess_kind(id);
				snprintf(m->unit, sizeof m->unit, "%s",
				    m->kind == HQ_KIND_CATEGORY ?
				    hq_catalog_category_unit(snake) : unit ? unit : "");
				found = 1;
			}
			cands = hq_xrealloc(cands, (nc + 1) * sizeof *cands);
			cands[nc++] = hq_xstrdup(snake);
		}
		sqlite3_finalize(st);
	}
	if (!found) {
		sugg = hq_catalog_suggest(name, (const char *const *)cands, nc);
		if (!sugg)
			sugg = hq_catalog_suggest_known(name, &known);
		if (sugg)
			hq_err_set(e, "unknown metric '%s' (did you mean %s?)", name, sugg);
		else
			hq_err_set(e, "unknown metric '%s'; hq-query --list shows the "
			    "metrics in the store", name);
	}
	for (size_t i = 0; i < nc; i++)
		free(cands[i]);
	free(cands);
	return found ? 0 : -1;
}

/* ---- names for completion ------------------------------------------- */

int
hq_query_metric_names(struct hq_store *s, void (*fn)(const char *, void *),
    void *ctx, struct hq_err *e)
{
	sqlite3_stmt *st;

	if (hq_store_prepare(s, "SELECT identifier FROM metric m WHERE EXISTS "
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
