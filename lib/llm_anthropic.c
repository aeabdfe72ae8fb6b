/* llm_anthropic — the Anthropic Messages API: system prompt at top level,
 * tool_use blocks with object input, tool results as tool_result blocks
 * at the start of the next user message, named SSE events. */
#include "hq/llm_provider.h"

#include <stdio.h>
#include <string.h>

static int endpoint(const struct hq_llm_options *opt, int stream, char *buf, size_t n)
{
	(void)stream;
	const char *base = opt->base_url;
	size_t len = hq_llm_base_len(base);
	int w = snprintf(buf, n, "%.*s/v1/messages", (int)len, base);
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

static int headers(const struct hq_llm_options *opt, char hdr[][1024], int max)
{
	int k = 0;
	if (max < 2)
		return -1;
	snprintf(hdr[k++], sizeof hdr[0], "anthropic-version: 2023-06-01");
	if (opt->api_key && *opt->api_key) {
		int w = snprintf(hdr[k++], sizeof hdr[0], "x-api-key: %s", opt->api_key);
		if (w < 0 || (size_t)w >= sizeof hdr[0])
			return -1;
	}
	return k;
}

static cJSON *request(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
		      const struct hq_llm_tool *tools, size_t ntools, int stream)
{
	cJSON *r = cJSON_CreateObject();
	if (!r)
		return NULL;
	cJSON_AddStringToObject(r, "model", opt->model);
	cJSON_AddNumberToObject(r, "max_tokens", opt->max_tokens > 0 ? opt->max_tokens : 4096);
	if (conv->system)
		cJSON_AddStringToObject(r, "system", conv->system);
	cJSON *msgs = cJSON_AddArrayToObject(r, "messages");
	for (size_t i = 0; i < conv->n; i++) {
		const struct hq_llm_msg *cm = &conv->msgs[i];
		if (cm->role == HQ_LLM_USER || cm->role == HQ_LLM_TOOL) {
			/* consecutive results share one message, as the API requires */
			cJSON *content = hq_llm_user_turn(msgs, "content"), *b = cJSON_CreateObject();
			cJSON_AddItemToArray(content, b);
			if (cm->role == HQ_LLM_USER) {
				cJSON_AddStringToObject(b, "type", "text");
				cJSON_AddStringToObject(b, "text", cm->text);
			} else {
				cJSON_AddStringToObject(b, "type", "tool_result");
				cJSON_AddStringToObject(b, "tool_use_id", cm->call_id);
				cJSON_AddStringToObject(b, "content", cm->text);
				if (cm->is_error)
					cJSON_AddBoolToObject(b, "is_error", 1);
			}
			continue;
		}
		cJSON *m = cJSON_CreateObject();
		cJSON_AddItemToArray(msgs, m);
		cJSON_AddStringToObject(m, "role", "assistant");
		cJSON *content = cJSON_AddArrayToObject(m, "content");
		if (*cm->text || !cm->ncalls) {
			cJSON *b = cJSON_CreateObject();
			cJSON_AddItemToArray(content, b);
			cJSON_AddStringToObject(b, "type", "text");
			cJSON_AddStringToObject(b, "text", *cm->text ? cm->text : "(no reply)");
		}
		for (size_t k = 0; k < cm->ncalls; k++) {
			cJSON *b = cJSON_CreateObject();
			cJSON_AddItemToArray(content, b);
			cJSON_AddStringToObject(b, "type", "tool_use");
			cJSON_AddStringToObject(b, "id", cm->calls[k].id);
			cJSON_AddStringToObject(b, "name", cm->calls[k].name);
			cJSON_AddItemToObject(b, "input", hq_llm_args_object(cm->calls[k].args));
		}
	}
	if (ntools) {
		cJSON *a = cJSON_AddArrayToObject(r, "tools");
		for (size_t i = 0; i < ntools; i++) {
			cJSON *t = cJSON_CreateObject();
			cJSON_AddItemToArray(a, t);
			cJSON_AddStringToObject(t, "name", tools[i].name);
			cJSON_AddStringToObject(t, "description", tools[i].description);
			cJSON_AddItemToObject(t, "input_schema", hq_llm_clean_schema(tools[i].parameters));
		}
	}
	if (stream)
		cJSON_AddBoolToObject(r, "stream", 1);
	return r;
}

static void error_message(const cJSON *body, char *buf, size_t n)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(body, "error");
	const char *msg = hq_llm_jstr(e, "message");
	const char *type = hq_llm_jstr(e, "type");
	if (msg)
		snprintf(buf, n, "%s%s%s", type ? type : "", type ? ": " : "", msg);
}

static void usage(struct hq_llm_stream *s, const cJSON *u)
{
	if (!cJSON_IsObject(u))
		return;
	s->input_tokens = hq_llm_jlong(u, "input_tokens", s->input_tokens);
	s->output_tokens = hq_llm_jlong(u, "output_tokens", s->output_tokens);
}

static int block_start(struct hq_llm_stream *s, long index, const cJSON *b)
{
	const char *type = hq_llm_jstr(b, "type");
	if (!type)
		return 0;
	if (!strcmp(type, "text")) {
		const char *t = hq_llm_jstr(b, "text");
		return t ? hq_llm_stream_text(s, t) : 0;
	}
	if (strcmp(type, "tool_use"))
		return 0;	/* thinking and other blocks are not the answer */
	struct hq_llm_partial *p = hq_llm_stream_new_part(s, index);
	if (!p || hq_llm_set(&p->id, hq_llm_jstr(b, "id")) ||
	    hq_llm_set(&p->name, hq_llm_jstr(b, "name")))
		return -1;
	/* non-streamed responses carry the whole input object here */
	const cJSON *in = cJSON_GetObjectItemCaseSensitive(b, "input");
	if (cJSON_IsObject(in) && in->child)
		return hq_llm_put_json(&p->args, in);
	return 0;
}

static struct hq_llm_partial *part_at(struct hq_llm_stream *s, long index)
{
	for (size_t i = 0; i < s->nparts; i++)
		if (s->parts[i].index == index)
			return &s->parts[i];
	return NULL;
}

static int event(struct hq_llm_stream *s, const char *ev, const char *data)
{
	cJSON *j = cJSON_Parse(data);
	if (!j)
		return 0;
	const char *type = hq_llm_jstr(j, "type");
	if (!type)
		type = ev ? ev : "";
	int rc = 0;
	s->needs_close = 1;
	long index = hq_llm_jlong(j, "index", -1);
	if (!strcmp(type, "message_start")) {
		usage(s, cJSON_GetObjectItemCaseSensitive(
				 cJSON_GetObjectItemCaseSensitive(j, "message"), "usage"));
	} else if (!strcmp(type, "content_block_start")) {
		rc = block_start(s, index, cJSON_GetObjectItemCaseSensitive(j, "content_block"));
	} else if (!strcmp(type, "content_block_delta")) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "delta");
		const char *dt = hq_llm_jstr(d, "type");
		if (dt && !strcmp(dt, "text_delta") && hq_llm_jstr(d, "text"))
			rc = hq_llm_stream_text(s, hq_llm_jstr(d, "text"));
		else if (dt && !strcmp(dt, "input_json_delta")) {
			struct hq_llm_partial *p = part_at(s, index);
			const char *pj = hq_llm_jstr(d, "partial_json");
			if (p && pj)
				hq_buf_puts(&p->args, pj);
		}
	} else if (!strcmp(type, "content_block_stop")) {
		struct hq_llm_partial *p = part_at(s, index);
		if (p)
			p->closed = 1;
	} else if (!strcmp(type, "message_delta")) {
		const char *stop = hq_llm_jstr(cJSON_GetObjectItemCaseSensitive(j, "delta"), "stop_reason");
		if (stop)
			rc = hq_llm_set(&s->stop_reason, stop);
		usage(s, cJSON_GetObjectItemCaseSensitive(j, "usage"));
	} else if (!strcmp(type, "message_stop")) {
		s->finished = 1;
	} else if (!strcmp(type, "error")) {
		char msg[400] = "";
		error_message(j, msg, sizeof msg);
		const char *et = hq_llm_jstr(cJSON_GetObjectItemCaseSensitive(j, "error"), "type");
		int retry = et && (!strcmp(et, "overloaded_error") || !strcmp(et, "api_error") ||
				   !strcmp(et, "rate_limit_error") || !strcmp(et, "timeout_error"));
		hq_llm_stream_fail(s, retry, "error in stream: %s", msg[0] ? msg : "unknown");
	}
	/* ping and unknown event types are ignored, as the docs ask */
	cJSON_Delete(j);
	return rc;
}

static int parse(struct hq_llm_stream *s, const cJSON *body)
{
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(body, "content");
	if (!cJSON_IsArray(content)) {
		hq_llm_stream_fail(s, 0, "no content in the response");
		return -1;
	}
	const cJSON *b;
	long i = 0;
	cJSON_ArrayForEach(b, content)
		if (block_start(s, i++, b))
			return -1;
	usage(s, cJSON_GetObjectItemCaseSensitive(body, "usage"));
	return hq_llm_set(&s->stop_reason, hq_llm_jstr(body, "stop_reason"));
}

const struct hq_llm_provider hq_llm_anthropic = {
	.name = "anthropic",
	.default_base_url = "https://api.anthropic.com",
	.key_env = "ANTHROPIC_API_KEY",
	.needs_key = 1,
	.framing = HQ_LLM_SSE,
	.endpoint = endpoint,
	.headers = headers,
	.request = request,
	.event = event,
	.parse = parse,
	.error_message = error_message,
};
