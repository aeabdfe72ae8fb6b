/*
 * workout_find — naming workouts (workout.h): a workout by its id, `last`
 * or `last:TYPE`; how many of a type a range holds; and what to say when
 * a filter finds none.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/time.h"
#include "hq/workout.h"

/* A workout id as typed: a whole number above 0 (no sign, no space, no
 * overflow). 0, or -1. */
static int
hq_workout_parse_id(const char *s, int64_t *id)
{
	char *end;
	long long v;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end || errno || v <= 0)
		return -1;
	*id = v;
	return 0;
}

int
hq_workout_find(struct hq_store *s, const char *ref, struct hq_workout_ref *w,
    struct hq_err *e)
{
	const char *type = NULL;
	char suggest[64];
	sqlite3_stmt *q;
	int64_t id = 0;
	int rc;

	memset(w, 0, sizeof *w);
	if (strcmp(ref, "last") == 0) {
		id = -1;
	} else if (strncmp(ref, "last:", 5) == 0) {
		id = -1;
		type = hq_workout_type_identifier(ref + 5, suggest, sizeof suggest);
		if (!type) {
			hq_err_set(e, "unknown workout type '%s'%s%s%s", ref + 5,
			    suggest[0] ? " (did you mean last:" : "", suggest,
			    suggest[0] ? "?)" : "");
			return -1;
		}
	} else if (hq_workout_parse_id(ref, &id)) {
		hq_err_set(e, "'%s' is not a workout: give its ID (hq-query "
		    "workouts lists them), last, or last:TYPE (last:cycling)", ref);
		return -1;
	}
	if (hq_store_prepare(s, id > 0
	    ? "SELECT id, activity_type, start, end FROM workout WHERE id = ?1"
	    : "SELECT id, activity_type, start, end FROM workout"
	      " WHERE ?2 IS NULL OR activity_type = ?2"
	      " ORDER BY start DESC, id DESC LIMIT 1", &q, e) != 0)
		return -1;
	sqlite3_bind_int64(q, 1, id);
	if (type)
		sqlite3_bind_text(q, 2, type, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(q, 1);
		w->id = sqlite3_column_int64(q, 0);
		hq_workout_type_name(t ? t : "", w->type, sizeof w->type);
		w->start = sqlite3_column_int64(q, 2);
		w->end = sqlite3_column_int64(q, 3);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		hq_err_set(e, "reading workouts: %s", sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	if (rc == SQLITE_DONE)
		hq_err_set(e, "no workout %.64s; hq-query workouts lists them", ref);
	return rc == SQLITE_ROW;
}

int
hq_workout_count(struct hq_store *s, const char *type, int64_t from,
    int64_t to, struct hq_workout_count *c, struct hq_err *e)
{
	const char *id = NULL;
	sqlite3_stmt *q;
	int rc;

	memset(c, 0, sizeof *c);
	if (type && !(id = hq_workout_type_identifier(type, NULL, 0)))
		return 0;
	if (hq_store_prepare(s, "SELECT count(*), min(start), max(start),"
	    " sum(start >= ?2 AND (?3 = 0 OR start < ?3)) FROM workout"
	    " WHERE ?1 IS NULL OR activity_type = ?1", &q, e) != 0)
		return -1;
	if (id)
		sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, from ? from : INT64_MIN);
	sqlite3_bind_int64(q, 3, to);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		c->n = sqlite3_column_int64(q, 0);
		c->first = sqlite3_column_int64(q, 1);
		c->last = sqlite3_column_int64(q, 2);
		c->n_range = sqlite3_column_int64(q, 3);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW) {
		hq_err_set(e, "reading workouts: %s", sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

int
hq_workout_explain_none(struct hq_store *s, const struct hq_workout_filter *f,
    char *buf, size_t n, struct hq_err *e)
{
	struct hq_workout_count all, typed;
	char range[80], first[16], last[16], what[160], type[128] = "";
	const char *id = f->type ? hq_workout_type_identifier(f->type, NULL, 0) : NULL;

	if (hq_workout_count(s, f->type, f->from, f->to, &typed, e) ||
	    hq_workout_count(s, NULL, 0, 0, &all, e))
		return -1;
	hq_time_range_text(f->from ? f->from : INT64_MIN, f->to ? f->to : INT64_MAX,
	    range, sizeof range);
	if (id)
		hq_workout_type_name(id, type, sizeof type);
	snprintf(what, sizeof what, "%s%sworkouts", type, type[0] ? " " : "");
	hq_time_format_date(typed.first, first, sizeof first);
	hq_time_format_date(typed.last, last, sizeof last);
	if (all.n == 0)
		snprintf(buf, n, "no workouts in the store");
	else if (typed.n == 0)
		snprintf(buf, n, "no %s in the store, %lld of other types (see "
		    "hq-query --list)", what, (long long)all.n);
	else if (typed.n_range == 0)
		snprintf(buf, n, "no %s%s\n%lld %s from %s to %s", what, range,
		    (long long)typed.n, what, first, last);
	else
		snprintf(buf, n, "%lld %s%s, but none passes --min-duration or "
		    "--offset", (long long)typed.n_range, what, range);
	return 0;
}
