/*
 * dayrows — a file of hq-query day rows ("-" is stdin), as hq-correlate
 * takes them for an operand:
 *
 *     {"metric":"blood_glucose","period":"2024-12-01","value":112,...}
 *
 * one metric, "period" a date, "value" the day's value (null: no value
 * that day); the row's other numeric fields (max, n...) are kept, and the
 * key right after "value" that names an aggregate (as hq-query writes
 * rows) is the aggregate of the values. The days come back ascending,
 * each once. Bounded: a line at most HQ_DAYROWS_MAX_LINE bytes, at most
 * HQ_DAYROWS_MAX_DAYS days and HQ_DAYROWS_MAX_FIELDS numeric fields.
 *
 * struct hq_dayrows owns its arrays (hq_dayrows_free). What a metric
 * means (its identifier, whether it is sleep, its default aggregate) is
 * the caller's to decide: lib/analyze/correlate.c.
 */
#ifndef HQ_DAYROWS_H
#define HQ_DAYROWS_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"

#define HQ_DAYROWS_MAX_LINE 65536
#define HQ_DAYROWS_MAX_DAYS 100000
#define HQ_DAYROWS_MAX_FIELDS 24

struct hq_dayrows {
	char metric[128];      /* as the rows name it: "blood_glucose" */
	char agg[8];           /* the aggregate of v, when the rows say: "max" */
	char unit[32];         /* "?" when the file's held a control character */
	int64_t *days;         /* local day numbers, ascending, each once */
	double *v;
	size_t n;
	/* the numeric fields of the first row with a value: fv[i * nfields
	 * + j] is field j on days[i], NaN when that row has none */
	char (*fields)[32];
	size_t nfields;
	double *fv;
};
void hq_dayrows_free(struct hq_dayrows *d);

/* Read path: 0, or -1 with e naming file:line (not JSON, two metrics, a
 * period that is not a day, a day twice, a line too long, too many days)
 * or the file (cannot open, no rows), and then nothing to free. A file
 * whose every value is null reads, with n 0. */
int hq_dayrows_read(const char *path, struct hq_dayrows *d, struct hq_err *e);

#endif
