/* llm — the provider-neutral half: requests, retries, streams (the
 * conversation they carry: llm_conv.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/http.h"
#include "hq/llm.h"
#include "hq/llm_provider.h"
#include "hq/time.h"

static const struct hq_llm_provider *const providers[] = {
	&hq_llm_openai, &hq_llm_anthropic, &hq_llm_gemini, &hq_llm_ollama,
};

static const struct hq_llm_provider *
find_provider(const char *name)
{
	for (size_t i = 0; i < sizeof providers / sizeof providers[0]; i++)
		if (name && !strcmp(providers[i]->name, name))
			return providers[i];
	return NULL;
}

int
hq_llm_provider_known(const char *name)
{
	return find_provider(name) != NULL;
}

const char *
hq_llm_default_base_url(const char *provider, int keyed)
{
	const struct hq_llm_provider *p = find_provider(provider);

	if (p && keyed && p->keyed_base_url)
		return p->keyed_base_url;
	return p ? p->default_base_url : NULL;
}

const char *
hq_llm_key_env(const char *provider)
{
	const struct hq_llm_provider *p = find_provider(provider);
	return p ? p->key_env : NULL;
}

int
hq_llm_needs_key(const char *provider)
{
	const struct hq_llm_provider *p = find_provider(provider);
	return p && p->needs_key;
}

/* ---- small helpers the providers share ---- */

void
hq_llm_set(char **dst, const char *src)
{
	char *c = src ? hq_xstrdup(src) : NULL;
	free(*dst);
	*dst = c;
}

int
hq_llm_bearer_headers(const struct hq_llm_options *opt, char hdr[][1024], int max)
{
	if (!opt->api_key || !*opt->api_key || max < 1)
		return 0;
	int w = snprintf(hdr[0], sizeof hdr[0], "Authorization: Bearer %s", opt->api_key);
	return w < 0 || (size_t)w >= sizeof hdr[0] ? -1 : 1;
}

int
hq_llm_url(char *buf, size_t n, const char *base, const char *fmt, ...)
{
	size_t len = strlen(base);
	va_list ap;
	int w;

	while (len && base[len - 1] == '/')
		len--;
	if (len >= n)
		return -1;
	memcpy(buf, base, len);
	va_start(ap, fmt);
	w = vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
	return w < 0 || (size_t)w >= n - len ? -1 : 0;
}

void
hq_llm_error_text(const cJSON *body, char *buf, size_t n)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(body, "error");
	const char *msg = cJSON_IsString(e) ? e->valuestring : hq_json_str(e, "message");
	if (msg)
		snprintf(buf, n, "%s", msg);
}

cJSON *
hq_llm_tool_decls(const struct hq_llm_tool *tools, size_t ntools, const char *schema_key)
{
	cJSON *a = cJSON_CreateArray(), *t;

	for (size_t i = 0; a && i < ntools; i++) {
		t = hq_json_add_object(a);
		cJSON_AddStringToObject(t, "name", tools[i].name);
		cJSON_AddStringToObject(t, "description", tools[i].description);
		cJSON_AddItemToObject(t, schema_key, hq_json_schema_clean(tools[i].parameters));
	}
	return a;
}

/* tools as [{"type":"function","function":{name,description,parameters}}] */
static cJSON *
function_tools(const struct hq_llm_tool *tools, size_t ntools)
{
	cJSON *a = cJSON_CreateArray(), *decls, *f, *t;

	decls = hq_llm_tool_decls(tools, ntools, "parameters");
	while (a && (f = cJSON_DetachItemFromArray(decls, 0))) {
		t = hq_json_add_object(a);
		cJSON_AddStringToObject(t, "type", "function");
		cJSON_AddItemToObject(t, "function", f);
	}
	cJSON_Delete(decls);
	return a;
}

/* One message of an OpenAI-style chat. */
static void
chat_message(cJSON *msgs, const struct hq_llm_msg *cm, int ollama)
{
	static const char *const roles[] = { "user", "assistant", "tool" };
	cJSON *m = hq_json_add_object(msgs), *tc, *c, *f;

	cJSON_AddStringToObject(m, "role", roles[cm->role]);
	if (cm->role == HQ_LLM_TOOL && !ollama)
		cJSON_AddStringToObject(m, "tool_call_id", cm->call_id);
	/* OpenAI wants null beside tool calls; Ollama a string */
	if (!ollama && cm->ncalls && !*cm->text)
		cJSON_AddNullToObject(m, "content");
	else
		cJSON_AddStringToObject(m, "content", cm->text);
	if (cm->role == HQ_LLM_TOOL && ollama) {
		cJSON_AddStringToObject(m, "tool_name", cm->tool_name);
		cJSON_AddStringToObject(m, "tool_call_id", cm->call_id);
	}
	if (!cm->ncalls)
		return;
	tc = cJSON_AddArrayToObject(m, "tool_calls");
	for (size_t k = 0; k < cm->ncalls; k++) {
		c = hq_json_add_object(tc);
		cJSON_AddStringToObject(c, "id", cm->calls[k].id);
		if (!ollama)
			cJSON_AddStringToObject(c, "type", "function");
		f = cJSON_AddObjectToObject(c, "function");
		cJSON_AddStringToObject(f, "name", cm->calls[k].name);
		if (ollama)
			cJSON_AddItemToObject(f, "arguments", hq_json_object(cm->calls[k].args));
		else
			cJSON_AddStringToObject(f, "arguments", cm->calls[k].args);
	}
}

cJSON *
hq_llm_chat_request(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
    const struct hq_llm_tool *tools, size_t ntools, int stream)
{
	/* Ollama's own /api/chat differs from OpenAI's in a few places */
	int ollama = opt->provider && !strcmp(opt->provider, "ollama");
	cJSON *r = cJSON_CreateObject(), *msgs, *m;

	if (!r)
		return NULL;
	cJSON_AddStringToObject(r, "model", opt->model);
	msgs = cJSON_AddArrayToObject(r, "messages");
	if (conv->system) {
		m = hq_json_add_object(msgs);
		cJSON_AddStringToObject(m, "role", "system");
		cJSON_AddStringToObject(m, "content", conv->system);
	}
	for (size_t i = 0; i < conv->n; i++)
		chat_message(msgs, &conv->msgs[i], ollama);
	if (ntools)
		cJSON_AddItemToObject(r, "tools", function_tools(tools, ntools));
	if (!ollama && opt->max_tokens > 0)
		cJSON_AddNumberToObject(r, "max_tokens", opt->max_tokens);
	cJSON_AddBoolToObject(r, "stream", stream);
	if (!ollama && stream)
		cJSON_AddBoolToObject(cJSON_AddObjectToObject(r, "stream_options"),
		    "include_usage", 1);
	if (ollama && opt->max_tokens > 0)
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(r, "options"), "num_predict",
		    opt->max_tokens);
	return r;
}

/* the items array of the last message when it is role's, else of a new
 * message of that role */
static cJSON *
turn(cJSON *msgs, const char *role, const char *items)
{
	cJSON *last = cJSON_GetArrayItem(msgs, cJSON_GetArraySize(msgs) - 1), *m;
	const char *was = hq_json_str(last, "role");

	if (was && !strcmp(was, role))
		return cJSON_GetObjectItemCaseSensitive(last, items);
	m = hq_json_add_object(msgs);
	cJSON_AddStringToObject(m, "role", role);
	return cJSON_AddArrayToObject(m, items);
}

void
hq_llm_turns(cJSON *msgs, const struct hq_llm_conv *conv, const char *model,
    const char *items, void (*add)(cJSON *items, const struct hq_llm_msg *m))
{
	for (size_t i = 0; i < conv->n; i++)
		add(turn(msgs, conv->msgs[i].role == HQ_LLM_ASSISTANT ? model : "user", items),
		    &conv->msgs[i]);
}

/* ---- streams ---- */

struct hq_llm_partial *
hq_llm_stream_new_part(struct hq_llm_stream *s, long index)
{
	if (s->nparts == s->capparts) {
		s->capparts = s->capparts ? s->capparts * 2 : 4;
		s->parts = hq_xrealloc(s->parts, s->capparts * sizeof *s->parts);
	}
	struct hq_llm_partial *p = &s->parts[s->nparts++];
	memset(p, 0, sizeof *p);
	p->index = index;
	return p;
}

/* The slot for a fragment: the latest call with this index, unless the
 * fragment plainly starts another call — a different id, or a name when
 * the slot already has one and some arguments (Ollama's /v1 stream sends
 * index 0 for every call, ollama#15457). */
struct hq_llm_partial *
hq_llm_stream_part(struct hq_llm_stream *s, long index,
    const char *id, const char *name)
{
	struct hq_llm_partial *slot = NULL;
	for (size_t i = s->nparts; i-- > 0;)
		if (s->parts[i].index == index) {
			slot = &s->parts[i];
			break;
		}
	if (slot) {
		int other_id = id && *id && slot->id && strcmp(slot->id, id);
		int restart = !(id && *id) && name && *name && slot->name && slot->args.len;
		if (!other_id && !restart)
			return slot;
	}
	return hq_llm_stream_new_part(s, index);
}

void
hq_llm_stream_text(struct hq_llm_stream *s, const char *text)
{
	size_t n = strlen(text);
	if (!n)
		return;
	hq_buf_append(&s->text, text, n);
	if (s->on_token)
		s->on_token(s->ctx, text, n);
}

void
hq_llm_stream_fail(struct hq_llm_stream *s, int retryable, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof s->error, fmt, ap);
	va_end(ap);
	s->failed = 1;
	s->retryable = retryable;
}

static void
stream_free(struct hq_llm_stream *s)
{
	free(s->text.data);
	for (size_t i = 0; i < s->nparts; i++) {
		free(s->parts[i].id);
		free(s->parts[i].name);
		free(s->parts[i].signature);
		free(s->parts[i].args.data);
	}
	free(s->parts);
	free(s->signature);
	free(s->stop_reason);
	free(s->event.data);
	free(s->data.data);
	memset(s, 0, sizeof *s);
}

static void
synth_id(char **dst)
{
	static unsigned long counter;
	char buf[64];
	snprintf(buf, sizeof buf, "call_hq_%lx_%lu", (unsigned long)time(NULL), ++counter);
	hq_llm_set(dst, buf);
}

/* s cut to at most max bytes, at a character */
static void
cut_string(char *s, size_t max)
{
	if (!s || strlen(s) <= max)
		return;
	while (max && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	s[max] = '\0';
}

/* What a server or model sends is echoed into the conversation, events,
 * the run log and the terminal: a call's arguments over the limit are
 * dropped (the agent tells the model), an id too long for one is made up
 * anew, a name is cut. */
static void
bound_call(struct hq_llm_call *c)
{
	size_t n = strlen(c->args);

	if (n > HQ_LLM_MAX_ARGS) {
		c->args_dropped = n;
		hq_llm_set(&c->args, "{}");
	}
	if (strlen(c->id) > HQ_LLM_MAX_NAME)
		synth_id(&c->id);
	cut_string(c->name, HQ_LLM_MAX_NAME);
}

static int
cut_by_length(const char *stop)
{
	return stop && (!strcmp(stop, "length") || !strcmp(stop, "max_tokens") ||
	    !strcmp(stop, "MAX_TOKENS"));
}

/* moves what the stream assembled into the reply */
static void
stream_finish(struct hq_llm_stream *s, struct hq_llm_reply *r)
{
	r->text = hq_buf_steal(&s->text);
	r->signature = s->signature;
	s->signature = NULL;
	r->stop_reason = s->stop_reason;
	s->stop_reason = NULL;
	r->input_tokens = s->input_tokens;
	r->output_tokens = s->output_tokens;
	r->calls = hq_xcalloc(s->nparts ? s->nparts : 1, sizeof *r->calls);
	for (size_t i = 0; i < s->nparts; i++) {
		struct hq_llm_partial *p = &s->parts[i];
		int cut = s->needs_close && !p->closed;
		if (!cut && cut_by_length(r->stop_reason) && p->args.len) {
			cJSON *j = cJSON_Parse(p->args.data);
			cut = !j;
			cJSON_Delete(j);
		}
		if (cut || !p->name) {
			r->ncut++;
			continue;
		}
		struct hq_llm_call *c = &r->calls[r->ncalls++];
		c->name = p->name;
		p->name = NULL;
		c->signature = p->signature;
		p->signature = NULL;
		if (p->id && *p->id) {
			c->id = p->id;
			p->id = NULL;
		} else
			synth_id(&c->id);
		c->args = p->args.len ? hq_buf_steal(&p->args) : hq_xstrdup("{}");
		bound_call(c);
	}
	cut_string(r->stop_reason, HQ_LLM_MAX_NAME);
}

/* one SSE event's data, or one NDJSON line (event NULL), to the provider
 * as JSON; what is not JSON (keep-alives and the like) is passed over */
static void
provider_event(const struct hq_llm_provider *p, struct hq_llm_stream *s,
    const char *event, const char *data, size_t len)
{
	size_t done = p->done_marker ? strlen(p->done_marker) : 0;
	if (done && len >= done && !memcmp(data, p->done_marker, done)) {
		s->finished = 1;
		return;
	}
	cJSON *j = cJSON_ParseWithLength(data, len);
	if (!j)
		return;
	if (p->event(s, event, j) && !s->failed)
		hq_llm_stream_fail(s, 0, "out of memory reading the stream");
	cJSON_Delete(j);
}

static void
sse_dispatch(const struct hq_llm_provider *p, struct hq_llm_stream *s)
{
	if (s->have_data && !s->failed)
		provider_event(p, s, s->event.data ? s->event.data : "",
		    s->data.data ? s->data.data : "", s->data.len);
	s->have_data = 0;
	s->event.len = s->data.len = 0;
	if (s->event.data)
		s->event.data[0] = '\0';
	if (s->data.data)
		s->data.data[0] = '\0';
}

struct line_ctx {
	const struct hq_llm_provider *p;
	struct hq_llm_stream *s;
};

static int
on_line(void *ud, const char *line, size_t len)
{
	struct line_ctx *lc = ud;
	struct hq_llm_stream *s = lc->s;
	if (lc->p->framing == HQ_LLM_NDJSON) {
		if (len)
			provider_event(lc->p, s, NULL, line, len);
		return s->failed ? -1 : 0;
	}
	if (!len) {
		sse_dispatch(lc->p, s);
		return s->failed ? -1 : 0;
	}
	if (line[0] == ':')
		return 0;	/* comment */
	const char *colon = memchr(line, ':', len);
	size_t flen = colon ? (size_t)(colon - line) : len;
	const char *v = colon ? colon + 1 : line + len;
	size_t vlen = len - (size_t)(v - line);
	if (vlen && *v == ' ')
		v++, vlen--;
	if (flen == 4 && !memcmp(line, "data", 4)) {
		if (s->have_data)
			hq_buf_putc(&s->data, '\n');
		hq_buf_append(&s->data, v, vlen);
		s->have_data = 1;
	} else if (flen == 5 && !memcmp(line, "event", 5)) {
		s->event.len = 0;
		hq_buf_append(&s->event, v, vlen);
	} else if (flen == 5 && !memcmp(line, "error", 5)) {
		/* llama.cpp writes mid-stream errors as an "error:" field */
		s->event.len = 0;
		hq_buf_puts(&s->event, "error");
		hq_buf_append(&s->data, v, vlen);
		s->have_data = 1;
		sse_dispatch(lc->p, s);
		return s->failed ? -1 : 0;
	}
	return 0;
}

int
hq_llm_parse_stream(const char *provider, const char *data, size_t len,
    struct hq_llm_reply *reply, struct hq_err *e)
{
	memset(reply, 0, sizeof *reply);
	const struct hq_llm_provider *p = find_provider(provider);
	if (!p) {
		hq_err_set(e, "unknown provider '%s'", provider ? provider : "");
		return -1;
	}
	struct hq_llm_stream s = {0};
	struct line_ctx lc = { p, &s };
	size_t i = 0;
	while (i < len && !s.failed) {
		size_t j = i;
		while (j < len && data[j] != '\n' && data[j] != '\r')
			j++;
		if (j == len && j > i) {
			on_line(&lc, data + i, j - i);	/* a last line without an end */
			break;
		}
		if (j == len)
			break;
		if (on_line(&lc, data + i, j - i))
			break;
		i = j + 1;
		if (data[j] == '\r' && i < len && data[i] == '\n')
			i++;
	}
	if (!s.failed)
		sse_dispatch(p, &s);
	int rc = -1;
	if (s.failed)
		hq_err_set(e, "%s", s.error);
	else if (!s.finished)
		hq_err_set(e, "the stream ended early");
	else {
		stream_finish(&s, reply);
		rc = 0;
	}
	stream_free(&s);
	if (rc)
		hq_llm_reply_free(reply);
	return rc;
}

/* A whole 2xx body (len bytes) into s: 0, or -1 with s failed; from
 * names the server for messages. */
static int
body_parse(const struct hq_llm_provider *p, struct hq_llm_stream *s,
    const char *body, size_t len, const char *from)
{
	cJSON *j = body ? cJSON_ParseWithLength(body, len) : NULL;

	if (!j)
		hq_llm_stream_fail(s, 0, "the response from %s is not JSON", from);
	else if (p->parse(s, j) && !s->failed)
		hq_llm_stream_fail(s, 0, "cannot read the response from %s", from);
	cJSON_Delete(j);
	return s->failed ? -1 : 0;
}

int
hq_llm_parse_body(const char *provider, const char *data, size_t len,
    struct hq_llm_reply *reply, struct hq_err *e)
{
	const struct hq_llm_provider *p = find_provider(provider);
	struct hq_llm_stream s = {0};
	int rc = -1;

	memset(reply, 0, sizeof *reply);
	if (!p) {
		hq_err_set(e, "unknown provider '%s'", provider ? provider : "");
		return -1;
	}
	if (body_parse(p, &s, data, len, "the body"))
		hq_err_set(e, "%s", s.error);
	else {
		stream_finish(&s, reply);
		rc = 0;
	}
	stream_free(&s);
	return rc;
}

/* An error body's message into buf (empty when it has none it knows)
 * and the retry delay it asks for, or -1. */
static double
error_body(const struct hq_llm_provider *p, const char *body, size_t len,
    char *buf, size_t n)
{
	cJSON *j = cJSON_ParseWithLength(body, len);
	double delay = -1;

	buf[0] = '\0';
	if (j)
		p->error_message(j, buf, n);
	if (j && p->retry_delay)
		delay = p->retry_delay(j);
	cJSON_Delete(j);
	return delay;
}

double
hq_llm_error_body(const char *provider, const char *data, size_t len,
    char *buf, size_t n)
{
	const struct hq_llm_provider *p = find_provider(provider);

	if (!p) {
		buf[0] = '\0';
		return -1;
	}
	return error_body(p, data, len, buf, n);
}

/* the error's message; also a retry delay the body asks for, when the
 * headers gave none (Gemini's RetryInfo) */
static void
error_text(const struct hq_llm_provider *p, struct hq_http_response *hr,
    char *buf, size_t n)
{
	buf[0] = '\0';
	if (hr->body) {
		double delay = error_body(p, hr->body, strlen(hr->body), buf, n);
		if (hr->retry_after < 0)
			hr->retry_after = delay;
		if (!buf[0])
			snprintf(buf, n, "%.200s", hr->body);
	}
	/* keep one line */
	for (char *c = buf; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
}

static void
sleep_seconds(double d)
{
	if (d <= 0)
		return;
	struct timespec ts = { (time_t)d, (long)((d - (double)(time_t)d) * 1e9) };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* the text on_token was given, across the attempts of one turn: a retry
 * regenerates its reply from the start, and the part it repeats has been
 * shown already */
struct shown {
	hq_llm_token_fn on_token;
	void *ctx;
	struct hq_buf text;	/* what the current attempt has shown */
	size_t pos;		/* how much text this attempt has sent */
};

static void
shown_pass(struct shown *sh, const char *t, size_t n)
{
	if (!n)
		return;
	sh->on_token(sh->ctx, t, n);
	hq_buf_append(&sh->text, t, n);
	sh->pos += n;
}

static void
shown_token(void *ctx, const char *t, size_t n)
{
	struct shown *sh = ctx;
	if (sh->pos < sh->text.len) {
		size_t left = sh->text.len - sh->pos, k = n < left ? n : left;
		if (!memcmp(t, sh->text.data + sh->pos, k)) {
			sh->pos += k;	/* shown already */
			t += k;
			n -= k;
		} else {
			/* the retry says something else: show it whole, on a
			 * line of its own */
			if (sh->text.data[sh->text.len - 1] != '\n')
				sh->on_token(sh->ctx, "\n", 1);
			if (sh->pos)
				sh->on_token(sh->ctx, sh->text.data, sh->pos);
			sh->text.len = sh->pos;
		}
	}
	shown_pass(sh, t, n);
}

/* One request, ready to post as often as it takes. */
struct request {
	const struct hq_llm_provider *p;
	char url[2048];
	char hdr[6][1024];
	const char *hv[8];       /* the headers, NULL-terminated */
	char *body;
};

/* The request for conv: 0, or -1 with e set. */
static int
request_build(struct request *rq, const struct hq_llm_options *opt,
    const struct hq_llm_conv *conv, const struct hq_llm_tool *tools,
    size_t ntools, struct hq_err *e)
{
	const struct hq_llm_provider *p = find_provider(opt->provider);
	if (!p) {
		hq_err_set(e, "unknown provider '%s'", opt->provider ? opt->provider : "");
		return -1;
	}
	rq->p = p;
	if (p->endpoint(opt, opt->stream, rq->url, sizeof rq->url)) {
		hq_err_set(e, "base URL too long");
		return -1;
	}
	int nh = p->headers(opt, rq->hdr, 4);
	if (nh < 0) {
		hq_err_set(e, "API key too long");
		return -1;
	}
	int k = 0;
	rq->hv[k++] = "Content-Type: application/json";
	for (int i = 0; i < nh; i++)
		rq->hv[k++] = rq->hdr[i];
	rq->hv[k] = NULL;

	cJSON *req = p->request(opt, conv, tools, ntools, opt->stream);
	rq->body = req ? cJSON_PrintUnformatted(req) : NULL;
	cJSON_Delete(req);
	if (!rq->body) {
		hq_err_set(e, "out of memory building the request");
		return -1;
	}
	return 0;
}

/* What the answer hr to one attempt says: 1 the reply is in s; 0 it is
 * not (e says why; *delay the wait before trying again, -1 not again);
 * -2 the deadline passed (*timed_out set). */
static int
answer(const struct request *rq, const struct hq_llm_options *opt,
    struct hq_llm_stream *s, struct hq_http_response *hr, int attempt,
    double *delay, int *timed_out, struct hq_err *e)
{
	const char *url = rq->url;

	*delay = -1;
	if (hr->too_big && hr->status >= 200 && hr->status < 300) {
		/* the same request would get the same again */
		hq_err_set(e, "the reply from %s is larger than %zu MiB (counted "
		    "decompressed, a stream with its framing); stopped reading it",
		    url, HQ_HTTP_MAX_BODY >> 20);
	} else if (hr->transport_error) {
		if (hr->timed_out && opt->deadline > 0 && hq_time_monotonic() >= opt->deadline - 0.01) {
			*timed_out = 1;
			hq_err_set(e, "timed out waiting for the model");
			return -2;
		}
		hq_err_set(e, "cannot reach %s: %s", url, hr->error);
		*delay = hq_http_retry_delay(hr, attempt);
	} else if (hr->status >= 200 && hr->status < 300) {
		if (opt->stream) {
			sse_dispatch(rq->p, s);
			if (s->failed)
				hq_err_set(e, "%s", s->error);
			else if (!s->finished) {
				hq_err_set(e, "the stream from %s ended early (connection dropped)", url);
				s->failed = s->retryable = 1;
			}
		} else if (body_parse(rq->p, s, hr->body,
		    hr->body ? strlen(hr->body) : 0, url))
			hq_err_set(e, "%s", s->error);
		if (!s->failed)
			return 1;
		if (s->retryable)
			*delay = hq_http_backoff(attempt);
	} else {
		char msg[400];
		error_text(rq->p, hr, msg, sizeof msg);
		hq_err_set(e, "%s: HTTP %ld: %s", url, hr->status, msg);
		*delay = hq_http_retry_delay(hr, attempt);
		/* an exhausted quota or spend cap waits for the user, not for time */
		if (hr->body && (strstr(hr->body, "insufficient_quota") ||
		    strstr(hr->body, "PerDay")))
			*delay = -1;
	}
	return 0;
}

int
hq_llm_complete(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
    const struct hq_llm_tool *tools, size_t ntools,
    hq_llm_token_fn on_token, void *ctx,
    struct hq_llm_reply *reply, int *timed_out, struct hq_err *e)
{
	struct request rq;

	memset(reply, 0, sizeof *reply);
	*timed_out = 0;
	if (request_build(&rq, opt, conv, tools, ntools, e))
		return -1;

	int rc = -1;
	struct shown sh = { .on_token = on_token, .ctx = ctx };
	for (int attempt = 0;; attempt++) {
		sh.pos = 0;
		double left = opt->deadline > 0 ? opt->deadline - hq_time_monotonic() : 0;
		if (opt->deadline > 0 && left <= 0) {
			*timed_out = 1;
			hq_err_set(e, "timed out waiting for the model");
			break;
		}
		struct hq_llm_stream s = { .on_token = opt->stream && on_token ? shown_token : NULL,
					   .ctx = &sh };
		struct line_ctx lc = { rq.p, &s };
		struct hq_http_request hreq = {
			.url = rq.url, .headers = rq.hv, .body = rq.body,
			.timeout_ms = opt->deadline > 0 ? (long)(left * 1000) + 1 : 0,
			.on_line = opt->stream ? on_line : NULL, .ctx = &lc,
		};
		struct hq_http_response hr;
		hq_http_post(&hreq, &hr);
		double delay;
		int got = answer(&rq, opt, &s, &hr, attempt, &delay, timed_out, e);
		hq_http_response_free(&hr);
		if (got == 1) {
			stream_finish(&s, reply);
			rc = 0;
		}
		stream_free(&s);
		if (got)
			break;
		if (delay < 0 || attempt >= opt->max_retries)
			break;
		if (opt->deadline > 0 && hq_time_monotonic() + delay >= opt->deadline) {
			*timed_out = 1;
			break;
		}
		sleep_seconds(delay);
		reply->retries++;
	}
	free(rq.body);
	hq_buf_free(&sh.text);
	if (rc) {
		int retries = reply->retries;
		hq_llm_reply_free(reply);
		reply->retries = retries;
	}
	return rc;
}

/* ---- text tool mode ---- */

/* obj's first member of the three keys (a string one, when string) */
static const cJSON *
first_member(const cJSON *obj, const char *const keys[3], int string)
{
	const cJSON *v;

	for (int i = 0; i < 3; i++)
		if ((v = cJSON_GetObjectItemCaseSensitive(obj, keys[i])) &&
		    (!string || cJSON_IsString(v)))
			return v;
	return NULL;
}

static int
add_text_call(struct hq_llm_reply *r, const cJSON *j)
{
	if (cJSON_IsArray(j)) {
		const cJSON *it;
		int n = 0;
		cJSON_ArrayForEach(it, j)
			n += add_text_call(r, it);
		return n;
	}
	/* the names models use for them */
	static const char *const names[] = { "name", "tool", "function" };
	static const char *const argss[] = { "arguments", "parameters", "args" };
	const cJSON *name = first_member(j, names, 1), *args = first_member(j, argss, 0);
	if (!cJSON_IsObject(j) || !name)
		return 0;
	char *text = cJSON_IsString(args) ? hq_xstrdup(args->valuestring)
		   : args ? cJSON_PrintUnformatted(args) : hq_xstrdup("{}");
	if (!text)	/* cJSON could not print it */
		return 0;
	r->calls = hq_xrealloc(r->calls, (r->ncalls + 1) * sizeof *r->calls);
	struct hq_llm_call *c = &r->calls[r->ncalls++];
	memset(c, 0, sizeof *c);
	c->args = text;
	hq_llm_set(&c->name, name->valuestring);
	synth_id(&c->id);
	bound_call(c);
	return 1;
}

/* the JSON value starting at p (first '{' or '['), balanced, or NULL */
static cJSON *
parse_lenient(const char *p, size_t n)
{
	while (n && *p != '{' && *p != '[')
		p++, n--;
	if (!n)
		return NULL;
	/* models add prose or trailing text after the object: parse the
	 * balanced prefix only */
	int depth = 0, in_str = 0, esc = 0;
	size_t end = 0;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"')
			in_str = 1;
		else if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && --depth == 0) {
			end = i + 1;
			break;
		}
	}
	return end ? cJSON_ParseWithLength(p, end) : NULL;
}

size_t
hq_llm_text_calls(struct hq_llm_reply *r)
{
	size_t found = 0;
	const char *t = r->text ? r->text : "";
	/* fenced blocks and <tool_call> tags, in the order they appear */
	for (const char *p = t;;) {
		const char *tag = strstr(p, "<tool_call>"), *fence = strstr(p, "```");
		const char *open = tag && (!fence || tag < fence) ? tag : fence;
		if (!open)
			break;
		const char *close_mark = open == tag ? "</tool_call>" : "```";
		p = open + (open == tag ? strlen("<tool_call>") : 3);
		const char *e = strstr(p, close_mark);
		size_t n = e ? (size_t)(e - p) : strlen(p);
		cJSON *j = parse_lenient(p, n);
		if (j)
			found += (size_t)add_text_call(r, j);
		cJSON_Delete(j);
		if (!e)
			break;
		p = e + strlen(close_mark);
	}
	if (found)
		return found;
	/* a reply that is nothing but a JSON call */
	const char *s = t;
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	if (*s == '{') {
		cJSON *j = parse_lenient(s, strlen(s));
		if (j)
			found += (size_t)add_text_call(r, j);
		cJSON_Delete(j);
	}
	return found;
}
