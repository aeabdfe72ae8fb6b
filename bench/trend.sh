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
