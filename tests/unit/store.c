/* Unit tests for lib/store/store.c: creation mode, migrations, interning and
 * the natural key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hq/store.h"
#include "tap.h"

int
main(void)
{
	char dir[] = "/tmp/hq-store-test.XXXXXX", path[256], wal[300];
	struct hq_err e;
	struct stat st;
	struct hq_store *s;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/sub/dir/hq.db", dir);
	snprintf(wal, sizeof wal, "%s-wal", path);

	s = hq_store_open(path, HQ_STORE_READONLY, &e);
	ok(s == NULL, "read-only open of a missing store fails");
	ok(strstr(e.msg, "hq-ingest") != NULL, "and says how to make one");

	umask(022);
	s = hq_store_open(path, HQ_STORE_CREATE, &e);
	ok(s != NULL, "create");
	if (!s)
		return done_testing();
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "store is 0600 despite umask 022");
	snprintf(wal, sizeof wal, "%s/sub/dir", dir);
	ok(stat(wal, &st) == 0 && (st.st_mode & 0777) == 0700, "new directories are 0700");
	is_int(hq_store_schema_version(s), hq_store_latest_version(), "migrated to the latest version");

	int64_t hr = hq_store_metric_id(s, "HKQuantityTypeIdentifierHeartRate", 1, &e);
	int64_t watch = hq_store_source_id(s, "Apple Watch", 1, &e);
	ok(hr > 0 && watch > 0, "interned ids");
	is_int(hq_store_metric_id(s, "HKQuantityTypeIdentifierHeartRate", 0, &e), hr, "lookup finds it again");
	is_int(hq_store_metric_id(s, "HKQuantityTypeIdentifierNope", 0, &e), 0, "lookup of unknown is 0");

	struct hq_sample smp = { .metric_id = hr, .source_id = watch,
	    .start = 1000, .end = 1000, .value = 72, .unit = "count/min" };
	ok(hq_store_begin(s, &e) == 0, "begin");
	is_int(hq_store_add_sample(s, &smp, &e), 1, "first insert");
	is_int(hq_store_add_sample(s, &smp, &e), 0, "same natural key is a duplicate");
	smp.unit = "bpm";
	smp.created = 5;
	is_int(hq_store_add_sample(s, &smp, &e), 0, "unit and creation are not part of the key");
	smp.value = 73;
	is_int(hq_store_add_sample(s, &smp, &e), 1, "another value is new");
	ok(hq_store_commit(s, &e) == 0, "commit");

	/* A rollback undoes interning too. */
	hq_store_begin(s, &e);
	int64_t tmp = hq_store_source_id(s, "Ghost", 1, &e);
	ok(tmp > 0, "source inside a transaction");
	hq_store_rollback(s);
	is_int(hq_store_source_id(s, "Ghost", 0, &e), 0, "gone after rollback");

	/* Ids back to names, from the same cache: the whole table in name
	 * order, loaded again when a name is interned or rolled back. */
	ok(hq_store_load_names(s, &e) == 0, "names load");
	is_str(hq_store_metric_name(s, hr), "HKQuantityTypeIdentifierHeartRate", "metric name of an id");
	is_str(hq_store_source_name(s, watch), "Apple Watch", "source name of an id");
	ok(hq_store_source_name(s, watch + 1000) == NULL, "an unknown id has no name");
	hq_store_begin(s, &e);
	int64_t zz = hq_store_source_id(s, "Zepp", 1, &e);
	int64_t aa = hq_store_source_id(s, "Aura", 1, &e);
	int64_t dev = hq_store_device_id(s, "name:iPhone", &e);
	size_t nsrc = 0;
	const char *const *src = hq_store_source_names(s, &nsrc);
	is_int((long long)nsrc, 3, "names interned after the load are found");
	ok(nsrc == 3 && strcmp(src[0], "Apple Watch") == 0 && strcmp(src[1], "Aura") == 0 &&
	    strcmp(src[2], "Zepp") == 0, "in name order");
	is_int(hq_store_source_order(s, zz), 2, "a source's place in name order");
	is_int(hq_store_source_order(s, aa), 1, "another's");
	is_int(hq_store_source_order(s, 12345), -1, "no place for an unknown id");
	is_str(hq_store_device_name(s, dev), "name:iPhone", "device name of an id");
	is_int(hq_store_source_id(s, "Aura", 0, &e), aa, "the forward look-up still finds it");
	hq_store_rollback(s);
	ok(hq_store_source_name(s, zz) == NULL, "rolled back: no name");
	hq_store_source_names(s, &nsrc);
	is_int((long long)nsrc, 1, "and the list has what the store has");
	hq_store_close(s);

	/* Reopen read-only: the data is there, nothing to migrate. */
	s = hq_store_open(path, HQ_STORE_READONLY, &e);
	ok(s != NULL, "reopen read-only");
	if (s) {
		sqlite3_stmt *st2;
		hq_store_prepare(s, "SELECT count(*) FROM sample", &st2, &e);
		sqlite3_step(st2);
		is_int(sqlite3_column_int(st2, 0), 2, "two samples stored");
		sqlite3_finalize(st2);
		hq_store_close(s);
	}

	/* A store from a newer hq is refused, not damaged. */
	s = hq_store_open(path, 0, &e);
	hq_store_exec(s, "PRAGMA user_version = 999", &e);
	hq_store_close(s);
	s = hq_store_open(path, 0, &e);
	ok(s == NULL && strstr(e.msg, "newer") != NULL, "newer schema refused");
	hq_store_close(s);

	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return done_testing();
}
