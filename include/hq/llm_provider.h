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

#include <cjson/cJSON.h>

#include "hq/buf.h"
#include "hq/json.h"
#include "hq/llm.h"

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
	const char *done_marker;	/* data that ends a stream ("[DONE]"), or NULL */
	int (*endpoint)(const struct hq_llm_options *opt, int stream, char *buf, size_t n);
	/* up to 4 extra headers ("Name: value") into hdr[i] */
	int (*headers)(const struct hq_llm_options *opt, char hdr[][1024], int max);
	cJSON *(*request)(const struct hq_llm_options *opt, const struct hq_llm_conv *conv,
	    const struct hq_llm_tool *tools, size_t ntools, int stream);
	/* one SSE event's data (event may be "") or one NDJSON line (event
	 * NULL), parsed; -1 when it cannot be recorded */
	int (*event)(struct hq_llm_stream *s, const char *event, const cJSON *data);
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
void hq_llm_stream_text(struct hq_llm_stream *s, const char *text);
void hq_llm_stream_fail(struct hq_llm_stream *s, int retryable, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* *dst = a copy of src (NULL: none), the old value freed */
void hq_llm_set(char **dst, const char *src);
/* the headers hook of providers that send the key as a bearer token */
int hq_llm_bearer_headers(const struct hq_llm_options *opt, char hdr[][1024], int max);
/* the length of a base URL without its trailing slashes */
size_t hq_llm_base_len(const char *base);
/* "error" as a string or as {"message": ...}, the OpenAI and Ollama shapes */
void hq_llm_error_text(const cJSON *body, char *buf, size_t n);
/* {"model", "messages", "tools"} of the OpenAI-style chat APIs: the system
 * prompt as a system message, then the conversation; ollama: Ollama's own
 * /api/chat, whose content is never null, whose call arguments are objects
 * and whose tool results name their tool */
cJSON *hq_llm_chat_request(const struct hq_llm_options *opt,
    const struct hq_llm_conv *conv, const struct hq_llm_tool *tools,
    size_t ntools, int ollama);
/* the items array (content, parts) of the user message at the end of msgs,
 * started if the last message is not the user's: tool results and text that
 * follow each other share one user turn */
cJSON *hq_llm_user_turn(cJSON *msgs, const char *items);

#endif
