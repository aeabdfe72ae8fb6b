/* agent_view — hq-agent --log: runs and one run's steps, for people or scripts. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "hq/agent.h"
#include "hq/agent_log.h"
#include "hq/agent_view.h"
#include "hq/buf.h"
#include "hq/term.h"
#include "hq/time.h"

/* "2026-11-23 14:05", local */
static void
local_minute(int64_t t, char *buf, size_t n)
{
	struct hq_local l;

	hq_time_to_local(t, &l);
	snprintf(buf, n, "%04d-%02d-%02d %02d:%02d", l.year, l.month, l.day, l.hour, l.min);
}

/* s cut to cols columns (control characters shown as '?'), and a line end */
static void
put_line(FILE *fp, const char *s, size_t cols)
{
	char buf[1024];

	hq_term_fit(buf, sizeof buf, s, cols);
	fprintf(fp, "%s\n", buf);
}

/* s cut to cols columns (control characters shown as '?') and padded to
 * them; right-aligned when right. */
static void
put_cell(FILE *fp, const char *s, size_t cols, int right)
{
	char buf[1024];
	size_t used = hq_term_fit(buf, sizeof buf, s ? s : "", cols);

	if (right)
		fprintf(fp, "%*s%s", (int)(cols - used), "", buf);
	else
		fprintf(fp, "%s%*s", buf, (int)(cols - used), "");
}

/* label, padded to indent columns, then text from there, wrapped to width
 * columns: its own line ends kept, other control characters shown as '?' */
static void
put_text(FILE *fp, const char *label, const char *text, size_t indent, size_t width)
{
	hq_term_wrap(fp, label, indent, indent, text, width);
}

/* One builder of a run's JSON object. The list's line (detail 0) counts
 * the tool calls; --log ID's object (detail 1) has them as an array under
 * that name, and adds where the model was and the tools' time. */
static cJSON *
run_json(const struct hq_agent_log_entry *r, int detail)
{
	cJSON *o = cJSON_CreateObject();
	char when[32];

	hq_time_format_utc(r->started, when, sizeof when);
	cJSON_AddNumberToObject(o, "id", (double)r->id);
	cJSON_AddStringToObject(o, "started", when);
	if (r->session)
		cJSON_AddStringToObject(o, "session", r->session);
	cJSON_AddStringToObject(o, "question", r->question);
	cJSON_AddStringToObject(o, "provider", r->provider);
	cJSON_AddStringToObject(o, "model", r->model);
	if (detail) {
		cJSON_AddStringToObject(o, "base_url", r->base_url);
		cJSON_AddStringToObject(o, "tool_mode", r->tool_mode);
		cJSON_AddStringToObject(o, "outcome", r->outcome);
		cJSON_AddNumberToObject(o, "steps", r->steps);
	} else {
		cJSON_AddNumberToObject(o, "steps", r->steps);
		cJSON_AddNumberToObject(o, "tool_calls", r->tool_calls);
		cJSON_AddStringToObject(o, "outcome", r->outcome);
	}
	cJSON_AddNumberToObject(o, "input_tokens", (double)r->input_tokens);
	cJSON_AddNumberToObject(o, "output_tokens", (double)r->output_tokens);
	if (detail) {
		cJSON_AddNumberToObject(o, "seconds", hq_agent_micro(r->seconds));
		cJSON_AddNumberToObject(o, "tool_seconds", hq_agent_micro(r->tool_seconds));
	} else
		cJSON_AddNumberToObject(o, "seconds", r->seconds);
	if (r->answer)
		cJSON_AddStringToObject(o, "answer", r->answer);
	if (r->error)
		cJSON_AddStringToObject(o, "error", r->error);
	if (detail && r->withheld) {
		cJSON *w = cJSON_Parse(r->withheld);
		if (w)
			cJSON_AddItemToObject(o, "withheld", w);
	}
	return o;
}

/* o on a line of its own, and freed */
static void
put_json(FILE *fp, cJSON *o)
{
	char *txt = cJSON_PrintUnformatted(o);

	if (txt)
		fprintf(fp, "%s\n", txt);
	cJSON_free(txt);
	cJSON_Delete(o);
}

/* ---- the runs ------------------------------------------------------------ */

struct log_rows {
	struct log_row {
		int64_t id, started, tokens;
		int steps;
		char outcome[16];
		char *question;         /* "[session] question" */
	} *v;
	size_t n;
};

static int
keep_row(void *ctx, const struct hq_agent_log_entry *r)
{
	struct log_rows *rows = ctx;
	struct log_row *x;
	struct hq_buf q = {0};

	rows->v = hq_xrealloc(rows->v, (rows->n + 1) * sizeof *rows->v);
	x = &rows->v[rows->n++];
	x->id = r->id;
	x->started = r->started;
	x->tokens = r->input_tokens + r->output_tokens;
	x->steps = r->steps;
	snprintf(x->outcome, sizeof x->outcome, "%s", r->outcome);
	if (r->session)
		hq_buf_printf(&q, "[%s] ", r->session);
	hq_buf_puts(&q, r->question ? r->question : "");
	x->question = hq_buf_steal(&q);
	return 0;
}

static int
put_row_json(void *ctx, const struct hq_agent_log_entry *r)
{
	put_json(ctx, run_json(r, 0));
	return 0;
}

/* The runs as a table that fits the terminal: the question gets what the
 * other columns leave, at least 10; on a narrow one the tokens, then the
 * time, give way. */
static void
put_runs(const struct hq_agent_view *v, const struct log_rows *rows)
{
	FILE *fp = v->fp;
	size_t width = v->width, idw = 2, qw, fixed;
	int when_col = 1, tokens_col = 1;
	char when[32], num[32];

	for (size_t i = 0; i < rows->n; i++) {
		snprintf(num, sizeof num, "%lld", (long long)rows->v[i].id);
		if (strlen(num) > idw)
			idw = strlen(num);
	}
	/* id, when 16, steps 5, outcome 10, tokens 6, two spaces between */
	fixed = idw + 2 + 18 + 7 + 12 + 8;
	if (fixed + 10 > width) {
		tokens_col = 0;
		fixed -= 8;
	}
	if (fixed + 10 > width) {
		when_col = 0;
		fixed -= 18;
	}
	qw = width > fixed + 10 ? width - fixed : 10;
	put_cell(fp, "id", idw, 1);
	if (when_col)
		fprintf(fp, "  %-16s", "when");
	fprintf(fp, "  ");
	put_cell(fp, "question", qw, 0);
	if (tokens_col)
		fprintf(fp, "  %5s  %-10s  %6s\n", "steps", "outcome", "tokens");
	else
		fprintf(fp, "  %5s  %s\n", "steps", "outcome");
	for (size_t i = 0; i < rows->n; i++) {
		const struct log_row *r = &rows->v[i];
		snprintf(num, sizeof num, "%lld", (long long)r->id);
		put_cell(fp, num, idw, 1);
		local_minute(r->started, when, sizeof when);
		if (when_col)
			fprintf(fp, "  %-16s", when);
		fprintf(fp, "  ");
		put_cell(fp, r->question, qw, 0);
		if (tokens_col)
			fprintf(fp, "  %5d  %-10s  %6lld\n", r->steps, r->outcome, (long long)r->tokens);
		else
			fprintf(fp, "  %5d  %s\n", r->steps, r->outcome);
	}
}

int
hq_agent_view_runs(struct hq_store *s, const struct hq_agent_view *v, int limit,
    struct hq_err *e)
{
	struct log_rows rows = {0};
	int n;

	if (!v->tty)
		return hq_agent_log_runs(s, 0, limit, put_row_json, v->fp, e);
	if ((n = hq_agent_log_runs(s, 0, limit, keep_row, &rows, e)) > 0)
		put_runs(v, &rows);
	for (size_t i = 0; i < rows.n; i++)
		free(rows.v[i].question);
	free(rows.v);
	return n;
}

/* ---- one run ------------------------------------------------------------- */

/* the run on a terminal, or as one JSON object */
struct run_view {
	const struct hq_agent_view *v;
	cJSON *json, *requests, *calls;
	char *answer, *error;
};

static int
view_run(void *ctx, const struct hq_agent_log_entry *r)
{
	struct run_view *rv = ctx;
	FILE *fp = rv->v->fp;
	size_t width = rv->v->width;
	char when[32], line[256];

	rv->answer = r->answer ? hq_xstrdup(r->answer) : NULL;
	rv->error = r->error ? hq_xstrdup(r->error) : NULL;
	if (!rv->v->tty) {
		rv->json = run_json(r, 1);
		rv->requests = cJSON_AddArrayToObject(rv->json, "requests");
		rv->calls = cJSON_AddArrayToObject(rv->json, "tool_calls");
		return 0;
	}
	local_minute(r->started, when, sizeof when);
	snprintf(line, sizeof line, "run %lld, %s (%s)", (long long)r->id, when, hq_time_zone());
	put_line(fp, line, width);
	put_text(fp, "question", r->question ? r->question : "", 10, width);
	snprintf(line, sizeof line, "%s %s (%s tools)", r->provider, r->model, r->tool_mode);
	fprintf(fp, "%-10s", "model");
	put_line(fp, line, width - 10);
	if (r->session) {
		fprintf(fp, "%-10s", "session");
		put_line(fp, r->session, width - 10);
	}
	snprintf(line, sizeof line, "%s after %d step%s, %.2f s (tools %.2f s), "
	    "%lld tokens in, %lld out", r->outcome, r->steps, r->steps == 1 ? "" : "s",
	    r->seconds, r->tool_seconds, (long long)r->input_tokens,
	    (long long)r->output_tokens);
	put_text(fp, "outcome", line, 10, width);
	return 0;
}

static void
view_request(void *ctx, const struct hq_agent_log_request *q)
{
	struct run_view *rv = ctx;
	char line[256];

	if (!rv->v->tty) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "step", q->step);
		cJSON_AddNumberToObject(o, "seconds", hq_agent_micro(q->seconds));
		cJSON_AddNumberToObject(o, "input_tokens", (double)q->input_tokens);
		cJSON_AddNumberToObject(o, "output_tokens", (double)q->output_tokens);
		cJSON_AddNumberToObject(o, "tool_calls", q->tool_calls);
		cJSON_AddNumberToObject(o, "cut_calls", q->cut_calls);
		cJSON_AddNumberToObject(o, "retries", q->retries);
		if (q->stop_reason)
			cJSON_AddStringToObject(o, "stop_reason", q->stop_reason);
		cJSON_AddItemToArray(rv->requests, o);
		return;
	}
	snprintf(line, sizeof line, "step %d: %.2f s, %lld tokens in, %lld out, %d tool call%s%s%s%s",
	    q->step, q->seconds, (long long)q->input_tokens, (long long)q->output_tokens,
	    q->tool_calls, q->tool_calls == 1 ? "" : "s", q->retries ? ", retried" : "",
	    q->stop_reason ? ", stop: " : "", q->stop_reason ? q->stop_reason : "");
	putc('\n', rv->v->fp);
	put_line(rv->v->fp, line, rv->v->width);
}

static void
view_call(void *ctx, const struct hq_agent_log_call *c)
{
	struct run_view *rv = ctx;
	char line[256];
	struct hq_buf b = {0};

	if (!rv->v->tty) {
		cJSON *o = cJSON_CreateObject(), *args = cJSON_Parse(c->arguments ? c->arguments : "");
		cJSON_AddNumberToObject(o, "step", c->step);
		cJSON_AddStringToObject(o, "id", c->call_id);
		cJSON_AddStringToObject(o, "tool", c->tool);
		if (args)
			cJSON_AddItemToObject(o, "arguments", args);
		else
			cJSON_AddStringToObject(o, "arguments", c->arguments ? c->arguments : "");
		if (c->exit_status >= 0)
			cJSON_AddNumberToObject(o, "exit_status", c->exit_status);
		cJSON_AddBoolToObject(o, "is_error", c->is_error);
		if (c->ran) {
			cJSON_AddNumberToObject(o, "seconds", hq_agent_micro(c->seconds));
			cJSON_AddNumberToObject(o, "rows", (double)c->rows);
			cJSON_AddNumberToObject(o, "rows_cut", (double)c->rows_cut);
			cJSON_AddNumberToObject(o, "output_bytes", (double)c->output_bytes);
		}
		cJSON_AddNumberToObject(o, "result_bytes", (double)c->result_bytes);
		cJSON_AddItemToArray(rv->calls, o);
		return;
	}
	hq_buf_printf(&b, "  %s %s", c->tool, c->arguments ? c->arguments : "");
	put_line(rv->v->fp, b.data, rv->v->width);
	hq_buf_free(&b);
	if (!c->ran)
		snprintf(line, sizeof line, "not run%s", c->is_error ? " (an error to the model)" : "");
	else if (c->exit_status < 0)
		snprintf(line, sizeof line, "timed out after %.3f s", c->seconds);
	else
		snprintf(line, sizeof line, "exit %d, %lld row%s%s, %.3f s", c->exit_status,
		    (long long)c->rows, c->rows == 1 ? "" : "s", c->rows_cut ? " (some cut)" : "",
		    c->seconds);
	fprintf(rv->v->fp, "    %s\n", line);
}

int
hq_agent_view_run(struct hq_store *s, const struct hq_agent_view *v, int64_t id,
    struct hq_err *e)
{
	struct run_view rv = { .v = v };
	struct hq_agent_log_visit visit = { &rv, view_run, view_request, view_call };
	int found = hq_agent_log_show(s, id, &visit, e);

	if (found > 0 && !v->tty) {
		put_json(v->fp, rv.json);
		rv.json = NULL;
	} else if (found > 0) {
		if (rv.answer) {
			fprintf(v->fp, "\nanswer\n");
			put_text(v->fp, "", rv.answer, 2, v->width);
		}
		if (rv.error) {
			fprintf(v->fp, "\nerror\n");
			put_text(v->fp, "", rv.error, 2, v->width);
		}
	}
	cJSON_Delete(rv.json);
	free(rv.answer);
	free(rv.error);
	return found;
}
