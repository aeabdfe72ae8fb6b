/*
 * rows — the rows of a selection (select.h) as hq-query gives them: every
 * field for scripts, a table a person reads, or a chart; and, when none
 * pass, what the store holds near what was asked.
 *
 * For scripts a row is {metric, period, start, end, value, <agg>..., n,
 * unit[, source, sample_value, category]} (hq-query(1)). Into a table
 * (hq_out_format() is HQ_FMT_TABLE) it is what a person needs in 80
 * columns: no start and end where the period says them (rows of buckets);
 * for rows of samples, start and end as times of the period's day and no n
 * (always 1); no value beside the aggregation it repeats; each aggregation
 * headed by what it is over where that is not plain (avg/day for weeks of
 * steps, avg/sample for their days, avg/night for sleep); counts of things
 * (cumulative metrics counted in "count": steps, flights) as whole numbers.
 * A chart holds every point until hq_rows_write_chart() (svg.h).
 *
 * Memory: struct hq_rows keeps copies of what it needs; hq_rows_free().
 * The hq_out is borrowed.
 */
#ifndef HQ_ROWS_H
#define HQ_ROWS_H

#include <stddef.h>
#include <stdio.h>

#include "hq/err.h"
#include "hq/output.h"
#include "hq/select.h"
#include "hq/store.h"

struct hq_rows;

/* Rows printed to out. */
struct hq_rows *hq_rows_new(struct hq_out *out);
/* Rows kept for a chart titled title (NULL: the metrics' names). */
struct hq_rows *hq_rows_new_chart(const char *title);
/* The sink to give hq_select_run(); it lives as long as r. */
const struct hq_select_sink *hq_rows_sink(struct hq_rows *r);
/* The chart of what the sink was given: 0, or -1 on a write error. */
int hq_rows_write_chart(const struct hq_rows *r, FILE *fp);
void hq_rows_free(struct hq_rows *r);

/*
 * After a run that gave no rows: for each metric it was asked for, a
 * line or two about what the store holds, lines separated by '\n' into buf:
 *   no body_fat_percentage in the store (see hq-query --list)
 *   no heart_rate from 2020-01-01 to 2020-01-31
 *   heart_rate has data from 2024-10-20 to 2024-11-09
 *   heart_rate has 1391 samples on 2024-10-25
 *   but no row passes --where 'max>300'
 * filters are the options that drop rows as typed ("--when 'x>1'"), ""
 * when none. 0, or -1 with e set.
 */
int hq_rows_explain_none(const struct hq_rows *r, struct hq_store *s,
    const struct hq_select *sel, const char *filters, char *buf, size_t n,
    struct hq_err *e);

#endif
