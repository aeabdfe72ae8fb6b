/*
 * dayset — the local days --when keeps (struct hq_dayset in query.h; the
 * selection makes them, hq_select_days_set()), asked of every sample,
 * piece, night and rollup slot a series reads.
 */
#include "hq/daily.h"
#include "hq/query.h"

long
hq_dayset_find(const struct hq_dayset *d, int64_t day)
{
	size_t lo = hq_daily_lower(d->days, d->n, day);

	return lo < d->n && d->days[lo] == day ? (long)lo : -1;
}

int
hq_dayset_has(const struct hq_dayset *d, int64_t day)
{
	return hq_dayset_find(d, day) >= 0;
}
