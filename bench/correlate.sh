#!/bin/sh
# hq-correlate speed. Five years of the gen-export persona (per-minute heart
# rate, two devices' steps, CGM glucose every 5 minutes, sleep stages, HRV,
# workouts: about 20 metrics) in one store; then
#   hq-correlate sleep --against all
# against the baseline the statistics cannot beat: computing the same
# daily series alone, `hq-query M --by day` for sleep and each metric
# --against all pairs with it, one after the other, measured in the same
# run (goal: at most 1.2x). Times are the best of 3; peak RSS from GNU
# time. The store is cached in bench/tmp/, keyed by the generator's source
# and the years. HQ_BENCH_YEARS=N for fewer years.
set -eu
cd "$(dirname "$0")/.."
: "${HQ_BUILD:=$(pwd)/build}"
PATH="$HQ_BUILD/bin:$HQ_BUILD/tools:$PATH"
export PATH
YEARS=${HQ_BENCH_YEARS:-5}
TMP=bench/tmp
TIME=/usr/bin/time
HQ_TZ=America/Los_Angeles
export HQ_TZ

for tool in gen-export hq-ingest hq-query hq-correlate; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench/correlate: $tool not found — run 'make all'" >&2; exit 2; }
done
[ -x "$TIME" ] || { echo "bench/correlate: $TIME not found — install the 'time' package (make deps)" >&2; exit 2; }

mkdir -p "$TMP"
key=$(cksum <scripts/gen-export.c | cut -d' ' -f1)
HQ_DB="$TMP/correlate-${YEARS}y-$key.db"
export HQ_DB
if [ ! -s "$HQ_DB" ]; then
	rm -f "$TMP"/correlate-"$YEARS"y-*.db*
	days=$((YEARS * 365 + YEARS / 4))
	echo "   building a store of $YEARS years ($days days of the persona)..."
	gen-export --zip --days "$days" --start 2020-01-01 --seed 1 -o "$TMP/correlate.zip"
	hq-ingest -q "$TMP/correlate.zip" >/dev/null
	rm -f "$TMP/correlate.zip"
fi

. "$(dirname "$0")/lib.sh"

# The metrics --against all pairs with sleep (its rows' b), and sleep.
metrics="sleep $(hq-correlate sleep --against all --format csv | awk -F, 'NR > 1 { print $2 }' | tr '\n' ' ')"
nm=$(echo "$metrics" | wc -w)
samples=$(sqlite3 "$HQ_DB" 'select count(*) from sample' 2>/dev/null || echo "?")

series() {
	for m in $metrics; do
		hq-query "$m" --by day >/dev/null
	done
}

base=$(best series)
corr=$(best hq-correlate sleep --against all)
rss=$("$TIME" -f '%M' hq-correlate sleep --against all 2>&1 >/dev/null | tail -1)
awk -v c="$corr" -v b="$base" -v n="$nm" -v y="$YEARS" -v s="$samples" -v r="$rss" 'BEGIN {
	printf "   store: %s years, %s samples; sleep and %d metrics it is paired with\n", y, s, n - 1
	printf "%-44s %7.3f s\n", "daily series alone (hq-query M --by day x " n ")", b
	printf "%-44s %7.3f s  ratio %.2f (goal <= 1.2: %s)\n", "hq-correlate sleep --against all", c, c / b,
	    (c / b <= 1.2) ? "met" : "MISSED"
	printf "%-44s %7.1f MB\n", "hq-correlate peak RSS", r / 1024
}'
