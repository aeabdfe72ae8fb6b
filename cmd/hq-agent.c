/*
 * hq-agent — a plain-English question answered by a language model that
 * runs the other hq commands as tools. See hq-agent(1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/agent.h"
#include "hq/agent_console.h"
#include "hq/agent_log.h"
#include "hq/agent_view.h"
#include "hq/buf.h"
#include "hq/complete.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/llm.h"
#include "hq/opts.h"
#include "hq/privacy.h"
#include "hq/store.h"
#include "hq/term.h"
#include "hq/time.h"
#include "hq/zone.h"

enum {
	OPT_BASE_URL = HQ_OPT_LONG, OPT_MAX_STEPS, OPT_TIMEOUT, OPT_TOOL_TIMEOUT,
	OPT_MAX_OUTPUT, OPT_TOOL_MODE, OPT_NO_STREAM, OPT_JSONL, OPT_SESSION, OPT_LOG,
	OPT_MAX_TOKENS, OPT_DB, OPT_TZ, OPT_SHARE, OPT_PRIVACY,
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
	{ OPT_SHARE, "share", HQ_OPT_STRING, "WHAT",
	  "let a remote model see positions, names, serials (comma-separated)",
	  NULL, NULL, 0 },
	{ OPT_PRIVACY, "privacy", HQ_OPT_FLAG, NULL,
	  "print what the model is not shown, and why, and exit", NULL, NULL, 0 },
	{ OPT_LOG, "log", HQ_OPT_FLAG, NULL, "list past runs (or show run ID: --log ID) and exit",
	  NULL, NULL, 0 },
	HQ_OPT_DB(OPT_DB),
	HQ_OPT_TZ(OPT_TZ, 0),
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

/* The shell completion of operands: after --log, the runs' ids. */
static void
complete_operand(const struct hq_complete *c)
{
	if (hq_complete_arg(c, "log") && c->noperands == 0)
		hq_complete_runs(c);
}

/* --share's values */
static void
complete_share(const struct hq_complete *c)
{
	hq_complete_add(c, "positions", "route points, places, coordinates");
	hq_complete_add(c, "names", "names of people and organisations");
	hq_complete_add(c, "serials", "device serial numbers");
	hq_complete_add(c, "all", "everything: no filtering");
	hq_complete_add(c, "none", "nothing more than the config shares");
}

/* --help's end: what hq-agent reads besides its options. */
static void
help_settings(FILE *fp)
{
	fputs("\nsettings: an option, else the variable, else the config file\n"
	    "  HQ_LLM_PROVIDER, HQ_LLM_MODEL, HQ_LLM_BASE_URL, HQ_LLM_PRIVACY\n"
	    "                  provider (default openai), model, base URL, what a\n"
	    "                  model elsewhere is not shown (hq-agent --privacy)\n"
	    "  OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY\n"
	    "                  the provider's key (never printed nor logged)\n"
	    "  ~/.config/hq/config ($XDG_CONFIG_HOME/hq/config), under [llm]:\n"
	    "                  provider, model, base_url, api_key_env (the key's\n"
	    "                  variable), privacy (remote, always, never), share;\n"
	    "                  tz at the top\n"
	    "  HQ_DB, HQ_TZ    the store and the time zone\n"
	    "  HQ_AGENT_TOOL_PATH  directories searched for tools first\n"
	    "Without a base URL: a provider named with its key set is asked at its\n"
	    "public API (api.openai.com, api.anthropic.com, Gemini's); openai unnamed\n"
	    "or without a key, a local server at http://127.0.0.1:11434/v1 (Ollama).\n",
	    fp);
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
		{ "share", complete_share },
		{ NULL, NULL },
	},
	.split = "share",
	.complete_operand = complete_operand,
	.help_more = help_settings,
};

/* The command line; then what flags, environment and config settle. */
struct cli {
	const char *provider, *model, *base_url, *session, *dbpath, *tz;
	const char *tool_mode, *share;
	long max_steps, max_output, max_tokens;
	double timeout, tool_timeout;
	int text_mode, stream, yes, verbose, jsonl, list_log, show_privacy;
	enum hq_privacy_mode privacy;	/* the config's privacy */
	unsigned shared;	/* what --share and the config's share let through */
	unsigned withhold;	/* what the model is not shown (HQ_PRIV_*) */
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
	struct hq_privacy priv;
};

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
		case OPT_SHARE: c->share = p.arg; break;
		case OPT_PRIVACY: c->show_privacy = 1; break;
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

/* privacy and share under [llm], --share: what the model is not shown.
 * 0, or -1 after a message. */
static int
configure_privacy(struct cli *c)
{
	const char *mode = pick(NULL, "HQ_LLM_PRIVACY", c->cfg, "privacy", NULL);
	const char *share = hq_config_get(c->cfg, "llm", "share");
	struct hq_err e;

	if (mode && *mode && hq_privacy_parse_mode(mode, &c->privacy)) {
		hq_warn("privacy '%.40s' (HQ_LLM_PRIVACY or privacy under [llm] in the "
		    "config): say remote (the default), always or never", mode);
		return -1;
	}
	if (hq_privacy_parse_share(share, &c->shared, &e)) {
		hq_warn("share under [llm] in the config: %s", e.msg);
		return -1;
	}
	if (hq_privacy_parse_share(c->share, &c->shared, &e)) {
		hq_opts_usage_error(&info, "%s", e.msg);
		return -1;
	}
	c->withhold = hq_privacy_withheld(c->privacy, c->base_url, c->shared);
	return 0;
}

/* --privacy: what the model is not shown, and why. */
static int
show_privacy(const struct cli *c)
{
	static const char *const what[] = {
		"route points, GPX and GeoJSON, latitude and longitude fields,\n"
		"    bounding boxes, places, coordinate pairs in text",
		"the export's Me, names in source and device names (\"Jane's Apple\n"
		"    Watch\"), FHIR patients, practitioners and organisations, names\n"
		"    after a title in text (Dr, Prof...); each becomes a placeholder\n"
		"    (\"Person 1\") that the printed answer turns back into the name",
		"serial numbers: serial fields, \"SN ...\" in device names,\n"
		"    HKDevice identifiers",
	};
	static const char *const modes[] = { "remote", "always", "never" };
	int local = hq_privacy_url_is_local(c->base_url);
	struct hq_buf b = {0};

	printf("model server: %s\n", hq_term_text(&b, c->base_url, strlen(c->base_url), 0));
	hq_buf_free(&b);
	printf("  %s (a Unix socket, localhost, 127.0.0.0/8 and ::1 are)\n",
	    local ? "on this machine" : "not on this machine");
	printf("privacy = %s%s\n", modes[c->privacy],
	    c->privacy == HQ_PRIVACY_REMOTE ? " (filter what goes to a server elsewhere)"
	    : c->privacy == HQ_PRIVACY_ALWAYS ? " (filter what goes to any server)"
	    : " (filter nothing)");
	for (int k = 0; k < HQ_PRIV_NKINDS; k++) {
		unsigned bit = 1u << k;
		printf("%s %s: %s\n", hq_privacy_kind_name(k),
		    c->withhold & bit ? "withheld" : "sent",
		    c->withhold & bit ? "" : c->privacy == HQ_PRIVACY_NEVER ? "privacy = never"
		    : c->shared & bit ? "shared (--share or share in the config)"
		    : "the server is on this machine");
		if (c->withhold & bit)
			printf("    %s\n", what[k]);
	}
	if (!c->withhold)
		puts("The model sees tool results as the tools print them.");
	else
		puts("Every other field reaches the model byte for byte; numbers stay exact.");
	return 0;
}

/* The configuration (its warnings said); the provider, model, base URL
 * and key. The key leaves the environment: the tools need none. 0, or -1
 * after a message. */
static int
configure(struct cli *c)
{
	struct hq_err e;
	const char *kenv;
	int named;

	const char *w;

	if (!(c->cfg = hq_config_load(NULL, &e))) {
		hq_warn("%s", e.msg);
		return -1;
	}
	for (size_t i = 0; (w = hq_config_warning(c->cfg, i)); i++)
		hq_warn("%s", w);
	/* a provider named and its key set point hq-agent at the provider's
	 * public API; the default, openai unnamed, stays on this machine */
	named = pick(c->provider, "HQ_LLM_PROVIDER", c->cfg, "provider", NULL) != NULL;
	c->provider = pick(c->provider, "HQ_LLM_PROVIDER", c->cfg, "provider", "openai");
	if (!hq_llm_provider_known(c->provider)) {
		hq_warn("unknown provider '%s' — use openai, anthropic, gemini or ollama "
		    "(--provider, HQ_LLM_PROVIDER or provider under [llm] in the config)",
		    c->provider);
		return -1;
	}
	if (!(c->model = pick(c->model, "HQ_LLM_MODEL", c->cfg, "model", NULL)) &&
	    !c->show_privacy) {
		hq_warn("no model set — pass --model NAME, set HQ_LLM_MODEL, or write "
		    "'model = NAME' under [llm] in ~/.config/hq/config (e.g. llama3.1 for Ollama)");
		return -1;
	}
	kenv = hq_config_get(c->cfg, "llm", "api_key_env");
	if (!kenv || !*kenv)
		kenv = hq_llm_key_env(c->provider);
	if (kenv && getenv(kenv) && *getenv(kenv))
		c->api_key = hq_xstrdup(getenv(kenv));
	c->base_url = pick(c->base_url, "HQ_LLM_BASE_URL", c->cfg, "base_url",
	    hq_llm_default_base_url(c->provider, named && c->api_key));
	/* no tool gets a key: not this provider's, nor any other */
	hq_agent_clear_keys(kenv);
	if (configure_privacy(c))
		return -1;
	if (!c->api_key && hq_llm_needs_key(c->provider) && !c->show_privacy) {
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

	hq_time_to_local(hq_time_now(), &l);
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
	hq_privacy_init(&q->priv, c->withhold);
	if (hq_privacy_learn_store(&q->priv, q->store, &e)) {
		hq_warn("%s", e.msg);
		return -1;
	}
	{
		char why[256];
		if (hq_privacy_check_question(&q->priv, q->text, why, sizeof why)) {
			hq_warn("%s; it was not sent. Leave it out, or pass --share "
			    "positions,serials to send it anyway (hq-agent --privacy)", why);
			return -1;
		}
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
	/* the saved queries, each a tool of its own */
	{
		struct hq_saved_query *sq;
		size_t nsq;
		int bad = hq_queries_load(c->cfg, &sq, &nsq, &e) ||
		    hq_agent_add_queries(&q->tools, sq, nsq, &e);
		hq_queries_free(sq, nsq);
		if (bad) {
			hq_warn("%s (nothing was asked)", e.msg);
			return -1;
		}
	}
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

/* Asks the model, logs the run, prints the answer; the exit status. */
static int
run_question(const struct cli *c, struct question *q)
{
	struct hq_agent_console con = { .store = q->store, .verbose = c->verbose,
		.jsonl = c->jsonl, .tty_out = isatty(STDOUT_FILENO),
		.start = hq_time_monotonic(), .warn = hq_warn };
	struct hq_agent_log_run lr = { c->session, q->text, c->provider, c->model,
		c->base_url, c->tool_mode };
	struct hq_agent_config ac = {
		.llm = { .provider = c->provider, .model = c->model, .base_url = c->base_url,
			.api_key = c->api_key, .stream = c->stream,
			.max_tokens = (int)c->max_tokens, .max_retries = 2 },
		.max_steps = (int)c->max_steps, .timeout = c->timeout,
		.tool_timeout = c->tool_timeout, .output_cap = (size_t)c->max_output,
		.text_mode = c->text_mode, .yes = c->yes,
		.privacy = c->withhold ? &q->priv : NULL,
	};
	struct hq_agent_hooks hooks = hq_agent_console_hooks(&con);
	struct hq_err e;
	int status;

	if ((con.run_id = hq_agent_log_start(q->store, &lr, &e)) < 0) {
		hq_warn("%s", e.msg);
		return 2;
	}
	hq_agent_run(&ac, &q->tools, &q->conv, &hooks, &q->out);
	if (c->withhold) {
		const char *kinds[HQ_PRIV_NKINDS];
		for (int k = 0; k < HQ_PRIV_NKINDS; k++)
			kinds[k] = hq_privacy_kind_name(k);
		if (hq_agent_log_withheld(q->store, con.run_id, q->priv.count, HQ_PRIV_NKINDS,
		    kinds, &e)) {
			hq_warn("%s", e.msg);
			con.failed = 1;
		}
	}
	if (hq_agent_log_finish(q->store, con.run_id, &q->out, &q->conv, q->from, &e)) {
		hq_warn("%s", e.msg);
		con.failed = 1;
	}
	if (c->verbose && c->withhold)
		fprintf(stderr, "hq-agent: withheld from the model: %zu positions, %zu names, "
		    "%zu serials\n", q->priv.count[0], q->priv.count[1], q->priv.count[2]);
	hq_agent_console_answer(&con, &q->out);
	status = outcome_status(&q->out);
	/* an answer whose run could not be logged is not a success */
	if (con.failed && status < 2) {
		hq_warn("the run was not logged in full (see above)");
		status = 2;
	}
	hq_agent_console_done(&con, &q->out, status);
	hq_agent_console_free(&con);
	return status;
}

/* ---- --log ----------------------------------------------------------------- */

/* --log: the last runs, newest first (a table on a terminal, JSON lines
 * otherwise); --log ID: one run's steps and tool calls. 1 when there is
 * nothing to show, and stderr says so. */
static int
show_log(const struct cli *c)
{
	struct hq_agent_view v = { stdout, isatty(STDOUT_FILENO),
		(size_t)hq_term_width(STDOUT_FILENO) };
	struct hq_store *s = NULL;
	struct hq_err e;
	long id = 0;
	int n = -1;

	if (c->nwords > 1 || (c->nwords == 1 &&
	    hq_opts_parse_long(c->words[0], 1, INT32_MAX, &id))) {
		hq_opts_usage_error(&info, "--log takes one run's id (hq-agent --log lists them)");
		return 2;
	}
	if (hq_time_set_zone(c->tz, &e) || !(s = hq_store_open(c->dbpath, HQ_STORE_CREATE, &e))) {
		hq_warn("%s", e.msg);
		return 2;
	}
	if (id)
		n = hq_agent_view_run(s, &v, id, &e);
	else
		n = hq_agent_view_runs(s, &v, 50, &e);
	if (n < 0)
		hq_warn("%s", e.msg);
	else if (n == 0 && id)
		hq_warn("no run %ld in the log (hq-agent --log lists them)", id);
	else if (n == 0)
		hq_warn("no runs logged yet: nothing has been asked (hq-agent \"QUESTION\" asks)");
	hq_store_close(s);
	return n < 0 ? 2 : n ? 0 : 1;
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
	else if (c.show_privacy)
		status = configure(&c) == 0 ? show_privacy(&c) : 2;
	else if (configure(&c) == 0 && prepare(&c, &q) == 0)
		status = run_question(&c, &q);
done:
	hq_agent_outcome_free(&q.out);
	hq_llm_conv_free(&q.conv);
	hq_agent_tools_free(&q.tools);
	hq_privacy_free(&q.priv);
	hq_store_close(q.store);
	free(q.text);
	free(q.dirs);
	free(q.system);
	hq_config_free(c.cfg);
	free(c.api_key);
	return hq_finish(status);
}
