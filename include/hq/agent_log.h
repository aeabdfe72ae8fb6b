/*
 * agent_log — hq-agent's record in the store: every run (question,
 * provider, model, outcome, tokens, durations), each request to the model,
 * each tool call (arguments, exit status, sizes) and the conversation, so
 * that --session can continue it and --log (agent_view) can list and show
 * runs. API keys are never passed in, so they can never be written.
 *
 * Memory: the store is borrowed. Messages loaded by
 * hq_agent_log_load_session are pushed into the caller's conversation.
 */
#ifndef HQ_AGENT_LOG_H
#define HQ_AGENT_LOG_H

#include <stdint.h>

#include "hq/agent.h"
#include "hq/err.h"
#include "hq/store.h"

struct hq_agent_log_run {
	const char *session;	/* may be NULL */
	const char *question;
	const char *provider, *model, *base_url;
	const char *tool_mode;
};

/* Inserts the run; returns its id, or -1. */
int64_t hq_agent_log_start(struct hq_store *s, const struct hq_agent_log_run *run,
    struct hq_err *e);
int hq_agent_log_request(struct hq_store *s, int64_t run, int step,
    const struct hq_llm_reply *r, double seconds, struct hq_err *e);
int hq_agent_log_tool(struct hq_store *s, int64_t run, int step, const struct hq_llm_call *c,
    const struct hq_agent_result *res, struct hq_err *e);
/* Records the outcome and the conversation's messages from index `from`. */
/* What the run withheld from the model: counts by kind (privacy.h), never
 * values. */
int hq_agent_log_withheld(struct hq_store *s, int64_t run, const size_t *counts, int nkinds,
    const char *const *names, struct hq_err *e);
int hq_agent_log_finish(struct hq_store *s, int64_t run, const struct hq_agent_outcome *o,
    const struct hq_llm_conv *conv, size_t from, struct hq_err *e);
/* Appends the stored messages of every earlier run of the session. */
int hq_agent_log_load_session(struct hq_store *s, const char *session,
    struct hq_llm_conv *conv, struct hq_err *e);

/* A run as the log has it; strings borrowed for the callback's time. */
struct hq_agent_log_entry {
	int64_t id, started;            /* started: UTC seconds */
	const char *session;            /* NULL: none */
	const char *question, *provider, *model, *base_url, *tool_mode;
	const char *outcome;            /* answered step_limit timeout failed, or running */
	const char *answer, *error;     /* NULL: none */
	int steps, tool_calls;
	int64_t input_tokens, output_tokens;
	double seconds, tool_seconds;
	const char *withheld;           /* JSON counts, or NULL: nothing filtered */
};
/* fn returns non-zero to stop. */
typedef int (*hq_agent_log_fn)(void *ctx, const struct hq_agent_log_entry *r);
/* The last `limit` runs, newest first; with id > 0, only run id. Returns
 * how many were given to fn, or -1. */
int hq_agent_log_runs(struct hq_store *s, int64_t id, int limit, hq_agent_log_fn fn,
    void *ctx, struct hq_err *e);

/* One request to the model and one tool call, as logged. */
struct hq_agent_log_request {
	int step;
	double seconds;
	int64_t input_tokens, output_tokens;
	int tool_calls, cut_calls, retries;
	const char *stop_reason;        /* NULL: none */
};
struct hq_agent_log_call {
	int step;
	const char *call_id, *tool, *arguments;  /* arguments: JSON text */
	int exit_status;                /* -1: it did not exit (not run, timed out) */
	int is_error;
	int ran;                        /* 0: refused or unknown; the numbers below are 0 */
	double seconds;
	int64_t rows, rows_cut, output_bytes, result_bytes;
};
struct hq_agent_log_visit {
	void *ctx;
	hq_agent_log_fn run;
	void (*request)(void *ctx, const struct hq_agent_log_request *q);
	void (*call)(void *ctx, const struct hq_agent_log_call *c);
};
/* Run id: the run, then each step's request followed by its tool calls.
 * Returns 1, 0 when there is no such run, or -1. */
int hq_agent_log_show(struct hq_store *s, int64_t id, const struct hq_agent_log_visit *v,
    struct hq_err *e);
/* The sessions, the most recently used first: name, runs, last start. */
int hq_agent_log_sessions(struct hq_store *s, int limit,
    void (*fn)(void *ctx, const char *name, int runs, int64_t last), void *ctx,
    struct hq_err *e);
/* The provider and model pairs used, the most recent first. */
int hq_agent_log_models(struct hq_store *s, int limit,
    void (*fn)(void *ctx, const char *provider, const char *model), void *ctx,
    struct hq_err *e);

#endif
