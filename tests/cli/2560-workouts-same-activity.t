#!/usr/bin/env bash
# The same activity once (hq-ingest(1)): a ride recorded by an Apple
# Watch (tests/cli/data/same-ride-apple.xml, hand-made: the workout 2 s
# inside the Edge 810's ride of 2013-08-16, three heart rates inside it and
# two outside) and by the Edge 810 (its FIT fixture). Before the FIT import
# `workouts` lists the Apple workout and the day's heart rate is the
# watch's; after it, `workouts` lists the ride once, from the FIT file (more
# heart-rate samples), `--all-sources` both with same_as, and the day's
# heart rate averages the FIT's samples and the watch's two outside the
# ride, not both recordings of the ride. In either import order.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
need_fixtures workouts/fitparse/Edge810-Vector-2013-08-16-15-35-10.fit
FIT=$HQ_FIXTURES/workouts/fitparse/Edge810-Vector-2013-08-16-15-35-10.fit
APPLE=$HQ_ROOT/tests/cli/data/same-ride-apple.xml
q() { sqlite3 -separator ' ' "$HQ_DB" "$1"; }
sources() {
	hq-query workouts ${1:+"$1"} --format jsonl | python3 -c '
import json, sys
print(" / ".join("%s%s" % (r["source"], " same_as=%s" % r["same_as"] if r.get("same_as") else "")
    for r in map(json.loads, sys.stdin)))'
}
dayhr() {
	hq-query heart_rate --from 2013-08-16 --to 2013-08-16 --by day \
	    --agg avg,count --format csv "$@" | tail -1 | cut -d, -f6,7
}
# The FIT's heart rates as stored (1010 checks them against the README:
# 4671, mean 153.86) and the watch's two outside the ride (60 and 70):
# the day's mean by hand.
want() {
	q "SELECT printf('%.10g,%d', (sum(value) + 130) / (count(*) + 2), count(*) + 2)
	   FROM sample WHERE metric_id = (SELECT id FROM metric WHERE identifier =
	   'HKQuantityTypeIdentifierHeartRate') AND source_id = (SELECT id FROM
	   source WHERE name = 'Garmin Edge 810 (SN 3866465233)')"
}

hq-ingest -q "$APPLE" >/dev/null
is "$(sources)" "Apple Watch" "the Apple workout alone: listed"
is "$(dayhr)" "119,5" "the day's heart rate: the watch's (60+70+150+160+155)/5"

hq-ingest -q "$FIT" >/dev/null
is "$(sources)" "Garmin Edge 810 (SN 3866465233)" \
    "with the FIT: the ride once, from the FIT file (4671 heart rates to 3)"
fit=$(q "SELECT w.id FROM workout w JOIN source s ON s.id = w.source_id WHERE s.name LIKE 'Garmin%'")
is "$(sources --all-sources)" "Apple Watch same_as=$fit / Garmin Edge 810 (SN 3866465233)" \
    "--all-sources: both (newest first: the watch started 2 s later), the watch's naming the FIT's"
w=$(want)
is "$(dayhr)" "$w" "the day's heart rate: the FIT's and the watch's two outside the ride ($w)"
is "$(dayhr --no-rollup)" "$w" "the same from raw samples"
is "$(dayhr --source 'Apple Watch')" "119,5" "--source still shows every watch sample"
hq-query workouts --type cycling --format jsonl >"$T/w"
is "$(wc -l <"$T/w" | tr -d ' ')" 1 "--type cycling: once"

hq-ingest -q "$APPLE" >/dev/null
is "$(sources)" "Garmin Edge 810 (SN 3866465233)" "the export again: still once"

# The other order
export HQ_DB="$T/other.db"
hq-ingest -q "$FIT" >/dev/null
hq-ingest -q "$APPLE" >/dev/null
is "$(sources)" "Garmin Edge 810 (SN 3866465233)" "FIT first, then the export: once, the FIT's"
is "$(dayhr)" "$(want)" "and the same day's heart rate"

done_testing
