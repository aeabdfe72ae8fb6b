#!/bin/sh
# hq-query speed. Five years of per-minute heart rate (~2.6 M samples) and
# steps from a Watch and an iPhone that overlap, in one store; then
#   hq-query heart_rate --by day     and   hq-query steps --by week
# over all of it, and a year of day buckets, each against the plain SQL
# GROUP BY over the raw sample table (query-bench baseline), measured in
# the same run. Times are the best of 3; hq-query's include starting the
# process and printing, the baseline's do not. HQ_BENCH_YEARS=N for less.
set -eu
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-query.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_DB="$DIR/bench.db" HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_DB HQ_TZ TZ
YEARS=${HQ_BENCH_YEARS:-5}

echo "building a store of $YEARS years (per-minute heart rate, steps from two devices)..."
query-bench make "$HQ_DB" "$YEARS"

# best CMD...: the best wall time of three runs, in seconds.
best() {
	b=999
	for _ in 1 2 3; do
		s=$(date +%s.%N)
		"$@" >/dev/null
		e=$(date +%s.%N)
		b=$(awk -v b="$b" -v s="$s" -v e="$e" 'BEGIN { d = e - s; print (d < b) ? d : b }')
	done
	echo "$b"
}

report() {
	# report NAME HQ_SECONDS BASELINE_SECONDS GOAL_RATIO [ABS_GOAL]
	awk -v n="$1" -v h="$2" -v b="$3" -v g="$4" -v a="${5:-}" 'BEGIN {
		r = h / b
		printf "%-34s hq-query %8.4f s   SQL GROUP BY %8.4f s   ratio %6.3f (goal <= %s)%s\n",
		    n, h, b, r, g, (a != "" ? sprintf("   goal < %s s: %s", a, (h < a) ? "met" : "MISSED") : "")
	}'
}

hr=$(best hq-query heart_rate --by day)
hr_raw=$(best hq-query heart_rate --by day --no-rollup)
hr_base=$(query-bench baseline "$HQ_DB" hr-day | cut -d' ' -f1)
st=$(best hq-query steps --by week)
st_raw=$(best hq-query steps --by week --no-rollup)
st_base=$(query-bench baseline "$HQ_DB" steps-week | cut -d' ' -f1)
yr=$(best hq-query heart_rate --by day --from 2023-01-01 --to 2023-12-31)
yr_base=$(query-bench baseline "$HQ_DB" hr-day-year | cut -d' ' -f1)

report "heart_rate --by day ($YEARS y)" "$hr" "$hr_base" 0.25
report "  same, raw samples (--no-rollup)" "$hr_raw" "$hr_base" -
report "steps --by week ($YEARS y, merged)" "$st" "$st_base" 0.25
report "  same, raw samples (--no-rollup)" "$st_raw" "$st_base" -
report "heart_rate --by day, one year" "$yr" "$yr_base" 0.25 0.100
