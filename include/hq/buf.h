/*
 * buf — a growable byte buffer, always NUL-terminated.
 *
 * A struct hq_buf starts zeroed ({0}); hq_buf_free() releases it. The
 * pointer b->data may move on every append.
 */
#ifndef HQ_BUF_H
#define HQ_BUF_H

#include <stddef.h>

struct hq_buf {
	char *data;
	size_t len, cap;
};

/* All appends abort on out-of-memory: there is nothing sensible to do. */
void hq_buf_append(struct hq_buf *b, const void *p, size_t n);
void hq_buf_puts(struct hq_buf *b, const char *s);
void hq_buf_putc(struct hq_buf *b, char c);
void hq_buf_printf(struct hq_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append s as a JSON string literal, quotes included; a byte that is not
 * UTF-8 becomes U+FFFD, so the output is always valid JSON. */
void hq_buf_json_str(struct hq_buf *b, const char *s);
void hq_buf_reset(struct hq_buf *b);
void hq_buf_free(struct hq_buf *b);
/* Hand the data to the caller (free() it); b is reset. */
char *hq_buf_steal(struct hq_buf *b);

/* Allocation that aborts on failure: every allocation of hq's own goes
 * through these (or hq_buf), so no caller checks for NULL. A library hq
 * calls (SQLite, cJSON, libcurl, libarchive) that reports running out is
 * handled like any other error it reports. */
void *hq_xmalloc(size_t n);
void *hq_xcalloc(size_t n, size_t size);
void *hq_xrealloc(void *p, size_t n);
char *hq_xstrdup(const char *s);

#endif
