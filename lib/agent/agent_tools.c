/*
 * agent_tools — the tools the loop (agent.c) may call: found in the
 * tool directories and described by their --tool-schema, saved queries
 * added as tools, the environment a tool runs in (keys cleared), and a
 * call's JSON arguments checked against the schema and made an argv.
 */
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

#include "hq/agent.h"
#include "hq/buf.h"
#include "hq/json.h"
#include "hq/opts.h"
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
