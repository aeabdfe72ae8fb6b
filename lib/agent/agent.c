/* agent — the system prompt and the tool-calling loop (the tools it calls:
 * agent_tools.c). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/agent.h"
#include "hq/buf.h"
#include "hq/json.h"
#include "hq/privacy.h"
#include "hq/proc.h"
#include "hq/time.h"

/* ---- system prompt ---- */

char *
hq_agent_system_prompt(const struct hq_agent_tools *tools, int text_mode,
    const char *today, const char *zone)
{
	struct hq_buf s = {0};
	char head[512];
	snprintf(head, sizeof head,
	    "You answer questions about the user's own health data. Today is %s; the "
	    "user's time zone is %s. Resolve relative dates (\"last week\", \"in December\") "
	    "against today, in that zone, and pass explicit dates to the tools.\n\n",
	    today, zone);
	hq_buf_puts(&s, head);
	hq_buf_puts(&s,
	    "The data comes from Apple Health exports (steps, heart rate, HRV, sleep stages, "
	    "workouts with routes, weight, energy, blood pressure...), continuous glucose "
	    "monitors (Dexcom, Libre), DEXA scans and lab results, stored on the user's "
	    "machine. You reach it only through the tools, which are the hq command-line "
	    "programs; every row they return carries its unit.\n\n"
	    "How to work:\n"
	    "- If you do not know which metrics exist or how far back they go, list them first "
	    "(hq_query with list=true).\n"
	    "- Prefer aggregated queries (by day, week or month, with avg/sum/min/max) over raw "
	    "samples; ask for raw rows only when you need them, with a limit.\n"
	    "- Call several tools in one turn when the calls do not depend on each other.\n"
	    "- When a tool returns an error, read it and fix the arguments; do not repeat a "
	    "call that failed the same way.\n\n"
	    "How to answer:\n"
	    "- Plainly and briefly, with the numbers, their units, and the dates or period "
	    "they cover.\n"
	    "- When the data needed is missing or too sparse, say so; never guess or invent "
	    "values.\n"
	    "- You are not a doctor: describe what the data shows, do not diagnose, and "
	    "suggest a clinician for medical decisions.\n");
	if (text_mode) {
		hq_buf_puts(&s,
		    "\nTools. To call one, reply with a fenced block and nothing else:\n"
		    "```json\n{\"name\": \"TOOL\", \"arguments\": {...}}\n```\n"
		    "Several blocks in one reply run together. The results come back in the "
		    "next message. When you have the answer, reply in plain text with no such "
		    "block.\n\n");
		for (size_t i = 0; i < tools->n; i++) {
			cJSON *clean = hq_json_schema_clean(tools->v[i].parameters);
			char *p = clean ? cJSON_PrintUnformatted(clean) : NULL;
			hq_buf_printf(&s, "- %s: %s\n  parameters: %s\n", tools->v[i].name,
			    tools->v[i].description, p ? p : "{}");
			cJSON_free(p);
			cJSON_Delete(clean);
		}
	}
	return hq_buf_steal(&s);
}

/* ---- the loop ---- */

const char *
hq_agent_status_name(enum hq_agent_status st)
{
	static const char *const names[] = { "answered", "step_limit", "timeout", "failed" };
	return names[st];
}

double
hq_agent_micro(double seconds)
{
	return (double)(long long)(seconds * 1e6 + 0.5) / 1e6;
}

void
hq_agent_outcome_free(struct hq_agent_outcome *out)
{
	free(out->answer);
	out->answer = NULL;
}

/* text mode: the model sees tool results as user messages */
static void
render_text_conv(const struct hq_llm_conv *in, struct hq_llm_conv *out)
{
	hq_llm_conv_init(out);
	hq_llm_conv_set_system(out, in->system);
	for (size_t i = 0; i < in->n; i++) {
		const struct hq_llm_msg *m = &in->msgs[i];
		struct hq_buf s = {0};
		if (m->role != HQ_LLM_TOOL) {
			struct hq_llm_msg c = { .role = m->role, .text = m->text ? hq_xstrdup(m->text) : NULL };
			hq_llm_conv_push(out, &c);
			continue;
		}
		hq_buf_printf(&s, "Result of %.250s%s:\n%s", m->tool_name,
		    m->is_error ? " (error)" : "", m->text);
		hq_llm_conv_add_user(out, s.data);
		hq_buf_free(&s);
	}
}

/* what the model gets back from one finished tool run */
static char *
result_text(const struct hq_agent_tool *t, const struct hq_proc *p,
    struct hq_agent_result *res, double timeout)
{
	/* stopped before its own timeout: the run's budget ran out */
	int budget = p->not_run || (p->timed_out && p->seconds + 0.01 < timeout);
	const char *cmd = strrchr(t->path, '/') ? strrchr(t->path, '/') + 1 : t->path;
	struct hq_buf s = {0};
	char *text;

	res->exit_status = p->exit_status;
	res->timed_out = p->timed_out;
	res->seconds = p->seconds;
	res->bytes = p->out_total;
	res->rows = p->out_lines;
	res->rows_cut = p->out_lines - p->kept_lines;
	res->is_error = p->spawn_errno || p->not_run || p->timed_out || p->exit_status != 0;
	if (p->not_run)
		hq_buf_printf(&s, "error: %s was not run: the time budget ran out before "
		    "its turn", cmd);
	else if (p->spawn_errno)
		hq_buf_printf(&s, "error: cannot run %s: %s", cmd, strerror(p->spawn_errno));
	else if (p->timed_out && budget)
		hq_buf_printf(&s, "error: %s was stopped after %.3g s: the time budget ran "
		    "out", cmd, p->seconds);
	else if (p->timed_out)
		hq_buf_printf(&s, "error: %s timed out after %.3g s and was stopped; ask for "
		    "less (a shorter period, a coarser --by)", cmd, timeout);
	else if (p->exit_status < 0)
		hq_buf_printf(&s, "error: %s was killed by signal %d", cmd, p->term_signal);
	else if (p->exit_status != 0)
		hq_buf_printf(&s, "error: %s exited with status %d%s", cmd, p->exit_status,
		    p->exit_status == 1 ? " (found nothing)" : "");
	if (res->is_error && !p->spawn_errno && !p->not_run) {
		if (p->err_len)
			hq_buf_printf(&s, "\n%s", p->err);
		if (p->out_len)
			hq_buf_printf(&s, "\n%s", p->out);
	} else if (!res->is_error) {
		hq_buf_puts(&s, p->out_len ? p->out : "(no output)\n");
		if (res->rows_cut)
			hq_buf_printf(&s, "[output cut: %zu of %zu rows shown, %zu rows (%zu bytes) "
			    "left out; narrow the query: a shorter period, a coarser --by, or "
			    "--limit]", p->kept_lines, p->out_lines, res->rows_cut,
			    p->out_total - p->out_len);
	}
	text = hq_buf_steal(&s);
	res->text = text;
	return text;
}

static void
tools_list(const struct hq_agent_tools *tools, char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t i = 0; i < tools->n; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, "%s%s", i ? ", " : "", tools->v[i].name);
	}
	if (!tools->n)
		snprintf(buf, n, "none");
}

/* The argv of a call whose arguments may name placeholders: the names
 * they stand for go to the tool. */
static int
argv_restored(const struct hq_privacy *p, const struct hq_agent_tool *t, const char *args,
    char ***argv, struct hq_err *why)
{
	char *real;
	int rc;

	if (!p || !p->withhold || !args)
		return hq_agent_argv(t, args, argv, why);
	real = hq_privacy_restore(p, args, 1);
	rc = hq_agent_argv(t, real, argv, why);
	free(real);
	return rc;
}

/* One call's tool and argv, or why it is not run (in why). */
static void
prepare_call(const struct hq_agent_config *cfg, const struct hq_agent_tools *tools,
    const struct hq_llm_call *c, const struct hq_agent_hooks *h,
    const struct hq_agent_tool **tool, char ***argv, struct hq_err *why)
{
	char names[400];

	*tool = hq_agent_tool_find(tools, c->name);
	if (c->args_dropped)
		hq_err_set(why, "error: not run: the arguments are %zu bytes, over the "
		    "limit of %d bytes, and were not read; pass fewer or shorter values",
		    c->args_dropped, HQ_LLM_MAX_ARGS);
	else if (!*tool) {
		tools_list(tools, names, sizeof names);
		hq_err_set(why, "error: unknown tool '%s'; the tools are: %s", c->name, names);
	} else if (argv_restored(cfg->privacy, *tool, c->args, argv, why))
		hq_err_prefix(why, "error");
	else if (hq_agent_call_writes(*tool, *argv) && !cfg->yes &&
	    !(h->confirm && h->confirm(h->ctx, *tool, *argv)))
		hq_err_set(why, "error: refused: %s changes the user's data store and the "
		    "user did not allow it (they can rerun hq-agent with --yes); do not "
		    "retry it", c->name);
}

/* runs the calls of one reply; results go into conv in call order, and
 * what they found into *found */
static void
run_calls(const struct hq_agent_config *cfg, const struct hq_agent_tools *tools,
    const struct hq_llm_reply *r, int step, double deadline,
    struct hq_llm_conv *conv, const struct hq_agent_hooks *h,
    struct hq_agent_outcome *out, char **found)
{
	size_t n = r->ncalls, nrun = 0;
	struct hq_proc *procs = hq_xcalloc(n, sizeof *procs);
	char ***argvs = hq_xcalloc(n, sizeof *argvs);
	struct hq_err *why = hq_xcalloc(n, sizeof *why);
	const struct hq_agent_tool **tl = hq_xcalloc(n, sizeof *tl);
	size_t *slot = hq_xcalloc(n, sizeof *slot);
	struct hq_proc_limits lim = { HQ_AGENT_MAX_RUNNING, cfg->tool_timeout, deadline,
		cfg->output_cap };
	struct hq_buf f = {0};
	double t0;

	for (size_t i = 0; i < n; i++) {
		prepare_call(cfg, tools, &r->calls[i], h, &tl[i], &argvs[i], &why[i]);
		if (h->tool_call)
			h->tool_call(h->ctx, step, &r->calls[i], why[i].msg[0] ? NULL : argvs[i]);
		if (!why[i].msg[0]) {
			procs[nrun].argv = argvs[i];
			slot[i] = nrun++;
		}
	}
	t0 = hq_time_monotonic();
	/* the arguments are a model's: a tool limits what they may reach
	 * (hq-correlate takes no file operands from a model, issue 23) */
	setenv(HQ_AGENT_FROM_MODEL, "1", 1);
	if (nrun)
		hq_proc_run_all(procs, nrun, &lim);
	unsetenv(HQ_AGENT_FROM_MODEL);
	out->tool_seconds += hq_time_monotonic() - t0;
	for (size_t i = 0; i < n; i++) {
		const struct hq_llm_call *c = &r->calls[i];
		struct hq_agent_result res = { .exit_status = -1, .text = why[i].msg,
			.is_error = 1 };
		char *text = why[i].msg[0] ? NULL
		    : result_text(tl[i], &procs[slot[i]], &res, cfg->tool_timeout);

		if (h->tool_result)
			h->tool_result(h->ctx, step, c, &res);
		hq_buf_printf(&f, "%s:\n%s\n", c->name, res.text);
		hq_llm_conv_add_result(conv, c->id, c->name, res.text, res.is_error);
		free(text);
	}
	free(*found);
	*found = hq_buf_steal(&f);
	for (size_t i = 0; i < nrun; i++)
		hq_proc_free(&procs[i]);
	for (size_t i = 0; i < n; i++)
		hq_agent_argv_free(argvs[i]);
	free(procs);
	free(argvs);
	free(why);
	free(tl);
	free(slot);
}

/* What to tell the model when its reply has no call to run but should
 * have had one; NULL when it is an answer. */
static const char *
retry_note(const struct hq_llm_reply *r)
{
	/* Gemini's MALFORMED_FUNCTION_CALL */
	if (r->stop_reason && (!strcmp(r->stop_reason, "MALFORMED_FUNCTION_CALL") ||
	    !strcmp(r->stop_reason, "UNEXPECTED_TOOL_CALL")))
		return "(hq-agent) Your last tool call was malformed and was not run. "
		    "Call the tool again with valid arguments, or answer.";
	/* a call cut off at the token limit is never run */
	if (r->ncut)
		return "(hq-agent) Your reply was cut off at the token limit and its "
		    "tool call was not run. Make a smaller call, or answer.";
	return NULL;
}

/* The conversation as a model elsewhere sees it: the same messages (the
 * system prompt and calls shared, not copied), their texts filtered, after
 * the names every message shows are learnt. */
static void
private_conv(struct hq_privacy *p, const struct hq_llm_conv *in, struct hq_llm_conv *out)
{
	*out = *in;
	out->msgs = hq_xcalloc(in->n ? in->n : 1, sizeof *out->msgs);
	out->cap = in->n;
	for (size_t i = 0; i < in->n; i++)
		if (in->msgs[i].role != HQ_LLM_ASSISTANT)
			hq_privacy_learn(p, in->msgs[i].text);
	memset(p->count, 0, sizeof p->count);
	for (size_t i = 0; i < in->n; i++) {
		out->msgs[i] = in->msgs[i];
		out->msgs[i].text = hq_privacy_filter(p, in->msgs[i].text);
	}
}

static void
private_conv_free(struct hq_llm_conv *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->msgs[i].text);
	free(c->msgs);
}

/* Streamed words with the placeholders given back their names; the end of
 * what came that may still grow into a placeholder waits for more. */
struct token_restore {
	hq_llm_token_fn fn;
	void *ctx;
	const struct hq_privacy *p;
	struct hq_buf held;
};

static void
token_emit(struct token_restore *t, size_t n)
{
	char save = t->held.data[n];
	char *real;

	t->held.data[n] = '\0';
	real = hq_privacy_restore(t->p, t->held.data, 0);
	t->held.data[n] = save;
	if (*real)
		t->fn(t->ctx, real, strlen(real));
	free(real);
	memmove(t->held.data, t->held.data + n, t->held.len - n + 1);
	t->held.len -= n;
}

static void
on_token_restore(void *ctx, const char *text, size_t len)
{
	struct token_restore *t = ctx;

	hq_buf_append(&t->held, text, len);
	token_emit(t, t->held.len - hq_privacy_pending(t->held.data, t->held.len));
}

static void
token_restore_flush(struct token_restore *t)
{
	if (t->held.len)
		token_emit(t, t->held.len);
	hq_buf_free(&t->held);
}

/* The model's reply to the conversation (in text mode with the tool
 * results as user messages, and the calls read from its text). 0, or -1
 * with out->status and out->error set. */
static int
ask_model(const struct hq_agent_config *cfg, const struct hq_llm_options *llm,
    const struct hq_llm_tool *lt, size_t nt, const struct hq_llm_conv *conv,
    const struct hq_agent_hooks *h, struct hq_llm_reply *r,
    struct hq_agent_outcome *out)
{
	struct hq_llm_conv text_conv, priv_conv;
	const struct hq_llm_conv *sent = conv;
	struct token_restore tr = { h->token, h->ctx, cfg->privacy, {0} };
	int timed_out = 0, rc, priv = cfg->privacy && cfg->privacy->withhold;

	if (cfg->text_mode) {
		render_text_conv(conv, &text_conv);
		sent = &text_conv;
	}
	if (priv) {
		private_conv(cfg->privacy, sent, &priv_conv);
		sent = &priv_conv;
	}
	rc = hq_llm_complete(llm, sent, lt, cfg->text_mode ? 0 : nt,
	    priv && h->token ? on_token_restore : h->token, priv ? (void *)&tr : h->ctx, r,
	    &timed_out, &out->error);
	if (priv) {
		token_restore_flush(&tr);
		private_conv_free(&priv_conv);
	}
	if (cfg->text_mode)
		hq_llm_conv_free(&text_conv);
	if (rc) {
		out->status = timed_out ? HQ_AGENT_TIMEOUT : HQ_AGENT_FAILED;
		return -1;
	}
	if (cfg->text_mode)
		hq_llm_text_calls(r);
	return 0;
}

/* the calls of a reply past HQ_AGENT_MAX_CALLS were dropped: the model
 * is told which, after the results of those run */
static void
skipped_note(struct hq_llm_conv *conv, const struct hq_llm_reply *r)
{
	char note[512];

	snprintf(note, sizeof note, "(hq-agent) Your last reply asked for %zu tool calls; "
	    "one reply may make at most %d. The first %zu were run (their results are "
	    "above); the other %zu were not run. Ask again for what you still need, a "
	    "few calls at a time, or answer.", r->ncalls + r->nskipped, HQ_AGENT_MAX_CALLS,
	    r->ncalls, r->nskipped);
	hq_llm_conv_add_user(conv, note);
}

/* Not answered: what was found, the model's last words and the last
 * results, becomes the answer. */
static void
found_so_far(struct hq_agent_outcome *out, const char *last_text, const char *found)
{
	struct hq_buf s = {0};

	if (last_text) {
		hq_buf_printf(&s, "%s\n", last_text);
		out->said = s.len;
	}
	if (found)
		hq_buf_puts(&s, found);
	out->answer = s.data;
}

/* A model's text (taken) with its placeholders' names given back. */
static char *
restored(const struct hq_privacy *p, char *text)
{
	char *real;

	if (!p || !p->withhold || !text)
		return text;
	real = hq_privacy_restore(p, text, 0);
	free(text);
	return real;
}

int
hq_agent_run(const struct hq_agent_config *cfg, const struct hq_agent_tools *tools,
    struct hq_llm_conv *conv, const struct hq_agent_hooks *h,
    struct hq_agent_outcome *out)
{
	double start = hq_time_monotonic(), t0;
	double deadline = cfg->timeout > 0 ? start + cfg->timeout : 0;
	struct hq_llm_options llm = cfg->llm;
	struct hq_llm_tool *lt = hq_xcalloc(tools->n, sizeof *lt);
	char *found = NULL, *last_text = NULL;
	struct hq_llm_reply r;
	const char *note;

	memset(out, 0, sizeof *out);
	llm.deadline = deadline;
	for (size_t i = 0; i < tools->n; i++)
		lt[i] = (struct hq_llm_tool){ tools->v[i].name, tools->v[i].description,
		    tools->v[i].parameters };
	out->status = HQ_AGENT_STEP_LIMIT;
	for (int step = 1; step <= cfg->max_steps; step++) {
		out->steps = step;
		if (h->step)
			h->step(h->ctx, step);
		t0 = hq_time_monotonic();
		if (ask_model(cfg, &llm, lt, tools->n, conv, h, &r, out))
			break;
		/* a reply asking for thousands of calls gets the first few */
		hq_llm_reply_keep_calls(&r, HQ_AGENT_MAX_CALLS);
		out->input_tokens += r.input_tokens;
		out->output_tokens += r.output_tokens;
		out->cut_calls = r.ncut;        /* the last reply's: earlier ones were retried */
		if (h->reply)
			h->reply(h->ctx, step, &r, hq_time_monotonic() - t0);
		hq_llm_conv_add_reply(conv, &r);
		if (r.text && *r.text) {
			free(last_text);
			last_text = restored(cfg->privacy, hq_xstrdup(r.text));
		}
		if (!r.ncalls && (note = retry_note(&r)) && step < cfg->max_steps) {
			hq_llm_reply_free(&r);
			hq_llm_conv_add_user(conv, note);
			continue;
		}
		if (!r.ncalls) {
			out->status = HQ_AGENT_ANSWERED;
			out->answer = restored(cfg->privacy, r.text);
			r.text = NULL;
			hq_llm_reply_free(&r);
			break;
		}
		run_calls(cfg, tools, &r, step, deadline, conv, h, out, &found);
		if (r.nskipped)
			skipped_note(conv, &r);
		hq_llm_reply_free(&r);
		if (deadline > 0 && hq_time_monotonic() >= deadline) {
			out->status = HQ_AGENT_TIMEOUT;
			hq_err_set(&out->error, "the time budget (%.0f s) ran out", cfg->timeout);
			break;
		}
	}
	if (out->status != HQ_AGENT_ANSWERED)
		found_so_far(out, last_text, found);
	if (out->status == HQ_AGENT_STEP_LIMIT)
		hq_err_set(&out->error, "the step budget (%d) ran out before the model "
		    "answered", cfg->max_steps);
	free(found);
	free(last_text);
	free(lt);
	out->seconds = hq_time_monotonic() - start;
	return out->status == HQ_AGENT_ANSWERED ? 0 : -1;
}
