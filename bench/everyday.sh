#!/bin/sh
# hq-report alerts and goals speed (issue 20: alerts < 100 ms over 10 years
# of per-minute heart rate). Ten years of the gen-export persona with
# --everyday (per-minute heart rate, two devices' steps, CGM glucose every
# 5 minutes, sleep stages, HRV, resting heart rate, activity summaries) in
# one store; then, best of 3 wall times:
#   hq-report alerts over the last week of data (baselines from the 28
#     days before, labs, CGM), goal < 100 ms;
#   hq-report goals over the last 4 weeks with four [goals] and the rings
#     (every period from the first data, for the streaks);
#   beside them, what the daily values alone cost: hq-query
#     resting_heart_rate --by day over the same 5 weeks, and hq-query
#     heart_rate --by day over all 10 years (rollups).
# The store is cached in bench/tmp/, keyed by the generator's source and
# the years. HQ_BENCH_YEARS=N for fewer years.
set -eu
cd "$(dirname "$0")/.."
: "${HQ_BUILD:=$(pwd)/build}"
PATH="$HQ_BUILD/bin:$HQ_BUILD/tools:$PATH"
export PATH
YEARS=${HQ_BENCH_YEARS:-10}
TMP=bench/tmp
HQ_TZ=America/Los_Angeles
export HQ_TZ

for tool in gen-export hq-ingest hq-query hq-report; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench/everyday: $tool not found — run 'make all'" >&2; exit 2; }
done

mkdir -p "$TMP"
key=$(cksum <scripts/gen-export.c | cut -d' ' -f1)
HQ_DB="$TMP/everyday-${YEARS}y-$key.db"
HQ_CONFIG="$TMP/everyday.config"
export HQ_DB HQ_CONFIG
days=$((YEARS * 365 + YEARS / 4))
if [ ! -s "$HQ_DB" ]; then
	rm -f "$TMP"/everyday-"$YEARS"y-*.db*
	echo "   building a store of $YEARS years ($days days of the persona)..."
	gen-export --zip --days "$days" --start 2016-01-01 --seed 1 --everyday -o "$TMP/everyday.zip"
	hq-ingest -q "$TMP/everyday.zip" >/dev/null
	rm -f "$TMP/everyday.zip"
fi
printf '[goals]\nsteps = 10000/day\nsleep = 7h/night\nexercise_time = 150min/week\nweight = <= 72kg/week\n' >"$HQ_CONFIG"

. "$(dirname "$0")/lib.sh"

# the last day of data and the ranges before it
last=$(hq-query heart_rate --by day --format csv | tail -1 | cut -d, -f2)
week=$(python3 -c "import datetime as d; x = d.date.fromisoformat('$last'); print(x - d.timedelta(6))")
five=$(python3 -c "import datetime as d; x = d.date.fromisoformat('$last'); print(x - d.timedelta(34))")
month=$(python3 -c "import datetime as d; x = d.date.fromisoformat('$last'); print(x - d.timedelta(27))")
hr=$(sqlite3 "$HQ_DB" "select count(*) from sample s join metric m on m.id = s.metric_id where m.identifier = 'HKQuantityTypeIdentifierHeartRate'" 2>/dev/null || echo "?")

alerts() { hq-report alerts --from "$week" --to "$last" || [ $? -eq 1 ]; }
a=$(best alerts)
g=$(best hq-report goals --from "$month" --to "$last")
q=$(best hq-query resting_heart_rate --by day --from "$five" --to "$last")
h=$(best hq-query heart_rate --by day)
n=$(alerts | wc -l)
awk -v a="$a" -v g="$g" -v q="$q" -v h="$h" -v y="$YEARS" -v hr="$hr" -v n="$n" -v w="$week" -v l="$last" 'BEGIN {
	printf "   store: %s years, %s heart-rate samples; the last week %s .. %s\n", y, hr, w, l
	printf "%-50s %7.3f s  (%d alerts; goal < 0.1 s: %s)\n", "hq-report alerts (the last week)", a, n,
	    (a < 0.1) ? "met" : "MISSED"
	printf "%-50s %7.3f s\n", "hq-report goals (4 weeks, 4 goals and 3 rings)", g
	printf "%-50s %7.3f s\n", "hq-query resting_heart_rate --by day (5 weeks)", q
	printf "%-50s %7.3f s\n", "hq-query heart_rate --by day (all, rollups)", h
}'
