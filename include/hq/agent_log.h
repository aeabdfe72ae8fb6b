/*
 * agent_log — hq-agent's record in the store: every run (question,
 * provider, model, outcome, tokens, durations), each request to the model,
 * each tool call (arguments, exit status, sizes) and the conversation, so
 * that --session can continue it and --log can list runs. API keys are
 * never passed in, so they can never be written.
 *
 * Memory: the store is borrowed. Messages loaded by
 * hq_agent_log_load_session are pushed into the caller's conversation.
 */
#ifndef HQ_AGENT_LOG_H
#define HQ_AGENT_LOG_H

#include <stdint.h>
#include <stdio.h>

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
int hq_agent_log_finish(struct hq_store *s, int64_t run, const struct hq_agent_outcome *o,
    const struct hq_llm_conv *conv, size_t from, struct hq_err *e);
/* Appends the stored messages of every earlier run of the session. */
int hq_agent_log_load_session(struct hq_store *s, const char *session,
    struct hq_llm_conv *conv, struct hq_err *e);
/* Lists the last `limit` runs, one JSON object per line. */
int hq_agent_log_list(struct hq_store *s, int limit, FILE *fp, struct hq_err *e);

#endif
