/* Unit tests for lib/output.c, lib/opts.c and lib/config.c. */
#include <math.h>
#include <stdlib.h>
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
	hq_config_free(c);
	table_escapes();
	return done_testing();
}
