#!/usr/bin/env bash
# The recorded streams in tests/fixtures/llm (captured from the live
# OpenAI and Anthropic APIs) are replayed byte for byte by the fake server,
# and hq-agent assembles the same tool calls the official SDKs do.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
need_fixtures llm/openai_stream_single_tool.sse llm/openai_stream_parallel_tools.sse \
    llm/anthropic_stream_tool_use.sse llm/anthropic_stream_incomplete_max_tokens.sse

# tools named as in the recordings; each echoes its argv as a row
tool() {	# tool CMD NAME PROPERTIES
	cat >"$T/tools/$1" <<SH
#!/bin/sh
if [ "\$1" = --tool-schema ]; then
echo '{"name":"$2","description":"A tool from the recorded fixture ($2).","parameters":{"type":"object","properties":$3},"writes":false}'
exit 0
fi
sleep 1
echo "{\"tool\":\"$2\",\"argv\":\"\$*\"}"
SH
	chmod +x "$T/tools/$1"
}
mkdir -p "$T/tools"
export HQ_AGENT_TOOL_PATH="$T/tools"
s='{"type":"string","description":"x"}'
tool hq-weather GetWeatherArgs "{\"city\":$s,\"country\":$s,\"units\":$s}"
tool hq-stock get_stock_price "{\"ticker\":$s,\"exchange\":$s}"
tool hq-weather2 get_weather "{\"location\":$s}"

scenario() {	# scenario FIXTURE: the fixture, then a plain answer
	printf '{"turns":[{"fixture":"%s","split":%s},{"reply":{"text":"Done."}}]}\n' "$1" "${2:-0}" >"$T/sc.json"
	start_fake "$T/sc.json"
}

for f in openai_stream_single_tool openai_stream_parallel_tools \
	 anthropic_stream_tool_use anthropic_stream_incomplete_max_tokens; do
	scenario $f.sse
	case $f in openai*) path=/v1/chat/completions ;; *) path=/v1/messages ;; esac
	python3 -c '
import sys, urllib.request
r = urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=b"{\"stream\":true}"))
sys.stdout.buffer.write(r.read())' "http://127.0.0.1:$FAKE_PORT$path" >"$T/got.sse"
	cmp -s "$T/got.sse" "$HQ_FIXTURES/llm/$f.sse"
	ok $? "$f: the fake server replays it byte for byte"
done

# one call, arguments in eleven fragments
scenario openai_stream_single_tool.sse
agent openai --jsonl "weather?"
is "$rc" 0 "openai single: answered"
like "$out" '"event":"tool_call","step":1,"id":"call_c91SqDXlYFuETYv8mUHzz6pp","name":"GetWeatherArgs","arguments":"\{\\"city\\":\\"Edinburgh\\",\\"country\\":\\"UK\\",\\"units\\":\\"c\\"\}"' \
	"openai single: id, name and the fragments joined"
like "$out" '"argv":\["hq-weather","--city","Edinburgh","--country","UK","--units","c"\]' "openai single: argv"
req 'm = reqs[1]["body"]["messages"]; assert m[-1]["tool_call_id"] == "call_c91SqDXlYFuETYv8mUHzz6pp" and "--city Edinburgh" in m[-1]["content"]'
ok $? "openai single: the result answers that id"

# two parallel calls: both run, concurrently, results back in order
scenario openai_stream_parallel_tools.sse 7
agent openai --jsonl "weather and stock?"
tool_s=$(printf '%s\n' "$out" | python3 -c '
import json, sys
ev = [json.loads(l) for l in sys.stdin]
print(min(e["seconds"] for e in ev if e["event"] == "tool_result"),
      [e for e in ev if e["event"] == "done"][0]["tool_seconds"])')
is "$rc" 0 "openai parallel: answered"
is "$(printf '%s\n' "$out" | grep -c '"event":"tool_call"')" 2 "openai parallel: two calls"
like "$out" '"id":"call_JMW1whyEaYG438VE1OIflxA2","name":"GetWeatherArgs","arguments":"\{\\"city\\": \\"Edinburgh\\", \\"country\\": \\"GB\\", \\"units\\": \\"c\\"\}"' \
	"openai parallel: first call (index 0)"
like "$out" '"id":"call_DNYTawLBoN8fj3KN6qU9N1Ou","name":"get_stock_price","arguments":"\{\\"ticker\\": \\"AAPL\\", \\"exchange\\": \\"NASDAQ\\"\}"' \
	"openai parallel: second call (index 1)"
req '
m = reqs[1]["body"]["messages"]
assert [x["tool_call_id"] for x in m[-2:]] == ["call_JMW1whyEaYG438VE1OIflxA2", "call_DNYTawLBoN8fj3KN6qU9N1Ou"]
assert "GetWeatherArgs" in m[-2]["content"] and "get_stock_price" in m[-1]["content"]'
ok $? "openai parallel: results go back in call order"
ok "$(echo "$tool_s" | awk '{ exit !($1 >= 1 && $2 < 1.9) }'; echo $?)" \
	"openai parallel: two 1 s tools ran concurrently (each, and the step's tool time: $tool_s s)"

# Anthropic: text, then a tool_use block whose input arrives as partial JSON
scenario anthropic_stream_tool_use.sse 5
agent anthropic --jsonl "weather in Paris?"
is "$rc" 0 "anthropic tool_use: answered"
like "$out" '"id":"toolu_01NRLabsLyVHZPKxbKvkfSMn","name":"get_weather","arguments":"\{\\"location\\": \\"Paris\\"\}"' \
	"anthropic tool_use: input_json_delta fragments joined"
like "$out" '"text":"'"'"'ll check the current weather in Paris for you."' "anthropic tool_use: text deltas streamed"
req '
m = reqs[1]["body"]["messages"]
a = m[-2]["content"]
assert a[0] == {"type": "text", "text": "I'"'"'ll check the current weather in Paris for you."}, a
assert a[1]["type"] == "tool_use" and a[1]["input"] == {"location": "Paris"}
assert m[-1]["content"][0]["tool_use_id"] == "toolu_01NRLabsLyVHZPKxbKvkfSMn"'
ok $? "anthropic tool_use: echoed and answered as the API requires"

# a tool call cut by max_tokens is never run; the model is told and asked again
scenario anthropic_stream_incomplete_max_tokens.sse
agent anthropic --jsonl "write my taxes"
is "$rc" 0 "anthropic max_tokens: the run goes on to an answer"
unlike "$out" '"event":"tool_call"' "anthropic max_tokens: the cut call is not run"
like "$out" '"cut_calls":1' "anthropic max_tokens: reported as cut"
like "$out" '"stop_reason":"max_tokens"' "anthropic max_tokens: stop reason kept"
req '
m = reqs[1]["body"]["messages"]
assert m[-2]["role"] == "assistant" and not [b for b in m[-2]["content"] if b["type"] == "tool_use"]
assert "cut off at the token limit" in m[-1]["content"][0]["text"]'
ok $? "anthropic max_tokens: the model is told its call was cut and not run"
like "$out" '"event":"answer","text":"Done."' "anthropic max_tokens: then its answer"

# cut at the last step: no answer to give, exit 1, and the user is told
scenario anthropic_stream_incomplete_max_tokens.sse
agent anthropic --max-steps 1 --jsonl "write my taxes"
is "$rc" 1 "max_tokens at the last step: exit 1"
like "$err" "cut off at its token limit; 1 tool call" "max_tokens at the last step: the user is told"
is "$(wc -l <"$FAKE_LOG")" 1 "max_tokens at the last step: no second request"

done_testing
