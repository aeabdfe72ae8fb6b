/* hq-report week's load and ctl: the athlete engine's daily series, in a
 * file of its own because athlete.h and select.h (through correlate.h)
 * both define struct hq_held. */
#include <math.h>
#include <stdlib.h>

#include "hq/athlete.h"
#include "hq/week.h"

/* The week's total load (days with a workout) and ctl on its Sunday. */
int
hq_week_training(struct hq_store *s, const struct hq_config *cfg,
    const struct hq_week *w, struct hq_week_measure *m, struct hq_err *e)
{
	struct hq_week_measure *load = &m[0], *ctl = &m[1];
	struct hq_athlete a;
	struct hq_athlete_day *d = NULL;
	size_t n = 0;

	if (hq_athlete_resolve(&a, cfg, NULL, NULL, s, e) ||
	    hq_athlete_days(s, &a, NULL, 0, w->monday + 6, &d, &n, e))
		return -1;
	for (size_t i = 0; i < n; i++) {
		int k = hq_week_index(w, d[i].day);
		if (k < 0)
			continue;
		if (d[i].workouts > 0) {
			load->value[k] = (isnan(load->value[k]) ? 0 : load->value[k]) +
			    d[i].load;
			load->days[k]++;
			ctl->days[k]++;
		}
		/* ctl on the week's last day, or on the last day of data
		 * when the week runs past it (ctl decays on, without data) */
		int64_t sunday = w->monday - 7 * (HQ_WEEK_SPAN - 1 - k) + 6;
		if (d[i].day == (sunday < w->last ? sunday : w->last))
			ctl->value[k] = d[i].ctl;
	}
	free(d);
	return 0;
}
