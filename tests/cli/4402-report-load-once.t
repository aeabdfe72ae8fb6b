#!/usr/bin/env bash
# Issue 22's "load counts once" for hq-report load (issue 21): a ride
# imported from Apple Health (tests/cli/data/same-ride-apple.xml, the watch's
# recording of the Edge 810's ride, three heart rates inside it), then from
# its FIT file. Before and after the second import: hq-report load counts
# one workout that day, the day's heart rate and hq-query workouts agree,
# and after it the day's load is the FIT's workout's alone (the reference
# computes it with the same-activity pairs left out), not the two added.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
command -v python3 >/dev/null || skip_all "python3 missing"
need_fixtures workouts/fitparse/Edge810-Vector-2013-08-16-15-35-10.fit
FIT=$HQ_FIXTURES/workouts/fitparse/Edge810-Vector-2013-08-16-15-35-10.fit
APPLE=$HQ_ROOT/tests/cli/data/same-ride-apple.xml
REF=$HQ_ROOT/tests/data/athlete/reference.py
S=(--max-hr 190 --rest-hr 50)
day() {
	hq-report load --from 2013-08-16 --to 2013-08-16 "${S[@]}" --format jsonl |
	    python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print(r["workouts"], "%.10g" % r["load"])'
}
dayhr() {
	hq-query heart_rate --from 2013-08-16 --to 2013-08-16 --by day \
	    --agg avg,count --format csv | tail -1 | cut -d, -f6,7
}
nworkouts() { hq-query workouts --format jsonl | wc -l | tr -d ' '; }
refload() {
	python3 "$REF" rows "$HQ_DB" "$HQ_TZ" load --from 2013-08-16 --to 2013-08-16 \
	    "${S[@]}" | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print(r["workouts"], "%.10g" % r["load"])'
}

hq-ingest -q "$APPLE" >/dev/null
before=$(day)
is "$before" "$(refload)" "Apple Health alone: one workout, its load ($before)"
is "$(dayhr)" "119,5" "the day's heart rate: the watch's five samples"
is "$(nworkouts)" 1 "hq-query workouts: one"
watch=${before#* }

hq-ingest -q "$FIT" >/dev/null
after=$(day)
is "$after" "$(refload)" "with the FIT: one workout, the FIT's load ($after)"
is "${after%% *}" 1 "the ride counts once in the day's load"
fit=${after#* }
is "$(nworkouts)" 1 "hq-query workouts: still one"
w=$(sqlite3 "$HQ_DB" "SELECT printf('%.10g,%d', (sum(value) + 130) / (count(*) + 2), count(*) + 2)
   FROM sample WHERE metric_id = (SELECT id FROM metric WHERE identifier =
   'HKQuantityTypeIdentifierHeartRate') AND source_id = (SELECT id FROM
   source WHERE name = 'Garmin Edge 810 (SN 3866465233)')")
is "$(dayhr)" "$w" "the day's heart rate: the FIT's and the watch's two outside the ride"
sqlite3 "$HQ_DB" "DELETE FROM workout_same"
both=$(day)
is "${both%% *} $(python3 -c "print(abs(float('${both#* }') - ($fit + $watch)) < 1e-6)")" "2 True" \
    "(the two recordings, were they not paired, would add up: $both)"

done_testing
