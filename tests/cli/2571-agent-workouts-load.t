#!/usr/bin/env bash
# End to end: "which of my workouts under an hour had a load of 45 or
# more?" answered by a scripted model through the real hq-query, with
# --where on the load, through each provider; the workout and its load in
# the answer are those the independent reference computed
# (tests/data/athlete/generated.expected: workout 2, load 46.0870764305).
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-query >/dev/null && command -v hq-ingest >/dev/null ||
	skip_all "hq-query or hq-ingest is not built"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"

: >"$T/empty.jsonl"
hq-ingest -q --format jsonl "$T/empty.jsonl" >/dev/null &&
    sqlite3 "$HQ_DB" <"$HQ_ROOT/tests/data/athlete/generated.sql"
ok $? "a store with the generated workouts"

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-workouts-load
	agent $p -v "Which of my workouts under an hour had a load of 45 or more?"
	is "$rc" 0 "$p: answered"
	is "$out" "Your latest one is a cycling on 2026-10-20: 60 minutes with a load of 46.08707643 (max_hr 196, store)." \
		"$p: the ride and its load as the reference computed them"
	like "$err" "hq_query exit 0, 2 rows" "$p: hq-query's --where kept two workouts"
done
req "
tools = reqs[0]['body'].get('tools', [])
t = [x for x in tools if x.get('function', x).get('name') == 'hq_query'][0]
f = t.get('function', t)
assert 'load' in f['description'] and 'duration_min' in f['description']
assert 'workouts' in f['parameters']['properties']['where']['description']
print('ok')" >"$T/schema.out" 2>&1
is "$(cat "$T/schema.out")" "ok" "hq_query's schema says workouts have a load and --where on it"
done_testing
