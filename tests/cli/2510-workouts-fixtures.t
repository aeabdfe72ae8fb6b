#!/usr/bin/env bash
# Workouts from two real exports, read back through lib/query/workout.c (by the
# workout-probe test helper, which is what hq-query workouts calls), checked
# against the numbers written in those files:
#  - dogsheep/export.xml: an old-format Workout (total* attributes in mi and
#    kcal, dates written -0700 in November when Los Angeles was at -0800),
#    an inline two-point route;
#  - jshrake/export.zip: iOS 16 WorkoutStatistics (no total* attributes),
#    four segment events, metadata with units, a 644-point GPX route whose
#    summary Python computes here from the GPX itself.
. "$(dirname "$0")/lib.sh"

command -v hq-ingest >/dev/null || skip_all "hq-ingest not built"
command -v workout-probe >/dev/null || skip_all "workout-probe not built"
command -v python3 >/dev/null || skip_all "python3 missing"
DOG=$HQ_FIXTURES/apple-health/dogsheep/export.xml
JSH=$HQ_FIXTURES/apple-health/jshrake/export.zip
GPX=$HQ_FIXTURES/apple-health/jshrake/apple_health_export/workout-routes/route_2020-02-24_10.18am.gpx
need_fixtures apple-health/dogsheep/export.xml apple-health/jshrake/export.zip \
    apple-health/jshrake/apple_health_export/workout-routes/route_2020-02-24_10.18am.gpx

# field JSON-LINE KEY: one value of a JSON object ("null" for null).
field() {
	printf '%s' "$1" | python3 -c 'import json, sys
v = json.loads(sys.stdin.read())[sys.argv[1]]
print("null" if v is None else str(v).lower() if isinstance(v, bool) else v)' "$2"
}

hq-ingest "$DOG" >/dev/null && hq-ingest "$JSH" >/dev/null
ok $? "both exports ingest"

run workout-probe
is "$rc" 0 "the list exits 0"
is "$(printf '%s\n' "$out" | wc -l)" 2 "two workouts"
# newest first: the 2020 walk, then the 2016 run
new=$(printf '%s\n' "$out" | sed -n 1p)
old=$(printf '%s\n' "$out" | sed -n 2p)

# --- the old format -------------------------------------------------------------
is "$(field "$old" type)" running "old: HKWorkoutActivityTypeRunning → running"
is "$(field "$old" start)" 2016-11-14T06:25:41-08:00 \
	"old: 07:25:41 written -0700 is 06:25:41 in Los Angeles (PST that day)"
is "$(field "$old" date)" 2016-11-14 "old: local date"
# duration="5.19412346680959" durationUnit="min"
num_near "$(field "$old" duration_min)" 5.19412346680959 0.005 "old: duration 5.194 min"
# totalDistance="0.4971749504535062" totalDistanceUnit="mi": × 1.609344 = 0.800126 km
num_near "$(field "$old" distance_km)" 0.800126 0.0005 "old: 0.497 mi is 0.800 km"
# totalEnergyBurned="48.74499999999999" kcal
num_near "$(field "$old" energy_kcal)" 48.745 0.05 "old: energy 48.7 kcal"
is "$(field "$old" avg_hr)" null "old: no heart rate during it: null, not 0"
# The file writes "Apple<U+00A0>Watch" (a no-break space); kept as written.
is "$(field "$old" source)" "$(printf 'Apple\302\240Watch')" "old: source, as written"
is "$(field "$old" has_route)" true "old: has its inline route"

run workout-probe "$(field "$old" id)"
is "$rc" 0 "old: detail exits 0"
d=$out
is "$(field "$d" route_points)" 2 "old: two Location points"
num_near "$(field "$d" route_distance_km)" 0 0.0000001 "old: both at 37.7777,-122.426: distance 0"
num_near "$(field "$d" route_min_lat)" 37.7777 0.0000001 "old: bounding box lat"
num_near "$(field "$d" route_max_lon)" -122.426 0.0000001 "old: bounding box lon"
is "$(field "$d" time_zone)" America/Los_Angeles "old: HKTimeZone"
# HKWeatherTemperature "56 degF" = 13.33 °C; HKWeatherHumidity "96 %"
num_near "$(field "$d" temperature_c)" 13.3 0.05 "old: 56 degF is 13.3 °C"
num_near "$(field "$d" humidity_pct)" 96 0.001 "old: humidity 96 %"

# --- the new format ---------------------------------------------------------------
is "$(field "$new" type)" walking "new: walking"
is "$(field "$new" start)" 2020-02-24T09:44:00-08:00 "new: start"
num_near "$(field "$new" duration_min)" 34.18067507346471 0.005 "new: duration 34.18 min"
# WorkoutStatistics DistanceWalkingRunning sum="1.402" unit="mi" = 2.2563 km
num_near "$(field "$new" distance_km)" 2.256300288 0.0005 "new: 1.402 mi from WorkoutStatistics is 2.256 km"
# ActiveEnergyBurned sum="134.432" unit="Cal" (basal 56.4 is not added)
num_near "$(field "$new" energy_kcal)" 134.432 0.05 "new: active energy 134.4 kcal, basal not added"
is "$(field "$new" source)" Watch "new: source"

run workout-probe "$(field "$new" id)"
d=$out
is "$(field "$d" segments)" 4 "new: four HKWorkoutEventTypeSegment events"
is "$(field "$d" pauses)" 0 "new: no pauses"
num_near "$(field "$d" basal_energy_burned_sum)" 56.4005 0.001 "new: basal energy statistic kept on its own"
num_near "$(field "$d" elevation_ascended_m)" 2.17 0.0001 "new: HKElevationAscended 217 cm"
num_near "$(field "$d" temperature_c)" 17.2 0.05 "new: 63 degF is 17.2 °C"
num_near "$(field "$d" humidity_pct)" 57 0.001 "new: 'HKWeatherHumidity 5700 %' read as 57 %"
is "$(field "$d" indoor)" false "new: HKIndoorWorkout 0 (written twice)"
num_near "$(field "$d" average_mets)" 4.30455 0.005 "new: HKAverageMETs"

# The route summary, computed again here from the GPX file itself.
read -r pts dist gain mins minlat maxlat minlon maxlon <<EOF
$(python3 - "$GPX" <<'PY'
import math, sys, datetime
import xml.etree.ElementTree as ET
ns = {"g": "http://www.topografix.com/GPX/1/1"}
pts = ET.parse(sys.argv[1]).getroot().findall(".//g:trkpt", ns)
R = 6371008.8
def hav(a, b, c, d):
    r = math.pi / 180
    x = math.sin((c - a) * r / 2) ** 2 + math.cos(a * r) * math.cos(c * r) * math.sin((d - b) * r / 2) ** 2
    return 2 * R * math.asin(math.sqrt(x))
lat = [float(p.get("lat")) for p in pts]
lon = [float(p.get("lon")) for p in pts]
ele = [float(p.find("g:ele", ns).text) for p in pts]
t = [datetime.datetime.fromisoformat(p.find("g:time", ns).text.replace("Z", "+00:00")) for p in pts]
dist = sum(hav(lat[i - 1], lon[i - 1], lat[i], lon[i]) for i in range(1, len(pts)))
gain = sum(max(0.0, ele[i] - ele[i - 1]) for i in range(1, len(pts)))
print(len(pts), dist / 1000, gain, (max(t) - min(t)).total_seconds() / 60,
      min(lat), max(lat), min(lon), max(lon))
PY
)
EOF
is "$(field "$d" route_points)" "$pts" "new: route points = trkpt count in the GPX ($pts)"
num_near "$(field "$d" route_distance_km)" "$dist" 0.0005 "new: route distance = haversine sum over the GPX ($dist km)"
num_near "$(field "$d" route_elevation_gain_m)" "$gain" 0.05 "new: elevation gain = sum of rises ($gain m)"
num_near "$(field "$d" route_duration_min)" "$mins" 0.005 "new: route duration ($mins min)"
num_near "$(field "$d" route_min_lat)" "$minlat" 0.0000001 "new: bbox min lat"
num_near "$(field "$d" route_max_lat)" "$maxlat" 0.0000001 "new: bbox max lat"
num_near "$(field "$d" route_min_lon)" "$minlon" 0.0000001 "new: bbox min lon"
num_near "$(field "$d" route_max_lon)" "$maxlon" 0.0000001 "new: bbox max lon"

# --- filters -----------------------------------------------------------------------
run workout-probe --type run
is "$(printf '%s\n' "$out" | wc -l)" 1 "--type run: one"
is "$(field "$out" type)" running "--type run: the running one"
run workout-probe --type walking --from 2020-01-01
is "$(field "$out" date)" 2020-02-24 "--type walking --from 2020-01-01"
run workout-probe --min-duration 10
is "$(field "$out" type)" walking "--min-duration 10 drops the 5-minute run"
run workout-probe --type swim
is "$rc" 1 "a type with no workouts: exit 1"
is "$out" "" "and no output"
run workout-probe --type runing
is "$rc" 2 "a misspelt type: exit 2"
like "$err" "unknown workout type 'runing' \(did you mean running\?\)" "with a suggestion"
run workout-probe 99
is "$rc" 1 "no workout 99: exit 1"

# --- hq-query workout ID as a table: field/value lines, not one wide row ----------
run hq-query workout 2 --format table
is "$rc" 0 "workout 2 --format table exits 0"
like "$(printf '%s\n' "$out" | sed -n 1p)" '^field +value$' "a field/value header"
like "$(printf '%s\n' "$out" | sed -n 3p)" '^type +walking$' "then a line per field"
like "$(printf '%s\n' "$out" | grep '^route_max_lon ')" '^route_max_lon +-118\.23247$' "numbers in full"
like "$(printf '%s\n' "$out" | grep '^avg_hr ')" '^avg_hr +-$' "null is -"
json=$(hq-query workout 2 --format jsonl)
is "$(printf '%s\n' "$out" | wc -l)" \
	"$(printf '%s' "$json" | python3 -c 'import json,sys; print(len(json.loads(sys.stdin.read())) + 1)')" \
	"one line per JSON field, and the header"
is "$(printf '%s\n' "$json" | wc -l)" 1 "jsonl: still one row"
is "$(hq-query workout 2 --format csv | wc -l)" 2 "csv: still a header and one row"
like "$(hq-query workouts --format table | sed -n 1p)" '^id +date +(start +)?type +duration +km +pace/speed ' \
	"the list of workouts stays a table, one row a workout"

done_testing
