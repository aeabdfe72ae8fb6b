/*
 * opts_complete — the shell completion's answers from a command's option
 * table (opts.h: hq-x --complete-args WORD..., --complete OPTION): the
 * options (after a subcommand, its own), an option's values (its choices,
 * values list, completer or metavariable: files, zones, dates), the
 * subcommands' words and the command's operands. What it shares with the
 * option loop is opts_int.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/buf.h"
#include "hq/opts.h"
#include "hq/opts_int.h"
#include "hq/time.h"

void
hq_complete_add(const struct hq_complete *c, const char *value,
    const char *descr)
{
	for (const char *v = value; *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return;
	fprintf(c->out, "%.*s%s", (int)c->head, c->typed ? c->typed : "", value);
	if (descr && *descr && !c->plain) {
		fputc('\t', c->out);
		for (const char *d = descr; *d; d++)
			fputc((unsigned char)*d < 0x20 || *d == 0x7f ? ' ' : *d, c->out);
	}
	fputc('\n', c->out);
}

/* The shell completes a file name here. */
static void
hq_complete_files(const struct hq_complete *c)
{
	if (!c->plain)
		fputs(":files\n", c->out);
}

static int
takes_value(const struct hq_opt *o)
{
	return o->type != HQ_OPT_FLAG;
}

/* A long option by its name or the start of it, as getopt_long takes it:
 * an exact name, else the one option it begins; NULL when none or several. */
static const struct hq_opt *
lookup_long(const struct hq_cmd_info *c, const char *name, size_t len)
{
	const struct hq_opt *o, *found = NULL;
	int n = 0;

	for (size_t i = 0; (o = hq_opts_at(c, i)); i++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len)
			return o;
		found = o;
		n++;
	}
	return n == 1 ? found : NULL;
}

static const struct hq_opt *
lookup_short(const struct hq_cmd_info *c, char letter)
{
	const struct hq_opt *o;

	for (size_t i = 0; (o = hq_opts_at(c, i)); i++)
		if (o->id < HQ_OPT_LONG && o->id == (unsigned char)letter)
			return o;
	return NULL;
}

const char *
hq_complete_arg(const struct hq_complete *c, const char *name)
{
	const struct hq_opt *want = lookup_long(c->cmd, name, strlen(name));
	const char *found = NULL;

	if (!want && strlen(name) == 1)
		want = lookup_short(c->cmd, name[0]);
	for (int i = 0; want && i < c->nargs; i++) {
		const char *w = c->args[i], *eq;
		const struct hq_opt *o = NULL;

		if (strcmp(w, "--") == 0)
			break;
		if (w[0] != '-' || !w[1])
			continue;
		if (w[1] == '-') {
			eq = strchr(w, '=');
			o = lookup_long(c->cmd, w + 2, eq ? (size_t)(eq - w - 2) : strlen(w + 2));
			if (o == want && !takes_value(o))
				found = "";
			else if (o == want && eq)
				found = eq + 1;
			else if (o == want && i + 1 < c->nargs)
				found = c->args[i + 1];
			if (o && takes_value(o) && !eq)
				i++;
			continue;
		}
		for (const char *p = w + 1; *p; p++) {
			if ((o = lookup_short(c->cmd, *p)) == want && !takes_value(o))
				found = "";
			if (!o || !takes_value(o))
				continue;
			if (o == want)
				found = p[1] ? p + 1 : i + 1 < c->nargs ? c->args[i + 1] : NULL;
			if (!p[1])
				i++;
			break;
		}
	}
	return found;
}

/* The date forms of hq_time_parse_range (tests/unit/opts.c checks that
 * each one parses), then today's date, week, month and year. */
static void
complete_dates(const struct hq_complete *c)
{
	static const char *const forms[][2] = {
		{ "today", NULL }, { "yesterday", NULL },
		{ "this-week", "since Monday" }, { "last-week", "Monday to Sunday" },
		{ "this-month", NULL }, { "last-month", NULL },
		{ "this-year", NULL }, { "last-year", NULL },
		{ "7d", "a week ago" }, { "30d", "30 days ago" },
		{ "3m", "3 months ago" }, { "1y", "a year ago" },
	};
	time_t now = (time_t)hq_time_now();
	struct tm tm;
	char buf[32];

	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		hq_complete_add(c, forms[i][0], forms[i][1]);
	if (!localtime_r(&now, &tm))
		return;
	if (strftime(buf, sizeof buf, "%Y-%m-%d", &tm))
		hq_complete_add(c, buf, "a day");
	if (strftime(buf, sizeof buf, "%G-W%V", &tm))
		hq_complete_add(c, buf, "an ISO week");
	if (strftime(buf, sizeof buf, "%Y-%m", &tm))
		hq_complete_add(c, buf, "a month");
	if (strftime(buf, sizeof buf, "%Y", &tm))
		hq_complete_add(c, buf, "a year");
}

/* The IANA zones, from tzdata's zone1970.tab, with its comment. */
static void
complete_zones(const struct hq_complete *c)
{
	const char *tab = getenv("HQ_ZONE_TAB");
	FILE *fp = fopen(tab && *tab ? tab : "/usr/share/zoneinfo/zone1970.tab", "r");
	char line[512];
	int n = 0;

	hq_complete_add(c, "UTC", NULL);
	while (fp && fgets(line, sizeof line, fp) && n++ < 5000) {
		char *f[4] = { line }, *nl = strchr(line, '\n');
		int k = 1;

		if (nl)
			*nl = '\0';
		if (line[0] == '#')
			continue;
		for (char *t = line; k < 4 && (t = strchr(t, '\t')); k++) {
			*t++ = '\0';
			f[k] = t;
		}
		if (k >= 3)
			hq_complete_add(c, f[2], k > 3 ? f[3] : NULL);
	}
	if (fp)
		fclose(fp);
}

/* Whether name is one of the space-separated words of list. */
static int
word_in(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *w = list; *w; ) {
		size_t k = strcspn(w, " ");
		if (k == n && strncmp(w, name, n) == 0)
			return 1;
		w += k + (w[k] == ' ');
	}
	return 0;
}

static int
is_name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.';
}

/* The values of option o for the word typed, of which head bytes are kept. */
/* The subcommand of the operands typed before the word completed. */
static const struct hq_subcmd *
typed_subcmd(const struct hq_complete *c)
{
	int used;

	return c->cmd->subcmds ? hq_opts_find_subcmd(c->cmd, c->noperands, c->operands,
	    &used) : NULL;
}

/* The verbs (each once, in the table's order; a verb that is a whole
 * subcommand described by its usage), then the kinds of the verb typed. */
static void
complete_subcmds(const struct hq_complete *c)
{
	const struct hq_subcmd *subs = c->cmd->subcmds;

	for (size_t i = 0; subs[i].name; i++) {
		size_t vl = hq_opts_verb_len(&subs[i]);
		int seen = 0;
		if (c->noperands == 0) {
			char verb[64];
			for (size_t k = 0; k < i; k++)
				seen |= hq_opts_verb_len(&subs[k]) == vl &&
				    strncmp(subs[k].name, subs[i].name, vl) == 0;
			snprintf(verb, sizeof verb, "%.*s", (int)vl, subs[i].name);
			if (!seen)
				hq_complete_add(c, verb, subs[i].name[vl] ? NULL
				    : subs[i].usage);
		} else if (c->noperands == 1 && subs[i].name[vl] &&
		    strlen(c->operands[0]) == vl &&
		    strncmp(c->operands[0], subs[i].name, vl) == 0)
			hq_complete_add(c, subs[i].name + vl + 1, subs[i].usage);
	}
}

void
hq_opts_complete_value(struct hq_complete *c, const struct hq_opt *o, const char *typed,
    size_t head)
{
	const struct hq_opt_values *v = c->cmd->values;
	const struct hq_opt_completer *f = c->cmd->completers;
	const char *a = o->arg ? o->arg : "";

	while (v && v->name && strcmp(v->name, o->name) != 0)
		v++;
	if (v && !v->name)
		v = NULL;
	while (f && f->name && strcmp(f->name, o->name) != 0)
		f++;
	if (f && !f->name)
		f = NULL;
	if (c->cmd->split && word_in(c->cmd->split, o->name))
		for (size_t k = head; typed[k]; k++)
			if (!is_name_char(typed[k]))
				head = k + 1;
	c->opt = o;
	c->typed = typed;
	c->head = head;
	c->word = typed + head;
	if (o->type == HQ_OPT_ENUM)
		for (const char *ch = o->accept; *ch; ch += *ch == '|') {
			size_t n = strcspn(ch, "|");
			char choice[64];
			snprintf(choice, sizeof choice, "%.*s", (int)n, ch);
			if (hq_opts_goes_with(c->cmd, o, choice, typed_subcmd(c)))
				hq_complete_add(c, choice, NULL);
			ch += n;
		}
	if (v || f) {
		for (size_t i = 0; v && v->at(i); i++)
			hq_complete_add(c, v->at(i), NULL);
		if (f)
			f->complete(c);
	} else if (strcmp(a, "PATH") == 0 || strcmp(a, "FILE") == 0 || strcmp(a, "DIR") == 0)
		hq_complete_files(c);
	else if (strcmp(a, "ZONE") == 0)
		complete_zones(c);
	else if (strcmp(a, "DATE") == 0)
		complete_dates(c);
}

static void
complete_options(struct hq_complete *c)
{
	const struct hq_subcmd *sub = typed_subcmd(c);
	const struct hq_opt *o;

	c->typed = "";
	c->head = 0;
	for (size_t i = 0; (o = hq_opts_at(c->cmd, i)); i++)
		if (o->help && hq_opts_goes_with(c->cmd, o, NULL, sub)) {
			char name[128];
			snprintf(name, sizeof name, "--%s", o->name);
			hq_complete_add(c, name, o->help);
		}
}

/* The zone of the dates and weeks offered: --tz on the line, else $HQ_TZ,
 * else $TZ (hq_time_set_zone's order; a completion does not read the
 * config's zone nor the data's, which the command itself would weigh). */
static void
complete_zone(int nargs, char **argv)
{
	const char *tz = NULL;
	struct hq_err e;

	for (int i = 0; i < nargs; i++)
		if (strcmp(argv[i], "--tz") == 0 && i + 1 < nargs)
			tz = argv[++i];
		else if (strncmp(argv[i], "--tz=", 5) == 0)
			tz = argv[i] + 5;
	if (hq_time_set_zone(tz, &e) && tz)
		hq_time_set_zone(NULL, &e);
}

void
hq_opts_complete(const struct hq_cmd_info *cmd, int argc, char **argv,
    FILE *out)
{
	struct hq_complete c = { .cmd = cmd, .out = out, .args = argv,
		.nargs = argc > 0 ? argc - 1 : 0 };
	const char *typed = argc > 0 ? argv[argc - 1] : "", *eq;
	const struct hq_opt *o, *value_of = NULL;
	int rest = 0;   /* operands only from here on */

	/* every candidate echoes the word's head (a list, an expression):
	 * a word too long gets none, so the answer stays a few hundred KB
	 * however long the word and however many names (issue 23) */
	if (strlen(typed) > HQ_COMPLETE_MAX_WORD)
		return;
	complete_zone(c.nargs, argv);
	c.operands = hq_xcalloc((size_t)c.nargs + 1, sizeof *c.operands);
	for (int i = 0; i < c.nargs && !value_of; i++) {
		char *w = argv[i];

		if (rest || w[0] != '-' || !w[1]) {
			c.operands[c.noperands++] = w;
			rest = cmd->options_first;
		} else if (strcmp(w, "--") == 0)
			rest = 1;
		else if (w[1] == '-') {
			if (strchr(w, '=') || !(o = lookup_long(cmd, w + 2, strlen(w + 2))) ||
			    !takes_value(o))
				continue;
			if (i + 1 == c.nargs)
				value_of = o;
			i++;
		} else
			for (const char *p = w + 1; *p; p++) {
				if (!(o = lookup_short(cmd, *p)) || !takes_value(o))
					continue;
				if (!p[1] && i + 1 == c.nargs)
					value_of = o;
				i += !p[1];
				break;
			}
	}
	if (value_of)
		hq_opts_complete_value(&c, value_of, typed, 0);
	else if (!rest && typed[0] == '-' && typed[1] == '-' && (eq = strchr(typed, '='))) {
		o = lookup_long(cmd, typed + 2, (size_t)(eq - typed - 2));
		if (o && takes_value(o))
			hq_opts_complete_value(&c, o, typed, (size_t)(eq + 1 - typed));
	} else if (!rest && typed[0] == '-')
		complete_options(&c);
	else {
		c.typed = c.word = typed;
		if (cmd->subcmds)
			complete_subcmds(&c);
		if (cmd->complete_operand)
			cmd->complete_operand(&c);
		else if (cmd->positional && strcmp(cmd->positional, "files") == 0)
			hq_complete_files(&c);
	}
	free(c.operands);
}
