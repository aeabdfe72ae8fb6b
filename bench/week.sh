#!/bin/sh
# hq-report week over ten years of per-minute heart rate (query-bench make:
# ~5.2 M samples, steps from two devices) and ten years of daily resting
# heart rate, HRV and weight: the week's daily values come from the
# rollups, never the samples. Goal (issue 20): under 100 ms, the command
# end to end, best of 3; beside it the same store's
# hq-query heart_rate --by day over the same 13 weeks, and --no-rollup.
set -eu
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-week.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_DB="$DIR/bench.db" HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_DB HQ_TZ TZ
. "$(dirname "$0")/lib.sh"

echo "building a store of 10 years (per-minute heart rate, steps, daily rhr, hrv, weight)..."
query-bench make "$HQ_DB" 10 >/dev/null
awk 'BEGIN { srand(7); for (d = 0; d < 3650; d++) { t = 1577865600 + d * 86400 + 7 * 3600
	printf "{\"metric\":\"resting_heart_rate\",\"start\":%d,\"value\":%.0f}\n", t, 55 + 6 * rand()
	printf "{\"metric\":\"hrv\",\"start\":%d,\"value\":%.1f}\n", t + 60, 40 + 20 * rand()
	if (d % 3 == 0) printf "{\"metric\":\"weight\",\"start\":%d,\"value\":%.1f,\"unit\":\"kg\"}\n", t + 120, 72 + 2 * rand() } }' \
	>"$DIR/daily.jsonl"
hq-ingest -q "$DIR/daily.jsonl" >/dev/null
rows=$(hq-report week --week 2029-W50 | wc -l)
w=$(best hq-report week --week 2029-W50)
h=$(best hq-report week --week 2029-W50 --format html)
q=$(best hq-query heart_rate --by day --from 2029-09-17 --to 2029-12-16)
r=$(best hq-query heart_rate --by day --from 2029-09-17 --to 2029-12-16 --no-rollup)
awk -v w="$w" -v h="$h" -v q="$q" -v r="$r" -v n="$rows" 'BEGIN {
	printf "hq-report week, 10 years: %.4f s (%d measures), html %.4f s  goal < 0.1 s: %s\n",
	    w, n, h, (w < 0.1 && h < 0.1) ? "met" : "MISSED"
	printf "  beside it, 13 weeks of heart_rate --by day: rollups %.4f s, raw samples %.4f s\n", q, r
}'
