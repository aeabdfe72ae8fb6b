/*
 * queries — the config's saved queries (queries.h): the lines split into
 * words and checked, never handed to a shell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/queries.h"
#include "hq/term.h"

/* What a shell acts on outside quotes; hq runs none, so it is refused
 * rather than taken literally where the user may mean the shell's. */
#define SHELL_CHARS ";|&<>()$`*?~{}!"

static void
hq_words_free(char **words)
{
	for (char **w = words; w && *w; w++)
		free(*w);
	free(words);
}

/* Split line into words (*words NULL-terminated, malloc'd, each word
 * too; free with hq_words_free): blanks separate words; '...' keeps what
 * it holds as is; "..." too but \" and \\ are " and \, and $ or ` in it
 * are refused; \c outside quotes is c. Refused, with e saying what and
 * where: a quote not closed, and outside quotes any of ; | & < > ( ) $ `
 * * ? ~ { } ! and a word starting with # (a shell would act on them;
 * quote them to mean them). 0, or -1. */
static int
hq_words_split(const char *line, char ***words, size_t *n, struct hq_err *e)
{
	struct hq_buf w = {0};
	char **v = hq_xcalloc(HQ_QUERY_MAX_WORDS + 1, sizeof *v);
	const char *p = line;
	size_t k = 0;

	*words = NULL;
	*n = 0;
	for (;;) {
		int in_word = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (*p == '#') {
			hq_err_set(e, "a word starts with '#', a shell's comment: "
			    "quote it ('#...') to mean it");
			goto fail;
		}
		w.len = 0;
		hq_buf_puts(&w, "");
		while (*p && *p != ' ' && *p != '\t') {
			in_word = 1;
			if (*p == '\'') {
				const char *close = strchr(p + 1, '\'');
				if (!close) {
					hq_err_set(e, "a ' is not closed");
					goto fail;
				}
				for (const char *c = p + 1; c < close; c++)
					hq_buf_putc(&w, *c);
				p = close + 1;
			} else if (*p == '"') {
				for (p++; *p && *p != '"'; p++) {
					if (*p == '$' || *p == '`') {
						hq_err_set(e, "'%c' inside \"...\": a shell "
						    "would substitute it, hq runs none; use "
						    "'...' to mean it", *p);
						goto fail;
					}
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					hq_buf_putc(&w, *p);
				}
				if (*p != '"') {
					hq_err_set(e, "a \" is not closed");
					goto fail;
				}
				p++;
			} else if (*p == '\\') {
				if (!p[1]) {
					hq_err_set(e, "a \\ ends the line");
					goto fail;
				}
				hq_buf_putc(&w, p[1]);
				p += 2;
			} else if (*p == '$' && p[1] == '(') {
				hq_err_set(e, "'$(' is a shell's command substitution "
				    "and hq runs no shell: a saved query is one hq "
				    "command's words");
				goto fail;
			} else if (strchr(SHELL_CHARS, *p)) {
				hq_err_set(e, "'%c' is a shell's character and hq runs "
				    "no shell: quote it ('...') to mean it, or "
				    "write two saved queries", *p);
				goto fail;
			} else
				hq_buf_putc(&w, *p++);
		}
		if (!in_word)
			continue;
		if (k == HQ_QUERY_MAX_WORDS) {
			hq_err_set(e, "more than %d words", HQ_QUERY_MAX_WORDS);
			goto fail;
		}
		v[k++] = hq_xstrdup(w.data);
	}
	hq_buf_free(&w);
	*words = v;
	*n = k;
	return 0;
fail:
	hq_buf_free(&w);
	hq_words_free(v);
	return -1;
}

/* A saved query's name: a tool's name the commands' tools cannot have. */
static int
check_name(const char *name, struct hq_err *e)
{
	size_t len = strlen(name);

	if (len == 0 || len > HQ_QUERY_MAX_NAME || strspn(name,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != len) {
		hq_err_set(e, "a saved query's name is 1 to %d letters, digits, _ or -",
		    HQ_QUERY_MAX_NAME);
		return -1;
	}
	if (strcasecmp(name, "hq") == 0 || strncasecmp(name, "hq_", 3) == 0 ||
	    strncasecmp(name, "hq-", 3) == 0) {
		hq_err_set(e, "'%s' would clash with the built-in tools' names "
		    "(hq_query, hq_report...): a saved query's name does not begin "
		    "with hq", name);
		return -1;
	}
	return 0;
}

static int
command_name(const char *s)
{
	size_t len = strlen(s);

	return len > 0 && len <= HQ_QUERY_MAX_NAME && s[0] != '-' &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == len;
}

/* The words of q->line into q: its command and the words after it. */
static int
parse_line(struct hq_saved_query *q, struct hq_err *e)
{
	char **w;
	size_t n, skip;
	const char *cmd;
	char x[HQ_TERM_EXCERPT_SIZE];

	if (hq_words_split(q->line, &w, &n, e))
		return -1;
	if (n == 0) {
		hq_err_set(e, "no command: a saved query is an hq command line "
		    "(%s = hq-query steps --by week)", q->name);
		goto fail;
	}
	if (strcmp(w[0], "hq") == 0) {
		if (n < 2) {
			hq_err_set(e, "'hq' alone is not a query: name a command "
			    "(hq query ...)");
			goto fail;
		}
		cmd = w[1];
		skip = 2;
	} else if (strncmp(w[0], "hq-", 3) == 0) {
		cmd = w[0] + 3;
		skip = 1;
	} else {
		hq_err_set(e, "'%s' is not an hq command: a saved query runs "
		    "hq-NAME or hq NAME (hq-query, hq-report...), nothing else",
		    hq_term_excerpt(x, sizeof x, w[0]));
		goto fail;
	}
	if (!command_name(cmd)) {
		hq_err_set(e, "'%s' is not an hq command's name",
		    hq_term_excerpt(x, sizeof x, cmd));
		goto fail;
	}
	if (strcmp(cmd, "run") == 0) {
		if (n > skip && strcmp(w[skip], q->name) == 0)
			hq_err_set(e, "'%s' runs itself", q->name);
		else
			hq_err_set(e, "a saved query runs an hq command, never hq "
			    "run (another saved query, or itself)");
		goto fail;
	}
	if (strcmp(cmd, "help") == 0) {
		hq_err_set(e, "hq help is not a query");
		goto fail;
	}
	snprintf(q->command, sizeof q->command, "%s", cmd);
	q->nwords = n - skip;
	q->words = hq_xcalloc(q->nwords + 1, sizeof *q->words);
	for (size_t i = 0; i < q->nwords; i++) {
		q->words[i] = w[skip + i];
		w[skip + i] = NULL;
	}
	for (size_t i = 0; i < skip; i++)
		free(w[i]);
	free(w);
	return 0;
fail:
	hq_words_free(w);
	return -1;
}

int
hq_queries_load(const struct hq_config *cfg, struct hq_saved_query **out,
    size_t *n, struct hq_err *e)
{
	struct hq_saved_query *v = NULL;
	const char *key;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; (key = hq_config_key_at(cfg, "queries", i)); i++) {
		struct hq_saved_query *q;
		const char *comment = hq_config_comment(cfg, "queries", key);
		char where[4200];
		struct hq_err why;

		if (hq_config_where(cfg, "queries", key, where, sizeof where))
			snprintf(where, sizeof where, "config");
		v = hq_xrealloc(v, (k + 1) * sizeof *v);
		q = &v[k++];
		memset(q, 0, sizeof *q);
		q->name = hq_xstrdup(key);
		q->line = hq_xstrdup(hq_config_get(cfg, "queries", key));
		q->description = hq_xstrdup(comment ? comment : "");
		q->where = hq_xstrdup(where);
		if (check_name(q->name, &why) || parse_line(q, &why)) {
			hq_err_set(e, "%s: [queries]: %s", where, why.msg);
			hq_queries_free(v, k);
			return -1;
		}
	}
	*out = v;
	*n = k;
	return 0;
}

const struct hq_saved_query *
hq_queries_find(const struct hq_saved_query *q, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (strcmp(q[i].name, name) == 0)
			return &q[i];
	return NULL;
}

void
hq_queries_free(struct hq_saved_query *q, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(q[i].name);
		free(q[i].description);
		free(q[i].line);
		free(q[i].where);
		hq_words_free(q[i].words);
	}
	free(q);
}
