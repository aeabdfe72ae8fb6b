/* The agent's pieces: retry policy, tool schemas to argv, the neutral
 * message form sessions are stored in, and running argvs with caps and
 * timeouts. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "hq/agent.h"
#include "hq/buf.h"
#include "hq/http.h"
#include "hq/llm.h"
#include "hq/proc.h"
#include "hq/time.h"
#include "tap.h"

static void retry_policy(void)
{
	is_dbl(hq_http_parse_retry_after("200", "30", 0), 0.2, 1e-9, "retry-after-ms wins over Retry-After");
	is_dbl(hq_http_parse_retry_after(NULL, "1.5", 0), 1.5, 1e-9, "Retry-After in (fractional) seconds");
	is_dbl(hq_http_parse_retry_after(NULL, "Wed, 21 Oct 2015 07:28:00 GMT", 1445412470.0), 10, 1e-9,
	       "Retry-After as an HTTP-date");
	is_dbl(hq_http_parse_retry_after(NULL, "soon", 0), -1, 0, "a bad Retry-After is ignored");
	is_dbl(hq_http_parse_retry_after("x", NULL, 0), -1, 0, "a bad retry-after-ms is ignored");
	for (int n = 0; n < 8; n++) {
		double d = hq_http_backoff(n), cap = n >= 4 ? 8 : 0.5 * (1 << n);
		ok(d > 0.75 * cap - 1e-9 && d <= cap, "backoff %d: %.3f s within (0.75, 1] x %.1f s", n, d, cap);
	}
	struct hq_http_response r = { .status = 429, .retry_after = -1, .should_retry = -1 };
	ok(hq_http_retry_delay(&r, 0) > 0, "429 is retried");
	r.status = 529;
	ok(hq_http_retry_delay(&r, 0) > 0, "529 (overloaded) is retried");
	r.status = 408;
	ok(hq_http_retry_delay(&r, 0) > 0, "408 is retried");
	r.status = 409;
	ok(hq_http_retry_delay(&r, 0) > 0, "409 is retried");
	r.status = 400;
	is_dbl(hq_http_retry_delay(&r, 0), -1, 0, "400 is not retried");
	r.status = 401;
	is_dbl(hq_http_retry_delay(&r, 0), -1, 0, "401 is not retried");
	r.status = 503;
	r.should_retry = 0;
	is_dbl(hq_http_retry_delay(&r, 0), -1, 0, "x-should-retry: false overrides a 503");
	r.status = 400;
	r.should_retry = 1;
	ok(hq_http_retry_delay(&r, 0) > 0, "x-should-retry: true overrides a 400");
	r = (struct hq_http_response){ .status = 429, .retry_after = 3, .should_retry = -1 };
	is_dbl(hq_http_retry_delay(&r, 0), 3, 0, "the server's delay is used");
	r.retry_after = 600;
	is_dbl(hq_http_retry_delay(&r, 0), -1, 0, "a delay over 120 s is not waited for");
	r = (struct hq_http_response){ .status = 0, .transport_error = 1, .retry_after = -1, .should_retry = -1 };
	ok(hq_http_retry_delay(&r, 1) > 0, "a connection failure is retried");
}

static const char *schema =
	"{\"name\":\"hq_query\",\"description\":\"Time series.\",\"parameters\":{\"type\":\"object\","
	"\"properties\":{\"metrics\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"m\"},"
	"\"from\":{\"type\":\"string\",\"description\":\"d\"},"
	"\"by\":{\"type\":\"string\",\"enum\":[\"day\",\"week\"],\"description\":\"b\"},"
	"\"limit\":{\"type\":\"integer\",\"description\":\"n\"},"
	"\"min_value\":{\"type\":\"number\",\"description\":\"v\"},"
	"\"list\":{\"type\":\"boolean\",\"description\":\"l\"},"
	"\"agg\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"a\"}},"
	"\"required\":[\"metrics\"]},\"writes\":false,\"x-positional\":\"metrics\"}";

static char *joined(char **argv)
{
	static char buf[1024];
	buf[0] = '\0';
	for (char **p = argv; p && *p; p++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", p == argv ? "" : " ", *p);
	return buf;
}

static void tool_argv(void)
{
	struct hq_agent_tool t;
	struct hq_err e = {{0}};
	is_int(hq_agent_tool_parse(schema, "/bin/hq-query", &t, &e), 0, "tool schema parsed");
	is_str(t.positional, "metrics", "x-positional read from the top level");
	is_int(t.writes, 0, "writes: false");
	char **argv;
	is_int(hq_agent_argv(&t, "{\"metrics\":[\"steps\",\"hr\"],\"by\":\"week\",\"limit\":10,"
				 "\"list\":true,\"agg\":[\"avg\",\"max\"],\"min_value\":2.5,\"from\":\"-1d\"}", &argv, &e), 0,
	       "a full call becomes an argv");
	is_str(joined(argv), "/bin/hq-query --from -1d --by week --limit 10 --min-value 2.5 --list --agg avg --agg max -- steps hr",
	       "schema order; dashes for underscores; lists repeat; positionals last after --");
	hq_agent_argv_free(argv);
	is_int(hq_agent_argv(&t, "{\"metrics\":\"steps\",\"list\":false,\"limit\":\"5\",\"from\":null}", &argv, &e), 0,
	       "lenient: a lone value for a list, a numeric string, false and null");
	is_str(joined(argv), "/bin/hq-query --limit 5 -- steps", "lenient call's argv");
	hq_agent_argv_free(argv);
	static const struct { const char *args, *want; } bad[] = {
		{ "{\"metrics\":[\"steps\"],", "not a JSON object" },
		{ "[1,2]", "not a JSON object" },
		{ "{\"metrics\":[\"s\"],\"colour\":1}", "unknown parameter 'colour'" },
		{ "{\"by\":\"day\"}", "missing required parameter 'metrics'" },
		{ "{\"metrics\":[\"s\"],\"by\":\"year\"}", "must be one of [\"day\",\"week\"]" },
		{ "{\"metrics\":[\"s\"],\"limit\":2.5}", "must be an integer" },
		{ "{\"metrics\":[\"s\"],\"limit\":\"ten\"}", "must be an integer" },
		{ "{\"metrics\":[\"s\"],\"limit\":\"0x10\"}", "must be an integer, not \"0x10\"" },
		{ "{\"metrics\":[\"s\"],\"limit\":\"1e400\"}", "must be an integer" },
		{ "{\"metrics\":[\"s\"],\"list\":\"maybe\"}", "must be true or false" },
		{ "{\"metrics\":[\"s\"],\"from\":{\"a\":1}}", "must be a string value" },
		{ "{\"metrics\":[\"s\"],\"from\":[\"a\",\"b\"]}", "takes one value, not a list" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.msg[0] = '\0';
		int rc = hq_agent_argv(&t, bad[i].args, &argv, &e);
		ok(rc == -1 && argv == NULL && strstr(e.msg, bad[i].want),
		   "rejected %s: %s", bad[i].args, e.msg);
	}
	/* issue 23: a long value goes whole or is refused, never cut */
	{
		struct hq_buf big = {0};
		hq_buf_puts(&big, "{\"metrics\":[\"steps\"],\"from\":\"");
		for (int i = 0; i < 2000; i++)
			hq_buf_printf(&big, "%sm%d", i ? "," : "", i);
		hq_buf_puts(&big, "\"}");
		is_int(hq_agent_argv(&t, big.data, &argv, &e), 0, "a 9 KB value is taken");
		ok(argv && argv[1] && argv[2] && strlen(argv[2]) > 8000 &&
		   !strcmp(strrchr(argv[2], ',') + 1, "m1999"), "a 9 KB value goes whole (%zu bytes)",
		   argv && argv[2] ? strlen(argv[2]) : 0);
		hq_agent_argv_free(argv);
		hq_buf_free(&big);
		hq_buf_puts(&big, "{\"metrics\":[\"steps\",\"");
		for (int i = 0; i < HQ_AGENT_MAX_VALUE + 1; i++)
			hq_buf_puts(&big, "x");
		hq_buf_puts(&big, "\"]}");
		e.msg[0] = '\0';
		int rc = hq_agent_argv(&t, big.data, &argv, &e);
		ok(rc == -1 && argv == NULL && strstr(e.msg, "parameter 'metrics' is 32769 bytes long") &&
		   strstr(e.msg, "at most 32768"), "a value over %d bytes is a tool error: %s",
		   HQ_AGENT_MAX_VALUE, e.msg);
		hq_buf_free(&big);
	}
	struct hq_agent_tools ts = { &t, 1, "" };
	char *sys = hq_agent_system_prompt(&ts, 1, "2026-11-22", "Europe/Paris");
	ok(sys && strstr(sys, "Today is 2026-11-22") && strstr(sys, "Europe/Paris"), "system prompt: date and zone");
	ok(sys && strstr(sys, "not a doctor") && strstr(sys, "never guess") && strstr(sys, "units") &&
	   strstr(sys, "aggregated"), "system prompt: doctor, missing data, units, aggregation");
	ok(sys && strstr(sys, "- hq_query: Time series.") && !strstr(sys, "x-positional"),
	   "system prompt (text mode): the tools, without x- keys");
	free(sys);
	hq_agent_tool_free(&t);
}

static void messages(void)
{
	struct hq_llm_msg m = { .role = HQ_LLM_ASSISTANT, .text = strdup("hi"), .signature = strdup("S") };
	m.calls = calloc(1, sizeof *m.calls);
	m.ncalls = 1;
	m.calls[0] = (struct hq_llm_call){ .id = strdup("c1"), .name = strdup("hq_query"),
		.args = strdup("{bad"), .signature = strdup("T") };
	cJSON *j = hq_llm_msg_to_json(&m);
	struct hq_llm_msg back;
	is_int(hq_llm_msg_from_json(j, &back), 0, "message round trip");
	ok(back.role == HQ_LLM_ASSISTANT && back.ncalls == 1 && !strcmp(back.calls[0].args, "{bad") &&
	   !strcmp(back.calls[0].signature, "T") && !strcmp(back.signature, "S"),
	   "message round trip keeps calls, raw arguments and signatures");
	cJSON_Delete(j);
	hq_llm_msg_free(&back);
	hq_llm_msg_free(&m);
	cJSON *badj = cJSON_Parse("{\"role\":\"wizard\",\"text\":\"x\"}");
	is_int(hq_llm_msg_from_json(badj, &back), -1, "an unknown role is refused");
	cJSON_Delete(badj);
}

static void procs(void)
{
	char *a[] = { "/bin/sh", "-c", "i=0; while [ $i -lt 1000 ]; do echo row$i; i=$((i+1)); done", NULL };
	char *b[] = { "/bin/sh", "-c", "echo oops >&2; exit 3", NULL };
	char *c[] = { "/bin/sh", "-c", "sleep 5", NULL };
	char *d[] = { "/no/such/program", NULL };
	struct hq_proc p[4] = { { .argv = a }, { .argv = b }, { .argv = c }, { .argv = d } };
	struct hq_proc_limits lim = { .timeout = 0.3, .out_cap = 100 };
	hq_proc_run_all(p, 4, &lim);
	is_int(p[0].exit_status, 0, "proc: exit 0");
	is_int(p[0].out_lines, 1000, "proc: every line counted");
	ok(p[0].out_len <= 100 && p[0].out_len > 0 && p[0].out[p[0].out_len - 1] == '\n',
	   "proc: kept output under the cap, cut at a line end (%zu bytes)", p[0].out_len);
	ok(p[0].kept_lines > 5 && p[0].kept_lines < 1000, "proc: kept lines counted (%zu)", p[0].kept_lines);
	is_int(p[1].exit_status, 3, "proc: exit status");
	is_str(p[1].err, "oops\n", "proc: stderr captured");
	ok(p[2].timed_out && p[2].term_signal == 9 && p[2].seconds < 2, "proc: killed at the timeout (%.2f s)", p[2].seconds);
	ok(p[3].spawn_errno != 0, "proc: a missing program is reported, not fatal");
	for (int i = 0; i < 4; i++)
		hq_proc_free(&p[i]);
}

/* at most max_running at once, the others in turn; the deadline stops
 * those running and starts no more */
static void pool(void)
{
	char *nap[] = { "/bin/sh", "-c", "sleep 0.2; echo done", NULL };
	char *hang[] = { "/bin/sh", "-c", "sleep 5", NULL };
	struct hq_proc p[6];
	struct hq_proc_limits lim = { .max_running = 2, .timeout = 10, .out_cap = 100 };
	double t0 = hq_time_monotonic();
	int most = 0, all_ok = 1;

	for (int i = 0; i < 6; i++)
		p[i] = (struct hq_proc){ .argv = nap };
	hq_proc_run_all(p, 6, &lim);
	for (int i = 0; i < 6; i++) {
		int at_once = 0;
		for (int k = 0; k < 6; k++)	/* those running when i started */
			at_once += p[k].started <= p[i].started &&
			    p[i].started < p[k].started + p[k].seconds;
		most = at_once > most ? at_once : most;
		all_ok &= p[i].exit_status == 0 && !strcmp(p[i].out, "done\n");
	}
	is_int(most, 2, "pool: at most 2 running at once");
	ok(hq_time_monotonic() - t0 >= 0.55, "pool: 6 naps of 0.2 s, 2 at a time, take 3 turns (%.2f s)",
	   hq_time_monotonic() - t0);
	ok(all_ok, "pool: every one ran, its output in its own slot");
	for (int i = 0; i < 6; i++)
		hq_proc_free(&p[i]);

	for (int i = 0; i < 3; i++)
		p[i] = (struct hq_proc){ .argv = hang };
	lim = (struct hq_proc_limits){ .max_running = 1, .timeout = 10,
		.deadline = hq_time_monotonic() + 0.3, .out_cap = 100 };
	t0 = hq_time_monotonic();
	hq_proc_run_all(p, 3, &lim);
	ok(p[0].timed_out && !p[0].not_run, "deadline: the one running is stopped");
	ok(p[1].not_run && p[2].not_run && !p[1].timed_out, "deadline: those waiting are not started");
	ok(hq_time_monotonic() - t0 < 2, "deadline: kept (%.2f s)", hq_time_monotonic() - t0);
	for (int i = 0; i < 3; i++)
		hq_proc_free(&p[i]);
}

/* the tools inherit no key of any provider */
static void keys(void)
{
	setenv("OPENAI_API_KEY", "a", 1);
	setenv("GEMINI_API_KEY", "b", 1);
	setenv("groq_api_key", "c", 1);
	setenv("MY_TOKEN", "d", 1);
	setenv("HQ_DB", "/tmp/x.db", 1);
	setenv("API_KEYS_URL", "e", 1);
	hq_agent_clear_keys("MY_TOKEN");
	ok(!getenv("OPENAI_API_KEY") && !getenv("GEMINI_API_KEY") && !getenv("groq_api_key"),
	   "keys: every *_API_KEY is gone, in any case");
	ok(!getenv("MY_TOKEN"), "keys: and the variable api_key_env names");
	ok(getenv("HQ_DB") && getenv("API_KEYS_URL"), "keys: the rest stays");
	setenv("ANTHROPIC_API_KEY", "f", 1);
	hq_agent_clear_keys(NULL);
	ok(!getenv("ANTHROPIC_API_KEY"), "keys: with no api_key_env too");
}

/* a command that writes, with subcommands that only read (x-reads) */
static void tool_reads(void)
{
	static const char archive[] =
	    "{\"name\":\"hq_archive\",\"description\":\"d\",\"parameters\":{\"type\":\"object\","
	    "\"properties\":{\"args\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
	    "\"description\":\"a\"},\"from\":{\"type\":\"string\",\"description\":\"f\"}},"
	    "\"required\":[\"args\"]},\"writes\":true,\"x-reads\":[\"list\",\"verify\",\"a b\",7],"
	    "\"x-positional\":\"args\"}";
	static const struct { const char *args; int writes; } calls[] = {
		{ "{\"args\":[\"list\"]}", 0 },
		{ "{\"args\":[\"verify\"]}", 0 },
		{ "{\"args\":[\"push\"]}", 1 },
		{ "{\"args\":[\"prune\"]}", 1 },
		{ "{\"args\":[\"lis\"]}", 1 },
		{ "{\"args\":[\"list verify\"]}", 1 },
		{ "{\"args\":[\"a b\"]}", 1 },
		{ "{\"args\":[\"push\",\"list\"]}", 1 },
		{ "{\"args\":[\"--\",\"list\"]}", 1 },
		{ "{\"args\":[\"push\"],\"from\":\"--\"}", 1 },
		{ "{\"args\":[\"list\"],\"from\":\"--\"}", 1 },
	};
	struct hq_agent_tool t;
	struct hq_err e = {{0}};
	char **argv;

	is_int(hq_agent_tool_parse(archive, "/bin/hq-archive", &t, &e), 0, "x-reads schema parsed");
	is_int(t.writes, 1, "x-reads: writes stays true");
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		is_int(hq_agent_argv(&t, calls[i].args, &argv, &e), 0, "argv for %s", calls[i].args);
		is_int(hq_agent_call_writes(&t, argv), calls[i].writes, "%s %s", calls[i].args,
		    calls[i].writes ? "writes: asks first" : "only reads");
		hq_agent_argv_free(argv);
	}
	is_int(hq_agent_call_writes(&t, NULL), 1, "no argv: writes");
	hq_agent_tool_free(&t);
	is_int(hq_agent_tool_parse(schema, "/bin/hq-query", &t, &e), 0, "a reading tool");
	is_int(hq_agent_argv(&t, "{\"metrics\":[\"push\"]}", &argv, &e), 0, "its argv");
	is_int(hq_agent_call_writes(&t, argv), 0, "a tool that does not write never asks");
	hq_agent_argv_free(argv);
	hq_agent_tool_free(&t);
}

int main(void)
{
	retry_policy();
	tool_argv();
	tool_reads();
	messages();
	procs();
	pool();
	keys();
	return done_testing();
}
