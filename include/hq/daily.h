/*
 * daily — a daily series: one value per local day, a day without data
 * absent (never 0). The one way hq-correlate and the reports (goals,
 * alerts, trend, week) read a metric by day, and the one way to find a
 * day in it.
 *
 * A series comes from
 *   the store (hq_daily_load), a metric with an optional daily aggregate
 *     ("glucose.max", "steps"), read through lib/query/select.c, so that
 *     its days are exactly hq-query METRIC --by day's (device dedup,
 *     nights keyed by the morning they end, local days in the zone);
 *   a file of hq-query day rows (hq_daily_read, lib/query/dayrows.c):
 *
 *     {"metric":"blood_glucose","period":"2024-12-01","value":112,...}
 *
 *     one metric, "period" a date, "value" the day's value (null: no
 *     value that day); the row's other numeric fields (max, n...) are
 *     kept, and the key right after "value" that names an aggregate (as
 *     hq-query writes rows) is the aggregate of the values. Bounded: a
 *     line at most HQ_DAILY_MAX_LINE bytes, at most HQ_DAILY_MAX_DAYS
 *     days and HQ_DAILY_MAX_FIELDS numeric fields.
 *
 * Either way the days come back ascending, each once, and the series says
 * what its metric means as the store would (identifier, nights, whether
 * its aggregate is the metric's default).
 *
 * Memory: a struct hq_daily owns its arrays (hq_daily_free). struct
 * hq_daily_store borrows the store and the selection its settings come
 * from; they must outlive it.
 */
#ifndef HQ_DAILY_H
#define HQ_DAILY_H

#include <stddef.h>
#include <stdint.h>

#include "hq/catalog.h"
#include "hq/err.h"
#include "hq/select.h"
#include "hq/stats.h"
#include "hq/store.h"

/* The hours of a night window for metrics that are not sleep: 18:00 on D
 * to 12:00 on D + 1. */
#define HQ_DAILY_NIGHT_FROM 18
#define HQ_DAILY_NIGHT_TO 12

#define HQ_DAILY_MAX_LINE 65536
#define HQ_DAILY_MAX_DAYS 100000
#define HQ_DAILY_MAX_FIELDS 24

struct hq_daily {
	char metric[128];      /* as the rows name it: "blood_glucose" */
	char agg[8];           /* the daily aggregate of v: "max" */
	int agg_default;       /* agg is the metric's default (sum, avg) */
	char unit[32];         /* a file's: "?" when it held a control character */
	char identifier[256];  /* as stored; one identifier is one family */
	int nights;            /* sleep: day D is the morning a night ends */
	int window;            /* v is of 18:00 on D to 12:00 on D + 1 */
	const char *path;      /* a file's name (borrowed); NULL: the store */
	int64_t *days;         /* local day numbers, ascending, each once */
	double *v;
	size_t n;
	/* a file's numeric fields (of its first row with a value), for
	 * conditions: fv[i * nfields + j] is field j on days[i], NaN when
	 * that row has none */
	char (*fields)[32];
	size_t nfields;
	double *fv;
};
void hq_daily_free(struct hq_daily *d);

/* Append a day (after the last) to d->days and d->v, *cap their room. */
void hq_daily_push(struct hq_daily *d, size_t *cap, int64_t day, double v);

/* The first index whose day is >= day in days[0..n), ascending (n when
 * none): the one lower bound of every reader of days. */
static inline size_t
hq_daily_lower(const int64_t *days, size_t n, int64_t day)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (days[mid] < day)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether agg ("" or a name) is what a metric of kind gives without one. */
int hq_daily_agg_is_default(enum hq_kind kind, const char *agg);

/* A metric operand split: "glucose.max" into "glucose" and max. 0, or -1
 * with e saying which aggregation is unknown. has_agg 0: the default. */
int hq_daily_parse_operand(const char *operand, char *metric, size_t n,
    struct hq_agg *agg, int *has_agg, struct hq_err *e);

/* Read a file of hq-query day rows ("-" is stdin) as a series: 0, or -1
 * with e naming file:line (not JSON, two metrics, a period that is not a
 * day, a day twice, a line too long, too many days) or the file (cannot
 * open, no rows), and then nothing to free. A file whose every value is
 * null reads, with n 0. d->path is path. */
int hq_daily_read(const char *path, struct hq_daily *d, struct hq_err *e);

/* The store as a source of series: priority, sleep cutoff and rollups
 * from settings (hq_select_config), its range and metrics ignored. */
struct hq_daily_store {
	struct hq_store *s;
	const struct hq_select *settings;
};

/* Days [from_day, to_day], inclusive; INT64_MIN/INT64_MAX: open. */
struct hq_daily_span {
	int64_t from_day, to_day;
};

/* Load a metric operand's daily series for pairing with days in span:
 * days D + lag (lag 0 for the days themselves); with night, a sleep
 * metric's nights dated D + 1, or another metric's night windows of the
 * days D themselves (d->window). 0, or -1 with e set ("unknown metric
 * 'x' (did you mean y?)"). */
int hq_daily_load(const struct hq_daily_store *ds, const char *operand,
    struct hq_daily_span span, int lag, int night, struct hq_daily *d,
    struct hq_err *e);

/* The identifier a metric operand is stored under (its family), without
 * loading it: 0, or -1 with e set. */
int hq_daily_identifier(const struct hq_daily_store *ds, const char *operand,
    char *buf, size_t n, struct hq_err *e);

#endif
