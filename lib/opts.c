#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/opts.h"

static size_t
count_opts(const struct hq_opt *o)
{
	size_t n = 0;

	while (o[n].name)
		n++;
	return n;
}

struct option *
hq_opts_longopts(const struct hq_cmd_info *c, char *shortopts, size_t n)
{
	size_t count = count_opts(c->opts), k = 0;
	struct option *lo = hq_xcalloc(count + 1, sizeof *lo);

	if (n)
		shortopts[0] = '\0';
	/* Leading ':' lets the command tell a missing argument apart. */
	if (n > 1) {
		shortopts[k++] = ':';
		shortopts[k] = '\0';
	}
	for (size_t i = 0; i < count; i++) {
		const struct hq_opt *o = &c->opts[i];
		lo[i].name = o->name;
		lo[i].has_arg = o->type == HQ_OPT_FLAG ? no_argument : required_argument;
		lo[i].flag = NULL;
		lo[i].val = o->id;
		if (o->id < HQ_OPT_LONG && isalnum(o->id) && k + 3 < n) {
			shortopts[k++] = (char)o->id;
			if (o->type != HQ_OPT_FLAG)
				shortopts[k++] = ':';
			shortopts[k] = '\0';
		}
	}
	return lo;
}

const struct hq_opt *
hq_opts_find(const struct hq_cmd_info *c, int id)
{
	for (const struct hq_opt *o = c->opts; o->name; o++)
		if (o->id == id)
			return o;
	return NULL;
}

void
hq_opts_help(const struct hq_cmd_info *c, FILE *fp)
{
	fprintf(fp, "usage: %s %s\n%s\n\noptions:\n", c->name, c->synopsis,
	    c->summary);
	for (const struct hq_opt *o = c->opts; o->name; o++) {
		char left[128];
		int k;
		if (o->id < HQ_OPT_LONG && isalnum(o->id))
			k = snprintf(left, sizeof left, "  -%c, --%s", o->id, o->name);
		else
			k = snprintf(left, sizeof left, "      --%s", o->name);
		if (o->type != HQ_OPT_FLAG && k > 0 && (size_t)k < sizeof left)
			snprintf(left + k, sizeof left - (size_t)k, " %s",
			    o->arg ? o->arg : "ARG");
		if (strlen(left) > 28)
			fprintf(fp, "%s\n%30s%s\n", left, "", o->help);
		else
			fprintf(fp, "%-30s%s\n", left, o->help);
	}
	fprintf(fp, "\nSee %s(1).\n", c->name);
}

void
hq_opts_usage_error(const struct hq_cmd_info *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: %s %s\nTry '%s --help' for more information.\n",
	    c->name, c->synopsis, c->name);
}

void
hq_opts_version(const struct hq_cmd_info *c, FILE *fp)
{
#ifdef HQ_VERSION
	fprintf(fp, "%s %s\n", c->name, HQ_VERSION);
#else
	fprintf(fp, "%s\n", c->name);
#endif
}

static void
schema_name(const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s", name);
	for (char *p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
}

void
hq_opts_tool_schema(const struct hq_cmd_info *c, FILE *fp)
{
	struct hq_buf b = {0};
	char name[128];
	int first = 1;

	schema_name(c->name, name, sizeof name);
	hq_buf_puts(&b, "{\"name\":");
	hq_buf_json_str(&b, name);
	hq_buf_puts(&b, ",\"description\":");
	hq_buf_json_str(&b, c->tool_description ? c->tool_description : c->summary);
	hq_buf_puts(&b, ",\"parameters\":{\"type\":\"object\",\"properties\":{");
	if (c->positional) {
		hq_buf_json_str(&b, c->positional);
		hq_buf_puts(&b, ":{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
		    "\"description\":");
		hq_buf_json_str(&b, c->positional_help ? c->positional_help : "");
		hq_buf_putc(&b, '}');
		first = 0;
	}
	for (const struct hq_opt *o = c->opts; o->name; o++) {
		if (!o->tool)
			continue;
		if (!first)
			hq_buf_putc(&b, ',');
		first = 0;
		schema_name(o->name, name, sizeof name);
		hq_buf_json_str(&b, name);
		hq_buf_puts(&b, ":{\"type\":");
		switch (o->type) {
		case HQ_OPT_FLAG: hq_buf_puts(&b, "\"boolean\""); break;
		case HQ_OPT_INT: hq_buf_puts(&b, "\"integer\""); break;
		case HQ_OPT_NUMBER: hq_buf_puts(&b, "\"number\""); break;
		case HQ_OPT_LIST:
			hq_buf_puts(&b, "\"array\",\"items\":{\"type\":\"string\"}");
			break;
		default: hq_buf_puts(&b, "\"string\"");
		}
		if (o->type == HQ_OPT_ENUM && o->choices) {
			hq_buf_puts(&b, ",\"enum\":[");
			const char *p = o->choices;
			for (int k = 0;; k++) {
				const char *bar = strchr(p, '|');
				size_t len = bar ? (size_t)(bar - p) : strlen(p);
				char choice[64];
				snprintf(choice, sizeof choice, "%.*s", (int)len, p);
				if (k)
					hq_buf_putc(&b, ',');
				hq_buf_json_str(&b, choice);
				if (!bar)
					break;
				p = bar + 1;
			}
			hq_buf_putc(&b, ']');
		}
		hq_buf_puts(&b, ",\"description\":");
		hq_buf_json_str(&b, o->tool_help ? o->tool_help : o->help);
		hq_buf_putc(&b, '}');
	}
	hq_buf_puts(&b, "}");
	if (c->positional && c->positional_required) {
		hq_buf_puts(&b, ",\"required\":[");
		hq_buf_json_str(&b, c->positional);
		hq_buf_putc(&b, ']');
	}
	hq_buf_puts(&b, "},\"writes\":");
	hq_buf_puts(&b, c->writes ? "true" : "false");
	if (c->positional) {
		hq_buf_puts(&b, ",\"x-positional\":");
		hq_buf_json_str(&b, c->positional);
	}
	hq_buf_puts(&b, "}\n");
	fputs(b.data, fp);
	hq_buf_free(&b);
}

int
hq_opts_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
hq_opts_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
