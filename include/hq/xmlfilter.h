/*
 * xmlfilter — the byte filter in front of libxml2 for Apple Health's
 * export.xml (lib/read/applehealth.c) and for TCX and GPX files
 * (lib/read/trackfile.c): it drops the internal DTD (iOS 16 wrote a
 * malformed one; an entity it declares is then no entity, so an external
 * one is never loaded) and the control characters XML forbids (U+000B and
 * friends, counted), keeping line numbers, and notes the "HealthKit
 * Export Version" comment. It knows nothing of the store or of Apple's
 * elements: bytes in (UTF-8 or an encoding that is ASCII's below 0x80),
 * bytes out.
 *
 * Feed it raw bytes, it writes what the parser should see into out, which
 * needs room for n + 16 bytes (bytes held back at the end of one call may
 * come out in the next).
 *
 * It also bounds the markup, before the parser buffers any of it: a tag
 * (its name and attributes, so any attribute value) longer than
 * HQ_XML_MAX_TAG bytes, or with more than HQ_XML_MAX_ATTRS attributes,
 * stops the output and sets over (1 too long, 2 too many attributes) and
 * over_line, the line the tag starts on. Memory then stays constant
 * whatever the input: libxml2 never holds more than one bounded tag.
 */
#ifndef HQ_XMLFILTER_H
#define HQ_XMLFILTER_H

#include <stddef.h>

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
/* Which bound a filter that set over passed, into buf (n bytes), for a
 * message after "file:over_line: ". */
void hq_xml_filter_over(const struct hq_xml_filter *f, char *buf, size_t n);
size_t hq_xml_filter_run(struct hq_xml_filter *f, const unsigned char *in,
    size_t n, unsigned char *out);

#endif
