/*
 * http — a small libcurl wrapper for the LLM clients: POST a JSON body,
 * either collecting the response or handing it over line by line as it
 * arrives (SSE and NDJSON streams), never more than a set size of it
 * (decompressed), plus the retry policy the official
 * SDKs use (408/409/429/5xx and connection failures, capped exponential
 * backoff, retry-after-ms / Retry-After honoured).
 *
 * Memory: the request is borrowed; hq_http_response owns its body and is
 * released with hq_http_response_free().
 */
#ifndef HQ_HTTP_H
#define HQ_HTTP_H

#include <stddef.h>

/* The most a response may hold, after decompression: a stream counts
 * every byte of it, its framing too. */
#define HQ_HTTP_MAX_BODY ((size_t)8 << 20)

/* Called for every line of a 2xx body, without its line ending (LF, CRLF
 * or CR). A non-zero return aborts the transfer. */
typedef int (*hq_http_line_fn)(void *ctx, const char *line, size_t len);

struct hq_http_request {
	const char *url;
	const char *const *headers;	/* "Name: value", NULL-terminated */
	const char *body;
	long connect_timeout_ms;	/* 0: 5000 */
	long timeout_ms;		/* whole transfer; 0: none */
	hq_http_line_fn on_line;	/* NULL: collect the body instead */
	size_t max_body;		/* 0: HQ_HTTP_MAX_BODY */
	void *ctx;
};

struct hq_http_response {
	long status;		/* 0 when no response arrived */
	char *body;		/* collected body (always for non-2xx), NUL-terminated */
	size_t body_len;
	double retry_after;	/* seconds from retry-after-ms / Retry-After, -1 if none */
	int should_retry;	/* x-should-retry: 1 true, 0 false, -1 absent */
	int transport_error;	/* connection failed, timed out or dropped */
	int timed_out;
	int aborted;		/* the line callback asked to stop */
	int too_big;		/* over max_body: reading stopped there (what
				 * came before is in body, or was streamed) */
	char error[256];	/* curl's message for a transport error */
};

/* Performs one POST. Returns 0 when an HTTP response was received (any
 * status), -1 on a transport error (details in resp->error). */
int hq_http_post(const struct hq_http_request *req, struct hq_http_response *resp);
void hq_http_response_free(struct hq_http_response *resp);

/* Seconds to wait before retry number `attempt` (0-based) of a request
 * that failed with `resp`, or -1 when it must not be retried. */
double hq_http_retry_delay(const struct hq_http_response *resp, int attempt);

/* Parses Retry-After style values: retry-after-ms (milliseconds), else
 * retry-after (seconds, fractional allowed, or an HTTP-date). Either may
 * be NULL. Returns seconds, or -1 when neither is usable. */
double hq_http_parse_retry_after(const char *ms, const char *value, double now);

/* Backoff without a server hint: min(0.5 * 2^attempt, 8) with jitter. */
double hq_http_backoff(int attempt);

#endif
