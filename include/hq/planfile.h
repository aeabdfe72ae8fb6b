/*
 * planfile — a training plan file read and checked (hq-ingest(1)
 * --plan): CSV under a header naming date, type, duration_min and load
 * or if (title optional), or JSON lines with those keys; one planned
 * workout a day. load = hours x if^2 x 100 when if is given.
 *
 * Every line is checked before anything is written: a date that is not
 * YYYY-MM-DD or outside the years HQ_PLAN_FIRST_YEAR..HQ_PLAN_LAST_YEAR,
 * an unknown type (with the one meant), minutes not in (0, 1440], a load
 * not in [0, 1000] (1e400, negative), an if not in (0, 2], both or
 * neither of load and if, a day twice, a title over 200 bytes or with a
 * control character, a NUL, a line over HQ_PLAN_MAX_LINE, more than
 * HQ_PLAN_MAX_DAYS days: each an error naming file:line.
 */
#ifndef HQ_PLANFILE_H
#define HQ_PLANFILE_H

#include <stddef.h>

#include "hq/err.h"
#include "hq/plan.h"

/* The plan at path ("-": stdin) into *days (malloc'd, ascending by day),
 * *n of them. 0, or -1 with e "path:line: what" (nothing returned). */
int hq_planfile_read(const char *path, struct hq_plan_day **days, size_t *n,
    struct hq_err *e);

#endif
