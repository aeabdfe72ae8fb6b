#!/usr/bin/env bash
# The legs of one multisport file are never the same activity as each
# other (issue 28, item 2; hq-ingest(1), THE SAME ACTIVITY RECORDED TWICE:
# never two of one import and one source). tests/cli/data/mksame.py legs
# writes a bike computer's triathlon whose swim states an elapsed time of
# 7,000 s, running past the bike's and the run's starts (the fenix 2 file of
# the issue), a heart rate every 2 s in each leg (100, 101, 102: 900, 1,500
# and 1,000 of them), and a GPX of two tracks that overlap by 400 s of
# 1,000. Before, the swim hid the bike and the run (one workout listed) and
# the day's heart rate lost theirs; now every leg is listed, none yields,
# and the day's heart rate is all 3,400: (900 x 100 + 1500 x 101 + 1000 x
# 102) / 3400, whatever span the decoder gives the swim.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
python3 "$HQ_ROOT/tests/cli/data/mksame.py" "$T" legs
export HQ_TZ=UTC
q() { sqlite3 "$HQ_DB" "$1"; }
types() {
	hq-query workouts --format jsonl | python3 -c '
import json, sys
print(" ".join(sorted(json.loads(l)["type"] for l in sys.stdin)))'
}

run hq-ingest -q "$T/legs.fit"
is "$rc" 0 "the multisport file imports"
is "$(q 'SELECT count(*) FROM workout')" 3 "three legs"
is "$(types)" "cycling running swimming" "hq-query workouts lists every leg"
is "$(q 'SELECT count(*) FROM workout_same')" 0 "none yields to another leg"
is "$(hq-query heart_rate --from 2024-01-01 --to 2024-01-01 --by day \
    --agg avg,count --format csv | tail -1 | cut -d, -f6,7)" \
    "$(python3 -c 'print("%.10g,3400" % ((900 * 100 + 1500 * 101 + 1000 * 102) / 3400))')" \
    "the day's heart rate: every leg's samples"
is "$(hq-query heart_rate --from 2024-01-01 --to 2024-01-01 --by day \
    --agg avg,count --format csv --no-rollup | tail -1 | cut -d, -f6,7)" \
    "$(python3 -c 'print("%.10g,3400" % ((900 * 100 + 1500 * 101 + 1000 * 102) / 3400))')" \
    "the same from raw samples"

rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
run hq-ingest -q "$T/legs.gpx"
is "$rc" 0 "the GPX of two tracks imports"
is "$(hq-query workouts --format jsonl | wc -l | tr -d ' ')" 2 \
    "both tracks listed: one file's tracks are never one activity"

# A second file of another source recording the same ride is: the legs'
# rule is about one import and one source.
rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
sed 's/creator="Strava"/creator="Wahoo"/' "$T/legs.gpx" >"$T/other.gpx"
hq-ingest -q "$T/legs.gpx" "$T/other.gpx" >/dev/null
is "$(hq-query workouts --format jsonl | wc -l | tr -d ' ')" 2 \
    "with another source's copy: still two listed"
is "$(q "SELECT group_concat((w.start - k.start) || ':' || (w.end - k.end), ' ')
    FROM workout_same ws JOIN workout w ON w.id = ws.workout_id
    JOIN workout k ON k.id = ws.same_as")" "0:0 0:0" \
    "each copy yields to its twin (the counted partner it overlaps most)"
done_testing
