/*
 * sqlfunc — an SQL function of hq's registered on a connection once
 * (store.h, hq_store_function). SQLite refuses to register a function
 * again while a statement is active ("unable to delete/modify
 * user-function due to active statements"), and a write to an R*Tree
 * keeps a blob of it open, an active statement, until the transaction
 * ends: an import that grows search's route boxes (ingest_other.c) and
 * then brings the rollups up to date registered theirs a second time.
 */
#include <stdio.h>

#include "hq/store.h"

int
hq_store_function(sqlite3 *db, const char *name, int nargs,
    void (*fn)(sqlite3_context *, int, sqlite3_value **))
{
	char sql[128];
	sqlite3_stmt *st;
	int n;

	/* there already when a call of it compiles */
	if (nargs < 0 || nargs > 4)
		return -1;
	n = snprintf(sql, sizeof sql, "SELECT %s(%.*s)", name, nargs ? 5 *
	    nargs - 1 : 0, "NULL,NULL,NULL,NULL");
	if (n > 0 && (size_t)n < sizeof sql &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	return sqlite3_create_function(db, name, nargs, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, fn, NULL, NULL) != SQLITE_OK ? -1 : 0;
}
