/* llm_ollama — Ollama's native /api/chat: NDJSON stream (on by default),
 * whole tool calls with object arguments, results by tool_name. */
#include <stdio.h>
#include <string.h>

#include "hq/llm_provider.h"

static int
endpoint(const struct hq_llm_options *opt, int stream, char *buf, size_t n)
{
	size_t len;
	int w;

	if (hq_llm_url(buf, n, opt->base_url, "%s", ""))
		return -1;
	/* the OpenAI-style default ends in /v1; the native API sits beside it */
	len = strlen(buf);
	if (len >= 3 && !strcmp(buf + len - 3, "/v1"))
		len -= 3;
	w = snprintf(buf + len, n - len, "/api/chat");
	return w < 0 || (size_t)w >= n - len ? -1 : 0;
}

/* One line of the stream, or the whole reply: the same object. */
static int
chunk(struct hq_llm_stream *s, const cJSON *j)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "message"), *tc;
	const char *t;
	int rc = 0;

	if (cJSON_GetObjectItemCaseSensitive(j, "error")) {
		char msg[400] = "";
		hq_llm_error_text(j, msg, sizeof msg);
		/* mid-stream model errors are usually transient */
		hq_llm_stream_fail(s, 1, "error in stream: %s", msg);
		return 0;
	}
	if ((t = hq_json_str(m, "content")))
		hq_llm_stream_text(s, t);
	cJSON_ArrayForEach(tc, cJSON_GetObjectItemCaseSensitive(m, "tool_calls")) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(tc, "function");
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(f, "arguments");
		struct hq_llm_partial *p = hq_llm_stream_new_part(s, (long)s->nparts);

		hq_llm_set(&p->id, hq_json_str(tc, "id"));
		hq_llm_set(&p->name, hq_json_str(f, "name"));
		if (cJSON_IsString(a))
			hq_buf_puts(&p->args, a->valuestring);
		else if (a && hq_json_append(&p->args, a))
			rc = -1;
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "done"))) {
		s->finished = 1;
		hq_llm_set(&s->stop_reason, hq_json_str(j, "done_reason"));
		s->input_tokens = hq_json_long(j, "prompt_eval_count", s->input_tokens);
		s->output_tokens = hq_json_long(j, "eval_count", s->output_tokens);
	}
	return rc;
}

static int
event(struct hq_llm_stream *s, const char *ev, const cJSON *j)
{
	return chunk(s, j);
}

const struct hq_llm_provider hq_llm_ollama = {
	.name = "ollama", .default_base_url = "http://127.0.0.1:11434",
	.framing = HQ_LLM_NDJSON,
	.endpoint = endpoint, .headers = hq_llm_bearer_headers, .request = hq_llm_chat_request,
	.event = event, .parse = chunk, .error_message = hq_llm_error_text,
};
