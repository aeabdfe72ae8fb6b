/*
 * llm_conv — what a conversation with a model holds (llm.h): replies and
 * their tool calls, the messages of a conversation, and each message as
 * JSON (the agent's log and sessions keep them so).
 */
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/json.h"
#include "hq/llm.h"
#include "hq/llm_provider.h"

/* the strings of n calls, not the array */
static void
calls_free_tail(struct hq_llm_call *calls, size_t n)
{
	/* By index: calls is NULL when n is 0, and NULL + 0 is undefined. */
	for (size_t i = 0; i < n; i++) {
		struct hq_llm_call *c = &calls[i];
		free(c->id);
		free(c->name);
		free(c->args);
		free(c->signature);
		memset(c, 0, sizeof *c);
	}
}

static void
calls_free(struct hq_llm_call *calls, size_t n)
{
	calls_free_tail(calls, n);
	free(calls);
}

size_t
hq_llm_reply_keep_calls(struct hq_llm_reply *r, size_t max)
{
	if (r->ncalls <= max)
		return 0;
	r->nskipped = r->ncalls - max;
	calls_free_tail(r->calls + max, r->nskipped);
	r->ncalls = max;
	return r->nskipped;
}

void
hq_llm_reply_free(struct hq_llm_reply *r)
{
	if (!r)
		return;
	free(r->text);
	calls_free(r->calls, r->ncalls);
	free(r->signature);
	free(r->stop_reason);
	memset(r, 0, sizeof *r);
}

/* ---- conversation ---- */

void
hq_llm_conv_init(struct hq_llm_conv *conv)
{
	memset(conv, 0, sizeof *conv);
}

void
hq_llm_msg_free(struct hq_llm_msg *m)
{
	free(m->text);
	calls_free(m->calls, m->ncalls);
	free(m->signature);
	free(m->call_id);
	free(m->tool_name);
	memset(m, 0, sizeof *m);
}

void
hq_llm_conv_free(struct hq_llm_conv *conv)
{
	while (conv->n)
		hq_llm_msg_free(&conv->msgs[--conv->n]);
	free(conv->msgs);
	free(conv->system);
	memset(conv, 0, sizeof *conv);
}

void
hq_llm_conv_set_system(struct hq_llm_conv *conv, const char *text)
{
	hq_llm_set(&conv->system, text);
}

void
hq_llm_conv_push(struct hq_llm_conv *conv, struct hq_llm_msg *msg)
{
	if (conv->n == conv->cap) {
		conv->cap = conv->cap ? conv->cap * 2 : 8;
		conv->msgs = hq_xrealloc(conv->msgs, conv->cap * sizeof *conv->msgs);
	}
	conv->msgs[conv->n++] = *msg;
	memset(msg, 0, sizeof *msg);
}

void
hq_llm_conv_add_user(struct hq_llm_conv *conv, const char *text)
{
	struct hq_llm_msg m = { .role = HQ_LLM_USER };
	hq_llm_set(&m.text, text);
	hq_llm_conv_push(conv, &m);
}

static void
call_copy(struct hq_llm_call *dst, const struct hq_llm_call *src)
{
	memset(dst, 0, sizeof *dst);
	hq_llm_set(&dst->id, src->id);
	hq_llm_set(&dst->name, src->name);
	hq_llm_set(&dst->args, src->args);
	hq_llm_set(&dst->signature, src->signature);
}

void
hq_llm_conv_add_reply(struct hq_llm_conv *conv, const struct hq_llm_reply *r)
{
	struct hq_llm_msg m = { .role = HQ_LLM_ASSISTANT };
	hq_llm_set(&m.text, r->text ? r->text : "");
	hq_llm_set(&m.signature, r->signature);
	if (r->ncalls) {
		m.calls = hq_xcalloc(r->ncalls, sizeof *m.calls);
		for (; m.ncalls < r->ncalls; m.ncalls++)
			call_copy(&m.calls[m.ncalls], &r->calls[m.ncalls]);
	}
	hq_llm_conv_push(conv, &m);
}

void
hq_llm_conv_add_result(struct hq_llm_conv *conv, const char *call_id,
    const char *tool_name, const char *text, int is_error)
{
	struct hq_llm_msg m = { .role = HQ_LLM_TOOL, .is_error = is_error };
	hq_llm_set(&m.text, text);
	hq_llm_set(&m.call_id, call_id);
	hq_llm_set(&m.tool_name, tool_name);
	hq_llm_conv_push(conv, &m);
}

static const char *const role_names[] = { "user", "assistant", "tool" };

cJSON *
hq_llm_msg_to_json(const struct hq_llm_msg *m)
{
	cJSON *j = cJSON_CreateObject();
	if (!j)
		return NULL;
	cJSON_AddStringToObject(j, "role", role_names[m->role]);
	cJSON_AddStringToObject(j, "text", m->text ? m->text : "");
	if (m->signature)
		cJSON_AddStringToObject(j, "signature", m->signature);
	if (m->role == HQ_LLM_TOOL) {
		cJSON_AddStringToObject(j, "call_id", m->call_id ? m->call_id : "");
		cJSON_AddStringToObject(j, "tool", m->tool_name ? m->tool_name : "");
		cJSON_AddBoolToObject(j, "is_error", m->is_error);
	}
	if (m->ncalls) {
		cJSON *a = cJSON_AddArrayToObject(j, "calls");
		for (size_t i = 0; a && i < m->ncalls; i++) {
			cJSON *c = cJSON_CreateObject();
			if (!c)
				break;
			cJSON_AddStringToObject(c, "id", m->calls[i].id);
			cJSON_AddStringToObject(c, "name", m->calls[i].name);
			cJSON_AddStringToObject(c, "args", m->calls[i].args);
			if (m->calls[i].signature)
				cJSON_AddStringToObject(c, "signature", m->calls[i].signature);
			cJSON_AddItemToArray(a, c);
		}
	}
	return j;
}

int
hq_llm_msg_from_json(const cJSON *j, struct hq_llm_msg *m)
{
	memset(m, 0, sizeof *m);
	const char *role = hq_json_str(j, "role");
	if (!role)
		return -1;
	if (!strcmp(role, "user"))
		m->role = HQ_LLM_USER;
	else if (!strcmp(role, "assistant"))
		m->role = HQ_LLM_ASSISTANT;
	else if (!strcmp(role, "tool"))
		m->role = HQ_LLM_TOOL;
	else
		return -1;
	hq_llm_set(&m->text, hq_json_str(j, "text") ? hq_json_str(j, "text") : "");
	hq_llm_set(&m->signature, hq_json_str(j, "signature"));
	hq_llm_set(&m->call_id, hq_json_str(j, "call_id"));
	hq_llm_set(&m->tool_name, hq_json_str(j, "tool"));
	m->is_error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "is_error"));
	const cJSON *calls = cJSON_GetObjectItemCaseSensitive(j, "calls");
	int n = cJSON_GetArraySize(calls);
	if (n > 0) {
		m->calls = hq_xcalloc((size_t)n, sizeof *m->calls);
		const cJSON *c;
		cJSON_ArrayForEach(c, calls) {
			struct hq_llm_call *dc = &m->calls[m->ncalls++];
			hq_llm_set(&dc->id, hq_json_str(c, "id"));
			hq_llm_set(&dc->name, hq_json_str(c, "name"));
			hq_llm_set(&dc->args, hq_json_str(c, "args"));
			hq_llm_set(&dc->signature, hq_json_str(c, "signature"));
			if (!dc->id || !dc->name || !dc->args)
				goto fail;
		}
	}
	return 0;
fail:
	hq_llm_msg_free(m);
	return -1;
}
