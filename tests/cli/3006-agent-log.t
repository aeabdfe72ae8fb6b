#!/usr/bin/env bash
# Every run is logged in the store (never an API key); --log lists runs;
# --session continues a conversation; settings come from flags, the
# environment or the config file, and missing ones are named.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
make_tools "$T/tools"
sql() { python3 -c "
import sqlite3, sys
for r in sqlite3.connect('$HQ_DB').execute(sys.argv[1]): print('|'.join(map(str, r)))" "$1"; }

run hq-agent --log
is "$rc:$out" "1:" "--log before any run: nothing on stdout, exit 1"
is "$err" "hq-agent: no runs logged yet: nothing has been asked (hq-agent \"QUESTION\" asks)" \
	"--log before any run: stderr says nothing has been asked yet"
out=$(script -qec "hq-agent --log; echo rc=\$?" /dev/null | tr -d '\r')
is "$out" "hq-agent: no runs logged yet: nothing has been asked (hq-agent \"QUESTION\" asks)
rc=1" "--log before any run on a terminal: said, exit 1"

# a run, with a secret key that must not be written anywhere
start_fake one-call
secret=sk-ant-api03-SECRETSECRET42
ANTHROPIC_API_KEY=$secret run hq-agent -p anthropic -m fake-model --base-url "$(base_url anthropic)" \
	-v --jsonl --session walk "How many steps did I walk yesterday?" </dev/null
is "$rc" 0 "logged run: answered"
is "$(req 'print(reqs[0]["headers"]["x-api-key"])')" "$secret" "the key was sent to the server"
hits=$(cat "$HQ_DB"* | grep -c "SECRETSECRET42"; printf '%s%s' "$out" "$err" | grep -c SECRETSECRET42)
is "$(echo $hits | tr -d ' ')" "00" "the key is in neither the store nor the output"
req '
assert "SECRETSECRET42" not in json.dumps(reqs[1]["body"])
assert json.loads(reqs[1]["body"]["messages"][-1]["content"][0]["content"])["key"] == ""'
ok $? "the tools do not get the key in their environment"
is "$(sql "SELECT question, provider, model, steps, outcome, session, input_tokens, output_tokens FROM agent_run")" \
	"How many steps did I walk yesterday?|anthropic|fake-model|2|answered|walk|200|40" "the run: question, provider, model, steps, outcome, tokens"
is "$(sql "SELECT step, tool_calls, stop_reason, input_tokens FROM agent_request ORDER BY step")" \
	"1|1|tool_use|100
2|0|end_turn|100" "each request: tool calls, stop reason, tokens"
is "$(sql "SELECT step, tool, arguments, exit_status, is_error, rows, output_bytes > 0, seconds > 0 FROM agent_tool_call")" \
	'1|hq_testtool|{"metrics":["steps"],"by":"day","limit":5}|0|0|1|1|1' "each tool call: arguments, exit status, rows, sizes, duration"
is "$(sql "SELECT count(*) FROM agent_message")" 4 "the conversation: question, call, result, answer"

# --log lists runs as JSON lines
run hq-agent --log
is "$rc" 0 "--log: exit 0"
like "$out" '"question":"How many steps did I walk yesterday\?","provider":"anthropic","model":"fake-model","steps":2,"tool_calls":1,"outcome":"answered"' "--log: the run"

# --log on a terminal: a table of runs that fits its width
tty_log() { # COLS ARGS...: hq-agent --log ARGS on a terminal COLS wide
	local cols=$1
	shift
	script -qec "stty cols $cols; hq-agent --log $*" /dev/null | tr -d '\r'
}
long() { while IFS= read -r l; do [ ${#l} -le "$1" ] || echo "$l"; done; }
out=$(tty_log 80)
is "$(printf '%s\n' "$out" | head -1)" \
	"id  when              question                         steps  outcome     tokens" \
	"--log on a terminal: a table (id, when, question, steps, outcome, tokens)"
like "$(printf '%s\n' "$out" | sed -n 2p)" \
	"^ 1  20[0-9-]{8} [0-9:]{5}  \\[walk\\] How many steps did I wa…      2  answered       240$" \
	"--log: the run in its row (local time, session, tokens in and out)"
is "$(printf '%s\n' "$out" | long 80)" "" "--log: 80 columns"
out=$(tty_log 66)
is "$(printf '%s\n' "$out" | long 66)" "" "--log: 66 columns, the question cut to fit"
like "$out" "\\[walk\\] How many ?…      2  answered       240$" "--log: a cut question ends with …"
out=$(tty_log 40)
is "$(printf '%s\n' "$out" | long 40)" "" "--log: 40 columns, when and tokens give way"
like "$(printf '%s\n' "$out" | sed -n 2p)" "^ 1  \\[walk\\] How many ?…      2  answered$" "--log: 40 columns: id, question, steps, outcome"
# --log ID: one run's steps and tool calls; JSON when piped
run hq-agent --log 1
is "$rc" 0 "--log ID: exit 0"
printf '%s' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["id"] == 1 and r["question"] == "How many steps did I walk yesterday?", r
assert r["session"] == "walk" and r["outcome"] == "answered" and r["steps"] == 2, r
assert [q["step"] for q in r["requests"]] == [1, 2], r["requests"]
assert r["requests"][0]["stop_reason"] == "tool_use" and r["requests"][0]["tool_calls"] == 1
c = r["tool_calls"]
assert len(c) == 1 and c[0]["step"] == 1 and c[0]["tool"] == "hq_testtool", c
assert c[0]["arguments"] == {"metrics": ["steps"], "by": "day", "limit": 5}, c
assert c[0]["exit_status"] == 0 and c[0]["rows"] == 1 and c[0]["seconds"] > 0, c
assert r["answer"] == "You walked 8123 steps yesterday.", r
'
ok $? "--log ID piped: the run, its requests and tool calls as one JSON object"
out=$(tty_log 80 1)
like "$out" "^run 1, 20[0-9-]{8} [0-9:]{5} \\(America/Los_Angeles\\)" "--log ID on a terminal: the run"
like "$out" "
question  How many steps did I walk yesterday\\?
model     anthropic fake-model \\(native tools\\)
session   walk
outcome   answered after 2 steps" "--log ID: question, model, session, outcome"
like "$out" "
step 1: [0-9.]+ s, 100 tokens in, 20 out, 1 tool call, stop: tool_use
  hq_testtool \\{\"metrics\":\\[\"steps\"\\],\"by\":\"day\",\"limit\":5\\}
    exit 0, 1 row, [0-9.]+ s

step 2: " "--log ID: each step, and each tool call under its step"
like "$out" "
answer
  You walked 8123 steps yesterday.$" "--log ID: the answer"
is "$(printf '%s\n' "$out" | long 80)" "" "--log ID: 80 columns"
run hq-agent --log 99
is "$rc:$err" "1:hq-agent: no run 99 in the log (hq-agent --log lists them)" "--log ID: no such run"
run hq-agent --log one
is "$rc:$(printf '%s\n' "$err" | head -1)" "2:hq-agent: --log takes one run's id (hq-agent --log lists them)" \
	"--log: a word that is no id"

# --session continues the conversation: the model sees all of it
start_fake answer
agent anthropic --session walk "Is that more than usual?"
is "$rc" 0 "session: answered"
req '
m = reqs[0]["body"]["messages"]
assert m[0]["content"][0]["text"] == "How many steps did I walk yesterday?", m[0]
use = m[1]["content"][-1]
assert use["type"] == "tool_use" and use["name"] == "hq_testtool"
assert m[2]["content"][0]["tool_use_id"] == use["id"]
assert m[3]["content"][0]["text"] == "You walked 8123 steps yesterday."
assert m[4]["content"][0]["text"] == "Is that more than usual?"
assert len(m) == 5'
ok $? "session: the earlier question, tool call, result and answer come first"
# the same session continued through another provider
start_fake answer
agent gemini --session walk "And the day before?"
req '
c = reqs[0]["body"]["contents"]
assert [x["role"] for x in c] == ["user", "model", "user", "model", "user", "model", "user"], [x["role"] for x in c]
assert c[2]["parts"][0]["functionResponse"]["name"] == "hq_testtool"'
ok $? "session: continued with another provider, in its format"
is "$(sql "SELECT count(*) FROM agent_run WHERE session = 'walk'")" 3 "session: three runs"

# settings: config < environment < flags
mkdir -p "$XDG_CONFIG_HOME/hq"
start_fake answer
printf '[llm]\nprovider = anthropic\nmodel = from-config\nbase_url = %s\n' "$(base_url anthropic)" >"$XDG_CONFIG_HOME/hq/config"
ANTHROPIC_API_KEY=k run hq-agent "hi" </dev/null
is "$rc" 0 "config: provider, model and base_url from ~/.config/hq/config"
is "$(req 'print(reqs[-1]["path"], reqs[-1]["body"]["model"])')" "/v1/messages from-config" "config: used"
HQ_LLM_MODEL=from-env ANTHROPIC_API_KEY=k run hq-agent "hi" </dev/null
is "$(req 'print(reqs[-1]["body"]["model"])')" "from-env" "environment beats the config"
HQ_LLM_MODEL=from-env ANTHROPIC_API_KEY=k run hq-agent -m from-flag "hi" </dev/null
is "$(req 'print(reqs[-1]["body"]["model"])')" "from-flag" "a flag beats the environment"
printf '[llm]\nprovider = anthropic\nmodel = m\napi_key_env = MY_CLAUDE_KEY\nbase_url = %s\n' "$(base_url anthropic)" >"$XDG_CONFIG_HOME/hq/config"
MY_CLAUDE_KEY=other-key run hq-agent "hi" </dev/null
is "$(req 'print(reqs[-1]["headers"]["x-api-key"])')" "other-key" "config: api_key_env names the key's variable"
rm "$XDG_CONFIG_HOME/hq/config"

# no base URL: a provider named with its key set is asked at its public
# API, each alike; openai unnamed, or named without a key, stays local.
# (A proxy that refuses keeps every request on this machine; -v says
# where it would have gone.)
where() { # VAR=VALUE...: the URL -v names, the key not printed
	env -u no_proxy -u NO_PROXY https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 \
		http_proxy=http://127.0.0.1:9 "$@" hq-agent -v -m x --timeout 2 hi </dev/null >"$T/where" 2>&1
	sed -n 's/^hq-agent: [a-z]* x at \([^;]*\);.*/\1/p' "$T/where"
}
is "$(where HQ_LLM_PROVIDER=openai OPENAI_API_KEY=secret-key)" "https://api.openai.com/v1" \
	"openai named, a key, no base URL: its public API (as anthropic's)"
is "$(grep -c secret-key "$T/where")" 0 "-v: the key is not printed"
is "$(where HQ_LLM_PROVIDER=anthropic ANTHROPIC_API_KEY=secret-key)" "https://api.anthropic.com" \
	"anthropic named, a key: its public API"
is "$(where HQ_LLM_PROVIDER=gemini GEMINI_API_KEY=secret-key)" "https://generativelanguage.googleapis.com" \
	"gemini named, a key: its public API"
printf '[llm]\nprovider = openai\n' >"$XDG_CONFIG_HOME/hq/config"
is "$(where OPENAI_API_KEY=secret-key)" "https://api.openai.com/v1" "openai named in the config, a key: its public API"
rm "$XDG_CONFIG_HOME/hq/config"
is "$(where OPENAI_API_KEY=secret-key)" "http://127.0.0.1:11434/v1" \
	"no provider named (openai by default), a key: the local server all the same"
is "$(where HQ_LLM_PROVIDER=openai)" "http://127.0.0.1:11434/v1" "openai named without a key: the local server"
is "$(where HQ_LLM_PROVIDER=openai OPENAI_API_KEY=secret-key HQ_LLM_BASE_URL=http://127.0.0.1:9/v1)" \
	"http://127.0.0.1:9/v1" "a base URL beats the public API"
run hq-agent --help
like "$out" "HQ_LLM_PROVIDER, HQ_LLM_MODEL, HQ_LLM_BASE_URL" "--help: the variables it reads"
like "$out" "OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY" "--help: the keys' variables"
like "$out" "~/.config/hq/config .*under \\[llm\\]:" "--help: the config file and its section"
like "$out" "provider, model, base_url, api_key_env" "--help: the config's keys"

# what is missing is named, exit 2
run hq-agent "hi" </dev/null
is "$rc" 2 "no model: exit 2"
like "$err" "no model set — pass --model NAME, set HQ_LLM_MODEL" "no model: says how to set one"
run hq-agent -p anthropic -m x "hi" </dev/null
is "$rc" 2 "no key: exit 2"
like "$err" "no API key for anthropic — set ANTHROPIC_API_KEY" "no key: names the variable"
HQ_LLM_PROVIDER=mistral run hq-agent -m x "hi" </dev/null
is "$rc" 2 "unknown provider: exit 2"
like "$err" "unknown provider 'mistral'" "unknown provider: named"
run hq-agent -m x </dev/null
is "$rc" 2 "no question: exit 2"
like "$err" "no question" "no question: said"

# the question may come on stdin
start_fake answer
echo "How many steps?" >"$T/q"
run hq-agent -p openai -m fake-model --base-url "$(base_url openai)" <"$T/q"
is "$out" "Yesterday you walked 8123 steps, more than your average." "question on stdin"
is "$(req 'print(reqs[0]["body"]["messages"][-1]["content"])')" "How many steps?" "question on stdin: sent"

done_testing
