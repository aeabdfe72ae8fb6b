#!/usr/bin/env bash
# hq-query as people use it at a terminal (issue 12): days in the zone the
# data records when nobody names one, and a note saying so; a config that
# names a zone, and warnings for keys hq does not read; tables that fit the
# terminal (script(1) gives one of a known width) while scripts see every
# field; what there is when nothing is found; whole steps; --list of
# everything the store holds; headers that say what avg is over.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v python3 >/dev/null || skip_all "python3 missing"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
command -v script >/dev/null || skip_all "script(1) is needed for a terminal"
need_fixtures apple-health/jshrake/export.zip

# on a terminal COLS wide: tty COLS CMD; sets $out (stdout and stderr)
tty() {
	out=$(script -qec "stty cols $1 rows 50; $2" /dev/null </dev/null | tr -d '\r')
}
# the widest line of $1, in characters
widest() {
	printf '%s\n' "$1" | python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))'
}
field() { python3 -c 'import json,sys; k=sys.argv[1]; print(" ".join(str(json.loads(l).get(k)) for l in sys.stdin))' "$1"; }
nozone() { env -u HQ_TZ -u TZ "$@"; }

gen-export --days 21 --seed 4 -o "$T/e.zip" >/dev/null 2>&1
hq-ingest -q "$T/e.zip" >/dev/null
ok $? "a generated export (America/Los_Angeles) ingests"

# --- the zone the data records -------------------------------------------------
is "$(sqlite3 "$HQ_DB" "select zone, n > 0 from time_zone")" "America/Los_Angeles|1" \
	"the import records the HKTimeZone its samples and workouts carry"
la=$(hq-query steps --by day --from 2024-10-25 --to 2024-10-27)
run nozone hq-query steps --by day --from 2024-10-25 --to 2024-10-27
is "$out" "$la" "no --tz, \$HQ_TZ, \$TZ or config: days in the data's zone, not the machine's"
is "$err" "" "piped, nothing said about it"
utc=$(nozone env TZ=UTC hq-query steps --by day --from 2024-10-25 --to 2024-10-27)
unlike "$utc" "$(printf '%s\n' "$la" | head -1 | cut -c1-80)" "an explicit \$TZ=UTC still wins (other days, other sums)"
tty 80 "env -u HQ_TZ -u TZ hq-query steps --by day --from 2024-10-25 --to 2024-10-25"
like "$out" "hq-query: days are in America/Los_Angeles, the zone your data records" \
	"on a terminal it says which zone and why"
like "$out" "to choose one: --tz ZONE, or tz = ZONE in $T/config/hq/config" "and how to choose another"
is "$(printf '%s\n' "$out" | grep -c 'days are in')" 1 "once"
tty 80 "hq-query steps --by day --from 2024-10-25 --to 2024-10-25"
unlike "$out" "days are in" "not when \$HQ_TZ named the zone"
# hq-report's days are chosen the same way (glucose by day: 288 readings a
# day in the data's zone; a UTC day starts at 17:00 there)
la=$(HQ_TZ=America/Los_Angeles hq-report cgm --by day --from 2024-10-20 --to 2024-10-21 --format csv)
run nozone hq-report cgm --by day --from 2024-10-20 --to 2024-10-21 --format csv
is "$out" "$la" "hq-report: no zone named, days in the data's zone"
unlike "$(nozone env TZ=UTC hq-report cgm --by day --from 2024-10-20 --to 2024-10-21 --format csv)" \
	"$(printf '%s\n' "$la" | sed -n 2p)" "and \$TZ=UTC still wins there"
tty 80 "env -u HQ_TZ -u TZ hq-report cgm --from 2024-10-20 --to 2024-10-21 >/dev/null"
like "$out" "hq-report: days are in America/Los_Angeles, the zone your data records" \
	"hq-report says which zone on a terminal too"

# the most recent zone recorded wins: a later export from Paris
gen-export --days 3 --start 2024-11-20 --seed 5 --tz Europe/Paris -o "$T/paris.zip" >/dev/null 2>&1
cp "$HQ_DB" "$T/two.db"
HQ_DB="$T/two.db" hq-ingest -q "$T/paris.zip" >/dev/null
is "$(sqlite3 "$T/two.db" "select zone from time_zone order by last desc limit 1")" "Europe/Paris" \
	"a later export's zone is the most recent"
is "$(HQ_DB="$T/two.db" nozone hq-query steps --by day --from 2024-11-20 --to 2024-11-20 | field start)" \
	"2024-11-20T00:00:00+01:00" "and days are then Paris days"

# a store from before the time_zone table (schema 5; the time zones are
# migration 6): the migration fills it
cp "$HQ_DB" "$T/old.db"
sqlite3 "$T/old.db" "drop table time_zone; pragma user_version = 5"
HQ_DB="$T/old.db" hq-ingest -q "$T/e.zip" >/dev/null
is "$(sqlite3 "$T/old.db" "select zone, n from time_zone")" "$(sqlite3 "$HQ_DB" "select zone, n from time_zone")" \
	"migrating an older store records the zones its metadata already holds"

# a time without a zone (JSON lines, CGM files) is read in the data's zone
printf '{"metric":"weight","start":"2024-11-01 07:00","value":70,"unit":"kg"}\n' >"$T/local.jsonl"
nozone hq-ingest -q "$T/local.jsonl" >/dev/null
is "$(sqlite3 "$HQ_DB" "select start from sample where value = 70 and metric_id = (select id from metric where identifier like '%BodyMass')")" \
	1730469600 "hq-ingest reads local times in the data's zone too (07:00 PDT)"

# --- the config: tz, and keys hq does not read ---------------------------------------
mkdir -p "$T/config/hq"
printf 'tz = Asia/Tokyo\n' >"$T/config/hq/config"
is "$(nozone hq-query steps --by day --from 2024-10-25 --to 2024-10-25 | field start)" \
	"2024-10-25T00:00:00+09:00" "tz at the top level of the config"
printf 'tz = Asia/Tokyo\n[query]\ntz = Europe/Paris\n' >"$T/config/hq/config"
is "$(nozone hq-query steps --by day --from 2024-10-25 --to 2024-10-25 | field start)" \
	"2024-10-25T00:00:00+02:00" "tz under [query] before the top level"
is "$(hq-query steps --by day --from 2024-10-25 --to 2024-10-25 | field start)" \
	"2024-10-25T00:00:00-07:00" "\$HQ_TZ before the config"
printf '[query]\ntz = Mars/Olympus\n' >"$T/config/hq/config"
run nozone hq-query steps --by day
is "$rc" 2 "an unknown zone in the config: exit 2"
is "$err" "hq-query: $T/config/hq/config:2: unknown time zone 'Mars/Olympus'; use an IANA name such as Europe/Paris or America/New_York" \
	"naming the file and line"
printf '[llm]\nmodle = llama3.1\n[query]\nsleep_cutof = 3\n' >"$T/config/hq/config"
run hq-query steps --by day --from 2024-10-25 --to 2024-10-25
is "$rc" 0 "unknown keys do not stop a query"
is "$err" "hq-query: $T/config/hq/config:2: unknown key 'modle' under [llm] (did you mean model?), ignored
hq-query: $T/config/hq/config:4: unknown key 'sleep_cutof' under [query] (did you mean sleep_cutoff?), ignored" \
	"but each is named with file:line and the likely key"
run hq-agent -m x --base-url http://127.0.0.1:9 --timeout 1 "hi"
like "$err" "config:2: unknown key 'modle' under \[llm\] \(did you mean model\?\)" "hq-agent says so too"
run hq-report list
like "$err" "config:2: unknown key 'modle' under \[llm\] \(did you mean model\?\)" "and hq-report"
printf '{"metric":"steps","start":"2024-10-20T10:00:00Z","end":"2024-10-20T10:05:00Z","value":5}\n' >"$T/one.jsonl"
run hq-ingest "$T/one.jsonl"
like "$err" "config:2: unknown key 'modle' under \[llm\]" "and hq-ingest"
run hq-ingest -q "$T/one.jsonl"
is "$err" "" "but not hq-ingest -q (no warnings: cron mails only errors)"
rm "$T/config/hq/config"

# --- tables that fit; scripts see every field ------------------------------------------
json=$(hq-query steps --by day --from 2024-10-25 --to 2024-10-26 | head -1)
like "$json" '^\{"metric":"step_count","period":"2024-10-25","start":"2024-10-25T00:00:00-07:00","end":"2024-10-26T00:00:00-07:00","value":13675\.18518,"sum":13675\.18518,"n":60,"unit":"count"\}$' \
	"jsonl: every field, full precision"
tty 80 "hq-query steps --by day --from 2024-10-25 --to 2024-10-26"
is "$out" "metric      period        sum   n  unit
step_count  2024-10-25  13675  60  count
step_count  2024-10-26  14397  58  count" "a table of day buckets: no start/end the period says, steps whole"
for args in "--list" "workouts" "heart_rate --from 2024-10-25 --to 2024-10-25" \
	"steps --from 2024-10-25 --to 2024-10-25" "sleep sleep_deep --by week --agg avg,min,max" \
	"heart_rate --by hour --from 2024-10-25 --to 2024-10-25 --agg avg,min,max,p90" \
	"sleep_analysis --from 2024-10-25 --to 2024-10-26"; do
	tty 80 "hq-query $args"
	is "$(widest "$out")" "$(widest "$out" | awk '$1 <= 80')" "80 columns: hq-query $args fits ($(widest "$out"))"
done
tty 80 "hq-query --list"
like "$out" "^metric +unit +count +first +last" "--list at 80: identifier and kind give way"
tty 140 "hq-query --list"
like "$out" "^metric +kind +unit +count +first +last +sources" "at 140 there is room for kind and sources"
like "$out" "sleep_analysis .* Alex’s Apple Watch, Alex’s iPhone" "whole"
tty 60 "hq-query workouts"
is "$(widest "$out" | awk '$1 <= 60')" "$(widest "$out")" "60 columns: the workouts fit too"
out=$(COLUMNS=70 hq-query workouts --format table)
is "$(widest "$out" | awk '$1 <= 70')" "$(widest "$out")" "a table to a pipe fits \$COLUMNS"
is "$(hq-query workouts --format csv | head -1)" \
	"id,type,start,end,date,duration_min,distance_km,energy_kcal,avg_hr,max_hr,source,has_route,pace_min_per_km,speed_kmh,filled_from,trimp,hrss,edwards,np,if,tss,load,hr_minutes,hr_coverage_pct,z0_min,z1_min,z2_min,z3_min,z4_min,z5_min,elevation_gain_m,athlete_max_hr,athlete_rest_hr,athlete_lthr,athlete_ftp,athlete_sex,athlete_basis" \
	"csv: every field"

# --- nothing found -----------------------------------------------------------------
run hq-query body_fat
is "$rc $out" "1 " "a metric the store lacks: exit 1, nothing on stdout"
is "$err" "hq-query: no body_fat_percentage in the store (see hq-query --list)" "and stderr says so"
run hq-query heart_rate --from 2020-01-01 --to 2020-01-31
is "$err" "hq-query: no heart_rate from 2020-01-01 to 2020-01-31
hq-query: heart_rate has data from 2024-10-20 to 2024-11-09" \
	"a range with no data: the range the metric has"
run hq-query heart_rate --by day --agg avg,max --from 2024-10-25 --to 2024-10-25 --where 'max>300'
want=$(sqlite3 "$HQ_DB" "select count(*) from sample s join metric m on m.id = s.metric_id where m.identifier = 'HKQuantityTypeIdentifierHeartRate' and s.start >= $(TZ=America/Los_Angeles date -d 2024-10-25 +%s) and s.start < $(TZ=America/Los_Angeles date -d 2024-10-26 +%s)")
is "$err" "hq-query: heart_rate has $want samples on 2024-10-25
hq-query: but no row passes --where 'max>300'" \
	"data there but filtered out: how much, and which option dropped it"
for e in "$err" "$(hq-query body_fat 2>&1)"; do
	is "$(widest "$e" | awk '$1 <= 80')" "$(widest "$e")" "the message fits 80 columns"
done
run hq-query workouts --type ride --from 2024-11-04
is "$rc:$err" "1:hq-query: no cycling workouts since 2024-11-04
hq-query: 3 cycling workouts from 2024-10-27 to 2024-11-03" \
	"no workouts: what there is of that type"
run hq-query workouts --type yoga
is "$err" "hq-query: no yoga workouts in the store, 12 of other types (see hq-query --list)" \
	"a type the store lacks: what else there is"

# --- aggregations say what they are over ------------------------------------------------
tty 80 "hq-query steps --by week --agg sum,avg --from 2024-10-21 --to 2024-10-27"
like "$out" "^metric +period +sum +avg/day +n +unit" "weeks of steps: avg/day"
tty 80 "hq-query steps --by day --agg avg --from 2024-10-21 --to 2024-10-21"
like "$out" "^metric +period +avg/sample +n +unit" "days of steps: avg/sample"
tty 80 "hq-query sleep --by week --agg avg --from 2024-10-21 --to 2024-10-27"
like "$out" "^metric +period +avg/night +n +unit" "sleep: avg/night"
tty 80 "hq-query heart_rate --by day --agg avg --from 2024-10-21 --to 2024-10-21"
like "$out" "^metric +period +avg +n +unit" "heart rate: plain avg (per sample, as everyone reads it)"
is "$(hq-query steps --by week --agg sum,avg --from 2024-10-21 --to 2024-10-27 | python3 -c 'import json,sys; print(sorted(json.loads(sys.stdin.readline())))')" \
	"['avg', 'end', 'metric', 'n', 'period', 'start', 'sum', 'unit', 'value']" "JSON keys unchanged"

# --- --list: everything the store holds --------------------------------------------------
JSH=$HQ_FIXTURES/apple-health/jshrake/export.zip
HQ_DB="$T/jsh.db" hq-ingest -q "$JSH" >/dev/null
l=$(HQ_DB="$T/jsh.db" hq-query --list)
like "$l" '^\{"metric":"walking_speed",.*"sources":\["Phone"\],"type":null\}' "jshrake: its one metric, sources an array"
like "$l" '\{"metric":"workouts","identifier":"HKWorkoutActivityTypeWalking","kind":"workout","unit":null,"count":1,"first":"2020-02-24T09:44:00-08:00","last":"2020-02-24T10:18:11-08:00","sources":\["Watch"\],"type":"walking"\}' \
	"its workout, by type"
like "$l" '\{"metric":"routes","identifier":"HKWorkoutActivityTypeWalking","kind":"route","unit":"points","count":644,' \
	"its route with 644 points"
like "$l" '"metric":"activity_summaries","identifier":"ActivitySummary","kind":"summary","unit":"days","count":10,' \
	"its ten activity summaries"
tty 80 "HQ_DB=$T/jsh.db hq-query --list"
like "$out" "routes \(walking\) +route +points +644 +2020-02-24 +2020-02-24 +Watch" "a table says it in words"

done_testing
