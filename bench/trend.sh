#!/bin/sh
# hq-report trend's engine: 10 years of daily values (3,650 days, 6.7 M
# pairwise slopes). Goal (issue 20): under 1 s and 64 MB. hq_trend()
# (slopes selected pass by pass, never held) against the plain way (every
# slope in an array, sorted) in a process of its own each (hq best of five):
# seconds, peak RSS, and the slope and interval, which must agree.
set -eu
h=$(trend-bench hq 3650)
s=$(trend-bench sort 3650)
echo "$h" "$s" | awk '{
	same = ($3 == $8 && $4 == $9 && $5 == $10) ? "same" : "DIFFER"
	printf "trend, 3650 days: hq %.3f s %4.1f MB  sort %.3f s %5.1f MB  " \
	    "ratio %.2f\n  goal < 1 s and < 64 MB: %s; slope and interval: %s\n",
	    $1, $2 / 1024, $6, $7 / 1024, $1 / $6,
	    ($1 < 1 && $2 < 65536) ? "met" : "MISSED", same
}'
trend-bench hq 7300 | awk '{
	printf "trend, 7300 days (20 years): hq %.3f s %4.1f MB\n", $1, $2 / 1024
}'
# The command (hq-report trend METRIC): the same 3,650 days of resting
# heart rate as a store (four samples a day, read back by day through the
# rollups), the daily values, the trend and its row; best of 3, peak RSS
# from GNU time. Goal: under 1 s and 64 MB.
. "$(dirname "$0")/lib.sh"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-trend.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_DB=$DIR/hq.db HQ_TZ=UTC
export HQ_DB HQ_TZ
awk 'BEGIN { srand(20); for (d = 0; d < 3650; d++) for (h = 1; h < 24; h += 6)
	printf "{\"metric\":\"resting_heart_rate\",\"start\":%d,\"value\":%.1f}\n",
	    1262304000 + d * 86400 + h * 3600, 58 + 0.0008 * d + 2 * sin(d / 58) + 4 * rand() }' \
	>"$DIR/rhr.jsonl"
hq-ingest -q "$DIR/rhr.jsonl" >/dev/null
s=$(best hq-report trend resting_heart_rate)
m=$(/usr/bin/time -f '%M' hq-report trend resting_heart_rate 2>&1 >/dev/null | tail -1)
n=$(hq-report trend resting_heart_rate | sed 's/.*"n":\([0-9]*\).*/\1/')
awk -v s="$s" -v m="$m" -v n="$n" 'BEGIN {
	printf "hq-report trend, %d days from a store: %.3f s %4.1f MB\n" \
	    "  goal < 1 s and < 64 MB: %s\n", n, s, m / 1024,
	    (s < 1 && m < 65536) ? "met" : "MISSED"
}'
