/* llm_openai — OpenAI Chat Completions, and every server that speaks it
 * (Ollama's /v1, llama.cpp, vLLM, OpenRouter). Arguments are JSON text;
 * streamed calls arrive as fragments keyed by index. */
#include <stdio.h>
#include <string.h>

#include "hq/llm_provider.h"

static int
endpoint(const struct hq_llm_options *opt, int stream, char *buf, size_t n)
{
	return hq_llm_url(buf, n, opt->base_url, "/chat/completions");
}

static void
usage(struct hq_llm_stream *s, const cJSON *j)
{
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(j, "usage");

	if (cJSON_IsObject(u)) {
		s->input_tokens = hq_json_long(u, "prompt_tokens", s->input_tokens);
		s->output_tokens = hq_json_long(u, "completion_tokens", s->output_tokens);
	}
}

/* An error in the stream: OpenAI's {"error": {...}}, or llama.cpp's
 * "error:" field. */
static void
stream_error(struct hq_llm_stream *s, const cJSON *j)
{
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
	const char *type = hq_json_str(err, "type");
	long code = hq_json_long(err, "code", 0);
	char msg[400] = "";

	hq_llm_error_text(j, msg, sizeof msg);
	if (!msg[0])
		snprintf(msg, sizeof msg, "%s", hq_json_str(j, "message") ?
		    hq_json_str(j, "message") : "an error occurred during streaming");
	hq_llm_stream_fail(s, code == 429 || code >= 500 ||
	    (type && (strstr(type, "overloaded") || strstr(type, "server_error") ||
	    strstr(type, "unavailable"))), "error in stream: %s", msg);
}

static int
event(struct hq_llm_stream *s, const char *ev, const cJSON *j)
{
	const cJSON *ch, *delta, *tc;
	const char *text, *fin;
	int pos = 0;

	if (cJSON_GetObjectItemCaseSensitive(j, "error") || (ev && !strcmp(ev, "error"))) {
		stream_error(s, j);
		return 0;
	}
	usage(s, j);
	ch = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "choices"), 0);
	delta = cJSON_GetObjectItemCaseSensitive(ch, "delta");
	if ((text = hq_json_str(delta, "content")))
		hq_llm_stream_text(s, text);
	cJSON_ArrayForEach(tc, cJSON_GetObjectItemCaseSensitive(delta, "tool_calls")) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(tc, "function");
		const char *id = hq_json_str(tc, "id"), *name = hq_json_str(f, "name");
		const char *args = hq_json_str(f, "arguments");
		struct hq_llm_partial *p = hq_llm_stream_part(s,
		    hq_json_long(tc, "index", pos++), id, name);

		if (id && *id && !p->id)
			hq_llm_set(&p->id, id);
		if (name && *name && !p->name)
			hq_llm_set(&p->name, name);
		if (args)
			hq_buf_puts(&p->args, args);
	}
	if ((fin = hq_json_str(ch, "finish_reason")))
		hq_llm_set(&s->stop_reason, fin);
	return 0;
}

static int
parse(struct hq_llm_stream *s, const cJSON *body)
{
	const cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(body, "choices"), 0);
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(ch, "message"), *tc;
	const char *text;
	long pos = 0;
	int rc = 0;

	if (!cJSON_IsObject(msg)) {
		char m[400] = "";
		hq_llm_error_text(body, m, sizeof m);
		hq_llm_stream_fail(s, 0, "no message in the response%s%s", m[0] ? ": " : "", m);
		return -1;
	}
	usage(s, body);
	if ((text = hq_json_str(msg, "content")))
		hq_buf_puts(&s->text, text);
	cJSON_ArrayForEach(tc, cJSON_GetObjectItemCaseSensitive(msg, "tool_calls")) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(tc, "function");
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(f, "arguments");
		struct hq_llm_partial *p = hq_llm_stream_new_part(s, pos++);

		hq_llm_set(&p->id, hq_json_str(tc, "id"));
		hq_llm_set(&p->name, hq_json_str(f, "name"));
		if (cJSON_IsString(a))
			hq_buf_puts(&p->args, a->valuestring);
		else if (a && hq_json_append(&p->args, a))      /* some servers send an object anyway */
			rc = -1;
	}
	hq_llm_set(&s->stop_reason, hq_json_str(ch, "finish_reason"));
	return rc;
}

/* Not api.openai.com by default: health data leaves the machine only when
 * the user says so (a local server on Ollama's port). */
const struct hq_llm_provider hq_llm_openai = {
	.name = "openai", .default_base_url = "http://127.0.0.1:11434/v1",
	.key_env = "OPENAI_API_KEY", .framing = HQ_LLM_SSE, .done_marker = "[DONE]",
	.endpoint = endpoint, .headers = hq_llm_bearer_headers, .request = hq_llm_chat_request,
	.event = event, .parse = parse, .error_message = hq_llm_error_text,
};
