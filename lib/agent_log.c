/* agent_log — hq-agent's runs, requests, tool calls and conversations. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/agent_log.h"

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

static void
bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int64_t
hq_agent_log_start(struct hq_store *s, const struct hq_agent_log_run *run,
    struct hq_err *e)
{
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "INSERT INTO agent_run (started, session, question, provider, model, base_url,"
	    " tool_mode) VALUES (?, ?, ?, ?, ?, ?, ?)", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)time(NULL));
	bind_text(st, 2, run->session);
	bind_text(st, 3, run->question);
	bind_text(st, 4, run->provider);
	bind_text(st, 5, run->model);
	bind_text(st, 6, run->base_url);
	bind_text(st, 7, run->tool_mode);
	if (step_done(st, s, e))
		return -1;
	return sqlite3_last_insert_rowid(hq_store_db(s));
}

int
hq_agent_log_request(struct hq_store *s, int64_t run, int step,
    const struct hq_llm_reply *r, double seconds, struct hq_err *e)
{
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "INSERT OR REPLACE INTO agent_request (run_id, step, seconds, input_tokens,"
	    " output_tokens, tool_calls, cut_calls, retries, stop_reason, text_bytes)"
	    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int(st, 2, step);
	sqlite3_bind_double(st, 3, seconds);
	sqlite3_bind_int64(st, 4, r->input_tokens);
	sqlite3_bind_int64(st, 5, r->output_tokens);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)r->ncalls);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)r->ncut);
	sqlite3_bind_int(st, 8, r->retries);
	bind_text(st, 9, r->stop_reason);
	sqlite3_bind_int64(st, 10, r->text ? (sqlite3_int64)strlen(r->text) : 0);
	return step_done(st, s, e);
}

int
hq_agent_log_tool(struct hq_store *s, int64_t run, int step, const struct hq_llm_call *c,
    const struct hq_agent_result *res, struct hq_err *e)
{
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "INSERT INTO agent_tool_call (run_id, step, call_id, tool, arguments, exit_status,"
	    " is_error, seconds, rows, rows_cut, output_bytes, result_bytes)"
	    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", &st, e))
		return -1;
	int ran = res->exit_status >= 0 || res->timed_out;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int(st, 2, step);
	bind_text(st, 3, c->id);
	bind_text(st, 4, c->name);
	bind_text(st, 5, c->args);
	if (res->exit_status >= 0)
		sqlite3_bind_int(st, 6, res->exit_status);
	else
		sqlite3_bind_null(st, 6);
	sqlite3_bind_int(st, 7, res->is_error);
	if (ran) {
		sqlite3_bind_double(st, 8, res->seconds);
		sqlite3_bind_int64(st, 9, (sqlite3_int64)res->rows);
		sqlite3_bind_int64(st, 10, (sqlite3_int64)res->rows_cut);
		sqlite3_bind_int64(st, 11, (sqlite3_int64)res->bytes);
	}
	sqlite3_bind_int64(st, 12, (sqlite3_int64)strlen(res->text));
	return step_done(st, s, e);
}

int
hq_agent_log_finish(struct hq_store *s, int64_t run, const struct hq_agent_outcome *o,
    const struct hq_llm_conv *conv, size_t from, struct hq_err *e)
{
	if (hq_store_begin(s, e))
		return -1;
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "UPDATE agent_run SET steps = ?, outcome = ?, error = ?, answer = ?,"
	    " input_tokens = ?, output_tokens = ?, seconds = ?, tool_seconds = ? WHERE id = ?",
	    &st, e))
		goto fail;
	sqlite3_bind_int(st, 1, o->steps);
	bind_text(st, 2, hq_agent_status_name(o->status));
	bind_text(st, 3, o->status == HQ_AGENT_ANSWERED ? NULL : o->error.msg);
	bind_text(st, 4, o->answer);
	sqlite3_bind_int64(st, 5, o->input_tokens);
	sqlite3_bind_int64(st, 6, o->output_tokens);
	sqlite3_bind_double(st, 7, o->seconds);
	sqlite3_bind_double(st, 8, o->tool_seconds);
	sqlite3_bind_int64(st, 9, run);
	if (step_done(st, s, e))
		goto fail;
	for (size_t i = from; i < conv->n; i++) {
		cJSON *j = hq_llm_msg_to_json(&conv->msgs[i]);
		char *txt = j ? cJSON_PrintUnformatted(j) : NULL;
		cJSON_Delete(j);
		if (!txt) {
			hq_err_set(e, "out of memory");
			goto fail;
		}
		if (hq_store_prepare(s, "INSERT INTO agent_message (run_id, seq, message)"
		    " VALUES (?, ?, ?)", &st, e)) {
			cJSON_free(txt);
			goto fail;
		}
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)(i - from));
		sqlite3_bind_text(st, 3, txt, -1, SQLITE_TRANSIENT);
		cJSON_free(txt);
		if (step_done(st, s, e))
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

int
hq_agent_log_list(struct hq_store *s, int limit, FILE *fp, struct hq_err *e)
{
	sqlite3_stmt *st;
	if (hq_store_prepare(s,
	    "SELECT r.id, r.started, r.session, r.question, r.provider, r.model, r.steps,"
	    " r.outcome, r.input_tokens, r.output_tokens, r.seconds,"
	    " (SELECT count(*) FROM agent_tool_call t WHERE t.run_id = r.id), r.answer, r.error"
	    " FROM agent_run r ORDER BY r.id DESC LIMIT ?", &st, e))
		return -1;
	sqlite3_bind_int(st, 1, limit);
	int rc, n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cJSON *o = cJSON_CreateObject();
		char when[32];
		time_t t = (time_t)sqlite3_column_int64(st, 1);
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
		static const char *const names[] = { "question", "provider", "model" };
		cJSON_AddNumberToObject(o, "id", (double)sqlite3_column_int64(st, 0));
		cJSON_AddStringToObject(o, "started", when);
		if (sqlite3_column_type(st, 2) != SQLITE_NULL)
			cJSON_AddStringToObject(o, "session", (const char *)sqlite3_column_text(st, 2));
		for (int k = 0; k < 3; k++)
			cJSON_AddStringToObject(o, names[k], (const char *)sqlite3_column_text(st, 3 + k));
		cJSON_AddNumberToObject(o, "steps", sqlite3_column_int(st, 6));
		cJSON_AddNumberToObject(o, "tool_calls", sqlite3_column_int(st, 11));
		const char *outcome = (const char *)sqlite3_column_text(st, 7);
		cJSON_AddStringToObject(o, "outcome", outcome ? outcome : "running");
		cJSON_AddNumberToObject(o, "input_tokens", (double)sqlite3_column_int64(st, 8));
		cJSON_AddNumberToObject(o, "output_tokens", (double)sqlite3_column_int64(st, 9));
		cJSON_AddNumberToObject(o, "seconds", sqlite3_column_double(st, 10));
		if (sqlite3_column_type(st, 12) != SQLITE_NULL)
			cJSON_AddStringToObject(o, "answer", (const char *)sqlite3_column_text(st, 12));
		if (sqlite3_column_type(st, 13) != SQLITE_NULL)
			cJSON_AddStringToObject(o, "error", (const char *)sqlite3_column_text(st, 13));
		char *txt = cJSON_PrintUnformatted(o);
		cJSON_Delete(o);
		if (txt)
			fprintf(fp, "%s\n", txt);
		cJSON_free(txt);
		n++;
	}
	return finish(st, rc, s, e) ? -1 : n;
}
