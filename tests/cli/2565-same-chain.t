#!/usr/bin/env bash
# A chain of same-activity links never hides a real workout (issue 29,
# item 3; hq-ingest(1): a recording yields only to one that is itself
# counted). tests/cli/data/mksame.py chain: a bike computer's triathlon
# (swim 30 min, a heart rate every 4 s: 450; bike 60 min, every second:
# 3,600; run 30 min, every second: 1,800) and a watch's recording of the
# whole race (120 min, a heart rate every 5 s: 1,440). By the rule: the
# bike ranks first and is counted; the run (the bike's file and source:
# never its partner) is counted; the watch overlaps both by more than half
# of the shorter and yields to the one it overlaps most, the bike; the
# swim's one partner, the watch, is not counted, so the swim is counted.
# Before, the swim yielded to the watch and vanished: 2 workouts, 90 min.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
python3 "$HQ_ROOT/tests/cli/data/mksame.py" "$T" chain
export HQ_TZ=UTC
listed() {
	hq-query workouts --format jsonl | python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.stdin]
print(" ".join(sorted(r["type"] for r in rs)), sum(r["duration_min"] for r in rs))'
}
for order in "tri-edge.fit tri-watch.xml" "tri-watch.xml tri-edge.fit"; do
	rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
	for f in $order; do hq-ingest -q "$T/$f" >/dev/null; done
	is "$(listed)" "cycling running swimming 120" \
	    "$order: the three legs listed, 120 min; the watch's copy yields"
	is "$(sqlite3 "$HQ_DB" "SELECT s.name, ks.name FROM workout_same ws
	    JOIN workout w ON w.id = ws.workout_id JOIN source s ON s.id = w.source_id
	    JOIN workout k ON k.id = ws.same_as JOIN source ks ON ks.id = k.source_id
	    WHERE k.end - k.start = 3600")" "Forerunner|Garmin Edge 810 (SN 7003)" \
	    "$order: the watch yields to the bike leg"
	is "$(python3 "$HQ_ROOT/tests/data/athlete/reference.py" activity "$HQ_DB" | grep -c yield)" 1 \
	    "$order: reference.py activity: one yields"
done
# The week's minutes count the swim (hq-report reads the same rows).
is "$(hq-query workouts --type swimming --format jsonl | wc -l | tr -d ' ')" 1 \
    "--type swimming: the swim"
done_testing
