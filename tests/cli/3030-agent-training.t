#!/usr/bin/env bash
# End to end (issue 21): "how did my last 3 rides compare?" and "am I
# getting fitter?" answered through the real hq-report by a scripted model,
# through each provider: the model calls hq_report compare workouts and
# load, and the numbers in the answer are the ones hq-report printed.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-report >/dev/null && command -v hq-ingest >/dev/null ||
	skip_all "hq-report or hq-ingest is not built"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"

: >"$T/empty.jsonl"
hq-ingest -q "$T/empty.jsonl" 2>/dev/null
sqlite3 "$HQ_DB" <"$HQ_ROOT/tests/data/athlete/generated.sql"
ok $? "the store holds the generated workouts (three rides)"

nrides=$(hq-report compare workouts --type cycling --last 3 --format jsonl | wc -l | tr -d ' ')
rides=$(hq-report compare workouts --type cycling --last 3 --format jsonl | head -1 |
    python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print("workout %s on %s, had %s %s %s" % (r["workout_id"], r["date"], r["field"], r["value"], r["unit"]))')
load=$(hq-report load --from 2026-11-12 --to 2026-11-12 --format jsonl |
    python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print("On %s your fitness (ctl) was %s, fatigue (atl) %s, form (tsb) %s, ramp %s" % (r["date"], r["ctl"], r["atl"], r["tsb"], r["ramp"]))')

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-rides
	agent $p -v "How did my last 3 rides compare?"
	is "$rc" 0 "$p: rides: answered"
	is "$out" "The oldest of the three, $rides." \
		"$p: rides: the oldest ride's figures, from hq-report compare workouts"
	like "$err" "hq_report exit 0, $nrides rows" "$p: rides: hq-report ran: its fields x 3 rides"
	start_fake e2e-fitter
	agent $p -v "Am I getting fitter?"
	is "$rc" 0 "$p: fitter: answered"
	is "$out" "$load." "$p: fitter: ctl, atl, tsb and ramp from hq-report load"
	like "$err" "hq_report exit 0, 1 rows" "$p: fitter: hq-report ran"
done
req "
tools = reqs[0]['body'].get('tools', [])
t = [x for x in tools if x.get('function', x).get('name') == 'hq_report'][0]
f = t.get('function', t)
d = f['description']
for s in ('how did my last 3 rides compare', 'am I getting fitter', 'zones', 'bests', 'ctl'):
    assert s in d, s
props = f['parameters']['properties']
for o in ('type', 'ids', 'max_hr', 'rest_hr', 'lthr', 'ftp', 'last', 'from', 'to'):
    assert o in props or o.replace('_', '-') in props, o
print('ok')" >"$T/schema.out" 2>&1
is "$(cat "$T/schema.out")" "ok" "hq_report's schema offers load, compare workouts, zones, bests and their options"
done_testing
