#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hq/utf8.h"

size_t
hq_utf8_char(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xBF;   /* the range of the second byte */

	if (n == 0)
		return 0;
	if (c < 0x80)
		return 1;
	if (c < 0xC2)
		return 0;   /* a continuation byte, or an overlong C0/C1 lead */
	if (c < 0xE0)
		len = 2;
	else if (c < 0xF0) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0;   /* overlong */
		else if (c == 0xED)
			hi = 0x9F;   /* U+D800..U+DFFF, surrogates */
	} else if (c < 0xF5) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90;   /* overlong */
		else if (c == 0xF4)
			hi = 0x8F;   /* past U+10FFFF */
	} else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

int
hq_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		/* Names are mostly ASCII: eight bytes at a time. */
		uint64_t w;
		while (i + 8 <= n && (memcpy(&w, p + i, 8),
		    (w & 0x8080808080808080ULL) == 0))
			i += 8;
		if (i == n)
			break;
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		size_t k = hq_utf8_char(p + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

void
hq_utf8_repair(const char *s, char *buf, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;

	if (n == 0)
		return;
	for (size_t i = 0; i < len;) {
		size_t k = hq_utf8_char(p + i, len - i);
		const char *c = k ? s + i : "\xEF\xBF\xBD";   /* U+FFFD */
		size_t m = k ? k : 3;
		if (o + m >= n)
			break;
		memcpy(buf + o, c, m);
		o += m;
		i += k ? k : 1;
	}
	buf[o] = '\0';
}

/* cp as UTF-8 at out: its length. */
static size_t
put_utf8(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;

	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xC0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xE0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		o[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (unsigned char)(0xF0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
	o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
	o[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

int
hq_utf16_detect(const unsigned char *p, size_t n)
{
	if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE)
		return HQ_UTF16_LE;
	if (n >= 2 && p[0] == 0xFE && p[1] == 0xFF)
		return HQ_UTF16_BE;
	/* No mark: "<" or white space as one 16-bit unit (XML's own rule,
	 * appendix F of the XML 1.0 specification). */
	if (n >= 4 && p[0] < 0x80 && p[0] && !p[1] && p[2] < 0x80 && p[2] &&
	    !p[3])
		return HQ_UTF16_LE;
	if (n >= 4 && !p[0] && p[1] < 0x80 && p[1] && !p[2] && p[3] < 0x80 &&
	    p[3])
		return HQ_UTF16_BE;
	return 0;
}

size_t
hq_utf16_decode(struct hq_utf16 *u, const unsigned char *p, size_t n,
    char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t unit;

		if (!u->have_byte) {
			u->byte = p[i];
			u->have_byte = 1;
			continue;
		}
		u->have_byte = 0;
		unit = u->order == HQ_UTF16_BE ? (uint32_t)u->byte << 8 | p[i]
		    : (uint32_t)p[i] << 8 | u->byte;
		if (unit >= 0xD800 && unit < 0xDC00) {
			if (u->high)    /* two high surrogates: the first alone */
				o += put_utf8(0xFFFD, out + o);
			u->high = unit;
			continue;
		}
		if (unit >= 0xDC00 && unit < 0xE000) {
			o += put_utf8(u->high ? 0x10000 + ((u->high - 0xD800) << 10 |
			    (unit - 0xDC00)) : 0xFFFD, out + o);
			u->high = 0;
			continue;
		}
		if (u->high) {
			o += put_utf8(0xFFFD, out + o);
			u->high = 0;
		}
		o += put_utf8(unit, out + o);
	}
	return o;
}

size_t
hq_utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	size_t k = hq_utf8_char(p, n);
	static const unsigned char lead_bits[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	uint32_t c;

	if (!k)
		return 0;
	c = p[0] & lead_bits[k];
	for (size_t i = 1; i < k; i++)
		c = c << 6 | (p[i] & 0x3f);
	*cp = c;
	return k;
}

int
hq_text_check(const void *p, size_t n, const char *name, long *line,
    struct hq_err *e)
{
	const char *s = p, *nul = memchr(s, '\0', n), *end = nul ? nul : s + n;

	for (const char *q = s; (q = memchr(q, '\n', (size_t)(end - q))); q++)
		(*line)++;
	if (!nul)
		return 0;
	hq_err_set(e, "%s:%ld: NUL byte: not a text file", name, *line);
	return -1;
}
