#!/usr/bin/env bash
# hq-report goals against an independent computation: generated days
# (tests/cli/data/goals/gen.py: steps, sleep, exercise minutes, weight and
# an Apple export's rings, some days missing) and every row the written
# rule of SPEC.md gives them, computed in Python: the period's figure
# (total, average night, last value), pct, met, streaks across month and
# year ends and from before --from, a period still going on. Then the
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
    for k in ("goal", "period", "met", "streak"):
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
	"steps sleep exercise_time weight move exercise stand " "goal names complete"
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

# no config at all: the rings alone; default range: the last 4 weeks
rm -f "$T/config/hq/config"
run hq-report goals --to 2025-02-09 --format csv
is "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1 | sort -u | tr '\n' ' ')" "exercise move stand " \
	"without [goals]: Apple's rings"
is "$(printf '%s\n' "$out" | grep '^move,' | head -1 | cut -d, -f2)" "2025-01-13" \
	"without --from: the 4 ISO weeks up to --to (from Monday 2025-01-13)"

done_testing
