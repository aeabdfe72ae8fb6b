/* term — text for a terminal: escaped, measured, cut (term.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/term.h"
#include "hq/utf8.h"

/* Characters a terminal shows as nothing, or that reorder or break the
 * text around them: C1 controls (U+009B is a CSI on some terminals),
 * the bidirectional embeddings, overrides, isolates and marks (a file
 * name that reads backwards), line and paragraph separators, and
 * invisible characters that make two different strings look the same
 * (soft hyphen, zero-width space, word joiner, byte order mark, tags). */
static int
hidden(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0xad || c == 0x61c || c == 0x180e ||
	    c == 0x200b || c == 0x200e || c == 0x200f ||
	    (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) ||
	    c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) ||
	    (c >= 0xe0000 && c <= 0xe007f);
}

/* how many bytes of the character at s (n left) a cut keeps whole */
static size_t
char_len(const unsigned char *s, size_t n)
{
	uint32_t c;
	size_t k = hq_utf8_decode(s, n, &c);

	return k ? k : 1;
}

/* The character at p (n bytes left): its length in *k, and, when it is
 * not shown as it is, its escape in out (NUL-terminated) and the escape's
 * length; 0 when the k bytes are shown as they are. */
static size_t
escape_one(const unsigned char *p, size_t n, int flags, char out[12],
    size_t *k)
{
	uint32_t c;
	size_t len = hq_utf8_decode(p, n, &c);

	*k = len ? len : 1;
	if (len > 1)
		return hidden(c) ? (size_t)snprintf(out, 12,
		    c > 0xffff ? "\\U%08x" : "\\u%04x", (unsigned)c) : 0;
	if (*p == '\\')
		return flags & HQ_TERM_BACKSLASH ?
		    (size_t)snprintf(out, 12, "\\\\") : 0;
	if (*p >= 0x20 && *p < 0x7f)
		return 0;
	if ((*p == '\n' || *p == '\t') && (flags & HQ_TERM_LINES))
		return 0;
	if (*p == '\n' || *p == '\r' || *p == '\t')
		return (size_t)snprintf(out, 12, "%s",
		    *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : "\\t");
	return (size_t)snprintf(out, 12, "\\x%02x", *p);
}

void
hq_term_escape(struct hq_buf *b, const char *s, size_t n, int flags)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	char esc[12];
	size_t k, m, run;

	while (p < end) {
		/* plain printable ASCII in one go */
		for (run = 0; p + run < end && p[run] >= 0x20 && p[run] < 0x7f &&
		    !(p[run] == '\\' && (flags & HQ_TERM_BACKSLASH)); run++)
			;
		if (run) {
			hq_buf_append(b, p, run);
			p += run;
			continue;
		}
		m = escape_one(p, (size_t)(end - p), flags, esc, &k);
		if (m)
			hq_buf_append(b, esc, m);
		else
			hq_buf_append(b, p, k);
		p += k;
	}
}

void
hq_term_escape_to(char *buf, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;
	char esc[12];

	if (n == 0)
		return;
	for (size_t i = 0, k; i < len; i += k) {
		size_t m = escape_one(p + i, len - i, 0, esc, &k);
		size_t take = m ? m : k;
		if (o + take >= n)
			break;
		memcpy(buf + o, m ? esc : s + i, take);
		o += take;
	}
	buf[o] = '\0';
}

const char *
hq_term_excerpt(char *buf, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p), o = 0, i = 0, k;
	char esc[12];

	if (n == 0)
		return buf;
	for (int chars = 0; i < len && chars < HQ_TERM_EXCERPT; chars++, i += k) {
		size_t m = escape_one(p + i, len - i, HQ_TERM_BACKSLASH, esc, &k);
		size_t take = m ? m : k;
		if (o + take + 4 > n)
			break;
		memcpy(buf + o, m ? esc : (const char *)p + i, take);
		o += take;
	}
	if (i < len && o + 4 <= n) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

const char *
hq_term_text(struct hq_buf *b, const char *s, size_t max, int flags)
{
	size_t n = s ? strlen(s) : 0, keep = 0;

	hq_buf_reset(b);
	hq_buf_puts(b, "");
	if (n <= max) {
		hq_term_escape(b, s, n, flags);
		return b->data;
	}
	while (keep < n) {
		size_t k = char_len((const unsigned char *)s + keep, n - keep);
		if (keep + k > max)
			break;
		keep += k;
	}
	hq_term_escape(b, s, keep, flags);
	hq_buf_printf(b, "... (%zu bytes)", n);
	return b->data;
}

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
	uint32_t c;
	size_t k = hq_utf8_decode(s, strnlen((const char *)s, 4), &c);

	*len = k ? k : 1;
	return k ? (long)c : -1;
}

/* Shown as '?': controls, hidden characters, bytes that are not UTF-8
 * (cp -1). */
static int
shown_as_mark(long cp)
{
	return cp < 0x20 || cp == 0x7f || hidden((uint32_t)cp);
}

static int
cp_cols(long cp)
{
	if (shown_as_mark(cp))
		return 1;
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
		cols += (size_t)cp_cols(cp);
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
		size_t w = (size_t)cp_cols(cp);
		int plain = !shown_as_mark(cp);

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

/* a word of only comparison signs: glued to its neighbours */
static int
operator(const char *w, size_t n)
{
	return n > 0 && n <= 3 && strspn(w, "=<>!~") == n;
}

struct word {
	const char *s;
	size_t n, cols;
};

/* one word at most room columns, escaped */
static size_t
put_word(FILE *fp, const struct word *w, size_t room)
{
	char src[1024], dst[1024 + 8];
	size_t cols;

	snprintf(src, sizeof src, "%.*s", (int)(w->n < sizeof src ? w->n : sizeof src - 1), w->s);
	cols = hq_term_fit(dst, sizeof dst, src, room);
	fputs(dst, fp);
	return cols;
}

/* one line of text (no line end), its words wrapped */
static void
wrap_line(FILE *fp, const char *s, size_t n, size_t first, size_t hang, size_t width)
{
	struct word *v = hq_xcalloc(n / 2 + 1, sizeof *v);
	size_t nw = 0, col = first, margin = first;
	char buf[1024];

	for (size_t i = 0; i < n; ) {
		size_t k = 0;
		while (i < n && s[i] == ' ')
			i++;
		while (i + k < n && s[i + k] != ' ')
			k++;
		if (k) {
			snprintf(buf, sizeof buf, "%.*s", (int)(k < sizeof buf ? k : sizeof buf - 1), s + i);
			v[nw++] = (struct word){ s + i, k, hq_term_cols(buf) };
		}
		i += k;
	}
	for (size_t i = 0, j; i < nw; i = j + 1) {
		size_t cols = v[i].cols, room = width > margin + 10 ? width - margin : 10;
		/* the unit: the word and what operators glue to it */
		for (j = i; j + 1 < nw && (operator(v[j + 1].s, v[j + 1].n) ||
		    operator(v[j].s, v[j].n)); j++)
			cols += 1 + v[j + 1].cols;
		if (cols > (width > hang + 10 ? width - hang : 10)) {
			j = i;          /* wider than any line: word by word */
			cols = v[i].cols;
		}
		if (col > margin && col + 1 + cols > width) {
			fprintf(fp, "\n%*s", (int)hang, "");
			col = margin = hang;
			room = width > margin + 10 ? width - margin : 10;
		}
		for (size_t k = i; k <= j; k++) {
			if (col > margin) {
				putc(' ', fp);
				col++;
			}
			col += put_word(fp, &v[k], col - margin < room ? room - (col - margin) : 1);
		}
	}
	putc('\n', fp);
	free(v);
}

void
hq_term_wrap(FILE *fp, const char *label, size_t indent, size_t hang,
    const char *text, size_t width)
{
	char lab[256];
	size_t cols = hq_term_fit(lab, sizeof lab, label ? label : "", indent);

	fprintf(fp, "%s%*s", lab, (int)(indent - cols), "");
	for (const char *p = text, *nl; ; p = nl + 1) {
		nl = strchr(p, '\n');
		wrap_line(fp, p, nl ? (size_t)(nl - p) : strlen(p), indent, hang, width);
		if (!nl || !nl[1])
			break;
		if (nl[1 + strspn(nl + 1, " ")] != '\n')
			fprintf(fp, "%*s", (int)indent, "");
	}
}
