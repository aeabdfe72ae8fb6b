#!/usr/bin/env bash
# End to end: "am I keeping my step goal?" and "is anything off?" answered
# through the real hq-report (goals, alerts) by a scripted model, through
# each provider; the figures in the answers are the ones hq-report printed,
# and they are the generated days' own (steps summed here, the resting
# heart rate's z computed here).
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-report >/dev/null && command -v hq-ingest >/dev/null ||
	skip_all "hq-report or hq-ingest is not built"

# 2025-02-01 .. 2025-03-09: 12000 steps a day (noon, local), 2025-03-02
# short of the goal, resting heart rate 58, 59, 60, 61 in turn, 70 on
# 2025-03-05.
python3 - "$T/days.jsonl" <<'PY'
import datetime as dt, json, sys
with open(sys.argv[1], "w") as fp:
    d = dt.date(2025, 2, 1)
    i = 0
    while d <= dt.date(2025, 3, 9):
        s = 4000 if d == dt.date(2025, 3, 2) else 12000
        fp.write(json.dumps({"metric": "steps", "start": "%sT20:00:00Z" % d, "end": "%sT20:30:00Z" % d, "value": s, "unit": "count"}) + "\n")
        r = 70 if d == dt.date(2025, 3, 5) else 58 + i % 4
        fp.write(json.dumps({"metric": "resting_heart_rate", "start": "%sT15:00:00Z" % d, "value": r, "unit": "count/min"}) + "\n")
        d += dt.timedelta(1)
        i += 1
PY
run hq-ingest -q "$T/days.jsonl"
is "$rc" 0 "the store holds five weeks of steps and resting heart rate"
mkdir -p "$T/config/hq"
printf '[goals]\nsteps = 10000/day\n' >"$T/config/hq/config"

# the resting heart rate's baseline on 2025-03-05, by hand: the 28 days
# before are 2025-02-05 .. 03-04, i = 4 .. 31, values 58 + i % 4
z=$(python3 -c '
import statistics as s
b = [58 + i % 4 for i in range(4, 32)]
print("%.1f" % ((70 - s.mean(b)) / s.stdev(b)))')

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-goals
	agent $p -v "Am I keeping my step goal?"
	is "$rc" 0 "$p: answered the goal"
	is "$out" "On 2025-03-03 you walked 12000 steps against your goal of 10000 (120%); met: True, 1 days in a row." \
		"$p: the week's first day, its steps and the streak since 2025-03-02 fell short, from hq-report goals"
	like "$err" "hq_report exit 0, 7 rows" "$p: hq-report goals ran: a row a day"

	start_fake e2e-alerts
	agent $p -v "Is anything off?"
	is "$rc" 0 "$p: answered the alerts"
	like "$out" "^Yes: on 2025-03-05, resting HR 70\\.0 count/min, $z SD above baseline 59\\.5 ± 1\\.1 \\(z $z[0-9]*\\)\\.$" \
		"$p: the day, value and z (computed here: $z), from hq-report alerts"
	like "$err" "hq_report exit 0, 1 rows" "$p: hq-report alerts ran: one alert"
done
req "
tools = reqs[0]['body'].get('tools', [])
t = [x for x in tools if x.get('function', x).get('name') == 'hq_report'][0]
f = t.get('function', t)
assert '[\"goals\"]' in f['description'] and 'am I keeping my step goal' in f['description']
assert '[\"alerts\"]' in f['description'] and 'is anything off' in f['description']
print('ok')" >"$T/schema.out" 2>&1
is "$(cat "$T/schema.out")" "ok" "the schema offers goals and alerts, with the questions they answer"
done_testing
