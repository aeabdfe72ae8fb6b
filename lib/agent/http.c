/* http — libcurl POST with line streaming and SDK-style retry policy. */
#include <ctype.h>
#include <curl/curl.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/http.h"

#ifndef HQ_VERSION
#define HQ_VERSION "0"
#endif

struct transfer {
	const struct hq_http_request *req;
	struct hq_http_response *resp;
	CURL *curl;
	char *line;		/* the incomplete line carried between writes */
	size_t line_len, line_cap;
	size_t body_cap;
	size_t max_body;	/* bytes, counted after decompression */
	size_t received;
	int last_cr;		/* previous chunk ended in CR: skip a leading LF */
	int streaming;		/* decided at the first write: 2xx and on_line */
	int decided;
	char retry_after_ms[64], retry_after[128];
};

static void
append(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t ncap = *cap ? *cap : 256;
		while (ncap < *len + n + 1)
			ncap *= 2;
		*buf = hq_xrealloc(*buf, ncap);
		*cap = ncap;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	(*buf)[*len] = '\0';
}

static int
emit_line(struct transfer *t)
{
	int rc = t->req->on_line(t->req->ctx, t->line ? t->line : "", t->line_len);
	t->line_len = 0;
	if (t->line)
		t->line[0] = '\0';
	return rc;
}

static int
feed_lines(struct transfer *t, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (t->last_cr) {
			t->last_cr = 0;
			if (c == '\n')
				continue;
		}
		if (c == '\n' || c == '\r') {
			t->last_cr = c == '\r';
			if (emit_line(t))
				return -1;
			continue;
		}
		/* copy the run up to the next line end in one go */
		size_t j = i;
		while (j < n && p[j] != '\n' && p[j] != '\r')
			j++;
		append(&t->line, &t->line_len, &t->line_cap, p + i, j - i);
		i = j - 1;
	}
	return 0;
}

static size_t
on_write(char *p, size_t size, size_t nmemb, void *ud)
{
	struct transfer *t = ud;
	size_t n = size * nmemb;
	if (!t->decided) {
		long status = 0;
		curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
		t->resp->status = status;
		t->streaming = t->req->on_line && status >= 200 && status < 300;
		t->decided = 1;
	}
	/* curl hands over decoded bytes: a small gzip body that inflates
	 * to gigabytes is counted at its inflated size */
	if (n > t->max_body - t->received) {
		t->resp->too_big = 1;
		return 0;
	}
	t->received += n;
	if (t->streaming) {
		if (feed_lines(t, p, n)) {
			t->resp->aborted = 1;
			return 0;
		}
		return n;
	}
	append(&t->resp->body, &t->resp->body_len, &t->body_cap, p, n);
	return n;
}

static void
trim_copy(char *dst, size_t cap, const char *p, size_t n)
{
	while (n && isspace((unsigned char)*p))
		p++, n--;
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static size_t
on_header(char *p, size_t size, size_t nmemb, void *ud)
{
	struct transfer *t = ud;
	size_t n = size * nmemb;
	const char *colon = memchr(p, ':', n);
	if (!colon)
		return n;
	size_t klen = (size_t)(colon - p);
	const char *v = colon + 1;
	size_t vlen = n - klen - 1;
	if (klen == 14 && !strncasecmp(p, "retry-after-ms", 14))
		trim_copy(t->retry_after_ms, sizeof t->retry_after_ms, v, vlen);
	else if (klen == 11 && !strncasecmp(p, "retry-after", 11))
		trim_copy(t->retry_after, sizeof t->retry_after, v, vlen);
	else if (klen == 14 && !strncasecmp(p, "x-should-retry", 14)) {
		char val[16];
		trim_copy(val, sizeof val, v, vlen);
		t->resp->should_retry = !strcasecmp(val, "true") ? 1
				      : !strcasecmp(val, "false") ? 0 : -1;
	}
	return n;
}

int
hq_http_post(const struct hq_http_request *req, struct hq_http_response *resp)
{
	memset(resp, 0, sizeof *resp);
	resp->retry_after = -1;
	resp->should_retry = -1;

	struct transfer t = { .req = req, .resp = resp,
		.max_body = req->max_body ? req->max_body : HQ_HTTP_MAX_BODY };
	t.curl = curl_easy_init();
	if (!t.curl) {
		snprintf(resp->error, sizeof resp->error, "cannot initialise libcurl: %s",
		    curl_easy_strerror(CURLE_FAILED_INIT));
		resp->transport_error = 1;
		return -1;
	}
	struct curl_slist *hdrs = NULL;
	for (const char *const *h = req->headers; h && *h; h++) {
		struct curl_slist *n = curl_slist_append(hdrs, *h);
		if (!n) {
			curl_slist_free_all(hdrs);
			curl_easy_cleanup(t.curl);
			snprintf(resp->error, sizeof resp->error, "out of memory");
			resp->transport_error = 1;
			return -1;
		}
		hdrs = n;
	}
	/* libcurl would otherwise send "Expect: 100-continue" for big bodies */
	hdrs = curl_slist_append(hdrs, "Expect:");

	curl_easy_setopt(t.curl, CURLOPT_URL, req->url);
	curl_easy_setopt(t.curl, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(t.curl, CURLOPT_POSTFIELDS, req->body ? req->body : "");
	curl_easy_setopt(t.curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(t.curl, CURLOPT_USERAGENT, "hq-agent/" HQ_VERSION);
	curl_easy_setopt(t.curl, CURLOPT_CONNECTTIMEOUT_MS,
	    req->connect_timeout_ms > 0 ? req->connect_timeout_ms : 5000L);
	if (req->timeout_ms > 0)
		curl_easy_setopt(t.curl, CURLOPT_TIMEOUT_MS, req->timeout_ms);
	curl_easy_setopt(t.curl, CURLOPT_WRITEFUNCTION, on_write);
	curl_easy_setopt(t.curl, CURLOPT_WRITEDATA, &t);
	curl_easy_setopt(t.curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(t.curl, CURLOPT_HEADERDATA, &t);
	curl_easy_setopt(t.curl, CURLOPT_ACCEPT_ENCODING, "");

	CURLcode rc = curl_easy_perform(t.curl);
	long status = 0;
	curl_easy_getinfo(t.curl, CURLINFO_RESPONSE_CODE, &status);
	resp->status = status;
	/* the last line of a stream need not end in a newline */
	if (rc == CURLE_OK && t.streaming && t.line_len && !resp->aborted && !resp->too_big)
		if (emit_line(&t))
			resp->aborted = 1;
	resp->retry_after = hq_http_parse_retry_after(
	    t.retry_after_ms[0] ? t.retry_after_ms : NULL,
	    t.retry_after[0] ? t.retry_after : NULL, (double)time(NULL));
	free(t.line);
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(t.curl);

	if (rc != CURLE_OK && !resp->aborted && !resp->too_big) {
		resp->transport_error = 1;
		resp->timed_out = rc == CURLE_OPERATION_TIMEDOUT;
		snprintf(resp->error, sizeof resp->error, "%s", curl_easy_strerror(rc));
		return -1;
	}
	return 0;
}

void
hq_http_response_free(struct hq_http_response *resp)
{
	if (!resp)
		return;
	free(resp->body);
	resp->body = NULL;
	resp->body_len = 0;
}

static int
parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

double
hq_http_parse_retry_after(const char *ms, const char *value, double now)
{
	double v;
	if (ms && !parse_double(ms, &v) && v >= 0)
		return v / 1000.0;
	if (!value)
		return -1;
	if (!parse_double(value, &v))
		return v >= 0 ? v : -1;
	struct tm tm = {0};
	const char *end = strptime(value, "%a, %d %b %Y %H:%M:%S", &tm);
	if (!end)
		return -1;
	double when = (double)timegm(&tm);
	return when > now ? when - now : 0;
}

double
hq_http_backoff(int attempt)
{
	double d = 0.5 * pow(2.0, attempt);
	if (d > 8.0)
		d = 8.0;
	/* jitter in (0.75, 1]: many clients retrying together spread out */
	return d * (1.0 - 0.25 * ((double)rand() / ((double)RAND_MAX + 1.0)));
}

double
hq_http_retry_delay(const struct hq_http_response *resp, int attempt)
{
	int retry;
	if (resp->should_retry >= 0)
		retry = resp->should_retry;
	else if (resp->transport_error || resp->status == 0)
		retry = 1;
	else
		retry = resp->status == 408 || resp->status == 409 ||
			resp->status == 429 || resp->status >= 500;
	if (!retry)
		return -1;
	if (resp->retry_after > 120)
		return -1;	/* the server wants more than a CLI should wait */
	if (resp->retry_after > 0)
		return resp->retry_after;
	return hq_http_backoff(attempt);
}
