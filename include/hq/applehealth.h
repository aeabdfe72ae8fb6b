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

/*
 * The byte filter in front of libxml2, exposed for tests: feed it raw
 * bytes, it writes what the parser should see into out, which needs room
 * for n + 16 bytes (bytes held back at the end of one call may come out
 * in the next).
 *
 * It also bounds the markup, before the parser buffers any of it: a tag
 * (its name and attributes, so any attribute value) longer than
 * HQ_XML_MAX_TAG bytes, or with more than HQ_XML_MAX_ATTRS attributes,
 * stops the output and sets over (1 too long, 2 too many attributes) and
 * over_line, the line the tag starts on. Memory then stays constant
 * whatever the input: libxml2 never holds more than one bounded tag.
 */
#define HQ_XML_MAX_TAG (1L << 20)
#define HQ_XML_MAX_ATTRS 1024

struct hq_xml_filter {
	int state;               /* where in the prolog/DTD/body we are */
	int held;                /* bytes of "<!DOCTYPE" matched so far */
	int bracket, close_pending;
	long dropped_ctrl;       /* control characters removed */
	char version[16];        /* "HealthKit Export Version: N", if seen */
	char vbuf[64];
	int vlen;
	long line;               /* of the next byte, from 1 */
	int tag;                 /* in the body: text, '<' seen, in a tag */
	unsigned char quote;     /* in a tag: the quote of the value open */
	long taglen, tag_line;
	int nattrs;
	int over;                /* a bound passed: 1 tag length, 2 attributes */
	long over_line;
};
void hq_xml_filter_init(struct hq_xml_filter *f);
size_t hq_xml_filter_run(struct hq_xml_filter *f, const unsigned char *in,
    size_t n, unsigned char *out);

#endif
