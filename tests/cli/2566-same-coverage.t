#!/usr/bin/env bash
# Coverage, not raw counts (issue 29, item 4; hq-ingest(1): a recording
# covers the distinct seconds of its source's heart rates inside it).
# tests/cli/data/mksame.py second: a 50-minute run (FIT, a heart rate of
# 150 every 5 s: 600 seconds covered) and a 1-second recording of another
# source with 5,000 heart rates stamped on one second (60.00 to 109.99: one
# second covered). By the rule the run is counted and the second yields.
# Before, 5,000 samples won: the list showed a 0.02-minute run and the
# day's heart rate fell from 150 to 107.6. Now the run is listed and the
# day's heart rate is the run's 150 (the samples of the recording that
# yields, inside its time, are left out: hq-query(1)).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"
python3 "$HQ_ROOT/tests/cli/data/mksame.py" "$T" second
export HQ_TZ=UTC
dayhr() {
	hq-query heart_rate --from 2024-01-01 --to 2024-01-01 --by day \
	    --agg avg,count --format csv "$@" | tail -1 | cut -d, -f6,7
}
for order in "run.fit second.xml" "second.xml run.fit"; do
	rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
	for f in $order; do hq-ingest -q "$T/$f" >/dev/null; done
	is "$(hq-query workouts --format jsonl | python3 -c '
import json, sys
print(" ".join("%s %g" % (r["source"], r["duration_min"]) for r in map(json.loads, sys.stdin)))')" \
	    "Garmin Edge 810 (SN 7004) 50" "$order: the 50-minute run listed"
	is "$(dayhr)" "150,600" "$order: the day's heart rate is the run's"
	is "$(dayhr --no-rollup)" "150,600" "$order: the same from raw samples"
done
done_testing
