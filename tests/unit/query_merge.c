/* Unit tests for lib/store/merge.c and lib/query/sleep.c: source priority,
 * pro-rata merging of overlapping cumulative samples, and nights. */
#include <stdlib.h>

#include "hq/merge.h"
#include "hq/sleep.h"
#include "hq/time.h"
#include "tap.h"

static double
total(const struct hq_piece *p, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += p[i].value;
	return s;
}

int
main(void)
{
	struct hq_priority prio;
	struct hq_piece *pc;
	size_t n;
	struct hq_err e;

	hq_merge_priority_parse(&prio, NULL);
	ok(hq_merge_source_class(&prio, "Sam's Apple Watch", NULL) <
	    hq_merge_source_class(&prio, "Sam's iPhone", NULL), "default: Watch before iPhone");
	ok(hq_merge_source_class(&prio, "Sam's iPhone", NULL) <
	    hq_merge_source_class(&prio, "Strava", NULL), "iPhone before apps");
	ok(hq_merge_source_class(&prio, "Health", "<<HKDevice>, name:Apple Watch, model:Watch>") <
	    hq_merge_source_class(&prio, "Health", NULL), "the device model counts too");
	hq_merge_priority_free(&prio);
	hq_merge_priority_parse(&prio, " Oura ,  iPhone");
	is_int(prio.n, 2, "configured list of two");
	ok(hq_merge_source_class(&prio, "Oura Ring", NULL) <
	    hq_merge_source_class(&prio, "Sam's iPhone", NULL) &&
	    hq_merge_source_class(&prio, "Sam's iPhone", NULL) <
	    hq_merge_source_class(&prio, "Sam's Apple Watch", NULL),
	    "configured order first, unlisted after");
	hq_merge_priority_free(&prio);

	/* Watch 0-600 s 1000; phone 300-900 600: half of it uncovered. */
	struct hq_merge_sample a[] = {
		{ 300, 900, 600, 1 }, { 0, 600, 1000, 0 },
	};
	hq_merge_cumulative(a, 2, &pc, &n);
	is_dbl(total(pc, n), 1300, 1e-9, "lower rank counts only where uncovered, pro rata");
	is_int(n, 2, "two pieces");
	is_int(pc[1].start, 600, "the phone's piece starts where the Watch ends");
	free(pc);

	/* Phone sample with a Watch gap inside: 0-1000 (1000), Watch 100-200
	 * and 500-600 and 550-800 → uncovered 0-100, 200-500, 800-1000 = 600 s. */
	struct hq_merge_sample b[] = {
		{ 0, 1000, 1000, 5 }, { 100, 200, 10, 0 }, { 500, 600, 10, 0 }, { 550, 800, 10, 0 },
	};
	hq_merge_cumulative(b, 4, &pc, &n);
	is_dbl(total(pc, n), 30 + 600, 1e-9, "gaps between higher samples are filled, overlaps of the same rank both count");
	free(pc);

	/* Three ranks. */
	struct hq_merge_sample c[] = {
		{ 0, 100, 100, 2 }, { 0, 50, 5, 1 }, { 25, 75, 7, 0 },
	};
	hq_merge_cumulative(c, 3, &pc, &n);
	/* rank0 7 over 25-75; rank1 0-50 uncovered 0-25 → 2.5; rank2 75-100 → 25 */
	is_dbl(total(pc, n), 7 + 2.5 + 25, 1e-9, "three ranks");
	free(pc);

	struct hq_merge_sample d[] = { { 50, 50, 3, 1 }, { 0, 100, 10, 0 }, { 200, 200, 4, 1 } };
	hq_merge_cumulative(d, 3, &pc, &n);
	is_dbl(total(pc, n), 14, 1e-9, "an instant inside a higher interval is covered, outside it counts");
	free(pc);
	struct hq_merge_sample m[] = { { 70, 70, 500, 2 }, { 70, 70, 500, 1 },
	    { 90, 90, 300, 2 }, { 70, 70, 40, 1 } };
	hq_merge_cumulative(m, 4, &pc, &n);
	is_dbl(total(pc, n), 500 + 40 + 300, 1e-9, "an instant at a higher "
	    "instant's time is covered (one meal from two apps), of the same rank both count");
	free(pc);
	hq_merge_cumulative(NULL, 0, &pc, &n);
	is_int(n, 0, "nothing in, nothing out");
	free(pc);

	/* Input in start order (what queries give: one pass per rank) and the
	 * same samples in another order (a sort) give the same pieces, in the
	 * same order: random overlapping samples of three ranks, instants,
	 * equal starts. */
	{
		enum { M = 400 };
		struct hq_merge_sample in[M], rev[M];
		struct hq_piece *p1, *p2;
		size_t n1, n2;
		uint64_t r = 99;
		int same = 1;
		for (int round = 0; round < 50 && same; round++) {
			int64_t t = 0;
			for (int i = 0; i < M; i++) {
				r ^= r << 13;
				r ^= r >> 7;
				r ^= r << 17;
				t += (int64_t)(r % 4 == 0 ? 0 : r % 300);
				int64_t len = r % 7 == 0 ? 0 : (int64_t)(r >> 20) % 900;
				in[i] = (struct hq_merge_sample){ t, t + len,
				    (double)(r % 1000), (r >> 40) % 3 };
			}
			/* rev: reversed order; its sample k is in's M - 1 - k. */
			for (int i = 0; i < M; i++)
				rev[i] = in[M - 1 - i];
			hq_merge_cumulative(in, M, &p1, &n1);
			hq_merge_cumulative(rev, M, &p2, &n2);
			/* Same pieces; ties in start may order differently by
			 * sample index, so compare as sets keyed by sample. */
			same = n1 == n2;
			double s1 = 0, s2 = 0;
			for (size_t i = 0; same && i < n1; i++) {
				same = i == 0 || p1[i - 1].start < p1[i].start ||
				    (p1[i - 1].start == p1[i].start && p1[i - 1].sample < p1[i].sample);
				s1 += p1[i].value * (double)(p1[i].sample + 1) + (double)p1[i].start;
				s2 += p2[i].value * (double)(M - p2[i].sample) + (double)p2[i].start;
			}
			same = same && fabs(s1 - s2) < 1e-6 * fabs(s1);
			free(p1);
			free(p2);
		}
		ok(same, "start-ordered input and any order: the same pieces, sorted");
	}

	/* Nights in Los Angeles. */
	ok(hq_time_set_zone("America/Los_Angeles", &e) == 0, "zone");
	int64_t t0 = hq_time_from_local(2024, 11, 2, 23, 0, 0); /* the night of the DST change */
	int64_t t1 = hq_time_from_local(2024, 11, 3, 7, 0, 0);
	is_int(t1 - t0, 9 * 3600, "23:00 to 07:00 across the fall-back is 9 hours");
	struct hq_sleep_sample s[] = {
		{ t0, t1, HQ_SLEEP_IN_BED, 1 },
		{ t0 + 1800, t0 + 4 * 3600, HQ_SLEEP_CORE, 0 },
		{ t0 + 4 * 3600, t0 + 5 * 3600, HQ_SLEEP_DEEP, 0 },
		{ t0 + 3 * 3600, t0 + 4 * 3600 + 1800, HQ_SLEEP_REM, 0 },   /* overlaps core */
		{ t0 + 1800, t0 + 8 * 3600, HQ_SLEEP_UNSPECIFIED, 3 },     /* a lower app */
		{ hq_time_from_local(2024, 11, 3, 19, 0, 0), hq_time_from_local(2024, 11, 3, 20, 0, 0), HQ_SLEEP_CORE, 0 },
	};
	struct hq_night *nights;
	size_t nn;
	hq_sleep_nights(s, 6, 18, &nights, &nn);
	is_int(nn, 2, "two nights");
	is_int(nights[0].day, hq_time_days_from_civil(2024, 11, 3), "the night is the date it ends");
	is_dbl(nights[0].asleep, 4.5 * 3600, 1e-9, "asleep = union of the preferred source's stages");
	is_dbl(nights[0].in_bed, 9 * 3600, 1e-9, "in bed across DST: 9 real hours");
	is_dbl(nights[0].stage[HQ_SLEEP_DEEP], 3600, 1e-9, "deep");
	is_int(nights[1].day, hq_time_days_from_civil(2024, 11, 4), "sleep ending after 18:00 is the next date's");
	double secs;
	ok(hq_sleep_metric_seconds("sleep_rem", &nights[0], &secs) == 0 && secs == 5400, "sleep_rem metric");
	ok(hq_sleep_metric_seconds("steps", &nights[0], &secs) < 0, "not a sleep metric");
	free(nights);
	is_int(hq_sleep_stage_from_name("asleep_core"), HQ_SLEEP_CORE, "stage names");
	is_int(hq_sleep_stage_from_name("in_bed"), HQ_SLEEP_IN_BED, "in bed");
	is_int(hq_sleep_stage_from_name("nonsense"), -1, "unknown stage");
	return done_testing();
}
