/* A workout's route as GPX with its heart rate (athlete_rows.h): each
 * point carries the heart-rate sample in force at its time by the hold
 * rule of hq-query(1), WORKOUTS (one source, pauses out, at most 120 s: hq_athlete_value_at). */
#include <math.h>

#include "hq/athlete_bests.h"
#include "hq/athlete_rows.h"

static double
hr_at(void *arg, int64_t t)
{
	const struct hq_athlete_workout *w = arg;

	return hq_athlete_value_at(w->hr, w->nhr, t);
}

long
hq_athlete_route_write(struct hq_store *s, int64_t id, const char *name,
    enum hq_route_format f, FILE *fp, struct hq_err *e)
{
	struct hq_athlete_workout w;
	long n;
	int rc = hq_athlete_read(s, id, &w, e);

	if (rc < 0)
		return -1;
	n = hq_route_write_hr(s, id, name, f, fp, rc && w.nhr ? hr_at : NULL,
	    &w, e);
	hq_athlete_workout_free(&w);
	return n;
}
