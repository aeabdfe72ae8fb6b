/*
 * fhir — lab results out of FHIR resources, R4 and DSTU2.
 *
 * A document is a Bundle (of any type, or none), a single Observation, a
 * DiagnosticReport whose Observations are `contained`, or one resource of
 * Apple Health's clinical-records/ folder. Every Observation that is a lab
 * result goes to the sink (labs.h) as a struct hq_lab_result: a category
 * coding `laboratory` (an R4 list or a DSTU2 object) or no category at all,
 * and never vital signs. Value from valueQuantity (with its comparator),
 * valueString ("<0.5" is a comparator and a number, "NEGATIVE" text), or
 * a coded value's text; the date from effectiveDateTime, else
 * effectivePeriod.start, else issued; the range from the first
 * referenceRange (low/high, or text such as "<130"); the lab's flag from
 * interpretation. Observations that are not lab results, carry no value
 * or no date, or were cancelled are skipped (counted in sink->skipped); one
 * entered in error is skipped too and, when it has an id, handed on with
 * status "entered-in-error", id and source only, so that the store takes
 * back what that id stood for. The document is borrowed.
 *
 * A file too large to parse whole goes through hq_fhir_stream(): a
 * Bundle's entries are then parsed one at a time (jsonin.h), so memory
 * stays that of the largest entry whatever the number of entries; the
 * results are those of hq_fhir_read() on the whole file.
 */
#ifndef HQ_FHIR_H
#define HQ_FHIR_H

#include <cjson/cJSON.h>

#include "hq/err.h"
#include "hq/jsonin.h"
#include "hq/labs.h"

/* Whether a JSON value is a FHIR resource this module reads. */
int hq_fhir_sniff(const cJSON *doc);

/* Every lab result in doc to sink->emit. line is where doc starts in its
 * file, for messages. 0, or -1 with e set (emit failed, or a result
 * whose unit, code or date cannot be used, naming the resource). */
int hq_fhir_read(struct hq_lab_sink *sink, const cJSON *doc, long line,
    struct hq_err *e);

/* A stream (hq_jsonin_stream_feed/_end/_free) of a FHIR file to sink:
 * the entries of a top-level Bundle are read one at a time, each within
 * lim's element bounds; the rest of each top-level value (a resource that
 * is no Bundle; a Bundle's other members, and its entries when its
 * resourceType comes after them) is held whole, within its value bounds.
 * A Bundle entry's errors name the line it starts on. sink and lim are
 * borrowed. */
struct hq_jsonin_stream *hq_fhir_stream(struct hq_lab_sink *sink,
    const struct hq_jsonin_limits *lim);

#endif
