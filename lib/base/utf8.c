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
