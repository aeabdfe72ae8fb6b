#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/opts.h"
#include "hq/opts_int.h"
#include "hq/time.h"

/* One entry into a getopt_long table and its short option string, which
 * has room for n bytes and holds *k. */
static void
add_getopt(const struct hq_opt *o, struct option *lo, char *shortopts,
    size_t *k, size_t n)
{
	lo->name = o->name;
	lo->has_arg = o->type == HQ_OPT_FLAG ? no_argument : required_argument;
	lo->flag = NULL;
	lo->val = o->id;
	if (o->id < HQ_OPT_LONG && isalnum(o->id) && *k + 3 < n) {
		shortopts[(*k)++] = (char)o->id;
		if (o->type != HQ_OPT_FLAG)
			shortopts[(*k)++] = ':';
		shortopts[*k] = '\0';
	}
}

/* The table entry for an id, or NULL. */
static const struct hq_opt *
hq_opts_find(const struct hq_cmd_info *c, int id)
{
	for (const struct hq_opt *o = c->opts; o->name; o++)
		if (o->id == id)
			return o;
	return NULL;
}

/* The options every command has; ids below any letter's. */
enum { ID_VERSION = 1, ID_TOOL_SCHEMA, ID_COMPLETE, ID_SUMMARY };

static const struct hq_opt builtins[] = {
	{ 'h', "help", HQ_OPT_FLAG, NULL, "show this help and exit", NULL, NULL, 0 },
	{ ID_VERSION, "version", HQ_OPT_FLAG, NULL, "show the version and exit",
	  NULL, NULL, 0 },
	{ ID_TOOL_SCHEMA, "tool-schema", HQ_OPT_FLAG, NULL,
	  "print the tool definition (JSON) and exit", NULL, NULL, 0 },
	/* Not in --help: the shell completion's way to ask (and
	 * --complete-args, read before the loop), and hq's. */
	{ ID_COMPLETE, "complete", HQ_OPT_STRING, "OPTION", NULL, NULL, NULL, 0 },
	{ ID_SUMMARY, "summary", HQ_OPT_FLAG, NULL, NULL, NULL, NULL, 0 },
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

static const struct hq_opt *
find_name(const struct hq_opt *o, const char *name)
{
	for (; o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

/*
 * text from column col, wrapped at spaces to fit 80 columns, continued at
 * column indent; its own line breaks are kept, and the spaces after them.
 */
/* How much of word (n bytes) fits in room up to and with a comma; 0: none. */
static size_t
comma_break(const char *word, size_t n, size_t room)
{
	size_t k = n < room ? n : room;

	while (k && word[k - 1] != ',')
		k--;
	return k;
}

static void
put_wrapped(FILE *fp, const char *text, size_t col, size_t indent)
{
	const char *p = text;
	size_t n, k;

	while (*p) {
		if (*p == '\n') {
			fputc('\n', fp);
			col = 0;
			p++;
		} else if (*p == ' ') {
			n = strcspn(p + 1, " \n");
			if (n && col > indent && col + 1 + n > 79) {
				fprintf(fp, "\n%*s", (int)indent, "");
				col = indent;
			} else {
				fputc(' ', fp);
				col++;
			}
			p++;
		} else {
			n = strcspn(p, " \n");
			/* a word too long for the line breaks after a comma */
			while (col + n > 79 && (k = comma_break(p, n, 79 - col)) > 0) {
				fwrite(p, 1, k, fp);
				fprintf(fp, "\n%*s", (int)indent, "");
				col = indent;
				p += k;
				n -= k;
			}
			fwrite(p, 1, n, fp);
			col += n;
			p += n;
		}
	}
	fputc('\n', fp);
}

static void
put_usage(const struct hq_cmd_info *c, FILE *fp)
{
	size_t col = (size_t)fprintf(fp, "usage: %s ", c->name);

	put_wrapped(fp, c->synopsis, col, col);
}

static void
help_line(const struct hq_opt *o, FILE *fp)
{
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
		fprintf(fp, "%s\n%30s", left, "");
	else
		fprintf(fp, "%-30s", left);
	put_wrapped(fp, o->help, 30, 30);
}

void
hq_opts_help(const struct hq_cmd_info *c, FILE *fp)
{
	put_usage(c, fp);
	put_wrapped(fp, c->summary, 0, 0);
	fputs("\noptions:\n", fp);
	for (const struct hq_opt *o = c->opts; o->name; o++)
		help_line(o, fp);
	for (size_t i = 0; i < NBUILTINS; i++)
		if (builtins[i].help)
			help_line(&builtins[i], fp);
	if (c->help_more)
		c->help_more(fp);
	fprintf(fp, "\nSee %s(1).\n", c->name);
}

/* One line that says what is wrong, then where to look (the whole usage is
 * --help's). */
static void
vusage(const struct hq_cmd_info *c, FILE *fp, const char *fmt, va_list ap)
{
	fprintf(fp, "%s: ", c->name);
	vfprintf(fp, fmt, ap);
	fputc('\n', fp);
	fprintf(fp, "try '%s --help'\n", c->name);
}

void
hq_opts_usage_error(const struct hq_cmd_info *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage(c, stderr, fmt, ap);
	va_end(ap);
}

static void
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
		if (o->type == HQ_OPT_ENUM && o->accept) {
			hq_buf_puts(&b, ",\"enum\":[");
			const char *p = o->accept;
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
	if (c->writes && c->reads) {
		/* "x-reads":["list","verify"]: the first operands that only read */
		hq_buf_puts(&b, ",\"x-reads\":[");
		for (const char *p = c->reads; *p;) {
			size_t len = strcspn(p, " ");
			char word[64];
			if (len) {
				snprintf(word, sizeof word, "%.*s", (int)len, p);
				if (b.data[b.len - 1] != '[')
					hq_buf_putc(&b, ',');
				hq_buf_json_str(&b, word);
			}
			p += len + (p[len] == ' ');
		}
		hq_buf_putc(&b, ']');
	}
	if (c->positional) {
		hq_buf_puts(&b, ",\"x-positional\":");
		hq_buf_json_str(&b, c->positional);
	}
	hq_buf_puts(&b, "}\n");
	fputs(b.data, fp);
	hq_buf_free(&b);
}

/* ---- the option loop ---------------------------------------------------- */

void
hq_opts_init(struct hq_opts *p, const struct hq_cmd_info *c, int argc,
    char **argv)
{
	*p = (struct hq_opts){ .cmd = c, .argc = argc, .argv = argv, .out = stdout,
		.err = stderr };
}

/* An accepted range, from "1..1000", "0..", "..9" or ">0". */
struct bounds {
	int has_min, has_max, above;
	long lmin, lmax;        /* HQ_OPT_INT */
	double min, max;
};

static int
parse_bound(const char *s, size_t len, int whole, long *l, double *d)
{
	char buf[64];

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (whole) {
		if (hq_opts_parse_long(buf, LONG_MIN, LONG_MAX, l))
			return -1;
		*d = (double)*l;
		return 0;
	}
	return hq_opts_parse_double(buf, d);
}

static int
parse_bounds(const struct hq_opt *o, struct bounds *b)
{
	const char *s = o->accept, *dots;
	int whole = o->type == HQ_OPT_INT;

	memset(b, 0, sizeof *b);
	b->lmin = LONG_MIN;
	b->lmax = LONG_MAX;
	if (!s)
		return 0;
	if (*s == '>') {
		b->has_min = b->above = 1;
		return parse_bound(s + 1, strlen(s + 1), whole, &b->lmin, &b->min);
	}
	if (!(dots = strstr(s, "..")) || (dots == s && !dots[2]))
		return -1;
	if (dots > s && parse_bound(s, (size_t)(dots - s), whole, &b->lmin, &b->min))
		return -1;
	if (dots[2] && parse_bound(dots + 2, strlen(dots + 2), whole, &b->lmax, &b->max))
		return -1;
	b->has_min = dots > s;
	b->has_max = dots[2] != '\0';
	return 0;
}

/* "a whole number from 1 to 1000", "a number above 0", "auto, apple or jsonl" */
static void
describe(const struct hq_opt *o, char *buf, size_t n)
{
	const char *what = o->type == HQ_OPT_INT ? "a whole number" : "a number";
	char lo[32], hi[32];
	struct bounds b;

	if (o->type == HQ_OPT_ENUM) {
		size_t k = 0;
		buf[0] = '\0';
		/* "a|b|c" → "a, b or c" */
		for (const char *c = o->accept; *c && k + 5 < n; c++)
			if (*c != '|')
				buf[k++] = *c;
			else
				k += (size_t)snprintf(buf + k, n - k, "%s",
				    strchr(c + 1, '|') ? ", " : " or ");
		buf[k] = '\0';
		return;
	}
	parse_bounds(o, &b);
	if (o->type == HQ_OPT_INT) {
		snprintf(lo, sizeof lo, "%ld", b.lmin);
		snprintf(hi, sizeof hi, "%ld", b.lmax);
	} else {
		snprintf(lo, sizeof lo, "%g", b.min);
		snprintf(hi, sizeof hi, "%g", b.max);
	}
	if (b.above)
		snprintf(buf, n, "%s above %s", what, lo);
	else if (b.has_min && b.has_max)
		snprintf(buf, n, "%s from %s to %s", what, lo, hi);
	else if (b.has_min)
		snprintf(buf, n, "%s, at least %s", what, lo);
	else if (b.has_max)
		snprintf(buf, n, "%s, at most %s", what, hi);
	else
		snprintf(buf, n, "%s", what);
}

static int
stop(struct hq_opts *p, int status)
{
	p->status = status;
	p->done = -1;
	return -1;
}

static int
usage(struct hq_opts *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
usage(struct hq_opts *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage(p->cmd, p->err, fmt, ap);
	va_end(ap);
	return stop(p, 2);
}

static int
bug(struct hq_opts *p, const struct hq_opt *o, const char *what)
{
	fprintf(p->err, "%s: bug in the option table: --%s %s\n", p->cmd->name,
	    o->name, what);
	return stop(p, 2);
}

/* What the user typed, as given back in a message: control characters
 * would reach the terminal (and a model may have written it). */
static const char *
shown(const char *s, char *buf, size_t n)
{
	size_t k = 0;

	for (; *s && k + 1 < n; s++)
		buf[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
	buf[k] = '\0';
	return buf;
}

static const struct hq_opt *
find_builtin(const char *name, int id)
{
	for (size_t i = 0; i < NBUILTINS; i++)
		if (name ? strcmp(builtins[i].name, name) == 0 : builtins[i].id == id)
			return &builtins[i];
	return NULL;
}

static int
check_entry(struct hq_opts *p, const struct hq_opt *o)
{
	const char *a = o->accept;
	struct bounds b;

	if (find_builtin(o->name, 0))
		return bug(p, o, "is built in (lib/opts.c)");
	if (o->id < HQ_OPT_LONG && (!isalnum(o->id) || o->id == 'h'))
		return bug(p, o, "has a reserved id");
	if (hq_opts_find(p->cmd, o->id) != o)
		return bug(p, o, "shares its id with another option");
	if (find_name(p->cmd->opts, o->name) != o)
		return bug(p, o, "is listed twice");
	switch (o->type) {
	case HQ_OPT_ENUM:
		if (!a || !*a || *a == '|' || a[strlen(a) - 1] == '|' || strstr(a, "||"))
			return bug(p, o, "needs its choices, \"a|b|c\"");
		break;
	case HQ_OPT_INT:
	case HQ_OPT_NUMBER:
		if (parse_bounds(o, &b))
			return bug(p, o, "has a range that is not MIN..MAX, MIN.., ..MAX or >MIN");
		break;
	default:
		if (a)
			return bug(p, o, "accepts nothing but its type");
	}
	return 0;
}

/* The getopt_long table: the command's options, then the built-in ones. */
static int
build(struct hq_opts *p)
{
	size_t n = 0, k = 0;

	if (p->cmd->options_first)
		p->shortopts[k++] = '+';  /* stop at the first operand */
	p->shortopts[k++] = ':';        /* tell a missing value apart */
	p->shortopts[k] = '\0';
	for (const struct hq_opt *o = p->cmd->opts; o->name; o++) {
		if (n + NBUILTINS == HQ_OPTS_MAX)
			return bug(p, o, "is one too many (HQ_OPTS_MAX)");
		if (check_entry(p, o))
			return -1;
		add_getopt(o, &p->longopts[n++], p->shortopts, &k, sizeof p->shortopts);
	}
	for (size_t i = 0; i < NBUILTINS; i++)
		add_getopt(&builtins[i], &p->longopts[n++], p->shortopts, &k,
		    sizeof p->shortopts);
	memset(&p->longopts[n], 0, sizeof p->longopts[n]);
	return 0;
}

static const struct hq_opt *
find_any(const struct hq_cmd_info *c, int id)
{
	const struct hq_opt *o = hq_opts_find(c, id);

	return o ? o : find_builtin(NULL, id);
}

/* The i-th long option, the command's then the built-in ones; NULL past
 * the end. */
const struct hq_opt *
hq_opts_at(const struct hq_cmd_info *c, size_t i)
{
	size_t n = 0;

	while (c->opts[n].name)
		n++;
	return i < n ? &c->opts[i] : i - n < NBUILTINS ? &builtins[i - n] : NULL;
}

/* getopt_long said '?': an unknown option, an ambiguous abbreviation, or
 * a value given to a flag. */
static int
unknown(struct hq_opts *p)
{
	const char *word = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "";
	const struct hq_opt *o = optopt ? find_any(p->cmd, optopt) : NULL;
	struct hq_catalog_suggestion near;
	char buf[128], list[256] = "";
	size_t len, k = 0, nmatch = 0;

	if (o)
		return usage(p, "option '--%s' takes no value", o->name);
	if (optopt)
		return usage(p, "unknown option '-%s'",
		    shown((char[]){ (char)optopt, '\0' }, buf, sizeof buf));
	if (strncmp(word, "--", 2) == 0)
		word += 2;
	len = strcspn(word, "=");
	for (size_t i = 0; len && (o = hq_opts_at(p->cmd, i)); i++)
		if (strncmp(o->name, word, len) == 0 && k < sizeof list) {
			k += (size_t)snprintf(list + k, sizeof list - k, "%s--%s",
			    nmatch++ ? ", " : "", o->name);
		}
	snprintf(buf, sizeof buf, "%.*s", (int)(len < 100 ? len : 100), word);
	shown(buf, buf, sizeof buf);
	if (nmatch > 1)
		return usage(p, "option '--%s' is ambiguous (%s)", buf, list);
	hq_catalog_suggest_start(&near, buf);
	for (size_t i = 0; (o = hq_opts_at(p->cmd, i)); i++)
		hq_catalog_suggest_word(&near, o->name, strlen(o->name));
	if (hq_catalog_suggest_pick(&near))
		return usage(p, "unknown option '--%s' (did you mean --%s?)", buf,
		    hq_catalog_suggest_pick(&near));
	return usage(p, "unknown option '--%s'", buf);
}

/* --complete OPTION: the values it takes, one a line. */
static int
complete(struct hq_opts *p, const char *name)
{
	const struct hq_opt *o;
	char buf[128];

	while (*name == '-')
		name++;
	if (!(o = find_name(p->cmd->opts, name)))
		return usage(p, "unknown option '--%s'", shown(name, buf, sizeof buf));
	hq_opts_complete_value(&(struct hq_complete){ .cmd = p->cmd, .out = p->out,
	    .plain = 1 }, o, "", 0);
	return stop(p, 0);
}

/* The value of p->opt, checked against the table. */
static int
check_value(struct hq_opts *p)
{
	const struct hq_opt *o = p->opt;
	char want[256], buf[128];
	struct bounds b;
	int bad = 0;

	switch (o->type) {
	case HQ_OPT_INT:
		parse_bounds(o, &b);
		bad = hq_opts_parse_long(p->arg, b.lmin, b.lmax, &p->num) ||
		    (b.above && p->num == b.lmin);
		p->real = (double)p->num;
		break;
	case HQ_OPT_NUMBER:
		parse_bounds(o, &b);
		bad = hq_opts_parse_double(p->arg, &p->real) ||
		    (b.has_min && (b.above ? p->real <= b.min : p->real < b.min)) ||
		    (b.has_max && p->real > b.max);
		break;
	case HQ_OPT_ENUM:
		bad = 1;
		p->choice = 0;
		for (const char *c = o->accept; *c; p->choice++) {
			size_t n = strcspn(c, "|");
			if (strlen(p->arg) == n && strncmp(c, p->arg, n) == 0) {
				bad = 0;
				break;
			}
			c += n + (c[n] == '|');
		}
		break;
	default:
		break;
	}
	if (!bad)
		return 0;
	describe(o, want, sizeof want);
	return usage(p, "option '--%s' takes %s, not '%s'", o->name, want,
	    shown(p->arg, buf, sizeof buf));
}

int
hq_opts_parse(struct hq_opts *p)
{
	const struct hq_opt *o;
	char buf[8];
	int id;

	if (p->done)
		return p->done > 0 ? 0 : -1;
	if (!p->started) {
		p->started = 1;
		if (build(p))
			return -1;
		if (p->argc > 1 && strcmp(p->argv[1], "--complete-args") == 0) {
			hq_opts_complete(p->cmd, p->argc - 2, p->argv + 2, p->out);
			return stop(p, 0);
		}
		optind = 0;     /* glibc: start afresh, whatever ran before */
		opterr = 0;     /* the messages are ours */
	}
	id = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
	p->opt = NULL;
	p->arg = optarg;
	p->num = 0;
	p->real = 0;
	p->choice = 0;
	switch (id) {
	case -1:
		p->optind = optind;
		p->done = 1;
		return 0;
	case ':':
		o = find_any(p->cmd, optopt);
		if (o && strncmp(p->argv[optind - 1], "--", 2) == 0)
			return usage(p, "option '--%s' needs a value", o->name);
		snprintf(buf, sizeof buf, "%c", optopt);
		return usage(p, "option '-%s' needs a value", shown(buf, buf, sizeof buf));
	case '?':
		return unknown(p);
	case 'h':
		hq_opts_help(p->cmd, p->out);
		return stop(p, 0);
	case ID_VERSION:
		hq_opts_version(p->cmd, p->out);
		return stop(p, 0);
	case ID_TOOL_SCHEMA:
		hq_opts_tool_schema(p->cmd, p->out);
		return stop(p, 0);
	case ID_COMPLETE:
		return complete(p, optarg);
	case ID_SUMMARY:
		fprintf(p->out, "%s\n", p->cmd->summary);
		return stop(p, 0);
	}
	p->opt = hq_opts_find(p->cmd, id);
	if (check_value(p))
		return -1;
	p->given[p->opt - p->cmd->opts] = 1;
	p->given_choice[p->opt - p->cmd->opts] = p->choice;
	return id;
}

/* ---- subcommands ------------------------------------------------------- */

/* Whether name is one of list's, '|' between. */
static int
in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *w = list; *w; w += *w == '|') {
		size_t k = strcspn(w, "|");
		if (k == n && strncmp(w, name, n) == 0)
			return 1;
		w += k;
	}
	return 0;
}

/* The length of a subcommand's verb, its first word. */
size_t
hq_opts_verb_len(const struct hq_subcmd *s)
{
	return strcspn(s->name, " ");
}

/* The subcommand the words name (the first match in the table, as typed:
 * "trend labs ldl" is trend labs, "trend steps" trend), *used its words;
 * NULL when none. */
const struct hq_subcmd *
hq_opts_find_subcmd(const struct hq_cmd_info *c, int n, char *const *words, int *used)
{
	for (const struct hq_subcmd *s = c->subcmds; s && s->name && n > 0; s++) {
		size_t vl = hq_opts_verb_len(s);
		if (strlen(words[0]) != vl || strncmp(words[0], s->name, vl) != 0)
			continue;
		if (!s->name[vl]) {
			*used = 1;
			return s;
		}
		if (n > 1 && strcmp(words[1], s->name + vl + 1) == 0) {
			*used = 2;
			return s;
		}
	}
	return NULL;
}

/* Whether option o, or its choice (NULL: the option itself), goes with
 * sub (NULL: none typed yet, every one goes). */
int
hq_opts_goes_with(const struct hq_cmd_info *c, const struct hq_opt *o,
    const char *choice, const struct hq_subcmd *sub)
{
	for (const struct hq_opt_subs *x = c->opt_subs; sub && x && x->name; x++)
		if (strcmp(x->name, o->name) == 0 && (x->choice ? choice &&
		    strcmp(x->choice, choice) == 0 : !choice))
			return in_list(x->subs, sub->name);
	return 1;
}

/* ---- a command's subcommand, checked (hq_opts_subcmd) ---- */

/* what, then the subcommands: "unknown subcommand 'x' (the subcommands
 * are: list, latest, trend, compare, cgm)"; with a verb, the forms of its
 * subcommands ("the reports are: compare dexa, compare workouts"). */
static int
usage_subcmds(struct hq_opts *p, const char *what, const char *verb)
{
	const struct hq_subcmd *subs = p->cmd->subcmds;
	const char *noun = p->cmd->subcmd_noun ? p->cmd->subcmd_noun : "subcommand";
	struct hq_buf b = { 0 };
	int rc;

	for (size_t i = 0; subs[i].name; i++) {
		size_t vl = hq_opts_verb_len(&subs[i]);
		int seen = verb && (strlen(verb) != vl ||
		    strncmp(verb, subs[i].name, vl) != 0);
		for (size_t k = 0; k < i && !verb; k++)
			seen |= hq_opts_verb_len(&subs[k]) == vl &&
			    strncmp(subs[k].name, subs[i].name, vl) == 0;
		if (seen)
			continue;
		hq_buf_puts(&b, b.len ? ", " : "");
		if (verb)
			hq_buf_puts(&b, subs[i].usage);
		else
			hq_buf_printf(&b, "%.*s", (int)vl, subs[i].name);
	}
	rc = usage(p, "%s (the %ss are: %s)", what, verb ? noun : "subcommand",
	    b.data);
	hq_buf_free(&b);
	return rc;
}

/* The words name no subcommand: the closest one, as an unknown metric or
 * command gets it ("unknown subcommand 'wek' (did you mean week?)", "no
 * such report 'compare workout' (did you mean compare workouts?)"), else
 * the subcommands, or the forms of a verb known. */
static int
no_such_subcmd(struct hq_opts *p, int argc, char **argv)
{
	const struct hq_subcmd *subs = p->cmd->subcmds;
	const char *noun = p->cmd->subcmd_noun ? p->cmd->subcmd_noun : "subcommand";
	const char *names[HQ_OPTS_MAX] = { 0 }, *pick = NULL;
	char words[HQ_OPTS_MAX][64], what[300];
	size_t n = 0;
	int verb = 0;

	for (size_t i = 0; subs[i].name; i++)
		verb |= strlen(argv[0]) == hq_opts_verb_len(&subs[i]) &&
		    strncmp(argv[0], subs[i].name, hq_opts_verb_len(&subs[i])) == 0;
	for (size_t i = 0; subs[i].name && n < HQ_OPTS_MAX; i++) {
		size_t vl = hq_opts_verb_len(&subs[i]);
		int seen = verb && (!subs[i].name[vl] || strlen(argv[0]) != vl ||
		    strncmp(argv[0], subs[i].name, vl) != 0);
		if (verb && !seen)
			snprintf(words[n], sizeof words[n], "%s", subs[i].name + vl + 1);
		else
			snprintf(words[n], sizeof words[n], "%.*s", (int)vl, subs[i].name);
		for (size_t k = 0; k < n && !seen; k++)
			seen = strcmp(names[k], words[n]) == 0;
		if (!seen) {
			names[n] = words[n];
			n++;
		}
	}
	if (!verb || argc > 1)
		pick = hq_catalog_suggest(argv[verb], names, n);
	if (pick && verb)
		return usage(p, "no such %s '%.100s %.100s' (did you mean %s %s?)",
		    noun, argv[0], argv[1], argv[0], pick);
	if (pick)
		return usage(p, "unknown subcommand '%.100s' (did you mean %s?)",
		    argv[0], pick);
	if (verb)
		snprintf(what, sizeof what, "no such %s '%.100s%s%.100s'", noun,
		    argv[0], argc > 1 ? " " : "", argc > 1 ? argv[1] : "");
	else
		snprintf(what, sizeof what, "unknown subcommand '%.100s'", argv[0]);
	return usage_subcmds(p, what, verb ? argv[0] : NULL);
}

/* An option given that does not go with sub: "--unit", "-q" or "--format
 * svg" in what; 0 when none. */
static int
wrong_option(const struct hq_opts *p, const struct hq_subcmd *sub,
    char *what, size_t n)
{
	for (size_t i = 0; p->cmd->opts[i].name; i++) {
		const struct hq_opt *o = &p->cmd->opts[i];
		char choice[64] = "";
		if (!p->given[i])
			continue;
		if (o->type == HQ_OPT_ENUM) {
			const char *ch = o->accept;
			for (int k = 0; k < p->given_choice[i] && *ch; k++)
				ch += strcspn(ch, "|") + (ch[strcspn(ch, "|")] == '|');
			snprintf(choice, sizeof choice, "%.*s", (int)strcspn(ch, "|"), ch);
		}
		if (!hq_opts_goes_with(p->cmd, o, NULL, sub)) {
			if (o->id < HQ_OPT_LONG && isalnum(o->id))
				snprintf(what, n, "-%c", o->id);
			else
				snprintf(what, n, "--%s", o->name);
			return 1;
		}
		if (choice[0] && !hq_opts_goes_with(p->cmd, o, choice, sub)) {
			snprintf(what, n, "--%s %s", o->name, choice);
			return 1;
		}
	}
	return 0;
}

int
hq_opts_subcmd(struct hq_opts *p, int *used)
{
	const struct hq_subcmd *sub;
	int argc = p->argc - p->optind, n;
	char **argv = p->argv + p->optind, what[160];

	if (argc == 0)
		return usage_subcmds(p, "no subcommand", NULL);
	if (!(sub = hq_opts_find_subcmd(p->cmd, argc, argv, used)))
		return no_such_subcmd(p, argc, argv);
	n = argc - *used;
	if (n < sub->min || (sub->max >= 0 && n > sub->max))
		return usage(p, "usage: %s %s", p->cmd->name, sub->usage);
	if (wrong_option(p, sub, what, sizeof what))
		return usage(p, "%s does not go with '%s'", what, sub->usage);
	return (int)(sub - p->cmd->subcmds);
}

/* ---- the options the commands share (opts.h) ---- */

const char hq_opt_db_help[] =
    "the store (default $HQ_DB, ~/.local/share/hq/hq.db)";
const char hq_opt_offline_help[] =
    "months pruned from the store are left out (and named), not read back "
    "from the archive";
const char hq_opt_tz_help[] =
    "local days and times in IANA zone ZONE (default $HQ_TZ, $TZ, tz in the "
    "config, the zone the data records, the system's)";
const char hq_opt_tz_tool_help[] =
    "IANA time zone for local days and times (America/New_York). Only when "
    "the user asks about another zone; the default is the user's.";
