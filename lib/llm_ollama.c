/* llm_ollama — Ollama's native /api/chat: NDJSON stream (on by default),
 * whole tool calls with object arguments, results by tool_name. */
#include "hq/llm_provider.h"

#include <stdio.h>
#include <string.h>

static int endpoint(const struct hq_llm_options *opt, int stream, char *buf, size_t n)
{
	(void)stream;
	const char *base = opt->base_url;
	size_t len = hq_llm_base_len(base);
	/* the OpenAI-style default ends in /v1; the native API sits beside it */
	if (len >= 3 && !strncmp(base + len - 3, "/v1", 3))
		len -= 3;
	int w = snprintf(buf, n, "%.*s/api/chat", (int)len, base);
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
		static const char *const roles[] = { "user", "assistant", "tool" };
		cJSON_AddStringToObject(m, "role", roles[cm->role]);
		cJSON_AddStringToObject(m, "content", cm->text);
		if (cm->role == HQ_LLM_TOOL) {
			cJSON_AddStringToObject(m, "tool_name", cm->tool_name);
			cJSON_AddStringToObject(m, "tool_call_id", cm->call_id);
		}
		if (cm->ncalls) {
			cJSON *tc = cJSON_AddArrayToObject(m, "tool_calls");
			for (size_t k = 0; k < cm->ncalls; k++) {
				cJSON *c = cJSON_CreateObject(), *f = cJSON_CreateObject();
				cJSON_AddItemToArray(tc, c);
				cJSON_AddStringToObject(c, "id", cm->calls[k].id);
				cJSON_AddItemToObject(c, "function", f);
				cJSON_AddStringToObject(f, "name", cm->calls[k].name);
				cJSON_AddItemToObject(f, "arguments", hq_llm_args_object(cm->calls[k].args));
			}
		}
	}
	if (ntools)
		cJSON_AddItemToObject(r, "tools", hq_llm_function_tools(tools, ntools));
	cJSON_AddBoolToObject(r, "stream", stream);
	if (opt->max_tokens > 0)
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(r, "options"), "num_predict",
					opt->max_tokens);
	return r;
}

static int chunk(struct hq_llm_stream *s, const cJSON *j)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (e) {
		char msg[400] = "";
		hq_llm_error_text(j, msg, sizeof msg);
		/* mid-stream model errors are usually transient */
		hq_llm_stream_fail(s, 1, "error in stream: %s", msg);
		return 0;
	}
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "message");
	int rc = 0;
	const char *t = hq_llm_jstr(m, "content");
	if (t)
		rc |= hq_llm_stream_text(s, t);
	const cJSON *tc;
	cJSON_ArrayForEach(tc, cJSON_GetObjectItemCaseSensitive(m, "tool_calls")) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(tc, "function");
		struct hq_llm_partial *p = hq_llm_stream_new_part(s, (long)s->nparts);
		if (!p)
			return -1;
		rc |= hq_llm_set(&p->id, hq_llm_jstr(tc, "id"));
		rc |= hq_llm_set(&p->name, hq_llm_jstr(f, "name"));
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(f, "arguments");
		if (cJSON_IsString(a))
			hq_buf_puts(&p->args, a->valuestring);
		else if (a && hq_llm_put_json(&p->args, a))
			rc = -1;
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "done"))) {
		s->finished = 1;
		rc |= hq_llm_set(&s->stop_reason, hq_llm_jstr(j, "done_reason"));
		s->input_tokens = hq_llm_jlong(j, "prompt_eval_count", s->input_tokens);
		s->output_tokens = hq_llm_jlong(j, "eval_count", s->output_tokens);
	}
	return rc;
}

static int event(struct hq_llm_stream *s, const char *ev, const char *data)
{
	(void)ev;
	cJSON *j = cJSON_Parse(data);
	if (!j)
		return 0;
	int rc = chunk(s, j);
	cJSON_Delete(j);
	return rc;
}

static int parse(struct hq_llm_stream *s, const cJSON *body)
{
	return chunk(s, body);
}

const struct hq_llm_provider hq_llm_ollama = {
	.name = "ollama",
	.default_base_url = "http://127.0.0.1:11434",
	.key_env = NULL,
	.needs_key = 0,
	.framing = HQ_LLM_NDJSON,
	.endpoint = endpoint,
	.headers = hq_llm_bearer_headers,
	.request = request,
	.event = event,
	.parse = parse,
	.error_message = hq_llm_error_text,
};
