#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/route.h"
#include "hq/store.h"
#include "hq/workout.h"
#include "hq/time.h"

int
hq_route_parse_format(const char *s, enum hq_route_format *f)
{
	if (strcmp(s, "gpx") == 0)
		*f = HQ_ROUTE_GPX;
	else if (strcmp(s, "geojson") == 0)
		*f = HQ_ROUTE_GEOJSON;
	else
		return -1;
	return 0;
}

/* One route's points, in order: what a writer is handed. */
struct point {
	double lat, lon, ele;    /* ele NaN: none */
	int64_t time;
	int has_time;
};

static void
read_point(sqlite3_stmt *st, struct point *p)
{
	p->lat = sqlite3_column_double(st, 0);
	p->lon = sqlite3_column_double(st, 1);
	p->ele = hq_store_col_num(st, 2);
	p->has_time = sqlite3_column_type(st, 3) != SQLITE_NULL;
	p->time = sqlite3_column_int64(st, 3);
}

static void
xml_text(FILE *fp, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: fputc(*s, fp);
		}
}

#define GPXTPX "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"

static void
gpx_point(FILE *fp, const struct point *p,
    double (*hr_at)(void *arg, int64_t t), void *arg)
{
	char t[40];
	double hr = hr_at && p->has_time ? hr_at(arg, p->time) : NAN;

	fprintf(fp, "      <trkpt lat=\"%.7f\" lon=\"%.7f\">", p->lat, p->lon);
	if (!isnan(p->ele))
		fprintf(fp, "<ele>%.2f</ele>", p->ele);
	if (p->has_time) {
		hq_time_format_utc(p->time, t, sizeof t);
		fprintf(fp, "<time>%s</time>", t);
	}
	if (isfinite(hr) && hr >= 0 && hr < 255.5)
		fprintf(fp, "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>"
		    "%.0f</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>", hr);
	fputs("</trkpt>\n", fp);
}

static void
geojson_position(FILE *fp, const struct point *p)
{
	if (isnan(p->ele))
		fprintf(fp, "[%.7f,%.7f]", p->lon, p->lat);
	else
		fprintf(fp, "[%.7f,%.7f,%.2f]", p->lon, p->lat, p->ele);
}

static int
db_error(struct hq_store *s, struct hq_err *e)
{
	hq_err_set(e, "%s: reading the route: %s", hq_store_filename(s),
	    sqlite3_errmsg(hq_store_db(s)));
	return -1;
}

/* The ids of workout_id's routes that have points, and their counts. */
struct routes {
	int64_t *id;
	long *n;
	size_t count;
	long points;
};

/* The workout's routes and their points' counts; each count by a bound
 * route_id, a term SQLite passes into a pruned store's route_point view
 * (hybrid.h), whose archive then reads the route's month alone (a
 * correlated subquery read the whole view). */
static int
load_routes(struct hq_store *s, int64_t workout_id, struct routes *r,
    struct hq_err *e)
{
	sqlite3_stmt *st, *cnt;
	int rc;

	memset(r, 0, sizeof *r);
	if (hq_store_prepare(s, "SELECT id FROM route r WHERE r.workout_id = "
	    HQ_WORKOUT_FILLED("route", "?1") " ORDER BY r.id", &st, e))
		return -1;
	if (hq_store_prepare(s, "SELECT count(*) FROM route_point WHERE "
	    "route_id = ?1", &cnt, e)) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_bind_int64(st, 1, workout_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long n;
		sqlite3_reset(cnt);
		sqlite3_bind_int64(cnt, 1, sqlite3_column_int64(st, 0));
		if ((rc = sqlite3_step(cnt)) != SQLITE_ROW)
			break;
		if ((n = (long)sqlite3_column_int64(cnt, 0)) <= 0)
			continue;
		r->id = hq_xrealloc(r->id, (r->count + 1) * sizeof *r->id);
		r->n = hq_xrealloc(r->n, (r->count + 1) * sizeof *r->n);
		r->id[r->count] = sqlite3_column_int64(st, 0);
		r->n[r->count++] = n;
		r->points += n;
	}
	if (rc != SQLITE_DONE) {
		db_error(s, e);
		free(r->id);
		free(r->n);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(cnt);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void
routes_free(struct routes *r)
{
	free(r->id);
	free(r->n);
}

long
hq_route_write_hr(struct hq_store *s, int64_t workout_id, const char *name,
    enum hq_route_format f, FILE *fp, double (*hr_at)(void *arg, int64_t t),
    void *arg, struct hq_err *e)
{
	sqlite3_stmt *st = NULL;
	struct routes r;
	struct point p;
	long written = 0;
	int rc = SQLITE_DONE;

	if (load_routes(s, workout_id, &r, e))
		return -1;
	if (r.points == 0) {
		routes_free(&r);
		return 0;
	}
	if (hq_store_prepare(s, "SELECT lat, lon, ele, time FROM route_point "
	    "WHERE route_id = ? ORDER BY seq", &st, e)) {
		routes_free(&r);
		return -1;
	}
	if (f == HQ_ROUTE_GPX) {
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<gpx version=\"1.1\" creator=\"hq\" "
		    "xmlns=\"http://www.topografix.com/GPX/1/1\"", fp);
		if (hr_at)
			fputs(" xmlns:gpxtpx=\"" GPXTPX "\"", fp);
		fputs(">\n  <trk>\n", fp);
		if (name) {
			fputs("    <name>", fp);
			xml_text(fp, name);
			fputs("</name>\n", fp);
		}
	} else {
		fputs("{\"type\":\"FeatureCollection\",\"features\":[", fp);
	}
	for (size_t i = 0; i < r.count; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, r.id[i]);
		if (f == HQ_ROUTE_GPX) {
			fputs("    <trkseg>\n", fp);
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				read_point(st, &p);
				gpx_point(fp, &p, hr_at, arg);
				written++;
			}
			fputs("    </trkseg>\n", fp);
		} else {
			/* The times first (properties), then the positions: two
			 * reads of the route rather than holding it. */
			struct hq_buf b = {0};
			long k = 0;
			hq_buf_printf(&b, "%s\n{\"type\":\"Feature\",\"properties\":"
			    "{\"workout\":%lld,\"route\":%zu,\"name\":", i ? "," : "",
			    (long long)workout_id, i + 1);
			if (name)
				hq_buf_json_str(&b, name);
			else
				hq_buf_puts(&b, "null");
			fputs(b.data, fp);
			hq_buf_free(&b);
			fputs(",\"coordTimes\":[", fp);
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				char iso[40], t[48] = "null";
				read_point(st, &p);
				if (p.has_time) {
					hq_time_format_utc(p.time, iso, sizeof iso);
					snprintf(t, sizeof t, "\"%s\"", iso);
				}
				fprintf(fp, "%s%s", k++ ? "," : "", t);
			}
			if (rc != SQLITE_DONE)
				break;
			/* RFC 7946: a LineString has two positions or more. */
			fprintf(fp, "]},\"geometry\":{\"type\":\"%s\",\"coordinates\":%s",
			    r.n[i] > 1 ? "LineString" : "Point", r.n[i] > 1 ? "[" : "");
			sqlite3_reset(st);
			k = 0;
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				read_point(st, &p);
				if (k++)
					fputc(',', fp);
				geojson_position(fp, &p);
				written++;
			}
			fputs(r.n[i] > 1 ? "]}}" : "}}", fp);
		}
		if (rc != SQLITE_DONE)
			break;
	}
	if (rc == SQLITE_DONE)
		fputs(f == HQ_ROUTE_GPX ? "  </trk>\n</gpx>\n" : "\n]}\n", fp);
	sqlite3_finalize(st);
	routes_free(&r);
	if (rc != SQLITE_DONE)
		return db_error(s, e);
	return written;
}
