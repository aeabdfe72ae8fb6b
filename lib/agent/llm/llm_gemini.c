/* llm_gemini — Google Gemini generateContent / streamGenerateContent
 * (alt=sse). Calls are whole functionCall parts with object args and
 * usually no id; thoughtSignature must be echoed back on the same part. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/llm_provider.h"

static int
endpoint(const struct hq_llm_options *opt, int stream, char *buf, size_t n)
{
	return hq_llm_url(buf, n, opt->base_url, "/v1beta/models/%s:%s", opt->model,
	    stream ? "streamGenerateContent?alt=sse" : "generateContent");
}

static int
headers(const struct hq_llm_options *opt, char hdr[][1024], int max)
{
	int w;

	if (!opt->api_key || !*opt->api_key || max < 1)
		return 0;
	w = snprintf(hdr[0], sizeof hdr[0], "x-goog-api-key: %s", opt->api_key);
	return w < 0 || (size_t)w >= sizeof hdr[0] ? -1 : 1;
}

/* ids we made up mean nothing to Gemini: do not send them back */
static int
real_id(const char *id)
{
	return id && *id && strncmp(id, "call_hq_", 8);
}

/* One message's parts, into the parts of its turn. */
static void
add_parts(cJSON *parts, const struct hq_llm_msg *cm)
{
	cJSON *p, *fr, *fc;

	if (cm->role == HQ_LLM_USER) {
		cJSON_AddStringToObject(hq_json_add_object(parts), "text", cm->text);
		return;
	}
	if (cm->role == HQ_LLM_TOOL) {
		fr = cJSON_AddObjectToObject(hq_json_add_object(parts), "functionResponse");
		if (real_id(cm->call_id))
			cJSON_AddStringToObject(fr, "id", cm->call_id);
		cJSON_AddStringToObject(fr, "name", cm->tool_name);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(fr, "response"),
		    cm->is_error ? "error" : "output", cm->text);
		return;
	}
	if (*cm->text || cm->signature || !cm->ncalls) {
		p = hq_json_add_object(parts);
		cJSON_AddStringToObject(p, "text", cm->text);
		if (cm->signature)
			cJSON_AddStringToObject(p, "thoughtSignature", cm->signature);
	}
	for (size_t k = 0; k < cm->ncalls; k++) {
		p = hq_json_add_object(parts);
		fc = cJSON_AddObjectToObject(p, "functionCall");
		if (real_id(cm->calls[k].id))
			cJSON_AddStringToObject(fc, "id", cm->calls[k].id);
		cJSON_AddStringToObject(fc, "name", cm->calls[k].name);
		cJSON_AddItemToObject(fc, "args", hq_json_object(cm->calls[k].args));
		if (cm->calls[k].signature)
			cJSON_AddStringToObject(p, "thoughtSignature", cm->calls[k].signature);
	}
}

static cJSON *
request(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
    const struct hq_llm_tool *tools, size_t ntools, int stream)
{
	cJSON *r = cJSON_CreateObject(), *gc;

	if (!r)
		return NULL;
	hq_llm_turns(cJSON_AddArrayToObject(r, "contents"), conv, "model", "parts", add_parts);
	if (conv->system) {
		cJSON *si = cJSON_AddObjectToObject(r, "systemInstruction");
		cJSON_AddStringToObject(hq_json_add_object(cJSON_AddArrayToObject(si, "parts")),
		    "text", conv->system);
	}
	if (ntools)
		cJSON_AddItemToObject(hq_json_add_object(cJSON_AddArrayToObject(r, "tools")),
		    "functionDeclarations", hq_llm_tool_decls(tools, ntools, "parametersJsonSchema"));
	gc = cJSON_AddObjectToObject(r, "generationConfig");
	if (opt->max_tokens > 0)
		cJSON_AddNumberToObject(gc, "maxOutputTokens", opt->max_tokens);
	return r;
}

static void
error_message(const cJSON *body, char *buf, size_t n)
{
	const cJSON *e;
	const char *msg, *status;

	if (cJSON_IsArray(body))        /* Vertex wraps errors in an array */
		body = cJSON_GetArrayItem(body, 0);
	e = cJSON_GetObjectItemCaseSensitive(body, "error");
	msg = hq_json_str(e, "message");
	status = hq_json_str(e, "status");
	if (msg)
		snprintf(buf, n, "%s%s%s", status ? status : "", status ? ": " : "", msg);
}

/* google.rpc.RetryInfo in error.details: {"retryDelay": "35s"} */
static double
retry_delay(const cJSON *body)
{
	const cJSON *d;

	if (cJSON_IsArray(body))
		body = cJSON_GetArrayItem(body, 0);
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(body, "error"), "details")) {
		const char *delay = hq_json_str(d, "retryDelay");
		char *end;
		double v = delay ? strtod(delay, &end) : -1;
		if (delay && end != delay && (!strcmp(end, "s") || !*end) && v >= 0)
			return v;
	}
	return -1;
}

/* One functionCall part. */
static int
call_part(struct hq_llm_stream *s, const cJSON *fc, const char *sig)
{
	struct hq_llm_partial *c = hq_llm_stream_new_part(s, (long)s->nparts);
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(fc, "args");

	hq_llm_set(&c->id, hq_json_str(fc, "id"));
	hq_llm_set(&c->name, hq_json_str(fc, "name"));
	hq_llm_set(&c->signature, sig);
	return args ? hq_json_append(&c->args, args) : 0;
}

/* one GenerateContentResponse: a whole body or one SSE chunk */
static int
chunk(struct hq_llm_stream *s, const cJSON *j)
{
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
	const cJSON *um = cJSON_GetObjectItemCaseSensitive(j, "usageMetadata");
	const cJSON *cand, *p;
	const char *fin;
	int rc = 0;

	if (err) {
		char msg[400] = "";
		long code = hq_json_long(err, "code", 0);
		error_message(j, msg, sizeof msg);
		hq_llm_stream_fail(s, code == 429 || code >= 500, "error in stream: %s", msg);
		return 0;
	}
	if (um) {       /* cumulative: the last one counts */
		s->input_tokens = hq_json_long(um, "promptTokenCount", s->input_tokens);
		s->output_tokens = hq_json_long(um, "candidatesTokenCount", s->output_tokens);
	}
	cand = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "candidates"), 0);
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(cand, "content"), "parts")) {
		const char *sig = hq_json_str(p, "thoughtSignature"), *t;
		const cJSON *fc = cJSON_GetObjectItemCaseSensitive(p, "functionCall");
		if (!sig)
			sig = hq_json_str(p, "thought_signature");
		if (fc) {
			rc |= call_part(s, fc, sig);
			continue;
		}
		if (sig)
			hq_llm_set(&s->signature, sig);
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "thought")))
			continue;       /* thinking is not the answer */
		if ((t = hq_json_str(p, "text")))
			hq_llm_stream_text(s, t);
	}
	if ((fin = hq_json_str(cand, "finishReason"))) {
		hq_llm_set(&s->stop_reason, fin);
		s->finished = 1;
	}
	return rc;
}

static int
event(struct hq_llm_stream *s, const char *ev, const cJSON *j)
{
	return chunk(s, cJSON_IsArray(j) ? cJSON_GetArrayItem(j, 0) : j);
}

static int
parse(struct hq_llm_stream *s, const cJSON *body)
{
	int rc = chunk(s, body);

	if (!rc && !s->failed && !cJSON_GetObjectItemCaseSensitive(body, "candidates")) {
		hq_llm_stream_fail(s, 0, "no candidates in the response");
		return -1;
	}
	return rc;
}

const struct hq_llm_provider hq_llm_gemini = {
	.name = "gemini", .default_base_url = "https://generativelanguage.googleapis.com",
	.key_env = "GEMINI_API_KEY", .needs_key = 1, .framing = HQ_LLM_SSE,
	.endpoint = endpoint, .headers = headers, .request = request, .event = event,
	.parse = parse, .error_message = error_message, .retry_delay = retry_delay,
};
