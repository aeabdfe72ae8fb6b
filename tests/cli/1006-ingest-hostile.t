#!/usr/bin/env bash
# Hostile and broken input to hq-ingest (issue 11): every bound of
# hq-ingest(1) LIMITS holds, past it a message naming file:line, and memory
# and time stay small whatever the input. Sample spans, attribute bombs,
# workouts and activity summaries checked like records, non-finite values,
# invalid UTF-8, units hq cannot convert, two exports in one zip, a full
# disk and two crons creating one store.
. "$(dirname "$0")/lib.sh"
need_fixtures apple-health/tdda/export6s3sample.xml \
    apple-health/dogsheep/zip_contents/apple_health_export

q() { sqlite3 "$HQ_DB" "$1"; }
fresh() { rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"; }
xml() {   # FILE RECORDS...: an export holding the elements given
	f=$1
	shift
	{ printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
	  printf ' %s\n' "$@"
	  printf '</HealthData>\n'; } >"$f"
}
steps() {   # START END VALUE [SOURCE]
	printf '<Record type="HKQuantityTypeIdentifierStepCount" sourceName="%s" unit="count" startDate="%s" endDate="%s" value="%s"/>' \
	    "${4:-Phone}" "$1" "$2" "$3"
}

# --- 1. a sample's span ---------------------------------------------------
xml "$T/span.xml" "$(steps '2024-01-01 10:00:00 +0000' '2024-01-01 10:10:00 +0000' 100)" \
    "$(steps '1970-01-01 00:00:00 +0000' '2200-01-01 00:00:00 +0000' 5)"
fresh
run timeout 20 hq-ingest "$T/span.xml"
is "$rc" 0 "a steps sample of 230 years: the file still imports, at once"
like "$err" "span\.xml:4: HKQuantityTypeIdentifierStepCount: spans 84006\.0 days, longer than 7 days \(skipped\)" \
    "it is skipped, named by file:line"
like "$out" '"records":2,"inserted":1,.*"skipped":1' "and counted as skipped"
is "$(q 'select count(*) from rollup')" 1 "only the good sample's slot is rolled up"

printf '%s\n' '{"metric":"steps","start":"2014-01-01T00:00:00Z","end":"2024-01-01T00:00:00Z","value":10}' >"$T/span.jsonl"
fresh
run timeout 20 hq-ingest "$T/span.jsonl"
is "$rc" 2 "ten years of steps in JSON lines: refused"
like "$err" "span\.jsonl:1: spans 3652\.0 days, longer than 7 days" "named by file:line"

# What real exports hold: a week of steps, an 8-day walking steadiness
# score, a pregnancy of 280 days, a contraceptive of five years.
cat >"$T/long.jsonl" <<'J'
{"metric":"steps","start":"2024-01-01T00:00:00Z","end":"2024-01-08T00:00:00Z","value":70000}
{"metric":"apple_walking_steadiness","start":"2024-01-01T00:00:00Z","end":"2024-01-09T00:00:00Z","value":95,"unit":"%"}
{"metric":"HKCategoryTypeIdentifierPregnancy","start":"2023-03-01T00:00:00Z","end":"2023-12-06T00:00:00Z","value":"HKCategoryValueNotApplicable"}
{"metric":"HKCategoryTypeIdentifierContraceptive","start":"2018-01-01T00:00:00Z","end":"2023-01-01T00:00:00Z","value":"HKCategoryValueContraceptiveIntrauterineDevice"}
J
fresh
run hq-ingest "$T/long.jsonl"
is "$rc" 0 "legitimate multi-day samples are accepted"
like "$out" '"inserted":4' "all four"
is "$(q "select count(*) from rollup r join metric m on m.id = r.metric_id where m.identifier like '%Steadiness'")" 1 \
    "a long sample that is not cumulative costs one rollup cell"
is "$(hq-query steps --from 2024-01-01 --to 2024-01-08 --by week --tz UTC --format csv | sed -n 2p | cut -d, -f5)" \
    70000 "and the week of steps is counted whole in its week"

# Samples far apart in time cost what the samples cost, not the years
# between them (merged rollups skip empty stretches).
cat >"$T/far.jsonl" <<'J'
{"metric":"steps","start":"0001-01-01T00:00:00Z","end":"0001-01-01T00:10:00Z","value":5}
{"metric":"steps","start":"9999-01-01T00:00:00Z","end":"9999-01-01T00:10:00Z","value":7}
J
fresh
run timeout 10 hq-ingest "$T/far.jsonl"
is "$rc" 0 "steps in years 1 and 9999 import in well under 10 s"
is "$(hq-query steps --by year --tz UTC --format csv | cut -d, -f5 | tr '\n' ' ')" "value 5 7 " \
    "and both are counted"

# --- 2. attribute and field bounds ---------------------------------------
bomb() {   # MiB: an export whose one sourceName is that long, on stdout
	python3 -c 'import sys
o = sys.stdout.buffer
try:
    o.write(b"<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"")
    chunk = b"A" * (1 << 20)
    for i in range(int(sys.argv[1])):
        o.write(chunk)
    o.write(b"\" unit=\"count\" startDate=\"2024-01-01 10:00:00 +0000\" endDate=\"2024-01-01 10:01:00 +0000\" value=\"5\"/>\n</HealthData>\n")
    o.flush()
except BrokenPipeError:
    pass' "$1"
}
fresh
hq-ingest -q "$T/span.xml" >/dev/null 2>&1
# 512 MiB streamed: never written to disk, and read no further than the bound.
bomb 512 | /usr/bin/time -f %M -o "$T/rss" hq-ingest - >"$T/out" 2>"$T/err"
rc=$(tail -n 1 "$T/rss" | grep -q '^[0-9]*$' && echo 2 || echo x)
like "$(cat "$T/err")" "^hq-ingest: -:3: a tag longer than 1 MiB .*nothing from this file was imported" \
    "a 512 MiB attribute on stdin: refused, named by file:line"
rss=$(tail -n 1 "$T/rss")
ok "$([ "$rss" -lt 65536 ]; echo $?)" "in constant memory (peak ${rss} KB < 64 MB)"
is "$(q 'select count(*) from sample')" 1 "the store is as it was"
is "$(q 'select max(length(name)) from source')" 5 "no long source name reached it"

bomb 16 >"$T/bomb.xml"
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[1], "apple_health_export/export.xml")' "$T/bomb.xml" "$T/bomb.zip"
run hq-ingest "$T/bomb.zip"
is "$rc" 2 "a zip whose export holds a 16 MiB attribute: refused"
like "$err" "bomb\.zip:apple_health_export/export\.xml:3: a tag longer than 1 MiB" "named by zip:entry:line"

python3 -c 'print("<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n <Record " + " ".join("a%d=\"1\"" % i for i in range(2000)) + "/>\n</HealthData>")' >"$T/attrs.xml"
run hq-ingest "$T/attrs.xml"
is "$rc" 2 "an element with 2000 attributes: refused"
like "$err" "attrs\.xml:3: a tag with more than 1024 attributes" "named by file:line"

long=$(head -c 2000 /dev/zero | tr '\0' 'x')
xml "$T/name.xml" "$(steps '2024-01-02 10:00:00 +0000' '2024-01-02 10:10:00 +0000' 9 "$long")" \
    "$(steps '2024-01-02 11:00:00 +0000' '2024-01-02 11:10:00 +0000' 9)"
run hq-ingest "$T/name.xml"
is "$rc" 0 "a 2000-byte source name: the file imports"
like "$err" "name\.xml:3: HKQuantityTypeIdentifierStepCount: source longer than 1024 bytes \(skipped\)" \
    "the record is skipped, named by file:line"
printf '{"metric":"steps","start":"2024-01-01T00:00:00Z","value":1,"source":"%s"}\n' "$long" >"$T/name.jsonl"
run hq-ingest "$T/name.jsonl"
like "$err" "name\.jsonl:1: source longer than 1024 bytes" "the same bound in JSON lines"

# No false alarm: '>' inside a value, quotes in a comment, long but legal.
xml "$T/legal.xml" '<!-- it'"'"'s a "comment" > with quotes -->' \
    '<Record type="HKQuantityTypeIdentifierStepCount" sourceName="a &gt; b > c" unit="count" startDate="2024-01-03 10:00:00 +0000" endDate="2024-01-03 10:10:00 +0000" value="3">' \
    "  <MetadataEntry key=\"note\" value=\"$(head -c 100000 /dev/zero | tr '\0' 'y')\"/>" '</Record>'
run hq-ingest "$T/legal.xml"
is "$rc" 0 "a '>' in a value, quotes in a comment and a 100 KB value import"
is "$(q "select count(*) from sample_meta where length(value) = 100000")" 1 "the long metadata value is kept"

# --- 6. workouts and activity summaries are checked like records -----------
xml "$T/workout.xml" \
    '<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="-30" durationUnit="min" totalDistance="-5" totalDistanceUnit="km" sourceName="Watch" startDate="2024-01-01 10:00:00 +0000" endDate="2023-01-01 10:30:00 +0000"/>' \
    '<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="-30" durationUnit="min" sourceName="Watch" startDate="2024-01-02 10:00:00 +0000" endDate="2024-01-02 10:30:00 +0000"/>' \
    '<Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="20" durationUnit="min" totalDistance="-5" totalDistanceUnit="km" sourceName="Watch" startDate="2024-01-03 10:00:00 +0000" endDate="2024-01-03 10:30:00 +0000"/>' \
    '<Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="30" durationUnit="min" totalDistance="10" totalDistanceUnit="km" sourceName="Watch" startDate="2024-01-04 10:00:00 +0000" endDate="2024-01-04 10:30:00 +0000"/>' \
    '<ActivitySummary dateComponents="9999-99-99" activeEnergyBurned="100" appleExerciseTime="10"/>' \
    '<ActivitySummary dateComponents="2024-01-05" activeEnergyBurned="100" appleExerciseTime="-1"/>' \
    '<ActivitySummary dateComponents="2024-01-06" activeEnergyBurned="100" appleStandHours="1e308"/>' \
    '<ActivitySummary dateComponents="2023-02-29" activeEnergyBurned="100"/>' \
    '<ActivitySummary dateComponents="2024-01-07" activeEnergyBurned="420" activeEnergyBurnedUnit="kcal" appleExerciseTime="31" appleStandHours="12"/>'
fresh
run hq-ingest "$T/workout.xml"
is "$rc" 0 "bad workouts and summaries: the file imports"
like "$err" "workout\.xml:3: Workout: end is before start \(skipped\)" "a workout ending before it starts: skipped at file:line"
like "$err" "workout\.xml:4: Workout: duration -1800 is negative \(skipped\)" "a negative duration: skipped"
like "$err" "workout\.xml:5: Workout: distance -5000 is negative \(skipped\)" "a negative distance: skipped"
like "$err" "workout\.xml:7: ActivitySummary: date '9999-99-99' is not a calendar date" "an impossible date: skipped"
like "$err" "workout\.xml:8: ActivitySummary: exercise time -1 is negative" "a negative exercise time: skipped"
like "$err" "workout\.xml:9: ActivitySummary: stand hours 1e\+308 is out of range" "1e308 stand hours: skipped"
like "$err" "workout\.xml:10: ActivitySummary: date '2023-02-29'" "29 February of a common year: skipped"
is "$(q 'select activity_type, duration, distance from workout')" "HKWorkoutActivityTypeCycling|1800.0|10000.0" \
    "only the good workout is stored"
is "$(q 'select date, exercise_time, stand_hours from activity_summary')" "2024-01-07|31.0|12.0" \
    "only the good summary is stored"

# --- 7. non-finite values ----------------------------------------------------
cat >"$T/ok.jsonl" <<'J'
{"metric":"steps","start":"2024-12-01T08:30:00Z","value":100}
J
for v in 1e400 -1e400; do
	{ cat "$T/ok.jsonl"; printf '{"metric":"steps","start":"2024-12-01T07:30:00Z","value":%s}\n' "$v"; } >"$T/inf.jsonl"
	fresh
	run hq-ingest "$T/inf.jsonl"
	is "$rc" 2 "a value of $v in JSON lines: refused"
	like "$err" "inf\.jsonl:2: value is not a finite number" "$v: named by file:line"
	is "$(q 'select count(*) from sample')" 0 "$v: nothing imported"
done
printf '%s\n' '{"metric":"sleep_analysis","start":"2024-12-01T01:00:00Z","end":"2024-12-01T02:00:00Z","value":1e400}' >"$T/inf.jsonl"
run hq-ingest "$T/inf.jsonl"
like "$err" "inf\.jsonl:1: value is not a finite number" "a non-finite category code: refused"
xml "$T/huge.xml" "$(steps '2024-12-01 07:00:00 +0000' '2024-12-01 07:10:00 +0000' 1e308)" \
    "$(steps '2024-12-01 07:10:00 +0000' '2024-12-01 07:20:00 +0000' 1e308)" \
    "$(steps '2024-12-01 07:20:00 +0000' '2024-12-01 07:30:00 +0000' 1e309)"
fresh
hq-ingest -q "$T/ok.jsonl" >/dev/null
run hq-ingest "$T/huge.xml"
like "$err" "huge\.xml:3: HKQuantityTypeIdentifierStepCount: value 1e\+308 is out of range \(skipped\)" \
    "1e308 steps: out of range, skipped"
like "$err" "huge\.xml:5: HKQuantityTypeIdentifierStepCount: value '1e309' is not a number \(skipped\)" \
    "1e309 steps: skipped as before"
is "$(hq-query steps --by day --tz UTC --format csv | sed -n 2p | cut -d, -f5)" 100 \
    "the day's real total survives"

# --- 8. invalid UTF-8 -----------------------------------------------------------
for bad in '\xff\xfe' '\xc0\xaf' '\xed\xa0\x80' 'ok\xe2\x82'; do
	printf '{"metric":"steps","start":"2024-12-01T07:30:00Z","value":1,"source":"'"$bad"'"}\n' >"$T/utf.jsonl"
	fresh
	run hq-ingest "$T/utf.jsonl"
	is "$rc" 2 "source \"$bad\": refused"
	like "$err" "utf\.jsonl:1: source is not valid UTF-8" "\"$bad\": named by file:line"
done
printf '{"metric":"steps","start":"2024-12-01T07:30:00Z","value":1,"source":"Ωmega 🏃 Zürich"}\n' >"$T/utf.jsonl"
run hq-ingest "$T/utf.jsonl"
is "$rc" 0 "well-formed UTF-8 is taken as it is"
strict_json() { python3 -c 'import sys, json
for l in sys.stdin.buffer.read().decode("utf-8", "strict").splitlines():
    json.loads(l)
print("valid")'; }
is "$(hq-query --list --format jsonl | strict_json)" valid "--list is valid UTF-8 JSON"
# A store written before this check: what it holds is repaired on output.
q "update source set name = cast(x'41fffe42' as text)"
is "$(hq-query --list --format jsonl | strict_json)" valid "a store holding bad bytes still gives valid JSON"
like "$(hq-query --list --format jsonl)" 'A\\ufffd\\ufffdB' "the bad bytes become U+FFFD"

# --- units hq cannot convert --------------------------------------------------
cat >"$T/units.jsonl" <<'J'
{"metric":"steps","start":"2024-12-01T07:30:00Z","value":3,"unit":"furlongs/fortnight"}
{"metric":"weight","start":"2024-12-01T07:30:00Z","value":70,"unit":"count/min"}
{"metric":"weight","start":"2024-12-02T07:30:00Z","value":154,"unit":"lb"}
J
fresh
run hq-ingest "$T/units.jsonl"
is "$rc" 0 "units hq cannot convert: the file imports"
like "$err" "units\.jsonl:1: steps: unit 'furlongs/fortnight' is not one hq converts to count \(stored as written\)" \
    "steps in furlongs/fortnight: warned at file:line"
like "$err" "units\.jsonl:2: weight: unit 'count/min' is not one hq converts to kg" "body mass in count/min: warned"
like "$out" '"units_unconverted":2' "the summary counts them"
is "$(q "select group_concat(unit || '=' || round(value, 4), ' ') from (select unit, value from sample order by start)")" \
    "furlongs/fortnight=3.0 count/min=70.0 lb=69.8532" "stored as written (pounds still converted), the unit kept"
xml "$T/units.xml" '<Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="stone" startDate="2024-12-03 07:00:00 +0000" endDate="2024-12-03 07:00:00 +0000" value="11"/>'
run hq-ingest "$T/units.xml"
like "$err" "units\.xml:3: HKQuantityTypeIdentifierBodyMass: unit 'stone' is not one hq converts to kg" \
    "the same in an Apple export, at its line"

# --- smaller ones -------------------------------------------------------------
printf '{"metric":"steps","start":"2024-12-01T07:30:00Z"}\n' >"$T/novalue.jsonl"
run hq-ingest "$T/novalue.jsonl"
is "$(printf '%s' "$err" | grep -o 'nothing from this file was imported' | wc -l | tr -d ' ')" 1 \
    "a JSON-lines error says once that nothing was imported"

# Two exports in one zip: both are imported (the GPX before them too).
F=$HQ_FIXTURES/apple-health
python3 -c 'import sys, zipfile
F = sys.argv[1]
with zipfile.ZipFile(sys.argv[2], "w") as z:
    z.write(F + "/dogsheep/zip_contents/apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx",
            "apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx")
    z.write(F + "/tdda/export6s3sample.xml", "a/export.xml")
    z.write(F + "/dogsheep/zip_contents/apple_health_export/export.xml", "b/export.xml")' "$F" "$T/two.zip"
fresh
run hq-ingest "$T/two.zip"
is "$rc" 0 "a zip with two export XMLs imports"
like "$out" '"records":17,"inserted":17,.*"workouts":2,.*"route_points":3' "both exports, and the GPX of the second"

# A full disk while the store is created: no store, no half store.
mkdir "$T/full"
( trap '' XFSZ; ulimit -f 20; hq-ingest --db "$T/full/hq.db" "$T/ok.jsonl" ) >"$T/out" 2>"$T/err"
rc=$?
is "$rc" 2 "a store that cannot be written (file size limit): exit 2"
like "$(cat "$T/err")" "cannot create the store" "says the store could not be created"
is "$(ls -A "$T/full")" "" "and leaves nothing behind"

# Two crons on a new machine: several ingests create one store at once.
# A store not yet in WAL (made by hand, or half made by an older hq) that
# another process is writing to: hq-ingest waits to switch it to WAL
# instead of failing with "database is locked".
rm -f "$T/new.db"*
: >"$T/new.db"
printf 'BEGIN IMMEDIATE;\nCREATE TABLE t(a);\n.shell sleep 2\nROLLBACK;\n' | sqlite3 "$T/new.db" &
sleep 0.5
run hq-ingest -q --db "$T/new.db" "$T/ok.jsonl"
wait
is "$rc" 0 "a new store another process holds: hq-ingest waits for it"
is "$(sqlite3 "$T/new.db" 'pragma journal_mode; select count(*) from sample')" "wal
1" "and then imports, in WAL mode"
bad=0
for i in 1 2 3 4 5 6 7 8; do
	rm -f "$T/new.db"*
	for k in 1 2 3 4; do
		hq-ingest -q --db "$T/new.db" "$T/ok.jsonl" >/dev/null 2>"$T/err$k" &
	done
	wait
	if [ -s "$T/err1" ] || [ -s "$T/err2" ] || [ -s "$T/err3" ] || [ -s "$T/err4" ] ||
	    [ "$(sqlite3 "$T/new.db" 'select count(*) from sample')" != 1 ]; then
		bad=$((bad + 1))
		sed 's/^/# /' "$T/err1" "$T/err2" "$T/err3" "$T/err4"
	fi
done
is "$bad" 0 "four ingests creating a new store at once: no error, no duplicate (8 rounds)"
is "$(ls "$T" | grep -c 'new\.db\.new-')" 0 "no temporary store is left"
is "$(stat -c %a "$T/new.db")" 600 "the store is 0600"
done_testing
