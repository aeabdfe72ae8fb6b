/*
 * document_out — what hq-report writes of the documents in the store (a
 * lab report's results, a DEXA scan; report.h writes them): each kind as
 * a row description (rowdesc.h: its columns for a table and for scripts,
 * their fits) and one call that runs document_read.h's engine into an
 * hq_out, or into a chart (document_svg.c). The list holds the CGM sensor
 * sessions too (cgm_read.h). The command parses and checks its operands
 * and options; everything it prints comes from here.
 *
 * Returns as document_read.h's: 0, 1 when there is nothing to show (e says
 * what was looked for, for a person), -1 with e set.
 */
#ifndef HQ_DOCUMENT_OUT_H
#define HQ_DOCUMENT_OUT_H

#include <stddef.h>
#include <stdio.h>

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
 * the last `last` against the newest (document_read.h); rows into o, or
 * the chart into svg. A table has the two dates as heading, and a note
 * under it when a change is within the scanner's precision. */
int hq_report_compare_dexa_out(struct hq_store *s, const char *d1,
    const char *d2, int last, const char *fields, FILE *svg,
    struct hq_out *o, struct hq_err *e);

#endif
