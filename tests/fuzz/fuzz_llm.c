/*
 * fuzz_llm — mangled replies from a language model's server, read the
 * way hq-agent reads them (lib/agent/llm*.c, lib/base/json.c): the input as a
 * stream (SSE, NDJSON for ollama), as a whole non-streamed body, and as an
 * error body, for each provider (-f PROVIDER: that one only). A reply
 * that parses then goes where the agent sends it: text-mode tool calls
 * found in its text, the calls kept under a limit, the reply into the
 * conversation, and each message to JSON and back (a session reloaded
 * from the store).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "hq/llm.h"

const char fuzz_hot[] = "{}[]\":,\\ \n\r\t0123456789-.eE:`<>/";
const char *const fuzz_words[] = {
	"data: ", "event: ", "error: ", "\n\n", "\r\n", "[DONE]", "null",
	"true", "false", "\"index\":", "\"index\":-1", "\"index\":99999999999",
	"\"index\":1e300", "\"id\":", "\"name\":", "\"arguments\":",
	"\"arguments\":\"{\\\"a\\\":", "\"tool_calls\":[", "\"content\":",
	"\"text\":", "\"type\":\"tool_use\"", "\"type\":\"content_block_stop\"",
	"\"type\":\"message_stop\"", "\"partial_json\":", "\"delta\":",
	"\"functionCall\":", "\"thoughtSignature\":", "\"done\":true",
	"\"finish_reason\":\"tool_calls\"", "\"stop_reason\":\"max_tokens\"",
	"\"retryDelay\":\"1e9s\"", "\"@type\":", "\\u0000", "\\ud800",
	"```json\n", "```", "<tool_call>", "</tool_call>", "\xC3\x28", NULL
};

static const char *const providers[] = { "openai", "anthropic", "gemini",
	"ollama", NULL };

static void
use_reply(struct hq_llm_reply *r)
{
	struct hq_llm_conv conv;

	hq_llm_text_calls(r);
	hq_llm_reply_keep_calls(r, 8);
	hq_llm_conv_init(&conv);
	hq_llm_conv_add_user(&conv, "q");
	hq_llm_conv_add_reply(&conv, r);
	for (size_t i = 0; i < r->ncalls; i++)
		hq_llm_conv_add_result(&conv, r->calls[i].id, r->calls[i].name,
		    "{}", 0);
	for (size_t i = 0; i < conv.n; i++) {
		cJSON *j = hq_llm_msg_to_json(&conv.msgs[i]);
		struct hq_llm_msg m;
		if (j && hq_llm_msg_from_json(j, &m) == 0)
			hq_llm_msg_free(&m);
		cJSON_Delete(j);
	}
	hq_llm_conv_free(&conv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *only = fuzz_word(), *text = (const char *)data;
	struct hq_llm_reply r;
	struct hq_err e;
	char msg[400];
	cJSON *j;

	for (const char *const *p = providers; *p; p++) {
		if (only && strcmp(only, *p) != 0)
			continue;
		if (hq_llm_parse_stream(*p, text, size, &r, &e) == 0) {
			use_reply(&r);
			hq_llm_reply_free(&r);
		}
		if (hq_llm_parse_body(*p, text, size, &r, &e) == 0) {
			use_reply(&r);
			hq_llm_reply_free(&r);
		}
		hq_llm_error_body(*p, text, size, msg, sizeof msg);
	}
	/* A message of a saved session, as the store gives it back. */
	if ((j = cJSON_ParseWithLength(text, size))) {
		struct hq_llm_msg m;
		if (hq_llm_msg_from_json(j, &m) == 0)
			hq_llm_msg_free(&m);
		cJSON_Delete(j);
	}
	return 0;
}
