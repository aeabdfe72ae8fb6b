/* Files in a batch (ingest.h): one transaction, a savepoint a file. A
 * file taken back takes back what its reader's parts made, even a part
 * its reader left open on an error (with the parts' own savepoint name
 * for the file, the undo rolled back the open part alone and the file's
 * first rows stayed, committed with the batch); samples written later
 * (hq_ingest_record_later) are counted at the flush and dropped with a
 * part undone; the batch's commit brings the rollups up to date; a batch
 * aborted leaves nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/ingest.h"
#include "hq/store.h"
#include "tap.h"

static long
one_long(struct hq_store *s, const char *sql)
{
	sqlite3_stmt *st;
	long v = -1;
	struct hq_err e;

	if (hq_store_prepare(s, sql, &st, &e))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static struct hq_ingest_record
hr(int64_t t, double v)
{
	return (struct hq_ingest_record){
		.type = "HKQuantityTypeIdentifierHeartRate", .source = "Strap",
		.unit = "count/min", .value_num = v, .has_value = 1,
		.start = t, .end = t,
	};
}

int
main(void)
{
	char dir[] = "/tmp/hq-unit-batch.XXXXXX", path[256];
	struct hq_err e;
	struct hq_store *s;
	struct hq_ingest_batch *b;
	struct hq_ingest *ig;
	struct hq_ingest_record r;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	s = hq_store_open(path, HQ_STORE_CREATE, &e);
	ok(s != NULL, "store opened");
	if (!s)
		return done_testing();

	b = hq_ingest_batch_begin(s, &e);
	ok(b != NULL, "a batch begins");
	/* File A: 40 samples written later (32 in one statement, 8 by the
	 * flush at the commit), one of them twice. */
	ig = hq_ingest_start_in(b, "a.fit", "fit", -1, &e);
	ok(ig != NULL, "file A starts in the batch");
	int rc = 0;
	for (int i = 0; i < 40; i++) {
		r = hr(1000 + i, 100 + i);
		rc |= hq_ingest_record_later(ig, &r, &e);
	}
	r = hr(1000, 100);
	rc |= hq_ingest_record_later(ig, &r, &e);
	is_int(rc, 0, "41 records taken");
	is_int(hq_ingest_counts(ig)->records, 41, "41 read");
	ok(hq_ingest_flush(ig, &e) == 0, "flushed");
	is_int(hq_ingest_counts(ig)->inserted, 40, "40 inserted at the flush");
	is_int(hq_ingest_counts(ig)->duplicates, 1, "1 duplicate");
	ok(hq_ingest_commit(ig, &e) == 0, "file A kept");

	/* File B: a sample, then a part its reader leaves open (an error
	 * before it kept or undid it), then the file is taken back. */
	ig = hq_ingest_start_in(b, "b.fit", "fit", -1, &e);
	ok(ig != NULL, "file B starts");
	r = hr(5000, 150);
	is_int(hq_ingest_record(ig, &r, NULL, &e), 1, "B's first sample in");
	ok(hq_ingest_part_begin(ig, &e) == 0, "a part of B begins");
	r = hr(5001, 151);
	is_int(hq_ingest_record_later(ig, &r, &e), 0, "a sample of the part waits");
	hq_ingest_abort(ig);

	/* File C: a part undone drops its waiting samples, one kept. */
	ig = hq_ingest_start_in(b, "c.fit", "fit", -1, &e);
	ok(ig != NULL, "file C starts");
	ok(hq_ingest_part_begin(ig, &e) == 0, "a part of C begins");
	r = hr(7000, 90);
	hq_ingest_record_later(ig, &r, &e);
	hq_ingest_part_undo(ig);
	ok(hq_ingest_part_begin(ig, &e) == 0, "another part of C begins");
	r = hr(7001, 91);
	hq_ingest_record_later(ig, &r, &e);
	ok(hq_ingest_part_keep(ig, &e) == 0, "and is kept");
	is_int(hq_ingest_counts(ig)->inserted, 1, "C: the kept part's sample counted");
	ok(hq_ingest_commit(ig, &e) == 0, "file C kept");
	ok(hq_ingest_batch_commit(b, &e) == 0, "the batch commits");

	is_int(one_long(s, "SELECT count(*) FROM sample WHERE start >= 5000 AND "
	    "start < 6000"), 0, "nothing of file B, its open part's rows neither");
	is_int(one_long(s, "SELECT count(*) FROM sample"), 41, "A's 40 and C's 1");
	is_int(one_long(s, "SELECT count(*) FROM import WHERE path IN "
	    "('a.fit', 'c.fit')"), 2, "the imports of A and C");
	is_int(one_long(s, "SELECT count(*) FROM import"), 2, "and no other");
	is_int(one_long(s, "SELECT sum(inserted) FROM import"), 41,
	    "their counts");
	is_int(one_long(s, "SELECT last_sample_id FROM rollup_state"),
	    one_long(s, "SELECT max(id) FROM sample"),
	    "the rollups cover every sample of the batch");
	is_int(one_long(s, "SELECT count(*) FROM sample WHERE start = 7000"), 0,
	    "C's undone part: nothing");

	/* A batch aborted: nothing of its files. */
	b = hq_ingest_batch_begin(s, &e);
	ig = b ? hq_ingest_start_in(b, "d.fit", "fit", -1, &e) : NULL;
	ok(ig != NULL, "file D starts in a new batch");
	r = hr(9000, 80);
	hq_ingest_record_later(ig, &r, &e);
	ok(hq_ingest_commit(ig, &e) == 0, "file D kept in its batch");
	hq_ingest_batch_abort(b);
	is_int(one_long(s, "SELECT count(*) FROM import"), 2,
	    "the batch aborted: no import of D");
	is_int(one_long(s, "SELECT count(*) FROM sample"), 41, "nor its sample");

	hq_store_close(s);
	unlink(path);
	char p2[300];
	snprintf(p2, sizeof p2, "%s-wal", path);
	unlink(p2);
	snprintf(p2, sizeof p2, "%s-shm", path);
	unlink(p2);
	rmdir(dir);
	return done_testing();
}
