#!/usr/bin/env bash
# End to end: "what's my latest LDL and is it in range?" answered through
# the real hq-report by a scripted model, through each provider; the date,
# value, limit and flag in the answer are the ones hq-report printed.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-report >/dev/null && command -v hq-ingest >/dev/null ||
	skip_all "hq-report or hq-ingest is not built"

cat >"$T/labs.csv" <<'C'
date,test,value,unit,ref_low,ref_high,loinc,source
2024-05-02,LDL Cholesterol,142,mg/dL,,129,13457-7,Quest Diagnostics
2025-10-30,LDL Cholesterol,94,mg/dL,,99,18262-6,Stanford Health Care
2025-10-30,Hemoglobin A1c,5.4,%,4.0,5.6,4548-4,Stanford Health Care
C
run hq-ingest -q "$T/labs.csv"
is "$rc" 0 "the store holds two LDL results"

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-labs
	agent $p -v "What's my latest LDL, and is it in range?"
	is "$rc" 0 "$p: answered"
	is "$out" "Your latest LDL, from 2025-10-30, is 94 mg/dL; the lab's range goes up to 99, so it is flagged N (N: in range)." \
		"$p: the newest LDL, its own lab's limit and the flag, from hq-report"
	like "$err" "tools: .*hq_report" "$p: hq-report discovered beside hq-agent"
	like "$err" "hq_report exit 0, 1 rows" "$p: hq-report ran and returned one row"
done
req "
tools = reqs[0]['body'].get('tools', [])
t = [x for x in tools if x.get('function', x).get('name') == 'hq_report'][0]
f = t.get('function', t)
props = f['parameters']['properties']
assert list(props)[0] == 'args' and props['args']['type'] == 'array', props
assert 'latest' in f['description'] and 'is it in range' in f['description']
print('ok')" >"$T/schema.out" 2>&1
is "$(cat "$T/schema.out")" "ok" "the model was offered hq_report: args first, descriptions that say when to use it"
done_testing
