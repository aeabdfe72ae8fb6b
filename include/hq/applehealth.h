/*
 * applehealth — the Apple Health reader: an export (export.zip or
 * export.xml) into an import (ingest.h), two rows of reader.c's table.
 *
 * The XML is streamed through libxml2's reader behind a filter that drops
 * the internal DTD (iOS 16 wrote a malformed one) and the control
 * characters XML forbids (U+000B and friends), keeping line numbers. A zip
 * is streamed with libarchive, never extracted: the main XML is the entry
 * whose first bytes say <HealthData (its name is localised), GPX routes
 * and clinical-records/ FHIR files are linked to what the XML referenced,
 * whatever their order in the archive. Memory stays constant.
 *
 * Records it cannot use are skipped and said (hq_ingest_skip); a file the
 * parser cannot read fails with file:line (the zip entry's name for one
 * in a zip). Nothing here is owned by the caller except what it passes in.
 */
#ifndef HQ_APPLEHEALTH_H
#define HQ_APPLEHEALTH_H

#include "hq/err.h"
#include "hq/ingest.h"
#include "hq/reader.h"
#include "hq/xmlfilter.h"   /* the byte filter in front of libxml2 */

/* Whether a file's first bytes are a zip, or Apple's XML (its root or
 * DOCTYPE within them, or XML longer than 4 KB before it). */
int hq_applehealth_sniff_zip(const unsigned char *p, size_t n);
int hq_applehealth_sniff_xml(const unsigned char *p, size_t n);
/* Import in, a zip archive or the XML: 0, or -1 with e naming the file
 * (and zip entry) and line. */
int hq_applehealth_read_zip(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);
int hq_applehealth_read_xml(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);

#endif
