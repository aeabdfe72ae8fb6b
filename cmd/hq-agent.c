/*
 * hq-agent — a plain-English question answered by a language model that
 * runs the other hq commands as tools. See hq-agent(1).
 */
#include <cjson/cJSON.h>
#include <errno.h>
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

enum {
	OPT_BASE_URL = HQ_OPT_LONG, OPT_MAX_STEPS, OPT_TIMEOUT, OPT_TOOL_TIMEOUT,
	OPT_MAX_OUTPUT, OPT_TOOL_MODE, OPT_NO_STREAM, OPT_JSONL, OPT_SESSION, OPT_LOG,
	OPT_MAX_TOKENS, OPT_DB, OPT_TZ, OPT_HELP, OPT_VERSION, OPT_TOOL_SCHEMA,
};

static const struct hq_opt options[] = {
	{ 'p', "provider", HQ_OPT_ENUM, "NAME", "openai, anthropic, gemini or ollama",
	  "openai|anthropic|gemini|ollama", NULL, 0 },
	{ 'm', "model", HQ_OPT_STRING, "MODEL", "the model to ask", NULL, NULL, 0 },
	{ OPT_BASE_URL, "base-url", HQ_OPT_STRING, "URL", "the provider's API base URL", NULL, NULL, 0 },
	{ OPT_MAX_STEPS, "max-steps", HQ_OPT_INT, "N", "at most N requests to the model (8)", NULL, NULL, 0 },
	{ OPT_TIMEOUT, "timeout", HQ_OPT_NUMBER, "SECONDS", "give up after SECONDS in all (300)", NULL, NULL, 0 },
	{ OPT_TOOL_TIMEOUT, "tool-timeout", HQ_OPT_NUMBER, "SECONDS", "stop a tool after SECONDS (60)", NULL, NULL, 0 },
	{ OPT_MAX_OUTPUT, "max-output", HQ_OPT_INT, "BYTES", "tool output given to the model (32768)", NULL, NULL, 0 },
	{ OPT_TOOL_MODE, "tool-mode", HQ_OPT_ENUM, "MODE", "native tool calls, or text for models without",
	  "native|text", NULL, 0 },
	{ OPT_NO_STREAM, "no-stream", HQ_OPT_FLAG, NULL, "ask for whole replies, not streams", NULL, NULL, 0 },
	{ OPT_MAX_TOKENS, "max-tokens", HQ_OPT_INT, "N", "longest reply the model may write", NULL, NULL, 0 },
	{ 'y', "yes", HQ_OPT_FLAG, NULL, "run tools that change the store without asking", NULL, NULL, 0 },
	{ 'v', "verbose", HQ_OPT_FLAG, NULL, "show each step on stderr", NULL, NULL, 0 },
	{ OPT_JSONL, "jsonl", HQ_OPT_FLAG, NULL, "events as JSON lines on stdout", NULL, NULL, 0 },
	{ OPT_SESSION, "session", HQ_OPT_STRING, "NAME", "continue (or start) the conversation NAME", NULL, NULL, 0 },
	{ OPT_LOG, "log", HQ_OPT_FLAG, NULL, "list past runs and exit", NULL, NULL, 0 },
	{ OPT_DB, "db", HQ_OPT_STRING, "PATH", "the store (default $HQ_DB)", NULL, NULL, 0 },
	{ OPT_TZ, "tz", HQ_OPT_STRING, "ZONE", "the user's time zone (default $HQ_TZ, $TZ)", NULL, NULL, 0 },
	{ OPT_HELP, "help", HQ_OPT_FLAG, NULL, "show this help", NULL, NULL, 0 },
	{ OPT_VERSION, "version", HQ_OPT_FLAG, NULL, "show the version", NULL, NULL, 0 },
	{ OPT_TOOL_SCHEMA, "tool-schema", HQ_OPT_FLAG, NULL, "print the tool definition as JSON", NULL, NULL, 0 },
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

/* what the hooks need */
struct run {
	struct hq_store *store;
	int64_t run_id;
	int verbose, jsonl, tty_out;
	int streamed;		/* text is on the terminal since the last line end */
	int shown;		/* replies' text was streamed to the terminal */
	double start;
};

/* durations to the microsecond: more digits are noise */
static double micro(double seconds)
{
	return (double)(long long)(seconds * 1e6 + 0.5) / 1e6;
}

static void event(struct run *r, cJSON *o)
{
	cJSON_AddNumberToObject(o, "t", micro(hq_time_monotonic() - r->start));
	char *s = cJSON_PrintUnformatted(o);
	if (s)
		printf("%s\n", s);
	fflush(stdout);
	cJSON_free(s);
	cJSON_Delete(o);
}

static cJSON *event_new(const char *name, int step)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", name);
	if (step)
		cJSON_AddNumberToObject(o, "step", step);
	return o;
}

static void on_token(void *ctx, const char *text, size_t len)
{
	struct run *r = ctx;
	if (r->jsonl) {
		cJSON *o = event_new("token", 0);
		char *t = strndup(text, len);
		cJSON_AddStringToObject(o, "text", t ? t : "");
		free(t);
		event(r, o);
	} else if (r->tty_out) {
		fwrite(text, 1, len, stdout);
		fflush(stdout);
		r->streamed = r->shown = 1;
	}
}

static void on_reply(void *ctx, int step, const struct hq_llm_reply *rep, double seconds)
{
	struct run *r = ctx;
	struct hq_err e;
	if (r->store && hq_agent_log_request(r->store, r->run_id, step, rep, seconds, &e))
		hq_warn("%s", e.msg);
	if (r->streamed && rep->ncalls) {
		putchar('\n');	/* the model's thinking aloud before a tool call */
		r->streamed = 0;
	}
	if (r->verbose)
		fprintf(stderr, "hq-agent: step %d: model replied in %.2f s (%ld in, %ld out tokens, "
			"%zu tool calls%s%s)\n", step, seconds, rep->input_tokens, rep->output_tokens,
			rep->ncalls, rep->retries ? ", after retries" : "",
			rep->ncut ? ", some cut off by max tokens" : "");
	if (r->jsonl) {
		cJSON *o = event_new("step", step);
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
}

static void on_tool_call(void *ctx, int step, const struct hq_llm_call *c, char *const *argv)
{
	struct run *r = ctx;
	if (r->verbose)
		fprintf(stderr, "hq-agent: step %d: %s %s\n", step, c->name, c->args);
	if (r->jsonl) {
		cJSON *o = event_new("tool_call", step);
		cJSON_AddStringToObject(o, "id", c->id);
		cJSON_AddStringToObject(o, "name", c->name);
		cJSON_AddStringToObject(o, "arguments", c->args);
		if (argv) {
			cJSON *a = cJSON_AddArrayToObject(o, "argv");
			for (char *const *p = argv; *p; p++)
				cJSON_AddItemToArray(a, cJSON_CreateString(p == argv && strrchr(*p, '/')
									    ? strrchr(*p, '/') + 1 : *p));
		}
		event(r, o);
	}
}

static void on_tool_result(void *ctx, int step, const struct hq_llm_call *c,
			   const struct hq_agent_result *res)
{
	struct run *r = ctx;
	struct hq_err e;
	if (r->store && hq_agent_log_tool(r->store, r->run_id, step, c, res, &e))
		hq_warn("%s", e.msg);
	if (r->verbose) {
		if (res->exit_status < 0 && !res->timed_out)
			fprintf(stderr, "hq-agent: step %d: %s not run: %s\n", step, c->name, res->text);
		else
			fprintf(stderr, "hq-agent: step %d: %s exit %d%s, %zu rows%s, %.3f s\n", step,
				c->name, res->exit_status, res->timed_out ? " (timed out)" : "",
				res->rows, res->rows_cut ? " (some cut)" : "", res->seconds);
	}
	if (r->jsonl) {
		cJSON *o = event_new(res->is_error ? "tool_error" : "tool_result", step);
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
}

/* a tool that writes runs only after a yes typed at a terminal */
static int on_confirm(void *ctx, const struct hq_agent_tool *t, char *const *argv)
{
	(void)ctx;
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
		return 0;
	fprintf(stderr, "hq-agent: the model wants to change your data store:\n  ");
	for (char *const *p = argv; *p; p++)
		fprintf(stderr, "%s ", p == argv && strrchr(*p, '/') ? strrchr(*p, '/') + 1 : *p);
	fprintf(stderr, "\nAllow it? [y/N] ");
	char line[32];
	if (!fgets(line, sizeof line, stdin))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

/* flag > environment > config > default */
static const char *pick(const char *flag, const char *env, const struct hq_config *cfg,
			const char *key, const char *dflt)
{
	if (flag)
		return flag;
	if (env && getenv(env) && *getenv(env))
		return getenv(env);
	const char *v = cfg ? hq_config_get(cfg, "llm", key) : NULL;
	return v && *v ? v : dflt;
}

/* "Sunday 2026-11-22" and the zone's name, for the system prompt */
static void today_and_zone(char *today, size_t n, char *zone, size_t zn)
{
	static const char *const days[] = { "Monday", "Tuesday", "Wednesday", "Thursday",
					    "Friday", "Saturday", "Sunday" };
	struct hq_local l;
	hq_time_to_local((int64_t)time(NULL), &l);
	snprintf(today, n, "%s %04d-%02d-%02d", days[l.wday % 7], l.year, l.month, l.day);
	snprintf(zone, zn, "%s (UTC%+03d:%02d)", hq_time_zone(), l.offset_min / 60,
		 abs(l.offset_min) % 60);
	if (strcmp(hq_time_zone(), "system"))
		return;
	char link[256];
	ssize_t k = readlink("/etc/localtime", link, sizeof link - 1);
	const char *name = NULL;
	if (k > 0) {
		link[k] = '\0';
		name = strstr(link, "zoneinfo/");
	}
	snprintf(zone, zn, "%s (UTC%+03d:%02d)", name ? name + 9 : "the system's",
		 l.offset_min / 60, abs(l.offset_min) % 60);
}

static char *read_question(int argc, char **argv)
{
	struct hq_buf b = {0};
	for (int i = 0; i < argc; i++)
		hq_buf_printf(&b, "%s%s", i ? " " : "", argv[i]);
	if (!argc && !isatty(STDIN_FILENO)) {
		char chunk[4096];
		size_t got;
		while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0)
			hq_buf_append(&b, chunk, got);
	}
	while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == ' '))
		b.data[--b.len] = '\0';
	return hq_buf_steal(&b);
}

static _Noreturn void bad_value(const char *opt, const char *want, const char *arg)
{
	hq_opts_usage_error(&info, "%s wants %s, not '%s'", opt, want, arg);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *provider = NULL, *model = NULL, *base_url = NULL, *session = NULL;
	const char *dbpath = NULL, *tz = NULL, *tool_mode = "native";
	long max_steps = 8, max_output = 32768, max_tokens = 0;
	double timeout = 300, tool_timeout = 60;
	int stream = 1, yes = 0, verbose = 0, jsonl = 0, list_log = 0;
	char shortopts[64];
	int c, status = 2;

	hq_err_init(argv[0]);
	struct option *lo = hq_opts_longopts(&info, shortopts, sizeof shortopts);
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		switch (c) {
		case 'p': provider = optarg; break;
		case 'm': model = optarg; break;
		case OPT_BASE_URL: base_url = optarg; break;
		case OPT_MAX_STEPS:
			if (hq_opts_parse_long(optarg, 1, 1000, &max_steps))
				bad_value("--max-steps", "a number from 1 to 1000", optarg);
			break;
		case OPT_TIMEOUT:
			if (hq_opts_parse_double(optarg, &timeout) || timeout <= 0)
				bad_value("--timeout", "seconds above 0", optarg);
			break;
		case OPT_TOOL_TIMEOUT:
			if (hq_opts_parse_double(optarg, &tool_timeout) || tool_timeout <= 0)
				bad_value("--tool-timeout", "seconds above 0", optarg);
			break;
		case OPT_MAX_OUTPUT:
			if (hq_opts_parse_long(optarg, 256, 16L << 20, &max_output))
				bad_value("--max-output", "bytes from 256 to 16777216", optarg);
			break;
		case OPT_MAX_TOKENS:
			if (hq_opts_parse_long(optarg, 1, 1000000, &max_tokens))
				bad_value("--max-tokens", "a positive number", optarg);
			break;
		case OPT_TOOL_MODE:
			if (strcmp(optarg, "native") && strcmp(optarg, "text"))
				bad_value("--tool-mode", "native or text", optarg);
			tool_mode = optarg;
			break;
		case OPT_NO_STREAM: stream = 0; break;
		case 'y': yes = 1; break;
		case 'v': verbose = 1; break;
		case OPT_JSONL: jsonl = 1; break;
		case OPT_SESSION: session = optarg; break;
		case OPT_LOG: list_log = 1; break;
		case OPT_DB: dbpath = optarg; break;
		case OPT_TZ: tz = optarg; break;
		case OPT_HELP: hq_opts_help(&info, stdout); free(lo); return hq_finish(0);
		case OPT_VERSION: hq_opts_version(&info, stdout); free(lo); return hq_finish(0);
		case OPT_TOOL_SCHEMA: hq_opts_tool_schema(&info, stdout); free(lo); return hq_finish(0);
		default:
			hq_opts_usage_error(&info, "unknown option");
			free(lo);
			return 2;
		}
	}
	free(lo);

	struct hq_err e = {{0}};
	struct hq_store *store = NULL;
	struct hq_config *cfg = NULL;
	char *question = NULL, *dirs = NULL, *system = NULL, *api_key = NULL;
	struct hq_agent_tools tools = {0};
	struct hq_llm_conv conv;
	struct hq_agent_outcome out = {0};
	hq_llm_conv_init(&conv);

	if (dbpath && setenv("HQ_DB", dbpath, 1) == 0)
		dbpath = NULL;	/* the tools must read the same store */
	if (list_log) {
		int runs = -1;
		if (!(store = hq_store_open(dbpath, HQ_STORE_CREATE, &e)) ||
		    (runs = hq_agent_log_list(store, 50, stdout, &e)) < 0) {
			hq_warn("%s", e.msg);
			goto done;
		}
		status = runs ? 0 : 1;	/* 1: nothing logged yet */
		goto done;
	}
	if (hq_time_set_zone(tz, &e)) {
		hq_warn("%s — pass an IANA zone such as Europe/Paris", e.msg);
		goto done;
	}
	if (tz)
		setenv("HQ_TZ", tz, 1);
	if (!(cfg = hq_config_load(NULL, &e))) {
		hq_warn("%s", e.msg);
		goto done;
	}
	provider = pick(provider, "HQ_LLM_PROVIDER", cfg, "provider", "openai");
	if (!hq_llm_provider_known(provider)) {
		hq_warn("unknown provider '%s' — use openai, anthropic, gemini or ollama "
			"(--provider, HQ_LLM_PROVIDER or provider under [llm] in the config)", provider);
		goto done;
	}
	model = pick(model, "HQ_LLM_MODEL", cfg, "model", NULL);
	if (!model) {
		hq_warn("no model set — pass --model NAME, set HQ_LLM_MODEL, or write "
			"'model = NAME' under [llm] in ~/.config/hq/config (e.g. llama3.1 for Ollama)");
		goto done;
	}
	base_url = pick(base_url, "HQ_LLM_BASE_URL", cfg, "base_url",
			hq_llm_default_base_url(provider));
	const char *kenv = hq_config_get(cfg, "llm", "api_key_env");
	if (!kenv || !*kenv)
		kenv = hq_llm_key_env(provider);
	if (kenv && getenv(kenv)) {
		/* the tools need no key: keep it out of their environment */
		api_key = hq_xstrdup(getenv(kenv));
		unsetenv(kenv);
	}
	if (!api_key && hq_llm_needs_key(provider)) {
		hq_warn("no API key for %s — set %s (or name another variable with "
			"api_key_env under [llm] in ~/.config/hq/config)", provider, kenv);
		goto done;
	}

	question = read_question(argc - optind, argv + optind);
	if (!question || !*question) {
		hq_opts_usage_error(&info, "no question (give it as arguments or on stdin)");
		goto done;
	}
	if (!(store = hq_store_open(dbpath, HQ_STORE_CREATE, &e))) {
		hq_warn("%s", e.msg);
		goto done;
	}
	if (session && hq_agent_log_load_session(store, session, &conv, &e) < 0) {
		hq_warn("%s", e.msg);
		goto done;
	}

	dirs = hq_agent_tool_dirs();
	/* a command that hangs on --tool-schema must not hold up every question */
	if (hq_agent_discover(dirs, tool_timeout < 10 ? tool_timeout : 10, &tools, &e)) {
		hq_warn("%s", e.msg);
		goto done;
	}
	if (verbose) {
		fprintf(stderr, "hq-agent: %s %s at %s; tools:", provider, model, base_url);
		for (size_t i = 0; i < tools.n; i++)
			fprintf(stderr, " %s", tools.v[i].name);
		fprintf(stderr, "%s%s\n", tools.skipped[0] ? "; no schema from: " : "", tools.skipped);
	}
	char today[64], zone[128];
	today_and_zone(today, sizeof today, zone, sizeof zone);
	int text_mode = !strcmp(tool_mode, "text");
	if (!(system = hq_agent_system_prompt(&tools, text_mode, today, zone)) ||
	    hq_llm_conv_set_system(&conv, system)) {
		hq_warn("out of memory");
		goto done;
	}
	size_t from = conv.n;
	if (hq_llm_conv_add_user(&conv, question)) {
		hq_warn("out of memory");
		goto done;
	}

	struct run r = { .store = store, .verbose = verbose, .jsonl = jsonl,
			 .tty_out = isatty(STDOUT_FILENO), .start = hq_time_monotonic() };
	struct hq_agent_log_run lr = { session, question, provider, model, base_url, tool_mode };
	if ((r.run_id = hq_agent_log_start(store, &lr, &e)) < 0) {
		hq_warn("%s", e.msg);
		goto done;
	}
	struct hq_agent_config ac = {
		.llm = { .provider = provider, .model = model, .base_url = base_url,
			 .api_key = api_key, .stream = stream, .max_tokens = (int)max_tokens,
			 .max_retries = 2 },
		.max_steps = (int)max_steps, .timeout = timeout, .tool_timeout = tool_timeout,
		.output_cap = (size_t)max_output, .text_mode = text_mode, .yes = yes,
	};
	struct hq_agent_hooks hooks = {
		.ctx = &r, .token = on_token, .reply = on_reply,
		.tool_call = on_tool_call, .tool_result = on_tool_result, .confirm = on_confirm,
	};
	hq_agent_run(&ac, &tools, &conv, &hooks, &out);
	if (hq_agent_log_finish(store, r.run_id, &out, &conv, from, &e))
		hq_warn("%s", e.msg);

	const char *answer = out.answer ? out.answer : "";
	if (jsonl) {
		cJSON *o = event_new("answer", 0);
		cJSON_AddStringToObject(o, "text", answer);
		event(&r, o);
	} else if (r.streamed && out.status == HQ_AGENT_ANSWERED) {
		putchar('\n');
	} else {
		if (r.shown)	/* the model's words streamed: just what was found */
			answer += out.said;
		if (*answer)
			printf("%s%s", answer, answer[strlen(answer) - 1] == '\n' ? "" : "\n");
	}
	switch (out.status) {
	case HQ_AGENT_ANSWERED:
		status = 0;
		if (out.cut_calls) {
			hq_warn("the model's reply was cut off at its token limit; %zu tool call(s) "
				"were not run (raise --max-tokens)", out.cut_calls);
			status = 1;
		}
		break;
	case HQ_AGENT_STEP_LIMIT:
	case HQ_AGENT_TIMEOUT:
		hq_warn("%s (raise --max-steps or --timeout); printed what was found so far",
			out.error.msg);
		status = 1;
		break;
	case HQ_AGENT_FAILED:
		hq_warn("%s", out.error.msg);
		if (strstr(out.error.msg, "cannot reach"))
			hq_warn("is the model server running? set --base-url, HQ_LLM_BASE_URL or "
				"base_url under [llm]");
		status = 2;
		break;
	}
	if (jsonl) {
		cJSON *o = event_new("done", 0);
		cJSON_AddStringToObject(o, "outcome", hq_agent_status_name(out.status));
		cJSON_AddNumberToObject(o, "steps", out.steps);
		cJSON_AddNumberToObject(o, "seconds", micro(out.seconds));
		cJSON_AddNumberToObject(o, "tool_seconds", micro(out.tool_seconds));
		cJSON_AddNumberToObject(o, "input_tokens", (double)out.input_tokens);
		cJSON_AddNumberToObject(o, "output_tokens", (double)out.output_tokens);
		cJSON_AddNumberToObject(o, "exit", status);
		if (out.status != HQ_AGENT_ANSWERED)
			cJSON_AddStringToObject(o, "error", out.error.msg);
		event(&r, o);
	}
done:
	hq_agent_outcome_free(&out);
	hq_llm_conv_free(&conv);
	hq_agent_tools_free(&tools);
	hq_config_free(cfg);
	hq_store_close(store);
	free(question);
	free(api_key);
	free(dirs);
	free(system);
	return hq_finish(status);
}
