#!/usr/bin/env bash
# hq-agent speaks each provider's real wire format, streamed and not: a
# scripted model calls a tool, gets its rows back in the provider's own
# shape, and answers; the answer is printed.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
make_tools "$T/tools"

# the second request must carry the tool's rows where each API wants them
check_openai='
m = reqs[1]["body"]["messages"]
assert m[0]["role"] == "system" and "America/Los_Angeles (UTC-0" in m[0]["content"], m[0]
import re, time
assert re.search(r"Today is [A-Z][a-z]+day \d{4}-\d\d-\d\d", m[0]["content"]), m[0]
assert m[-2]["role"] == "assistant" and m[-2]["tool_calls"][0]["function"]["name"] == "hq_testtool"
assert m[-1]["role"] == "tool" and m[-1]["tool_call_id"] == m[-2]["tool_calls"][0]["id"]
assert "8123" in m[-1]["content"]
assert "hq_testtool" in [t["function"]["name"] for t in reqs[0]["body"]["tools"]]
assert "x-positional" not in json.dumps(reqs[0]["body"]["tools"])
'
check_anthropic='
b = reqs[1]["body"]; m = b["messages"]
assert "America/Los_Angeles" in b["system"]
assert reqs[0]["headers"]["x-api-key"] == "test-key-anthropic"
assert reqs[0]["headers"]["anthropic-version"] == "2023-06-01"
assert b["max_tokens"] > 0
use = [c for c in m[-2]["content"] if c["type"] == "tool_use"][0]
assert use["input"] == {"metrics": ["steps"], "by": "day", "limit": 5}, use
res = m[-1]["content"][0]
assert m[-1]["role"] == "user" and res["type"] == "tool_result" and res["tool_use_id"] == use["id"]
assert "8123" in res["content"] and not res.get("is_error")
assert all(t["input_schema"]["type"] == "object" for t in reqs[0]["body"]["tools"])
'
check_gemini='
b = reqs[1]["body"]; c = b["contents"]
assert "America/Los_Angeles" in b["systemInstruction"]["parts"][0]["text"]
assert reqs[0]["headers"]["x-goog-api-key"] == "test-key-gemini"
assert c[-2]["role"] == "model" and c[-2]["parts"][-1]["functionCall"]["args"]["limit"] == 5
fr = c[-1]["parts"][0]["functionResponse"]
assert c[-1]["role"] == "user" and fr["name"] == "hq_testtool" and "8123" in fr["response"]["output"]
assert "id" not in fr
assert "hq_testtool" in [d["name"] for d in reqs[0]["body"]["tools"][0]["functionDeclarations"]]
'
check_ollama='
m = reqs[1]["body"]["messages"]
assert m[0]["role"] == "system"
assert m[-2]["tool_calls"][0]["function"]["arguments"] == {"metrics": ["steps"], "by": "day", "limit": 5}
assert m[-1]["role"] == "tool" and m[-1]["tool_name"] == "hq_testtool" and "8123" in m[-1]["content"]
'

for p in openai anthropic gemini ollama; do
	for mode in stream no-stream; do
		flag=
		[ $mode = no-stream ] && flag=--no-stream
		start_fake one-call
		agent $p $flag --jsonl "How many steps did I walk yesterday?"
		is "$rc" 0 "$p $mode: exit 0 when answered"
		like "$out" '"event":"answer","text":"You walked 8123 steps yesterday."' "$p $mode: the answer is the model's"
		like "$out" '"argv":\["hq-testtool","--by","day","--limit","5","--","steps"\]' \
			"$p $mode: the call became an argv, positional metrics after --"
		like "$out" '"event":"tool_result","step":1,"id":"[^"]+","name":"hq_testtool","exit_status":0' \
			"$p $mode: tool_result event"
		like "$out" '"event":"done","outcome":"answered","steps":2' "$p $mode: done after 2 steps"
		eval "check=\$check_$p"
		req "$check"
		ok $? "$p $mode: the tool result went back in $p's format"
		case $p in
		gemini) [ $mode = stream ] && want=':streamGenerateContent\?alt=sse' || want=':generateContent$' ;;
		*) [ $mode = stream ] && want='True' || want='False|None' ;;
		esac
		if [ $p = gemini ]; then
			got=$(req 'print(reqs[0]["path"])')
		else
			got=$(req 'print(reqs[0]["body"].get("stream"))')
		fi
		like "$got" "$want" "$p $mode: asked for the right kind of response"
		if [ $mode = stream ] && [ $p != gemini ]; then
			like "$out" '"event":"token","text":"You wal"' "$p $mode: tokens arrive as events"
		fi
	done
done

# without --jsonl the answer alone is on stdout
start_fake one-call
agent anthropic "How many steps did I walk yesterday?"
is "$out" "You walked 8123 steps yesterday." "plain output: the answer only"
is "$err" "" "plain output: nothing on stderr"

# -v: each step on stderr
start_fake one-call
agent openai -v "How many steps?"
like "$err" 'step 1: hq_testtool \{"metrics":\["steps"\],"by":"day","limit":5\}' "-v shows the tool and its arguments"
like "$err" 'step 1: hq_testtool exit 0, 1 rows, [0-9.]+ s' "-v shows exit status, rows and duration"
is "$out" "You walked 8123 steps yesterday." "-v keeps stdout clean"

# the default is a local OpenAI-compatible server: nothing leaves the machine
run hq-agent -m fake-model --jsonl "hello" </dev/null
like "$err" "127.0.0.1:11434/v1" "the default base URL is Ollama's port on localhost"

done_testing
