/*
 * search_index — hq-query search's indexes brought up to the store's rows
 * (store.h, hq_store_search_refresh): the SQL of migration 13 (workouts,
 * labs, clinical records, route boxes; schema.c), then the kinds a
 * program's table names: hq's metrics (the catalog, in this binary) and
 * the store's sources, few enough to write again every time.
 */
#include <stdio.h>

#include "hq/catalog.h"
#include "hq/store.h"

/* Metrics' rowids: the catalog's index * 8 + 4; sources': id * 8 + 5. */
static int
metrics_sources(sqlite3 *db, struct hq_err *e)
{
	sqlite3_stmt *ins = NULL;
	int rc = -1;

	if (sqlite3_exec(db, "DELETE FROM search_text WHERE kind IN ('metric',"
	    " 'source');"
	    "INSERT INTO search_text(rowid, title, body, kind, ref, time)"
	    " SELECT id * 8 + 5, name, '', 'source', name, NULL FROM source",
	    NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO search_text(rowid, title, body,"
	    " kind, ref, time) VALUES (?1, ?2, ?3, 'metric', ?2, NULL)", -1, &ins,
	    NULL) != SQLITE_OK)
		goto done;
	for (size_t i = 0; i < hq_catalog_count(); i++) {
		const struct hq_metric_info *m = hq_catalog_at(i);
		char body[1024];

		snprintf(body, sizeof body, "%s %s %s", m->aliases ? m->aliases : "",
		    m->description ? m->description : "", m->unit ? m->unit : "");
		sqlite3_bind_int64(ins, 1, (sqlite3_int64)i * 8 + 4);
		sqlite3_bind_text(ins, 2, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, body, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(ins) != SQLITE_DONE)
			goto done;
		sqlite3_reset(ins);
	}
	rc = 0;
done:
	if (rc)
		hq_err_set(e, "search's index: %s", sqlite3_errmsg(db));
	sqlite3_finalize(ins);
	return rc;
}

int
hq_store_search_refresh(sqlite3 *db, struct hq_err *e)
{
	if (sqlite3_exec(db, hq_store_search_fill(), NULL, NULL, NULL) != SQLITE_OK) {
		hq_err_set(e, "search's index: %s", sqlite3_errmsg(db));
		return -1;
	}
	return metrics_sources(db, e);
}
