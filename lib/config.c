#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/config.h"

struct entry {
	char *section, *key, *value;
};

struct hq_config {
	struct entry *e;
	size_t n, cap;
};

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

/* 0, or -1 when the file already has HQ_CONFIG_MAX_KEYS keys. */
static int
add(struct hq_config *c, const char *section, const char *key, const char *value)
{
	/* A later line wins over an earlier one. */
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->e[i].section, section) == 0 &&
		    strcmp(c->e[i].key, key) == 0) {
			free(c->e[i].value);
			c->e[i].value = hq_xstrdup(value);
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
	c->n++;
	return 0;
}

struct hq_config *
hq_config_load(const char *path, struct hq_err *e)
{
	struct hq_config *c = hq_xcalloc(1, sizeof *c);
	char defpath[4096], section[128] = "", *line;
	const char *why;
	long lineno = 0;
	int rc;
	FILE *fp;

	if (!path) {
		if (hq_config_path(defpath, sizeof defpath))
			return c;
		path = defpath;
	}
	fp = fopen(path, "r");
	if (!fp) {
		if (errno == ENOENT)
			return c;
		hq_err_set(e, "%s: %s", path, strerror(errno));
		hq_config_free(c);
		return NULL;
	}
	line = hq_xmalloc(HQ_CONFIG_MAX_LINE + 1);
	while ((rc = next_line(fp, line, &why)) != 0) {
		char *s, *eq;
		lineno++;
		if (rc < 0) {
			hq_err_set(e, "%s:%ld: %s", path, lineno, why);
			goto fail;
		}
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			if (!close || close[1]) {
				hq_err_set(e, "%s:%ld: a section header looks like [llm]",
				    path, lineno);
				goto fail;
			}
			*close = '\0';
			snprintf(section, sizeof section, "%s", trim(s + 1));
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			hq_err_set(e, "%s:%ld: expected 'key = value'", path, lineno);
			goto fail;
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
			goto fail;
		}
		if (add(c, section, key, value)) {
			hq_err_set(e, "%s:%ld: more than " HQ_CONFIG_MAX_KEYS_S
			    " keys", path, lineno);
			goto fail;
		}
	}
	if (ferror(fp)) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		goto fail;
	}
	free(line);
	fclose(fp);
	return c;
fail:
	free(line);
	fclose(fp);
	hq_config_free(c);
	return NULL;
}

const char *
hq_config_get(const struct hq_config *c, const char *section, const char *key)
{
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->e[i].section, section) == 0 &&
		    strcmp(c->e[i].key, key) == 0)
			return c->e[i].value;
	return NULL;
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
	}
	free(c->e);
	free(c);
}
