/* agent_log — hq-agent's runs, requests, tool calls and conversations. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/agent_log.h"
#include "hq/buf.h"

/* finalize st after its last step returned rc; -1 unless that was SQLITE_DONE */
static int
finish(sqlite3_stmt *st, int rc, struct hq_store *s, struct hq_err *e)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "%s: %s", hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

static int
step_done(sqlite3_stmt *st, struct hq_store *s, struct hq_err *e)
{
	return finish(st, sqlite3_step(st), s, e);
}

/* sql, one row written with the values v: 0, or -1 */
static int
write_row(struct hq_store *s, const char *sql, const struct hq_bind *v, struct hq_err *e)
{
	sqlite3_stmt *st;

	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	hq_store_bind(st, v);
	return step_done(st, s, e);
}

int64_t
hq_agent_log_start(struct hq_store *s, const struct hq_agent_log_run *run,
    struct hq_err *e)
{
	if (write_row(s,
	    "INSERT INTO agent_run (started, session, question, provider, model, base_url,"
	    " tool_mode) VALUES (?, ?, ?, ?, ?, ?, ?)", (struct hq_bind[]){
		HQ_INT((int64_t)time(NULL)), HQ_OPT_TEXT(run->session),
		HQ_OPT_TEXT(run->question), HQ_OPT_TEXT(run->provider),
		HQ_OPT_TEXT(run->model), HQ_OPT_TEXT(run->base_url),
		HQ_OPT_TEXT(run->tool_mode), HQ_END }, e))
		return -1;
	return sqlite3_last_insert_rowid(hq_store_db(s));
}

int
hq_agent_log_request(struct hq_store *s, int64_t run, int step,
    const struct hq_llm_reply *r, double seconds, struct hq_err *e)
{
	return write_row(s,
	    "INSERT OR REPLACE INTO agent_request (run_id, step, seconds, input_tokens,"
	    " output_tokens, tool_calls, cut_calls, retries, stop_reason, text_bytes)"
	    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (struct hq_bind[]){
		HQ_INT(run), HQ_INT(step), HQ_REAL(seconds), HQ_INT(r->input_tokens),
		HQ_INT(r->output_tokens), HQ_INT((int64_t)r->ncalls), HQ_INT((int64_t)r->ncut),
		HQ_INT(r->retries), HQ_OPT_TEXT(r->stop_reason),
		HQ_INT(r->text ? (int64_t)strlen(r->text) : 0), HQ_END }, e);
}

/* v, or SQL NULL when the tool did not run */
static struct hq_bind
if_ran(int ran, struct hq_bind v)
{
	return ran ? v : (struct hq_bind)HQ_OPT_TEXT(NULL);
}

int
hq_agent_log_tool(struct hq_store *s, int64_t run, int step, const struct hq_llm_call *c,
    const struct hq_agent_result *res, struct hq_err *e)
{
	int ran = res->exit_status >= 0 || res->timed_out;

	return write_row(s,
	    "INSERT INTO agent_tool_call (run_id, step, call_id, tool, arguments, exit_status,"
	    " is_error, seconds, rows, rows_cut, output_bytes, result_bytes)"
	    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (struct hq_bind[]){
		HQ_INT(run), HQ_INT(step), HQ_OPT_TEXT(c->id), HQ_OPT_TEXT(c->name),
		HQ_OPT_TEXT(c->args),
		if_ran(res->exit_status >= 0, (struct hq_bind)HQ_INT(res->exit_status)),
		HQ_INT(res->is_error), if_ran(ran, (struct hq_bind)HQ_REAL(res->seconds)),
		if_ran(ran, (struct hq_bind)HQ_INT((int64_t)res->rows)),
		if_ran(ran, (struct hq_bind)HQ_INT((int64_t)res->rows_cut)),
		if_ran(ran, (struct hq_bind)HQ_INT((int64_t)res->bytes)),
		HQ_INT((int64_t)strlen(res->text)), HQ_END }, e);
}

int
hq_agent_log_withheld(struct hq_store *s, int64_t run, const size_t *counts, int nkinds,
    const char *const *names, struct hq_err *e)
{
	struct hq_buf b = {0};
	int rc;

	hq_buf_putc(&b, '{');
	for (int k = 0; k < nkinds; k++)
		hq_buf_printf(&b, "%s\"%s\":%zu", k ? "," : "", names[k], counts[k]);
	hq_buf_putc(&b, '}');
	rc = write_row(s, "INSERT OR REPLACE INTO agent_withheld (run_id, counts) VALUES (?, ?)",
	    (struct hq_bind[]){ HQ_INT(run), HQ_TEXT(b.data), HQ_END }, e);
	hq_buf_free(&b);
	return rc;
}

int
hq_agent_log_finish(struct hq_store *s, int64_t run, const struct hq_agent_outcome *o,
    const struct hq_llm_conv *conv, size_t from, struct hq_err *e)
{
	if (hq_store_begin(s, e))
		return -1;
	if (write_row(s,
	    "UPDATE agent_run SET steps = ?, outcome = ?, error = ?, answer = ?,"
	    " input_tokens = ?, output_tokens = ?, seconds = ?, tool_seconds = ? WHERE id = ?",
	    (struct hq_bind[]){
		HQ_INT(o->steps), HQ_OPT_TEXT(hq_agent_status_name(o->status)),
		HQ_OPT_TEXT(o->status == HQ_AGENT_ANSWERED ? NULL : o->error.msg),
		HQ_OPT_TEXT(o->answer), HQ_INT(o->input_tokens), HQ_INT(o->output_tokens),
		HQ_REAL(o->seconds), HQ_REAL(o->tool_seconds), HQ_INT(run), HQ_END }, e))
		goto fail;
	for (size_t i = from; i < conv->n; i++) {
		cJSON *j = hq_llm_msg_to_json(&conv->msgs[i]);
		char *txt = j ? cJSON_PrintUnformatted(j) : NULL;
		int bad;

		cJSON_Delete(j);
		if (!txt) {
			hq_err_set(e, "out of memory");
			goto fail;
		}
		bad = write_row(s, "INSERT INTO agent_message (run_id, seq, message)"
		    " VALUES (?, ?, ?)", (struct hq_bind[]){ HQ_INT(run),
			HQ_INT((int64_t)(i - from)), HQ_TEXT(txt), HQ_END }, e);
		cJSON_free(txt);
		if (bad)
			goto fail;
	}
	return hq_store_commit(s, e);
fail:
	hq_store_rollback(s);
	return -1;
}

int
hq_agent_log_load_session(struct hq_store *s, const char *session,
    struct hq_llm_conv *conv, struct hq_err *e)
{
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "SELECT m.message FROM agent_message m JOIN agent_run r ON r.id = m.run_id"
	    " WHERE r.session = ? ORDER BY r.id, m.seq", &st, e))
		return -1;
	sqlite3_bind_text(st, 1, session, -1, SQLITE_TRANSIENT);
	int rc, n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cJSON *j = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
		struct hq_llm_msg m;
		int bad = !j || hq_llm_msg_from_json(j, &m);
		cJSON_Delete(j);
		if (bad) {
			sqlite3_finalize(st);
			hq_err_set(e, "%s: session '%s': message %d is damaged",
			    hq_store_filename(s), session, n + 1);
			return -1;
		}
		hq_llm_conv_push(conv, &m);
		n++;
	}
	return finish(st, rc, s, e) ? -1 : n;
}

static const char *
col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

int
hq_agent_log_runs(struct hq_store *s, int64_t id, int limit, hq_agent_log_fn fn,
    void *ctx, struct hq_err *e)
{
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "SELECT r.id, r.started, r.session, r.question, r.provider, r.model, r.steps,"
	    " r.outcome, r.input_tokens, r.output_tokens, r.seconds,"
	    " (SELECT count(*) FROM agent_tool_call t WHERE t.run_id = r.id), r.answer, r.error,"
	    " r.tool_seconds, r.base_url, r.tool_mode,"
	    " (SELECT w.counts FROM agent_withheld w WHERE w.run_id = r.id)"
	    " FROM agent_run r WHERE ?1 = 0 OR r.id = ?1 ORDER BY r.id DESC LIMIT ?2", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, limit);
	int rc, n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct hq_agent_log_entry r = {
			.id = sqlite3_column_int64(st, 0),
			.started = sqlite3_column_int64(st, 1),
			.session = col_text(st, 2),
			.question = col_text(st, 3),
			.provider = col_text(st, 4),
			.model = col_text(st, 5),
			.steps = sqlite3_column_int(st, 6),
			.outcome = col_text(st, 7) ? col_text(st, 7) : "running",
			.input_tokens = sqlite3_column_int64(st, 8),
			.output_tokens = sqlite3_column_int64(st, 9),
			.seconds = sqlite3_column_double(st, 10),
			.tool_calls = sqlite3_column_int(st, 11),
			.answer = col_text(st, 12),
			.error = col_text(st, 13),
			.tool_seconds = sqlite3_column_double(st, 14),
			.base_url = col_text(st, 15),
			.tool_mode = col_text(st, 16),
			.withheld = col_text(st, 17),
		};
		n++;
		if (fn(ctx, &r))
			break;
	}
	return finish(st, rc == SQLITE_ROW ? SQLITE_DONE : rc, s, e) ? -1 : n;
}

int
hq_agent_log_show(struct hq_store *s, int64_t id, const struct hq_agent_log_visit *v,
    struct hq_err *e)
{
	sqlite3_stmt *req = NULL, *call = NULL;
	int found, rq, rc;

	if (id <= 0)
		return 0;
	if ((found = hq_agent_log_runs(s, id, 1, v->run, v->ctx, e)) <= 0)
		return found;
	if (hq_store_prepare(s,
	    "SELECT step, seconds, input_tokens, output_tokens, tool_calls, cut_calls,"
	    " retries, stop_reason FROM agent_request WHERE run_id = ? ORDER BY step", &req, e) ||
	    hq_store_prepare(s,
	    "SELECT step, call_id, tool, arguments, exit_status, is_error, seconds, rows,"
	    " rows_cut, output_bytes, result_bytes FROM agent_tool_call WHERE run_id = ?"
	    " ORDER BY step, rowid", &call, e)) {
		sqlite3_finalize(req);
		return -1;
	}
	sqlite3_bind_int64(req, 1, id);
	sqlite3_bind_int64(call, 1, id);
	rc = sqlite3_step(call);
	/* each request, then the tool calls of its step; calls of a step
	 * with no request row (a run cut short) after the last */
	while ((rq = sqlite3_step(req)) == SQLITE_ROW || rc == SQLITE_ROW) {
		int step = rq == SQLITE_ROW ? sqlite3_column_int(req, 0) : INT32_MAX;
		if (rq == SQLITE_ROW) {
			struct hq_agent_log_request q = {
				.step = step,
				.seconds = sqlite3_column_double(req, 1),
				.input_tokens = sqlite3_column_int64(req, 2),
				.output_tokens = sqlite3_column_int64(req, 3),
				.tool_calls = sqlite3_column_int(req, 4),
				.cut_calls = sqlite3_column_int(req, 5),
				.retries = sqlite3_column_int(req, 6),
				.stop_reason = col_text(req, 7),
			};
			v->request(v->ctx, &q);
		}
		for (; rc == SQLITE_ROW && sqlite3_column_int(call, 0) <= step;
		    rc = sqlite3_step(call)) {
			int ran = sqlite3_column_type(call, 6) != SQLITE_NULL;
			struct hq_agent_log_call c = {
				.step = sqlite3_column_int(call, 0),
				.call_id = col_text(call, 1),
				.tool = col_text(call, 2),
				.arguments = col_text(call, 3),
				.exit_status = sqlite3_column_type(call, 4) == SQLITE_NULL ? -1 :
				    sqlite3_column_int(call, 4),
				.is_error = sqlite3_column_int(call, 5),
				.ran = ran,
				.seconds = sqlite3_column_double(call, 6),
				.rows = sqlite3_column_int64(call, 7),
				.rows_cut = sqlite3_column_int64(call, 8),
				.output_bytes = sqlite3_column_int64(call, 9),
				.result_bytes = sqlite3_column_int64(call, 10),
			};
			v->call(v->ctx, &c);
		}
		if (rq != SQLITE_ROW)
			break;
	}
	if (rq != SQLITE_DONE && rq != SQLITE_ROW) {
		sqlite3_finalize(call);
		return finish(req, rq, s, e);
	}
	sqlite3_finalize(req);
	return finish(call, rc == SQLITE_ROW ? SQLITE_DONE : rc, s, e) ? -1 : 1;
}

int
hq_agent_log_sessions(struct hq_store *s, int limit,
    void (*fn)(void *ctx, const char *name, int runs, int64_t last), void *ctx,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "SELECT session, count(*), max(started) FROM agent_run WHERE session IS NOT NULL"
	    " GROUP BY session ORDER BY max(id) DESC LIMIT ?", &st, e))
		return -1;
	sqlite3_bind_int(st, 1, limit);
	int rc, n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fn(ctx, col_text(st, 0), sqlite3_column_int(st, 1), sqlite3_column_int64(st, 2));
		n++;
	}
	return finish(st, rc, s, e) ? -1 : n;
}

int
hq_agent_log_models(struct hq_store *s, int limit,
    void (*fn)(void *ctx, const char *provider, const char *model), void *ctx,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "SELECT provider, model FROM agent_run GROUP BY provider, model"
	    " ORDER BY max(id) DESC LIMIT ?", &st, e))
		return -1;
	sqlite3_bind_int(st, 1, limit);
	int rc, n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fn(ctx, col_text(st, 0), col_text(st, 1));
		n++;
	}
	return finish(st, rc, s, e) ? -1 : n;
}
