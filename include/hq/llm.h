/*
 * llm — one interface to the chat models hq-agent talks to. A conversation
 * is kept in a neutral form (user text, assistant text + tool calls, tool
 * results); each provider (OpenAI Chat Completions and compatibles,
 * Anthropic Messages, Gemini generateContent, Ollama /api/chat) turns it
 * into its own request and its response or stream back into a neutral
 * hq_llm_reply. Retries, streaming and tool-call assembly live here.
 *
 * Memory: hq_llm_conv owns its messages and every string in them;
 * hq_llm_reply owns its strings (hq_llm_reply_free). Options and tools
 * are borrowed for the duration of a call. Allocation failures abort
 * (hq_xmalloc), so adding to a conversation cannot fail.
 */
#ifndef HQ_LLM_H
#define HQ_LLM_H

#include <stddef.h>

#include "hq/err.h"

struct cJSON;

/* Bounds on what a reply says, past which it is not taken as it is: a
 * call's arguments over HQ_LLM_MAX_ARGS bytes are dropped (the call's
 * args_dropped says how long they were), a name is cut and an id made up
 * anew past HQ_LLM_MAX_NAME bytes. The whole reply is bounded by
 * HQ_HTTP_MAX_BODY (8 MiB). */
#define HQ_LLM_MAX_ARGS 32768
#define HQ_LLM_MAX_NAME 256

struct hq_llm_call {
	char *id;		/* provider's id, or a synthesised "call_hq_N" */
	char *name;
	char *args;		/* JSON text as the model wrote it (may be invalid) */
	char *signature;	/* Gemini thoughtSignature to echo, or NULL */
	size_t args_dropped;	/* arguments this long were dropped (args is
				 * "{}"); 0 when args are the model's */
};

enum hq_llm_role { HQ_LLM_USER, HQ_LLM_ASSISTANT, HQ_LLM_TOOL };

struct hq_llm_msg {
	enum hq_llm_role role;
	char *text;		/* user or assistant text, or a tool result */
	struct hq_llm_call *calls;	/* assistant only */
	size_t ncalls;
	char *signature;	/* Gemini signature on the text part */
	char *call_id;		/* tool result: the call it answers */
	char *tool_name;
	int is_error;
};

struct hq_llm_conv {
	char *system;
	struct hq_llm_msg *msgs;
	size_t n, cap;
};

struct hq_llm_tool {
	const char *name;
	const char *description;
	const struct cJSON *parameters;	/* JSON Schema, object */
};

struct hq_llm_options {
	const char *provider;	/* openai anthropic gemini ollama */
	const char *model;
	const char *base_url;
	const char *api_key;	/* may be NULL for local servers */
	int stream;
	int max_tokens;		/* 0: provider default (Anthropic needs one) */
	int max_retries;	/* retries after the first attempt */
	double deadline;	/* hq_time_monotonic() value at which to give up; 0: none */
};

struct hq_llm_reply {
	char *text;
	struct hq_llm_call *calls;	/* complete calls only */
	size_t ncalls;
	size_t ncut;		/* tool calls cut off (max tokens): never run */
	char *signature;
	char *stop_reason;	/* as the provider said it */
	long input_tokens, output_tokens;
	int retries;		/* attempts that failed and were retried */
	size_t nskipped;	/* calls past those kept (hq_llm_reply_keep_calls) */
};

typedef void (*hq_llm_token_fn)(void *ctx, const char *text, size_t len);

/* The providers this build knows, as an option table's choices. */
#define HQ_LLM_PROVIDERS "openai|anthropic|gemini|ollama"

/* 1 when the name is a provider this build knows, else 0. */
int hq_llm_provider_known(const char *name);
/* The provider's default base URL: with keyed (the user named the
 * provider and set its key) its public API, as every provider; without,
 * for openai a local server on Ollama's port, never api.openai.com. Then
 * the environment variable its key is read from (NULL: none), and whether
 * it needs one. NULL/0 for unknown names. */
const char *hq_llm_default_base_url(const char *provider, int keyed);
const char *hq_llm_key_env(const char *provider);
int hq_llm_needs_key(const char *provider);

/* One model turn: sends the conversation and tools, streams text through
 * on_token (may be NULL) when opt->stream, and fills reply. Retries
 * transient failures; text a retry repeats from the start of a dropped
 * attempt is not passed to on_token again (where it differs, a line break
 * and the retry's text from its start). Returns 0, or -1 with a message in err;
 * *timed_out is set when the deadline passed. */
int hq_llm_complete(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
    const struct hq_llm_tool *tools, size_t ntools,
    hq_llm_token_fn on_token, void *ctx,
    struct hq_llm_reply *reply, int *timed_out, struct hq_err *e);

void hq_llm_reply_free(struct hq_llm_reply *reply);
/* Keeps the first max calls of a reply and drops the others; how many
 * were dropped (also in reply->nskipped). */
size_t hq_llm_reply_keep_calls(struct hq_llm_reply *reply, size_t max);

/* Reads a whole stream as the provider sends it (SSE, or NDJSON for
 * ollama) into reply, as hq_llm_complete does with a live one. For tests
 * and recorded streams. Returns 0, or -1 with e set (an error event, or a
 * stream that ends before its end marker). */
int hq_llm_parse_stream(const char *provider, const char *data, size_t len,
    struct hq_llm_reply *reply, struct hq_err *e);
/* Reads a whole non-streamed response body (2xx) into reply, as
 * hq_llm_complete does without opt->stream. For tests and recorded bodies.
 * Returns 0, or -1 with e set (not JSON, not a reply this provider sends). */
int hq_llm_parse_body(const char *provider, const char *data, size_t len,
    struct hq_llm_reply *reply, struct hq_err *e);
/* The message an error body carries (as an HTTP error reports it) into buf,
 * and a retry delay it asks for in seconds, or -1. */
double hq_llm_error_body(const char *provider, const char *data, size_t len,
    char *buf, size_t n);

void hq_llm_conv_init(struct hq_llm_conv *conv);
void hq_llm_conv_free(struct hq_llm_conv *conv);
void hq_llm_conv_set_system(struct hq_llm_conv *conv, const char *text);
void hq_llm_conv_add_user(struct hq_llm_conv *conv, const char *text);
/* Appends the reply's text and complete calls as an assistant message. */
void hq_llm_conv_add_reply(struct hq_llm_conv *conv, const struct hq_llm_reply *reply);
void hq_llm_conv_add_result(struct hq_llm_conv *conv, const char *call_id,
    const char *tool_name, const char *text, int is_error);
/* Takes ownership of a message built elsewhere (session reload). */
void hq_llm_conv_push(struct hq_llm_conv *conv, struct hq_llm_msg *msg);

/* Neutral messages as JSON (store, sessions) and back. */
struct cJSON *hq_llm_msg_to_json(const struct hq_llm_msg *msg);
int hq_llm_msg_from_json(const struct cJSON *j, struct hq_llm_msg *msg);
void hq_llm_msg_free(struct hq_llm_msg *msg);

/* Text tool mode: finds tool calls written in a reply's text, as fenced
 * JSON blocks or <tool_call> tags, {"name":..,"arguments":{..}}. Appends
 * them to reply->calls; returns how many were found. */
size_t hq_llm_text_calls(struct hq_llm_reply *reply);

#endif
