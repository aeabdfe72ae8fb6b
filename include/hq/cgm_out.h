/*
 * cgm_out — what `hq-report cgm` writes: the metrics (cgm.h) of the
 * readings cgm_read.h reads out of the store, as rows, or the AGP drawn
 * (cgm_svg.h). Returns as document_out.h's.
 */
#ifndef HQ_CGM_OUT_H
#define HQ_CGM_OUT_H

#include <stdio.h>

#include "hq/cgm_read.h"
#include "hq/err.h"
#include "hq/store.h"

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
