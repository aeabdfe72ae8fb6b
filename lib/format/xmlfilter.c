#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/xmlfilter.h"

/* Filter states. */
enum { F_PROLOG, F_DTD, F_BODY };
/* Markup in the body: text, just after '<', inside a start or end tag. */
enum { T_TEXT, T_LT, T_TAG };

static const char doctype[] = "<!DOCTYPE";

void
hq_xml_filter_init(struct hq_xml_filter *f)
{
	memset(f, 0, sizeof *f);
	f->line = 1;
}

void
hq_xml_filter_over(const struct hq_xml_filter *f, char *buf, size_t n)
{
	if (f->over == 1)
		snprintf(buf, n, "a tag longer than %ld MiB (its name and "
		    "attributes; see LIMITS in hq-ingest(1))", HQ_XML_MAX_TAG >> 20);
	else
		snprintf(buf, n, "a tag with more than %d attributes (see LIMITS "
		    "in hq-ingest(1))", HQ_XML_MAX_ATTRS);
}

static int
is_illegal(unsigned char c)
{
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

/* Remember "Export Version: N" from the prolog or the dropped DTD. */
static void
watch_version(struct hq_xml_filter *f, unsigned char c)
{
	static const char key[] = "Export Version:";

	if (f->version[0])
		return;
	if (f->vlen < (int)sizeof key - 1) {
		if (c == (unsigned char)key[f->vlen])
			f->vlen++;
		else
			f->vlen = c == (unsigned char)key[0];
		return;
	}
	/* After the key: spaces, then the number. */
	size_t k = strlen(f->vbuf);
	if (c == ' ' && k == 0)
		return;
	if (c >= '0' && c <= '9' && k + 1 < sizeof f->version) {
		f->vbuf[k] = (char)c;
		f->vbuf[k + 1] = '\0';
		return;
	}
	memcpy(f->version, f->vbuf, sizeof f->version - 1);
	f->version[sizeof f->version - 1] = '\0';
	if (!f->version[0])
		f->vlen = 0;
}

/* One byte of a tag (after its '<'): 0, or -1 when it passes a bound. */
static int
tag_byte(struct hq_xml_filter *f, unsigned char c)
{
	if (++f->taglen > HQ_XML_MAX_TAG) {
		f->over = 1;
		return -1;
	}
	if (f->quote) {
		if (c == f->quote)
			f->quote = 0;
	} else if (c == '"' || c == '\'') {
		f->quote = c;
		if (++f->nattrs > HQ_XML_MAX_ATTRS) {
			f->over = 2;
			return -1;
		}
	} else if (c == '>')
		f->tag = T_TEXT;
	return 0;
}

/*
 * The body is almost all of the file: runs of plain bytes are copied as
 * they are, stopping only at a byte that matters (a control character,
 * '<' in text; a quote or '>' in a tag, or the closing quote in a value:
 * a '>' inside a value does not end its tag), which is taken alone.
 * Comments, CDATA and processing instructions ("<!", "<?") are passed as
 * text: none is in an export, and libxml2's own limit (10 MB) holds for
 * them.
 */
enum { S_TEXT = 1, S_TAG = 2, S_DQ = 4, S_SQ = 8 };

/* stops[c] & S_x: byte c ends a run in state x (control characters in
 * every state). One look-up a byte keeps the filter cheap. */
#define S_ALL (S_TEXT | S_TAG | S_DQ | S_SQ)
static const unsigned char stops[256] = {
	S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL,
	S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL,
	S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL,
	S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL, S_ALL,
	['<'] = S_TEXT, ['"'] = S_TAG | S_DQ, ['\''] = S_TAG | S_SQ,
	['>'] = S_TAG,
};

static size_t
filter_body(struct hq_xml_filter *f, const unsigned char *in, size_t n,
    unsigned char *out)
{
	size_t o = 0, i = 0;

	while (i < n) {
		size_t j = i;
		unsigned char stop = f->tag == T_TEXT ? S_TEXT : f->tag == T_LT ? 0
		    : f->quote == '"' ? S_DQ : f->quote ? S_SQ : S_TAG;
		if (stop)
			while (j < n && !(stops[in[j]] & stop))
				j++;
		if (f->tag == T_TAG && (f->taglen += (long)(j - i)) > HQ_XML_MAX_TAG) {
			f->over = 1;
			break;
		}
		memcpy(out + o, in + i, j - i);
		o += j - i;
		if ((i = j) == n)
			break;
		unsigned char c = in[i++];
		if (c < 0x20) {
			if (is_illegal(c)) {
				f->dropped_ctrl++;
				continue;
			}
			if (c == '\n')
				f->line++;
		}
		if (f->tag == T_TEXT) {
			if (c == '<') {
				f->tag = T_LT;
				f->tag_line = f->line;
			}
		} else if (f->tag == T_LT) {
			f->tag = c == '!' || c == '?' ? T_TEXT : T_TAG;
			f->taglen = 1;
			f->nattrs = 0;
			f->quote = 0;
			if (f->tag == T_TAG && tag_byte(f, c))
				break;
		} else if (tag_byte(f, c))
			break;
		out[o++] = c;
	}
	if (f->over)
		f->over_line = f->tag_line;
	return o;
}

size_t
hq_xml_filter_run(struct hq_xml_filter *f, const unsigned char *in, size_t n,
    unsigned char *out)
{
	size_t o = 0;

	if (f->over)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = in[i];
		if (f->state == F_BODY) {
			o += filter_body(f, in + i, n - i, out + o);
			break;
		}
		if (is_illegal(c)) {
			f->dropped_ctrl++;
			continue;
		}
		if (c == '\n')
			f->line++;
		switch (f->state) {
		case F_BODY:
			out[o++] = c;
			break;
		case F_PROLOG:
			watch_version(f, c);
			if (c == (unsigned char)doctype[f->held]) {
				if (++f->held == (int)sizeof doctype - 1) {
					f->state = F_DTD;
					f->held = 0;
					f->bracket = f->close_pending = 0;
				}
				break;
			}
			/* Not a DOCTYPE after all: give back what was held. The
			 * held bytes are a prefix of "<!DOCTYPE", so out has room
			 * (they were counted in earlier input). */
			if (f->held) {
				memcpy(out + o, doctype, (size_t)f->held);
				o += (size_t)f->held;
				/* "<" followed by a name starts the root element. */
				if (f->held == 1 && ((c >= 'A' && c <= 'Z') ||
				    (c >= 'a' && c <= 'z') || c == '_')) {
					f->state = F_BODY;
					f->tag = T_TAG;
					f->tag_line = f->line;
					f->taglen = 1;
					f->nattrs = 0;
					f->quote = 0;
					tag_byte(f, c);
				}
				f->held = 0;
				if (c == '<') {
					f->held = 1;
					break;
				}
			}
			out[o++] = c;
			break;
		case F_DTD:
			watch_version(f, c);
			/* Keep the line count: libxml2's line numbers are the
			 * file's. */
			if (c == '\n')
				out[o++] = c;
			if (c == '[')
				f->bracket = 1;
			else if (c == ']')
				f->close_pending = 1;
			else if (c == '>' && (f->close_pending || !f->bracket))
				f->state = F_PROLOG;
			else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
				f->close_pending = 0;
			break;
		}
	}
	return o;
}
