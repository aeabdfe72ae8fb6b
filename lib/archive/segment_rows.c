/*
 * segment_rows — the columns segment.c copies an archived table's rows
 * by: named, so a segment of an older schema fits the store's.
 */
#include <stdio.h>
#include <string.h>

#include "hq/buf.h"
#include "segment_int.h"

/* Whether schema's and other's table have the same columns, by name and
 * order: a statement prepared, never run (the pragmas below cost 6 % of a
 * restore when asked of every table of every segment). */
static int
same_columns(sqlite3 *db, const char *schema, const char *other,
    const char *table)
{
	sqlite3_stmt *st[2] = { NULL, NULL };
	const char *sch[2] = { schema, other };
	int k, same = 1;

	for (k = 0; k < 2; k++) {
		char *sql = sqlite3_mprintf("SELECT * FROM %s.\"%w\"", sch[k], table);
		if (sqlite3_prepare_v2(db, sql, -1, &st[k], NULL) != SQLITE_OK)
			same = 0;
		sqlite3_free(sql);
	}
	if (same && sqlite3_column_count(st[0]) != sqlite3_column_count(st[1]))
		same = 0;
	for (k = 0; same && k < sqlite3_column_count(st[0]); k++)
		same = !sqlite3_stricmp(sqlite3_column_name(st[0], k),
		    sqlite3_column_name(st[1], k));
	sqlite3_finalize(st[0]);
	sqlite3_finalize(st[1]);
	return same;
}

/* The select list: "*" when the columns are the same, else each named
 * (segment_int.h). */
char *
hq_segment_columns(sqlite3 *db, const char *into, const char *from,
    const char *table, struct hq_err *e)
{
	char *sql;
	struct hq_buf b = {0};
	sqlite3_stmt *st;
	char *list = NULL;
	int v;

	if (same_columns(db, into, from, table))
		return sqlite3_mprintf("*");
	sql = sqlite3_mprintf("SELECT i.name, i.dflt_value, f.name IS NOT "
	    "NULL, (SELECT group_concat(name, ', ') FROM pragma_table_info(%Q, %Q) "
	    "WHERE name NOT IN (SELECT name FROM pragma_table_info(%Q, %Q))) FROM "
	    "pragma_table_info(%Q, %Q) AS i LEFT JOIN pragma_table_info(%Q, %Q) "
	    "AS f ON f.name = i.name ORDER BY i.cid", table, from, table, into,
	    table, into, table, from);

	v = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (v != SQLITE_OK) {
		hq_err_set(e, "%s: %s", table, sqlite3_errmsg(db));
		return NULL;
	}
	while ((v = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *dflt = (const char *)sqlite3_column_text(st, 1);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
			hq_err_set(e, "%s: the archive's columns %s are not in this "
			    "store: upgrade hq", table, sqlite3_column_text(st, 3));
			break;
		}
		char *col = sqlite3_column_int(st, 2) ? sqlite3_mprintf("t.\"%w\"", name)
		    : sqlite3_mprintf("%s", dflt ? dflt : "NULL");
		hq_buf_printf(&b, "%s%s", b.len ? ", " : "", col);
		sqlite3_free(col);
	}
	if (v == SQLITE_DONE && b.len)
		list = sqlite3_mprintf("%s", b.data);
	else if (v == SQLITE_DONE)
		hq_err_set(e, "%s: no columns", table);
	else if (v != SQLITE_ROW)
		hq_err_set(e, "%s: %s", table, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	hq_buf_free(&b);
	return list;
}
