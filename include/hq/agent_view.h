/*
 * agent_view — hq-agent --log: the logged runs (agent_log) shown to a
 * person (a table of runs that fits the terminal, one run's steps and tool
 * calls wrapped to its width, whatever a model or server said shown with
 * control characters as '?') or to a script (JSON lines, one JSON object).
 *
 * Memory: the store and the stream are borrowed; nothing is kept.
 */
#ifndef HQ_AGENT_VIEW_H
#define HQ_AGENT_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/err.h"
#include "hq/store.h"

/* Where the view goes: a terminal (tty) of width columns, or a pipe. */
struct hq_agent_view {
	FILE *fp;
	int tty;
	size_t width;
};

/* The last `limit` runs, newest first: a table on a terminal, one JSON
 * object a line otherwise (nothing when there are none). Returns how many
 * runs there are, or -1. */
int hq_agent_view_runs(struct hq_store *s, const struct hq_agent_view *v, int limit,
    struct hq_err *e);
/* Run id: the run, each step's request and its tool calls, the answer or
 * the error; on a pipe, one JSON object. Returns 1, 0 when there is no
 * such run (nothing written), or -1. */
int hq_agent_view_run(struct hq_store *s, const struct hq_agent_view *v, int64_t id,
    struct hq_err *e);

#endif
