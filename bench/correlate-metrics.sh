#!/bin/sh
# hq-correlate --against all as the number of metrics grows (issue 23 item
# 2: it was quadratic, 1,000 metrics 3.4 s and 5,000 over two minutes).
# Stores of 1,000 and 5,000 custom metrics x 60 days of JSON lines (plus
# steps, the A), then
#   hq-correlate steps --against all
# over each: the cost per metric at 5,000 against the cost per metric at
# 1,000, measured in the same run (goal: at most 1.5x; linear is 1), and
# 5,000 metrics in under 10 s. Times are the best of 3. The stores are
# cached in bench/tmp/ (each import takes some 25 s).
set -eu
cd "$(dirname "$0")/.."
: "${HQ_BUILD:=$(pwd)/build}"
PATH="$HQ_BUILD/bin:$PATH"
export PATH
TMP=bench/tmp
HQ_TZ=UTC
export HQ_TZ

for tool in hq-ingest hq-correlate; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench/correlate-metrics: $tool not found — run 'make all'" >&2; exit 2; }
done
mkdir -p "$TMP"
. "$(dirname "$0")/lib.sh"

# store N: a store of N metrics m0.. and steps, 60 days (2024-01-01 on),
# one value a day each, in $TMP/metrics-N.db.
store() {
	db="$TMP/metrics-$1.db"
	if [ ! -s "$db" ]; then
		echo "   building a store of $1 metrics x 60 days..." >&2
		awk -v n="$1" 'BEGIN {
			srand(1)
			for (d = 0; d < 60; d++) {
				day = sprintf("2024-%02d-%02d", d < 31 ? 1 : 2, d < 31 ? d + 1 : d - 30)
				printf "{\"metric\":\"steps\",\"start\":\"%sT12:00:00Z\",\"end\":\"%sT12:10:00Z\",\"value\":%d}\n", day, day, 1000 + int(rand() * 5000)
				for (m = 0; m < n; m++)
					printf "{\"metric\":\"m%d\",\"start\":\"%sT12:00:00Z\",\"value\":%.3f}\n", m, day, rand()
			}
		}' >"$TMP/metrics.jsonl"
		hq-ingest -q --db "$db" "$TMP/metrics.jsonl" >/dev/null
		rm -f "$TMP/metrics.jsonl"
	fi
	echo "$db"
}

small=$(store 1000)
large=$(store 5000)
t1=$(best hq-correlate --db "$small" steps --against all)
t5=$(best hq-correlate --db "$large" steps --against all)
awk -v a="$t1" -v b="$t5" 'BEGIN {
	r = (b / 5000) / (a / 1000)
	printf "%-44s %7.3f s\n", "steps --against all, 1,000 metrics", a
	printf "%-44s %7.3f s  (goal < 10 s: %s)\n", "steps --against all, 5,000 metrics", b,
	    (b < 10) ? "met" : "MISSED"
	printf "%-44s %7.2f   (goal <= 1.5: %s)\n", "cost per metric, 5,000 / 1,000", r,
	    (r <= 1.5) ? "met" : "MISSED"
}'
