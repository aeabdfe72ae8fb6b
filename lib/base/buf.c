#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/utf8.h"

static _Noreturn void
oom(void)
{
	fputs("hq: out of memory\n", stderr);
	abort();
}

void *
hq_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *
hq_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *
hq_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *
hq_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(hq_xmalloc(n), s, n);
}

static void
grow(struct hq_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->data = hq_xrealloc(b->data, cap);
	b->cap = cap;
}

void
hq_buf_append(struct hq_buf *b, const void *p, size_t n)
{
	grow(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
hq_buf_puts(struct hq_buf *b, const char *s)
{
	hq_buf_append(b, s, strlen(s));
}

void
hq_buf_putc(struct hq_buf *b, char c)
{
	if (b->len + 2 > b->cap)
		grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void
hq_buf_printf(struct hq_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
hq_buf_json_str(struct hq_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	hq_buf_putc(b, '"');
	for (;;) {
		/* The run that needs no escape, copied at once. */
		const unsigned char *q = p;
		while (*q >= 0x20 && *q < 0x80 && *q != '"' && *q != '\\')
			q++;
		if (q > p)
			hq_buf_append(b, p, (size_t)(q - p));
		p = q;
		if (!*p)
			break;
		switch (*p++) {
		case '"':  hq_buf_puts(b, "\\\""); break;
		case '\\': hq_buf_puts(b, "\\\\"); break;
		case '\n': hq_buf_puts(b, "\\n"); break;
		case '\r': hq_buf_puts(b, "\\r"); break;
		case '\t': hq_buf_puts(b, "\\t"); break;
		default:
			if (p[-1] < 0x20)
				hq_buf_printf(b, "\\u%04x", p[-1]);
			else {
				/* JSON is UTF-8: a byte that is not becomes U+FFFD
				 * (a store written before the import writer checked). */
				size_t k = hq_utf8_char(p - 1, (size_t)(end - p + 1));
				if (k) {
					hq_buf_append(b, p - 1, k);
					p += k - 1;
				} else
					hq_buf_puts(b, "\\ufffd");
			}
		}
	}
	hq_buf_putc(b, '"');
}

void
hq_buf_reset(struct hq_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void
hq_buf_free(struct hq_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

char *
hq_buf_steal(struct hq_buf *b)
{
	char *p = b->data ? b->data : hq_xstrdup("");

	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}
