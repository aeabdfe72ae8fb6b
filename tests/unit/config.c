/* lib/base/config.c on hostile files: a line or a file past its bound is an
 * error naming file:line, not unbounded memory (getline) or quadratic
 * time (a linear search per key); found reading it for fuzz_config. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/config.h"
#include "tap.h"

static struct hq_config *
load(const char *path, const char *text, size_t len, struct hq_err *e)
{
	FILE *fp = fopen(path, "wb");

	if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp))
		exit(1);
	return hq_config_load(path, e);
}

int
main(void)
{
	char path[] = "/tmp/hq-config-test.XXXXXX";
	struct hq_config *c;
	struct hq_err e;
	char *big;
	size_t n;
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);

	/* A value at the limit is fine; one byte more is not. */
	big = malloc(1 << 20);
	n = (size_t)snprintf(big, 64, "[llm]\nmodel = ");
	memset(big + n, 'x', HQ_CONFIG_MAX_LINE - 8);
	n += HQ_CONFIG_MAX_LINE - 8;
	big[n++] = '\n';
	c = load(path, big, n, &e);
	ok(c && strlen(hq_config_get(c, "llm", "model")) == HQ_CONFIG_MAX_LINE - 8,
	    "a line of %d bytes is read", HQ_CONFIG_MAX_LINE);
	hq_config_free(c);
	n = (size_t)snprintf(big, 64, "[llm]\nmodel = ");
	memset(big + n, 'x', 1000000);
	n += 1000000;
	c = load(path, big, n, &e);
	ok(c == NULL, "a line of 1 MB is an error");
	ok(c == NULL && strstr(e.msg, ":2: a line longer than") != NULL,
	    "naming file:line (%s)", c ? "" : e.msg);
	hq_config_free(c);

	/* A line with a NUL in it is not silently cut. */
	c = load(path, "[llm]\nmodel = a\0b\n", 18, &e);
	ok(c == NULL && strstr(e.msg, ":2:") != NULL, "a NUL byte: an error naming the line");
	hq_config_free(c);

	/* Keys: up to the limit, then an error, in linear time. */
	n = 0;
	for (int i = 0; i <= HQ_CONFIG_MAX_KEYS; i++)
		n += (size_t)snprintf(big + n, 64, "k%d = v\n", i);
	c = load(path, big, n, &e);
	ok(c == NULL && strstr(e.msg, "more than") != NULL,
	    "%d keys: an error (%s)", HQ_CONFIG_MAX_KEYS + 1, c ? "" : e.msg);
	hq_config_free(c);
	n = 0;
	for (int i = 0; i < HQ_CONFIG_MAX_KEYS; i++)
		n += (size_t)snprintf(big + n, 64, "k%d = v\n", i);
	c = load(path, big, n, &e);
	ok(c != NULL && hq_config_get(c, "", "k0") != NULL, "%d keys are read",
	    HQ_CONFIG_MAX_KEYS);
	hq_config_free(c);
	free(big);
	unlink(path);
	return done_testing();
}
