#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/config.h"

/* Every key a command reads, by section ("" is the top level). A key of
 * NULL: the section's keys are the user's own (names of metrics in
 * [goals]), checked by the module that reads them (lib/analyze/goals.c),
 * which names file:line itself. */
static const struct {
	const char *section, *key;
} known[] = {
	{ "", "tz" },
	{ "goals", NULL },
	{ "queries", NULL },
	{ "places", NULL },
	{ "llm", "provider" }, { "llm", "model" }, { "llm", "base_url" },
	{ "llm", "api_key_env" }, { "llm", "privacy" }, { "llm", "share" },
	{ "query", "source_priority" }, { "query", "sleep_cutoff" },
	{ "query", "tz" },
	{ "athlete", "sex" }, { "athlete", "max_hr" }, { "athlete", "rest_hr" },
	{ "athlete", "lthr" }, { "athlete", "ftp" }, { "athlete", "zones" },
	{ "archive", "remote" }, { "archive", "endpoint" }, { "archive", "region" },
	{ "archive", "addressing" }, { "archive", "key" },
	{ "archive", "credentials" }, { "archive", "cache" },
	{ "archive", "cache_size" },
};

#define NKNOWN (sizeof known / sizeof known[0])

struct entry {
	char *section, *key, *value;
	char *comment;         /* the '#' lines right above it, or NULL */
	long line;
};

struct hq_config {
	char *path;
	struct entry *e;
	size_t n, cap;
	char **warnings;
	size_t nwarnings;
	long unshown;          /* warnings past MAX_WARNINGS */
};

#define MAX_WARNINGS 20

int
hq_config_path(char *buf, size_t n)
{
	const char *env = getenv("HQ_CONFIG"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int len;

	if (env && *env)
		len = snprintf(buf, n, "%s", env);
	else if (xdg && *xdg)
		len = snprintf(buf, n, "%s/hq/config", xdg);
	else if (home && *home)
		len = snprintf(buf, n, "%s/.config/hq/config", home);
	else
		return -1;
	return len < 0 || (size_t)len >= n ? -1 : 0;
}

static char *
trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* The next line of fp into buf (HQ_CONFIG_MAX_LINE + 1 bytes), without
 * its newline: 1, 0 at the end, -1 when it is too long or holds a NUL. */
static int
next_line(FILE *fp, char *buf, const char **why)
{
	size_t n = 0;
	int ch;

	while ((ch = getc(fp)) != EOF && ch != '\n') {
		if (ch == '\0') {
			*why = "a NUL byte";
			return -1;
		}
		if (n == HQ_CONFIG_MAX_LINE) {
			*why = "a line longer than " HQ_CONFIG_MAX_LINE_S " bytes";
			return -1;
		}
		buf[n++] = (char)ch;
	}
	buf[n] = '\0';
	return ch == EOF && n == 0 ? 0 : 1;
}

static void warn(struct hq_config *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* 0, or -1 when the file already has HQ_CONFIG_MAX_KEYS keys. */
static int
add(struct hq_config *c, const char *section, const char *key, const char *value,
    const char *comment, long line)
{
	/* A later line wins over an earlier one, and says so: a goal or a
	 * setting written twice is a slip, not a choice. */
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->e[i].section, section) == 0 &&
		    strcmp(c->e[i].key, key) == 0) {
			warn(c, "%s:%ld: '%s'%s%s%s is set again (line %ld set it "
			    "too): this line's value counts", c->path, line, key,
			    *section ? " under [" : "", section, *section ? "]" : "",
			    c->e[i].line);
			free(c->e[i].value);
			free(c->e[i].comment);
			c->e[i].value = hq_xstrdup(value);
			c->e[i].comment = comment ? hq_xstrdup(comment) : NULL;
			c->e[i].line = line;
			return 0;
		}
	if (c->n == HQ_CONFIG_MAX_KEYS)
		return -1;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->e = hq_xrealloc(c->e, c->cap * sizeof *c->e);
	}
	c->e[c->n].section = hq_xstrdup(section);
	c->e[c->n].key = hq_xstrdup(key);
	c->e[c->n].value = hq_xstrdup(value);
	c->e[c->n].comment = comment ? hq_xstrdup(comment) : NULL;
	c->e[c->n].line = line;
	c->n++;
	return 0;
}

static void
warn(struct hq_config *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (c->nwarnings >= MAX_WARNINGS) {
		c->unshown++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	c->warnings = hq_xrealloc(c->warnings,
	    (c->nwarnings + 1) * sizeof *c->warnings);
	c->warnings[c->nwarnings++] = hq_xstrdup(msg);
}

static int
known_section(const char *section)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (strcmp(known[i].section, section) == 0)
			return 1;
	return 0;
}

/* A section header hq does not read: warned about once, at its line. */
static void
check_section(struct hq_config *c, const char *section, long line)
{
	struct hq_catalog_suggestion sug;
	const char *pick;

	if (known_section(section))
		return;
	hq_catalog_suggest_start(&sug, section);
	for (size_t i = 0; i < NKNOWN; i++)
		if (*known[i].section)
			hq_catalog_suggest_word(&sug, known[i].section,
			    strlen(known[i].section));
	pick = hq_catalog_suggest_pick(&sug);
	warn(c, "%s:%ld: unknown section [%s]%s%s%s, its keys are ignored",
	    c->path, line, section, pick ? " (did you mean [" : "",
	    pick ? pick : "", pick ? "]?)" : "");
}

/* A key hq does not read in a section it does read. */
static void
check_key(struct hq_config *c, const char *section, const char *key, long line)
{
	struct hq_catalog_suggestion sug;
	const char *pick;

	if (!known_section(section))
		return;
	for (size_t i = 0; i < NKNOWN; i++)
		if (strcmp(known[i].section, section) == 0 &&
		    (!known[i].key || strcmp(known[i].key, key) == 0))
			return;
	hq_catalog_suggest_start(&sug, key);
	for (size_t i = 0; i < NKNOWN; i++)
		if (strcmp(known[i].section, section) == 0 && known[i].key)
			hq_catalog_suggest_word(&sug, known[i].key, strlen(known[i].key));
	pick = hq_catalog_suggest_pick(&sug);
	if (*section)
		warn(c, "%s:%ld: unknown key '%s' under [%s]%s%s%s, ignored", c->path,
		    line, key, section, pick ? " (did you mean " : "",
		    pick ? pick : "", pick ? "?)" : "");
	else
		warn(c, "%s:%ld: unknown key '%s' before any section%s%s%s, ignored",
		    c->path, line, key, pick ? " (did you mean " : "",
		    pick ? pick : "", pick ? "?)" : "");
}

/* One line of the file (s, trimmed, writable) read: a comment kept for
 * the key below it, a section begun, a key and its value added. 0, or -1
 * with e saying why (path:line). */
static int
read_line(struct hq_config *c, const char *path, long lineno, char *s,
    char *section, size_t sectionn, struct hq_buf *comment, struct hq_err *e)
{
	char *eq;

	if (*s == '#') {
		/* kept for the key below: a description, a few lines */
		if (comment->len < HQ_CONFIG_MAX_COMMENT) {
			if (comment->len)
				hq_buf_puts(comment, " ");
			hq_buf_puts(comment, trim(s + 1));
		}
		return 0;
	}
	if (!*s || *s == ';') {
		comment->len = 0;
		return 0;
	}
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close || close[1]) {
			hq_err_set(e, "%s:%ld: a section header looks like [llm]",
			    path, lineno);
			return -1;
		}
		*close = '\0';
		snprintf(section, sectionn, "%s", trim(s + 1));
		check_section(c, section, lineno);
		comment->len = 0;
		return 0;
	}
	eq = strchr(s, '=');
	if (!eq) {
		hq_err_set(e, "%s:%ld: expected 'key = value'", path, lineno);
		return -1;
	}
	*eq = '\0';
	char *key = trim(s), *value = trim(eq + 1);
	size_t vl = strlen(value);
	if (vl >= 2 && (value[0] == '"' || value[0] == '\'') &&
	    value[vl - 1] == value[0]) {
		value[vl - 1] = '\0';
		value++;
	}
	if (!*key) {
		hq_err_set(e, "%s:%ld: empty key", path, lineno);
		return -1;
	}
	check_key(c, section, key, lineno);
	if (add(c, section, key, value, comment->len ? comment->data : NULL,
	    lineno)) {
		hq_err_set(e, "%s:%ld: more than " HQ_CONFIG_MAX_KEYS_S
		    " keys", path, lineno);
		return -1;
	}
	comment->len = 0;
	return 0;
}

/* What the warnings left unsaid, counted in one last warning. */
static void
say_unshown(struct hq_config *c, const char *path)
{
	struct hq_buf b = {0};

	if (!c->unshown)
		return;
	hq_buf_printf(&b, "%s: %ld more unknown keys or sections", path,
	    c->unshown);
	c->warnings = hq_xrealloc(c->warnings,
	    (c->nwarnings + 1) * sizeof *c->warnings);
	c->warnings[c->nwarnings++] = hq_buf_steal(&b);
}

struct hq_config *
hq_config_load(const char *path, struct hq_err *e)
{
	struct hq_config *c = hq_xcalloc(1, sizeof *c);
	char defpath[4096], section[128] = "", *line;
	struct hq_buf comment = {0};    /* the '#' lines since the last other one */
	const char *why;
	long lineno = 0;
	int rc;
	FILE *fp;

	if (!path) {
		if (hq_config_path(defpath, sizeof defpath))
			return c;
		path = defpath;
	}
	c->path = hq_xstrdup(path);
	fp = fopen(path, "r");
	if (!fp) {
		int err = errno;
		const char *named = getenv("HQ_CONFIG");
		/* The default file may well be missing; one named is meant. */
		if (err == ENOENT && path == defpath && named && *named)
			warn(c, "HQ_CONFIG names %s, which does not exist: no goals "
			    "nor settings are read from it", path);
		if (err == ENOENT)
			return c;
		hq_err_set(e, "%s: %s", path, strerror(err));
		hq_config_free(c);
		return NULL;
	}
	line = hq_xmalloc(HQ_CONFIG_MAX_LINE + 1);
	while ((rc = next_line(fp, line, &why)) != 0) {
		lineno++;
		if (rc < 0) {
			hq_err_set(e, "%s:%ld: %s", path, lineno, why);
			goto fail;
		}
		if (read_line(c, path, lineno, trim(line), section, sizeof section,
		    &comment, e))
			goto fail;
	}
	if (ferror(fp)) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		goto fail;
	}
	free(line);
	hq_buf_free(&comment);
	fclose(fp);
	say_unshown(c, path);
	return c;
fail:
	free(line);
	hq_buf_free(&comment);
	fclose(fp);
	hq_config_free(c);
	return NULL;
}

/* The entry of a key, or NULL. */
static const struct entry *
find(const struct hq_config *c, const char *section, const char *key)
{
	for (size_t i = 0; c && i < c->n; i++)
		if (strcmp(c->e[i].section, section) == 0 &&
		    strcmp(c->e[i].key, key) == 0)
			return &c->e[i];
	return NULL;
}

const char *
hq_config_get(const struct hq_config *c, const char *section, const char *key)
{
	const struct entry *en = find(c, section, key);

	return en ? en->value : NULL;
}

int
hq_config_where(const struct hq_config *c, const char *section,
    const char *key, char *buf, size_t n)
{
	const struct entry *en = find(c, section, key);

	if (!en)
		return -1;
	snprintf(buf, n, "%s:%ld", c->path, en->line);
	return 0;
}

const char *
hq_config_comment(const struct hq_config *c, const char *section,
    const char *key)
{
	const struct entry *en = find(c, section, key);

	return en ? en->comment : NULL;
}

const char *
hq_config_key_at(const struct hq_config *c, const char *section, size_t i)
{
	if (!c)
		return NULL;
	for (size_t k = 0; k < c->n; k++)
		if (strcmp(c->e[k].section, section) == 0 && i-- == 0)
			return c->e[k].key;
	return NULL;
}

const char *
hq_config_warning(const struct hq_config *c, size_t i)
{
	return c && i < c->nwarnings ? c->warnings[i] : NULL;
}

void
hq_config_free(struct hq_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].section);
		free(c->e[i].key);
		free(c->e[i].value);
		free(c->e[i].comment);
	}
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	free(c->e);
	free(c->path);
	free(c);
}
