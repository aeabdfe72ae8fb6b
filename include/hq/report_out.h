/*
 * report_out — what hq-report writes: each report kind as a row
 * description (rowdesc.h: its columns for a table and for scripts, their
 * fits) and one call that runs the kind's engine (report_read.h,
 * cgm_report.h) into an hq_out, or into a chart. The command parses and
 * checks its operands and options; everything it prints comes from here.
 *
 * A new report kind is an engine that hands over structs and a static
 * table of struct hq_col beside the others in report_out.c.
 *
 * Returns as report_read.h's: 0, 1 when there is nothing to show (e says
 * what was looked for, for a person), -1 with e set.
 */
#ifndef HQ_REPORT_OUT_H
#define HQ_REPORT_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "hq/cgm_report.h"
#include "hq/err.h"
#include "hq/output.h"
#include "hq/store.h"

/* hq-report list [KIND]: the lab and DEXA reports (kind, date, source,
 * n), then the CGM sensor sessions; kind "labs", "dexa", "cgm" or NULL
 * for every one. */
int hq_report_list_out(struct hq_store *s, const char *kind,
    struct hq_out *o, struct hq_err *e);

/* hq-report latest labs [TEST...]: TESTs as typed (names, aliases,
 * LOINC codes), unit as typed (--unit) or NULL. */
int hq_report_latest_labs_out(struct hq_store *s, const char *const *tests,
    size_t n, const char *unit, struct hq_out *o, struct hq_err *e);
/* hq-report trend labs TEST: rows into o, or, with svg, the chart there.
 * A table has a heading: the test, what it is, the unit. */
int hq_report_trend_labs_out(struct hq_store *s, const char *test,
    const char *unit, FILE *svg, struct hq_out *o, struct hq_err *e);

/* hq-report latest dexa: fields, the --fields list as typed, or NULL. */
int hq_report_latest_dexa_out(struct hq_store *s, const char *fields,
    struct hq_out *o, struct hq_err *e);
/* hq-report compare dexa: the scans of dates d1 and d2, or the oldest of
 * the last `last` against the newest (report_read.h); rows into o, or
 * the chart into svg. A table has the two dates as heading, and a note
 * under it when a change is within the scanner's precision. */
int hq_report_compare_dexa_out(struct hq_store *s, const char *d1,
    const char *d2, int last, const char *fields, FILE *svg,
    struct hq_out *o, struct hq_err *e);

/*
 * hq-report cgm: the metric rows (from, to, days, readings, ... gri,
 * unit), the AGP rows (time, p5, p25, p50, p75, p95, n, unit) with
 * o->agp, or the AGP drawn (format "svg" or "html", with or without
 * o->agp). format is a name hq_output_parse_format() takes, "svg",
 * "html", or NULL (a table on a terminal, JSON lines otherwise). On a
 * table, a range's row is a list of field and value; rows per bucket
 * keep the columns a terminal has room for (JSON and CSV have every
 * field). 1 when the range holds no readings (e says so).
 */
int hq_cgm_report_print(struct hq_store *s, const struct hq_cgm_report_opts *o,
    const char *format, FILE *fp, struct hq_err *e);

#endif
