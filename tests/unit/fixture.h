/*
 * fixture.h — what the unit tests of file readers share (header-only):
 * the path of a real file under $HQ_FIXTURES (tests/fixtures, the
 * repository's own copies, when unset: the tests run from the repository's
 * root), a whole file read into memory, the zone every test runs in, a
 * test store's directory removed, and SQL a test needs to have run.
 */
#ifndef HQ_TEST_FIXTURE_H
#define HQ_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hq/store.h"
#include "hq/time.h"

__attribute__((unused)) static const char *
fixture_path(const char *sub, const char *name)
{
	static char path[1024];
	const char *dir = getenv("HQ_FIXTURES");

	snprintf(path, sizeof path, "%s/%s/%s", dir ? dir : "tests/fixtures",
	    sub, name);
	return path;
}

/* The file in a malloc'd buffer (NUL-terminated; free() it), or NULL. */
__attribute__((unused)) static char *
fixture_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	*len = 0;
	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	if (buf) {
		*len = fread(buf, 1, (1 << 20) - 1, f);
		buf[*len] = '\0';
	}
	fclose(f);
	return buf;
}

/* A test store's directory removed: hq.db, its -wal and -shm, the
 * directory. */
__attribute__((unused)) static void
fixture_remove_store(const char *dir)
{
	static const char *const files[] = { "hq.db", "hq.db-wal", "hq.db-shm" };
	char path[1024];

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* Statements that set a test's store up: a failure ends the test. */
__attribute__((unused)) static void
fixture_sql(struct hq_store *s, const char *q)
{
	struct hq_err e;

	if (hq_store_exec(s, q, &e) != 0) {
		printf("# SQL failed: %s\n# %s\n", e.msg, q);
		exit(1);
	}
}

/* Dates in these tests are Los Angeles dates. */
__attribute__((unused)) static int
fixture_zone(void)
{
	struct hq_err e;

	if (hq_time_set_zone("America/Los_Angeles", &e)) {
		printf("Bail out! %s\n", e.msg);
		return -1;
	}
	return 0;
}

#endif
