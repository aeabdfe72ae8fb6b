/*
 * hq-agent — a plain-English question answered by a language model that
 * runs the other hq commands as tools. See hq-agent(1).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/agent.h"
#include "hq/agent_log.h"
#include "hq/buf.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/llm.h"
#include "hq/opts.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/zone.h"

enum {
	OPT_BASE_URL = HQ_OPT_LONG, OPT_MAX_STEPS, OPT_TIMEOUT, OPT_TOOL_TIMEOUT,
	OPT_MAX_OUTPUT, OPT_TOOL_MODE, OPT_NO_STREAM, OPT_JSONL, OPT_SESSION, OPT_LOG,
	OPT_MAX_TOKENS, OPT_DB, OPT_TZ,
};

static const struct hq_opt options[] = {
	{ 'p', "provider", HQ_OPT_ENUM, "NAME", "openai, anthropic, gemini or ollama",
	  HQ_LLM_PROVIDERS, NULL, 0 },
	{ 'm', "model", HQ_OPT_STRING, "MODEL", "the model to ask", NULL, NULL, 0 },
	{ OPT_BASE_URL, "base-url", HQ_OPT_STRING, "URL", "the provider's API base URL",
	  NULL, NULL, 0 },
	{ OPT_MAX_STEPS, "max-steps", HQ_OPT_INT, "N", "at most N requests to the model (8)",
	  "1..1000", NULL, 0 },
	{ OPT_TIMEOUT, "timeout", HQ_OPT_NUMBER, "SECONDS", "give up after SECONDS in all (300)",
	  ">0", NULL, 0 },
	{ OPT_TOOL_TIMEOUT, "tool-timeout", HQ_OPT_NUMBER, "SECONDS",
	  "stop a tool after SECONDS (60)", ">0", NULL, 0 },
	{ OPT_MAX_OUTPUT, "max-output", HQ_OPT_INT, "BYTES",
	  "tool output given to the model (32768)", "256..16777216", NULL, 0 },
	/* native first: its index is 0 */
	{ OPT_TOOL_MODE, "tool-mode", HQ_OPT_ENUM, "MODE",
	  "native tool calls, or text for models without", "native|text", NULL, 0 },
	{ OPT_NO_STREAM, "no-stream", HQ_OPT_FLAG, NULL, "ask for whole replies, not streams",
	  NULL, NULL, 0 },
	{ OPT_MAX_TOKENS, "max-tokens", HQ_OPT_INT, "N", "longest reply the model may write",
	  "1..1000000", NULL, 0 },
	{ 'y', "yes", HQ_OPT_FLAG, NULL, "run tools that change the store without asking",
	  NULL, NULL, 0 },
	{ 'v', "verbose", HQ_OPT_FLAG, NULL, "show each step on stderr", NULL, NULL, 0 },
	{ OPT_JSONL, "jsonl", HQ_OPT_FLAG, NULL, "events as JSON lines on stdout", NULL, NULL, 0 },
	{ OPT_SESSION, "session", HQ_OPT_STRING, "NAME",
	  "continue (or start) the conversation NAME", NULL, NULL, 0 },
	{ OPT_LOG, "log", HQ_OPT_FLAG, NULL, "list past runs and exit", NULL, NULL, 0 },
	{ OPT_DB, "db", HQ_OPT_STRING, "PATH", "the store (default $HQ_DB)", NULL, NULL, 0 },
	{ OPT_TZ, "tz", HQ_OPT_STRING, "ZONE", "the user's time zone (default $HQ_TZ, $TZ)",
	  NULL, NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const struct hq_cmd_info info = {
	.name = "hq-agent",
	.synopsis = "[OPTION]... [QUESTION...]",
	.summary = "Answer a question about your health data with a language model that runs hq tools.",
	.tool_description = "Asks a language model a question about the user's health data; "
	    "not offered to models as a tool.",
	.positional = "question",
	.positional_help = "the question, in words (read from stdin when absent)",
	.opts = options,
};

/* The command line; then what flags, environment and config settle. */
struct cli {
	const char *provider, *model, *base_url, *session, *dbpath, *tz;
	const char *tool_mode;
	long max_steps, max_output, max_tokens;
	double timeout, tool_timeout;
	int text_mode, stream, yes, verbose, jsonl, list_log;
	char **words;           /* the question, as arguments */
	int nwords;
	struct hq_config *cfg;  /* provider, model, base_url may point into it */
	char *api_key;          /* taken out of the environment */
};

/* What one question holds, released in one place. */
struct question {
	struct hq_store *store;
	char *text, *dirs, *system;
	struct hq_agent_tools tools;
	struct hq_llm_conv conv;
	size_t from;            /* the first message of this run in conv */
	struct hq_agent_outcome out;
};

/* What the hooks need. */
struct run {
	struct hq_store *store;
	int64_t run_id;
	int verbose, jsonl, tty_out;
	int streamed;           /* text is on the terminal since the last line end */
	int shown;              /* replies' text was streamed to the terminal */
	double start;
};

/* ---- events and hooks --------------------------------------------------- */

/* durations to the microsecond: more digits are noise */
static double
micro(double seconds)
{
	return (double)(long long)(seconds * 1e6 + 0.5) / 1e6;
}

static void
event(struct run *r, cJSON *o)
{
	char *s;

	cJSON_AddNumberToObject(o, "t", micro(hq_time_monotonic() - r->start));
	if ((s = cJSON_PrintUnformatted(o)))
		printf("%s\n", s);
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

static void
on_token(void *ctx, const char *text, size_t len)
{
	struct run *r = ctx;
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
		fwrite(text, 1, len, stdout);
		fflush(stdout);
		r->streamed = r->shown = 1;
	}
}

static void
on_reply(void *ctx, int step, const struct hq_llm_reply *rep, double seconds)
{
	struct run *r = ctx;
	struct hq_err e;
	cJSON *o;

	if (r->store && hq_agent_log_request(r->store, r->run_id, step, rep, seconds, &e))
		hq_warn("%s", e.msg);
	if (r->streamed && rep->ncalls) {
		putchar('\n');  /* the model's thinking aloud before a tool call */
		r->streamed = 0;
	}
	if (r->verbose)
		fprintf(stderr, "hq-agent: step %d: model replied in %.2f s (%ld in, %ld out "
		    "tokens, %zu tool calls%s%s)\n", step, seconds, rep->input_tokens,
		    rep->output_tokens, rep->ncalls, rep->retries ? ", after retries" : "",
		    rep->ncut ? ", some cut off by max tokens" : "");
	if (!r->jsonl)
		return;
	o = event_new("step", step);
	cJSON_AddNumberToObject(o, "seconds", micro(seconds));
	cJSON_AddNumberToObject(o, "input_tokens", (double)rep->input_tokens);
	cJSON_AddNumberToObject(o, "output_tokens", (double)rep->output_tokens);
	cJSON_AddNumberToObject(o, "tool_calls", (double)rep->ncalls);
	cJSON_AddNumberToObject(o, "cut_calls", (double)rep->ncut);
	cJSON_AddNumberToObject(o, "retries", rep->retries);
	if (rep->stop_reason)
		cJSON_AddStringToObject(o, "stop_reason", rep->stop_reason);
	event(r, o);
}

static void
on_tool_call(void *ctx, int step, const struct hq_llm_call *c, char *const *argv)
{
	struct run *r = ctx;
	cJSON *o, *a;

	if (r->verbose)
		fprintf(stderr, "hq-agent: step %d: %s %s\n", step, c->name, c->args);
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
	struct run *r = ctx;
	struct hq_err e;
	cJSON *o;

	if (r->store && hq_agent_log_tool(r->store, r->run_id, step, c, res, &e))
		hq_warn("%s", e.msg);
	if (r->verbose && res->exit_status < 0 && !res->timed_out)
		fprintf(stderr, "hq-agent: step %d: %s not run: %s\n", step, c->name, res->text);
	else if (r->verbose)
		fprintf(stderr, "hq-agent: step %d: %s exit %d%s, %zu rows%s, %.3f s\n", step,
		    c->name, res->exit_status, res->timed_out ? " (timed out)" : "",
		    res->rows, res->rows_cut ? " (some cut)" : "", res->seconds);
	if (!r->jsonl)
		return;
	o = event_new(res->is_error ? "tool_error" : "tool_result", step);
	cJSON_AddStringToObject(o, "id", c->id);
	cJSON_AddStringToObject(o, "name", c->name);
	if (res->exit_status >= 0)
		cJSON_AddNumberToObject(o, "exit_status", res->exit_status);
	cJSON_AddNumberToObject(o, "seconds", micro(res->seconds));
	cJSON_AddNumberToObject(o, "rows", (double)res->rows);
	cJSON_AddNumberToObject(o, "rows_cut", (double)res->rows_cut);
	cJSON_AddNumberToObject(o, "bytes", (double)res->bytes);
	if (res->is_error)
		cJSON_AddStringToObject(o, "error", res->text);
	event(r, o);
}

/* a tool that writes runs only after a yes typed at a terminal */
static int
on_confirm(void *ctx, const struct hq_agent_tool *t, char *const *argv)
{
	char line[32];

	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
		return 0;
	fprintf(stderr, "hq-agent: the model wants to change your data store:\n  ");
	for (char *const *p = argv; *p; p++)
		fprintf(stderr, "%s ", p == argv ? command_name(*p) : *p);
	fprintf(stderr, "\nAllow it? [y/N] ");
	if (!fgets(line, sizeof line, stdin))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

/* ---- settings and the question ------------------------------------------- */

/* Returns the exit status when the command is done (--help, a usage
 * error), or -1 when it goes on. */
static int
parse_cli(int argc, char **argv, struct cli *c)
{
	struct hq_opts p;
	int id;

	hq_opts_init(&p, &info, argc, argv);
	while ((id = hq_opts_parse(&p)) > 0)
		switch (id) {
		case 'p': c->provider = p.arg; break;
		case 'm': c->model = p.arg; break;
		case OPT_BASE_URL: c->base_url = p.arg; break;
		case OPT_MAX_STEPS: c->max_steps = p.num; break;
		case OPT_TIMEOUT: c->timeout = p.real; break;
		case OPT_TOOL_TIMEOUT: c->tool_timeout = p.real; break;
		case OPT_MAX_OUTPUT: c->max_output = p.num; break;
		case OPT_MAX_TOKENS: c->max_tokens = p.num; break;
		case OPT_TOOL_MODE:
			c->tool_mode = p.arg;
			c->text_mode = p.choice == 1;
			break;
		case OPT_NO_STREAM: c->stream = 0; break;
		case 'y': c->yes = 1; break;
		case 'v': c->verbose = 1; break;
		case OPT_JSONL: c->jsonl = 1; break;
		case OPT_SESSION: c->session = p.arg; break;
		case OPT_LOG: c->list_log = 1; break;
		case OPT_DB: c->dbpath = p.arg; break;
		case OPT_TZ: c->tz = p.arg; break;
		}
	c->words = argv + p.optind;
	c->nwords = argc - p.optind;
	return id < 0 ? p.status : -1;
}

/* flag > environment > config > default */
static const char *
pick(const char *flag, const char *env, const struct hq_config *cfg,
    const char *key, const char *dflt)
{
	const char *v;

	if (flag)
		return flag;
	if (env && getenv(env) && *getenv(env))
		return getenv(env);
	v = cfg ? hq_config_get(cfg, "llm", key) : NULL;
	return v && *v ? v : dflt;
}

/* The configuration (its warnings said); the provider, model, base URL
 * and key. The key leaves the environment: the tools need none. 0, or -1
 * after a message. */
static int
configure(struct cli *c)
{
	struct hq_err e;
	const char *kenv;

	const char *w;

	if (!(c->cfg = hq_config_load(NULL, &e))) {
		hq_warn("%s", e.msg);
		return -1;
	}
	for (size_t i = 0; (w = hq_config_warning(c->cfg, i)); i++)
		hq_warn("%s", w);
	c->provider = pick(c->provider, "HQ_LLM_PROVIDER", c->cfg, "provider", "openai");
	if (!hq_llm_provider_known(c->provider)) {
		hq_warn("unknown provider '%s' — use openai, anthropic, gemini or ollama "
		    "(--provider, HQ_LLM_PROVIDER or provider under [llm] in the config)",
		    c->provider);
		return -1;
	}
	if (!(c->model = pick(c->model, "HQ_LLM_MODEL", c->cfg, "model", NULL))) {
		hq_warn("no model set — pass --model NAME, set HQ_LLM_MODEL, or write "
		    "'model = NAME' under [llm] in ~/.config/hq/config (e.g. llama3.1 for Ollama)");
		return -1;
	}
	c->base_url = pick(c->base_url, "HQ_LLM_BASE_URL", c->cfg, "base_url",
	    hq_llm_default_base_url(c->provider));
	kenv = hq_config_get(c->cfg, "llm", "api_key_env");
	if (!kenv || !*kenv)
		kenv = hq_llm_key_env(c->provider);
	if (kenv && getenv(kenv)) {
		c->api_key = hq_xstrdup(getenv(kenv));
		unsetenv(kenv);
	}
	if (!c->api_key && hq_llm_needs_key(c->provider)) {
		hq_warn("no API key for %s — set %s (or name another variable with "
		    "api_key_env under [llm] in ~/.config/hq/config)", c->provider, kenv);
		return -1;
	}
	return 0;
}

/* "Sunday 2026-11-22" and the zone's name, for the system prompt */
static void
today_and_zone(char *today, size_t n, char *zone, size_t zn)
{
	static const char *const days[] = { "Monday", "Tuesday", "Wednesday", "Thursday",
		"Friday", "Saturday", "Sunday" };
	struct hq_local l;
	const char *name = NULL;
	char link[256];
	ssize_t k;

	hq_time_to_local((int64_t)time(NULL), &l);
	snprintf(today, n, "%s %04d-%02d-%02d", days[l.wday % 7], l.year, l.month, l.day);
	snprintf(zone, zn, "%s (UTC%+03d:%02d)", hq_time_zone(), l.offset_min / 60,
	    abs(l.offset_min) % 60);
	if (strcmp(hq_time_zone(), "system"))
		return;
	if ((k = readlink("/etc/localtime", link, sizeof link - 1)) > 0) {
		link[k] = '\0';
		name = strstr(link, "zoneinfo/");
	}
	snprintf(zone, zn, "%s (UTC%+03d:%02d)", name ? name + 9 : "the system's",
	    l.offset_min / 60, abs(l.offset_min) % 60);
}

/* the arguments, or stdin when there are none and it is not a terminal */
static char *
read_question(int argc, char **argv)
{
	struct hq_buf b = {0};
	char chunk[4096];
	size_t got;

	for (int i = 0; i < argc; i++)
		hq_buf_printf(&b, "%s%s", i ? " " : "", argv[i]);
	if (!argc && !isatty(STDIN_FILENO))
		while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0)
			hq_buf_append(&b, chunk, got);
	while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == ' '))
		b.data[--b.len] = '\0';
	return hq_buf_steal(&b);
}

/* The question, the store and the session, the tools, the system prompt:
 * all a run needs. 0, or -1 after a message. */
static int
prepare(const struct cli *c, struct question *q)
{
	char today[64], zone[128];
	struct hq_zone_choice z;
	struct hq_err e;

	q->text = read_question(c->nwords, c->words);
	if (!*q->text) {
		hq_opts_usage_error(&info, "no question (give it as arguments or on stdin)");
		return -1;
	}
	if (!(q->store = hq_store_open(c->dbpath, HQ_STORE_CREATE, &e)) ||
	    (c->session && hq_agent_log_load_session(q->store, c->session, &q->conv, &e) < 0)) {
		hq_warn("%s", e.msg);
		return -1;
	}
	/* The zone of --tz, the environment, the config or the data: the
	 * tools are told it, so that their days are the model's. */
	if (hq_zone_choose(c->tz, c->cfg, q->store, &z, &e)) {
		hq_warn("%s", e.msg);
		return -1;
	}
	if (z.name[0])
		setenv("HQ_TZ", z.name, 1);
	q->dirs = hq_agent_tool_dirs();
	/* a command that hangs on --tool-schema must not hold up every question */
	hq_agent_discover(q->dirs, c->tool_timeout < 10 ? c->tool_timeout : 10, &q->tools);
	if (c->verbose) {
		fprintf(stderr, "hq-agent: %s %s at %s; tools:", c->provider, c->model, c->base_url);
		for (size_t i = 0; i < q->tools.n; i++)
			fprintf(stderr, " %s", q->tools.v[i].name);
		fprintf(stderr, "%s%s\n", q->tools.skipped[0] ? "; no schema from: " : "",
		    q->tools.skipped);
	}
	today_and_zone(today, sizeof today, zone, sizeof zone);
	q->system = hq_agent_system_prompt(&q->tools, c->text_mode, today, zone);
	hq_llm_conv_set_system(&q->conv, q->system);
	q->from = q->conv.n;
	hq_llm_conv_add_user(&q->conv, q->text);
	return 0;
}

/* ---- the run and its outcome --------------------------------------------- */

static void
print_answer(struct run *r, const struct hq_agent_outcome *out)
{
	const char *answer = out->answer ? out->answer : "";
	cJSON *o;

	if (r->jsonl) {
		o = event_new("answer", 0);
		cJSON_AddStringToObject(o, "text", answer);
		event(r, o);
	} else if (r->streamed && out->status == HQ_AGENT_ANSWERED)
		putchar('\n');
	else {
		if (r->shown)   /* the model's words streamed: just what was found */
			answer += out->said;
		if (*answer)
			printf("%s%s", answer, answer[strlen(answer) - 1] == '\n' ? "" : "\n");
	}
}

/* The exit status of a run; what went wrong is said. */
static int
outcome_status(const struct hq_agent_outcome *out)
{
	switch (out->status) {
	case HQ_AGENT_ANSWERED:
		if (!out->cut_calls)
			return 0;
		hq_warn("the model's reply was cut off at its token limit; %zu tool call(s) "
		    "were not run (raise --max-tokens)", out->cut_calls);
		return 1;
	case HQ_AGENT_STEP_LIMIT:
	case HQ_AGENT_TIMEOUT:
		hq_warn("%s (raise --max-steps or --timeout); printed what was found so far",
		    out->error.msg);
		return 1;
	case HQ_AGENT_FAILED:
		break;
	}
	hq_warn("%s", out->error.msg);
	if (strstr(out->error.msg, "cannot reach"))
		hq_warn("is the model server running? set --base-url, HQ_LLM_BASE_URL or "
		    "base_url under [llm]");
	return 2;
}

static void
done_event(struct run *r, const struct hq_agent_outcome *out, int status)
{
	cJSON *o = event_new("done", 0);

	cJSON_AddStringToObject(o, "outcome", hq_agent_status_name(out->status));
	cJSON_AddNumberToObject(o, "steps", out->steps);
	cJSON_AddNumberToObject(o, "seconds", micro(out->seconds));
	cJSON_AddNumberToObject(o, "tool_seconds", micro(out->tool_seconds));
	cJSON_AddNumberToObject(o, "input_tokens", (double)out->input_tokens);
	cJSON_AddNumberToObject(o, "output_tokens", (double)out->output_tokens);
	cJSON_AddNumberToObject(o, "exit", status);
	if (out->status != HQ_AGENT_ANSWERED)
		cJSON_AddStringToObject(o, "error", out->error.msg);
	event(r, o);
}

/* Asks the model, logs the run, prints the answer; the exit status. */
static int
run_question(const struct cli *c, struct question *q)
{
	struct run r = { .store = q->store, .verbose = c->verbose, .jsonl = c->jsonl,
		.tty_out = isatty(STDOUT_FILENO), .start = hq_time_monotonic() };
	struct hq_agent_log_run lr = { c->session, q->text, c->provider, c->model,
		c->base_url, c->tool_mode };
	struct hq_agent_config ac = {
		.llm = { .provider = c->provider, .model = c->model, .base_url = c->base_url,
			.api_key = c->api_key, .stream = c->stream,
			.max_tokens = (int)c->max_tokens, .max_retries = 2 },
		.max_steps = (int)c->max_steps, .timeout = c->timeout,
		.tool_timeout = c->tool_timeout, .output_cap = (size_t)c->max_output,
		.text_mode = c->text_mode, .yes = c->yes,
	};
	struct hq_agent_hooks hooks = {
		.ctx = &r, .token = on_token, .reply = on_reply, .tool_call = on_tool_call,
		.tool_result = on_tool_result, .confirm = on_confirm,
	};
	struct hq_err e;
	int status;

	if ((r.run_id = hq_agent_log_start(q->store, &lr, &e)) < 0) {
		hq_warn("%s", e.msg);
		return 2;
	}
	hq_agent_run(&ac, &q->tools, &q->conv, &hooks, &q->out);
	if (hq_agent_log_finish(q->store, r.run_id, &q->out, &q->conv, q->from, &e))
		hq_warn("%s", e.msg);
	print_answer(&r, &q->out);
	status = outcome_status(&q->out);
	if (c->jsonl)
		done_event(&r, &q->out, status);
	return status;
}

/* --log: the last runs, newest first; 1 when there are none yet */
static int
list_runs(const char *dbpath)
{
	struct hq_err e;
	struct hq_store *s = hq_store_open(dbpath, HQ_STORE_CREATE, &e);
	int runs = -1;

	if (!s || (runs = hq_agent_log_list(s, 50, stdout, &e)) < 0)
		hq_warn("%s", e.msg);
	hq_store_close(s);
	return runs < 0 ? 2 : runs ? 0 : 1;
}

int
main(int argc, char **argv)
{
	struct cli c = { .tool_mode = "native", .max_steps = 8, .max_output = 32768,
		.timeout = 300, .tool_timeout = 60, .stream = 1 };
	struct question q = {0};
	int status;

	hq_err_init(argv[0]);
	hq_llm_conv_init(&q.conv);
	if ((status = parse_cli(argc, argv, &c)) >= 0)
		goto done;
	status = 2;
	/* the tools must read the same store */
	if (c.dbpath && setenv("HQ_DB", c.dbpath, 1) == 0)
		c.dbpath = NULL;
	if (c.list_log)
		status = list_runs(c.dbpath);
	else if (configure(&c) == 0 && prepare(&c, &q) == 0)
		status = run_question(&c, &q);
done:
	hq_agent_outcome_free(&q.out);
	hq_llm_conv_free(&q.conv);
	hq_agent_tools_free(&q.tools);
	hq_store_close(q.store);
	free(q.text);
	free(q.dirs);
	free(q.system);
	hq_config_free(c.cfg);
	free(c.api_key);
	return hq_finish(status);
}
