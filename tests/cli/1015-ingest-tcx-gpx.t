#!/usr/bin/env bash
# TCX and GPX activity files into the store (lib/read/trackfile.c): the four
# real files of tests/fixtures/workouts, checked against the facts of its
# README (tallied with xmllint and GPSBabel, not by hq): the workout, its
# source (TCX Creator, GPX creator), laps, heart rate, cadence and power
# samples, route points; Strava's white space before <?xml and a BOM read;
# malformed XML refused whole with its line, the store unchanged; a second
# import adds nothing.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
need_fixtures workouts/tcxparser/test.tcx workouts/togeojson/garmin_connect.tcx \
    workouts/togeojson/run.gpx workouts/togeojson/Friday-Evening-Run.gpx
W=$HQ_FIXTURES/workouts
HK=HKQuantityTypeIdentifier

imp() {
	export HQ_DB="$T/$(basename "$1").db"
	run hq-ingest "$1"
}
q() { sqlite3 -separator ' ' "$HQ_DB" "$1"; }
metric() {
	q "SELECT count(*), printf('%.2f', avg(value)), max(value) FROM sample
	   WHERE metric_id = (SELECT id FROM metric WHERE identifier = '$HK$1')"
}
workouts() {
	q "SELECT substr(activity_type, 22) || '|' || s.name || '|' ||
	   strftime('%Y-%m-%dT%H:%M:%SZ', start, 'unixepoch') || '|' ||
	   (end - start) || '|' || duration || '|' || ifnull(distance, '') ||
	   '|' || ifnull(energy, '') FROM workout w JOIN source s
	   ON s.id = w.source_id ORDER BY start"
}
laps() { q "SELECT count(*) FROM workout_event WHERE type = 'HKWorkoutEventTypeLap'"; }
# route points of a route of a workout (none astray)
points() {
	q "SELECT count(*) FROM route_point p JOIN route r ON r.id = p.route_id
	   JOIN workout w ON w.id = r.workout_id"
}

imp "$W/tcxparser/test.tcx"
is "$rc" 0 "Forerunner 410 TCX imports"
like "$out" '"format":"tcx"' "sniffed as TCX"
is "$(workouts)" "Running|Forerunner 410 Software Version 2.20 (SN 3854007508)|2012-12-26T21:29:53Z|1993|1992.78|4689.24267578|379.0" \
    "TCX: a running workout from Id, laps' TotalTimeSeconds, DistanceMeters, Calories; Creator as source"
is "$(laps)" 3 "TCX: 3 laps"
is "$(metric HeartRate)" "383 156.65 189.0" "TCX: HR 383 mean 156.65 max 189"
is "$(points)" 383 "TCX: the 383 trackpoints with a position as the route"

imp "$W/togeojson/garmin_connect.tcx"
is "$(workouts)" "Cycling|Edge 520 (SN 3931533084)|2020-03-06T00:23:46Z|4352|4352.0|1691.68|38.0" \
    "Edge 520 TCX: Biking is cycling"
is "$(metric CyclingCadence)" "316 59.97 106.0" "Edge 520: Cadence 316 mean 59.97"
is "$(metric CyclingPower)" "313 121.91 552.0" "Edge 520: TPX Watts 313 mean 121.91 max 552"
is "$(metric CyclingSpeed | cut -d' ' -f1)" 317 "Edge 520: TPX Speed 317"
is "$(metric HeartRate | cut -d' ' -f1)" 0 "Edge 520: no HR"
is "$(points)" 316 "Edge 520: 316 points"

imp "$W/togeojson/run.gpx"
is "$rc" 0 "Garmin Connect GPX imports"
like "$out" '"format":"gpx"' "sniffed as GPX"
is "$(workouts | cut -d'|' -f2-4)" "Garmin Connect|2012-10-24T23:29:40Z|948" \
    "GPX: creator as source, first to last point (23:29:40 to 23:45:28)"
like "$out" '"records":206,.*"duplicates":1,' "GPX: hr 206 read, the repeated time's once"
want=$(python3 - "$W/togeojson/run.gpx" <<'EOF'
import sys, xml.etree.ElementTree as ET
seen = set()
for pt in ET.parse(sys.argv[1]).iter():
    if not pt.tag.endswith('}trkpt'):
        continue
    t = hr = None
    for c in pt.iter():
        if c.tag.endswith('}time'): t = c.text
        if c.tag.endswith('}hr'): hr = float(c.text)
    seen.add((t, hr))
v = [h for _, h in seen]
print(len(v), '%.2f' % (sum(v) / len(v)), max(v))
EOF
)
is "$(metric HeartRate)" "$want" "GPX: HR count, mean, max of the distinct (time, hr) pairs ($want)"
is "$(points)" 206 "GPX: 206 points, every one with ele"
is "$(q 'SELECT count(*) FROM route_point WHERE ele IS NULL')" 0 "GPX: ele kept"

imp "$W/togeojson/Friday-Evening-Run.gpx"
is "$(workouts | cut -d'|' -f1,2)" "Running|Apple Watch" "Apple Watch GPX: type running, creator"
is "$(metric HeartRate)" "13 150.00 171.0" "Apple Watch GPX: hr 13 mean 150 max 171"
is "$(metric RunningPower)" "17 138.00 212.0" \
    "Apple Watch GPX: PowerInWatts in the second extensions, 17 mean 138 max 212"
is "$(points)" 17 "Apple Watch GPX: 17 points over 3 trksegs"

# Strava's white space before <?xml, and a BOM
{ printf '\n   \n'; cat "$W/tcxparser/test.tcx"; } >"$T/space.tcx"
imp "$T/space.tcx"
is "$rc $(metric HeartRate | cut -d' ' -f1)" "0 383" "white space before <?xml: read"
{ printf '\357\273\277'; cat "$W/togeojson/run.gpx"; } >"$T/bom.gpx"
imp "$T/bom.gpx"
is "$rc $(points)" "0 206" "a BOM: read"

# Malformed: refused whole, with its line, the store unchanged
export HQ_DB="$T/broken.db"
hq-ingest -q "$W/togeojson/run.gpx" >/dev/null
before=$(q "SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM workout),
    (SELECT count(*) FROM route_point)")
head -c 40000 "$W/tcxparser/test.tcx" >"$T/cut.tcx"
run hq-ingest -q "$T/cut.tcx"
ok $(( rc != 0 ? 0 : 1 )) "a truncated TCX is refused"
like "$err" "cut.tcx:[0-9]+: .*nothing from this file was imported" "naming its line"
sed 's|</trkpt>|</trkpoint>|' "$W/togeojson/Friday-Evening-Run.gpx" >"$T/bad.gpx"
run hq-ingest -q "$T/bad.gpx"
ok $(( rc != 0 ? 0 : 1 )) "a GPX with a mismatched tag is refused"
like "$err" "bad.gpx:[0-9]+: " "naming its line"
is "$(q "SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM workout),
    (SELECT count(*) FROM route_point)")" "$before" "the store is unchanged"

# Again: nothing new
run hq-ingest -q "$W/togeojson/run.gpx"
like "$out" '"inserted":0,.*"workouts_inserted":0,.*"route_points":0,' \
    "a second import adds nothing"

# --format forces; a name decides nothing
cp "$W/togeojson/run.gpx" "$T/track.txt"
export HQ_DB="$T/named.db"
run hq-ingest -q "$T/track.txt"
like "$out" '"format":"gpx"' "a GPX named .txt is sniffed as GPX"
run hq-ingest -q --format tcx "$W/togeojson/run.gpx"
ok $(( rc != 0 ? 0 : 1 )) "--format tcx on a GPX file fails"
like "$err" "run.gpx:[0-9]+: not a TCX file: the root element is <gpx>" "saying what it is"

done_testing
