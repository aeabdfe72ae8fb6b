/* Unit tests for hq_opts_parse (lib/base/opts.c): the one option loop, its
 * built-in options and the wording of every usage error; and the lists
 * the commands give --complete from the library. */
#include <stdlib.h>
#include <string.h>

#include "hq/llm.h"
#include "hq/opts.h"
#include "hq/stats.h"
#include "hq/time.h"
#include "hq/workout.h"
#include "tap.h"

enum { OPT_DB = HQ_OPT_LONG, OPT_WAIT, OPT_TIMEOUT, OPT_FORMAT, OPT_WHERE,
	OPT_TOOL_MODE, OPT_TOOL_TIMEOUT, OPT_SCALE, OPT_FROM, OPT_ZONE, OPT_OUT };

static const struct hq_opt options[] = {
	{ 'q', "quiet", HQ_OPT_FLAG, NULL, "say nothing", NULL, NULL, 1 },
	{ 'm', "model", HQ_OPT_STRING, "MODEL", "the model", NULL, NULL, 1 },
	{ OPT_DB, "db", HQ_OPT_STRING, "PATH", "the store", NULL, NULL, 0 },
	{ OPT_WAIT, "wait", HQ_OPT_INT, "SECONDS", "wait", "0..600", NULL, 0 },
	{ OPT_TIMEOUT, "timeout", HQ_OPT_NUMBER, "SECONDS", "give up", ">0", NULL, 0 },
	{ OPT_FORMAT, "format", HQ_OPT_ENUM, "F", "format", "auto|apple|jsonl", NULL, 1 },
	{ OPT_WHERE, "where", HQ_OPT_LIST, "EXPR", "filter", NULL, NULL, 1 },
	{ OPT_TOOL_MODE, "tool-mode", HQ_OPT_ENUM, "MODE", "mode", "native|text", NULL, 0 },
	{ OPT_TOOL_TIMEOUT, "tool-timeout", HQ_OPT_NUMBER, "S", "per tool", "..60", NULL, 0 },
	{ OPT_SCALE, "scale", HQ_OPT_INT, "N", "scale, said at length so that the help has to "
	  "wrap it: avg,min,max,sum,count,median,stddev,p1..p99,first,last,and,more", ">0", NULL, 0 },
	{ OPT_FROM, "from", HQ_OPT_STRING, "DATE", "first day", NULL, NULL, 0 },
	{ OPT_ZONE, "zone", HQ_OPT_STRING, "ZONE", "the zone", NULL, NULL, 0 },
	{ OPT_OUT, "out", HQ_OPT_STRING, "FILE", "write here", NULL, NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const char *
letter_at(size_t i)
{
	static const char *const v[] = { "alpha", "beta" };

	return i < 2 ? v[i] : NULL;
}

static void
odd_values(const struct hq_complete *c)
{
	hq_complete_add(c, "ok", "a\tdescription\nwith \x1b[31mcontrols");
	hq_complete_add(c, "bad\x1b[2J", NULL);
	hq_complete_add(c, "two\nlines", NULL);
}

static const struct hq_opt_values values[] = {
	{ "db", letter_at },
	{ "where", letter_at },
	{ NULL, NULL },
};

static const struct hq_opt_completer completers[] = {
	{ "model", odd_values },
	{ NULL, NULL },
};

static const struct hq_cmd_info cmd = {
	.name = "hq-x", .synopsis = "[OPTION]... FILE...", .summary = "a test command",
	.positional = "files", .positional_help = "files", .opts = options,
	.values = values, .completers = completers, .split = "scale where",
};

/* One run of the loop over a command line (words split on spaces): what
 * it returned, option by option, as "id=value" words, and what it wrote. */
struct run {
	char seen[512];
	char out[2048], err[2048];
	int rc, status, optind;
	char *operands[8];
	size_t noperands;
};

static char line_buf[512];

static void
run(const struct hq_cmd_info *c, const char *line, struct run *r)
{
	char *argv[32], *save = NULL;
	int argc = 0, id;
	struct hq_opts p;
	char *out = NULL, *err = NULL;
	size_t outlen = 0, errlen = 0;

	memset(r, 0, sizeof *r);
	snprintf(line_buf, sizeof line_buf, "hq-x %s", line);
	for (char *w = strtok_r(line_buf, " ", &save); w && argc < 31;
	    w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	hq_opts_init(&p, c, argc, argv);
	p.out = open_memstream(&out, &outlen);
	p.err = open_memstream(&err, &errlen);
	while ((id = hq_opts_parse(&p)) > 0) {
		size_t k = strlen(r->seen);
		switch (p.opt->type) {
		case HQ_OPT_FLAG:
			snprintf(r->seen + k, sizeof r->seen - k, "%s ", p.opt->name);
			break;
		case HQ_OPT_INT:
			snprintf(r->seen + k, sizeof r->seen - k, "%s=%ld ", p.opt->name, p.num);
			break;
		case HQ_OPT_NUMBER:
			snprintf(r->seen + k, sizeof r->seen - k, "%s=%g ", p.opt->name, p.real);
			break;
		case HQ_OPT_ENUM:
			snprintf(r->seen + k, sizeof r->seen - k, "%s=#%d ", p.opt->name, p.choice);
			break;
		default:
			snprintf(r->seen + k, sizeof r->seen - k, "%s=%s ", p.opt->name, p.arg);
		}
	}
	r->rc = id;
	r->status = p.status;
	r->optind = p.optind;
	if (hq_opts_parse(&p) != id)
		r->rc = 99;     /* a finished loop stays finished */
	for (int i = p.optind; id == 0 && i < argc && r->noperands < 8; i++)
		r->operands[r->noperands++] = argv[i];
	fclose(p.out);
	fclose(p.err);
	snprintf(r->out, sizeof r->out, "%s", out);
	snprintf(r->err, sizeof r->err, "%s", err);
	free(out);
	free(err);
}

static void
usage_error(const char *line, const char *want, const char *name)
{
	struct run r;
	char full[512];

	run(&cmd, line, &r);
	/* one line, then where to look: the whole usage is --help's */
	snprintf(full, sizeof full, "hq-x: %s\ntry 'hq-x --help'\n", want);
	ok(r.rc == -1 && r.status == 2, "%s: a usage error, exit 2", name);
	is_str(r.err, full, "%s: the message", name);
	is_str(r.out, "", "%s: nothing on stdout", name);
}

static void
values_and_operands(void)
{
	struct run r;

	run(&cmd, "-q --model m1 --db=x.db a.zip --wait 30 -- -b.zip", &r);
	is_int(r.rc, 0, "options done");
	is_str(r.seen, "quiet model=m1 db=x.db wait=30 ", "each option once, in order");
	ok(r.noperands == 2 && !strcmp(r.operands[0], "a.zip") &&
	    !strcmp(r.operands[1], "-b.zip"), "operands after the options, '--' ends them");
	run(&cmd, "-qmm2 --format jsonl --format auto --where a>1 --where b<2", &r);
	is_str(r.seen, "quiet model=m2 format=#2 format=#0 where=a>1 where=b<2 ",
	    "bundled short options; an enum's choice by index; a list repeats");
	run(&cmd, "--timeout 0.5 --tool-timeout 60 --tool-timeout -3 --scale 1", &r);
	is_str(r.seen, "timeout=0.5 tool-timeout=60 tool-timeout=-3 scale=1 ",
	    "numbers within their ranges, ends included");
	run(&cmd, "--wait 0 --wait 600 --mod x --tool-m text", &r);
	is_str(r.seen, "wait=0 wait=600 model=x tool-mode=#1 ",
	    "range ends, and unambiguous abbreviations");
	run(&cmd, "", &r);
	ok(r.rc == 0 && r.noperands == 0 && r.optind == 1, "no arguments");
}

static void
usage_errors(void)
{
	usage_error("--model", "option '--model' needs a value", "--model without a value");
	usage_error("a.zip -m", "option '-m' needs a value", "-m without a value");
	usage_error("--bogus", "unknown option '--bogus'", "unknown long option");
	usage_error("--modle x", "unknown option '--modle' (did you mean --model?)",
	    "a mistyped option: the one it may mean");
	usage_error("--bogus=3 a", "unknown option '--bogus'", "unknown option with a value");
	usage_error("-x", "unknown option '-x'", "unknown short option");
	usage_error("-qx", "unknown option '-x'", "unknown short option in a bundle");
	usage_error("--quiet=yes", "option '--quiet' takes no value", "a value for a flag");
	usage_error("--tool a", "option '--tool' is ambiguous (--tool-mode, --tool-timeout, "
	    "--tool-schema)",
	    "an ambiguous abbreviation names the candidates");
	usage_error("--wait 601", "option '--wait' takes a whole number from 0 to 600, "
	    "not '601'", "an integer above its range");
	usage_error("--wait 1.5", "option '--wait' takes a whole number from 0 to 600, "
	    "not '1.5'", "an integer that is not whole");
	usage_error("--wait ''", "option '--wait' takes a whole number from 0 to 600, "
	    "not ''''", "an integer that is not a number");
	usage_error("--timeout 0", "option '--timeout' takes a number above 0, not '0'",
	    "a number at an open end");
	usage_error("--timeout inf", "option '--timeout' takes a number above 0, not 'inf'",
	    "an infinite number");
	/* issue 23: one number syntax, decimal only */
	usage_error("--timeout 0x10", "option '--timeout' takes a number above 0, not '0x10'",
	    "a hex number");
	usage_error("--timeout 1e400", "option '--timeout' takes a number above 0, not '1e400'",
	    "a number out of range");
	usage_error("--timeout nan", "option '--timeout' takes a number above 0, not 'nan'",
	    "nan");
	{
		double d = 0;
		const char *end;
		ok(hq_opts_parse_double("1.5e3", &d) == 0 && d == 1500, "1.5e3 is a number");
		ok(hq_opts_parse_double("-.5", &d) == 0 && d == -0.5, "-.5 is a number");
		ok(hq_opts_parse_double("0x10", &d) == -1, "0x10 is not");
		ok(hq_opts_parse_double("INF", &d) == -1, "INF is not");
		ok(hq_opts_scan_number("12>3", &end, &d) == 0 && d == 12 && *end == '>',
		   "a number scanned up to what follows it");
		is_int(hq_opts_scan_number("1e400", &end, &d), HQ_NUM_RANGE, "1e400: out of range");
		is_int(hq_opts_scan_number("0x1p4", &end, &d), HQ_NUM_SYNTAX, "0x1p4: not decimal");
	}
	usage_error("--scale 0", "option '--scale' takes a whole number above 0, not '0'",
	    "a whole number at an open end");
	usage_error("--tool-timeout 61", "option '--tool-timeout' takes a number, at most 60, "
	    "not '61'", "a number above its maximum");
	usage_error("--format xml", "option '--format' takes auto, apple or jsonl, not 'xml'",
	    "an enum lists its choices");
	usage_error("--format json", "option '--format' takes auto, apple or jsonl, not 'json'",
	    "an enum's choice must match whole");
	usage_error("--tool-mode nat", "option '--tool-mode' takes native or text, not 'nat'",
	    "two choices");
	usage_error("--format \x1b[31m", "option '--format' takes auto, apple or jsonl, "
	    "not '?[31m'", "control characters are not echoed");
}

static void
builtins(void)
{
	struct run r;

	run(&cmd, "-q --help --bogus", &r);
	ok(r.rc == -1 && r.status == 0, "--help: stop, exit 0");
	ok(strstr(r.out, "usage: hq-x [OPTION]... FILE...\na test command\n") == r.out,
	    "--help: the usage on stdout");
	is_str(r.err, "", "--help: nothing on stderr");
	ok(strstr(r.out, "  -h, --help ") && strstr(r.out, "      --version ") &&
	    strstr(r.out, "      --tool-schema "), "--help lists -h, --version, --tool-schema");
	ok(!strstr(r.out, "--complete"), "--complete is not in --help");
	ok(!strstr(r.out, "--summary"), "--summary is not in --help");
	ok(strstr(r.out, "      --wait SECONDS ") != NULL, "--help: a long option with its value");
	{
		size_t longest = 0, len;
		for (const char *l = r.out; *l; l += len + (l[len] == '\n')) {
			len = strcspn(l, "\n");
			longest = len > longest ? len : longest;
		}
		ok(longest <= 79, "--help fits 80 columns (longest line %zu)", longest);
		ok(strstr(r.out, "wrap it:\n                              avg,min,max,sum,count,"
		    "median,stddev,p1..p99,\n                              first,last,and,more\n") != NULL,
		    "--help: a word too long for a line breaks after a comma");
	}
	run(&cmd, "-h", &r);
	ok(r.rc == -1 && r.status == 0 && !strncmp(r.out, "usage: hq-x", 11), "-h is --help");
	run(&cmd, "--version", &r);
	ok(r.rc == -1 && r.status == 0 && !strncmp(r.out, "hq-x ", 5), "--version");
	run(&cmd, "--tool-schema", &r);
	ok(r.rc == -1 && r.status == 0 && strstr(r.out, "\"name\":\"hq_x\"") &&
	    strstr(r.out, "\"enum\":[\"auto\",\"apple\",\"jsonl\"]"), "--tool-schema");
	run(&cmd, "--complete format", &r);
	ok(r.rc == -1 && r.status == 0, "--complete: stop, exit 0");
	is_str(r.out, "auto\napple\njsonl\n", "--complete: an enum's choices, one a line");
	run(&cmd, "--complete --db", &r);
	is_str(r.out, "alpha\nbeta\n", "--complete: the command's list for an option");
	run(&cmd, "--complete wait", &r);
	ok(r.rc == -1 && r.status == 0 && !r.out[0], "--complete: nothing for a free value");
	usage_error("--complete nope", "unknown option '--nope'", "--complete: an unknown option");
	usage_error("--complete", "option '--complete' needs a value", "--complete without a value");
	usage_error("--help=1", "option '--help' takes no value", "--help with a value");
	run(&cmd, "--summary", &r);
	ok(r.rc == -1 && r.status == 0, "--summary: stop, exit 0");
	is_str(r.out, "a test command\n", "--summary: the summary line");
}

/* Tables the loop refuses: a mistake in a command, caught by its tests. */
static void
bad_tables(void)
{
	static const struct hq_opt dup[] = {
		{ 'q', "quiet", HQ_OPT_FLAG, NULL, "x", NULL, NULL, 0 },
		{ 'q', "quick", HQ_OPT_FLAG, NULL, "x", NULL, NULL, 0 },
		{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
	};
	static const struct hq_opt help[] = {
		{ HQ_OPT_LONG, "help", HQ_OPT_FLAG, NULL, "x", NULL, NULL, 0 },
		{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
	};
	static const struct hq_opt h[] = {
		{ 'h', "human", HQ_OPT_FLAG, NULL, "x", NULL, NULL, 0 },
		{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
	};
	static const struct hq_opt range[] = {
		{ HQ_OPT_LONG, "n", HQ_OPT_INT, "N", "x", "1..x", NULL, 0 },
		{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
	};
	static const struct hq_opt choices[] = {
		{ HQ_OPT_LONG, "e", HQ_OPT_ENUM, "E", "x", "a||b", NULL, 0 },
		{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
	};
	const struct hq_opt *tables[] = { dup, help, h, range, choices };
	const char *names[] = { "an id twice", "--help in the table", "-h taken",
		"a bad range", "an empty choice" };
	struct hq_cmd_info c = cmd;
	struct run r;

	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		c.opts = tables[i];
		run(&c, "a", &r);
		ok(r.rc == -1 && r.status == 2 && strstr(r.err, "bug in the option table"),
		    "refused: %s", names[i]);
	}
}

/* What --complete offers is what the library accepts. */
static void
library_lists(void)
{
	struct hq_agg a;
	const char *v;
	size_t n, bad;
	char name[32];

	for (n = bad = 0; (v = hq_stats_agg_at(n)); n++)
		bad += hq_stats_parse_agg(v, &a) != 0 || strcmp(a.name, v) != 0;
	ok(n >= 16 && bad == 0, "%zu aggregation names, each parses to itself", n);
	is_str(hq_stats_agg_at(0), "avg", "aggregations: avg first");
	ok(hq_stats_agg_at(n) == NULL && hq_stats_agg_at(n + 5) == NULL, "aggregations: NULL past the end");
	for (n = bad = 0; (v = hq_workout_type_at(n)); n++)
		bad += hq_workout_type_identifier(v, NULL, 0) == NULL;
	ok(n >= 10 && bad == 0, "%zu workout types, each known to --type", n);
	for (const char *p = HQ_LLM_PROVIDERS; *p; p += *p == '|') {
		size_t len = strcspn(p, "|");
		snprintf(name, sizeof name, "%.*s", (int)len, p);
		ok(hq_llm_provider_known(name) && hq_llm_default_base_url(name, 0),
		    "provider choice %s is a provider", name);
		p += len;
	}
}

/* --complete-args over words separated by '|' ("--agg|avg,m"; a trailing
 * '|' is an empty last word): what it printed. */
static char complete_out[8192];

static const char *
completes(const struct hq_cmd_info *c, const char *words)
{
	char buf[512], *argv[34], *out = NULL;
	size_t outlen = 0;
	int argc = 0;
	struct hq_opts p;

	snprintf(buf, sizeof buf, "%s", words);
	argv[argc++] = "hq-x";
	argv[argc++] = "--complete-args";
	for (char *w = buf; argc < 33; ) {
		char *bar = strchr(w, '|');
		argv[argc++] = w;
		if (!bar)
			break;
		*bar = '\0';
		w = bar + 1;
	}
	argv[argc] = NULL;
	hq_opts_init(&p, c, argc, argv);
	p.out = open_memstream(&out, &outlen);
	p.err = stderr;
	if (hq_opts_parse(&p) != -1 || p.status != 0)
		snprintf(complete_out, sizeof complete_out, "(did not stop with 0)");
	fclose(p.out);
	snprintf(complete_out, sizeof complete_out, "%s", out);
	free(out);
	return complete_out;
}

/* An operand completer that says what it was given. */
static void
say_operands(const struct hq_complete *c)
{
	char buf[256];
	size_t k = 0;
	const char *db = hq_complete_arg(c, "db"), *m = hq_complete_arg(c, "m"),
	      *q = hq_complete_arg(c, "quiet");

	for (int i = 0; i < c->noperands; i++)
		k += (size_t)snprintf(buf + k, sizeof buf - k, "%s,", c->operands[i]);
	snprintf(buf + k, sizeof buf - k, " word=%s db=%s m=%s q=%s", c->word,
	    db ? db : "-", m ? m : "-", q ? q : "-");
	hq_complete_add(c, buf, NULL);
}

static void
completion(void)
{
	struct hq_cmd_info c = cmd, first = cmd;
	const char *out;
	char line[64];
	size_t n, bad;

	out = completes(&cmd, "--w");
	ok(strstr(out, "--wait\twait\n") && strstr(out, "--where\tfilter\n") &&
	    strstr(out, "--quiet\tsay nothing\n") && strstr(out, "--help\tshow this help"),
	    "an option: every long option with its help");
	ok(!strstr(out, "--complete") && !strstr(out, "--summary"),
	    "the hidden ones are not offered");
	is_str(completes(&cmd, "--format|"), "auto\napple\njsonl\n", "an enum's choices");
	is_str(completes(&cmd, "--form|j"), "auto\napple\njsonl\n",
	    "after an abbreviated option (the shell filters by what is typed)");
	is_str(completes(&cmd, "--format=a"), "--format=auto\n--format=apple\n--format=jsonl\n",
	    "--option=value: the value after '=', the option kept");
	is_str(completes(&cmd, "-qm|x|--db|"), "alpha\nbeta\n",
	    "a value list, past a bundle of short options and their value");
	is_str(completes(&cmd, "--where|a>1 and b"), "a>1 and alpha\na>1 and beta\n",
	    "a list or expression: its last name, what is before it kept");
	is_str(completes(&cmd, "--where|avg,"), "avg,alpha\navg,beta\n", "after a comma");
	is_str(completes(&cmd, "--out|"), ":files\n", "a FILE: the shell completes file names");
	is_str(completes(&cmd, "x.zip|"), ":files\n", "operands that are files");
	is_str(completes(&cmd, "--|--w"), ":files\n", "after '--', operands only");
	is_str(completes(&cmd, "--wait|"), "", "a free value: nothing");
	is_str(completes(&cmd, "--model|"), "ok\ta description with  [31mcontrols\n",
	    "a description's controls are blanks; a value with any is left out");
	out = completes(&cmd, "--from|");
	ok(strncmp(out, "today\n", 6) == 0 && strstr(out, "last-month\n"), "a DATE: the forms");
	for (n = bad = 0; *out; out += strcspn(out, "\n") + 1, n++) {
		int64_t a, b;
		struct hq_err e;
		snprintf(line, sizeof line, "%.*s", (int)strcspn(out, "\t\n"), out);
		bad += hq_time_parse_range(line, 1700000000, &a, &b, &e) != 0;
	}
	ok(n >= 16 && bad == 0, "every one of the %zu date forms offered parses", n);
	out = completes(&cmd, "--zone|Eu");
	ok(strncmp(out, "UTC\n", 4) == 0 && strstr(out, "\nEurope/Paris") != NULL,
	    "a ZONE: UTC and the IANA zones");
	c.complete_operand = say_operands;
	is_str(completes(&c, "a|--db|x.db|b|-m|mm|-q|--wait=3|c"),
	    "a,b, word=c db=x.db m=mm q=\n", "operands: those before, the word, the options given");
	is_str(completes(&c, "--db=y.db|--model=m2|"),
	    " word= db=y.db m=m2 q=-\n", "--option=value read back; a flag not given is NULL");
	first.complete_operand = say_operands;
	first.options_first = 1;
	is_str(completes(&first, "-q|sub|--db|"), "sub,--db, word= db=- m=- q=\n",
	    "options_first: after the first operand, everything is the command's");
	is_str(completes(&first, "--db|z|"), " word= db=z m=- q=-\n",
	    "options_first: before it, options as usual");
}

/* ---- subcommands: which options go with which (hq_opts_subcmd) ---- */

static const struct hq_opt sub_options[] = {
	{ 'u', "unit", HQ_OPT_STRING, "UNIT", "labs: a unit", NULL, NULL, 0 },
	{ 'q', "quiet", HQ_OPT_FLAG, NULL, "alerts: quiet", NULL, NULL, 0 },
	HQ_OPT_FORMAT(HQ_OPT_LONG, "the format", "jsonl|table|svg"),
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const struct hq_subcmd sub_subcmds[] = {
	{ "list", "list [labs]", 0, 1 },
	{ "latest labs", "latest labs [TEST...]", 0, -1 },
	{ "trend labs", "trend labs TEST", 1, 1 },
	{ "trend", "trend METRIC", 1, 1 },
	{ "alerts", "alerts", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct hq_opt_subs sub_opt_subs[] = {
	{ "unit", NULL, "latest labs|trend labs" },
	{ "quiet", NULL, "alerts" },
	{ "format", "svg", "trend labs|trend" },
	{ NULL, NULL, NULL },
};

static const struct hq_cmd_info subcmd_cmd = {
	.name = "hq-x", .synopsis = "SUB...", .summary = "s.",
	.opts = sub_options, .subcmds = sub_subcmds, .opt_subs = sub_opt_subs,
	.subcmd_noun = "report",
};

/* The subcommand a line names, or -1, and what was said. */
static int
subcmd_of(const char *line, int *used, char *err, size_t n)
{
	char *argv[16], buf[256], *save = NULL, *e = NULL;
	size_t elen = 0;
	int argc = 0, sub = -2;
	struct hq_opts p;

	snprintf(buf, sizeof buf, "hq-x %s", line);
	for (char *w = strtok_r(buf, " ", &save); w && argc < 15;
	    w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	hq_opts_init(&p, &subcmd_cmd, argc, argv);
	p.err = open_memstream(&e, &elen);
	while (hq_opts_parse(&p) > 0)
		;
	if (p.done > 0)
		sub = hq_opts_subcmd(&p, used);
	fclose(p.err);
	snprintf(err, n, "%s", e ? e : "");
	free(e);
	return sub;
}

static void
subcommands(void)
{
	char err[512];
	int used = 0;

	is_int(subcmd_of("trend labs ldl -u mg/dL", &used, err, sizeof err), 2,
	    "trend labs ldl: the second subcommand of that verb");
	is_int(used, 2, "named by two words");
	is_int(subcmd_of("trend steps --format svg", &used, err, sizeof err), 3,
	    "trend steps: the verb alone, svg goes with it");
	is_int(used, 1, "named by one word");
	is_int(subcmd_of("alerts -q", &used, err, sizeof err), 4, "alerts -q");
	ok(subcmd_of("list -q", &used, err, sizeof err) == -1 &&
	    strstr(err, "hq-x: -q does not go with 'list [labs]'"),
	    "an option of another subcommand: refused, named as typed");
	ok(subcmd_of("latest labs --format svg", &used, err, sizeof err) == -1 &&
	    strstr(err, "--format svg does not go with 'latest labs [TEST...]'"),
	    "a choice of another subcommand: refused");
	ok(subcmd_of("latest labs --format table -u x", &used, err, sizeof err) == 1,
	    "its own options and the choices every one takes");
	ok(subcmd_of("trend labs", &used, err, sizeof err) == -1 &&
	    strstr(err, "usage: hq-x trend labs TEST"), "too few operands");
	ok(subcmd_of("list a b", &used, err, sizeof err) == -1 &&
	    strstr(err, "usage: hq-x list [labs]"), "too many operands");
	ok(subcmd_of("", &used, err, sizeof err) == -1 &&
	    strstr(err, "no subcommand (the subcommands are: list, latest, trend, "
	    "alerts)"), "none: the verbs, each once");
	ok(subcmd_of("alrets", &used, err, sizeof err) == -1 &&
	    strstr(err, "unknown subcommand 'alrets' (did you mean alerts?)"),
	    "a verb mistyped: the nearest");
	ok(subcmd_of("latest lbas", &used, err, sizeof err) == -1 &&
	    strstr(err, "no such report 'latest lbas' (did you mean latest labs?)"),
	    "a kind mistyped: the nearest, in the command's noun");
	ok(subcmd_of("latest", &used, err, sizeof err) == -1 &&
	    strstr(err, "no such report 'latest' (the reports are: latest labs "
	    "[TEST...])"), "a verb alone: its forms");
	is_str(completes(&subcmd_cmd, ""), "list\tlist [labs]\nlatest\n"
	    "trend\nalerts\talerts\n", "the verbs, a whole one described");
	is_str(completes(&subcmd_cmd, "latest|"), "labs\tlatest labs [TEST...]\n",
	    "then the kinds of the verb typed");
	ok(!strstr(completes(&subcmd_cmd, "list|--"), "--unit") &&
	    !strstr(complete_out, "--quiet") && strstr(complete_out, "--format"),
	    "after a subcommand, its own options");
	ok(strstr(completes(&subcmd_cmd, "alerts|--"), "--quiet") != NULL,
	    "alerts: --quiet");
	is_str(completes(&subcmd_cmd, "list|--format|"), "jsonl\ntable\n",
	    "and the choices that go with it");
	is_str(completes(&subcmd_cmd, "--format|"), "jsonl\ntable\nsvg\n",
	    "before a subcommand, every choice");
}

int
main(void)
{
	values_and_operands();
	usage_errors();
	builtins();
	bad_tables();
	library_lists();
	completion();
	subcommands();
	return done_testing();
}
