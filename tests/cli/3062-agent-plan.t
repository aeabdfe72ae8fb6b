#!/usr/bin/env bash
# End to end (issue 32): "how fresh will I be on race day?" and "when will
# I reach 72 kg?" answered through the real hq-report by a scripted model,
# through each provider: the model reads the plan, then the load on race
# day (the plan's loads carried on), or the forecast of weight with a
# target; the numbers in the answer are the ones hq-report printed.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-report >/dev/null && command -v hq-ingest >/dev/null ||
	skip_all "hq-report or hq-ingest is not built"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
export HQ_NOW=2026-11-12T20:00:00Z   # before race day, 20 Nov

: >"$T/empty.jsonl"
hq-ingest -q "$T/empty.jsonl" 2>/dev/null
sqlite3 "$HQ_DB" <"$HQ_ROOT/tests/data/athlete/generated.sql"
printf 'date,type,duration_min,load,title\n2026-11-13,running,40,40,Easy\n2026-11-15,cycling,120,150,Long ride\n2026-11-20,running,60,300,Race\n' >"$T/plan.csv"
hq-ingest -q --plan "$T/plan.csv" >/dev/null
awk '{ printf "{\"metric\":\"body_mass\",\"start\":%d,\"value\":%s,\"unit\":\"kg\"}\n", $1 * 86400 + 43200, $2 }' \
	"$HQ_ROOT/tests/data/forecast/gaps.tsv" >"$T/w.jsonl"
hq-ingest -q "$T/w.jsonl" >/dev/null
ok $? "the store: the generated workouts, a plan with a race, weights"

race=$(hq-report load --from 2026-11-20 --to 2026-11-20 --format jsonl |
    python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print("On race day, %s, your form (tsb) will be %s if you follow the plan (planned: %s), fitness (ctl) %s" % (r["date"], r["tsb"], r["planned"], r["ctl"]))')
reach=$(hq-report forecast weight --target 72 --ahead 3m --format jsonl | head -1 |
    python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print("At this rate you reach 72 kg around %s, between %s and %s; in a week the line is at %s kg (%s to %s)" % (r["reach"], r["reach_earliest"], r["reach_latest"], r["value"], r["low"], r["high"]))')
like "$race" "planned: True" "race day is ahead: planned"

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-race-day
	agent $p -v "How fresh will I be on race day?"
	is "$rc" 0 "$p: race day: answered"
	is "$out" "$race." "$p: race day: form and fitness from hq-report load, the plan carried on"
	like "$err" "step 1: hq_report exit 0, 1 rows" "$p: race day: the plan's week (the race its one day)"
	like "$err" "step 2: hq_report exit 0, 1 rows" "$p: race day: the load on that day"
	start_fake e2e-reach-weight
	agent $p -v "When will I reach 72 kg?"
	is "$rc" 0 "$p: 72 kg: answered"
	is "$out" "$reach." "$p: 72 kg: the days and the band from hq-report forecast"
	like "$err" "hq_report exit 0, 13 rows" "$p: 72 kg: hq-report forecast ran"
done
req "
tools = reqs[0]['body'].get('tools', [])
t = [x for x in tools if x.get('function', x).get('name') == 'hq_report'][0]
f = t.get('function', t)
d = f['description']
for s in ('when will I reach 72 kg', 'did I do what the plan said', 'how fresh will I be on race day', 'reach_earliest'):
    assert s in d, s
props = f['parameters']['properties']
for o in ('ahead', 'target', 'week', 'from', 'to'):
    assert o in props, o
print('ok')" >"$T/schema.out" 2>&1
is "$(cat "$T/schema.out")" "ok" "hq_report's schema offers forecast, plan and their options"
done_testing
