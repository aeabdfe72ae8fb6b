#!/usr/bin/env bash
# A saved query as a tool of its own: the config's [queries] offered to a
# scripted model by name, with its comment as its description and its
# command's parameters (none required); called with no arguments it runs
# the saved line through the real hq-report, and the answer carries the
# generator's truth; a parameter the model adds goes after the saved
# words; a query whose command writes (hq-ingest) is refused without a
# terminal or --yes, as its command is; a bad [queries] line stops
# hq-agent before anything is sent, naming FILE:LINE.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-report >/dev/null && command -v gen-export >/dev/null ||
	skip_all "hq-report or gen-export is not built"
unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent

gen-export --days 10 --seed 3 --xml --truth "$T/truth.jsonl" \
	--meals "$T/meals.xml" -o "$T/export.xml"
run hq-ingest -q "$T/export.xml" "$T/meals.xml"
is "$rc" 0 "a generated export and its food log import"
imports=$(sqlite3 "$HQ_DB" "SELECT count(*) FROM import")

export HQ_CONFIG="$T/hq.conf"
cat >"$HQ_CONFIG" <<EOF
[queries]
# What I ate each day of the week of 23 October
week_food = hq-report nutrition --from 2024-10-23 --to 2024-10-29
# Import my food log
import_food = hq-ingest '$T/meals.xml'
EOF

truth=$(python3 -c '
import json, sys
d = [d for d in map(json.loads, open(sys.argv[1])) if d.get("meals") == "2024-10-23"][0]
print("On 2024-10-23 you ate %g kcal with %g g of protein (%.1f%% of the energy)." %
      (d["energy_kcal"], d["protein_g"], d["protein_pct"]))' "$T/truth.jsonl")

for p in openai anthropic; do
	start_fake e2e-saved-query
	agent $p -v "How much protein did I eat on 23 October?"
	is "$rc" 0 "$p: answered"
	is "$out" "$truth" "$p: the day's energy, protein and share are the generator's truth, through the saved query"
	like "$err" "week_food exit 0" "$p: the saved query ran as a tool"
done
req "
tools = reqs[0]['body'].get('tools', [])
names = [t.get('name') for t in tools]
assert 'week_food' in names and 'import_food' in names and 'hq_report' in names, names
t = [t for t in tools if t['name'] == 'week_food'][0]
assert t['description'].startswith('What I ate each day of the week of 23 October. '), t['description']
assert 'hq-report nutrition --from 2024-10-23 --to 2024-10-29' in t['description'], t['description']
s = t['input_schema']
assert 'required' not in s and 'entries' in s['properties'], s
print('ok')" >"$T/schema.out" 2>&1
is "$(cat "$T/schema.out")" "ok" "the tool: named as the query, its comment and line its description, hq-report's parameters, none required"

# The model's parameters go after the saved words.
start_fake e2e-saved-query-more
agent openai --jsonl "What did I log first that week?"
is "$rc" 0 "a parameter added: answered"
like "$out" '"argv":\["hq-report","nutrition","--from","2024-10-23","--to","2024-10-29","--entries"\]' \
	"the saved words first, then --entries"
like "$out" "First you logged [A-Z][a-z].* \([0-9]+ kcal\) from MyFitnessPal\." "and the entry's row reached the answer"

# A query of a command that writes is a tool that writes.
start_fake e2e-saved-query-write
agent openai --jsonl "Import my food log"
is "$rc" 0 "a writing query: the run goes on"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" "refused: import_food changes the user's data store" \
	"refused without a terminal or --yes, as hq-ingest is"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM import")" "$imports" "nothing imported"

# Bad lines: hq-agent stops before asking anything, naming FILE:LINE.
bad() {  # LINE WANT NAME
	printf '[queries]\n%s\n' "$1" >"$T/bad"
	start_fake e2e-saved-query
	HQ_CONFIG="$T/bad" agent openai "How much protein?"
	is "$rc" 2 "$3: exit 2"
	like "$err" "$T/bad:2: \\[queries\\]: $2" "$3: said with FILE:LINE"
	is "$(wc -l <"$FAKE_LOG")" 0 "$3: nothing sent to the model"
}
bad "x = hq-agent 'what now?'" "x runs hq-agent, which hq-agent does not offer" "a query of hq-agent"
bad "hq_report = hq-report week" "'hq_report' would clash with the built-in tools" "a built-in tool's name"
bad "x = sh -c 'hq-query steps'" "'sh' is not an hq command" "another program"
bad "x = hq run x" "'x' runs itself" "itself"
bad "x = hq-query steps \$(id)" "'\\\$\\(' is a shell's command substitution" "\$(...)"

done_testing
