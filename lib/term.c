#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hq/term.h"

int
hq_term_width(int fd)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	long w = 0;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		w = ws.ws_col;
	else if (env && *env) {
		char *end;
		w = strtol(env, &end, 10);
		if (*end || w <= 0 || w > 10000)
			w = 0;
	}
	if (w == 0)
		w = 80;
	return w < 20 ? 20 : (int)w;
}

/* The code point at s (len bytes of it), or -1 for a byte that starts
 * none (then len is 1). */
static long
decode(const unsigned char *s, size_t *len)
{
	long cp;
	size_t n;

	if (s[0] < 0x80) {
		*len = 1;
		return s[0];
	}
	n = s[0] >= 0xf0 && s[0] < 0xf8 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	*len = 1;
	if (n == 0)
		return -1;
	cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	*len = n;
	return cp;
}

static int
cp_cols(long cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
		return 1;       /* shown as '?' */
	if ((cp >= 0x300 && cp <= 0x36f) || cp == 0x200b || (cp >= 0xfe00 && cp <= 0xfe0f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

size_t
hq_term_cols(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t cols = 0, len;

	while (*p) {
		long cp = decode(p, &len);
		cols += cp < 0 ? 1 : (size_t)cp_cols(cp);
		p += len;
	}
	return cols;
}

size_t
hq_term_fit(char *dst, size_t n, const char *src, size_t cols)
{
	static const char ellipsis[] = "…";
	const unsigned char *p = (const unsigned char *)src;
	size_t used = 0, k = 0, len, total = hq_term_cols(src);
	size_t room = total <= cols ? cols : cols ? cols - 1 : 0;

	if (n == 0)
		return 0;
	while (*p) {
		long cp = decode(p, &len);
		size_t w = cp < 0 ? 1 : (size_t)cp_cols(cp);
		int plain = cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0);

		if (used + w > room || k + (plain ? len : 1) + sizeof ellipsis > n)
			break;
		if (plain) {
			memcpy(dst + k, p, len);
			k += len;
		} else
			dst[k++] = '?';
		used += w;
		p += len;
	}
	if (*p && cols > used) {
		memcpy(dst + k, ellipsis, sizeof ellipsis - 1);
		k += sizeof ellipsis - 1;
		used++;
	}
	dst[k] = '\0';
	return used;
}
