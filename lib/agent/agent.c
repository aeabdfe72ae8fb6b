/* agent — tool discovery, argument checking, the tool-calling loop. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hq/agent.h"
#include "hq/buf.h"
#include "hq/json.h"
#include "hq/opts.h"
#include "hq/privacy.h"
#include "hq/proc.h"
#include "hq/time.h"

/* ---- discovery ---- */

void
hq_agent_tool_free(struct hq_agent_tool *t)
{
	free(t->name);
	free(t->path);
	free(t->description);
	free(t->positional);
	free(t->reads);
	cJSON_Delete(t->parameters);
	for (char **w = t->prefix; w && *w; w++)
		free(*w);
	free(t->prefix);
	memset(t, 0, sizeof *t);
}

void
hq_agent_tools_free(struct hq_agent_tools *tools)
{
	for (size_t i = 0; i < tools->n; i++)
		hq_agent_tool_free(&tools->v[i]);
	free(tools->v);
	memset(tools, 0, sizeof *tools);
}

const struct hq_agent_tool *
hq_agent_tool_find(const struct hq_agent_tools *tools, const char *name)
{
	for (size_t i = 0; name && i < tools->n; i++)
		if (!strcmp(tools->v[i].name, name))
			return &tools->v[i];
	return NULL;
}

int
hq_agent_tool_parse(const char *json, const char *path, struct hq_agent_tool *t,
    struct hq_err *e)
{
	memset(t, 0, sizeof *t);
	cJSON *j = cJSON_Parse(json);
	if (!cJSON_IsObject(j)) {
		hq_err_set(e, "--tool-schema output is not a JSON object");
		cJSON_Delete(j);
		return -1;
	}
	const char *name = hq_json_str(j, "name");
	cJSON *params = cJSON_DetachItemFromObjectCaseSensitive(j, "parameters");
	if (!name || !cJSON_IsObject(params)) {
		hq_err_set(e, "--tool-schema output lacks %s", name ? "parameters" : "name");
		cJSON_Delete(params);
		cJSON_Delete(j);
		return -1;
	}
	const char *desc = hq_json_str(j, "description");
	const char *pos = hq_json_str(params, "x-positional");
	if (!pos)
		pos = hq_json_str(j, "x-positional");
	t->parameters = params;
	t->writes = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "writes"));
	const cJSON *rd, *reads = cJSON_GetObjectItemCaseSensitive(j, "x-reads");
	if (t->writes && cJSON_IsArray(reads)) {
		struct hq_buf rb = {0};
		hq_buf_putc(&rb, ' ');
		cJSON_ArrayForEach(rd, reads)
			if (cJSON_IsString(rd) && *rd->valuestring &&
			    !strchr(rd->valuestring, ' ')) {
				hq_buf_puts(&rb, rd->valuestring);
				hq_buf_putc(&rb, ' ');
			}
		t->reads = rb.data;
	}
	t->name = hq_xstrdup(name);
	t->path = hq_xstrdup(path);
	t->description = hq_xstrdup(desc ? desc : name);
	t->positional = pos ? hq_xstrdup(pos) : NULL;
	cJSON_Delete(j);
	return 0;
}

/* The tool of command hq-NAME among the first n, or NULL. */
static const struct hq_agent_tool *
command_tool(const struct hq_agent_tools *tools, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(tools->v[i].path, '/');
		base = base ? base + 1 : tools->v[i].path;
		if (!tools->v[i].prefix && strncmp(base, "hq-", 3) == 0 &&
		    strcmp(base + 3, name) == 0)
			return &tools->v[i];
	}
	return NULL;
}

static int cmp_tool(const void *a, const void *b);

int
hq_agent_add_queries(struct hq_agent_tools *tools,
    const struct hq_saved_query *q, size_t n, struct hq_err *e)
{
	size_t base = tools->n;

	for (size_t i = 0; i < n; i++) {
		const struct hq_agent_tool *c = command_tool(tools, base, q[i].command);
		struct hq_agent_tool *t;
		struct hq_buf d = {0};

		if (!c) {
			hq_err_set(e, "%s: [queries]: %s runs hq-%s, which hq-agent "
			    "does not offer as a tool (%s)", q[i].where, q[i].name,
			    q[i].command, strcmp(q[i].command, "agent") == 0 ?
			    "hq-agent is not one of its own tools" : "not found beside "
			    "hq-agent nor on PATH, or its --tool-schema failed");
			goto fail;
		}
		if (hq_agent_tool_find(tools, q[i].name)) {
			hq_err_set(e, "%s: [queries]: '%s' is a tool's name already: "
			    "name the saved query otherwise", q[i].where, q[i].name);
			goto fail;
		}
		tools->v = hq_xrealloc(tools->v, (tools->n + 1) * sizeof *tools->v);
		c = command_tool(tools, base, q[i].command);   /* moved */
		t = &tools->v[tools->n++];
		memset(t, 0, sizeof *t);
		if (q[i].description[0])
			hq_buf_printf(&d, "%s. ", q[i].description);
		hq_buf_printf(&d, "The user's saved query '%s': runs `%s` (the tool "
		    "%s with these words first). Call it with no arguments to run it "
		    "as saved; any parameters of %s given are added after its words.",
		    q[i].name, q[i].line, c->name, c->name);
		if (c->writes)
			hq_buf_puts(&d, " It changes the store: the user is asked first.");
		t->name = hq_xstrdup(q[i].name);
		t->path = hq_xstrdup(c->path);
		t->description = hq_buf_steal(&d);
		t->parameters = cJSON_Duplicate(c->parameters, 1);
		cJSON_DeleteItemFromObjectCaseSensitive(t->parameters, "required");
		t->positional = c->positional ? hq_xstrdup(c->positional) : NULL;
		t->writes = c->writes;
		t->prefix = hq_xcalloc(q[i].nwords + 1, sizeof *t->prefix);
		for (size_t k = 0; k < q[i].nwords; k++)
			t->prefix[k] = hq_xstrdup(q[i].words[k]);
	}
	qsort(tools->v, tools->n, sizeof *tools->v, cmp_tool);
	return 0;
fail:
	while (tools->n > base)
		hq_agent_tool_free(&tools->v[--tools->n]);
	return -1;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_tool(const void *a, const void *b)
{
	return strcmp(((const struct hq_agent_tool *)a)->name,
	    ((const struct hq_agent_tool *)b)->name);
}

/* adds the hq-* executables of dir not already in paths */
static void
scan_dir(const char *dir, char ***paths, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return;	/* missing PATH entries are normal */
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
			found = hq_xrealloc(found, cf * sizeof *found);
		}
		found[nf++] = hq_xstrdup(full);
	}
	closedir(d);
	if (nf)
		qsort(found, nf, sizeof *found, cmp_str);
	for (size_t i = 0; i < nf; i++) {
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 8;
			*paths = hq_xrealloc(*paths, *cap * sizeof **paths);
		}
		(*paths)[(*n)++] = found[i];
	}
	free(found);
}

char *
hq_agent_tool_dirs(void)
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

void
hq_agent_discover(const char *dirs, double timeout, struct hq_agent_tools *out)
{
	memset(out, 0, sizeof *out);
	char **paths = NULL;
	size_t n = 0, cap = 0;
	char *copy = hq_xstrdup(dirs ? dirs : "");
	char *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		scan_dir(d, &paths, &n, &cap);
	free(copy);
	struct hq_proc *procs = hq_xcalloc(n, sizeof *procs);
	char *(*argvs)[3] = hq_xcalloc(n, sizeof *argvs);
	out->v = hq_xcalloc(n, sizeof *out->v);
	for (size_t i = 0; i < n; i++) {
		argvs[i][0] = paths[i];
		argvs[i][1] = "--tool-schema";
		procs[i].argv = argvs[i];
	}
	/* one that hangs holds up neither the others nor the question */
	struct hq_proc_limits lim = { HQ_AGENT_MAX_RUNNING, timeout,
		hq_time_monotonic() + timeout, 1u << 20 };
	hq_proc_run_all(procs, n, &lim);
	for (size_t i = 0; i < n; i++) {
		struct hq_err why;
		if (procs[i].exit_status == 0 && !procs[i].cut &&
		    !hq_agent_tool_parse(procs[i].out, paths[i], &out->v[out->n], &why)) {
			if (hq_agent_tool_find(out, out->v[out->n].name))
				hq_agent_tool_free(&out->v[out->n]);	/* same name twice */
			else
				out->n++;
			continue;
		}
		size_t len = strlen(out->skipped);
		snprintf(out->skipped + len, sizeof out->skipped - len, "%s%s", len ? " " : "",
		    strrchr(paths[i], '/') + 1);
	}
	qsort(out->v, out->n, sizeof *out->v, cmp_tool);
	for (size_t i = 0; i < n; i++) {
		hq_proc_free(&procs[i]);
		free(paths[i]);
	}
	free(paths);
	free(procs);
	free(argvs);
}

/* ---- the tools' environment ---- */

extern char **environ;

static int
is_key_name(const char *name, size_t n, const char *also)
{
	static const char suffix[] = "_API_KEY";
	const size_t sn = sizeof suffix - 1;
	char providers[] = HQ_LLM_PROVIDERS, *save = NULL;
	const char *k;

	if ((n >= sn && !strncasecmp(name + n - sn, suffix, sn)) ||
	    (also && *also && strlen(also) == n && !strncmp(name, also, n)))
		return 1;
	for (char *p = strtok_r(providers, "|", &save); p; p = strtok_r(NULL, "|", &save))
		if ((k = hq_llm_key_env(p)) && strlen(k) == n && !strncmp(name, k, n))
			return 1;
	return 0;
}

void
hq_agent_clear_keys(const char *also)
{
	char **names = NULL;
	size_t n = 0;

	/* names first: unsetenv changes environ */
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
		if (!is_key_name(*e, len, also))
			continue;
		names = hq_xrealloc(names, (n + 1) * sizeof *names);
		names[n] = hq_xmalloc(len + 1);
		memcpy(names[n], *e, len);
		names[n++][len] = '\0';
	}
	for (size_t i = 0; i < n; i++) {
		unsetenv(names[i]);
		free(names[i]);
	}
	free(names);
}

/* ---- arguments → argv ---- */

struct argv_b {
	char **v;
	size_t n, cap;
};

static void
argv_add(struct argv_b *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 16;
		a->v = hq_xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = hq_xstrdup(s);
	a->v[a->n] = NULL;
}

void
hq_agent_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

static int
has_type(const cJSON *prop, const char *type)
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

/* the text of a scalar as an option value, checked against the schema,
 * into *out (malloc'd). A value is never cut: one longer than
 * HQ_AGENT_MAX_VALUE is an error the model sees (issue 23) */
static int
scalar_text(const cJSON *prop, const char *key, const cJSON *v,
    char **out, struct hq_err *e)
{
	int want_int = has_type(prop, "integer"), want_num = has_type(prop, "number");
	char num[64];
	const char *text;

	*out = NULL;
	if (cJSON_IsString(v)) {
		size_t len = strlen(v->valuestring);
		if (len > HQ_AGENT_MAX_VALUE) {
			hq_err_set(e, "parameter '%s' is %zu bytes long; a value may be at most %d "
			    "bytes (nothing was run: split the question or name fewer items)",
			    key, len, HQ_AGENT_MAX_VALUE);
			return -1;
		}
		if (want_int || want_num) {
			double d;
			if (hq_opts_parse_double(v->valuestring, &d) || (want_int && d != floor(d))) {
				hq_err_set(e, "parameter '%s' must be %s, not \"%.60s\"", key,
				    want_int ? "an integer" : "a number", v->valuestring);
				return -1;
			}
		}
		text = v->valuestring;
	} else if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (want_int && d != floor(d)) {
			hq_err_set(e, "parameter '%s' must be an integer, not %g", key, d);
			return -1;
		}
		if (d == floor(d) && fabs(d) < 1e15)
			snprintf(num, sizeof num, "%.0f", d);
		else
			snprintf(num, sizeof num, "%.17g", d);
		text = num;
	} else if (cJSON_IsBool(v)) {
		text = cJSON_IsTrue(v) ? "true" : "false";
	} else {
		hq_err_set(e, "parameter '%s' must be a %s value", key,
		    want_int ? "integer" : want_num ? "number" : "string");
		return -1;
	}
	const cJSON *en = cJSON_GetObjectItemCaseSensitive(prop, "enum");
	if (cJSON_IsArray(en)) {
		const cJSON *it;
		cJSON_ArrayForEach(it, en)
			if (cJSON_IsString(it) && !strcmp(it->valuestring, text)) {
				*out = hq_xstrdup(text);
				return 0;
			}
		char *allowed = cJSON_PrintUnformatted(en);
		hq_err_set(e, "parameter '%s' must be one of %s, not \"%.60s\"", key,
		    allowed ? allowed : "its enum", text);
		cJSON_free(allowed);
		return -1;
	}
	*out = hq_xstrdup(text);
	return 0;
}

static void
option_name(const char *key, char *buf, size_t n)
{
	snprintf(buf, n, "--%s", key);
	for (char *p = buf + 2; *p; p++)
		if (*p == '_')
			*p = '-';
}

static void
known_params(const cJSON *props, char *buf, size_t n)
{
	buf[0] = '\0';
	const cJSON *p;
	cJSON_ArrayForEach(p, props) {
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, "%s%s", len ? ", " : "", p->string);
	}
}

/* every parameter is in the schema, and every required one is there */
static int
check_params(const struct hq_agent_tool *t, const cJSON *a, struct hq_err *e)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(t->parameters, "properties");
	const cJSON *v, *req;
	char known[600];

	cJSON_ArrayForEach(v, a)
		if (!cJSON_GetObjectItemCaseSensitive(props, v->string)) {
			known_params(props, known, sizeof known);
			hq_err_set(e, "unknown parameter '%s' for %s (parameters: %s)",
			    v->string, t->name, known);
			return -1;
		}
	cJSON_ArrayForEach(req, cJSON_GetObjectItemCaseSensitive(t->parameters, "required"))
		if (cJSON_IsString(req) && !cJSON_GetObjectItemCaseSensitive(a, req->valuestring)) {
			hq_err_set(e, "missing required parameter '%s' for %s",
			    req->valuestring, t->name);
			return -1;
		}
	return 0;
}

/* the words for one parameter: a flag; the option and each value; or
 * values into pos when it is the positional one */
static int
add_param(struct argv_b *b, struct argv_b *pos, const char *positional,
    const cJSON *prop, const cJSON *v, struct hq_err *e)
{
	const char *key = prop->string;
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(prop, "items"), *it;
	int is_pos = positional && !strcmp(positional, key), many = cJSON_IsArray(v);
	char opt[256], *val;

	option_name(key, opt, sizeof opt);
	if (has_type(prop, "boolean") && !has_type(prop, "string")) {
		int on = cJSON_IsTrue(v) || (cJSON_IsString(v) && !strcmp(v->valuestring, "true"));
		int off = cJSON_IsFalse(v) || (cJSON_IsString(v) && !strcmp(v->valuestring, "false"));
		if (!on && !off) {
			hq_err_set(e, "parameter '%s' must be true or false", key);
			return -1;
		}
		if (on)
			argv_add(b, opt);
		return 0;
	}
	if (many && !has_type(prop, "array")) {
		hq_err_set(e, "parameter '%s' takes one value, not a list", key);
		return -1;
	}
	if (!has_type(prop, "array"))
		items = NULL;
	/* a lone value where a list is expected is a list of one */
	for (it = many ? v->child : v; it; it = many ? it->next : NULL) {
		if (scalar_text(items ? items : prop, key, it, &val, e))
			return -1;
		if (!is_pos)
			argv_add(b, opt);
		argv_add(is_pos ? pos : b, val);
		free(val);
	}
	return 0;
}

int
hq_agent_argv(const struct hq_agent_tool *t, const char *args, char ***argv,
    struct hq_err *e)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(t->parameters, "properties");
	const cJSON *prop, *v;
	struct argv_b b = {0}, pos = {0};
	cJSON *a = args && *args ? cJSON_ParseWithOpts(args, NULL, 0) : cJSON_CreateObject();
	int rc = -1;

	*argv = NULL;
	if (!cJSON_IsObject(a)) {
		hq_err_set(e, "the arguments are not a JSON object: %.120s%s", args ? args : "",
		    args && strlen(args) > 120 ? "..." : "");
		goto done;
	}
	if (check_params(t, a, e))
		goto done;
	argv_add(&b, t->path);
	for (char **w = t->prefix; w && *w; w++)
		argv_add(&b, *w);
	cJSON_ArrayForEach(prop, props) {
		v = cJSON_GetObjectItemCaseSensitive(a, prop->string);
		if (v && !cJSON_IsNull(v) && add_param(&b, &pos, t->positional, prop, v, e))
			goto done;
	}
	if (pos.n)
		argv_add(&b, "--");
	for (size_t i = 0; i < pos.n; i++)
		argv_add(&b, pos.v[i]);
	*argv = b.v;
	b.v = NULL;
	rc = 0;
done:
	hq_agent_argv_free(b.v);
	hq_agent_argv_free(pos.v);
	cJSON_Delete(a);
	return rc;
}

int
hq_agent_call_writes(const struct hq_agent_tool *t, char *const *argv)
{
	char word[80];

	if (!t->writes)
		return 0;
	if (!t->reads || !argv)
		return 1;
	while (*argv && strcmp(*argv, "--"))
		argv++;
	if (!*argv || !argv[1] || strchr(argv[1], ' ') ||
	    snprintf(word, sizeof word, " %s ", argv[1]) >= (int)sizeof word)
		return 1;
	return strstr(t->reads, word) == NULL;
}

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
