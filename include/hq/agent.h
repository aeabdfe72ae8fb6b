/*
 * agent — the hq-agent loop: discover the hq commands as tools (their
 * --tool-schema), turn a model's tool call into an argv after checking it
 * against the schema, run the calls of one reply a few at a time, feed the
 * results (or errors) back, and stop when a reply has no tool calls or a
 * budget runs out. Also the system prompt and text tool mode.
 *
 * Memory: a toolset owns its tools (hq_agent_tools_free); argv arrays
 * from hq_agent_argv are freed with hq_agent_argv_free; an outcome owns
 * its answer (hq_agent_outcome_free). The conversation passed to
 * hq_agent_run is borrowed and grows by the turns of the run.
 */
#ifndef HQ_AGENT_H
#define HQ_AGENT_H

#include <stddef.h>

#include "hq/err.h"
#include "hq/llm.h"
#include "hq/queries.h"

struct cJSON;
struct hq_privacy;

/* The calls of one reply run, at most HQ_AGENT_MAX_RUNNING at once (the
 * others wait their turn; results go back in the calls' order); calls
 * past the first HQ_AGENT_MAX_CALLS of a reply are dropped and the model
 * is told. */
#define HQ_AGENT_MAX_CALLS 16
#define HQ_AGENT_MAX_RUNNING 4
/* One parameter's value: the whole arguments' bound, so that any value a
 * call may carry goes to the tool whole; a longer one (a caller that
 * skipped the arguments' bound) is a tool error, never a cut value */
#define HQ_AGENT_MAX_VALUE HQ_LLM_MAX_ARGS
/* Set to 1 in the environment of a tool run for a model's call: the
 * arguments are a model's, not a person's, and a tool may refuse what a
 * model must not reach (hq-correlate's file operands). */
#define HQ_AGENT_FROM_MODEL "HQ_FROM_MODEL"

struct hq_agent_tool {
	char *name;		/* hq_query */
	char *path;		/* the executable */
	char *description;
	struct cJSON *parameters;	/* JSON Schema object */
	char *positional;	/* property holding positional arguments, or NULL */
	int writes;		/* changes the store: needs confirmation */
	char *reads;		/* " list verify ": the first operands that only
				 * read ("x-reads"), or NULL */
	char **prefix;		/* a saved query's words, before the call's
				 * (NULL-terminated); NULL for a command */
};

struct hq_agent_tools {
	struct hq_agent_tool *v;
	size_t n;
	char skipped[512];	/* commands whose --tool-schema failed */
};

/* Where tools are looked for: $HQ_AGENT_TOOL_PATH, the directory of this
 * executable, $PATH; colon-separated, malloc'd. */
char *hq_agent_tool_dirs(void);
/* Runs `--tool-schema` on every executable hq-* in dirs (colon-separated,
 * searched in order, the first of a name wins), except hq-agent; those
 * whose schema cannot be had are named in out->skipped. */
void hq_agent_discover(const char *dirs, double timeout, struct hq_agent_tools *out);
/* Reads one --tool-schema document; path is the command. */
int hq_agent_tool_parse(const char *json, const char *path, struct hq_agent_tool *t,
    struct hq_err *e);
/* What a parsed tool holds (a toolset frees its own). */
void hq_agent_tool_free(struct hq_agent_tool *t);
void hq_agent_tools_free(struct hq_agent_tools *tools);
/* Each saved query (queries.h) as a tool of its own, named as the query:
 * its command's tool with the query's words first, that command's
 * parameters (none required; what the model gives is added after the
 * words) and its writes (a query is read-only only if its command is);
 * its description the query's comment and line. 0, or -1 with e naming
 * the config's FILE:LINE (a command that is no tool here, hq-agent
 * itself among them; a name a tool has already), and no tool added. */
int hq_agent_add_queries(struct hq_agent_tools *tools,
    const struct hq_saved_query *q, size_t n, struct hq_err *e);
const struct hq_agent_tool *hq_agent_tool_find(const struct hq_agent_tools *tools,
    const char *name);

/* Takes every API key out of this process's environment, which the tools
 * inherit: they need none. Gone are the variables whose names end in
 * _API_KEY (any case), every provider's key variable, and `also` (the
 * variable api_key_env names; may be NULL). Read the key first. */
void hq_agent_clear_keys(const char *also);

/* Checks a call's arguments (JSON text) against the tool's schema and
 * builds the argv: x_y → --x-y VALUE, true booleans → --x-y, arrays
 * repeat the option, the positional array goes last after "--". */
int hq_agent_argv(const struct hq_agent_tool *t, const char *args, char ***argv,
    struct hq_err *e);
void hq_agent_argv_free(char **argv);
/* Whether the call argv (from hq_agent_argv) changes the store: the tool
 * writes, and its first operand (after "--") is not one of the
 * subcommands its schema says only read. */
int hq_agent_call_writes(const struct hq_agent_tool *t, char *const *argv);

/* The system prompt: the data, today's date and zone, how to answer;
 * in text tool mode also the tools and how to call them. */
char *hq_agent_system_prompt(const struct hq_agent_tools *tools, int text_mode,
    const char *today, const char *zone);

struct hq_agent_result {
	const char *text;	/* what the model is given */
	int is_error;
	int exit_status;	/* -1: not run, or killed */
	int timed_out;
	double seconds;
	size_t rows, rows_cut, bytes;
};

struct hq_agent_hooks {
	void *ctx;
	void (*step)(void *ctx, int step);
	void (*token)(void *ctx, const char *text, size_t len);
	void (*reply)(void *ctx, int step, const struct hq_llm_reply *r, double seconds);
	void (*tool_call)(void *ctx, int step, const struct hq_llm_call *c, char *const *argv);
	void (*tool_result)(void *ctx, int step, const struct hq_llm_call *c,
	    const struct hq_agent_result *res);
	/* a tool that writes: 1 to run it */
	int (*confirm)(void *ctx, const struct hq_agent_tool *t, char *const *argv);
};

struct hq_agent_config {
	struct hq_llm_options llm;	/* llm.deadline is set by hq_agent_run */
	int max_steps;
	double timeout;		/* whole run, seconds; 0: none */
	double tool_timeout;	/* per tool, seconds */
	size_t output_cap;	/* bytes of a tool's output given to the model */
	int text_mode;
	int yes;		/* run write tools without asking */
	/* what a model elsewhere must not see (privacy.h), or NULL: each
	 * request's conversation is filtered through it, the model's
	 * placeholders in tool calls, streamed words and the answer are
	 * given back their names */
	struct hq_privacy *privacy;
};

enum hq_agent_status {
	HQ_AGENT_ANSWERED, HQ_AGENT_STEP_LIMIT, HQ_AGENT_TIMEOUT, HQ_AGENT_FAILED,
};

struct hq_agent_outcome {
	enum hq_agent_status status;
	char *answer;		/* the final text, or what was found so far */
	size_t said;		/* when not answered: how much of answer is the
				 * model's last words (with their line end),
				 * which a streamed run has shown already */
	int steps;
	long input_tokens, output_tokens;
	double seconds, tool_seconds;
	size_t cut_calls;	/* calls the last reply had cut off (max tokens) */
	struct hq_err error;	/* why it did not answer */
};

int hq_agent_run(const struct hq_agent_config *cfg, const struct hq_agent_tools *tools,
    struct hq_llm_conv *conv, const struct hq_agent_hooks *hooks,
    struct hq_agent_outcome *out);
void hq_agent_outcome_free(struct hq_agent_outcome *out);
const char *hq_agent_status_name(enum hq_agent_status s);
/* A duration as the agent writes it in JSON: to the microsecond (more
 * digits are noise). */
double hq_agent_micro(double seconds);

#endif
