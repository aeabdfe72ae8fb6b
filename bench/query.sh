#!/bin/sh
# hq-query speed. Five years of per-minute heart rate (~2.6 M samples) and
# steps from a Watch and an iPhone that overlap, in one store; then
#   hq-query heart_rate --by day     and   hq-query steps --by week
# over all of it, a year of day buckets, and heart rate by day on the days
# with 12000 steps (--when 'steps.sum>=12000', through lib/query/select.c), each
# against the plain SQL GROUP BY over the raw sample table (query-bench
# baseline; for --when, an IN over the days whose stored steps add up to
# 12000, unmerged, so it keeps more days than hq), measured in the same
# run. Times are the best of 3. The ratio compares hq's engine
# with the SQL, both in one process (query-bench hq / baseline); the
# hq-query command's time adds starting a process and printing.
# HQ_BENCH_YEARS=N for less.
set -eu
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-query.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_DB="$DIR/bench.db" HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_DB HQ_TZ TZ
YEARS=${HQ_BENCH_YEARS:-5}

echo "building a store of $YEARS years (per-minute heart rate, steps from two devices)..."
query-bench make "$HQ_DB" "$YEARS"

. "$(dirname "$0")/lib.sh"

# report NAME ENGINE BASELINE COMMAND [ABS_GOAL]: the ratio compares like
# with like (both in process); COMMAND is hq-query end to end.
report() {
	awk -v n="$1" -v h="$2" -v b="$3" -v c="$4" -v a="${5:-}" 'BEGIN {
		r = h / b
		printf "%-30s hq %7.4f s  SQL GROUP BY %7.4f s  ratio %5.3f (goal <= 0.25: %s)  hq-query command %7.4f s%s\n",
		    n, h, b, r, (r <= 0.25) ? "met" : "MISSED", c,
		    (a != "" ? sprintf(" (goal < %s s: %s)", a, (c < a) ? "met" : "MISSED") : "")
	}'
}

base() { query-bench baseline "$HQ_DB" "$1" | cut -d' ' -f1; }
eng() { query-bench hq "$HQ_DB" "$1" | cut -d' ' -f1; }

report "heart_rate --by day, $YEARS y" "$(eng hr-day)" "$(base hr-day)" \
	"$(best hq-query heart_rate --by day)"
report "steps --by week, $YEARS y" "$(eng steps-week)" "$(base steps-week)" \
	"$(best hq-query steps --by week)"
report "heart_rate --by day, 1 year" "$(eng hr-day-year)" "$(base hr-day-year)" \
	"$(best hq-query heart_rate --by day --from 2023-01-01 --to 2023-12-31)" 0.100
report "heart_rate by day --when, $YEARS y" "$(eng hr-day-when)" "$(base hr-day-when)" \
	"$(best hq-query heart_rate --by day --when 'steps.sum>=12000')"
echo "without rollups (raw samples, merged on the fly):"
printf '  heart_rate --by day %s s, steps --by week %s s\n' \
	"$(best hq-query heart_rate --by day --no-rollup)" \
	"$(best hq-query steps --by week --no-rollup)"
