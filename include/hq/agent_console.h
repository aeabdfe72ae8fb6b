/*
 * agent_console — what a person or a script sees of one hq-agent run: the
 * model's words streamed to a terminal (escaped), -v lines on stderr,
 * --jsonl events on stdout, the consent prompt before a tool that writes
 * (on a terminal only), then the answer and the closing event. Its hooks
 * also log each request and tool call in the store (agent_log).
 *
 * Memory: the store is borrowed; hq_agent_console_free releases the
 * console's buffer. A step that cannot be logged or an event that cannot
 * be written is said through warn (the command's hq_warn) and sets failed.
 */
#ifndef HQ_AGENT_CONSOLE_H
#define HQ_AGENT_CONSOLE_H

#include <stdint.h>

#include "hq/agent.h"
#include "hq/buf.h"
#include "hq/store.h"

struct hq_agent_console {
	/* set by the caller */
	struct hq_store *store; /* where steps are logged; NULL: nowhere */
	int64_t run_id;
	int verbose, jsonl, tty_out;
	double start;           /* hq_time_monotonic() at the start: events' "t" */
	void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
	int failed;             /* an event or the log could not be written */
	/* the console's own */
	int streamed;           /* text is on the terminal since the last line end */
	int ended;              /* that line was ended for a -v line on stderr */
	int shown;              /* replies' text was streamed to the terminal */
	struct hq_buf esc;      /* model text escaped for the terminal */
};

/* The hooks for hq_agent_run, their context the console. */
struct hq_agent_hooks hq_agent_console_hooks(struct hq_agent_console *c);
/* The answer (only what the stream has not shown), or its event. */
void hq_agent_console_answer(struct hq_agent_console *c, const struct hq_agent_outcome *out);
/* With --jsonl, the closing event: the outcome, its figures, the exit status. */
void hq_agent_console_done(struct hq_agent_console *c, const struct hq_agent_outcome *out,
    int status);
void hq_agent_console_free(struct hq_agent_console *c);

#endif
