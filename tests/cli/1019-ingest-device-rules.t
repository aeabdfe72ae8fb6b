#!/usr/bin/env bash
# Issue 28's rules for device files, on files crafted for them
# (tests/fixtures/workouts/crafted: the FIT files written and read back by
# Garmin's own FIT SDK, make.mjs, which printed the facts held here; the
# GPX and TCX files and their distances by make_tracks.py, from the rule):
# - a session's laps are its own (first_lap_index, num_laps), else those
#   starting inside its span; legs whose elapsed times round past the next
#   leg's start end there (multisport-laps.fit, multisport-spans.fit);
# - a session ends by its own timestamp when that comes before start +
#   elapsed: early-end.fit's first leg (elapsed 3000 s, stamped at 1800 s)
#   no longer swallows the run, nor its heart rate;
# - hr messages (HRM-Swim): their beats merged into the records as the SDK
#   merges them (hr-swim.fit: 50 of 61 records, sum 6722, max 141);
# - a file that ends early (truncated.fit: early-end.fit's first 10,000
#   bytes) imports its 1656 complete records as a partial workout, exit 1;
#   --strict refuses it;
# - a GPX or TCX without a distance gets its track's (R = 6371000 m):
#   runner-1.gpx 2219.04 m, runner-2.gpx 3330.09 m, runner.tcx 1478.13 m,
#   which hq-report compare workouts then shows with pace and efficiency;
# - an empty GPX or TCX is said to hold no activity; a gzip of a GPX is
#   said as gpx.gz; the FIT profile's product names; a file's local time
#   said once when nobody chose the zone.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
need_fixtures workouts/crafted
C=$HQ_FIXTURES/workouts/crafted
HK=HKQuantityTypeIdentifier
T0=1717221600              # 2024-06-01T06:00:00Z

q() { sqlite3 -separator '|' "$HQ_DB" "$1"; }
imp() {
	export HQ_DB="$T/$(basename "$1").db"
	run hq-ingest "$@"
}
# legs: "type|end - start|laps" oldest first
legs() {
	q "SELECT substr(activity_type, 22), end - start, (SELECT count(*)
	   FROM workout_event e WHERE e.workout_id = w.id
	   AND e.type = 'HKWorkoutEventTypeLap') FROM workout w ORDER BY start" |
	    tr '\n' ' '
}
hr() {
	q "SELECT count(*), sum(value), max(value) FROM sample WHERE metric_id =
	   (SELECT id FROM metric WHERE identifier = '${HK}HeartRate')"
}

# Laps and legs
imp "$C/multisport-laps.fit"
is "$rc" 0 "a triathlon imports"
is "$(legs)" "Swimming|600|1 Transition|120|1 Cycling|1800|3 Transition|60|1 Running|1200|2 " \
    "each leg ends where the next starts; its laps are those first_lap_index and num_laps give it (1 1 3 1 2)"
is "$(q "SELECT s.name FROM source s JOIN workout w ON w.source_id = s.id LIMIT 1")" \
    "Garmin fenix 7 (SN 1234567)" "the device by the FIT profile's name (product 3906)"
imp "$C/multisport-spans.fit"
is "$(legs)" "Swimming|600|1 Transition|120|1 Cycling|1800|3 Transition|60|1 Running|1200|2 " \
    "without the index: the laps starting inside each leg's span"

# A leg stamped before start + elapsed
imp "$C/early-end.fit"
is "$(legs)" "Cycling|1800|0 Transition|100|0 Running|1500|0 " \
    "the first leg ends at its timestamp (1800 s), not start + elapsed (3000 s)"
run hq-query workouts --format jsonl
is "$(printf '%s\n' "$out" | grep -c '"type"')" 3 "all three legs listed"
run hq-query heart_rate --from 2024-06-01 --to 2024-06-01 --agg count --tz UTC --format jsonl
like "$out" '"count":3400,' "the day's heart rate counts all 3400 records"

# hr messages
imp "$C/hr-swim.fit"
is "$(hr)" "50|6722.0|141.0" \
    "hr messages: 50 records take the beats' rounded mean (the SDK's mergeHeartRates: sum 6722, max 141)"
is "$(q "SELECT group_concat((start - $T0) || ':' || value, ' ') FROM (SELECT start,
   CAST(value AS INTEGER) value FROM sample WHERE metric_id = (SELECT id FROM metric
   WHERE identifier = '${HK}HeartRate') AND start - $T0 IN (5, 150, 185, 250) ORDER BY start)")" \
    "5:123 150:132 185:128 250:132" \
    "record by record as the SDK: the first, across the full event_timestamp array, after the 9 s gap, the last"

# A file that ends early
imp "$C/truncated.fit"
is "$rc" 1 "a file cut inside a record: imported in part, exit 1"
like "$err" "truncated\.fit: byte 10000: .*1656|truncated\.fit: byte 10000: .*marked partial" \
    "the byte where it stops is said"
is "$(q "SELECT substr(activity_type, 22), start - $T0, end - start FROM workout")" "Other|0|1655" \
    "one workout from the first whole record to the last (06:00:00 to 06:27:35)"
is "$(hr)" "1656|239220.0|159.0" "its 1656 whole records' heart rates (the SDK: 1656, sum 239220)"
is "$(q "SELECT value FROM workout_meta WHERE key = 'HQPartial'")" 1 "marked partial"
export HQ_DB="$T/strict.db"
run hq-ingest --strict "$C/truncated.fit"
is "$rc" 2 "--strict refuses it"
like "$err" "byte 10000: .*nothing from this file was imported" "naming the byte"
is "$(q 'SELECT count(*) FROM sample')" 0 "nothing stored"

# GPX and TCX without a distance
export HQ_DB="$T/runner.db"
run hq-ingest -q "$C/runner-1.gpx" "$C/runner-2.gpx" "$C/runner.tcx"
is "$rc" 0 "a runner's GPX and TCX files import"
is "$(q "SELECT group_concat(printf('%.2f', distance), ' ') FROM (SELECT distance FROM workout ORDER BY start)")" \
    "2219.04 3330.09 1478.13" "each workout's distance is its track's great-circle sum (R = 6371000 m)"
run hq-query workout 1 --splits 1 --format jsonl
is "$(printf '%s\n' "$out" | python3 -c 'import json,sys; print("%.2f" % (1000 * sum(json.loads(l)["km"] for l in sys.stdin)))')" \
    2219.04 "the distance --splits measures"
run hq-report compare workouts --format jsonl
like "$out" '"field":"distance_km","unit":"km","workout_id":2,[^}]*"value":3\.33009' \
    "compare workouts shows the GPX run's distance"
like "$out" '"field":"pace_min_per_km","unit":"min/km","workout_id":1,[^}]*"value":4\.49' \
    "its pace"
like "$out" '"field":"efficiency","unit":"m/beat","workout_id":1,[^}]*"value":1\.4' \
    "and its efficiency"

# Empty files, a gzip, the zone
for f in empty.gpx empty.tcx; do
	export HQ_DB="$T/empty.db"
	run hq-ingest "$C/$f"
	ok $(( rc != 0 ? 0 : 1 )) "$f is no import"
	like "$err" "$f: no activity in this (GPX|TCX) file" "$f: said to hold no activity"
done
gzip -c "$C/runner-1.gpx" >"$T/run.gpx.gz"
export HQ_DB="$T/gz.db"
run hq-ingest "$T/run.gpx.gz"
like "$out" '"format":"gpx.gz"' "a gzip of a GPX file is said as gpx.gz"
export HQ_DB="$T/zone.db"
unset HQ_TZ TZ
run hq-ingest "$C/multisport-laps.fit" "$C/runner-2.gpx" "$C/hr-swim.fit"
is "$rc" 0 "device files only, no zone chosen"
is "$(printf '%s\n' "$err" | grep -c 'states its local time')" 1 "a local time unlike the zone's said once"
like "$err" "multisport-laps\.fit states its local time as UTC\+02:00" \
    "... the FIT activity's (local_timestamp two hours ahead)"
like "$err" "counted in this system's zone \(UTC\+00:00 then\)" "the zone days are counted in"
like "$err" "to choose one: --tz ZONE" "how to choose"
export HQ_DB="$T/zone2.db"
run env TZ=Europe/Paris hq-ingest "$C/multisport-laps.fit"
unlike "$err" "states its local time" "nothing said when a zone was chosen"
done_testing
