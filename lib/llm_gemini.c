/* llm_gemini — Google Gemini generateContent / streamGenerateContent
 * (alt=sse). Calls are whole functionCall parts with object args and
 * usually no id; thoughtSignature must be echoed back on the same part. */
#include "hq/llm_provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int endpoint(const struct hq_llm_options *opt, int stream, char *buf, size_t n)
{
	const char *base = opt->base_url;
	size_t len = hq_llm_base_len(base);
	int w = snprintf(buf, n, "%.*s/v1beta/models/%s:%s", (int)len, base, opt->model,
			 stream ? "streamGenerateContent?alt=sse" : "generateContent");
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

static int headers(const struct hq_llm_options *opt, char hdr[][1024], int max)
{
	if (!opt->api_key || !*opt->api_key || max < 1)
		return 0;
	int w = snprintf(hdr[0], sizeof hdr[0], "x-goog-api-key: %s", opt->api_key);
	return w < 0 || (size_t)w >= sizeof hdr[0] ? -1 : 1;
}

/* ids we made up mean nothing to Gemini: do not send them back */
static int real_id(const char *id)
{
	return id && *id && strncmp(id, "call_hq_", 8);
}

static cJSON *request(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
		      const struct hq_llm_tool *tools, size_t ntools, int stream)
{
	(void)stream;
	cJSON *r = cJSON_CreateObject();
	if (!r)
		return NULL;
	cJSON *contents = cJSON_AddArrayToObject(r, "contents");
	for (size_t i = 0; i < conv->n; i++) {
		const struct hq_llm_msg *cm = &conv->msgs[i];
		if (cm->role != HQ_LLM_ASSISTANT) {
			cJSON *parts = hq_llm_user_turn(contents, "parts"), *p = cJSON_CreateObject();
			cJSON_AddItemToArray(parts, p);
			if (cm->role == HQ_LLM_USER) {
				cJSON_AddStringToObject(p, "text", cm->text);
				continue;
			}
			cJSON *fr = cJSON_AddObjectToObject(p, "functionResponse");
			if (real_id(cm->call_id))
				cJSON_AddStringToObject(fr, "id", cm->call_id);
			cJSON_AddStringToObject(fr, "name", cm->tool_name);
			cJSON *resp = cJSON_AddObjectToObject(fr, "response");
			cJSON_AddStringToObject(resp, cm->is_error ? "error" : "output", cm->text);
			continue;
		}
		cJSON *m = cJSON_CreateObject();
		cJSON_AddItemToArray(contents, m);
		cJSON_AddStringToObject(m, "role", "model");
		cJSON *parts = cJSON_AddArrayToObject(m, "parts");
		if (*cm->text || cm->signature || !cm->ncalls) {
			cJSON *p = cJSON_CreateObject();
			cJSON_AddItemToArray(parts, p);
			cJSON_AddStringToObject(p, "text", cm->text);
			if (cm->signature)
				cJSON_AddStringToObject(p, "thoughtSignature", cm->signature);
		}
		for (size_t k = 0; k < cm->ncalls; k++) {
			cJSON *p = cJSON_CreateObject();
			cJSON_AddItemToArray(parts, p);
			cJSON *fc = cJSON_AddObjectToObject(p, "functionCall");
			if (real_id(cm->calls[k].id))
				cJSON_AddStringToObject(fc, "id", cm->calls[k].id);
			cJSON_AddStringToObject(fc, "name", cm->calls[k].name);
			cJSON_AddItemToObject(fc, "args", hq_llm_args_object(cm->calls[k].args));
			if (cm->calls[k].signature)
				cJSON_AddStringToObject(p, "thoughtSignature", cm->calls[k].signature);
		}
	}
	if (conv->system) {
		cJSON *si = cJSON_AddObjectToObject(r, "systemInstruction");
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "text", conv->system);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(si, "parts"), p);
	}
	if (ntools) {
		cJSON *t = cJSON_CreateObject();
		cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "tools"), t);
		cJSON *decl = cJSON_AddArrayToObject(t, "functionDeclarations");
		for (size_t i = 0; i < ntools; i++) {
			cJSON *d = cJSON_CreateObject();
			cJSON_AddItemToArray(decl, d);
			cJSON_AddStringToObject(d, "name", tools[i].name);
			cJSON_AddStringToObject(d, "description", tools[i].description);
			cJSON_AddItemToObject(d, "parametersJsonSchema",
					      hq_llm_clean_schema(tools[i].parameters));
		}
	}
	cJSON *gc = cJSON_AddObjectToObject(r, "generationConfig");
	if (opt->max_tokens > 0)
		cJSON_AddNumberToObject(gc, "maxOutputTokens", opt->max_tokens);
	return r;
}

static void error_message(const cJSON *body, char *buf, size_t n)
{
	if (cJSON_IsArray(body))	/* Vertex wraps errors in an array */
		body = cJSON_GetArrayItem(body, 0);
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(body, "error");
	const char *msg = hq_llm_jstr(e, "message");
	const char *status = hq_llm_jstr(e, "status");
	if (msg)
		snprintf(buf, n, "%s%s%s", status ? status : "", status ? ": " : "", msg);
}

/* google.rpc.RetryInfo in error.details: {"retryDelay": "35s"} */
static double retry_delay(const cJSON *body)
{
	if (cJSON_IsArray(body))
		body = cJSON_GetArrayItem(body, 0);
	const cJSON *d;
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(
			      cJSON_GetObjectItemCaseSensitive(body, "error"), "details")) {
		const char *delay = hq_llm_jstr(d, "retryDelay");
		char *end;
		double v = delay ? strtod(delay, &end) : -1;
		if (delay && end != delay && (!strcmp(end, "s") || !*end) && v >= 0)
			return v;
	}
	return -1;
}

/* one GenerateContentResponse: a whole body or one SSE chunk */
static int chunk(struct hq_llm_stream *s, const cJSON *j)
{
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (err) {
		char msg[400] = "";
		error_message(j, msg, sizeof msg);
		long code = hq_llm_jlong(err, "code", 0);
		hq_llm_stream_fail(s, code == 429 || code >= 500, "error in stream: %s", msg);
		return 0;
	}
	const cJSON *um = cJSON_GetObjectItemCaseSensitive(j, "usageMetadata");
	if (um) {	/* cumulative: the last one counts */
		s->input_tokens = hq_llm_jlong(um, "promptTokenCount", s->input_tokens);
		s->output_tokens = hq_llm_jlong(um, "candidatesTokenCount", s->output_tokens);
	}
	const cJSON *cand = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "candidates"), 0);
	const cJSON *parts = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cand, "content"), "parts");
	const cJSON *p;
	int rc = 0;
	cJSON_ArrayForEach(p, parts) {
		const char *sig = hq_llm_jstr(p, "thoughtSignature");
		if (!sig)
			sig = hq_llm_jstr(p, "thought_signature");
		const cJSON *fc = cJSON_GetObjectItemCaseSensitive(p, "functionCall");
		if (fc) {
			struct hq_llm_partial *c = hq_llm_stream_new_part(s, (long)s->nparts);
			if (!c)
				return -1;
			rc |= hq_llm_set(&c->id, hq_llm_jstr(fc, "id"));
			rc |= hq_llm_set(&c->name, hq_llm_jstr(fc, "name"));
			rc |= hq_llm_set(&c->signature, sig);
			const cJSON *args = cJSON_GetObjectItemCaseSensitive(fc, "args");
			if (args && hq_llm_put_json(&c->args, args))
				rc = -1;
			continue;
		}
		if (sig)
			rc |= hq_llm_set(&s->signature, sig);
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "thought")))
			continue;	/* thinking is not the answer */
		const char *t = hq_llm_jstr(p, "text");
		if (t)
			rc |= hq_llm_stream_text(s, t);
	}
	const char *fin = hq_llm_jstr(cand, "finishReason");
	if (fin) {
		rc |= hq_llm_set(&s->stop_reason, fin);
		s->finished = 1;
	}
	return rc;
}

static int event(struct hq_llm_stream *s, const char *ev, const char *data)
{
	(void)ev;
	cJSON *j = cJSON_Parse(data);
	if (!j)
		return 0;
	int rc = chunk(s, cJSON_IsArray(j) ? cJSON_GetArrayItem(j, 0) : j);
	cJSON_Delete(j);
	return rc;
}

static int parse(struct hq_llm_stream *s, const cJSON *body)
{
	int rc = chunk(s, body);
	if (!rc && !s->failed && !cJSON_GetObjectItemCaseSensitive(body, "candidates")) {
		hq_llm_stream_fail(s, 0, "no candidates in the response");
		return -1;
	}
	return rc;
}

const struct hq_llm_provider hq_llm_gemini = {
	.name = "gemini",
	.default_base_url = "https://generativelanguage.googleapis.com",
	.key_env = "GEMINI_API_KEY",
	.needs_key = 1,
	.framing = HQ_LLM_SSE,
	.endpoint = endpoint,
	.headers = headers,
	.request = request,
	.event = event,
	.parse = parse,
	.error_message = error_message,
	.retry_delay = retry_delay,
};
