#!/usr/bin/env bash
# End to end (issue 31): "which of my runs went past the Golden Gate
# Bridge?" — a question only search answers — through the real hq-query
# by a scripted model, through each provider. Three runs: one crosses the
# bridge, one passes 1.2 km west of it, one is in Oakland
# (tests/data/search/routes.pl); the model asks hq_query search with near
# the bridge (0.5 km) and the answer names the one run, with its row alone.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-query >/dev/null && command -v hq-ingest >/dev/null ||
	skip_all "hq-query or hq-ingest is not built"
command -v perl >/dev/null || skip_all "perl missing"

perl "$HQ_ROOT/tests/data/search/routes.pl" "$T/r"
run hq-ingest -q "$T/r/route-00.gpx" "$T/r/route-01.gpx" "$T/r/route-02.gpx"
is "$rc" 0 "three runs: across the bridge, 1.2 km beside it, in Oakland"
is "$(hq-query workouts --format jsonl | wc -l | tr -d ' ')" 3 "all three are runs in the store"
date=$(hq-query search --near 37.8199,-122.4783,0.5 --format jsonl |
    perl -MJSON::PP -ne 'print decode_json($_)->{date}')
# routes.pl's truth: the bridge's route is the first day's, 0 km away
is "${date%%T*}" "$(awk -F'\t' '$1 == "gg" { print $2 }' "$T/r/truth.tsv")" "search finds the bridge's run"

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-search
	agent $p -v "Which of my runs went past the Golden Gate Bridge?"
	is "$rc" 0 "$p: answered"
	is "$out" "Your run on $date went past the Golden Gate Bridge (0 km from it)." \
		"$p: the run across the bridge, from hq-query search --near"
	like "$err" "hq_query exit 0, 1 rows" "$p: hq-query search ran and found one run, not the one 1.2 km away"
done
req "
tools = reqs[0]['body'].get('tools', [])
t = [x for x in tools if x.get('function', x).get('name') == 'hq_query'][0]
f = t.get('function', t)
d = f['description']
for s in ('search', 'near', 'distance_km', 'Golden Gate'):
    assert s in d, s
props = f['parameters']['properties']
for o in ('in', 'near', 'mode', 'count', 'type', 'limit', 'offset'):
    assert o in props, o
print('ok')" >"$T/schema.out" 2>&1
is "$(cat "$T/schema.out")" "ok" "hq_query's schema offers search, --near, --in, --mode and --count"
done_testing
