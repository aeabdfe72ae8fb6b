#!/usr/bin/env bash
# Tools: discovered from --tool-schema; a call is checked against the
# schema and run as an argv; every failure goes back to the model as the
# tool's result and the loop goes on; big outputs are cut with a note;
# slow tools are stopped; tools that write need --yes.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
make_tools "$T/tools"

# discovery: HQ_AGENT_TOOL_PATH first, bad schemas skipped, never hq-agent
cp "$T/tools/hq-testtool" "$T/tools/hq-agent"
start_fake one-call
agent openai -v "steps?"
like "$err" "tools:( hq_[a-z]+)* hq_testtool hq_writetool;" "discovery: the hq-* tools that answer --tool-schema"
like "$err" "no schema from: hq-broken" "discovery: a tool with a bad schema is skipped and named"
rm "$T/tools/hq-agent"

# every kind of bad call is answered with an error and the loop goes on
start_fake bad-calls
agent anthropic --jsonl "steps?"
is "$rc" 0 "bad calls: the run still ends with an answer"
is "$(printf '%s\n' "$out" | grep -c '"event":"tool_error"')" 7 "bad calls: seven tool_error events"
res=$(req '
for b in reqs[1]["body"]["messages"][-1]["content"]:
    print(b.get("is_error", False), b["content"].splitlines()[0])')
like "$res" "True error: the arguments are not a JSON object" "invalid JSON arguments"
like "$res" "True error: unknown tool 'hq_nosuchtool'; the tools are: (hq_[a-z]+, )*hq_testtool, hq_writetool" "unknown tool, with the list"
like "$res" "True error: unknown parameter 'colour' for hq_testtool \(parameters: metrics, from, by" "unknown parameter, with the list"
like "$res" "True error: parameter 'by' must be one of \[\"day\",\"week\"\], not \"fortnight\"" "enum checked"
like "$res" "True error: parameter 'limit' must be an integer, not \"many\"" "integer checked"
like "$res" "True error: missing required parameter 'metrics'" "required checked"
like "$res" "True error: hq-testtool exited with status 2" "non-zero exit"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"][6]["content"])')" "unknown metric 'stepz' \(did you mean steps\?\)" \
	"non-zero exit: the tool's stderr goes to the model"
is "$(req 'print(len(reqs[1]["body"]["messages"][-1]["content"]))')" 7 "bad calls: all seven answered in one user message"

# output cap: whole rows kept, the rest counted in a note
start_fake big-output
agent openai --max-output 1000 --jsonl "steps?"
like "$out" '"rows":5000,"rows_cut":[0-9]+' "big output: rows and rows cut reported"
content=$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')
like "$content" '\[output cut: [0-9]+ of 5000 rows shown, [0-9]+ rows \([0-9]+ bytes\) left out; narrow the query' \
	"big output: a note says how many rows were left out"
bad=$(printf '%s\n' "$content" | grep -v '^\[output cut' | python3 -c '
import json, sys
n = 0
for l in sys.stdin:
    json.loads(l); n += 1
print(n)')
ok "$([ "$bad" -gt 5 ] && [ "$(printf '%s' "$content" | wc -c)" -lt 1300 ]; echo $?)" "big output: $bad whole JSON rows kept, under the cap"

# a slow tool is stopped at --tool-timeout and the model is told
start_fake slow-tool
t0=$(date +%s%N)
agent openai --tool-timeout 0.5 --jsonl "steps?"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
is "$rc" 0 "slow tool: the run goes on to an answer"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" "timed out after 0.5 s and was stopped" "slow tool: the model is told it timed out"
ok "$([ "$ms" -lt 8000 ]; echo $?)" "slow tool: killed, not waited for its 30 s (${ms} ms)"

# ^C (or a TERM) to hq-agent also stops the tools it is running
start_fake slow-tool
export HQ_TESTTOOL_PIDFILE="$T/tool.pid"
hq-agent -p openai -m fake-model --base-url "$(base_url openai)" "steps?" </dev/null >/dev/null 2>&1 &
apid=$!
i=0
while [ ! -s "$T/tool.pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $apid
wait $apid
is "$?" 143 "TERM while a tool runs: hq-agent ends by the signal"
sleep 0.2
state=$(ps -o stat= -p "$(cat "$T/tool.pid")")	# gone, or a zombie nobody reaps yet
like "${state:-gone}" "^(gone|Z)" "TERM while a tool runs: the tool is stopped too (${state:-gone})"
unset HQ_TESTTOOL_PIDFILE

# a tool that writes: refused without a terminal or --yes, run with --yes
export HQ_WRITETOOL_MARK="$T/wrote"
start_fake write-tool
agent openai --jsonl "import my export"
is "$rc" 0 "write tool refused: the run goes on"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" "refused: hq_writetool changes the user's data store.*--yes" \
	"write tool refused: the model is told why"
ok "$([ ! -e "$T/wrote" ]; echo $?)" "write tool refused: it did not run"
start_fake write-tool
agent openai --yes --jsonl "import my export"
like "$out" '"argv":\["hq-writetool","--","export.zip"\]' "write tool with --yes: runs"
ok "$([ -e "$T/wrote" ]; echo $?)" "write tool with --yes: it ran"

done_testing
