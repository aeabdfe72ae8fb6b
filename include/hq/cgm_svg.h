/*
 * cgm_svg — the ambulatory glucose profile drawn as a clinician knows it
 * (the International Diabetes Center's AGP report): the 5-95% and 25-75%
 * bands and the median by time of day over the 70-180 mg/dL target band,
 * beside the time in ranges as a stacked bar, the consensus metrics, the
 * date range and the time the CGM was active.
 *
 * The report is borrowed (cgm.h, with its AGP); nothing is kept.
 * hq_cgm_html_write() wraps the same drawing in a page with a table of
 * every metric, for a browser or a printer.
 */
#ifndef HQ_CGM_SVG_H
#define HQ_CGM_SVG_H

#include <stdio.h>

#include "hq/cgm.h"

/* 0, or -1 on a write error. */
int hq_cgm_svg_write(FILE *fp, const struct hq_cgm_report *r);
int hq_cgm_html_write(FILE *fp, const struct hq_cgm_report *r);

#endif
