#!/usr/bin/env bash
# hq-report goals against an independent computation: generated days
# (tests/cli/data/goals/gen.py: steps, sleep, exercise minutes, weight and
# an Apple export's rings, some days missing) and every row the written
# rule of hq-report(1) gives them, computed in Python: the period's figure
# (total, average night, last value), pct, met, streaks across month and
# year ends and from before --from, a period still going on, weight (a
# measurement) judged on the days it was measured, each row's op. Then the
# config's mistakes (unknown metric, unit, period) with file:line, exit 2,
# and the default range.
. "$(dirname "$0")/lib.sh"

command -v hq-report >/dev/null || skip_all "hq-report not built"
command -v python3 >/dev/null || skip_all "python3 missing"
python3 -c 'import zoneinfo; zoneinfo.ZoneInfo("America/Los_Angeles")' 2>/dev/null ||
	skip_all "python3 without zoneinfo data"

python3 "$HQ_ROOT/tests/cli/data/goals/gen.py" "$T" 7
hq-ingest -q "$T/samples.jsonl" "$T/export.xml" >/dev/null
ok $? "the generated days import"

mkdir -p "$T/config/hq"
cat >"$T/config/hq/config" <<'CFG'
[goals]
steps = 10000/day
sleep = 7h/night
exercise_time = 150min/week
weight = <= 72kg/month
body_mass = <= 72kg
CFG

run hq-report goals --from 2024-12-20 --to 2025-02-09 --format jsonl
is "$rc" 0 "goals: exit 0"
printf '%s\n' "$out" >"$T/got.jsonl"
cmp=$(python3 - "$T/got.jsonl" "$T/expected.jsonl" <<'PY'
import json, math, sys
got = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
exp = [json.loads(l) for l in open(sys.argv[2])]
bad = []
if len(got) != len(exp):
    bad.append("%d rows, expected %d" % (len(got), len(exp)))
for g, e in zip(got, exp):
    for k in ("goal", "period", "op", "met", "streak"):
        if g.get(k) != e[k]:
            bad.append("%s %s: %s %r, expected %r" % (e["goal"], e["period"], k, g.get(k), e[k]))
    for k in ("target", "actual", "pct"):
        a, b = g.get(k), e[k]
        if (a is None) != (b is None) or (a is not None and abs(a - b) > 1e-9 * max(1, abs(b))):
            bad.append("%s %s: %s %r, expected %r" % (e["goal"], e["period"], k, a, b))
print("\n".join(bad[:10]) if bad else "same")
PY
)
is "$cmp" same "every row as the written rule computes it (${#out} bytes)"

# The streaks that cross ends, spelt out: the days 2024-12-10 .. 2025-01-12
# keep steps but for 2024-12-22 and 2025-01-05 (no steps at all), so
# 2025-01-01 is the 10th in a row, from 2024-12-23.
like "$(printf '%s\n' "$out" | grep '"goal":"steps","period":"2025-01-01"')" \
	'"met":true,"streak":10,' "steps: the streak runs over the year's end"
like "$(printf '%s\n' "$out" | grep '"goal":"exercise_time","period":"2025-W01"')" \
	'"period":"2025-W01"' "ISO week 2025-W01 (from Monday 2024-12-30) is one period"
like "$(printf '%s\n' "$out" | grep '"goal":"steps"' | tail -1)" \
	'"period":"2025-02-09".*"met":null' "the newest day is still going on: met null"
like "$(printf '%s\n' "$out" | grep '"goal":"weight"' | tail -1)" \
	'"period":"2025-02".*"met":null' "so is its month"

run hq-report goals steps move --from 2025-02-01 --to 2025-02-03 --format csv
is "$(printf '%s\n' "$out" | cut -d, -f1 | sort | uniq -c | awk '{ printf "%s%s ", $2, $1 }')" \
	"goal1 move3 steps3 " "goals named: only those (a goal and a ring)"
run hq-report goals stepz
is "$rc" 2 "an unknown goal named: exit 2"

# the shell's completion offers the goals' names, then the rings
is "$(hq-report --complete-args goals '' | cut -f1 | tr '\n' ' ')" \
	"steps sleep exercise_time weight body_mass move exercise stand " "goal names complete"
like "$(hq-report --complete-args alerts - | cut -f1 | tr '\n' ' ')" "(^| )--quiet " "alerts offer --quiet"
unlike "$(hq-report --complete-args goals - | cut -f1 | tr '\n' ' ')" "(^| )--quiet " "goals do not"

# table: one line per row, within 80 columns
run hq-report goals --from 2025-01-27 --to 2025-02-09 --format table
ok "$(printf '%s\n' "$out" | awk 'length > 80' | wc -l)" "the table fits 80 columns"
like "$out" "going on" "the table says a period is going on"

# the config's mistakes: file:line, exit 2
bad_config() {
	printf '[goals]\nsteps = 10000/day\n%s\n' "$1" >"$T/config/hq/config"
	run hq-report goals --from 2025-01-01 --to 2025-01-02
	is "$rc" 2 "$3: exit 2"
	like "$err" "$2" "$3: said with the config's file:line"
}
bad_config 'stepz = 10000/day' "config:3: goal 'stepz': no metric of that name \(did you mean steps\?\)" "an unknown metric"
bad_config 'sleep = 7parsecs/night' "config:3: goal 'sleep': unit 'parsecs' does not convert" "an unknown unit"
bad_config 'weight = 72kg/fortnight' "config:3: goal 'weight': no period 'fortnight'" "an unknown period"
bad_config 'steps = 10000/night' "config:3: goal 'steps': /night is for sleep" "a night for steps"

# said, not silent (each with the config's file:line): a goal written
# twice, a metric the store has never recorded (no rows of its own), a
# config HQ_CONFIG names that does not exist
printf '[goals]\nsteps = 10000/day\nvo2_max = 40\nsteps = 8000/day\n' >"$T/config/hq/config"
run hq-report goals steps vo2_max --from 2025-01-01 --to 2025-01-02 --format csv
is "$rc" 0 "a goal written twice, a metric never recorded: still the rows"
like "$err" "config:4: 'steps' under \[goals\] is set again \(line 2 set it too\)" \
	"the goal written twice: said at its second line"
like "$err" "config:3: goal 'vo2_max': the store holds no vo2_max at all" \
	"the metric never recorded: said"
is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1,3,4 | sort -u | tr '\n' ' ')" "steps,>=,8000 " \
	"the later steps goal counts; no rows for vo2_max"
run env HQ_CONFIG="$T/nowhere/config" hq-report goals move --from 2025-01-01 --to 2025-01-01
like "$err" "HQ_CONFIG names $T/nowhere/config, which does not exist" \
	"HQ_CONFIG naming no file: said"
is "$rc" 0 "and the rings still answer"

# no row past the newest data (2025-02-09 here): a --to after it stops
# there, a --from after it has nothing (exit 1, said)
printf '[goals]\nsteps = 10000/day\n' >"$T/config/hq/config"
run hq-report goals steps --from 2025-02-08 --to 2025-03-31 --format csv
is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f2 | tr '\n' ' ')" "2025-02-08 2025-02-09 " \
	"--to past the newest data: no rows after it"
run hq-report goals --from 2025-03-01 --to 2025-03-31
is "$rc:$out" "1:" "--from after the newest data: exit 1, no rows"
like "$err" "2025-03-01 is after the newest data in the store \(2025-02-09\)" "and says why"
run env HQ_NOW=2025-02-05T20:00:00Z hq-report goals steps --from 2025-02-01 --to 2025-02-28 --format csv
is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f2 | tr '\n' ' ')" \
	"2025-02-01 2025-02-02 2025-02-03 2025-02-04 2025-02-05 " \
	"the clock at 2025-02-05 (noon, local): no row after today"
like "$(printf '%s\n' "$out" | tail -1)" "^steps,2025-02-05,>=,10000,[0-9.]*,[0-9.]*,,[0-9]+,count$" \
	"today is still going on (met null)"

# the table says which null: going on, or no data (a day without a weigh-in)
printf '[goals]\nweight = <= 72kg\n' >"$T/config/hq/config"
run hq-report goals weight --from 2025-01-01 --to 2025-02-09 --format table
like "$out" "no data" "the table: a day without a weigh-in is no data"

# no config at all: the rings alone; default range: the last 4 weeks
rm -f "$T/config/hq/config"
run hq-report goals --to 2025-02-09 --format csv
is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1 | sort -u | tr '\n' ' ')" "exercise move stand " \
	"without [goals]: Apple's rings"
is "$(printf '%s\n' "$out" | grep '^move,' | head -1 | cut -d, -f2)" "2025-01-13" \
	"without --from: the 4 ISO weeks up to --to (from Monday 2025-01-13)"

done_testing
