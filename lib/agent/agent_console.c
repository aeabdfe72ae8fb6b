/* agent_console — one hq-agent run as the user or a script sees it. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/agent_console.h"
#include "hq/agent_log.h"
#include "hq/term.h"
#include "hq/time.h"

/* ---- events and hooks ---------------------------------------------------- */

static void
event(struct hq_agent_console *r, cJSON *o)
{
	char *s;

	cJSON_AddNumberToObject(o, "t", hq_agent_micro(hq_time_monotonic() - r->start));
	if ((s = cJSON_PrintUnformatted(o)))
		printf("%s\n", s);
	else if (!r->failed) {
		r->warn("cannot write a --jsonl event");
		r->failed = 1;
	}
	fflush(stdout);
	cJSON_free(s);
	cJSON_Delete(o);
}

static cJSON *
event_new(const char *name, int step)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "event", name);
	if (step)
		cJSON_AddNumberToObject(o, "step", step);
	return o;
}

/* a command as it is shown: its name, not its path */
static const char *
command_name(const char *path)
{
	return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

/* Before a -v line on stderr: the answer streamed on stdout ends its line,
 * so that the two never run into each other on a terminal. */
static void
end_streamed_line(struct hq_agent_console *r)
{
	if (r->verbose && r->streamed && !r->ended) {
		putchar('\n');
		fflush(stdout);
		r->ended = 1;
	}
}

/* a step the log could not take: said, and the run is not a success */
static void
log_failed(struct hq_agent_console *r, const struct hq_err *e)
{
	r->warn("%s", e->msg);
	r->failed = 1;
}

static void
on_token(void *ctx, const char *text, size_t len)
{
	struct hq_agent_console *r = ctx;
	cJSON *o;
	char *t;

	if (r->jsonl) {
		o = event_new("token", 0);
		t = hq_xmalloc(len + 1);
		memcpy(t, text, len);
		t[len] = '\0';
		cJSON_AddStringToObject(o, "text", t);
		free(t);
		event(r, o);
	} else if (r->tty_out) {
		hq_buf_reset(&r->esc);
		hq_term_escape(&r->esc, text, len, HQ_TERM_LINES);
		fwrite(r->esc.data, 1, r->esc.len, stdout);
		fflush(stdout);
		r->streamed = r->shown = 1;
		r->ended = 0;
	}
}

static void
on_reply(void *ctx, int step, const struct hq_llm_reply *rep, double seconds)
{
	struct hq_agent_console *r = ctx;
	struct hq_err e;
	cJSON *o;

	if (r->store && hq_agent_log_request(r->store, r->run_id, step, rep, seconds, &e))
		log_failed(r, &e);
	if (r->streamed && rep->ncalls) {
		putchar('\n');  /* the model's thinking aloud before a tool call */
		r->streamed = 0;
	}
	end_streamed_line(r);
	if (r->verbose)
		fprintf(stderr, "hq-agent: step %d: model replied in %.2f s (%ld in, %ld out "
		    "tokens, %zu tool calls%s%s%s)\n", step, seconds, rep->input_tokens,
		    rep->output_tokens, rep->ncalls, rep->retries ? ", after retries" : "",
		    rep->ncut ? ", some cut off by max tokens" : "",
		    rep->nskipped ? ", the rest not run: over the limit" : "");
	if (!r->jsonl)
		return;
	o = event_new("step", step);
	cJSON_AddNumberToObject(o, "seconds", hq_agent_micro(seconds));
	cJSON_AddNumberToObject(o, "input_tokens", (double)rep->input_tokens);
	cJSON_AddNumberToObject(o, "output_tokens", (double)rep->output_tokens);
	cJSON_AddNumberToObject(o, "tool_calls", (double)rep->ncalls);
	cJSON_AddNumberToObject(o, "cut_calls", (double)rep->ncut);
	cJSON_AddNumberToObject(o, "skipped_calls", (double)rep->nskipped);
	cJSON_AddNumberToObject(o, "retries", rep->retries);
	if (rep->stop_reason)
		cJSON_AddStringToObject(o, "stop_reason", rep->stop_reason);
	event(r, o);
}

static void
on_tool_call(void *ctx, int step, const struct hq_llm_call *c, char *const *argv)
{
	struct hq_agent_console *r = ctx;
	cJSON *o, *a;

	end_streamed_line(r);
	if (r->verbose) {
		fprintf(stderr, "hq-agent: step %d: %s ", step, hq_term_text(&r->esc, c->name, 80, 0));
		fprintf(stderr, "%s\n", hq_term_text(&r->esc, c->args, 300, 0));
	}
	if (!r->jsonl)
		return;
	o = event_new("tool_call", step);
	cJSON_AddStringToObject(o, "id", c->id);
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddStringToObject(o, "arguments", c->args);
	if (argv) {
		a = cJSON_AddArrayToObject(o, "argv");
		for (char *const *p = argv; *p; p++)
			cJSON_AddItemToArray(a, cJSON_CreateString(p == argv ? command_name(*p) : *p));
	}
	event(r, o);
}

static void
on_tool_result(void *ctx, int step, const struct hq_llm_call *c,
    const struct hq_agent_result *res)
{
	struct hq_agent_console *r = ctx;
	struct hq_err e;
	cJSON *o;

	if (r->store && hq_agent_log_tool(r->store, r->run_id, step, c, res, &e))
		log_failed(r, &e);
	end_streamed_line(r);
	if (r->verbose)
		fprintf(stderr, "hq-agent: step %d: %s ", step, hq_term_text(&r->esc, c->name, 80, 0));
	if (r->verbose && res->exit_status < 0 && !res->timed_out)
		fprintf(stderr, "not run: %s\n", hq_term_text(&r->esc, res->text, 600, 0));
	else if (r->verbose)
		fprintf(stderr, "exit %d%s, %zu rows%s, %.3f s\n", res->exit_status,
		    res->timed_out ? " (timed out)" : "", res->rows,
		    res->rows_cut ? " (some cut)" : "", res->seconds);
	if (!r->jsonl)
		return;
	o = event_new(res->is_error ? "tool_error" : "tool_result", step);
	cJSON_AddStringToObject(o, "id", c->id);
	cJSON_AddStringToObject(o, "name", c->name);
	if (res->exit_status >= 0)
		cJSON_AddNumberToObject(o, "exit_status", res->exit_status);
	cJSON_AddNumberToObject(o, "seconds", hq_agent_micro(res->seconds));
	cJSON_AddNumberToObject(o, "rows", (double)res->rows);
	cJSON_AddNumberToObject(o, "rows_cut", (double)res->rows_cut);
	cJSON_AddNumberToObject(o, "bytes", (double)res->bytes);
	if (res->is_error)
		cJSON_AddStringToObject(o, "error", res->text);
	event(r, o);
}

/* A tool that writes runs only after a yes typed at a terminal. The
 * arguments are the model's: each is shown on a line of its own, every
 * byte that could move the cursor, recolour or reorder the text escaped,
 * so that the prompt shows exactly what would run. */
static int
on_confirm(void *ctx, const struct hq_agent_tool *t, char *const *argv)
{
	struct hq_agent_console *r = ctx;
	char line[32];
	int n = 0;

	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
		return 0;
	while (argv[n + 1])
		n++;
	if (r->streamed) {
		putchar('\n');
		fflush(stdout);
		r->streamed = 0;
	}
	fprintf(stderr, "hq-agent: the model wants to change your data store. It asks to run\n"
	    "  %s\n", hq_term_text(&r->esc, argv[0], 4096, HQ_TERM_BACKSLASH));
	if (n)
		fprintf(stderr, "with %d argument%s, one a line (control and invisible "
		    "characters shown as \\ escapes):\n", n, n == 1 ? "" : "s");
	else
		fprintf(stderr, "with no arguments.\n");
	for (int i = 1; i <= n; i++)
		fprintf(stderr, "  %s\n", hq_term_text(&r->esc, argv[i], 4096, HQ_TERM_BACKSLASH));
	fprintf(stderr, "Allow it? [y/N] ");
	if (!fgets(line, sizeof line, stdin))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

/* ---- the end of the run -------------------------------------------------- */

void
hq_agent_console_answer(struct hq_agent_console *r, const struct hq_agent_outcome *out)
{
	const char *answer = out->answer ? out->answer : "";
	cJSON *o;

	if (r->jsonl) {
		o = event_new("answer", 0);
		cJSON_AddStringToObject(o, "text", answer);
		event(r, o);
	} else if (r->streamed && out->status == HQ_AGENT_ANSWERED) {
		if (!r->ended)
			putchar('\n');
	}
	else {
		if (r->shown)   /* the model's words streamed: just what was found */
			answer += out->said;
		if (r->tty_out)
			answer = hq_term_text(&r->esc, answer, SIZE_MAX, HQ_TERM_LINES);
		if (*answer)
			printf("%s%s", answer, answer[strlen(answer) - 1] == '\n' ? "" : "\n");
	}
}

void
hq_agent_console_done(struct hq_agent_console *r, const struct hq_agent_outcome *out,
    int status)
{
	cJSON *o;

	if (!r->jsonl)
		return;
	o = event_new("done", 0);
	cJSON_AddStringToObject(o, "outcome", hq_agent_status_name(out->status));
	cJSON_AddNumberToObject(o, "steps", out->steps);
	cJSON_AddNumberToObject(o, "seconds", hq_agent_micro(out->seconds));
	cJSON_AddNumberToObject(o, "tool_seconds", hq_agent_micro(out->tool_seconds));
	cJSON_AddNumberToObject(o, "input_tokens", (double)out->input_tokens);
	cJSON_AddNumberToObject(o, "output_tokens", (double)out->output_tokens);
	cJSON_AddNumberToObject(o, "exit", status);
	if (out->status != HQ_AGENT_ANSWERED)
		cJSON_AddStringToObject(o, "error", out->error.msg);
	event(r, o);
}

struct hq_agent_hooks
hq_agent_console_hooks(struct hq_agent_console *c)
{
	return (struct hq_agent_hooks){
		.ctx = c, .token = on_token, .reply = on_reply, .tool_call = on_tool_call,
		.tool_result = on_tool_result, .confirm = on_confirm,
	};
}

void
hq_agent_console_free(struct hq_agent_console *c)
{
	hq_buf_free(&c->esc);
}
