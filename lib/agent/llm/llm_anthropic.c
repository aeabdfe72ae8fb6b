/* llm_anthropic — the Anthropic Messages API: system prompt at top level,
 * tool_use blocks with object input, tool results as tool_result blocks
 * at the start of the next user message, named SSE events. */
#include <stdio.h>
#include <string.h>

#include "hq/llm_provider.h"

static int
endpoint(const struct hq_llm_options *opt, int stream, char *buf, size_t n)
{
	return hq_llm_url(buf, n, opt->base_url, "/v1/messages");
}

static int
headers(const struct hq_llm_options *opt, char hdr[][1024], int max)
{
	int k = 0, w;

	if (max < 2)
		return -1;
	snprintf(hdr[k++], sizeof hdr[0], "anthropic-version: 2023-06-01");
	if (opt->api_key && *opt->api_key) {
		w = snprintf(hdr[k++], sizeof hdr[0], "x-api-key: %s", opt->api_key);
		if (w < 0 || (size_t)w >= sizeof hdr[0])
			return -1;
	}
	return k;
}

/* One message's blocks, into the content of its turn. */
static void
add_blocks(cJSON *content, const struct hq_llm_msg *cm)
{
	cJSON *b;

	if (cm->role == HQ_LLM_USER) {
		b = hq_json_add_object(content);
		cJSON_AddStringToObject(b, "type", "text");
		cJSON_AddStringToObject(b, "text", cm->text);
		return;
	}
	if (cm->role == HQ_LLM_TOOL) {
		b = hq_json_add_object(content);
		cJSON_AddStringToObject(b, "type", "tool_result");
		cJSON_AddStringToObject(b, "tool_use_id", cm->call_id);
		cJSON_AddStringToObject(b, "content", cm->text);
		if (cm->is_error)
			cJSON_AddBoolToObject(b, "is_error", 1);
		return;
	}
	if (*cm->text || !cm->ncalls) {
		b = hq_json_add_object(content);
		cJSON_AddStringToObject(b, "type", "text");
		cJSON_AddStringToObject(b, "text", *cm->text ? cm->text : "(no reply)");
	}
	for (size_t k = 0; k < cm->ncalls; k++) {
		b = hq_json_add_object(content);
		cJSON_AddStringToObject(b, "type", "tool_use");
		cJSON_AddStringToObject(b, "id", cm->calls[k].id);
		cJSON_AddStringToObject(b, "name", cm->calls[k].name);
		cJSON_AddItemToObject(b, "input", hq_json_object(cm->calls[k].args));
	}
}

static cJSON *
request(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
    const struct hq_llm_tool *tools, size_t ntools, int stream)
{
	cJSON *r = cJSON_CreateObject();

	if (!r)
		return NULL;
	cJSON_AddStringToObject(r, "model", opt->model);
	cJSON_AddNumberToObject(r, "max_tokens", opt->max_tokens > 0 ? opt->max_tokens : 4096);
	if (conv->system)
		cJSON_AddStringToObject(r, "system", conv->system);
	hq_llm_turns(cJSON_AddArrayToObject(r, "messages"), conv, "assistant", "content",
	    add_blocks);
	if (ntools)
		cJSON_AddItemToObject(r, "tools", hq_llm_tool_decls(tools, ntools, "input_schema"));
	if (stream)
		cJSON_AddBoolToObject(r, "stream", 1);
	return r;
}

static void
error_message(const cJSON *body, char *buf, size_t n)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(body, "error");
	const char *msg = hq_json_str(e, "message"), *type = hq_json_str(e, "type");

	if (msg)
		snprintf(buf, n, "%s%s%s", type ? type : "", type ? ": " : "", msg);
}

static void
usage(struct hq_llm_stream *s, const cJSON *u)
{
	if (!cJSON_IsObject(u))
		return;
	s->input_tokens = hq_json_long(u, "input_tokens", s->input_tokens);
	s->output_tokens = hq_json_long(u, "output_tokens", s->output_tokens);
}

static int
block_start(struct hq_llm_stream *s, long index, const cJSON *b)
{
	const char *type = hq_json_str(b, "type"), *t;
	const cJSON *in;
	struct hq_llm_partial *p;

	if (!type)
		return 0;
	if (!strcmp(type, "text")) {
		if ((t = hq_json_str(b, "text")))
			hq_llm_stream_text(s, t);
		return 0;
	}
	if (strcmp(type, "tool_use"))
		return 0;       /* thinking and other blocks are not the answer */
	p = hq_llm_stream_new_part(s, index);
	hq_llm_set(&p->id, hq_json_str(b, "id"));
	hq_llm_set(&p->name, hq_json_str(b, "name"));
	/* non-streamed responses carry the whole input object here */
	in = cJSON_GetObjectItemCaseSensitive(b, "input");
	if (cJSON_IsObject(in) && in->child)
		return hq_json_append(&p->args, in);
	return 0;
}

static struct hq_llm_partial *
part_at(struct hq_llm_stream *s, long index)
{
	for (size_t i = 0; i < s->nparts; i++)
		if (s->parts[i].index == index)
			return &s->parts[i];
	return NULL;
}

static void
block_delta(struct hq_llm_stream *s, long index, const cJSON *d)
{
	const char *dt = hq_json_str(d, "type"), *t;
	struct hq_llm_partial *p;

	if (dt && !strcmp(dt, "text_delta") && (t = hq_json_str(d, "text")))
		hq_llm_stream_text(s, t);
	else if (dt && !strcmp(dt, "input_json_delta") && (p = part_at(s, index)) &&
	    (t = hq_json_str(d, "partial_json")))
		hq_buf_puts(&p->args, t);
}

static void
stream_error(struct hq_llm_stream *s, const cJSON *j)
{
	const char *et = hq_json_str(cJSON_GetObjectItemCaseSensitive(j, "error"), "type");
	char msg[400] = "";

	error_message(j, msg, sizeof msg);
	hq_llm_stream_fail(s, et && (!strcmp(et, "overloaded_error") ||
	    !strcmp(et, "api_error") || !strcmp(et, "rate_limit_error") ||
	    !strcmp(et, "timeout_error")), "error in stream: %s", msg[0] ? msg : "unknown");
}

static int
event(struct hq_llm_stream *s, const char *ev, const cJSON *j)
{
	const char *type = hq_json_str(j, "type"), *stop;
	long index = hq_json_long(j, "index", -1);
	struct hq_llm_partial *p;

	if (!type)
		type = ev ? ev : "";
	s->needs_close = 1;
	if (!strcmp(type, "message_start"))
		usage(s, cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(j, "message"), "usage"));
	else if (!strcmp(type, "content_block_start"))
		return block_start(s, index, cJSON_GetObjectItemCaseSensitive(j, "content_block"));
	else if (!strcmp(type, "content_block_delta"))
		block_delta(s, index, cJSON_GetObjectItemCaseSensitive(j, "delta"));
	else if (!strcmp(type, "content_block_stop") && (p = part_at(s, index)))
		p->closed = 1;
	else if (!strcmp(type, "message_delta")) {
		stop = hq_json_str(cJSON_GetObjectItemCaseSensitive(j, "delta"), "stop_reason");
		if (stop)
			hq_llm_set(&s->stop_reason, stop);
		usage(s, cJSON_GetObjectItemCaseSensitive(j, "usage"));
	} else if (!strcmp(type, "message_stop"))
		s->finished = 1;
	else if (!strcmp(type, "error"))
		stream_error(s, j);
	/* ping and unknown event types are ignored, as the docs ask */
	return 0;
}

static int
parse(struct hq_llm_stream *s, const cJSON *body)
{
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(body, "content"), *b;
	long i = 0;

	if (!cJSON_IsArray(content)) {
		hq_llm_stream_fail(s, 0, "no content in the response");
		return -1;
	}
	cJSON_ArrayForEach(b, content)
		if (block_start(s, i++, b))
			return -1;
	usage(s, cJSON_GetObjectItemCaseSensitive(body, "usage"));
	hq_llm_set(&s->stop_reason, hq_json_str(body, "stop_reason"));
	return 0;
}

const struct hq_llm_provider hq_llm_anthropic = {
	.name = "anthropic", .default_base_url = "https://api.anthropic.com",
	.key_env = "ANTHROPIC_API_KEY", .needs_key = 1, .framing = HQ_LLM_SSE,
	.endpoint = endpoint, .headers = headers, .request = request,
	.event = event, .parse = parse, .error_message = error_message,
};
