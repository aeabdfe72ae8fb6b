/*
 * applehealth — read an Apple Health export (export.zip or export.xml)
 * into an import (ingest.h).
 *
 * The XML is streamed through libxml2's reader behind a filter that drops
 * the internal DTD (iOS 16 wrote a malformed one) and the control
 * characters XML forbids (U+000B and friends), keeping line numbers. A zip
 * is streamed with libarchive, never extracted: the main XML is the entry
 * whose first bytes say <HealthData (its name is localised), GPX routes
 * and clinical-records/ FHIR files are linked to what the XML referenced,
 * whatever their order in the archive. Memory stays constant.
 *
 * Nothing here is owned by the caller except what it passes in.
 */
#ifndef HQ_APPLEHEALTH_H
#define HQ_APPLEHEALTH_H

#include "hq/err.h"
#include "hq/ingest.h"

/* Import src (an XML file when zip is 0, else a zip archive). 0, or -1
 * with e naming the file (and zip entry) and line. Warnings (unusable
 * records) go to warn, when not NULL. */
int hq_applehealth_import(struct hq_ingest *ig, struct hq_src *src, int zip,
    hq_ingest_warn_fn *warn, void *warn_arg, struct hq_err *e);

/*
 * The byte filter in front of libxml2, exposed for tests: feed it raw
 * bytes, it writes what the parser should see into out, which needs room
 * for n + 16 bytes (bytes held back at the end of one call may come out
 * in the next).
 */
struct hq_xml_filter {
	int state;               /* where in the prolog/DTD/body we are */
	int held;                /* bytes of "<!DOCTYPE" matched so far */
	int bracket, close_pending;
	long dropped_ctrl;       /* control characters removed */
	char version[16];        /* "HealthKit Export Version: N", if seen */
	char vbuf[64];
	int vlen;
};
void hq_xml_filter_init(struct hq_xml_filter *f);
size_t hq_xml_filter_run(struct hq_xml_filter *f, const unsigned char *in,
    size_t n, unsigned char *out);

#endif
