#!/usr/bin/env bash
# End to end: a scripted model asks the real hq-query about a generated
# store, through each provider; the number in the printed answer is the
# one hq-query computed (the fake model copies it from the tool result).
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-query >/dev/null && command -v hq-ingest >/dev/null ||
	skip_all "hq-query or hq-ingest is not built"

# three step samples on 1 December (local time), one on the 2nd
cat >"$T/steps.jsonl" <<'J'
{"metric":"steps","start":"2024-12-01T09:00:00-08:00","end":"2024-12-01T09:30:00-08:00","value":1000,"unit":"count","source":"Test Watch"}
{"metric":"steps","start":"2024-12-01T12:00:00-08:00","end":"2024-12-01T12:30:00-08:00","value":2500,"unit":"count","source":"Test Watch"}
{"metric":"steps","start":"2024-12-01T18:00:00-08:00","end":"2024-12-01T18:30:00-08:00","value":4623,"unit":"count","source":"Test Watch"}
{"metric":"steps","start":"2024-12-02T09:00:00-08:00","end":"2024-12-02T09:30:00-08:00","value":777,"unit":"count","source":"Test Watch"}
J
run hq-ingest -q "$T/steps.jsonl"
is "$rc" 0 "the store is generated"

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-steps
	agent $p -v "How many steps did I walk on 1 December 2024?"
	is "$rc" 0 "$p: answered"
	is "$out" "On 1 December 2024 you walked 8123 steps (count)." "$p: the answer has hq-query's sum, 1000 + 2500 + 4623"
	like "$err" "tools: .*hq_ingest.*hq_query" "$p: hq-query and hq-ingest discovered beside hq-agent"
	like "$err" "hq_query exit 0, 1 rows" "$p: hq-query ran and returned one row"
done

# hq-ingest changes the store: refused without a terminal or --yes
printf '{"turns":[{"reply":{"calls":[{"name":"hq_ingest","args":{"files":["%s"]}}]}},{"reply":{"text":"ok"}}]}\n' "$T/steps.jsonl" >"$T/ingest.json"
start_fake "$T/ingest.json"
agent openai --jsonl "import that file"
like "$out" '"event":"tool_error","step":1,"id":"[^"]+","name":"hq_ingest"' "hq_ingest is refused without --yes"

done_testing
