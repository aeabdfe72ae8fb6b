/* Unit tests for lib/render/output.c, lib/base/opts.c and lib/base/config.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/config.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "tap.h"

static char *
render(enum hq_format f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct hq_out *o = hq_out_new(fp, f);

	hq_out_begin(o);
	hq_out_str(o, "metric", "step_count");
	hq_out_num(o, "value", 1234);
	hq_out_num(o, "avg", 72.25);
	hq_out_num(o, "nan", NAN);
	hq_out_str(o, "unit", "count, \"x\"");
	hq_out_end(o);
	hq_out_begin(o);
	hq_out_str(o, "metric", "héart");
	hq_out_num(o, "value", -0.5);
	hq_out_end(o);
	hq_out_free(o);
	fclose(fp);
	return text;
}

/* A key hq does not read says so, with file:line and the likely key. */
static void
test_config_warnings(void)
{
	char path[] = "/tmp/hq-config-test.XXXXXX", where[600], want[700];
	const char *text = "tz = Europe/Paris\n[llm]\nmodle = llama3.1\nmodel = x\n"
	    "[qeury]\ntz = UTC\n[query]\ntz = Asia/Tokyo\nsleep_cutof = 3\n"
	    "bogus_thing = 1\n";
	int fd = mkstemp(path);
	struct hq_config *c;
	struct hq_err e;

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		return;
	close(fd);
	c = hq_config_load(path, &e);
	ok(c != NULL, "a config with unknown keys loads");
	snprintf(want, sizeof want, "%s:3: unknown key 'modle' under [llm] (did you "
	    "mean model?), ignored", path);
	is_str(hq_config_warning(c, 0), want, "a misspelt key: file:line and the likely key");
	snprintf(want, sizeof want, "%s:5: unknown section [qeury] (did you mean "
	    "[query]?), its keys are ignored", path);
	is_str(hq_config_warning(c, 1), want, "a misspelt section, once");
	snprintf(want, sizeof want, "%s:9: unknown key 'sleep_cutof' under [query] "
	    "(did you mean sleep_cutoff?), ignored", path);
	is_str(hq_config_warning(c, 2), want, "a key of [query]");
	snprintf(want, sizeof want, "%s:10: unknown key 'bogus_thing' under [query], "
	    "ignored", path);
	is_str(hq_config_warning(c, 3), want, "no suggestion when nothing is close");
	ok(hq_config_warning(c, 4) == NULL, "four warnings: tz at the top level is known");
	is_str(hq_config_get(c, "", "tz"), "Europe/Paris", "a key before any section");
	is_str(hq_config_get(c, "query", "tz"), "Asia/Tokyo", "tz under [query]");
	ok(hq_config_where(c, "query", "tz", where, sizeof where) == 0 &&
	    strstr(where, ":8") != NULL, "where a key was set: %s", where);
	ok(hq_config_where(c, "query", "nope", where, sizeof where) == -1,
	    "where of a key not set: -1");
	hq_config_free(c);

	/* Thousands of unknown keys: twenty warnings and a count. */
	fd = open(path, O_WRONLY | O_TRUNC);
	for (int i = 0; i < 1000; i++) {
		char line[32];
		int n = snprintf(line, sizeof line, "k%d = v\n", i);
		if (write(fd, line, (size_t)n) < 0)
			break;
	}
	close(fd);
	c = hq_config_load(path, &e);
	ok(hq_config_warning(c, 19) != NULL && hq_config_warning(c, 21) == NULL &&
	    strstr(hq_config_warning(c, 20), "980 more") != NULL,
	    "at most twenty warnings, then how many more");
	hq_config_free(c);
	unlink(path);
}

/* A table fitted to a width: columns dropped in order, text cut with an
 * ellipsis, numbers whole; arrays as JSON arrays for scripts. */
static char *
render_wide(enum hq_format f, int width)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct hq_out *o = hq_out_new(fp, f);
	const char *src[] = { "Alex's Apple Watch", "Alex's iPhone" };

	hq_out_set_width(o, width);
	hq_out_fit(o, "identifier", (struct hq_out_fit){ .drop = 1 });
	hq_out_fit(o, "kind", (struct hq_out_fit){ .drop = 2 });
	hq_out_fit(o, "sources", (struct hq_out_fit){ .drop = 3, .min_width = 8 });
	hq_out_fit(o, "when", (struct hq_out_fit){ .right = 1 });
	for (int i = 0; i < 2; i++) {
		hq_out_begin(o);
		hq_out_str(o, "metric", i ? "heart_rate" : "step_count");
		hq_out_str(o, "identifier", "HKQuantityTypeIdentifierStepCount");
		hq_out_str(o, "kind", "cumulative");
		hq_out_int(o, "count", i ? 123456 : 7);
		hq_out_str(o, "when", i ? "1:05:20" : "46:47");
		hq_out_strv(o, "sources", src, i ? 1 : 2);
		hq_out_end(o);
	}
	hq_out_free(o);
	fclose(fp);
	return text;
}

static void
test_fit(void)
{
	char *s;
	int widest = 0;

	s = render_wide(HQ_FMT_TABLE, 200);
	is_str(s, "metric      identifier                         kind         count     when  sources\n"
	    "step_count  HKQuantityTypeIdentifierStepCount  cumulative       7    46:47  Alex's Apple Watch, Alex's iPhone\n"
	    "heart_rate  HKQuantityTypeIdentifierStepCount  cumulative  123456  1:05:20  Alex's Apple Watch\n",
	    "wide: every column; arrays joined; text aligned right where asked");
	free(s);
	s = render_wide(HQ_FMT_TABLE, 60);
	is_str(s, "metric       count     when  sources\n"
	    "step_count       7    46:47  Alex's Apple Watch, Alex's iPh\xe2\x80\xa6\n"
	    "heart_rate  123456  1:05:20  Alex's Apple Watch\n",
	    "60 columns: identifier and kind (lower drops) go before sources is cut");
	for (char *p = s, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		int w = 0;
		for (char *q = p; q < nl; q++)
			w += ((unsigned char)*q & 0xC0) != 0x80;
		if (w > widest)
			widest = w;
	}
	is_int(widest, 60, "and its widest line is 60");
	free(s);
	s = render_wide(HQ_FMT_TABLE, 40);
	is_str(s, "metric       count     when  sources\n"
	    "step_count       7    46:47  Alex's App\xe2\x80\xa6\n"
	    "heart_rate  123456  1:05:20  Alex's App\xe2\x80\xa6\n",
	    "40 columns: sources cut further");
	free(s);
	s = render_wide(HQ_FMT_TABLE, 30);
	is_str(s, "metric       count     when\n"
	    "step_count       7    46:47\n"
	    "heart_rate  123456  1:05:20\n",
	    "30 columns: sources too wide even cut to 8: dropped");
	free(s);
	s = render_wide(HQ_FMT_TABLE, 10);
	like(s, "^metric +count +when\n", "too narrow for anything: what cannot give way is kept whole");
	free(s);
	s = render_wide(HQ_FMT_JSONL, 40);
	like(s, "^\\{\"metric\":\"step_count\",\"identifier\":\"HKQuantityTypeIdentifierStepCount\","
	    "\"kind\":\"cumulative\",\"count\":7,\"when\":\"46:47\","
	    "\"sources\":\\[\"Alex's Apple Watch\",\"Alex's iPhone\"\\]\\}\n",
	    "jsonl: every field whatever the width; sources an array");
	free(s);
	s = render_wide(HQ_FMT_CSV, 40);
	like(s, "\nstep_count,HKQuantityTypeIdentifierStepCount,cumulative,7,46:47,"
	    "\"Alex's Apple Watch, Alex's iPhone\"\n", "csv: the array joined, quoted");
	free(s);

	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct hq_out *o = hq_out_new(fp, HQ_FMT_TABLE);
	/* Wide characters take two columns: aligned, and cut on a whole one. */
	const char *who[] = { "健康数据来源", "Здоровье" };
	hq_out_set_width(o, 17);
	for (int i = 0; i < 2; i++) {
		hq_out_begin(o);
		hq_out_int(o, "n", i);
		hq_out_str(o, "source", who[i]);
		hq_out_end(o);
	}
	hq_out_fit(o, "source", (struct hq_out_fit){ .min_width = 6 });
	hq_out_free(o);
	fflush(fp);
	is_str(text, "n  source\n0  健康数据来源\n1  Здоровье\n",
	    "CJK counts two columns a character: the table is 15 wide, not 9");
	rewind(fp);
	o = hq_out_new(fp, HQ_FMT_TABLE);
	hq_out_set_width(o, 10);
	for (int i = 0; i < 2; i++) {
		hq_out_begin(o);
		hq_out_int(o, "n", i);
		hq_out_str(o, "source", who[i]);
		hq_out_end(o);
	}
	hq_out_fit(o, "source", (struct hq_out_fit){ .min_width = 6 });
	hq_out_free(o);
	fputc('\0', fp);
	fflush(fp);
	is_str(text, "n  source\n0  健康数…\n1  Здоров…\n",
	    "cut to 7 columns: three wide characters and the ellipsis, or six narrow");
	fclose(fp);
	free(text);
	text = NULL;
	fp = open_memstream(&text, &len);
	setenv("COLUMNS", "132", 1);
	o = hq_out_new(fp, HQ_FMT_TABLE);
	is_int(hq_out_width(o), 132, "not a terminal: $COLUMNS");
	hq_out_free(o);
	setenv("COLUMNS", "wide", 1);
	o = hq_out_new(fp, HQ_FMT_TABLE);
	is_int(hq_out_width(o), 80, "$COLUMNS not a number: 80");
	hq_out_free(o);
	unsetenv("COLUMNS");
	o = hq_out_new(fp, HQ_FMT_TABLE);
	is_int(hq_out_width(o), 80, "neither: 80");
	hq_out_free(o);
	fclose(fp);
	free(text);
}

enum { OPT_FROM = HQ_OPT_LONG, OPT_BY };

static const struct hq_opt opts[] = {
	{ OPT_FROM, "from", HQ_OPT_STRING, "DATE", "start date", NULL, NULL, 1 },
	{ OPT_BY, "by", HQ_OPT_ENUM, "PERIOD", "bucket", "hour|day", "bucket size", 1 },
	{ 'q', "quiet", HQ_OPT_FLAG, NULL, "quiet", NULL, NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const struct hq_cmd_info info = {
	.name = "hq-test", .synopsis = "X... [OPTION]...", .summary = "a test",
	.positional = "things", .positional_help = "things to do",
	.positional_required = 1, .opts = opts,
};

/* A table on a terminal shows a file's control characters escaped. */
static void
table_escapes(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct hq_out *o = hq_out_new(fp, HQ_FMT_TABLE);

	hq_out_begin(o);
	hq_out_str(o, "source", "\x1b[31mLab\a");
	hq_out_end(o);
	hq_out_begin(o);
	hq_out_str(o, "source", "ok");
	hq_out_end(o);
	hq_out_free(o);
	fclose(fp);
	ok(strchr(text, '\x1b') == NULL && strchr(text, '\a') == NULL, "table: no raw control characters");
	ok(strstr(text, "\\x1b[31mLab\\x07") != NULL, "table: shown as \\xNN");
	free(text);
}

int
main(void)
{
	char *s;

	s = render(HQ_FMT_JSONL);
	is_str(s, "{\"metric\":\"step_count\",\"value\":1234,\"avg\":72.25,\"nan\":null,\"unit\":\"count, \\\"x\\\"\"}\n"
	    "{\"metric\":\"héart\",\"value\":-0.5}\n", "jsonl");
	free(s);
	s = render(HQ_FMT_CSV);
	is_str(s, "metric,value,avg,nan,unit\nstep_count,1234,72.25,,\"count, \"\"x\"\"\"\nhéart,-0.5,,,\n", "csv uses the first row's columns");
	free(s);
	s = render(HQ_FMT_JSON);
	ok(s[0] == '[' && strstr(s, "},\n{") && s[strlen(s) - 2] == ']', "json array");
	free(s);
	s = render(HQ_FMT_TABLE);
	is_str(s, "metric      value    avg  nan  unit\n"
	    "step_count   1234  72.25    -  count, \"x\"\n"
	    "héart       -0.50\n", "table aligns by display width");
	free(s);

	char num[32];
	hq_format_number(3.0, num, sizeof num);
	is_str(num, "3", "integral number");
	hq_format_number(0.1 + 0.2, num, sizeof num);
	is_str(num, "0.3", "float noise trimmed");

	/* opts */
	char *av[] = { "hq-test", "-q", "--by", "day", "thing", NULL };
	struct hq_opts po;
	hq_opts_init(&po, &info, 5, av);
	ok(hq_opts_parse(&po) == 'q', "short option");
	ok(hq_opts_parse(&po) == OPT_BY && po.choice == 1, "long option from the table");
	ok(hq_opts_parse(&po) == 0 && po.optind == 4, "then the operands");
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	hq_opts_tool_schema(&info, fp);
	fclose(fp);
	is_str(text, "{\"name\":\"hq_test\",\"description\":\"a test\",\"parameters\":{\"type\":\"object\",\"properties\":{"
	    "\"things\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"things to do\"},"
	    "\"from\":{\"type\":\"string\",\"description\":\"start date\"},"
	    "\"by\":{\"type\":\"string\",\"enum\":[\"hour\",\"day\"],\"description\":\"bucket size\"}},"
	    "\"required\":[\"things\"]},\"writes\":false,\"x-positional\":\"things\"}\n", "tool schema");
	free(text);
	struct hq_cmd_info winfo = info;
	winfo.writes = 1;
	winfo.reads = "list  verify";
	fp = open_memstream(&text, &len);
	hq_opts_tool_schema(&winfo, fp);
	fclose(fp);
	ok(strstr(text, "\"writes\":true,\"x-reads\":[\"list\",\"verify\"],\"x-positional\"") != NULL,
	    "a writing command's read-only subcommands: x-reads");
	free(text);
	winfo.writes = 0;
	fp = open_memstream(&text, &len);
	hq_opts_tool_schema(&winfo, fp);
	fclose(fp);
	ok(strstr(text, "x-reads") == NULL, "no x-reads for a command that does not write");
	free(text);
	long l;
	ok(hq_opts_parse_long("42", 0, 100, &l) == 0 && l == 42, "parse 42");
	ok(hq_opts_parse_long("42x", 0, 100, &l) != 0, "42x rejected");
	ok(hq_opts_parse_long("101", 0, 100, &l) != 0, "out of range rejected");
	ok(hq_opts_parse_long("", 0, 100, &l) != 0, "empty rejected");

	/* config */
	char path[] = "/tmp/hq-config-test.XXXXXX";
	int fd = mkstemp(path);
	const char *cfg = "# comment\n[llm]\nprovider = anthropic\nmodel = \"claude x\"\n\n[query]\nsleep_cutoff=18\nprovider = other\n";
	if (write(fd, cfg, strlen(cfg)) < 0)
		return 1;
	close(fd);
	struct hq_err e;
	struct hq_config *c = hq_config_load(path, &e);
	ok(c != NULL, "config loads");
	is_str(hq_config_get(c, "llm", "provider"), "anthropic", "section key");
	is_str(hq_config_get(c, "llm", "model"), "claude x", "quotes stripped");
	is_str(hq_config_get(c, "query", "provider"), "other", "sections are separate");
	ok(hq_config_get(c, "llm", "nope") == NULL, "missing key");
	hq_config_free(c);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (write(fd, "[llm]\nprovider\n", 15) < 0)
		return 1;
	close(fd);
	c = hq_config_load(path, &e);
	ok(c == NULL && strstr(e.msg, ":2:"), "malformed line named by number");
	unlink(path);
	c = hq_config_load(path, &e);
	ok(c != NULL && hq_config_get(c, "llm", "provider") == NULL, "missing file is empty config");
	ok(hq_config_warning(c, 0) == NULL, "and no warnings");
	hq_config_free(c);
	test_config_warnings();
	test_fit();
	table_escapes();
	return done_testing();
}
