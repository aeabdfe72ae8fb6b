/*
 * hq-agent — a plain-English question answered by a language model that
 * runs the other hq commands as tools. See hq-agent(1).
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/agent.h"
#include "hq/agent_log.h"
#include "hq/buf.h"
#include "hq/complete.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/llm.h"
#include "hq/opts.h"
#include "hq/store.h"
#include "hq/term.h"
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
	{ OPT_LOG, "log", HQ_OPT_FLAG, NULL, "list past runs (or show run ID: --log ID) and exit",
	  NULL, NULL, 0 },
	{ OPT_DB, "db", HQ_OPT_STRING, "PATH", "the store (default $HQ_DB)", NULL, NULL, 0 },
	{ OPT_TZ, "tz", HQ_OPT_STRING, "ZONE", "the user's time zone (default $HQ_TZ, $TZ)",
	  NULL, NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

/* The shell completion of operands: after --log, the runs' ids. */
static void
complete_operand(const struct hq_complete *c)
{
	if (hq_complete_arg(c, "log") && c->noperands == 0)
		hq_complete_runs(c);
}

static const struct hq_cmd_info info = {
	.name = "hq-agent",
	.synopsis = "[OPTION]... [QUESTION...]\n"
	    "       hq-agent --log [ID]",
	.summary = "Answer a question about your health data with a language model that runs hq tools.",
	.tool_description = "Asks a language model a question about the user's health data; "
	    "not offered to models as a tool.",
	.positional = "question",
	.positional_help = "the question, in words (read from stdin when absent)",
	.opts = options,
	.completers = (const struct hq_opt_completer[]){
		{ "session", hq_complete_sessions },
		{ "model", hq_complete_models },
		{ "base-url", hq_complete_base_urls },
		{ NULL, NULL },
	},
	.complete_operand = complete_operand,
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
	int ended;              /* that line was ended for a -v line on stderr */
	int shown;              /* replies' text was streamed to the terminal */
	int failed;             /* an event or the log could not be written */
	double start;
	struct hq_buf esc;      /* model text escaped for the terminal */
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
	else if (!r->failed) {
		hq_warn("cannot write a --jsonl event");
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
end_streamed_line(struct run *r)
{
	if (r->verbose && r->streamed && !r->ended) {
		putchar('\n');
		fflush(stdout);
		r->ended = 1;
	}
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
	struct run *r = ctx;
	struct hq_err e;
	cJSON *o;

	if (r->store && hq_agent_log_request(r->store, r->run_id, step, rep, seconds, &e)) {
		hq_warn("%s", e.msg);
		r->failed = 1;
	}
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
	cJSON_AddNumberToObject(o, "seconds", micro(seconds));
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
	struct run *r = ctx;
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
	struct run *r = ctx;
	struct hq_err e;
	cJSON *o;

	if (r->store && hq_agent_log_tool(r->store, r->run_id, step, c, res, &e)) {
		hq_warn("%s", e.msg);
		r->failed = 1;
	}
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
	cJSON_AddNumberToObject(o, "seconds", micro(res->seconds));
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
	struct run *r = ctx;
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
	if (kenv && getenv(kenv))
		c->api_key = hq_xstrdup(getenv(kenv));
	/* no tool gets a key: not this provider's, nor any other */
	hq_agent_clear_keys(kenv);
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

/* The exit status of a run; what went wrong is said (the message may
 * quote the server: escaped). */
static int
outcome_status(const struct hq_agent_outcome *out)
{
	struct hq_buf b = {0};
	const char *msg = hq_term_text(&b, out->error.msg, sizeof out->error.msg, 0);
	int status = 2;

	switch (out->status) {
	case HQ_AGENT_ANSWERED:
		status = out->cut_calls ? 1 : 0;
		if (out->cut_calls)
			hq_warn("the model's reply was cut off at its token limit; %zu tool "
			    "call(s) were not run (raise --max-tokens)", out->cut_calls);
		break;
	case HQ_AGENT_STEP_LIMIT:
	case HQ_AGENT_TIMEOUT:
		hq_warn("%s (raise --max-steps or --timeout); printed what was found so far",
		    msg);
		status = 1;
		break;
	case HQ_AGENT_FAILED:
		hq_warn("%s", msg);
		if (strstr(out->error.msg, "cannot reach"))
			hq_warn("is the model server running? set --base-url, "
			    "HQ_LLM_BASE_URL or base_url under [llm]");
		break;
	}
	hq_buf_free(&b);
	return status;
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
	if (hq_agent_log_finish(q->store, r.run_id, &q->out, &q->conv, q->from, &e)) {
		hq_warn("%s", e.msg);
		r.failed = 1;
	}
	print_answer(&r, &q->out);
	status = outcome_status(&q->out);
	/* an answer whose run could not be logged is not a success */
	if (r.failed && status < 2) {
		hq_warn("the run was not logged in full (see above)");
		status = 2;
	}
	if (c->jsonl)
		done_event(&r, &q->out, status);
	hq_buf_free(&r.esc);
	return status;
}

/* ---- --log ------------------------------------------------------------------ */

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
put_line(const char *s, size_t cols)
{
	char buf[1024];

	hq_term_fit(buf, sizeof buf, s, cols);
	printf("%s\n", buf);
}

/* s cut to cols columns (control characters shown as '?') and padded to
 * them; right-aligned when right. */
static void
put_cell(const char *s, size_t cols, int right)
{
	char buf[1024];
	size_t used = hq_term_fit(buf, sizeof buf, s ? s : "", cols);

	if (right)
		printf("%*s%s", (int)(cols - used), "", buf);
	else
		printf("%s%*s", buf, (int)(cols - used), "");
}

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

/* The runs as a table that fits the terminal: the question gets what the
 * other columns leave, at least 10; on a narrow one the tokens, then the
 * time, give way. */
static void
print_runs(const struct log_rows *rows)
{
	size_t width = (size_t)hq_term_width(STDOUT_FILENO), idw = 2, qw, fixed;
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
	put_cell("id", idw, 1);
	if (when_col)
		printf("  %-16s", "when");
	printf("  ");
	put_cell("question", qw, 0);
	if (tokens_col)
		printf("  %5s  %-10s  %6s\n", "steps", "outcome", "tokens");
	else
		printf("  %5s  %s\n", "steps", "outcome");
	for (size_t i = 0; i < rows->n; i++) {
		const struct log_row *r = &rows->v[i];
		snprintf(num, sizeof num, "%lld", (long long)r->id);
		put_cell(num, idw, 1);
		local_minute(r->started, when, sizeof when);
		if (when_col)
			printf("  %-16s", when);
		printf("  ");
		put_cell(r->question, qw, 0);
		if (tokens_col)
			printf("  %5d  %-10s  %6lld\n", r->steps, r->outcome, (long long)r->tokens);
		else
			printf("  %5d  %s\n", r->steps, r->outcome);
	}
}

/* label, padded to indent columns, then text from there, wrapped to width
 * columns: its own line ends kept, other control characters shown as '?' */
static void
put_text(const char *label, const char *text, size_t indent, size_t width)
{
	size_t col = 0, room = width > indent + 10 ? width - indent : 10;
	int start = 1, first = 1, at_eol = 0;
	char piece[1024], word[1024];

	printf("%-*s", (int)indent, label);
	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, " \n"), cols;

		if (*p == '\n' || *p == ' ') {
			if (*p == '\n') {
				putchar('\n');
				col = 0;
				start = at_eol = 1;
				first = 0;
			}
			p++;
			continue;
		}
		snprintf(piece, sizeof piece, "%.*s", (int)(n < sizeof piece ? n : sizeof piece - 1), p);
		cols = hq_term_fit(word, sizeof word, piece, room);
		if (!start && col + 1 + cols > room) {
			putchar('\n');
			col = 0;
			start = 1;
			first = 0;
		}
		if (start && !first)
			printf("%*s", (int)indent, "");
		printf("%s%s", start ? "" : " ", word);
		col += cols + !start;
		start = at_eol = 0;
		p += n;
	}
	if (!at_eol)
		putchar('\n');
}

/* --log ID on a terminal, or as one JSON object */
struct log_view {
	int tty;
	size_t width;
	cJSON *json, *requests, *calls;
	char *answer, *error;
};

static int
view_run(void *ctx, const struct hq_agent_log_entry *r)
{
	struct log_view *v = ctx;
	char when[32], line[256];

	v->answer = r->answer ? hq_xstrdup(r->answer) : NULL;
	v->error = r->error ? hq_xstrdup(r->error) : NULL;
	if (!v->tty) {
		cJSON *o = v->json = cJSON_CreateObject();
		hq_time_format_utc(r->started, when, sizeof when);
		cJSON_AddNumberToObject(o, "id", (double)r->id);
		cJSON_AddStringToObject(o, "started", when);
		if (r->session)
			cJSON_AddStringToObject(o, "session", r->session);
		cJSON_AddStringToObject(o, "question", r->question);
		cJSON_AddStringToObject(o, "provider", r->provider);
		cJSON_AddStringToObject(o, "model", r->model);
		cJSON_AddStringToObject(o, "base_url", r->base_url);
		cJSON_AddStringToObject(o, "tool_mode", r->tool_mode);
		cJSON_AddStringToObject(o, "outcome", r->outcome);
		cJSON_AddNumberToObject(o, "steps", r->steps);
		cJSON_AddNumberToObject(o, "input_tokens", (double)r->input_tokens);
		cJSON_AddNumberToObject(o, "output_tokens", (double)r->output_tokens);
		cJSON_AddNumberToObject(o, "seconds", micro(r->seconds));
		cJSON_AddNumberToObject(o, "tool_seconds", micro(r->tool_seconds));
		if (r->answer)
			cJSON_AddStringToObject(o, "answer", r->answer);
		if (r->error)
			cJSON_AddStringToObject(o, "error", r->error);
		v->requests = cJSON_AddArrayToObject(o, "requests");
		v->calls = cJSON_AddArrayToObject(o, "tool_calls");
		return 0;
	}
	local_minute(r->started, when, sizeof when);
	snprintf(line, sizeof line, "run %lld, %s (%s)", (long long)r->id, when, hq_time_zone());
	put_line(line, v->width);
	put_text("question", r->question ? r->question : "", 10, v->width);
	snprintf(line, sizeof line, "%s %s (%s tools)", r->provider, r->model, r->tool_mode);
	printf("%-10s", "model");
	put_line(line, v->width - 10);
	if (r->session) {
		printf("%-10s", "session");
		put_line(r->session, v->width - 10);
	}
	snprintf(line, sizeof line, "%s after %d step%s, %.2f s (tools %.2f s), "
	    "%lld tokens in, %lld out", r->outcome, r->steps, r->steps == 1 ? "" : "s",
	    r->seconds, r->tool_seconds, (long long)r->input_tokens,
	    (long long)r->output_tokens);
	put_text("outcome", line, 10, v->width);
	return 0;
}

static void
view_request(void *ctx, const struct hq_agent_log_request *q)
{
	struct log_view *v = ctx;
	char line[256];

	if (!v->tty) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "step", q->step);
		cJSON_AddNumberToObject(o, "seconds", micro(q->seconds));
		cJSON_AddNumberToObject(o, "input_tokens", (double)q->input_tokens);
		cJSON_AddNumberToObject(o, "output_tokens", (double)q->output_tokens);
		cJSON_AddNumberToObject(o, "tool_calls", q->tool_calls);
		cJSON_AddNumberToObject(o, "cut_calls", q->cut_calls);
		cJSON_AddNumberToObject(o, "retries", q->retries);
		if (q->stop_reason)
			cJSON_AddStringToObject(o, "stop_reason", q->stop_reason);
		cJSON_AddItemToArray(v->requests, o);
		return;
	}
	snprintf(line, sizeof line, "step %d: %.2f s, %lld tokens in, %lld out, %d tool call%s%s%s%s",
	    q->step, q->seconds, (long long)q->input_tokens, (long long)q->output_tokens,
	    q->tool_calls, q->tool_calls == 1 ? "" : "s", q->retries ? ", retried" : "",
	    q->stop_reason ? ", stop: " : "", q->stop_reason ? q->stop_reason : "");
	putchar('\n');
	put_line(line, v->width);
}

static void
view_call(void *ctx, const struct hq_agent_log_call *c)
{
	struct log_view *v = ctx;
	char line[256];
	struct hq_buf b = {0};

	if (!v->tty) {
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
			cJSON_AddNumberToObject(o, "seconds", micro(c->seconds));
			cJSON_AddNumberToObject(o, "rows", (double)c->rows);
			cJSON_AddNumberToObject(o, "rows_cut", (double)c->rows_cut);
			cJSON_AddNumberToObject(o, "output_bytes", (double)c->output_bytes);
		}
		cJSON_AddNumberToObject(o, "result_bytes", (double)c->result_bytes);
		cJSON_AddItemToArray(v->calls, o);
		return;
	}
	hq_buf_printf(&b, "  %s %s", c->tool, c->arguments ? c->arguments : "");
	put_line(b.data, v->width);
	hq_buf_free(&b);
	if (!c->ran)
		snprintf(line, sizeof line, "not run%s", c->is_error ? " (an error to the model)" : "");
	else if (c->exit_status < 0)
		snprintf(line, sizeof line, "timed out after %.3f s", c->seconds);
	else
		snprintf(line, sizeof line, "exit %d, %lld row%s%s, %.3f s", c->exit_status,
		    (long long)c->rows, c->rows == 1 ? "" : "s", c->rows_cut ? " (some cut)" : "",
		    c->seconds);
	printf("    %s\n", line);
}

/* --log ID */
static int
show_run(struct hq_store *s, int64_t id)
{
	struct log_view v = { .tty = isatty(STDOUT_FILENO),
		.width = (size_t)hq_term_width(STDOUT_FILENO) };
	struct hq_agent_log_visit visit = { &v, view_run, view_request, view_call };
	struct hq_err e;
	int found = hq_agent_log_show(s, id, &visit, &e);
	char *txt;

	if (found < 0)
		hq_warn("%s", e.msg);
	else if (found == 0)
		hq_warn("no run %lld in the log (hq-agent --log lists them)", (long long)id);
	else if (!v.tty) {
		if ((txt = cJSON_PrintUnformatted(v.json)))
			printf("%s\n", txt);
		cJSON_free(txt);
	} else {
		if (v.answer) {
			printf("\nanswer\n");
			put_text("", v.answer, 2, v.width);
		}
		if (v.error) {
			printf("\nerror\n");
			put_text("", v.error, 2, v.width);
		}
	}
	cJSON_Delete(v.json);
	free(v.answer);
	free(v.error);
	return found < 0 ? 2 : found ? 0 : 1;
}

/* --log: the last runs, newest first (a table on a terminal, JSON lines
 * otherwise); --log ID: one run's steps and tool calls. 1 when there is
 * nothing to show. */
static int
show_log(const struct cli *c)
{
	struct log_rows rows = {0};
	struct hq_store *s = NULL;
	struct hq_err e;
	long id = 0;
	int n = -1, status = 2;

	if (c->nwords > 1 || (c->nwords == 1 &&
	    hq_opts_parse_long(c->words[0], 1, INT32_MAX, &id))) {
		hq_opts_usage_error(&info, "--log takes one run's id (hq-agent --log lists them)");
		return 2;
	}
	if (hq_time_set_zone(c->tz, &e) || !(s = hq_store_open(c->dbpath, HQ_STORE_CREATE, &e)))
		hq_warn("%s", e.msg);
	else if (id)
		status = show_run(s, id);
	else if (!isatty(STDOUT_FILENO))
		n = hq_agent_log_list(s, 50, stdout, &e);
	else if ((n = hq_agent_log_runs(s, 0, 50, keep_row, &rows, &e)) > 0)
		print_runs(&rows);
	if (!id && s && n < 0)
		hq_warn("%s", e.msg);
	if (!id && n >= 0)
		status = n ? 0 : 1;
	for (size_t i = 0; i < rows.n; i++)
		free(rows.v[i].question);
	free(rows.v);
	hq_store_close(s);
	return status;
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
		status = show_log(&c);
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
