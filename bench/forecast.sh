#!/bin/sh
# hq-report forecast METRIC over 10 years of daily values (3,650 days from
# a store, four samples a day): it is trend's selection (never the 6.7 M
# slopes held) plus two medians and two quantiles of n values, so its
# cost is trend's. Printed as the ratio forecast / trend of the best of 3
# runs each in this run, peak RSS from GNU time. Goal (issue 32): under
# 1 s and 64 MB.
set -eu
. "$(dirname "$0")/lib.sh"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-forecast.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_DB=$DIR/hq.db HQ_TZ=UTC
export HQ_DB HQ_TZ
awk 'BEGIN { srand(32); for (d = 0; d < 3650; d++) for (h = 1; h < 24; h += 6)
	printf "{\"metric\":\"body_mass\",\"start\":%d,\"value\":%.2f,\"unit\":\"kg\"}\n",
	    1262304000 + d * 86400 + h * 3600, 82 - 0.002 * d + sin(d / 40) + rand() }' \
	>"$DIR/w.jsonl"
hq-ingest -q "$DIR/w.jsonl" >/dev/null
t=$(best hq-report trend weight)
f=$(best hq-report forecast weight --ahead 1y --target 75)
m=$(/usr/bin/time -f '%M' hq-report forecast weight --ahead 1y --target 75 2>&1 >/dev/null | tail -1)
awk -v t="$t" -v f="$f" -v m="$m" 'BEGIN {
	printf "hq-report forecast, 3650 days: %.3f s %4.1f MB, %.2fx trend (%.3f s)\n" \
	    "  goal < 1 s and < 64 MB: %s\n", f, m / 1024, f / t, t,
	    (f < 1 && m < 65536) ? "met" : "MISSED"
}'
