/* The same activity once in the athlete's load (issue 22): an Apple Watch
 * workout (tests/cli/data/same-ride-apple.xml) and the Edge 810's FIT file
 * of the same ride. hq_athlete_each, which the load series and every
 * athlete report walk, meets the ride once, as the FIT's recording, after
 * both imports; before the FIT, the watch's. */
#include <stdio.h>
#include <string.h>

#include "hq/athlete_load.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/reader.h"
#include "hq/store.h"
#include "fixture.h"
#include "tap.h"

static struct hq_err e;

struct seen {
	int n;
	int64_t id;
};

static int
count(void *arg, const struct hq_athlete_workout *w,
    const struct hq_athlete_figures *f)
{
	struct seen *s = arg;

	(void)f;
	s->n++;
	s->id = w->id;
	return 0;
}

static int
import(struct hq_store *s, const char *path)
{
	const struct hq_reader *r;
	struct hq_input in;
	struct hq_ingest *ig;
	int rc = -1;

	if ((r = hq_reader_open(&in, path, NULL, &e))) {
		ig = hq_ingest_start(s, path, r->name, -1, &e);
		rc = ig ? r->read(&in, &(struct hq_read_opts){ 0 }, ig, &e) : -1;
		if (rc == 0)
			rc = hq_ingest_clinical_reports(ig, &e);
		if (ig)
			rc = rc == 0 ? hq_ingest_commit(ig, &e) :
			    (hq_ingest_abort(ig), -1);
		hq_input_close(&in);
	}
	if (rc)
		printf("# %s: %s\n", path, e.msg);
	return rc;
}

static struct seen
walk(struct hq_store *s)
{
	struct hq_athlete a;
	struct seen n = { 0 };

	hq_athlete_init(&a);
	if (hq_athlete_defaults(&a, s, &e) ||
	    hq_athlete_each(s, &a, NULL, 0, 0, 0, HQ_ATHLETE_LOAD_ONLY, count,
	    &n, &e) < 0) {
		printf("# %s\n", e.msg);
		n.n = -1;
	}
	return n;
}

int
main(void)
{
	char dir[] = "/tmp/hq-athlete-same-XXXXXX", db[256];
	struct hq_store *s;
	struct seen n;

	if (fixture_zone() || !mkdtemp(dir))
		return 1;
	snprintf(db, sizeof db, "%s/hq.db", dir);
	s = hq_store_open(db, HQ_STORE_CREATE, &e);
	if (!ok(s != NULL, "a store"))
		return done_testing();
	ok(import(s, "tests/cli/data/same-ride-apple.xml") == 0,
	    "the Apple workout imported");
	n = walk(s);
	is_int(n.n, 1, "the watch's workout alone: walked");
	ok(import(s, fixture_path("workouts/fitparse",
	    "Edge810-Vector-2013-08-16-15-35-10.fit")) == 0,
	    "the Edge 810's FIT imported");
	n = walk(s);
	is_int(n.n, 1, "with the FIT: the ride walked once");
	sqlite3_stmt *q;
	int64_t want = 0;
	if (hq_store_prepare(s, "SELECT w.id FROM workout w JOIN source s ON"
	    " s.id = w.source_id WHERE s.name LIKE 'Garmin Edge 810%'", &q,
	    &e) == 0) {
		if (sqlite3_step(q) == SQLITE_ROW)
			want = sqlite3_column_int64(q, 0);
		sqlite3_finalize(q);
	}
	ok(want > 0 && n.id == want, "as the FIT's recording (%lld, %lld)",
	    (long long)n.id, (long long)want);
	hq_store_close(s);
	fixture_remove_store(dir);
	return done_testing();
}
