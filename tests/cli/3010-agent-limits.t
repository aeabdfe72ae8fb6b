#!/usr/bin/env bash
# A hostile model or server: every reply, argument, call count and byte
# that reaches a terminal has a bound, and past it the run ends (or the
# call is refused) with a clear message, in a few megabytes.
#   a reply:            8 MiB, counted decompressed, a stream with its framing
#   a call's arguments: 32 KiB (the call is not run; the model is told)
#   calls in one reply: 16 run, 4 at a time; the rest dropped, the model told
#   tools' environment: no API key of any provider
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
make_tools "$T/tools"
sql() { python3 -c "
import sqlite3, sys
for r in sqlite3.connect('$HQ_DB').execute(sys.argv[1]): print('|'.join(map(str, r)))" "$1"; }

# peak PROVIDER ARGS...: `agent`, and $kb the peak resident memory of it
peak() {
	local p=$1
	shift
	ANTHROPIC_API_KEY=k GEMINI_API_KEY=k python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as o, open(sys.argv[2], "w") as e:
    rc = subprocess.run(sys.argv[4:], stdin=subprocess.DEVNULL, stdout=o, stderr=e).returncode
open(sys.argv[3], "w").write("%d %d" % (rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
' "$T/.out" "$T/.err" "$T/.rc" hq-agent -p "$p" -m fake-model --base-url "$(base_url "$p")" "$@"
	read -r rc kb <"$T/.rc"
	out=$(cat "$T/.out")
	err=$(cat "$T/.err")
}
MAX_KB=262144	# a quarter of a GiB, sanitizers included; it was 2 to 4 GiB

# 1 GiB of answer text, in every provider's stream
for p in openai anthropic gemini ollama; do
	start_fake huge-text
	peak $p "hi"
	is "$rc" 2 "$p: 1 GiB streamed: the run fails"
	like "$err" "the reply from http://127.0.0.1:[0-9]+/.* is larger than 8 MiB .*stopped reading it" \
		"$p: 1 GiB streamed: says the reply is over 8 MiB"
	ok "$([ "$kb" -lt $MAX_KB ]; echo $?)" "$p: 1 GiB streamed: peak memory ${kb} KB"
	is "$(wc -l <"$FAKE_LOG")" 1 "$p: 1 GiB streamed: not asked again"
done

# one line of 1 GiB that never ends
start_fake huge-line
peak openai "hi"
is "$rc" 2 "1 GiB line: the run fails"
like "$err" "larger than 8 MiB" "1 GiB line: says why"
ok "$([ "$kb" -lt $MAX_KB ]; echo $?)" "1 GiB line: peak memory ${kb} KB"

# a gzip body of about 1 MB that inflates to 1 GiB: the inflated size counts
start_fake huge-gzip
peak ollama "hi"
is "$rc" 2 "gzip bomb: the run fails"
like "$err" "larger than 8 MiB \(counted decompressed" "gzip bomb: counted decompressed"
ok "$([ "$kb" -lt $MAX_KB ]; echo $?)" "gzip bomb: peak memory ${kb} KB"

# arguments of 200 MB are a reply over the limit; of 100 KB, a call refused
for p in openai anthropic; do
	start_fake huge-args
	peak $p --jsonl "hi"
	is "$rc" 2 "$p: 200 MB of arguments: the run fails"
	ok "$([ "$kb" -lt $MAX_KB ] && [ ${#out} -lt 4096 ]; echo $?)" \
		"$p: 200 MB of arguments: peak memory ${kb} KB, ${#out} bytes of events"

	start_fake big-args
	agent $p --jsonl -v "hi"
	is "$rc" 0 "$p: 100 KB of arguments: the run goes on"
	res=$(req 'm = reqs[1]["body"]["messages"]
print(m[-1]["content"] if isinstance(m[-1]["content"], str) else m[-1]["content"][0]["content"])')
	like "$res" "^error: not run: the arguments are 100016 bytes, over the limit of 32768 bytes" \
		"$p: 100 KB of arguments: the model is told why"
	like "$(req 'print(json.dumps(reqs[1]["body"]["messages"][-2]))')" '"(arguments|input)": ("\{\}"|\{\})' \
		"$p: 100 KB of arguments: not sent back to the model"
	like "$out" '"event":"tool_call","step":1,"id":"[^"]+","name":"hq_testtool","arguments":"\{\}"' \
		"$p: 100 KB of arguments: the event carries none of them"
	ok "$([ ${#out} -lt 4096 ] && [ ${#err} -lt 2048 ]; echo $?)" \
		"$p: 100 KB of arguments: ${#out} bytes of events, ${#err} of -v"
	is "$(sql "SELECT max(length(arguments)) FROM agent_tool_call")" 2 \
		"$p: 100 KB of arguments: not in the run log"
	rm -f "$HQ_DB"*
done

# 3000 calls in one reply: 16 run, 4 at a time, in order; the model is told
mkdir "$T/running"
export HQ_TESTTOOL_RUNDIR="$T/running"
start_fake many-calls
agent openai --jsonl "steps?"
unset HQ_TESTTOOL_RUNDIR
is "$rc" 0 "3000 calls: the run goes on to an answer"
is "$(wc -l <"$T/running.seen" | tr -d ' ')" 16 "3000 calls: 16 run"
most=$(sort -n "$T/running.seen" | tail -1)
ok "$([ "$most" -le 4 ] && [ "$most" -ge 2 ]; echo $?)" "3000 calls: at most 4 at once (saw $most)"
like "$out" '"tool_calls":16,"cut_calls":0,"skipped_calls":2984' "3000 calls: the step event counts those not run"
req '
m = reqs[1]["body"]["messages"]
calls = m[-18]["tool_calls"]
results = m[-17:-1]
assert len(calls) == 16, len(calls)
for i, r in enumerate(results):
    assert r["role"] == "tool" and r["tool_call_id"] == "call_fake%d" % i, r
    assert "--from %d " % i in r["content"], r["content"]
assert m[-1]["role"] == "user"
assert "asked for 3000 tool calls; one reply may make at most 16" in m[-1]["content"], m[-1]
assert "the other 2984 were not run" in m[-1]["content"]'
ok $? "3000 calls: 16 results in the calls' order, then a note of the 2984 not run"

# no tool gets a key: not the provider's, not another's, not api_key_env's
start_fake one-call
mkdir -p "$XDG_CONFIG_HOME/hq"
printf '[llm]\napi_key_env = MY_LLM_TOKEN\n' >"$XDG_CONFIG_HOME/hq/config"
export HQ_TESTTOOL_ENVFILE="$T/tool.env"
OPENAI_API_KEY=sk-open-1 ANTHROPIC_API_KEY=sk-ant-2 GEMINI_API_KEY=gem-3 MISTRAL_API_KEY=mis-4 \
	openrouter_api_key=or-5 MY_LLM_TOKEN=tok-6 agent openai "steps?"
unset HQ_TESTTOOL_ENVFILE
rm "$XDG_CONFIG_HOME/hq/config"
is "$rc" 0 "keys: the run answers"
is "$(req 'print(reqs[0]["headers"]["authorization"])')" "Bearer tok-6" "keys: api_key_env's key is sent"
ok "$([ -s "$T/tool.env" ] && grep -q '^HQ_DB=' "$T/tool.env"; echo $?)" "keys: the tool ran with an environment"
is "$(grep -c -e sk-open-1 -e sk-ant-2 -e gem-3 -e mis-4 -e or-5 -e tok-6 -e '_API_KEY=' "$T/tool.env")" 0 \
	"keys: the tool's environment holds none"

# what the model says reaches a terminal escaped: -v lines, messages
start_fake escapes
agent openai -v "steps?"
is "$rc" 0 "escapes: the run answers"
ok "$(printf '%s' "$err" | grep -q "$(printf '\033')"; [ $? = 1 ]; echo $?)" "escapes: no ESC byte in the -v lines"
like "$err" 'hq_testtool\\x1b\[31m not run' "escapes: a tool name shown escaped"
like "$err" 'step 1: hq_testtool \{"metrics": \["steps\\r\\x1b\[2K\\u202e"' "escapes: arguments shown escaped"

# a run that cannot be logged does not exit 0
start_fake answer
agent openai "hi"
is "$rc" 0 "log: a run that is logged exits 0"
python3 -c "
import sqlite3
sqlite3.connect('$HQ_DB').execute(\"CREATE TRIGGER no_log BEFORE INSERT ON agent_message BEGIN SELECT RAISE(ABORT, 'the disk says no'); END\")"
start_fake answer
agent openai "hi"
is "$rc" 2 "log: a run that cannot be logged exits 2"
like "$err" "the disk says no" "log: says why"
like "$out" "." "log: the answer is still printed"

done_testing
