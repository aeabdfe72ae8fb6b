/*
 * remote — a directory or an S3 bucket (remote.h). S3 through libcurl's
 * CURLOPT_AWS_SIGV4; libcurl 7.88 (Debian 12) signs the path and the query
 * exactly as written and hashes no streamed body, so this file writes the
 * URL already in S3's canonical encoding (uppercase %XX, query parameters
 * sorted, "name=" even when empty) and always sends x-amz-content-sha256
 * itself. It adds no "Name:" header removals and no X-Amz-Date, both of
 * which 7.88 would sign wrongly. One easy handle is kept, so connections
 * are reused.
 */
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/remote.h"
#include "hq/time.h"

#define TRIES 4
#define RETRY_AFTER_MAX 60
#define EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
/* a list answer or an error body past this is not S3's */
#define BODY_MAX (8 << 20)

struct hq_remote {
	char *name;
	char *dir;                       /* file:// */
	char *bucket, *prefix;           /* s3:// (prefix "" or "p/") */
	char *base;                      /* https://host[:port] or scheme://bucket.host */
	int virtual_host;
	char *access, *secret, *sigv4;
	CURL *curl;
	FILE *trace;
};

static int
valid_name(const char *name, struct hq_err *e)
{
	const char *p;

	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
		    (*p == '.' && p != name)))
			break;
	if (*p || p == name) {
		hq_err_set(e, "not an object name: '%.60s'", name);
		return -1;
	}
	return 0;
}

/* S3's canonical encoding: all but A-Za-z0-9-._~ (and '/' when kept) as
 * uppercase %XX. */
static void
s3_encode(struct hq_buf *b, const char *s, int keep_slash)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
		    c == '~' || (keep_slash && c == '/'))
			hq_buf_putc(b, (char)c);
		else
			hq_buf_printf(b, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

struct hq_remote *
hq_remote_open(const struct hq_remote_conf *c, struct hq_err *e)
{
	struct hq_remote *r;
	const char *u = c->url;
	struct hq_buf b = {0};

	if (!u || !*u) {
		hq_err_set(e, "no remote: set remote under [archive] in the config "
		    "(s3://BUCKET[/PREFIX] or file:///DIR), or give --remote");
		return NULL;
	}
	r = hq_xcalloc(1, sizeof *r);
	r->name = hq_xstrdup(u);
	r->trace = c->trace;
	if (!strncmp(u, "file://", 7)) {
		if (u[7] != '/') {
			hq_err_set(e, "remote '%s': a directory is file:///DIR "
			    "(an absolute path)", u);
			goto fail;
		}
		r->dir = hq_xstrdup(u + 7);
		return r;
	}
	if (strncmp(u, "s3://", 5)) {
		hq_err_set(e, "remote '%s': not s3://BUCKET[/PREFIX] nor file:///DIR", u);
		goto fail;
	}
	{
		const char *bk = u + 5, *slash = strchr(bk, '/');
		size_t bl = slash ? (size_t)(slash - bk) : strlen(bk);
		const char *p;

		r->bucket = hq_xmalloc(bl + 1);
		memcpy(r->bucket, bk, bl);
		r->bucket[bl] = 0;
		for (p = r->bucket; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			    *p == '-' || *p == '.'))
				break;
		if (!bl || *p) {
			hq_err_set(e, "remote '%s': not a bucket name", u);
			goto fail;
		}
		hq_buf_puts(&b, slash ? slash + 1 : "");
		while (b.len && b.data[b.len - 1] == '/')
			b.data[--b.len] = 0;
		if (b.len)
			hq_buf_putc(&b, '/');
		r->prefix = hq_buf_steal(&b);
	}
	if (!c->access_key || !*c->access_key || !c->secret_key || !*c->secret_key) {
		hq_err_set(e, "no credentials for %s: set HQ_ARCHIVE_ACCESS_KEY and "
		    "HQ_ARCHIVE_SECRET_KEY, or write access_key and secret_key "
		    "in the credentials file (0600)", u);
		goto fail;
	}
	r->access = hq_xstrdup(c->access_key);
	r->secret = hq_xstrdup(c->secret_key);
	{
		const char *region = c->region && *c->region ? c->region : "us-east-1";
		const char *ep = c->endpoint, *host;
		struct hq_buf g = {0};

		hq_buf_printf(&g, "aws:amz:%s:s3", region);
		r->sigv4 = hq_buf_steal(&g);
		if (!ep || !*ep)
			hq_buf_printf(&g, "https://s3.%s.amazonaws.com", region);
		else
			hq_buf_puts(&g, ep);
		while (g.len && g.data[g.len - 1] == '/')
			g.data[--g.len] = 0;
		if (!(host = strstr(g.data, "://")) || strchr(host + 3, '/') ||
		    !host[3]) {
			hq_err_set(e, "endpoint '%s': not https://HOST[:PORT]", g.data);
			hq_buf_free(&g);
			goto fail;
		}
		r->virtual_host = c->virtual_host >= 0 ? c->virtual_host : !ep || !*ep;
		if (r->virtual_host)
			hq_buf_printf(&b, "%.*s://%s.%s", (int)(host - g.data), g.data,
			    r->bucket, host + 3);
		else
			hq_buf_printf(&b, "%s/%s", g.data, r->bucket);
		r->base = hq_buf_steal(&b);
		hq_buf_free(&g);
	}
	if (!(r->curl = curl_easy_init())) {
		hq_err_set(e, "libcurl cannot start: %s",
		    curl_easy_strerror(CURLE_FAILED_INIT));
		goto fail;
	}
	return r;
fail:
	hq_buf_free(&b);
	hq_remote_free(r);
	return NULL;
}

void
hq_remote_free(struct hq_remote *r)
{
	if (!r)
		return;
	if (r->curl)
		curl_easy_cleanup(r->curl);
	free(r->name);
	free(r->dir);
	free(r->bucket);
	free(r->prefix);
	free(r->base);
	free(r->access);
	if (r->secret) {
		memset(r->secret, 0, strlen(r->secret));
		free(r->secret);
	}
	free(r->sigv4);
	free(r);
}

const char *
hq_remote_name(const struct hq_remote *r)
{
	return r->name;
}

/* ---- a directory ---- */

static char *
dir_path(const struct hq_remote *r, const char *name)
{
	struct hq_buf b = {0};

	hq_buf_printf(&b, "%s/%s", r->dir, name);
	return hq_buf_steal(&b);
}

/* Copy src to dst, whole or not at all (dst.tmp renamed), 0600. */
static int
copy_file(const char *src, const char *dst, int64_t max, struct hq_err *e)
{
	struct hq_buf tmp = {0};
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;
	int64_t total = 0;
	ssize_t n;

	if (in < 0) {
		hq_err_set(e, "%s: %s", src, strerror(errno));
		return errno == ENOENT ? 1 : -1;
	}
	hq_buf_printf(&tmp, "%s.tmp", dst);
	if ((out = open(tmp.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0) {
		hq_err_set(e, "%s: %s", tmp.data, strerror(errno));
		goto done;
	}
	while ((n = read(in, buf, sizeof buf)) > 0) {
		total += n;
		if (max && total > max) {
			hq_err_set(e, "%s: larger than %lld bytes", src, (long long)max);
			goto done;
		}
		if (write(out, buf, (size_t)n) != n) {
			hq_err_set(e, "%s: %s", tmp.data, strerror(errno));
			goto done;
		}
	}
	if (n < 0 || fsync(out)) {
		hq_err_set(e, "%s: %s", n < 0 ? src : tmp.data, strerror(errno));
		goto done;
	}
	if (close(out)) {
		out = -1;
		hq_err_set(e, "%s: %s", tmp.data, strerror(errno));
		goto done;
	}
	out = -1;
	if (rename(tmp.data, dst)) {
		hq_err_set(e, "%s: %s", dst, strerror(errno));
		goto done;
	}
	rc = 0;
done:
	close(in);
	if (out >= 0)
		close(out);
	if (rc)
		unlink(tmp.data);
	hq_buf_free(&tmp);
	return rc;
}

static int
dir_sync(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	fsync(fd);
	close(fd);
	return 0;
}

/* ---- S3 ---- */

struct sink {
	FILE *f;                 /* the object's bytes, or NULL: into body */
	struct hq_buf body;
	int64_t n, max;
};

static size_t
sink_write(char *p, size_t size, size_t nmemb, void *u)
{
	struct sink *s = u;
	size_t n = size * nmemb;

	s->n += (int64_t)n;
	if (s->max && s->n > s->max)
		return 0;
	if (s->f)
		return fwrite(p, 1, n, s->f);
	hq_buf_append(&s->body, p, n);
	return n;
}

static size_t
source_read(char *p, size_t size, size_t nmemb, void *u)
{
	size_t n = fread(p, 1, size * nmemb, u);

	return n == 0 && ferror((FILE *)u) ? CURL_READFUNC_ABORT : n;
}

/* S3's error code from its XML body, e.g. SignatureDoesNotMatch; never the
 * body, which echoes the access key. */
static void
s3_code(const struct hq_buf *body, char *code, size_t n)
{
	const char *s = body->data ? strstr(body->data, "<Code>") : NULL;
	const char *t = s ? strstr(s, "</Code>") : NULL;
	size_t i, k = 0;

	code[0] = 0;
	if (!s || !t)
		return;
	for (i = 6; s + i < t && k + 1 < n && k < 64; i++)
		if ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9'))
			code[k++] = s[i];
	code[k] = 0;
}

static int
retryable_curl(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT: case CURLE_GOT_NOTHING: case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR: case CURLE_PARTIAL_FILE: case CURLE_OPERATION_TIMEDOUT:
	case CURLE_COULDNT_RESOLVE_HOST:
		return 1;
	default:
		return 0;
	}
}

static void
nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The request's URL: the bucket's, then the key's under the prefix (none
 * for the bucket itself), then the query. */
static void
s3_url(struct hq_buf *url, const struct hq_remote *r, const char *key,
    const char *query)
{
	hq_buf_puts(url, r->base);
	hq_buf_putc(url, '/');
	if (key) {
		s3_encode(url, r->prefix, 1);
		s3_encode(url, key, 1);
	}
	if (r->virtual_host == 0 && !key)
		url->data[--url->len] = 0;   /* "/bucket?...": s3rver signs the bucket without '/' */
	if (query)
		hq_buf_printf(url, "?%s", query);
}

/* Sets r's handle up for one try: the URL signed with r's keys, headers
 * h, the answer into sink (emptied first), up the body of a PUT. */
static int
s3_try_setup(struct hq_remote *r, const char *url, struct curl_slist *h,
    const char *method, FILE *up, int64_t up_size, struct sink *sink,
    const char *what, struct hq_err *e)
{
	CURL *c = r->curl;

	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_AWS_SIGV4, r->sigv4);
	curl_easy_setopt(c, CURLOPT_USERNAME, r->access);
	curl_easy_setopt(c, CURLOPT_PASSWORD, r->secret);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, sink);
	if (sink->f) {
		rewind(sink->f);
		if (ftruncate(fileno(sink->f), 0)) {
			hq_err_set(e, "%s: %s", what, strerror(errno));
			return -1;
		}
	}
	hq_buf_reset(&sink->body);
	sink->n = 0;
	if (up) {
		rewind(up);
		curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(c, CURLOPT_READFUNCTION, source_read);
		curl_easy_setopt(c, CURLOPT_READDATA, up);
		curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)up_size);
	} else if (!strcmp(method, "HEAD")) {
		curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	} else if (strcmp(method, "GET")) {
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	}
	return 0;
}

/* An error answer that went to sink's file, read back into its body
 * (where s3_code looks for S3's code). */
static void
sink_read_back(struct sink *sink)
{
	long n = ftell(sink->f);

	if (n > 0 && n < BODY_MAX) {
		char *p = hq_xmalloc((size_t)n + 1);
		rewind(sink->f);
		p[fread(p, 1, (size_t)n, sink->f)] = 0;
		hq_buf_puts(&sink->body, p);
		free(p);
	}
}

/* One try's line for --trace: the status and S3's code, or curl's error;
 * and the seconds since t0. */
static void
s3_trace(const struct hq_remote *r, const char *method, const char *key,
    CURLcode rc, long status, const char *code, double t0)
{
	if (r->trace && rc == CURLE_OK)
		fprintf(r->trace, "%s %s: %ld%s%s, %.3f s\n", method,
		    key ? key : "(list)", status, *code ? " " : "", code,
		    hq_time_monotonic() - t0);
	else if (r->trace)
		fprintf(r->trace, "%s %s: %s, %.3f s\n", method,
		    key ? key : "(list)", curl_easy_strerror(rc), hq_time_monotonic() - t0);
}

/*
 * One S3 request, tried again while it fails for a passing reason. key
 * NULL: the bucket (query holds the list's parameters). up: the body of a
 * PUT (its size and sha256); sink: where the answer goes. Returns the
 * final HTTP status (2xx, or 404 when missing404), or -1 with e set.
 */
static long
s3_request(struct hq_remote *r, const char *method, const char *key,
    const char *query, FILE *up, int64_t up_size, const char *sha256,
    struct sink *sink, int missing404, const char *what, struct hq_err *e)
{
	struct hq_buf url = {0};
	char hdr[128], code[80];
	const char *why = NULL;
	int attempt;
	long status = -1;

	s3_url(&url, r, key, query);
	snprintf(hdr, sizeof hdr, "x-amz-content-sha256: %s",
	    sha256 ? sha256 : up ? "UNSIGNED-PAYLOAD" : EMPTY_SHA256);
	for (attempt = 1; attempt <= TRIES; attempt++) {
		struct curl_slist *h = curl_slist_append(NULL, hdr);
		CURL *c = r->curl;
		CURLcode rc;
		curl_off_t retry_after = -1;
		double t0 = hq_time_monotonic(), wait;

		if (s3_try_setup(r, url.data, h, method, up, up_size, sink, what, e)) {
			curl_slist_free_all(h);
			status = -1;    /* not the last try's status: e is set */
			goto done;
		}
		rc = curl_easy_perform(c);
		curl_slist_free_all(h);
		status = 0;
		code[0] = 0;
		if (rc == CURLE_OK) {
			curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
			curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &retry_after);
			if (status >= 300 && sink->f)
				sink_read_back(sink);
			s3_code(&sink->body, code, sizeof code);
		}
		s3_trace(r, method, key, rc, status, code, t0);
		if (rc == CURLE_OK && ((status >= 200 && status < 300) ||
		    (status == 404 && missing404)))
			goto done;
		if (rc == CURLE_WRITE_ERROR && sink->max && sink->n > sink->max) {
			hq_err_set(e, "%s: larger than %lld bytes", what,
			    (long long)sink->max);
			status = -1;
			goto done;
		}
		if (rc != CURLE_OK && !retryable_curl(rc)) {
			hq_err_set(e, "%s: %s", what, curl_easy_strerror(rc));
			status = -1;
			goto done;
		}
		if (rc == CURLE_OK && !(status == 408 || status == 429 || status >= 500)) {
			hq_err_set(e, "%s: the server refused it: HTTP %ld%s%s%s", what,
			    status, *code ? " " : "", code,
			    status == 403 ? " (check the access key, the secret key "
			    "and the region)" : "");
			status = -1;
			goto done;
		}
		why = rc != CURLE_OK ? curl_easy_strerror(rc) : NULL;
		if (why)
			hq_err_set(e, "%s: %s, %d times", what, why, attempt);
		else
			hq_err_set(e, "%s: the server failed: HTTP %ld%s%s, %d times",
			    what, status, *code ? " " : "", code, attempt);
		if (attempt == TRIES)
			break;
		wait = 0.5 * (1 << (attempt - 1));
		if (retry_after > 0)
			wait = retry_after > RETRY_AFTER_MAX ? RETRY_AFTER_MAX
			    : (double)retry_after;
		nap(wait);
	}
	status = -1;
done:
	hq_buf_free(&url);
	return status;
}

/* ---- the operations ---- */

int
hq_remote_put(struct hq_remote *r, const char *name, const char *path,
    const char *sha256, struct hq_err *e)
{
	struct sink sink = { .max = BODY_MAX };
	struct hq_buf what = {0};
	struct stat st;
	FILE *f;
	long status;

	if (valid_name(name, e))
		return -1;
	if (r->dir) {
		char *dst = dir_path(r, name);
		int rc;
		if (mkdir(r->dir, 0700) && errno != EEXIST) {
			hq_err_set(e, "%s: %s", r->dir, strerror(errno));
			free(dst);
			return -1;
		}
		rc = copy_file(path, dst, 0, e);
		free(dst);
		if (rc == 0)
			dir_sync(r->dir);
		return rc ? -1 : 0;
	}
	if (!(f = fopen(path, "rb")) || fstat(fileno(f), &st)) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	hq_buf_printf(&what, "PUT %s", name);
	status = s3_request(r, "PUT", name, NULL, f, st.st_size, sha256, &sink, 0,
	    what.data, e);
	fclose(f);
	hq_buf_free(&what);
	hq_buf_free(&sink.body);
	return status < 0 ? -1 : 0;
}

int
hq_remote_get(struct hq_remote *r, const char *name, const char *path,
    int64_t max, struct hq_err *e)
{
	struct sink sink = { .max = max };
	struct hq_buf what = {0};
	long status;
	int fd;

	if (valid_name(name, e))
		return -1;
	if (r->dir) {
		char *src = dir_path(r, name);
		int rc = copy_file(src, path, max, e);
		free(src);
		if (r->trace)
			fprintf(r->trace, "GET %s: %s\n", name, rc == 0 ? "ok" :
			    rc == 1 ? "missing" : "failed");
		return rc;
	}
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0 ||
	    !(sink.f = fdopen(fd, "w+b"))) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	hq_buf_printf(&what, "GET %s", name);
	status = s3_request(r, "GET", name, NULL, NULL, 0, NULL, &sink, 1,
	    what.data, e);
	hq_buf_free(&what);
	hq_buf_free(&sink.body);
	if (fflush(sink.f) && status >= 0) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		status = -1;
	}
	fclose(sink.f);
	if (status == 404 || status < 0)
		unlink(path);
	return status == 404 ? 1 : status < 0 ? -1 : 0;
}

int
hq_remote_del(struct hq_remote *r, const char *name, struct hq_err *e)
{
	struct sink sink = { .max = BODY_MAX };
	struct hq_buf what = {0};
	long status;

	if (valid_name(name, e))
		return -1;
	if (r->dir) {
		char *p = dir_path(r, name);
		int rc = unlink(p) && errno != ENOENT ? -1 : 0;
		if (rc)
			hq_err_set(e, "%s: %s", p, strerror(errno));
		free(p);
		return rc;
	}
	hq_buf_printf(&what, "DELETE %s", name);
	status = s3_request(r, "DELETE", name, NULL, NULL, 0, NULL, &sink, 1,
	    what.data, e);
	hq_buf_free(&what);
	hq_buf_free(&sink.body);
	return status < 0 ? -1 : 0;
}

/* The text of the next <tag>...</tag> at or after p into val (entities
 * are left: hq's names have none); the position after it, or NULL. */
static const char *
xml_next(const char *p, const char *tag, char *val, size_t n)
{
	char open[40], close[40];
	const char *s, *t;

	snprintf(open, sizeof open, "<%s>", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	if (!(s = strstr(p, open)) || !(t = strstr(s, close)))
		return NULL;
	s += strlen(open);
	snprintf(val, n, "%.*s", (int)(t - s), s);
	return t + strlen(close);
}

static int
s3_list(struct hq_remote *r, int (*each)(const char *, int64_t, void *),
    void *u, struct hq_err *e)
{
	char token[1024] = "", val[1100];
	int rc = 0;

	for (;;) {
		struct sink sink = { .max = BODY_MAX };
		struct hq_buf q = {0};
		const char *p;
		int truncated;

		/* sorted by name, each value encoded: 7.88 signs it as is */
		if (*token) {
			hq_buf_puts(&q, "continuation-token=");
			s3_encode(&q, token, 0);
			hq_buf_putc(&q, '&');
		}
		hq_buf_puts(&q, "list-type=2&max-keys=1000&prefix=");
		s3_encode(&q, r->prefix, 0);
		if (s3_request(r, "GET", NULL, q.data, NULL, 0, NULL, &sink, 0,
		    "list the objects", e) < 0) {
			hq_buf_free(&q);
			hq_buf_free(&sink.body);
			return -1;
		}
		hq_buf_free(&q);
		truncated = sink.body.data &&
		    strstr(sink.body.data, "<IsTruncated>true</IsTruncated>") != NULL;
		token[0] = 0;
		if (truncated)
			xml_next(sink.body.data, "NextContinuationToken", token, sizeof token);
		for (p = sink.body.data ? sink.body.data : ""; rc == 0 &&
		    (p = xml_next(p, "Contents", val, sizeof val));) {
			char k[1100], sz[40];
			const char *name;
			if (!xml_next(val, "Key", k, sizeof k) ||
			    !xml_next(val, "Size", sz, sizeof sz))
				continue;
			name = k + strlen(r->prefix);
			if (strncmp(k, r->prefix, strlen(r->prefix)) || strchr(name, '/'))
				continue;
			rc = each(name, strtoll(sz, NULL, 10), u);
		}
		hq_buf_free(&sink.body);
		if (rc || !truncated)
			return rc ? -1 : 0;
		if (!*token) {
			hq_err_set(e, "list the objects: a truncated list without "
			    "its continuation");
			return -1;
		}
	}
}

int
hq_remote_list(struct hq_remote *r,
    int (*each)(const char *name, int64_t size, void *u), void *u,
    struct hq_err *e)
{
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (!r->dir)
		return s3_list(r, each, u, e);
	if (!(d = opendir(r->dir))) {
		if (errno == ENOENT)
			return 0;
		hq_err_set(e, "%s: %s", r->dir, strerror(errno));
		return -1;
	}
	while (rc == 0 && (de = readdir(d))) {
		struct stat st;
		char *p;
		if (de->d_name[0] == '.' || strstr(de->d_name, ".tmp"))
			continue;
		p = dir_path(r, de->d_name);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			rc = each(de->d_name, st.st_size, u);
		free(p);
	}
	closedir(d);
	return rc ? -1 : 0;
}
