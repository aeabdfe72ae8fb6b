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

/* The escaped form of the character at p (k bytes, 0: an invalid byte)
 * into out (room for 8); its length, or 0 when it needs no escape. */
static size_t
escape_one(const unsigned char *p, size_t k, char *out)
{
	if (k == 0)
		return (size_t)snprintf(out, 8, "\\x%02x", p[0]);
	if (k == 1 && (p[0] < 0x20 || p[0] == 0x7F)) {
		switch (p[0]) {
		case '\n': memcpy(out, "\\n", 3); return 2;
		case '\r': memcpy(out, "\\r", 3); return 2;
		case '\t': memcpy(out, "\\t", 3); return 2;
		default: return (size_t)snprintf(out, 8, "\\x%02x", p[0]);
		}
	}
	if (k == 2 && p[0] == 0xC2 && p[1] < 0xA0)   /* U+0080..U+009F */
		return (size_t)snprintf(out, 8, "\\u%04x", p[1]);
	return 0;
}

void
hq_utf8_escape(struct hq_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, run = 0;
	char esc[8];

	while (i < n) {
		size_t k = p[i] < 0x80 ? 1 : hq_utf8_char(p + i, n - i);
		size_t m = escape_one(p + i, k, esc);
		if (m == 0) {
			i += k;
			continue;
		}
		hq_buf_append(b, p + run, i - run);
		hq_buf_append(b, esc, m);
		i += k ? k : 1;
		run = i;
	}
	hq_buf_append(b, p + run, n - run);
}

void
hq_utf8_escape_to(char *buf, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;
	char esc[8];

	if (n == 0)
		return;
	for (size_t i = 0; i < len;) {
		size_t k = p[i] < 0x80 ? 1 : hq_utf8_char(p + i, len - i);
		size_t m = escape_one(p + i, k, esc);
		const char *from = m ? esc : (const char *)p + i;
		size_t take = m ? m : k;
		if (o + take >= n)
			break;
		memcpy(buf + o, from, take);
		o += take;
		i += k ? k : 1;
	}
	buf[o] = '\0';
}
