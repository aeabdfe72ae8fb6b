#!/usr/bin/env bash
# hq-query on a small hand-made store whose answers can be worked out on
# paper (tests/cli/data/query-small.jsonl, America/Los_Angeles):
#   steps   Watch 09:00-09:10 1000; iPhone 09:05-09:15 600 (half of it under
#           the Watch: 300 count); iPhone 23:50-00:10 200 (100 each day)
#           → Dec 2 = 1400 (naive sum 1800), Dec 3 = 100
#   heart   70 at "2024-12-02 00:30:00 -0700" = 23:30 PST on Dec 1;
#           60 and 80 on Dec 2; 100 on Dec 3
#   exercise 65 min on Dec 2, 20 on Dec 3
#   sleep   night of Dec 3: Watch core 3 h + deep 1 h + REM 2.5 h (+ 0.5 h
#           awake); AutoSleep "asleep" 6.75 h (a lower-ranked source);
#           iPhone in bed 8 h
. "$(dirname "$0")/lib.sh"

command -v hq-ingest >/dev/null || skip_all "hq-ingest not built"
hq-ingest -q "$HQ_ROOT/tests/cli/data/query-small.jsonl" >/dev/null
ok $? "ingested the small store"

field() { python3 -c 'import json,sys; k=sys.argv[1]; print(" ".join(str(json.loads(l).get(k)) for l in sys.stdin))' "$1"; }

# --- merging devices, splitting at midnight ------------------------------------
run hq-query steps --by day
is "$rc" 0 "steps --by day exits 0"
is "$(printf '%s\n' "$out" | field period)" "2024-12-02 2024-12-03" "one row per local day"
is "$(printf '%s\n' "$out" | field value)" "1400 100" "Watch + iPhone outside the Watch, split pro rata at midnight"
is "$(hq-query steps --by day --source "Sam's iPhone" | field value)" "700 100" "--source: one device, unmerged"
is "$(hq-query steps | field value)" "1000 300 200" "without --by: each sample's counted share"
is "$(hq-query steps | field sample_value)" "1000 600 200" "and what the sample itself says"
is "$(hq-query step_count HKQuantityTypeIdentifierStepCount --by day | field value)" "1400 100 1400 100" "names, aliases and identifiers are one metric"
mkdir -p "$T/config/hq"
printf '[query]\nsource_priority = iPhone, Apple Watch\n' >"$T/config/hq/config"
is "$(hq-query steps --by day | field value)" "1200 100" "source_priority in the config puts the iPhone first (600 + 100 + the Watch's uncovered 500)"
rm "$T/config/hq/config"

# --- days in the zone, not in the written offset ----------------------------------
run hq-query heart_rate --by day --agg avg,min,max
is "$(printf '%s\n' "$out" | field period)" "2024-12-01 2024-12-02 2024-12-03" "23:30 PST written as 00:30 -0700 stays on Dec 1"
is "$(printf '%s\n' "$out" | field min)" "70 60 100" "daily minimum"
is "$(printf '%s\n' "$out" | field max)" "70 80 100" "daily maximum"
is "$(hq-query heart_rate --by day --tz Asia/Tokyo | field period)" "2024-12-02 2024-12-03 2024-12-04" "--tz moves the days"
like "$(printf '%s\n' "$out" | head -1)" '"start":"2024-12-01T00:00:00-08:00","end":"2024-12-02T00:00:00-08:00"' "start and end are local, with their offset"
like "$(printf '%s\n' "$out" | head -1)" '^\{"metric":"heart_rate","period":"2024-12-01","start":"[^"]*","end":"[^"]*","value":70,"avg":70,"min":70,"max":70,"n":1,"unit":"count/min"\}$' "row fields in the documented order"

# --- sleep ---------------------------------------------------------------------
is "$(hq-query sleep | field value)" "6.5" "asleep: the Watch's stages, not AutoSleep's, not in-bed"
is "$(hq-query sleep | field period)" "2024-12-03" "the night belongs to the date it ends"
is "$(hq-query sleep_in_bed | field value)" "8" "in bed is its own metric"
is "$(hq-query sleep_deep sleep_rem sleep_core sleep_awake | field value)" "1 2.5 3 0.5" "stages per night"
is "$(hq-query sleep --source AutoSleep | field value)" "6.75" "--source picks another source's night"
is "$(hq-query sleep_analysis | field category)" "in_bed asleep_core asleep_unspecified asleep_deep awake asleep_rem" \
	"the raw sleep samples, each with its stage"
is "$(hq-query sleep_analysis --by day --agg count | field value)" "3 3" "category samples counted by the day they start"

# --- aggregation -------------------------------------------------------------------
is "$(hq-query heart_rate --agg avg,count,median,first,last,p90 | field p90)" "94" "--agg without --by: one row for the range (p90 interpolated)"
is "$(hq-query heart_rate --agg avg,count | field period)" "2024-12-01/2024-12-03" "its period spans the days of the data"
is "$(hq-query heart_rate --agg count,avg | field value)" "4" "value is the first aggregation"
is "$(hq-query heart_rate --from 2024-12-02 --to 2024-12-02 --agg stddev | field value)" "14.14213562" "sample standard deviation (n - 1)"
is "$(hq-query steps --by month --agg sum,avg,count | field avg)" "750" "cumulative months average their daily totals"
is "$(hq-query exercise_time --by week | field value)" "85" "ISO week 2024-W49 holds Dec 2 and 3"
is "$(hq-query exercise_time --by week | field period)" "2024-W49" "week label"

# --- --where and --when ----------------------------------------------------------------
is "$(hq-query heart_rate --where 'value>65' | field value)" "70 80 100" "--where filters samples"
is "$(hq-query heart_rate --by day --agg avg,max --where 'max>=80 and avg<90' | field period)" "2024-12-02" "--where filters buckets by their aggregates"
is "$(hq-query heart_rate --by day --when 'exercise_time.sum>=60' | field period)" "2024-12-02" "--when keeps the days with an hour of exercise"
is "$(hq-query heart_rate --by day --when 'exercise_time.sum>=10' --when 'heart_rate.max>90' | field period)" "2024-12-03" "several --when are ANDed"
is "$(hq-query heart_rate --agg avg --when 'exercise_time.sum>=60' | field value)" "70" "--when also filters a whole-range aggregate"
is "$(hq-query steps --by day --when 'sleep.value>6' | field period)" "2024-12-03" "--when on a night's sleep"
is "$(hq-query sleep --when 'exercise_time.sum[-1]>=60' | field period)" "2024-12-03" "--when with [-1]: the night after the day with an hour of exercise"
run hq-query sleep --when 'exercise_time.sum>=60'
is "$rc" 1 "...not the night before it (a night is dated by its morning)"
run hq-query heart_rate --where 'value[-1]>3'
is "$rc" 2 "a day offset in --where is refused"
mkdir -p "$T/config/hq"
printf '[query]\nsleep_cutoff = 1\n' >"$T/config/hq/config"
is "$(hq-query sleep | field period)" "2024-12-04" "sleep_cutoff = 1 in the config: sleep ending after 01:00 belongs to the next date"
rm "$T/config/hq/config"

# --- limit, offset, formats -----------------------------------------------------------
is "$(hq-query heart_rate --limit 2 --offset 1 | field value)" "60 80" "--offset then --limit"
run hq-query heart_rate --by day --format csv
is "$(printf '%s\n' "$out" | head -1)" "metric,period,start,end,value,avg,n,unit" "csv header"
run hq-query heart_rate --by day --format json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" 3 "json: one array"

# --- the data summary and completion -----------------------------------------------------
run hq-query --list
is "$rc" 0 "--list exits 0"
like "$out" '"metric":"step_count","identifier":"HKQuantityTypeIdentifierStepCount","kind":"cumulative","unit":"count","count":3,"first":"2024-12-02T09:00:00-08:00","last":"2024-12-03T00:10:00-08:00","sources":\["Sam.s Apple Watch","Sam.s iPhone"\],"type":null\}' "--list: unit, count, first, last, sources (an array)"
like "$out" '"metric":"sleep","identifier":"HKCategoryTypeIdentifierSleepAnalysis","kind":"sleep","unit":"h","count":1,' "--list: the nights sleep analysis makes"
run hq-query --complete-metrics
like "$out" "^heart_rate$" "--complete-metrics names the metrics in the store"
like "$out" "^sleep_deep$" "and the nights made from sleep analysis"
unlike "$out" "body_mass" "but not metrics the store lacks"

# --- bad input: exit 2 with what and how to fix -----------------------------------------
run hq-query hart_rate
is "$rc" 2 "unknown metric exits 2"
is "$err" "hq-query: unknown metric 'hart_rate' (did you mean heart_rate?)" "and suggests the name"
run hq-query heart_rate --from 2024-13-45
is "$rc" 2 "unparseable date exits 2"
like "$err" "^hq-query: --from: .*2024-13-45" "and names the option and the date"
run hq-query heart_rate --from 2024-12-03 --to 2024-12-01
is "$rc" 2 "--from after --to exits 2"
like "$err" "after --to.*swap" "and says so"
run hq-query heart_rate --where 'value >'
is "$rc" 2 "bad expression exits 2"
like "$err" "bad expression 'value >' at column 8" "and points at the column"
run hq-query heart_rate --by day --where 'p90>100'
is "$rc" 2 "--where on an aggregation not computed exits 2"
like "$err" "add it, e.g. --agg avg,p90" "and says how to add it"
run hq-query heart_rate --when 'sum>60'
is "$rc" 2 "--when without a metric exits 2"
like "$err" "needs a metric" "and says what it needs"
run hq-query heart_rate --agg avg,p101
is "$rc" 2 "unknown aggregation exits 2"
run hq-query heart_rate --by fortnight
is "$rc" 2 "unknown period exits 2"
is "$err" "hq-query: option '--by' takes hour, day, week, month or year, not 'fortnight'
try 'hq-query --help'" "in one line, then where to look"
run hq-query steps --source "Sam's iphon"
is "$rc" 2 "unknown source exits 2"
like "$err" "did you mean 'Sam's iPhone'" "and suggests the source"
run hq-query
is "$rc" 2 "no metric is a usage error"

# --- nothing found: exit 1 ---------------------------------------------------------
run hq-query heart_rate --from 2020-01-01 --to 2020-01-31
is "$rc" 1 "no rows exits 1"
is "$out" "" "and prints nothing"
run hq-query body_mass
is "$rc" 1 "a known metric the store lacks exits 1"

# --- the tool schema ---------------------------------------------------------------
run hq-query --tool-schema
is "$(printf '%s' "$out" | python3 -c '
import json, sys
t = json.load(sys.stdin)
p = t["parameters"]["properties"]
print(t["name"], p["metrics"]["type"], " ".join(sorted(k for k in p if k != "metrics")), "format" in p)')" \
	"hq_query array agg all_sources by count from ftp in limit list lthr max_hr min_duration mode near offset rest_hr source splits to type tz when where False" \
	"--tool-schema: hq_query, metrics array, the options by name, no format"
like "$out" "exercise_time.sum>=60" "descriptions teach --when by example"

# --- n of cumulative day buckets: samples whose counted part starts there ---------
# (documented in hq-query(1) "The count n"): Dec 2 holds the Watch's, the
# iPhone's uncovered 09:10-09:15 and the 23:50 start; Dec 3 only the part of
# that sample carried over midnight, so its n is 0. Rollups and raw agree.
is "$(hq-query steps --by day --agg sum,count,avg | field n)" "3 0" "cumulative n: samples starting in the day"
is "$(hq-query steps --by day --agg sum,count,avg --no-rollup | field n)" "3 0" "the same from the raw samples"
is "$(hq-query steps --by day --agg sum,count,avg | field avg)" "466.6666667 None" "avg = sum / n, null when n is 0"
is "$(hq-query steps --by hour --from 2024-12-02T23:00 --to 2024-12-03T01:00 | field n)" "1 0" \
	"by hour: the 23:00 hour counts the sample, the 00:00 hour holds only its carried-over part"

# --- hour labels carry the offset: the repeated hour of a fall-back night -------
cat >"$T/dst.jsonl" <<'EOF2'
{"metric":"heart_rate","start":"2024-11-03T01:15:00-07:00","end":"2024-11-03T01:15:00-07:00","value":61,"unit":"count/min","source":"Sam's Apple Watch"}
{"metric":"heart_rate","start":"2024-11-03T01:15:00-08:00","end":"2024-11-03T01:15:00-08:00","value":62,"unit":"count/min","source":"Sam's Apple Watch"}
{"metric":"heart_rate","start":"2024-11-03T02:15:00-08:00","end":"2024-11-03T02:15:00-08:00","value":63,"unit":"count/min","source":"Sam's Apple Watch"}
EOF2
HQ_DB="$T/dst.db" hq-ingest -q "$T/dst.jsonl" >/dev/null
out=$(HQ_DB="$T/dst.db" hq-query heart_rate --by hour)
is "$(printf '%s\n' "$out" | field period)" "2024-11-03T01:00-07:00 2024-11-03T01:00-08:00 2024-11-03T02:00-08:00" \
	"--by hour: the repeated 01 hour gets two labels, told apart by the offset"
is "$(printf '%s\n' "$out" | field value)" "61 62 63" "one row per real hour"
is "$(HQ_DB="$T/dst.db" hq-query heart_rate --by hour --tz UTC | field period)" \
	"2024-11-03T08:00+00:00 2024-11-03T09:00+00:00 2024-11-03T10:00+00:00" "in UTC the offset is +00:00"

done_testing
