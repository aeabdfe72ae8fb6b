/*
 * search_index — hq-query search's indexes brought up to the store's rows
 * (store.h, hq_store_search_refresh): the boxes of routes past the mark,
 * read in one pass over their points (a store that migrates, an archive
 * restored: an import's writer grows them as it writes the points,
 * ingest_other.c, and moves the mark); SEARCH_FILL (workouts, labs,
 * clinical records, their words; schema.c) with hq_fhir_words, the words
 * of a FHIR resource; then the kinds a program's table names: hq's
 * metrics (the catalog, in this binary) and the store's sources, few
 * enough to write again every time.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/store.h"

/* A FHIR resource's words (hq_fhir_words below): at most this many
 * strings. */
#define FHIR_MAX_STRINGS 200

/* The keys whose text a person searches: display strings, texts, notes,
 * names (HumanName's family, given, prefix, suffix), comments,
 * descriptions, a report's conclusion. */
static int
fhir_key(const char *k)
{
	static const char *const keys[] = { "display", "text", "family", "given",
	    "name", "prefix", "suffix", "valueString", "comment", "description",
	    "conclusion" };

	for (size_t i = 0; k && i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(k, keys[i]))
			return 1;
	return 0;
}

static void
fhir_put(struct hq_buf *b, const char *s, int *n)
{
	if (*n >= FHIR_MAX_STRINGS)
		return;
	if (b->len)
		hq_buf_putc(b, ' ');
	hq_buf_puts(b, s);
	++*n;
}

/* The strings under fhir_key()s, in the document's order (a key's array
 * of strings too: HumanName's given). */
static void
fhir_walk(const cJSON *v, struct hq_buf *b, int *n)
{
	for (const cJSON *c = v->child; c && *n < FHIR_MAX_STRINGS; c = c->next) {
		if (fhir_key(c->string)) {
			if (cJSON_IsString(c))
				fhir_put(b, c->valuestring, n);
			else if (cJSON_IsArray(c))
				for (const cJSON *x = c->child; x; x = x->next)
					if (cJSON_IsString(x))
						fhir_put(b, x->valuestring, n);
		}
		if (cJSON_IsObject(c) || cJSON_IsArray(c))
			fhir_walk(c, b, n);
	}
}

/*
 * SQL hq_fhir_words(RESOURCE): the words of a FHIR resource search
 * indexes, NULL when it is not JSON. One parse; json_tree() with its
 * filter took 2/3 of the indexes' import of 7,000 records (543 M of 781 M
 * instructions, make bench).
 */
static void
fhir_words(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	struct hq_buf b = {0};
	cJSON *doc;
	int n = 0;

	if (!text || !(doc = cJSON_ParseWithLength(text,
	    (size_t)sqlite3_value_bytes(argv[0])))) {
		sqlite3_result_null(cx);
		return;
	}
	fhir_walk(doc, &b, &n);
	cJSON_Delete(doc);
	sqlite3_result_text(cx, b.data ? b.data : "", (int)b.len, SQLITE_TRANSIENT);
	hq_buf_free(&b);
}

/* A digest of this binary's catalog (its names, FNV-1a) and the store's
 * sources (their largest id): the marks under which they were indexed. */
static int64_t
catalog_mark(void)
{
	uint64_t h = 1469598103934665603u;

	for (size_t i = 0; i < hq_catalog_count(); i++)
		for (const char *p = hq_catalog_at(i)->name; ; p++) {
			h = (h ^ (unsigned char)*p) * 1099511628211u;
			if (!*p)
				break;
		}
	return (int64_t)(h >> 1);
}

/* Whether the metrics and sources are indexed as they are now. */
static int
unchanged(sqlite3 *db, int64_t cat)
{
	sqlite3_stmt *st;
	int same = 0;

	if (sqlite3_prepare_v2(db, "SELECT (SELECT last FROM search_mark WHERE"
	    " kind = 'metric') = ?1 AND (SELECT last FROM search_mark WHERE kind ="
	    " 'source') = (SELECT coalesce(max(id), 0) FROM source)", -1, &st,
	    NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, cat);
	same = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
	sqlite3_finalize(st);
	return same;
}

/* Metrics' rowids: the catalog's index * 8 + 4; sources': id * 8 + 5.
 * Written again when the catalog or the sources changed (not at every
 * import: FTS5 keeps deleted rows' markers until it merges). */
static int
metrics_sources(sqlite3 *db, struct hq_err *e)
{
	sqlite3_stmt *ins = NULL, *key = NULL;
	int64_t cat = catalog_mark();
	int rc = -1;

	if (unchanged(db, cat))
		return 0;
	if (sqlite3_exec(db, "DELETE FROM search_text WHERE kind IN ('metric',"
	    " 'source');"
	    "DELETE FROM search_text_key WHERE id % 8 IN (4, 5);"
	    "INSERT INTO search_text(rowid, title, body, kind, ref, time)"
	    " SELECT id * 8 + 5, name, '', 'source', name, NULL FROM source;"
	    "INSERT INTO search_text_key(id, time, title) SELECT id * 8 + 5,"
	    " NULL, name FROM source",
	    NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO search_text(rowid, title, body,"
	    " kind, ref, time) VALUES (?1, ?2, ?3, 'metric', ?2, NULL)", -1, &ins,
	    NULL) != SQLITE_OK || sqlite3_prepare_v2(db, "INSERT INTO"
	    " search_text_key(id, time, title) VALUES (?1, NULL, ?2)", -1, &key,
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
		sqlite3_bind_int64(key, 1, (sqlite3_int64)i * 8 + 4);
		sqlite3_bind_text(key, 2, m->name, -1, SQLITE_STATIC);
		if (sqlite3_step(key) != SQLITE_DONE)
			goto done;
		sqlite3_reset(key);
	}
	sqlite3_finalize(ins);
	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO search_mark VALUES"
	    " ('metric', ?1), ('source', (SELECT coalesce(max(id), 0) FROM"
	    " source))", -1, &ins, NULL) != SQLITE_OK)
		goto done;
	sqlite3_bind_int64(ins, 1, cat);
	if (sqlite3_step(ins) != SQLITE_DONE)
		goto done;
	rc = 0;
done:
	if (rc)
		hq_err_set(e, "search's index: %s", sqlite3_errmsg(db));
	sqlite3_finalize(ins);
	sqlite3_finalize(key);
	return rc;
}

/* One box of a route's points, growing. */
struct box {
	int64_t route, seg, lo, hi;
	double lat_lo, lat_hi, lon_lo, lon_hi;
	int n;
};

static int
box_put(sqlite3_stmt *ins, const struct box *b)
{
	sqlite3_bind_int64(ins, 1, b->route * 1048576 + b->seg);
	sqlite3_bind_double(ins, 2, b->lat_lo);
	sqlite3_bind_double(ins, 3, b->lat_hi);
	sqlite3_bind_double(ins, 4, b->lon_lo);
	sqlite3_bind_double(ins, 5, b->lon_hi);
	sqlite3_bind_int64(ins, 6, b->route);
	sqlite3_bind_int64(ins, 7, b->lo);
	sqlite3_bind_int64(ins, 8, b->hi);
	if (sqlite3_step(ins) != SQLITE_DONE)
		return -1;
	sqlite3_reset(ins);
	return 0;
}

/*
 * The R*Tree's boxes of the routes past the mark: the points read once,
 * in the order of route_point's key, each run of seq / 64 one box (id =
 * route id * 2^20 + seq / 64). In SQL, GROUP BY seq / 64 sorted every
 * point first: 3.9 s of a 14 s import of 900,000 points (make bench).
 * An import's routes are boxed by its writer (ingest_other.c): this reads
 * none of them (reading every point back was a third of the indexes'
 * import); a store migrating to 13 and a restored archive are read here.
 */
static int
route_boxes(sqlite3 *db, struct hq_err *e)
{
	sqlite3_stmt *pts = NULL, *ins = NULL;
	struct box b = { .route = -1 };
	int rc = -1, step;

	if (sqlite3_prepare_v2(db, "SELECT route_id, seq, lat, lon FROM"
	    " route_point WHERE route_id > (SELECT last FROM search_mark WHERE"
	    " kind = 'route') ORDER BY route_id, seq", -1, &pts, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO route_box(id, lat_lo,"
	    " lat_hi, lon_lo, lon_hi, route_id, seq_lo, seq_hi) VALUES (?1, ?2,"
	    " ?3, ?4, ?5, ?6, ?7, ?8)", -1, &ins, NULL) != SQLITE_OK)
		goto done;
	while ((step = sqlite3_step(pts)) == SQLITE_ROW) {
		int64_t r = sqlite3_column_int64(pts, 0), seq = sqlite3_column_int64(pts, 1);
		double lat = sqlite3_column_double(pts, 2);
		double lon = sqlite3_column_double(pts, 3);

		if (b.n && (r != b.route || seq / 64 != b.seg)) {
			if (box_put(ins, &b))
				goto done;
			b.n = 0;
		}
		if (!b.n) {
			b = (struct box){ r, seq / 64, seq, seq, lat, lat, lon, lon, 0 };
		} else {
			b.hi = seq;
			b.lat_lo = lat < b.lat_lo ? lat : b.lat_lo;
			b.lat_hi = lat > b.lat_hi ? lat : b.lat_hi;
			b.lon_lo = lon < b.lon_lo ? lon : b.lon_lo;
			b.lon_hi = lon > b.lon_hi ? lon : b.lon_hi;
		}
		b.n++;
	}
	if (step != SQLITE_DONE || (b.n && box_put(ins, &b)) ||
	    sqlite3_exec(db, "UPDATE search_mark SET last = (SELECT"
	    " coalesce(max(id), 0) FROM route) WHERE kind = 'route'", NULL, NULL,
	    NULL) != SQLITE_OK)
		goto done;
	rc = 0;
done:
	if (rc)
		hq_err_set(e, "search's route boxes: %s", sqlite3_errmsg(db));
	sqlite3_finalize(pts);
	sqlite3_finalize(ins);
	return rc;
}

int
hq_store_search_refresh(sqlite3 *db, struct hq_err *e)
{
	if (hq_store_function(db, "hq_fhir_words", 1, fhir_words)) {
		hq_err_set(e, "search's index: %s", sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_exec(db, hq_store_search_key(), NULL, NULL, NULL) != SQLITE_OK) {
		hq_err_set(e, "search's index: %s", sqlite3_errmsg(db));
		return -1;
	}
	if (route_boxes(db, e))
		return -1;
	if (sqlite3_exec(db, hq_store_search_fill(), NULL, NULL, NULL) != SQLITE_OK) {
		hq_err_set(e, "search's index: %s", sqlite3_errmsg(db));
		return -1;
	}
	return metrics_sources(db, e);
}
