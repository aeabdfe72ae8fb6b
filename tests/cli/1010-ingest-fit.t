#!/usr/bin/env bash
# FIT activity files into the store (lib/read/fitfile.c, activity.c): every
# FIT fixture, each into a store of its own, checked against the facts of
# tests/fixtures/workouts/README.md (measured by Garmin's SDK, fit-file-parser,
# GPSBabel and fitdecode, not by hq): workouts, their type, start, duration,
# source, laps and pauses; heart-rate and power samples (count, mean, max);
# route points. The broken files are refused whole with their byte offset
# and the store unchanged, those that merely end early imported in part
# (exit 1, the byte said, the workout marked partial; --strict refuses
# them); importing a file again adds nothing. Where hq's rules were
# corrected (issue 28), the expectations are Garmin's SDK's: a leg ends by
# its own timestamp (the FR920XT's swim, 1987 s, not 1988), its laps are
# its own, the hr messages' beats merged into the records
# (mergeHeartRates: every one of the 1773 records has a heart rate).
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
need_fixtures workouts/fitparse workouts/fit-parser/garmin-stamina.fit
W=$HQ_FIXTURES/workouts/fitparse
HK=HKQuantityTypeIdentifier

# imp FILE: a store of its own, the file imported into it.
imp() {
	export HQ_DB="$T/$(basename "$1").db"
	run hq-ingest "$1"
}
q() { sqlite3 -separator ' ' "$HQ_DB" "$1"; }
# metric NAME: "count mean max" of its samples (mean to 2 places).
metric() {
	q "SELECT count(*), printf('%.2f', avg(value)), max(value) FROM sample
	   WHERE metric_id = (SELECT id FROM metric WHERE identifier = '$HK$1')"
}
# workouts: "type|source|start|end - start|duration", oldest first
workouts() {
	q "SELECT substr(activity_type, 22) || '|' || s.name || '|' ||
	   strftime('%Y-%m-%dT%H:%M:%SZ', start, 'unixepoch') || '|' ||
	   (end - start) || '|' || duration FROM workout w JOIN source s
	   ON s.id = w.source_id ORDER BY start"
}
events() {
	q "SELECT count(*) FROM workout_event WHERE type = 'HKWorkoutEventType$1'"
}
# route points of a route of a workout (none astray)
points() {
	q "SELECT count(*) FROM route_point p JOIN route r ON r.id = p.route_id
	   JOIN workout w ON w.id = r.workout_id"
}

imp "$W/garmin-fenix-5-run.fit"
is "$rc" 0 "fenix 5 run imports"
is "$(workouts)" "Running|Garmin fenix 5 (SN 3945849289)|2017-06-11T14:34:09Z|57|56.887" \
    "fenix 5 run: one running workout, the device as source, timer time"
is "$(metric HeartRate)" "21 84.95 112.0" "fenix 5 run: HR 21, mean 84.95, max 112"
is "$(points)" 21 "fenix 5 run: 21 route points"
is "$(events Lap) $(events Pause)" "1 0" \
    "fenix 5 run: 1 lap; the stop_all that ends it is no pause"
is "$(q 'SELECT count(*) FROM route_point WHERE ele IS NULL')" 0 \
    "route points carry their altitude"
like "$out" '"workouts":1,' "summary counts the workout"
like "$out" '"route_points":21,' "summary counts the route points"

imp "$W/garmin-fenix-5-walk.fit"
is "$(workouts)" "Walking|Garmin fenix 5 (SN 3945849289)|2017-06-11T14:32:51Z|45|45.379" \
    "fenix 5 walk: walking"
is "$(metric HeartRate) $(points)" "17 75.35 82.0 17" "fenix 5 walk: HR 17 mean 75.35, 17 points"

imp "$W/activity-small-fenix2-run.fit"
is "$(workouts)" "Running|Garmin fenix 2 (SN 3882015183)|2015-08-15T14:45:08Z|2832|2832.0" \
    "fenix 2 run: running, no sub-sport"
is "$(metric HeartRate)" "2808 153.98 178.0" "fenix 2: HR 2808 mean 153.98 (one 0xFF skipped)"
like "$err" "1 heart rates marked invalid in the file \(skipped\)" "the invalid HR is warned"
like "$out" '"skipped":1,' "and counted"
is "$(events Lap) $(points)" "4 2809" "fenix 2: 4 laps, 2809 points"

imp "$W/Edge810-Vector-2013-08-16-15-35-10.fit"
is "$(workouts)" "Cycling|Garmin Edge 810 (SN 3866465233)|2013-08-16T18:05:10Z|4700|4700.05" \
    "Edge 810: cycling"
is "$(metric HeartRate)" "4671 153.86 176.0" "Edge 810: HR 4671 mean 153.86 max 176"
is "$(metric CyclingPower)" "4700 275.49 619.0" "Edge 810: power 4700 mean 275.49 (zeros kept) max 619 W"
is "$(metric CyclingCadence | cut -d' ' -f1)" 4634 "Edge 810: cadence 4634"
is "$(events Lap) $(points)" "8 4700" "Edge 810: 8 laps, 4700 points"

imp "$W/2019-02-17-062644-ELEMNT-297E-195-0.fit"
is "$(workouts)" "Cycling|Wahoo product 28 (SN 1231627776)|2019-02-17T06:26:44Z|23595|13471.0" \
    "Wahoo ELEMNT: big-endian file, elapsed 23595 s, timer 13471 s"
is "$(metric HeartRate)" "13402 124.19 170.0" "ELEMNT: HR 13402 mean 124.19 max 170"
is "$(metric CyclingPower)" "13346 102.63 648.0" "ELEMNT: power 13346 mean 102.63 max 648"
is "$(events Pause) $(events Resume)" "55 55" \
    "ELEMNT: 56 timer starts, so 55 pauses resumed (the last stop ends it)"
is "$(points)" 13348 "ELEMNT: 13348 points"

imp "$W/developer-types-sample.fit"
is "$(workouts | cut -d'|' -f1,2)" "Running|Stryd (SN 2147483647)" "Stryd: running, source the manufacturer"
is "$(metric RunningPower)" "3424 218.73 314.0" "Stryd: running power 3424 mean 218.73 max 314"
is "$(metric HeartRate)" "3424 130.84 146.0" "Stryd: HR 3424 mean 130.84"

imp "$W/garmin-edge-500-activity.fit"
is "$(workouts)" "Cycling|Garmin Edge 500 (SN 3820987521)|2011-09-25T13:00:21Z|12691|10641.06" \
    "Edge 500: elapsed 12691, timer 10641.06"
set -- $(metric HeartRate)
num_near "$2" 162.85 0.005 "Edge 500: HR mean 162.85"
ok $(( $1 <= 10686 && $1 >= 10686 - 15 ? 0 : 1 )) \
    "Edge 500: HR 10686 read, a repeated second's same value once ($1)"
is "$(events Lap) $(events Pause) $(events Resume)" "9 46 46" \
    "Edge 500: 9 laps; 47 starts, so 46 pauses resumed"
is "$(points)" 10677 "Edge 500: 10677 points"
is "$(hq-query workout last --format jsonl | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["pauses"], d["laps"], round(d["paused_min"]))')" \
    "46 9 34" "hq-query workout: pauses, laps and paused minutes ((12691 - 10641) s / 60 = 34)"

imp "$W/sample-activity-indoor-trainer.fit"
is "$(workouts | cut -d'|' -f1)" Cycling "indoor trainer: cycling"
is "$(metric HeartRate)" "2263 147.75 176.0" "indoor trainer: HR 2263 mean 147.75"
is "$(metric CyclingPower)" "2222 201.42 331.0" "indoor trainer: power 2222 mean 201.42 max 331"
is "$(q 'SELECT count(*) FROM route')" 0 "indoor trainer: no route"

imp "$W/null_compressed_speed_dist.fit"
is "$(workouts)" "Cycling|Zwift|2017-10-05T00:04:06Z|1807|1808.0" "Zwift: cycling, timer > elapsed as written"
is "$(metric HeartRate | cut -d' ' -f1)" 0 "Zwift: HR 0 in every record is no reading"
like "$err" "1808 heart rates of 0" "and is warned"
is "$(metric CyclingPower)" "1808 122.86 691.0" "Zwift: power 1808 mean 122.86 max 691"
is "$(points)" 1808 "Zwift: its 1808 positions as a route ..."
is "$(hq-query workout last --format jsonl | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["virtual_route"], d["indoor"], d["sub_sport"])')" \
    "True True virtual_activity" "... that hq-query workout says is virtual"

imp "$HQ_FIXTURES/workouts/fit-parser/garmin-stamina.fit"
is "$(workouts)" "Running|Garmin Forerunner 965 (SN 3448026845)|2026-05-14T04:05:59Z|4488|4487.819" \
    "Forerunner 965: running"
is "$(metric HeartRate)" "4488 142.69 199.0" "FR965: HR 4488 mean 142.69 max 199"
is "$(metric RunningPower)" "4488 229.32 595.0" "FR965: running power 4488 mean 229.32 max 595"
is "$(events Lap) $(points)" "12 4488" "FR965: 12 laps, 4488 points"

imp "$W/coros-pace-2-cycling-misaligned-fields.fit"
is "$(workouts)" "Cycling|Coros PACE 2|2020-10-25T11:10:19Z|12719|11287.0" \
    "Coros: cycling, elapsed 12719, timer 11287"
is "$(metric HeartRate | cut -d' ' -f1,2)" "8946 131.94" "Coros: HR 8946 mean 131.94 (1614 invalid skipped)"
is "$(points)" 10305 "Coros: 10305 points"

imp "$W/sample_mulitple_header.fit"
is "$(workouts | cut -d'|' -f1,3-)" "Swimming|2018-05-27T07:33:01Z|1987|1987.521
Transition|2018-05-27T08:06:08Z|170|170.269
Cycling|2018-05-27T08:08:58Z|4422|4422.14
Transition|2018-05-27T09:22:40Z|61|60.724
Running|2018-05-27T09:23:41Z|2851|2850.694" \
    "chained multisport file: 5 workouts, transitions of their own type"
is "$(metric HeartRate | cut -d' ' -f1,2)" "1773 171.66" \
    "multisport: HR 1773 mean 171.66, the strap's hr messages merged as the SDK does"
is "$(q "SELECT count(*) FROM sample WHERE metric_id = (SELECT id FROM metric
   WHERE identifier = '${HK}HeartRate') AND start >= 1527406381 AND start < 1527408368")" 349 \
    "multisport: every swim record has a heart rate (349 before the transition's start)"
is "$(q "SELECT group_concat(n, ' ') FROM (SELECT (SELECT count(*) FROM workout_event e
   WHERE e.workout_id = w.id AND e.type = 'HKWorkoutEventTypeLap') n FROM workout w ORDER BY start)")" \
    "1 1 1 1 1" "multisport: a lap each (first_lap_index, num_laps), none of the next leg"
is "$(points)" 1462 "multisport: 1462 points"
is "$(q 'SELECT count(*) FROM route')" 5 "multisport: a route for each of the 5 legs"

imp "$W/activity-large-fenxi2-multisport.fit"
is "$(q 'SELECT count(*), min(start) - 1440835201 FROM workout')" "7 0" \
    "fenix 2 multisport: 7 workouts, the first at 2015-08-29T08:00:01Z"
set -- $(metric HeartRate)
num_near "$2" 146.32 0.005 "fenix 2 multisport: HR mean 146.32 (timestamps going backwards kept)"
ok $(( $1 <= 24227 && $1 >= 24227 - 8 ? 0 : 1 )) \
    "fenix 2 multisport: HR 24227 read, 6 repeated and 2 backward seconds' same values once ($1)"
is "$(q "SELECT end - start FROM workout ORDER BY start LIMIT 1")" 9023 \
    "fenix 2 multisport: the first leg ends by its timestamp (10:30:24), not 45 minutes later"
is "$(hq-query workouts --format jsonl | grep -c '"type":"running"')" 2 \
    "fenix 2 multisport: both runs listed (the 38-minute one no longer hidden)"
is "$(hq-query heart_rate --from 2015-08-29 --to 2015-08-29 --agg count --format jsonl |
    sed 's/.*"count":\([0-9]*\).*/\1/')" "$1" \
    "fenix 2 multisport: the day's heart rate counts every sample ($1)"
is "$(events Lap)" 7 "fenix 2 multisport: 7 laps, the first (started before its leg) the first leg's"

imp "$W/DeveloperData.fit"
is "$rc" 0 "a file without session or times imports"
is "$(q 'SELECT count(*) FROM workout') $(q 'SELECT count(*) FROM sample')" "0 0" \
    "... with nothing dated to store"
like "$err" "3 records without a time" "and says so"

# Broken files: refused whole, with the byte, the store unchanged.
export HQ_DB="$T/broken.db"
hq-ingest -q "$W/garmin-fenix-5-run.fit" >/dev/null
before=$(q "SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM workout),
    (SELECT count(*) FROM route_point), (SELECT count(*) FROM workout_event)")
for f in activity-filecrc.fit:769 \
    activity-settings-corruptheader.fit:771 \
    strava-android-app-201.10-b1218918.fit:7471 \
    compressed-speed-distance.fit:160; do
	run hq-ingest -q "$W/${f%%:*}"
	ok $(( rc != 0 ? 0 : 1 )) "${f%%:*} is refused"
	like "$err" "${f%%:*}: byte ${f##*:}: .*nothing from this file was imported" \
	    "${f%%:*}: byte ${f##*:} named"
done
like "$err" "device-relative time" "the Forerunner 70's times since power-on are said to be so"
is "$(q "SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM workout),
    (SELECT count(*) FROM route_point), (SELECT count(*) FROM workout_event)")" \
    "$before" "the store is unchanged"

# Files that merely end early: their complete records, marked partial.
for f in activity-unexpected-eof.fit:768 nick.fit:403456; do
	run hq-ingest --strict -q "$W/${f%%:*}"
	is "$rc" 2 "${f%%:*}: --strict refuses it"
	like "$err" "${f%%:*}: byte ${f##*:}: .*nothing from this file was imported" \
	    "... naming the byte"
done
is "$(q "SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM workout),
    (SELECT count(*) FROM route_point), (SELECT count(*) FROM workout_event)")" \
    "$before" "the store is unchanged"
imp "$W/nick.fit"
is "$rc" 1 "nick.fit (no final CRC, the last record cut): imported in part, exit 1"
like "$err" "nick\.fit: byte 403456: .*complete records were imported, marked partial" \
    "the byte where it stops is said"
is "$(workouts | cut -d'|' -f1,3,4)" "Cycling|2020-09-12T12:23:38Z|16723" \
    "one ride (its sport message's) from the first record to the last (12:23:38 to 17:02:21)"
is "$(points)" 14391 "its 14391 whole records' positions (SDK, fitdecode, GPSBabel: 14391)"
set -- $(metric HeartRate)
num_near "$2" 142.7 0.05 "its heart rate's mean as the SDK's, 142.7"
is "$(hq-query workout last --format jsonl | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["partial"])')" \
    True "hq-query workout says it is partial"
imp "$W/activity-unexpected-eof.fit"
is "$rc $(workouts | cut -d'|' -f1,3) $(points)" "1 Running|2012-04-09T21:22:26Z 14" \
    "activity-unexpected-eof.fit: its session and 14 records, the cut activity message lost"

# Again: nothing new.
export HQ_DB="$T/broken.db"
run hq-ingest -q "$W/garmin-fenix-5-run.fit"
like "$out" '"inserted":0,' "a second import inserts no sample"
like "$out" '"workouts_inserted":0,' "nor a workout"
like "$out" '"route_points":0,' "nor route points"
is "$(q "SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM workout),
    (SELECT count(*) FROM route_point), (SELECT count(*) FROM workout_event)")" \
    "$before" "the store is as after the first"

# Sniffed from content, whatever the name; --format fit forces it.
cp "$W/garmin-fenix-5-walk.fit" "$T/walk.bin"
export HQ_DB="$T/sniff.db"
run hq-ingest -q "$T/walk.bin"
like "$out" '"format":"fit"' "a FIT file named .bin is sniffed as FIT"
run hq-ingest -q --format fit "$HQ_ROOT/README.md"
ok $(( rc != 0 ? 0 : 1 )) "--format fit on a text file fails"
like "$err" "not a FIT file header" "saying it is no FIT file"
printf 'Activity,date\n' >"$T/notfit.fit"
run hq-ingest -q "$T/notfit.fit"
like "$err" "notfit\.fit: not a FIT file \(byte 0\) \(nothing" \
    "a .fit that is not FIT is said to be no FIT file, not a list of formats"

done_testing
