#!/usr/bin/env bash
# The best of both recordings (issue 28, item 5; hq-ingest(1), THE SAME
# ACTIVITY RECORDED TWICE). tests/cli/data/mksame.py fill: a ride recorded
# by an Apple Watch (10.82 km, 252 kcal, 64 m ascent, a route, power; a
# heart rate every 30 s: 60 seconds covered) and by a bike computer's FIT
# (a heart rate every second, 1,800; nothing else), then as a GPX (a route,
# a heart rate every 5 s: 361). By the rule the FIT covers most and is
# counted; the watch and the GPX yield to it; it takes each field it lacks
# from the best-ranked recording that yields to it and has it: the route
# and the distance (measured on its track: hq-ingest(1)) from the GPX once
# there (361 > 60), the rest from the watch. Before, the
# watch's distance and energy vanished with it; now the kept row has them
# and names where each came from in filled_from (by id: checked against
# the rows' sources), in either import order; reference.py activity, the
# rule written again from hq-ingest(1), agrees with the store.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
python3 "$HQ_ROOT/tests/cli/data/mksame.py" "$T" fill
export HQ_TZ=UTC
q() { sqlite3 "$HQ_DB" "$1"; }
id_of() { q "SELECT w.id FROM workout w JOIN source s ON s.id = w.source_id
    WHERE s.name LIKE '$1%'"; }
# the listed rows: source, km, kcal, has_route, filled_from as FIELD=SOURCE
listed() {
	hq-query workouts --format jsonl | python3 -c '
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
name = lambda i: db.execute("SELECT s.name FROM workout w JOIN source s ON"
                            " s.id = w.source_id WHERE w.id = ?", (i,)).fetchone()[0]
for l in sys.stdin:
    r = json.loads(l)
    ff = r.get("filled_from") or {}
    print(r["source"], r["distance_km"], r["energy_kcal"], r["has_route"],
          " ".join("%s=%s" % (k, name(v)) for k, v in sorted(ff.items())))' "$HQ_DB"
}
store_rule() {
	q "SELECT 'yield ' || workout_id || ' ' || same_as FROM workout_same
	   UNION ALL SELECT 'fill ' || workout_id || ' ' || field || ' ' || from_id
	   FROM workout_fill" | sort
}
edge="Garmin Edge 810 (SN 7002)"
both="$edge 10.82 252 True ascent=Apple Watch distance=Apple Watch energy=Apple Watch power=Apple Watch route=Apple Watch"

run hq-ingest -q "$T/ride-watch.xml" "$T/ride-edge.fit"
is "$rc" 0 "the watch's and the bike computer's recordings import"
is "$(listed)" "$both" \
    "listed once, the FIT's, with the watch's distance, energy, ascent, route, power"
is "$(hq-query workout "$(id_of Garmin)" --format jsonl | python3 -c '
import json, sys; r = json.load(sys.stdin)
print(r["elevation_ascended_m"], sorted(r["filled_from"]))')" \
    "64 ['ascent', 'distance', 'energy', 'power', 'route']" \
    "hq-query workout ID: the ascent taken, and filled_from"
is "$(python3 "$HQ_ROOT/tests/data/athlete/reference.py" activity "$HQ_DB")" \
    "$(store_rule)" "reference.py activity: the same yields and fills"

run hq-ingest -q "$T/ride.gpx"
is "$rc" 0 "the GPX copy imports"
gpx="$edge 2.002 252 True ascent=Apple Watch distance=Strava energy=Apple Watch power=Apple Watch route=Strava"
is "$(listed)" "$gpx" \
    "the distance and route now from the GPX (361 s covered, the watch 60), the rest the watch's"
is "$(hq-query workouts --all-sources --format jsonl | wc -l | tr -d ' ')" 3 \
    "--all-sources lists all three"
is "$(python3 "$HQ_ROOT/tests/data/athlete/reference.py" activity "$HQ_DB")" \
    "$(store_rule)" "reference.py activity: the same yields and fills"

like "$(hq-query --tool-schema)" 'filled_from names the workout ids' \
    "the tool schema says what filled_from holds"

# The other order: the same rows.
rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
hq-ingest -q "$T/ride.gpx" >/dev/null
hq-ingest -q "$T/ride-edge.fit" >/dev/null
hq-ingest -q "$T/ride-watch.xml" >/dev/null
is "$(listed)" "$gpx" "GPX, FIT, then the watch: the same"
done_testing
