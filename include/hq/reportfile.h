/*
 * reportfile — the report formats of hq-ingest's table (reader.h): lab
 * results as CSV, JSON lines or FHIR, DEXA scans as JSON or CSV.
 *
 * Each sniffs a file's first bytes (the content, never the name), reads it
 * with the parsers of labs.h, fhir.h and dexa.h and hands what they find to
 * the import writer (ingest.h). Like every import, a file goes in whole or
 * not at all: a line or resource that cannot be read fails the file with
 * file:line, and nothing of it is imported. The schemas are in
 * hq-ingest(1).
 */
#ifndef HQ_REPORTFILE_H
#define HQ_REPORTFILE_H

#include <stddef.h>

#include "hq/err.h"
#include "hq/ingest.h"
#include "hq/reader.h"

/* A header line naming date, test and value (and unit). */
int hq_reportfile_sniff_labs_csv(const unsigned char *p, size_t n);
int hq_reportfile_read_labs_csv(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);
/* A first line that is a JSON object with "date" and "test". */
int hq_reportfile_sniff_labs_jsonl(const unsigned char *p, size_t n);
int hq_reportfile_read_labs_jsonl(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);
/* A JSON object whose resourceType is Bundle, Observation or
 * DiagnosticReport. */
int hq_reportfile_sniff_fhir(const unsigned char *p, size_t n);
int hq_reportfile_read_fhir(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);
/* A JSON object (or an array of them) whose "kind" is "dexa". */
int hq_reportfile_sniff_dexa_json(const unsigned char *p, size_t n);
int hq_reportfile_read_dexa_json(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);
/* A header line naming date, field and value (and unit). */
int hq_reportfile_sniff_dexa_csv(const unsigned char *p, size_t n);
int hq_reportfile_read_dexa_csv(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);

#endif
