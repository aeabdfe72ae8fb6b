/* agent — tool discovery, argument checking, the tool-calling loop. */
#include "hq/agent.h"
#include "hq/llm_provider.h"
#include "hq/proc.h"
#include "hq/time.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- discovery ---- */

static void tool_free(struct hq_agent_tool *t)
{
	free(t->name);
	free(t->path);
	free(t->description);
	free(t->positional);
	cJSON_Delete(t->parameters);
	memset(t, 0, sizeof *t);
}

void hq_agent_tools_free(struct hq_agent_tools *tools)
{
	for (size_t i = 0; i < tools->n; i++)
		tool_free(&tools->v[i]);
	free(tools->v);
	memset(tools, 0, sizeof *tools);
}

const struct hq_agent_tool *hq_agent_tool_find(const struct hq_agent_tools *tools,
					       const char *name)
{
	for (size_t i = 0; name && i < tools->n; i++)
		if (!strcmp(tools->v[i].name, name))
			return &tools->v[i];
	return NULL;
}

int hq_agent_tool_parse(const char *json, const char *path, struct hq_agent_tool *t,
			struct hq_err *e)
{
	memset(t, 0, sizeof *t);
	cJSON *j = cJSON_Parse(json);
	if (!cJSON_IsObject(j)) {
		hq_err_set(e, "--tool-schema output is not a JSON object");
		cJSON_Delete(j);
		return -1;
	}
	const char *name = hq_llm_jstr(j, "name");
	cJSON *params = cJSON_DetachItemFromObjectCaseSensitive(j, "parameters");
	if (!name || !cJSON_IsObject(params)) {
		hq_err_set(e, "--tool-schema output lacks %s", name ? "parameters" : "name");
		cJSON_Delete(params);
		cJSON_Delete(j);
		return -1;
	}
	const char *desc = hq_llm_jstr(j, "description");
	const char *pos = hq_llm_jstr(params, "x-positional");
	if (!pos)
		pos = hq_llm_jstr(j, "x-positional");
	t->parameters = params;
	t->writes = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "writes"));
	int rc = hq_llm_set(&t->name, name) || hq_llm_set(&t->path, path) ||
		 hq_llm_set(&t->description, desc ? desc : name) ||
		 hq_llm_set(&t->positional, pos);
	cJSON_Delete(j);
	if (rc) {
		tool_free(t);
		hq_err_set(e, "out of memory");
		return -1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_tool(const void *a, const void *b)
{
	return strcmp(((const struct hq_agent_tool *)a)->name,
		      ((const struct hq_agent_tool *)b)->name);
}

/* adds the hq-* executables of dir not already in names/paths */
static int scan_dir(const char *dir, char ***paths, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;	/* missing PATH entries are normal */
	char **found = NULL;
	size_t nf = 0, cf = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *nm = e->d_name;
		if (strncmp(nm, "hq-", 3) || !nm[3] || !strcmp(nm, "hq-agent"))
			continue;
		int dup = 0;
		for (size_t i = 0; i < *n && !dup; i++)
			dup = !strcmp(strrchr((*paths)[i], '/') + 1, nm);
		if (dup)
			continue;
		char full[4096];
		struct stat st;
		int w = snprintf(full, sizeof full, "%s/%s", dir, nm);
		if (w < 0 || (size_t)w >= sizeof full || stat(full, &st) ||
		    !S_ISREG(st.st_mode) || access(full, X_OK))
			continue;
		if (nf == cf) {
			cf = cf ? cf * 2 : 8;
			char **nfp = realloc(found, cf * sizeof *nfp);
			if (!nfp)
				break;
			found = nfp;
		}
		if (!(found[nf] = strdup(full)))
			break;
		nf++;
	}
	closedir(d);
	if (nf)
		qsort(found, nf, sizeof *found, cmp_str);
	for (size_t i = 0; i < nf; i++) {
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 8;
			char **np = realloc(*paths, *cap * sizeof *np);
			if (!np) {
				while (i < nf)
					free(found[i++]);
				free(found);
				return -1;
			}
			*paths = np;
		}
		(*paths)[(*n)++] = found[i];
	}
	free(found);
	return 0;
}

char *hq_agent_tool_dirs(void)
{
	struct hq_buf b = {0};
	const char *extra = getenv("HQ_AGENT_TOOL_PATH");
	if (extra && *extra)
		hq_buf_printf(&b, "%s:", extra);
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		hq_buf_printf(&b, "%s:", self);
	}
	const char *path = getenv("PATH");
	hq_buf_puts(&b, path ? path : "/usr/local/bin:/usr/bin:/bin");
	return hq_buf_steal(&b);
}

int hq_agent_discover(const char *dirs, double timeout, struct hq_agent_tools *out,
		      struct hq_err *e)
{
	memset(out, 0, sizeof *out);
	char **paths = NULL;
	size_t n = 0, cap = 0;
	char *copy = strdup(dirs ? dirs : "");
	if (!copy)
		return -1;
	char *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (scan_dir(d, &paths, &n, &cap))
			break;
	free(copy);
	struct hq_proc *procs = calloc(n ? n : 1, sizeof *procs);
	char *(*argvs)[3] = calloc(n ? n : 1, sizeof *argvs);
	out->v = calloc(n ? n : 1, sizeof *out->v);
	int rc = -1;
	if (!procs || !argvs || !out->v) {
		hq_err_set(e, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		argvs[i][0] = paths[i];
		argvs[i][1] = "--tool-schema";
		procs[i].argv = argvs[i];
	}
	hq_proc_run_all(procs, n, timeout, 1u << 20);
	for (size_t i = 0; i < n; i++) {
		struct hq_err why;
		if (procs[i].exit_status == 0 && !procs[i].cut &&
		    !hq_agent_tool_parse(procs[i].out, paths[i], &out->v[out->n], &why)) {
			if (hq_agent_tool_find(out, out->v[out->n].name))
				tool_free(&out->v[out->n]);	/* same name twice */
			else
				out->n++;
			continue;
		}
		size_t len = strlen(out->skipped);
		snprintf(out->skipped + len, sizeof out->skipped - len, "%s%s", len ? " " : "",
			 strrchr(paths[i], '/') + 1);
	}
	qsort(out->v, out->n, sizeof *out->v, cmp_tool);
	rc = 0;
done:
	for (size_t i = 0; i < n; i++) {
		hq_proc_free(&procs[i]);
		free(paths[i]);
	}
	free(paths);
	free(procs);
	free(argvs);
	if (rc)
		hq_agent_tools_free(out);
	return rc;
}

/* ---- arguments → argv ---- */

struct argv_b {
	char **v;
	size_t n, cap;
};

static int argv_add(struct argv_b *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		char **nv = realloc(a->v, cap * sizeof *nv);
		if (!nv)
			return -1;
		a->v = nv;
		a->cap = cap;
	}
	if (!(a->v[a->n] = strdup(s)))
		return -1;
	a->v[++a->n] = NULL;
	return 0;
}

void hq_agent_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

static int has_type(const cJSON *prop, const char *type)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(prop, "type");
	if (cJSON_IsString(t))
		return !strcmp(t->valuestring, type);
	const cJSON *it;
	cJSON_ArrayForEach(it, t)
		if (cJSON_IsString(it) && !strcmp(it->valuestring, type))
			return 1;
	return 0;
}

/* the text of a scalar as an option value, checked against the schema */
static int scalar_text(const cJSON *prop, const char *key, const cJSON *v,
		       char *buf, size_t n, struct hq_err *e)
{
	int want_int = has_type(prop, "integer"), want_num = has_type(prop, "number");
	if (cJSON_IsString(v)) {
		if (want_int || want_num) {
			char *end;
			errno = 0;
			double d = strtod(v->valuestring, &end);
			if (errno || end == v->valuestring || *end || (want_int && d != floor(d))) {
				hq_err_set(e, "parameter '%s' must be %s, not \"%.60s\"", key,
					 want_int ? "an integer" : "a number", v->valuestring);
				return -1;
			}
		}
		snprintf(buf, n, "%s", v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (want_int && d != floor(d)) {
			hq_err_set(e, "parameter '%s' must be an integer, not %g", key, d);
			return -1;
		}
		if (d == floor(d) && fabs(d) < 1e15)
			snprintf(buf, n, "%.0f", d);
		else
			snprintf(buf, n, "%.17g", d);
	} else if (cJSON_IsBool(v)) {
		snprintf(buf, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
	} else {
		hq_err_set(e, "parameter '%s' must be a %s value", key,
			 want_int ? "integer" : want_num ? "number" : "string");
		return -1;
	}
	const cJSON *en = cJSON_GetObjectItemCaseSensitive(prop, "enum");
	if (cJSON_IsArray(en)) {
		const cJSON *it;
		cJSON_ArrayForEach(it, en)
			if (cJSON_IsString(it) && !strcmp(it->valuestring, buf))
				return 0;
		char *allowed = cJSON_PrintUnformatted(en);
		hq_err_set(e, "parameter '%s' must be one of %s, not \"%.60s\"", key,
			 allowed ? allowed : "its enum", buf);
		cJSON_free(allowed);
		return -1;
	}
	return 0;
}

static void option_name(const char *key, char *buf, size_t n)
{
	snprintf(buf, n, "--%s", key);
	for (char *p = buf + 2; *p; p++)
		if (*p == '_')
			*p = '-';
}

static void known_params(const cJSON *props, char *buf, size_t n)
{
	buf[0] = '\0';
	const cJSON *p;
	cJSON_ArrayForEach(p, props) {
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, "%s%s", len ? ", " : "", p->string);
	}
}

int hq_agent_argv(const struct hq_agent_tool *t, const char *args, char ***argv,
		  struct hq_err *e)
{
	*argv = NULL;
	const char *end = NULL;
	cJSON *a = (args && *args) ? cJSON_ParseWithOpts(args, &end, 0) : cJSON_CreateObject();
	if (!cJSON_IsObject(a)) {
		hq_err_set(e, "the arguments are not a JSON object: %.120s%s", args ? args : "",
			 args && strlen(args) > 120 ? "..." : "");
		cJSON_Delete(a);
		return -1;
	}
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(t->parameters, "properties");
	char known[600];
	const cJSON *v;
	cJSON_ArrayForEach(v, a) {
		if (!cJSON_GetObjectItemCaseSensitive(props, v->string)) {
			known_params(props, known, sizeof known);
			hq_err_set(e, "unknown parameter '%s' for %s (parameters: %s)",
				 v->string, t->name, known);
			cJSON_Delete(a);
			return -1;
		}
	}
	const cJSON *req;
	cJSON_ArrayForEach(req, cJSON_GetObjectItemCaseSensitive(t->parameters, "required")) {
		if (cJSON_IsString(req) && !cJSON_GetObjectItemCaseSensitive(a, req->valuestring)) {
			hq_err_set(e, "missing required parameter '%s' for %s",
				 req->valuestring, t->name);
			cJSON_Delete(a);
			return -1;
		}
	}
	struct argv_b b = {0};
	struct argv_b pos = {0};
	int rc = argv_add(&b, t->path);
	const cJSON *prop;
	char opt[256], val[4096];
	cJSON_ArrayForEach(prop, props) {
		if (rc)
			break;
		const char *key = prop->string;
		v = cJSON_GetObjectItemCaseSensitive(a, key);
		if (!v || cJSON_IsNull(v))
			continue;
		option_name(key, opt, sizeof opt);
		int positional = t->positional && !strcmp(t->positional, key);
		if (has_type(prop, "boolean") && !has_type(prop, "string")) {
			int on = cJSON_IsTrue(v) || (cJSON_IsString(v) && !strcmp(v->valuestring, "true"));
			int off = cJSON_IsFalse(v) || (cJSON_IsString(v) && !strcmp(v->valuestring, "false"));
			if (!on && !off) {
				hq_err_set(e, "parameter '%s' must be true or false", key);
				rc = -1;
			} else if (on)
				rc = argv_add(&b, opt);
			continue;
		}
		const cJSON *items = cJSON_GetObjectItemCaseSensitive(prop, "items");
		if (cJSON_IsArray(v) || has_type(prop, "array")) {
			if (!has_type(prop, "array")) {
				hq_err_set(e, "parameter '%s' takes one value, not a list", key);
				rc = -1;
				continue;
			}
			/* a lone value where a list is expected is a list of one */
			const cJSON *one = v;
			int many = cJSON_IsArray(v);
			const cJSON *it = many ? v->child : one;
			for (; it && !rc; it = many ? it->next : NULL) {
				rc = scalar_text(items ? items : prop, key, it, val, sizeof val, e);
				if (!rc && positional)
					rc = argv_add(&pos, val);
				else if (!rc)
					rc = argv_add(&b, opt) || argv_add(&b, val);
			}
			continue;
		}
		rc = scalar_text(prop, key, v, val, sizeof val, e);
		if (!rc && positional)
			rc = argv_add(&pos, val);
		else if (!rc)
			rc = argv_add(&b, opt) || argv_add(&b, val);
	}
	if (!rc && pos.n) {
		rc = argv_add(&b, "--");
		for (size_t i = 0; !rc && i < pos.n; i++)
			rc = argv_add(&b, pos.v[i]);
	}
	hq_agent_argv_free(pos.v);
	cJSON_Delete(a);
	if (rc) {
		if (!e->msg[0])
			hq_err_set(e, "out of memory");
		hq_agent_argv_free(b.v);
		return -1;
	}
	*argv = b.v;
	return 0;
}

/* ---- system prompt ---- */

char *hq_agent_system_prompt(const struct hq_agent_tools *tools, int text_mode,
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
			cJSON *clean = hq_llm_clean_schema(tools->v[i].parameters);
			char *p = clean ? cJSON_PrintUnformatted(clean) : NULL;
			hq_buf_printf(&s, "- %s: %s\n  parameters: %s\n", tools->v[i].name,
				      tools->v[i].description, p ? p : "{}");
			cJSON_free(p);
			cJSON_Delete(clean);
		}
	}
	return s.data;
}

/* ---- the loop ---- */

const char *hq_agent_status_name(enum hq_agent_status st)
{
	static const char *const names[] = { "answered", "step_limit", "timeout", "failed" };
	return names[st];
}

void hq_agent_outcome_free(struct hq_agent_outcome *out)
{
	free(out->answer);
	out->answer = NULL;
}

/* text mode: the model sees tool results as user messages */
static int render_text_conv(const struct hq_llm_conv *in, struct hq_llm_conv *out)
{
	hq_llm_conv_init(out);
	if (hq_llm_conv_set_system(out, in->system))
		return -1;
	for (size_t i = 0; i < in->n; i++) {
		const struct hq_llm_msg *m = &in->msgs[i];
		if (m->role == HQ_LLM_TOOL) {
			struct hq_buf s = {0};
			char head[300];
			snprintf(head, sizeof head, "Result of %s%s:\n", m->tool_name,
				 m->is_error ? " (error)" : "");
			hq_buf_puts(&s, head);
			hq_buf_puts(&s, m->text);
			if (hq_llm_conv_add_user(out, s.data)) {
				free(s.data);
				return -1;
			}
			free(s.data);
			continue;
		}
		struct hq_llm_msg c = { .role = m->role };
		if (hq_llm_set(&c.text, m->text) || hq_llm_conv_push(out, &c)) {
			hq_llm_msg_free(&c);
			return -1;
		}
	}
	return 0;
}

/* what the model gets back from one finished tool run */
static char *result_text(const struct hq_agent_tool *t, const struct hq_proc *p,
			 struct hq_agent_result *res, double timeout)
{
	struct hq_buf s = {0};
	char line[600];
	res->exit_status = p->exit_status;
	res->timed_out = p->timed_out;
	res->seconds = p->seconds;
	res->bytes = p->out_total;
	res->rows = p->out_lines;
	res->rows_cut = p->out_lines - p->kept_lines;
	const char *cmd = strrchr(t->path, '/') ? strrchr(t->path, '/') + 1 : t->path;
	if (p->spawn_errno) {
		snprintf(line, sizeof line, "error: cannot run %s: %s", cmd, strerror(p->spawn_errno));
		res->is_error = 1;
		hq_buf_puts(&s, line);
	} else if (p->timed_out || p->exit_status != 0) {
		res->is_error = 1;
		if (p->timed_out)
			snprintf(line, sizeof line, "error: %s timed out after %.3g s and was stopped; "
				 "ask for less (a shorter period, a coarser --by)", cmd, timeout);
		else if (p->exit_status < 0)
			snprintf(line, sizeof line, "error: %s was killed by signal %d", cmd, p->term_signal);
		else
			snprintf(line, sizeof line, "error: %s exited with status %d%s", cmd,
				 p->exit_status, p->exit_status == 1 ? " (found nothing)" : "");
		hq_buf_puts(&s, line);
		if (p->err_len)
			hq_buf_printf(&s, "\n%s", p->err);
		if (p->out_len)
			hq_buf_printf(&s, "\n%s", p->out);
	} else {
		hq_buf_puts(&s, p->out_len ? p->out : "(no output)\n");
		if (res->rows_cut) {
			snprintf(line, sizeof line,
				 "[output cut: %zu of %zu rows shown, %zu rows (%zu bytes) left out; "
				 "narrow the query: a shorter period, a coarser --by, or --limit]",
				 p->kept_lines, p->out_lines, res->rows_cut, p->out_total - p->out_len);
			hq_buf_puts(&s, line);
		}
	}
	res->text = s.data;
	return s.data;
}

static void tools_list(const struct hq_agent_tools *tools, char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t i = 0; i < tools->n; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, "%s%s", i ? ", " : "", tools->v[i].name);
	}
	if (!tools->n)
		snprintf(buf, n, "none");
}

/* runs the calls of one reply; results go into conv in call order */
static int run_calls(const struct hq_agent_config *cfg, const struct hq_agent_tools *tools,
		     const struct hq_llm_reply *r, int step, double deadline,
		     struct hq_llm_conv *conv, const struct hq_agent_hooks *h,
		     struct hq_agent_outcome *out, char **found)
{
	size_t n = r->ncalls;
	struct hq_proc *procs = calloc(n, sizeof *procs);
	char ***argvs = calloc(n, sizeof *argvs);
	struct hq_err *errs = calloc(n, sizeof *errs);
	const struct hq_agent_tool **tl = calloc(n, sizeof *tl);
	size_t *slot = calloc(n, sizeof *slot);
	int rc = -1;
	size_t nrun = 0;
	if (!procs || !argvs || !errs || !tl || !slot)
		goto done;
	for (size_t i = 0; i < n; i++) {
		const struct hq_llm_call *c = &r->calls[i];
		tl[i] = hq_agent_tool_find(tools, c->name);
		if (!tl[i]) {
			char names[400];
			tools_list(tools, names, sizeof names);
			hq_err_set(&errs[i], "error: unknown tool '%s'; the tools are: %s",
				   c->name, names);
		} else if (hq_agent_argv(tl[i], c->args, &argvs[i], &errs[i])) {
			hq_err_prefix(&errs[i], "error");
		} else if (tl[i]->writes && !cfg->yes &&
			   !(h->confirm && h->confirm(h->ctx, tl[i], argvs[i]))) {
			hq_err_set(&errs[i],
				 "error: refused: %s changes the user's data store and the user did not "
				 "allow it (they can rerun hq-agent with --yes); do not retry it", c->name);
		}
		if (h->tool_call)
			h->tool_call(h->ctx, step, c, errs[i].msg[0] ? NULL : argvs[i]);
		if (!errs[i].msg[0]) {
			procs[nrun].argv = argvs[i];
			slot[i] = nrun++;
		}
	}
	double timeout = cfg->tool_timeout;
	if (deadline > 0) {
		double left = deadline - hq_time_monotonic();
		if (left < timeout)
			timeout = left > 0.05 ? left : 0.05;
	}
	double t0 = hq_time_monotonic();
	if (nrun)
		hq_proc_run_all(procs, nrun, timeout, cfg->output_cap);
	out->tool_seconds += hq_time_monotonic() - t0;
	free(*found);
	*found = NULL;
	struct hq_buf f = {0};
	for (size_t i = 0; i < n; i++) {
		const struct hq_llm_call *c = &r->calls[i];
		struct hq_agent_result res = { .exit_status = -1 };
		char *text = NULL;
		if (errs[i].msg[0]) {
			res.text = errs[i].msg;
			res.is_error = 1;
		} else {
			text = result_text(tl[i], &procs[slot[i]], &res, timeout);
			if (!text)
				goto done;
		}
		if (h->tool_result)
			h->tool_result(h->ctx, step, c, &res);
		hq_buf_printf(&f, "%s:\n%s\n", c->name, res.text);
		if (hq_llm_conv_add_result(conv, c->id, c->name, res.text, res.is_error)) {
			free(text);
			free(f.data);
			goto done;
		}
		free(text);
	}
	*found = f.data;
	rc = 0;
done:
	for (size_t i = 0; procs && i < nrun; i++)
		hq_proc_free(&procs[i]);
	for (size_t i = 0; argvs && i < n; i++)
		hq_agent_argv_free(argvs[i]);
	free(procs);
	free(argvs);
	free(errs);
	free(tl);
	free(slot);
	return rc;
}

static int malformed(const struct hq_llm_reply *r)
{
	return r->stop_reason && (!strcmp(r->stop_reason, "MALFORMED_FUNCTION_CALL") ||
				  !strcmp(r->stop_reason, "UNEXPECTED_TOOL_CALL"));
}

int hq_agent_run(const struct hq_agent_config *cfg, const struct hq_agent_tools *tools,
		 struct hq_llm_conv *conv, const struct hq_agent_hooks *h,
		 struct hq_agent_outcome *out)
{
	memset(out, 0, sizeof *out);
	double start = hq_time_monotonic();
	double deadline = cfg->timeout > 0 ? start + cfg->timeout : 0;
	struct hq_llm_options llm = cfg->llm;
	llm.deadline = deadline;
	struct hq_llm_tool *lt = calloc(tools->n ? tools->n : 1, sizeof *lt);
	if (!lt) {
		hq_err_set(&out->error, "out of memory");
		out->status = HQ_AGENT_FAILED;
		return -1;
	}
	for (size_t i = 0; i < tools->n; i++)
		lt[i] = (struct hq_llm_tool){ tools->v[i].name, tools->v[i].description,
					      tools->v[i].parameters };
	char *found = NULL, *last_text = NULL;
	out->status = HQ_AGENT_STEP_LIMIT;
	for (int step = 1; step <= cfg->max_steps; step++) {
		out->steps = step;
		if (h->step)
			h->step(h->ctx, step);
		struct hq_llm_conv text_conv;
		const struct hq_llm_conv *send = conv;
		if (cfg->text_mode) {
			if (render_text_conv(conv, &text_conv)) {
				hq_llm_conv_free(&text_conv);
				hq_err_set(&out->error, "out of memory");
				out->status = HQ_AGENT_FAILED;
				break;
			}
			send = &text_conv;
		}
		struct hq_llm_reply r;
		int timed_out = 0;
		double t0 = hq_time_monotonic();
		int rc = hq_llm_complete(&llm, send, lt, cfg->text_mode ? 0 : tools->n,
					 h->token, h->ctx, &r, &timed_out, &out->error);
		if (cfg->text_mode)
			hq_llm_conv_free(&text_conv);
		if (rc) {
			out->status = timed_out ? HQ_AGENT_TIMEOUT : HQ_AGENT_FAILED;
			break;
		}
		if (cfg->text_mode)
			hq_llm_text_calls(&r);
		out->input_tokens += r.input_tokens;
		out->output_tokens += r.output_tokens;
		out->cut_calls = r.ncut;	/* the last reply's: earlier ones were retried */
		if (h->reply)
			h->reply(h->ctx, step, &r, hq_time_monotonic() - t0);
		if (hq_llm_conv_add_reply(conv, &r)) {
			hq_llm_reply_free(&r);
			hq_err_set(&out->error, "out of memory");
			out->status = HQ_AGENT_FAILED;
			break;
		}
		if (r.text && *r.text) {
			free(last_text);
			last_text = strdup(r.text);
		}
		const char *retry_note = NULL;
		if (malformed(&r))	/* Gemini's MALFORMED_FUNCTION_CALL */
			retry_note = "(hq-agent) Your last tool call was malformed and was not run. "
				     "Call the tool again with valid arguments, or answer.";
		else if (r.ncut)	/* a call cut off at the token limit is never run */
			retry_note = "(hq-agent) Your reply was cut off at the token limit and its "
				     "tool call was not run. Make a smaller call, or answer.";
		if (!r.ncalls && retry_note && step < cfg->max_steps) {
			hq_llm_reply_free(&r);
			if (hq_llm_conv_add_user(conv, retry_note)) {
				hq_err_set(&out->error, "out of memory");
				out->status = HQ_AGENT_FAILED;
				break;
			}
			continue;
		}
		if (!r.ncalls) {
			out->status = HQ_AGENT_ANSWERED;
			out->answer = r.text;
			r.text = NULL;
			hq_llm_reply_free(&r);
			break;
		}
		rc = run_calls(cfg, tools, &r, step, deadline, conv, h, out, &found);
		hq_llm_reply_free(&r);
		if (rc) {
			hq_err_set(&out->error, "out of memory running tools");
			out->status = HQ_AGENT_FAILED;
			break;
		}
		if (deadline > 0 && hq_time_monotonic() >= deadline) {
			out->status = HQ_AGENT_TIMEOUT;
			hq_err_set(&out->error, "the time budget (%.0f s) ran out",
				 cfg->timeout);
			break;
		}
	}
	if (out->status != HQ_AGENT_ANSWERED) {
		/* what was found: the model's last words and the last results */
		struct hq_buf s = {0};
		if (last_text) {
			hq_buf_printf(&s, "%s\n", last_text);
			out->said = s.len;
		}
		if (found)
			hq_buf_puts(&s, found);
		out->answer = s.data;
	}
	if (out->status == HQ_AGENT_STEP_LIMIT)
		hq_err_set(&out->error,
			 "the step budget (%d) ran out before the model answered", cfg->max_steps);
	free(found);
	free(last_text);
	free(lt);
	out->seconds = hq_time_monotonic() - start;
	return out->status == HQ_AGENT_ANSWERED ? 0 : -1;
}
