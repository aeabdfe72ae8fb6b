/* Streams and replies of every provider, read as hq_llm_complete reads
 * them: the recorded fixtures (live OpenAI and Anthropic streams) and
 * the quirks real servers have. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/llm.h"
#include "fixture.h"
#include "tap.h"

static int parse(const char *provider, const char *data, struct hq_llm_reply *r, struct hq_err *e)
{
	return hq_llm_parse_stream(provider, data, strlen(data), r, e);
}

static void fixtures(void)
{
	struct hq_llm_reply r;
	struct hq_err e = {{0}};
	size_t len;
	char *d = fixture_slurp(fixture_path("llm", "openai_stream_single_tool.sse"), &len);
	if (!ok(d != NULL, "fixture %s found",
	    fixture_path("llm", "openai_stream_single_tool.sse")))
		return;
	is_int(hq_llm_parse_stream("openai", d, len, &r, &e), 0, "openai single: parsed");
	is_int(r.ncalls, 1, "openai single: one call");
	if (r.ncalls == 1) {
		is_str(r.calls[0].id, "call_c91SqDXlYFuETYv8mUHzz6pp", "openai single: id from the first fragment");
		is_str(r.calls[0].name, "GetWeatherArgs", "openai single: name");
		is_str(r.calls[0].args, "{\"city\":\"Edinburgh\",\"country\":\"UK\",\"units\":\"c\"}",
		       "openai single: argument fragments joined");
	}
	is_str(r.stop_reason, "tool_calls", "openai single: finish_reason");
	is_int(r.input_tokens, 76, "openai single: usage from the last chunk (prompt)");
	is_int(r.output_tokens, 24, "openai single: usage from the last chunk (completion)");
	hq_llm_reply_free(&r);
	free(d);

	d = fixture_slurp(fixture_path("llm", "openai_stream_parallel_tools.sse"), &len);
	is_int(hq_llm_parse_stream("openai", d, len, &r, &e), 0, "openai parallel: parsed");
	is_int(r.ncalls, 2, "openai parallel: two calls");
	if (r.ncalls == 2) {
		is_str(r.calls[0].name, "GetWeatherArgs", "openai parallel: first name");
		is_str(r.calls[0].args, "{\"city\": \"Edinburgh\", \"country\": \"GB\", \"units\": \"c\"}",
		       "openai parallel: first arguments");
		is_str(r.calls[1].id, "call_DNYTawLBoN8fj3KN6qU9N1Ou", "openai parallel: second id");
		is_str(r.calls[1].args, "{\"ticker\": \"AAPL\", \"exchange\": \"NASDAQ\"}",
		       "openai parallel: second arguments");
	}
	hq_llm_reply_free(&r);
	free(d);

	d = fixture_slurp(fixture_path("llm", "anthropic_stream_tool_use.sse"), &len);
	is_int(hq_llm_parse_stream("anthropic", d, len, &r, &e), 0, "anthropic tool_use: parsed");
	is_str(r.text, "I'll check the current weather in Paris for you.", "anthropic tool_use: text deltas");
	is_int(r.ncalls, 1, "anthropic tool_use: one call");
	if (r.ncalls == 1) {
		is_str(r.calls[0].id, "toolu_01NRLabsLyVHZPKxbKvkfSMn", "anthropic tool_use: id");
		is_str(r.calls[0].args, "{\"location\": \"Paris\"}", "anthropic tool_use: input_json_delta joined");
	}
	is_int(r.input_tokens, 377, "anthropic tool_use: input tokens from message_start");
	is_int(r.output_tokens, 65, "anthropic tool_use: output tokens from message_delta");
	hq_llm_reply_free(&r);
	free(d);

	d = fixture_slurp(fixture_path("llm", "anthropic_stream_incomplete_max_tokens.sse"), &len);
	is_int(hq_llm_parse_stream("anthropic", d, len, &r, &e), 0, "anthropic max_tokens: parsed (trailing spaces in data lines)");
	is_int(r.ncalls, 0, "anthropic max_tokens: the cut call is not a call");
	is_int(r.ncut, 1, "anthropic max_tokens: it is counted as cut");
	is_str(r.stop_reason, "max_tokens", "anthropic max_tokens: stop reason");
	ok(r.text && !strncmp(r.text, "I'll create a comprehensive tax guide", 37), "anthropic max_tokens: text kept");
	hq_llm_reply_free(&r);
	free(d);
}

static void quirks(void)
{
	struct hq_llm_reply r;
	struct hq_err e = {{0}};
	/* Ollama /v1: index 0 for every call, no ids */
	const char *same_index =
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"a\",\"arguments\":\"{\\\"x\\\":1}\"}}]}}]}\n\n"
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"b\",\"arguments\":\"{}\"}}]}}]}\n\n"
		"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
		"data: [DONE]\n\n";
	is_int(parse("openai", same_index, &r, &e), 0, "index 0 twice: parsed");
	is_int(r.ncalls, 2, "index 0 twice: two calls");
	if (r.ncalls == 2) {
		is_str(r.calls[1].name, "b", "index 0 twice: second call's name");
		ok(r.calls[0].id && r.calls[1].id && strcmp(r.calls[0].id, r.calls[1].id),
		   "missing ids synthesised and distinct (%s, %s)", r.calls[0].id, r.calls[1].id);
	}
	hq_llm_reply_free(&r);

	/* different ids on the same index are different calls */
	const char *other_id =
		"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}}]}}]}\n\n"
		"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c2\",\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}}]}}]}\n\n"
		"data: [DONE]\n\n";
	is_int(parse("openai", other_id, &r, &e), 0, "new id on index 0: parsed");
	is_int(r.ncalls, 2, "new id on index 0: a new call");
	hq_llm_reply_free(&r);

	/* no [DONE]: the connection dropped */
	is_int(parse("openai", "data: {\"choices\":[{\"delta\":{\"content\":\"hal\"}}]}\n\n", &r, &e), -1,
	       "openai without [DONE]: an error");
	ok(strstr(e.msg, "ended early") != NULL, "openai without [DONE]: says it ended early (%s)", e.msg);

	/* llama.cpp's error: field, and OpenAI's error object */
	is_int(parse("openai", "error: {\"code\":400,\"message\":\"the request exceeds the available context size\",\"type\":\"exceed_context_size_error\"}\n\ndata: [DONE]\n\n", &r, &e),
	       -1, "llama.cpp error: line: an error");
	ok(strstr(e.msg, "exceeds the available context size") != NULL, "llama.cpp error: message kept");
	is_int(parse("openai", "data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n", &r, &e), -1,
	       "openai error object in the stream: an error");

	/* Anthropic overloaded_error after HTTP 200 */
	is_int(parse("anthropic", "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}\n\n"
			"event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n", &r, &e),
	       -1, "anthropic overloaded_error: an error");
	ok(strstr(e.msg, "overloaded_error: Overloaded") != NULL, "anthropic overloaded_error: message (%s)", e.msg);

	/* Gemini: CRLF, no [DONE], a thought signature beside the call, thinking not shown */
	const char *gem =
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hmm\",\"thought\":true},{\"text\":\"Let me\"}],\"role\":\"model\"}}]}\r\n\r\n"
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"hq_query\",\"args\":{\"metrics\":[\"steps\"]}},\"thoughtSignature\":\"SIG\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}],"
		"\"usageMetadata\":{\"promptTokenCount\":15,\"candidatesTokenCount\":9}}\r\n\r\n";
	is_int(parse("gemini", gem, &r, &e), 0, "gemini CRLF stream: parsed");
	is_str(r.text, "Let me", "gemini: thought parts are not the answer");
	is_int(r.ncalls, 1, "gemini: a call although finishReason is STOP");
	if (r.ncalls == 1) {
		is_str(r.calls[0].signature, "SIG", "gemini: thoughtSignature kept for the echo");
		is_str(r.calls[0].args, "{\"metrics\":[\"steps\"]}", "gemini: args object as JSON text");
		ok(!strncmp(r.calls[0].id, "call_hq_", 8), "gemini: an id synthesised (%s)", r.calls[0].id);
	}
	is_int(r.input_tokens, 15, "gemini: usageMetadata");
	hq_llm_reply_free(&r);

	/* Ollama NDJSON: whole calls with object arguments, done_reason stop */
	const char *oll =
		"{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"hq_query\",\"arguments\":{\"by\":\"day\"}}}]},\"done\":false}\n"
		"{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":169,\"eval_count\":18}\n";
	is_int(parse("ollama", oll, &r, &e), 0, "ollama NDJSON: parsed");
	is_int(r.ncalls, 1, "ollama: one call");
	is_int(r.output_tokens, 18, "ollama: eval_count");
	hq_llm_reply_free(&r);
	is_int(parse("ollama", "{\"error\":\"an error was encountered while running the model\"}\n", &r, &e), -1,
	       "ollama mid-stream error: an error");

	/* an OpenAI call cut by max tokens (finish_reason length) is not run */
	const char *cut =
		"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"a\",\"arguments\":\"{\\\"x\\\": [1, 2\"}}]}}]}\n\n"
		"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
	is_int(parse("openai", cut, &r, &e), 0, "openai length: parsed");
	is_int(r.ncalls, 0, "openai length: the cut call is dropped");
	is_int(r.ncut, 1, "openai length: and counted");
	hq_llm_reply_free(&r);

	/* invalid JSON arguments without a length stop are kept for the loop to report */
	const char *bad =
		"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"a\",\"arguments\":\"{oops\"}}]}}]}\n\n"
		"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n";
	is_int(parse("openai", bad, &r, &e), 0, "invalid arguments: parsed");
	is_int(r.ncalls, 1, "invalid arguments: still a call (its error goes to the model)");
	hq_llm_reply_free(&r);
}

static void text_mode(void)
{
	struct hq_llm_reply r = {0};
	r.text = strdup("Sure.\n```json\n{\"name\": \"hq_query\", \"arguments\": {\"metrics\": [\"steps\"]}}\n```\n"
			"and <tool_call>{\"name\":\"hq_report\",\"parameters\":{\"x\":1}}</tool_call> done");
	is_int(hq_llm_text_calls(&r), 2, "text mode: a fenced block and a tag");
	if (r.ncalls == 2) {
		is_str(r.calls[0].name, "hq_query", "text mode: calls in text order");
		is_str(r.calls[0].args, "{\"metrics\":[\"steps\"]}", "text mode: arguments object");
		is_str(r.calls[1].args, "{\"x\":1}", "text mode: 'parameters' accepted for 'arguments'");
	}
	hq_llm_reply_free(&r);
	r.text = strdup("  {\"name\": \"hq_query\", \"arguments\": {}} trailing words");
	is_int(hq_llm_text_calls(&r), 1, "text mode: a bare JSON call with prose after it");
	hq_llm_reply_free(&r);
	r.text = strdup("Your average was 7.2 h of sleep. {not json}");
	is_int(hq_llm_text_calls(&r), 0, "text mode: an answer is not a call");
	hq_llm_reply_free(&r);
	r.text = strdup("```\n[{\"name\":\"a\"},{\"name\":\"b\",\"arguments\":\"{\\\"k\\\":2}\"}]\n```");
	is_int(hq_llm_text_calls(&r), 2, "text mode: an array of calls, string arguments");
	hq_llm_reply_free(&r);
}

/* what a reply says is bounded before anything echoes it */
static void bounds(void)
{
	struct hq_llm_reply r;
	struct hq_err e = {{0}};
	struct hq_buf d = {0}, big = {0};
	char name[400], id[400];

	memset(name, 'n', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	memset(id, 'i', sizeof id - 1);
	id[sizeof id - 1] = '\0';
	for (int i = 0; i < 4000; i++)	/* 40,000 bytes of arguments in fragments */
		hq_buf_puts(&big, "xxxxxxxxxx");
	hq_buf_printf(&d, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
	    "\"id\":\"c1\",\"function\":{\"name\":\"hq_query\",\"arguments\":\"\"}}]}}]}\n\n");
	for (size_t k = 0; k < big.len; k += 1000)
		hq_buf_printf(&d, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
		    "\"function\":{\"arguments\":\"%.1000s\"}}]}}]}\n\n", big.data + k);
	hq_buf_printf(&d, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,"
	    "\"id\":\"%s\",\"function\":{\"name\":\"%s\",\"arguments\":\"{}\"}}]}}]}\n\n", id, name);
	hq_buf_printf(&d, "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":2,"
	    "\"id\":\"c3\",\"function\":{\"name\":\"hq_query\",\"arguments\":\"{\\\"a\\\":1}\"}}]}}]}\n\n"
	    "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n");
	is_int(hq_llm_parse_stream("openai", d.data, d.len, &r, &e), 0, "bounds: parsed");
	is_int(r.ncalls, 3, "bounds: three calls");
	if (r.ncalls == 3) {
		is_str(r.calls[0].args, "{}", "bounds: arguments over 32 KiB dropped");
		is_int(r.calls[0].args_dropped, 40000, "bounds: and their size kept");
		is_str(r.calls[0].id, "c1", "bounds: the call keeps its id");
		is_int(strlen(r.calls[1].name), HQ_LLM_MAX_NAME, "bounds: a long name cut");
		ok(strlen(r.calls[1].id) < 64 && !strncmp(r.calls[1].id, "call_hq_", 8),
		   "bounds: a long id replaced (%s)", r.calls[1].id);
		is_str(r.calls[2].args, "{\"a\":1}", "bounds: arguments under the limit kept");
		is_int(r.calls[2].args_dropped, 0, "bounds: and not marked");
	}
	is_int(hq_llm_reply_keep_calls(&r, 5), 0, "keep calls: fewer than the limit: none dropped");
	is_int(hq_llm_reply_keep_calls(&r, 1), 2, "keep calls: two dropped");
	ok(r.ncalls == 1 && r.nskipped == 2 && !strcmp(r.calls[0].id, "c1"), "keep calls: the first kept");
	hq_llm_reply_free(&r);

	/* text mode: the same bound */
	memset(&r, 0, sizeof r);
	hq_buf_reset(&d);
	hq_buf_printf(&d, "```json\n{\"name\": \"hq_query\", \"arguments\": {\"w\": \"%s\"}}\n```", big.data);
	r.text = hq_buf_steal(&d);
	is_int(hq_llm_text_calls(&r), 1, "bounds: text mode: the call found");
	ok(r.ncalls == 1 && !strcmp(r.calls[0].args, "{}") && r.calls[0].args_dropped == 40008,
	   "bounds: text mode: its arguments dropped too");
	hq_llm_reply_free(&r);
	hq_buf_free(&big);
	hq_buf_free(&d);
}

/* Found by fuzz_llm under libFuzzer (clang's UBSan): freeing a reply
 * without calls computed NULL + 0. GCC's UBSan does not see it; clang's
 * (make CC=clang SANITIZE=1) fails here before the fix. */
static void
empty(void)
{
	struct hq_llm_reply r;
	struct hq_err e;

	is_int(hq_llm_parse_stream("openai", "", 0, &r, &e), -1, "an empty stream: an error");
	is_str(e.msg, "the stream ended early", "empty: says so");
	is_int(hq_llm_parse_body("anthropic", "", 0, &r, &e), -1, "an empty body: an error");
	ok(strstr(e.msg, "not JSON") != NULL, "empty body: not JSON (%s)", e.msg);
	memset(&r, 0, sizeof r);
	hq_llm_reply_free(&r);
	ok(r.calls == NULL && r.ncalls == 0, "a reply without calls freed");
}

int main(void)
{
	empty();
	fixtures();
	quirks();
	text_mode();
	bounds();
	return done_testing();
}
