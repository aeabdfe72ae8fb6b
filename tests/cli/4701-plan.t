#!/usr/bin/env bash
# hq-ingest --plan FILE and hq-report plan: a plan in CSV or JSON lines
# into the store, a newer one replacing the days it covers; every bad
# line refused with file:line and the store left as it was; each planned
# day against the generated workouts (tests/data/athlete/generated.sql,
# whose loads tests/data/athlete/generated.expected gives): done,
# partial, missed, extra, ahead.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
D=$HQ_ROOT/tests/data/plan
export HQ_NOW=2026-11-12T20:00:00Z   # Thursday 12 Nov, noon in Los Angeles

: >"$T/empty.jsonl"
hq-ingest -q --format jsonl "$T/empty.jsonl" >/dev/null &&
    sqlite3 "$HQ_DB" <"$HQ_ROOT/tests/data/athlete/generated.sql"
ok $? "a store with the generated workouts"

run hq-report week --week 2026-W46 --format html
unlike "$out" "Next week's plan" "the week's page without a plan: no plan on it"

run hq-ingest --plan "$D/plan.csv"
is "$rc" 0 "a CSV plan: exit 0"
like "$out" '^\{"file":"[^"]*plan.csv","format":"plan","days":6,"from":"2026-10-28","to":"2026-11-13","replaced":0\}$' \
	"its JSON line: days, span, none replaced"
is "$(sqlite3 "$HQ_DB" "SELECT group_concat(date || ' ' || type || ' ' || load, ', ') FROM plan")" \
	"2026-10-28 HKWorkoutActivityTypeSwimming 25.0, 2026-10-31 HKWorkoutActivityTypeWalking 20.0, 2026-11-01 HKWorkoutActivityTypeRunning 200.0, 2026-11-05 HKWorkoutActivityTypeRunning 40.0, 2026-11-12 HKWorkoutActivityTypeCycling 50.0, 2026-11-13 HKWorkoutActivityTypeRunning 40.0" \
	"stored a day each, types as identifiers"

# Each status (loads from generated.expected: walk 4 19.47 >= 80 % of 20,
# run 5 126.96 < 80 % of 200, run 7 37.50 >= 32, ride 8 46.62 >= 40).
st() { printf '%s\n' "$out" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print(r["date"], r["type"], r["status"], r["workout_id"], r["done_load"] is not None and round(r["done_load"], 2))'; }
run hq-report plan --from 2026-10-26 --to 2026-11-15
is "$rc" 0 "hq-report plan: exit 0"
is "$(st)" "2026-10-28 swimming missed None False
2026-10-31 walking done 4 19.47
2026-11-01 running partial 5 126.96
2026-11-01 walking extra 6 False
2026-11-05 running done 7 37.5
2026-11-12 cycling done 8 46.62
2026-11-13 running ahead None False" "missed, done, partial, extra (no heart rate: load null), ahead"
is "$(printf '%s\n' "$out" | head -1 | python3 -c 'import json,sys; print(",".join(json.load(sys.stdin)))')" \
	"date,type,title,planned_min,planned_load,done_min,done_load,workout_id,status" "the fields, in order"
run hq-report plan
is "$(st | tr '\n' ';')" "2026-11-12 cycling done 8 46.62;2026-11-13 running ahead None False;" \
	"default: this week, Monday to Sunday"
run hq-report plan --week 2026-W44 --format table
like "$out" "2026-11-01  running +Long r… +120 +200 +104 +127  partial" "a table, the title cut to fit"
is "$(printf '%s\n' "$out" | python3 -c 'import sys; print(sum(len(l.rstrip("\n")) > 80 for l in sys.stdin))')" 0 "it fits 80 columns"

# A newer plan (JSON lines, if instead of load) replaces the days it
# covers: 1 Nov to 5 Nov; a walk by minutes when it has no load.
run hq-ingest --plan "$D/plan2.jsonl"
like "$out" '"days":2,"from":"2026-11-01","to":"2026-11-05","replaced":2' "JSON lines: two days, two replaced"
is "$(sqlite3 "$HQ_DB" "SELECT load FROM plan WHERE date = '2026-11-01'")" "18.75" \
	"if 0.5 for 45 min: load = 0.75 h x 0.25 x 100"
run hq-report plan --week 2026-W44
is "$(st | tr '\n' ';')" "2026-10-28 swimming missed None False;2026-10-31 walking done 4 19.47;2026-11-01 walking done 6 False;2026-11-01 running extra 5 126.96;" \
	"the walk planned now: done by minutes (40 of 45), the run extra"

# Bad plans: refused with file:line, the store exactly as it was.
before=$(sqlite3 "$HQ_DB" "SELECT * FROM plan" | md5sum)
bad() {  # WHAT LINE PATTERN CONTENT
	printf '%b' "$4" >"$T/bad.csv"
	run hq-ingest --plan "$T/bad.csv"
	is "$rc" 2 "$1: exit 2"
	like "$err" "bad\.csv:$2: $3" "$1: named with its line"
	is "$(sqlite3 "$HQ_DB" "SELECT * FROM plan" | md5sum)" "$before" "$1: the store unchanged"
}
H='date,type,duration_min,load\n2026-12-01,running,30,30\n'
bad "a date in 1900" 3 "date 1900-01-02: a plan's days are in the years 2000 to 2100" "${H}1900-01-02,running,30,30\n"
bad "a date in 3000" 3 "date 3000-01-02" "${H}3000-01-02,running,30,30\n"
bad "not a date" 3 "date '12/01/2026': expected YYYY-MM-DD" "${H}12/01/2026,running,30,30\n"
bad "a negative load" 3 "load -5: from 0 to 1000" "${H}2026-12-02,running,30,-5\n"
bad "a load of 1e400" 3 "load '1e400' is not a number" "${H}2026-12-02,running,30,1e400\n"
bad "an unknown type" 3 "type 'runing': unknown workout type \(did you mean running" "${H}2026-12-02,runing,30,30\n"
bad "a day twice" 2 "2026-12-01 is planned twice \(line 3 too\)" "${H}2026-12-01,cycling,30,30\n"
bad "a NUL" 3 "NUL byte" "${H}2026-12-02,run\0ning,30,30\n"
bad "no load nor if" 2 "neither load nor if" 'date,type,duration_min,load\n2026-12-01,running,30,\n'
bad "minutes 0" 2 "duration_min: minutes above 0" 'date,type,duration_min,load\n2026-12-01,running,0,10\n'
{ printf 'date,type,duration_min,load\n'; head -c 1048576 /dev/zero | tr '\0' a; printf '\n'; } >"$T/big.csv"
run hq-ingest --plan "$T/big.csv"
is "$rc" 2 "a 1 MiB line: exit 2"
like "$err" "big\.csv:2: line longer than 4096 bytes" "says so"
printf '{"date":"2026-12-01","type":"running","duration_min":30,"load":1e400}\n' >"$T/bad.jsonl"
run hq-ingest --plan "$T/bad.jsonl"
is "$rc" 2 "JSON lines: 1e400: exit 2"
like "$err" "bad\.jsonl:1: load is not a number" "says so"
printf 'date,type,duration_min,load\n2026-12-01,running,30,30\n' >"$T/good.csv"
run hq-ingest --plan "$T/good.csv" "$T/bad.csv"
is "$rc" 2 "a good plan and a bad one: exit 2"
is "$(sqlite3 "$HQ_DB" "SELECT * FROM plan" | md5sum)" "$before" "nothing of either imported"

# hq-report plan's bad input and nothing to show.
run hq-report plan --week 2026-W44 --from 2026-10-01
is "$rc" 2 "--week and --from: exit 2"
run hq-report plan --week 2025-W10
is "$rc" 1 "a week without plan nor workouts: exit 1"
like "$err" "no plan and no workouts from 2025-03-03 to 2025-03-09" "says so"
run hq-report plan extra
is "$rc" 2 "an operand: exit 2"

# hq-report week's page: next week's plan when there is one, escaped.
printf 'date,type,duration_min,load,title\n2026-11-16,running,40,40,Easy <b>&\n2026-11-22,running,60,300,Race\n' >"$T/next.csv"
hq-ingest -q --plan "$T/next.csv" >/dev/null
run hq-report week --week 2026-W46 --format html
is "$rc" 0 "the week's page: exit 0"
like "$out" "<h2>Next week's plan</h2>" "next week's plan on it"
like "$out" "Mon 11-16</td><td class=\"m\">running: Easy &lt;b&gt;&amp;</td><td>40</td><td>40</td>" \
	"a day: weekday, type, title escaped, minutes, load"
like "$out" "<td class=\"m\">week</td><td class=\"m\"></td><td>100</td><td>340</td>" "the week's sums"

done_testing
