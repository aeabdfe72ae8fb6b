#!/usr/bin/env bash
# Workouts the way people ask for them (issue 12): the list newest first
# (so --limit 3 is the last three), `workout last` and `last:TYPE`, pace or
# speed by type, the heart rate during a workout as rows and as a chart,
# the route as GPX and GeoJSON — checked against the jshrake fixture's own
# GPX file and a generated export.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v python3 >/dev/null || skip_all "python3 missing"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
need_fixtures apple-health/jshrake/export.zip \
    apple-health/jshrake/apple_health_export/workout-routes/route_2020-02-24_10.18am.gpx

field() { python3 -c 'import json,sys; k=sys.argv[1]; print(" ".join(str(json.loads(l).get(k)) for l in sys.stdin))' "$1"; }

gen-export --days 21 --seed 4 -o "$T/e.zip" >/dev/null 2>&1
hq-ingest -q "$T/e.zip" >/dev/null
ok $? "a generated export with workouts ingests"

# --- the list, newest first ---------------------------------------------------------
starts=$(hq-query workouts | field start)
is "$starts" "$(printf '%s\n' $starts | sort -r | tr '\n' ' ' | sed 's/ $//')" "workouts: newest first"
is "$(hq-query workouts --limit 3 | field id)" "$(sqlite3 "$HQ_DB" "select id from workout order by start desc limit 3" | tr '\n' ' ' | sed 's/ $//')" \
	"--limit 3: the last three"
is "$(hq-query workouts --type ride --limit 3 | field type)" "cycling cycling cycling" "--type ride --limit 3: the last three rides"
is "$(hq-query workouts --type ride --limit 3 | field date)" "2024-11-03 2024-11-02 2024-10-27" "newest first"

# pace and speed: checked against the distance and duration themselves
hq-query workouts >"$T/w.jsonl"
is "$(python3 - "$T/w.jsonl" <<'PY'
import json, sys
bad = 0
for r in map(json.loads, open(sys.argv[1])):
    want_pace = r["duration_min"] / r["distance_km"]
    want_speed = r["distance_km"] / (r["duration_min"] / 60)
    if abs(r["pace_min_per_km"] - want_pace) > 0.002 or abs(r["speed_kmh"] - want_speed) > 0.02:
        bad += 1
print(bad)
PY
)" 0 "pace_min_per_km and speed_kmh agree with distance and duration"
tab=$(COLUMNS=120 hq-query workouts --format table)
like "$(printf '%s\n' "$tab" | grep ' running ' | head -1)" " [0-9]+:[0-9]{2}/km " "a run's row: pace per km"
like "$(printf '%s\n' "$tab" | grep ' cycling ' | head -1)" " [0-9]+\.[0-9] km/h " "a ride's row: speed"
like "$(printf '%s\n' "$tab" | grep ' walking ' | head -1)" " [0-9]+:[0-9]{2}/km " "a walk's row: pace"
hhmm=$(hq-query workout 5 | field start | cut -c12-16)
like "$(printf '%s\n' "$tab" | grep '^ *5 ')" "2024-10-30 +$hhmm +running +1:05:44 +11\.20 +5:52/km +792 +144 +162 +[0-9]+ +yes" \
	"the 65-minute run: start time, duration as a clock, distance, pace, whole kcal and beats"

# --- one workout: last, last:TYPE ----------------------------------------------------------
newest=$(sqlite3 "$HQ_DB" "select id from workout order by start desc limit 1")
is "$(hq-query workout last | field id)" "$newest" "workout last: the newest"
ride=$(sqlite3 "$HQ_DB" "select id from workout where activity_type like '%Cycling' order by start desc limit 1")
is "$(hq-query workout last:cycling | field id)" "$ride" "workout last:cycling: the newest ride"
is "$(hq-query workout last:bike | field id)" "$ride" "types by alias: last:bike"
run hq-query workout last:yoga
is "$rc:$out" "1:" "no yoga: exit 1, nothing on stdout"
is "$err" "hq-query: no workout last:yoga; hq-query workouts lists them" "and says so"
run hq-query workout last:runing
is "$rc" 2 "a misspelt type: exit 2"
like "$err" "did you mean last:running\?" "with the likely type"
run hq-query workout yesterday
is "$rc" 2 "not a workout: exit 2"
like "$err" "give its ID .*, last, or last:TYPE" "with the forms"
run hq-query workout last --from 2024-10-01
is "$rc" 2 "--from with one workout: a usage error"

# --- the heart rate during it: rows and a chart -----------------------------------------------
read -r ws we <<EOF
$(sqlite3 -separator ' ' "$HQ_DB" "select start, end from workout where id = $ride")
EOF
want=$(sqlite3 "$HQ_DB" "select count(*) from sample s join metric m on m.id = s.metric_id where m.identifier = 'HKQuantityTypeIdentifierHeartRate' and s.start >= $ws and s.start <= $we")
run hq-query workout last:cycling heart_rate
is "$rc" 0 "workout last:cycling heart_rate exits 0"
is "$(printf '%s\n' "$out" | wc -l)" "$want" "one row per heart-rate sample from its start to its end ($want)"
is "$(printf '%s\n' "$out" | field metric | tr ' ' '\n' | sort -u)" "heart_rate" "rows of heart_rate"
want_avg=$(sqlite3 "$HQ_DB" "select round(avg(value), 6) from sample s join metric m on m.id = s.metric_id where m.identifier = 'HKQuantityTypeIdentifierHeartRate' and s.start >= $ws and s.start <= $we")
num_near "$(hq-query workout last:cycling heart_rate --agg avg | field avg)" "$want_avg" 0.000001 \
	"--agg avg: one row, the average over the workout (SQL: $want_avg)"
hq-query workout last:cycling --format svg >"$T/hr.svg"
ok $? "--format svg: the heart rate during it as a chart"
like "$(head -c 4000 "$T/hr.svg")" "heart_rate during workout $ride: cycling 2024-11-03" "titled with the workout"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$T/hr.svg"
ok $? "and well-formed XML"

# --- the route: GPX and GeoJSON ---------------------------------------------------------------
pts=$(sqlite3 "$HQ_DB" "select count(*) from route_point p join route r on r.id = p.route_id where r.workout_id = $ride")
hq-query workout last:cycling --format gpx >"$T/r.gpx"
is "$(python3 - "$T/r.gpx" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"g": "http://www.topografix.com/GPX/1/1"}
root = ET.parse(sys.argv[1]).getroot()
print(root.get("version"), len(root.findall(".//g:trkpt", ns)), len(root.findall(".//g:trkpt/g:time", ns)))
PY
)" "1.1 $pts $pts" "GPX 1.1: every route point ($pts), each with its time"
hq-query workout last:cycling --format geojson >"$T/r.geojson"
is "$(python3 - "$T/r.geojson" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["features"]
print(d["type"], sum(len(x["geometry"]["coordinates"]) for x in f),
      sum(len(x["properties"]["coordTimes"]) for x in f), f[0]["geometry"]["type"])
PY
)" "FeatureCollection $pts $pts LineString" "GeoJSON: a LineString of every point, with their times"
run hq-query workout last:cycling heart_rate --format gpx
is "$rc" 2 "--format gpx with a metric: a usage error"
run hq-query steps --format geojson
is "$rc" 2 "--format geojson of metric rows: a usage error"

JSH=$HQ_FIXTURES/apple-health/jshrake
HQ_DB="$T/jsh.db" hq-ingest -q "$JSH/export.zip" >/dev/null
HQ_DB="$T/jsh.db" hq-query workout last --format gpx >"$T/jsh.gpx"
HQ_DB="$T/jsh.db" hq-query workout last:walking --format geojson >"$T/jsh.geojson"
# The route written back against the GPX file the export holds.
is "$(python3 - "$JSH/apple_health_export/workout-routes/route_2020-02-24_10.18am.gpx" "$T/jsh.gpx" "$T/jsh.geojson" <<'PY'
import json, sys, datetime
import xml.etree.ElementTree as ET
ns = {"g": "http://www.topografix.com/GPX/1/1"}
def gpx(path):
    out = []
    for p in ET.parse(path).getroot().findall(".//g:trkpt", ns):
        t = datetime.datetime.fromisoformat(p.find("g:time", ns).text.replace("Z", "+00:00"))
        out.append((float(p.get("lat")), float(p.get("lon")), float(p.find("g:ele", ns).text), t))
    return out
src, ours = gpx(sys.argv[1]), gpx(sys.argv[2])
g = json.load(open(sys.argv[3]))["features"][0]
geo = [(c[1], c[0], c[2], datetime.datetime.fromisoformat(t.replace("Z", "+00:00")))
       for c, t in zip(g["geometry"]["coordinates"], g["properties"]["coordTimes"])]
def same(a, b):
    return len(a) == len(b) and all(abs(x[0] - y[0]) < 1e-7 and abs(x[1] - y[1]) < 1e-7
        and abs(x[2] - y[2]) < 0.006 and x[3] == y[3] for x, y in zip(a, b))
print(len(src), same(src, ours), same(src, geo))
PY
)" "644 True True" "jshrake: GPX and GeoJSON give back the export's 644 points, positions, elevations and times"

done_testing
