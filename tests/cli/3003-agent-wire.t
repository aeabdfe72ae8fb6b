#!/usr/bin/env bash
# Wire-format quirks real servers have: missing ids, index 0 for every
# call, tool calls with finish_reason "stop", Gemini thought signatures
# and CRLF framing, replies cut into odd pieces; and text tool mode.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
make_tools "$T/tools"

# Ollama's /v1 stream: no ids, index 0 for both calls, 3-byte fragments
start_fake parallel-no-ids
agent openai --jsonl "steps and heart rate?"
is "$rc" 0 "no ids, repeated index 0: answered"
is "$(printf '%s\n' "$out" | grep -c '"event":"tool_result"')" 2 "repeated index 0: two calls, not one merged"
like "$out" '"argv":\["hq-testtool","--by","day","--","steps"\]' "repeated index 0: first call intact"
like "$out" '"argv":\["hq-testtool","--by","week","--","heart_rate"\]' "repeated index 0: second call intact"
req '
m = reqs[1]["body"]["messages"]
ids = [c["id"] for c in m[-3]["tool_calls"]]
assert len(set(ids)) == 2 and all(ids), ids
assert [x["tool_call_id"] for x in m[-2:]] == ids'
ok $? "missing ids are synthesised, unique, and answered"

# forced tool choice: tool calls arrive with finish_reason "stop"
for mode in "" --no-stream; do
	start_fake stop-with-calls
	agent openai $mode --jsonl "steps?"
	like "$out" '"event":"tool_result"' "finish_reason stop ${mode:-stream}: the calls still run"
	like "$out" '"text":"8123 steps."' "finish_reason stop ${mode:-stream}: then the answer"
done

# Gemini: signature echoed on the same part (the fake server answers 400
# otherwise), CRLF line ends, the stream written 5 bytes at a time
for mode in "" --no-stream; do
	start_fake gemini-signature
	agent gemini $mode --jsonl "steps and sleep?"
	is "$rc" 0 "gemini ${mode:-stream}: answered"
	like "$out" '"text":"Both: 8123."' "gemini ${mode:-stream}: the thoughtSignature was echoed back"
	req '
c = reqs[1]["body"]["contents"][-2]
assert c["parts"][0]["thoughtSignature"] == "c2lnbmF0dXJlLUE=" and "functionCall" in c["parts"][0]
assert "thoughtSignature" not in c["parts"][1]
r = reqs[1]["body"]["contents"][-1]["parts"]
assert [p["functionResponse"]["name"] for p in r] == ["hq_testtool", "hq_testtool"]'
	ok $? "gemini ${mode:-stream}: signature on its own part, both results in one turn"
done

# Gemini's MALFORMED_FUNCTION_CALL: the model is asked to try again
start_fake gemini-malformed
agent gemini --jsonl "steps?"
is "$rc" 0 "gemini malformed call: answered in the end"
like "$out" '"text":"Second try worked: 8123."' "gemini malformed call: after a retry by the model"
like "$(req 'print(reqs[1]["body"]["contents"][-1]["parts"][0]["text"])')" "malformed and was not run" \
	"gemini malformed call: the model is told"

# text tool mode: tools in the system prompt, calls from fenced JSON and
# <tool_call> tags, results as user messages
for p in openai anthropic; do
	start_fake text-mode
	agent $p --tool-mode text --jsonl "steps?"
	is "$rc" 0 "text mode $p: answered"
	like "$out" '"argv":\["hq-testtool","--by","day","--","steps"\]' "text mode $p: call from a fenced block"
	like "$out" '"argv":\["hq-testtool","--","sleep"\]' "text mode $p: call from <tool_call> tags"
	like "$out" '"text":"You walked 8123 steps."' "text mode $p: answer"
done
req '
b = reqs[0]["body"]
assert "tools" not in b
assert "hq_testtool" in b["system"] and "```json" in b["system"]
last = reqs[1]["body"]["messages"][-1]
text = json.dumps(last["content"])
assert last["role"] == "user" and "Result of hq_testtool" in text and "8123" in text'
ok $? "text mode: no native tools sent, results come back as text"

done_testing
