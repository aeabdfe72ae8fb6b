/*
 * llm_provider — the contract between lib/llm.c and the per-provider
 * files (lib/llm_openai.c, llm_anthropic.c, llm_gemini.c, llm_ollama.c).
 * Not for commands: they use hq/llm.h.
 *
 * A provider builds its request JSON from the neutral conversation, and
 * reads either a whole response body or a stream of events into an
 * hq_llm_stream, which assembles text and tool calls (fragments keyed by
 * index) into the neutral reply. Strings in the stream are owned by it
 * until hq_llm_stream_finish() moves them into the reply.
 */
#ifndef HQ_LLM_PROVIDER_H
#define HQ_LLM_PROVIDER_H

#include "hq/buf.h"
#include "hq/llm.h"

#include <cjson/cJSON.h>


/* a tool call being assembled from stream fragments */
struct hq_llm_partial {
	long index;
	char *id, *name, *signature;
	struct hq_buf args;
	int closed;		/* its block ended (Anthropic content_block_stop) */
};

struct hq_llm_stream {
	hq_llm_token_fn on_token;
	void *ctx;
	struct hq_buf text;
	struct hq_llm_partial *parts;
	size_t nparts, capparts;
	char *signature, *stop_reason;
	long input_tokens, output_tokens;
	int needs_close;	/* calls are complete only once closed */
	int finished;		/* the protocol's end marker arrived */
	int failed;		/* an error event arrived */
	int retryable;		/* ... and retrying may help */
	char error[512];
	/* SSE framing */
	struct hq_buf event, data;
	int have_data;
};

enum hq_llm_framing { HQ_LLM_SSE, HQ_LLM_NDJSON };

struct hq_llm_provider {
	const char *name;
	const char *default_base_url;	/* what the official SDKs use */
	const char *key_env;		/* the variable holding the key, or NULL */
	int needs_key;
	enum hq_llm_framing framing;
	int (*endpoint)(const struct hq_llm_options *opt, int stream, char *buf, size_t n);
	/* up to 4 extra headers ("Name: value") into hdr[i] */
	int (*headers)(const struct hq_llm_options *opt, char hdr[][1024], int max);
	cJSON *(*request)(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
			  const struct hq_llm_tool *tools, size_t ntools, int stream);
	/* one SSE event (event may be "") or one NDJSON line (event NULL) */
	int (*event)(struct hq_llm_stream *s, const char *event, const char *data);
	/* a whole non-streamed 2xx body */
	int (*parse)(struct hq_llm_stream *s, const cJSON *body);
	/* the message inside an error body */
	void (*error_message)(const cJSON *body, char *buf, size_t n);
	/* a retry delay the error body asks for, in seconds, or -1 (may be NULL) */
	double (*retry_delay)(const cJSON *body);
};

extern const struct hq_llm_provider hq_llm_openai, hq_llm_anthropic,
	hq_llm_gemini, hq_llm_ollama;

/* helpers shared by the providers */
struct hq_llm_partial *hq_llm_stream_part(struct hq_llm_stream *s, long index,
					  const char *id, const char *name);
struct hq_llm_partial *hq_llm_stream_new_part(struct hq_llm_stream *s, long index);
int hq_llm_stream_text(struct hq_llm_stream *s, const char *text);
void hq_llm_stream_fail(struct hq_llm_stream *s, int retryable, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int hq_llm_set(char **dst, const char *src);
/* the text of a string-or-number field, or NULL */
const char *hq_llm_jstr(const cJSON *obj, const char *key);
long hq_llm_jlong(const cJSON *obj, const char *key, long dflt);
/* a tool's parameter schema without x-* keys, which strict servers reject */
cJSON *hq_llm_clean_schema(const cJSON *schema);
/* parse args text as a JSON object; an empty object if it is not one */
cJSON *hq_llm_args_object(const char *args);
/* the headers hook of providers that send the key as a bearer token */
int hq_llm_bearer_headers(const struct hq_llm_options *opt, char hdr[][1024], int max);
/* the length of a base URL without its trailing slashes */
size_t hq_llm_base_len(const char *base);
/* "error" as a string or as {"message": ...}, the OpenAI and Ollama shapes */
void hq_llm_error_text(const cJSON *body, char *buf, size_t n);
/* {"model", "messages": [the system prompt as a system message]} of the
 * OpenAI-style chat APIs; *msgs is the messages array */
cJSON *hq_llm_chat_request(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
			   cJSON **msgs);
/* tools as [{"type":"function","function":{name,description,parameters}}] */
cJSON *hq_llm_function_tools(const struct hq_llm_tool *tools, size_t ntools);
/* the items array (content, parts) of the user message at the end of msgs,
 * started if the last message is not the user's: tool results and text that
 * follow each other share one user turn */
cJSON *hq_llm_user_turn(cJSON *msgs, const char *items);
/* append v printed as compact JSON; -1 when out of memory */
int hq_llm_put_json(struct hq_buf *b, const cJSON *v);

#endif
