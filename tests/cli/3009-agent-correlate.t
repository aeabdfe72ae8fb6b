#!/usr/bin/env bash
# End to end: "When my glucose goes above 140, how does it affect my sleep
# that night?" A scripted model calls the real hq-correlate (discovered
# beside hq-agent from its --tool-schema) on a generated store, through each
# provider's wire format, and copies the difference from the tool's row into
# its answer; the printed answer must carry the difference the generator's
# truth file gives for those nights.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-correlate >/dev/null && command -v gen-export >/dev/null ||
	skip_all "hq-correlate or gen-export is not built"
command -v python3 >/dev/null || skip_all "python3 missing"

gen-export --days 90 --seed 5 --start 2024-03-01 --truth "$T/truth" -o "$T/export.zip"
hq-ingest -q "$T/export.zip" >/dev/null
ok $? "a generated store of 90 days"
# The nights after days with glucose above 140 against the rest, from the
# truth file: A's days up to 2024-05-28, the night after each.
want=$(python3 - "$T/truth" <<'PY'
import json, sys, statistics as st
d = [json.loads(l) for l in open(sys.argv[1])]
d = [x for x in d if "date" in x and "workout" not in x]
i28 = [x["date"] for x in d].index("2024-05-28")
w = [d[i + 1]["sleep_asleep_min"] / 60 for i in range(i28 + 1) if d[i]["glucose_max"] > 140]
o = [d[i + 1]["sleep_asleep_min"] / 60 for i in range(i28 + 1) if d[i]["glucose_max"] <= 140]
print(st.mean(w) - st.mean(o), len(w), len(o))
PY
)
set -- $want
is "$(echo "$want" | awk '{ print ($1 < -0.3) ? "shorter" : "not" }')" shorter \
	"(the truth: $1 h of sleep after high-glucose days, $2 vs $3 nights)"

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-correlate
	agent $p -v "When my glucose goes above 140, how does it affect my sleep that night?"
	is "$rc" 0 "$p: answered"
	like "$err" "tools: .*hq_correlate" "$p: hq_correlate discovered beside hq-agent"
	like "$err" "hq_correlate exit 0, 1 rows" "$p: hq-correlate ran and returned its row"
	got=$(printf '%s' "$out" | sed -n 's/.*your sleep differed by \(-\{0,1\}[0-9.e-]*\) h from.*/\1/p')
	num_near "$got" "$1" 1e-8 "$p: the answer carries the truth's difference ($got h)"
	like "$out" "; $2 vs $3 nights\)" "$p: and the nights of each group"
	like "$out" "association, not proof of a cause" "$p: and says what it is"
done
req 'import sys
calls = [m for r in reqs for m in r["body"].get("messages", []) if m.get("role") == "tool"]
print(calls[-1]["content"][:60] if calls else "none")' >"$T/last"
like "$(cat "$T/last")" '^\{"a":"blood_glucose","b":"sleep"' "the tool result the model saw is hq-correlate's conditional row"
# issue 23: from a model, hq-correlate takes no file operand (a path, a
# relative .jsonl, '-'): the model, and a remote provider behind it, must
# not read the user's files; the refusal quotes nothing of the file.
printf '{"metric":"steps","period":"SECRET-TOKEN-0123456789abcdef0123456789abcdef","value":1}\n' >"$T/secret.jsonl"
cat >"$T/files.json" <<J
{"turns": [
  {"reply": {"text": "", "calls": [
    {"name": "hq_correlate", "args": {"metrics": ["$T/secret.jsonl", "steps"]}},
    {"name": "hq_correlate", "args": {"metrics": ["steps", "secret.jsonl"]}},
    {"name": "hq_correlate", "args": {"metrics": ["../secret.jsonl", "steps"]}}]}},
  {"reply": {"text": "I cannot read files."}}
]}
J
start_fake "$T/files.json"
cd "$T" && agent openai -v "Correlate my file with steps"
cd "$OLDPWD"
is "$rc" 0 "file operands from a model: the run ends"
req 'import sys
calls = [m for r in reqs for m in r["body"].get("messages", []) if m.get("role") == "tool"]
for m in calls[-3:]: print(m["content"].replace("\n", " ")[:300])' >"$T/last"
is "$(grep -c "is a file: from a model (hq-agent) hq-correlate reads metrics of the store only" "$T/last")" 3 \
	"each of the three is refused as a file, with what the tool takes instead"
unlike "$(cat "$T/last")" "SECRET" "and nothing of the file reaches the model"
run hq-correlate "$T/secret.jsonl" steps
like "$err" "period 'SECRET-TOKEN-0123456789abcdef0123456789a\\.\\.\\.' is not a day" \
	"by hand a file is read; a bad field is quoted at most 40 characters, then ..."
done_testing
