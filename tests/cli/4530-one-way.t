#!/usr/bin/env bash
# One way to say things (issue 27): a workout named the same way wherever
# one is taken (ID, last, last:TYPE), "did you mean" for a mistyped
# subcommand as for a metric, a usage error in one line plus where to look,
# an unknown metric exit 2 in every command, a workout whose heart rate is
# all 0 (Zwift) said as such, hq help config.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
need_fixtures workouts/fitparse/null_compressed_speed_dist.fit

gen-export --days 21 --seed 4 -o "$T/e.zip" >/dev/null 2>&1
hq-ingest -q "$T/e.zip" >/dev/null
ok $? "a generated export with workouts ingests"
ride=$(sqlite3 "$HQ_DB" "select id from workout where activity_type like '%ycling' order by start desc limit 1")
last=$(sqlite3 "$HQ_DB" "select id from workout order by start desc limit 1")

# ---- one workout reference ----------------------------------------------------
run hq-report zones last:cycling
is "$rc" 0 "hq-report zones last:cycling: exit 0"
is "$out" "$(hq-report zones "$ride")" "the same rows as zones $ride (the newest ride)"
run hq-report zones last:yoga
is "$rc:$err" "1:hq-report: no workout last:yoga; hq-query workouts lists them" \
	"a type with no workout: exit 1, said as hq-query says it"
run hq-report zones zz
is "$rc" 2 "zones zz: not a workout reference, exit 2"
is "$(hq-report compare workouts --ids "$ride,last" | grep -o '"workout_id":[0-9]*' | sort -u | tr '\n' ' ')" "\"workout_id\":$last \"workout_id\":$ride " \
	"compare workouts --ids $ride,last: those two workouts"
like "$(hq-report compare workouts --ids last:cycling,last)" "\"workout_id\":$last," \
	"--ids takes last and last:TYPE as well"

# ---- did you mean -------------------------------------------------------------
sub() {   # sub WANT ARGS...: a usage error naming the report meant
	local want=$1
	shift
	run hq-report "$@" </dev/null
	is "$rc:$err" "2:hq-report: $want
try 'hq-report --help'" "hq-report $*: $want, in one line plus where to look"
}
sub "unknown subcommand 'wek' (did you mean week?)" wek
sub "unknown subcommand 'zone' (did you mean zones?)" zone
sub "unknown subcommand 'best' (did you mean bests?)" best
sub "no such report 'compare workout' (did you mean compare workouts?)" compare workout
run hq-query workot 1
is "$rc:$err" "2:hq-query: unknown subcommand 'workot' (did you mean workout?)
try 'hq-query --help'" "hq-query workot: did you mean workout"
run hq-report --formt table week
like "$err" "^hq-report: unknown option '--formt' \(did you mean --format\?\)" \
	"a mistyped option: did you mean"

# ---- an unknown metric: exit 2 everywhere -------------------------------------
run hq-report trend hart_rate
is "$rc" 2 "hq-report trend hart_rate: exit 2, as hq-query's"
like "$err" "did you mean heart_rate" "and the metric it may mean"
run hq-query hart_rate
is "$rc" 2 "hq-query hart_rate: exit 2"

# ---- a workout with no heart rate (Zwift: all 0) -------------------------------
export HQ_DB="$T/zwift.db"
hq-ingest -q "$HQ_FIXTURES/workouts/fitparse/null_compressed_speed_dist.fit" >/dev/null 2>&1
run hq-query workout last heart_rate
is "$rc" 1 "the Zwift ride's heart rate: exit 1"
like "$err" "^hq-query: workout [0-9]+ \([^)]*\) has no heart rate$" \
	"said as: this workout has no heart rate"

# ---- hq help config ------------------------------------------------------------
if command -v man >/dev/null; then
	run hq help config
	is "$rc" 0 "hq help config: exit 0 (hq(7) from the checkout)"
	like "$out" "HQ_NOW" "the overview, with its ENVIRONMENT"
	run hq help hq.7
	is "$rc" 0 "hq help hq.7 as well"
else
	echo "# skip: man is not installed"
fi
done_testing
