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
	/* with a key and the provider named, when it differs (openai: its
	 * public API, where default_base_url is a local server); NULL: the
	 * default */
	const char *keyed_base_url;
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
/* base, without the slashes it may end with, and then the path (printf
 * style): 0, or -1 when the URL does not fit in n bytes */
int hq_llm_url(char *buf, size_t n, const char *base, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* tools as [{"name", "description", schema_key: the parameter schema}],
 * which each API wraps its own way */
cJSON *hq_llm_tool_decls(const struct hq_llm_tool *tools, size_t ntools,
    const char *schema_key);
/* "error" as a string or as {"message": ...}, the OpenAI and Ollama shapes */
void hq_llm_error_text(const cJSON *body, char *buf, size_t n);
/* The request hook of the OpenAI-style chat APIs: the system prompt as a
 * system message, then the conversation, the tools, the token limit and
 * whether to stream. For the provider "ollama", Ollama's own /api/chat:
 * its content is never null, call arguments are objects, tool results
 * name their tool and the token limit is options.num_predict. */
cJSON *hq_llm_chat_request(const struct hq_llm_options *opt,
    const struct hq_llm_conv *conv, const struct hq_llm_tool *tools,
    size_t ntools, int stream);
/* The conversation as the alternating turns Anthropic and Gemini want:
 * add puts each message into the items array (content, parts) of its
 * side's turn, "user" or model; what follows from one side shares one
 * turn (tool results and the user's next words). */
void hq_llm_turns(cJSON *msgs, const struct hq_llm_conv *conv, const char *model,
    const char *items, void (*add)(cJSON *items, const struct hq_llm_msg *m));

#endif
