/*
 * report — lab results and DEXA scans in the store: how an import writes
 * them (the reading back, and hq-report's questions, are document_read.h's).
 *
 * Reports are kept apart from samples: a report (kind, date, source) and
 * one row per test (lab_result) or field (dexa_value) in it.
 *
 * Writing happens inside an import's transaction, through a struct
 * hq_report_writer (its statements; free it before the commit):
 * - a lab result is stored unless the store holds the same one — the same
 *   test group, collection time, value, comparator and unit, whatever the
 *   file, format or source (a result given as a date only matches one of
 *   that date with a time); an amended or corrected result supersedes the
 *   earlier result of its test and collection time (of its resource, when
 *   both came from FHIR with ids), and a result that arrives after its own
 *   amendment is kept superseded; an entered-in-error resource takes back
 *   what the store holds under its id and source;
 * - a DEXA scan is one report per date (a scan without a source joins the
 *   one of that date); a field the scan holds with another value is
 *   replaced (a corrected file);
 * - hq_report_backfill() reads the FHIR resources of clinical records not
 *   read yet (an Apple Health export's clinical-records/) into lab rows.
 */
#ifndef HQ_REPORT_H
#define HQ_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/dexa.h"
#include "hq/err.h"
#include "hq/labs.h"
#include "hq/store.h"

struct hq_report_counts {
	long inserted;      /* rows new to the store (or changed: DEXA) */
	long duplicates;    /* rows the store already had */
	long superseded;    /* earlier results an amendment replaced */
	long retracted;     /* results taken back (entered-in-error) */
	long skipped;       /* clinical resources that could not be read */
};

struct hq_report_writer;

struct hq_report_writer *hq_report_writer_new(struct hq_store *s,
    int64_t import_id);
void hq_report_writer_free(struct hq_report_writer *w);
const struct hq_report_counts *hq_report_writer_counts(
    const struct hq_report_writer *w);

/* How far past the start of the import a report's date may be: a day
 * (a zone ahead of UTC, a clock a little fast). */
#define HQ_REPORT_MAX_AHEAD 86400

/* clinical_id: the clinical record the result was read from, 0 none.
 * 1 stored, 0 already there (or a retraction), 2 refused (e says why:
 * a value, reference limit or DEXA field not finite or past
 * HQ_INGEST_MAX_VALUE in size after conversion; a date more than
 * HQ_REPORT_MAX_AHEAD after the import began), -1 error. A scan refused
 * writes none of its fields. Every reader's results and scans pass here,
 * the Apple Health export's clinical records too. */
int hq_report_add_lab(struct hq_report_writer *w, const struct hq_lab_result *r,
    int64_t clinical_id, struct hq_err *e);
int hq_report_add_dexa(struct hq_report_writer *w,
    const struct hq_dexa_scan *scan, struct hq_err *e);

/* Lab rows out of every clinical record whose resource has not been read;
 * a resource that cannot be read is counted skipped and reported through
 * warn (its path and why), and does not stop the others. */
typedef void hq_report_warn_fn(void *arg, const char *msg);
int hq_report_backfill(struct hq_report_writer *w, hq_report_warn_fn *warn,
    void *warn_arg, struct hq_err *e);

#endif
