/* llm_openai — OpenAI Chat Completions, and every server that speaks it
 * (Ollama's /v1, llama.cpp, vLLM, OpenRouter). Arguments are JSON text;
 * streamed calls arrive as fragments keyed by index. */
#include "hq/llm_provider.h"

#include <stdio.h>
#include <string.h>

static int endpoint(const struct hq_llm_options *opt, int stream, char *buf, size_t n)
{
	const char *base = opt->base_url;
	size_t len = hq_llm_base_len(base);
	int w = snprintf(buf, n, "%.*s/chat/completions", (int)len, base);
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

static cJSON *request(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
		      const struct hq_llm_tool *tools, size_t ntools, int stream)
{
	cJSON *msgs, *r = hq_llm_chat_request(opt, conv, &msgs);
	if (!r)
		return NULL;
	for (size_t i = 0; i < conv->n; i++) {
		const struct hq_llm_msg *cm = &conv->msgs[i];
		cJSON *m = cJSON_CreateObject();
		cJSON_AddItemToArray(msgs, m);
		if (cm->role == HQ_LLM_USER) {
			cJSON_AddStringToObject(m, "role", "user");
			cJSON_AddStringToObject(m, "content", cm->text);
		} else if (cm->role == HQ_LLM_ASSISTANT) {
			cJSON_AddStringToObject(m, "role", "assistant");
			if (cm->ncalls && !*cm->text)
				cJSON_AddNullToObject(m, "content");
			else
				cJSON_AddStringToObject(m, "content", cm->text);
			if (cm->ncalls) {
				cJSON *tc = cJSON_AddArrayToObject(m, "tool_calls");
				for (size_t k = 0; k < cm->ncalls; k++) {
					cJSON *c = cJSON_CreateObject(), *f = cJSON_CreateObject();
					cJSON_AddItemToArray(tc, c);
					cJSON_AddStringToObject(c, "id", cm->calls[k].id);
					cJSON_AddStringToObject(c, "type", "function");
					cJSON_AddItemToObject(c, "function", f);
					cJSON_AddStringToObject(f, "name", cm->calls[k].name);
					cJSON_AddStringToObject(f, "arguments", cm->calls[k].args);
				}
			}
		} else {
			cJSON_AddStringToObject(m, "role", "tool");
			cJSON_AddStringToObject(m, "tool_call_id", cm->call_id);
			cJSON_AddStringToObject(m, "content", cm->text);
		}
	}
	if (ntools)
		cJSON_AddItemToObject(r, "tools", hq_llm_function_tools(tools, ntools));
	if (opt->max_tokens > 0)
		cJSON_AddNumberToObject(r, "max_tokens", opt->max_tokens);
	cJSON_AddBoolToObject(r, "stream", stream);
	if (stream) {
		cJSON *so = cJSON_AddObjectToObject(r, "stream_options");
		cJSON_AddBoolToObject(so, "include_usage", 1);
	}
	return r;
}

static void usage(struct hq_llm_stream *s, const cJSON *j)
{
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(j, "usage");
	if (cJSON_IsObject(u)) {
		s->input_tokens = hq_llm_jlong(u, "prompt_tokens", s->input_tokens);
		s->output_tokens = hq_llm_jlong(u, "completion_tokens", s->output_tokens);
	}
}

static int event(struct hq_llm_stream *s, const char *ev, const char *data)
{
	(void)ev;
	if (!strncmp(data, "[DONE]", 6)) {
		s->finished = 1;
		return 0;
	}
	cJSON *j = cJSON_Parse(data);
	if (!j)
		return 0;	/* not JSON: keep-alives and the like */
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (err || (ev && !strcmp(ev, "error"))) {
		char msg[400] = "";
		hq_llm_error_text(j, msg, sizeof msg);
		if (!msg[0])
			snprintf(msg, sizeof msg, "%s", hq_llm_jstr(j, "message") ? hq_llm_jstr(j, "message")
										     : "an error occurred during streaming");
		long code = hq_llm_jlong(err, "code", 0);
		const char *type = hq_llm_jstr(err, "type");
		int retry = code == 429 || code >= 500 ||
			    (type && (strstr(type, "overloaded") || strstr(type, "server_error") ||
				      strstr(type, "unavailable")));
		hq_llm_stream_fail(s, retry, "error in stream: %s", msg);
		cJSON_Delete(j);
		return 0;
	}
	usage(s, j);
	const cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "choices"), 0);
	const cJSON *delta = cJSON_GetObjectItemCaseSensitive(ch, "delta");
	int rc = 0;
	const char *text = hq_llm_jstr(delta, "content");
	if (text)
		rc |= hq_llm_stream_text(s, text);
	const cJSON *tcs = cJSON_GetObjectItemCaseSensitive(delta, "tool_calls");
	const cJSON *tc;
	int pos = 0;
	cJSON_ArrayForEach(tc, tcs) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(tc, "function");
		const char *id = hq_llm_jstr(tc, "id"), *name = hq_llm_jstr(f, "name");
		const char *args = hq_llm_jstr(f, "arguments");
		struct hq_llm_partial *p = hq_llm_stream_part(s, hq_llm_jlong(tc, "index", pos++), id, name);
		if (!p) {
			rc = -1;
			break;
		}
		if (id && *id && !p->id)
			rc |= hq_llm_set(&p->id, id);
		if (name && *name && !p->name)
			rc |= hq_llm_set(&p->name, name);
		if (args)
			hq_buf_puts(&p->args, args);
	}
	const char *fin = hq_llm_jstr(ch, "finish_reason");
	if (fin)
		rc |= hq_llm_set(&s->stop_reason, fin);
	cJSON_Delete(j);
	return rc;
}

static int parse(struct hq_llm_stream *s, const cJSON *body)
{
	const cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(body, "choices"), 0);
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(ch, "message");
	if (!cJSON_IsObject(msg)) {
		char m[400] = "";
		hq_llm_error_text(body, m, sizeof m);
		hq_llm_stream_fail(s, 0, "no message in the response%s%s", m[0] ? ": " : "", m);
		return -1;
	}
	usage(s, body);
	int rc = 0;
	const char *text = hq_llm_jstr(msg, "content");
	if (text)
		hq_buf_puts(&s->text, text);
	const cJSON *tc;
	long pos = 0;
	cJSON_ArrayForEach(tc, cJSON_GetObjectItemCaseSensitive(msg, "tool_calls")) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(tc, "function");
		struct hq_llm_partial *p = hq_llm_stream_new_part(s, pos++);
		if (!p)
			return -1;
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(f, "arguments");
		rc |= hq_llm_set(&p->id, hq_llm_jstr(tc, "id"));
		rc |= hq_llm_set(&p->name, hq_llm_jstr(f, "name"));
		if (cJSON_IsString(a))
			hq_buf_puts(&p->args, a->valuestring);
		else if (a && hq_llm_put_json(&p->args, a))	/* some servers send an object anyway */
			rc = -1;
	}
	rc |= hq_llm_set(&s->stop_reason, hq_llm_jstr(ch, "finish_reason"));
	return rc;
}

const struct hq_llm_provider hq_llm_openai = {
	.name = "openai",
	/* not api.openai.com: health data leaves the machine only when the
	 * user says so (a local server on Ollama's port) */
	.default_base_url = "http://127.0.0.1:11434/v1",
	.key_env = "OPENAI_API_KEY",
	.needs_key = 0,
	.framing = HQ_LLM_SSE,
	.endpoint = endpoint,
	.headers = hq_llm_bearer_headers,
	.request = request,
	.event = event,
	.parse = parse,
	.error_message = hq_llm_error_text,
};
