#!/usr/bin/env bash
# hq-agent and hq-archive: the archive's tool schema says which
# subcommands only read (x-reads: list, verify), so a model's `list` runs
# without a yes while `push` is refused without a terminal or --yes.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"

R="file://$T/remote"
cat >"$T/w.jsonl" <<'J'
{"metric":"body_mass","start":"2024-03-04T07:00:00Z","value":71.5,"unit":"kg","source":"Scale"}
J
run hq-ingest -q "$T/w.jsonl"
is "$rc" 0 "a small store"
run hq-archive --remote "$R" init
is "$rc" 0 "init"
run hq-archive --remote "$R" push -q
is "$rc" 0 "push"
mkdir -p "$XDG_CONFIG_HOME/hq"
printf '[archive]\nremote = %s\n' "$R" >"$XDG_CONFIG_HOME/hq/config"

run hq-archive --tool-schema
like "$out" '"writes":true,"x-reads":\["list","verify"\]' "the schema: writes, but list and verify only read"

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
call() {
	printf '{"turns":[{"reply":{"calls":[{"name":"hq_archive","args":{"args":["%s"]}}]}},{"reply":{"text":"ok"}}]}\n' "$1" >"$T/$1.json"
	start_fake "$T/$1.json"
}
call list
agent openai --jsonl "which months are archived?"
is "$rc" 0 "list: answered"
like "$out" '"event":"tool_result","step":1,"id":"[^"]+","name":"hq_archive"' "list runs without --yes: it only reads"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" '"month":"2024-03"' "list: the model sees the archived month"

call verify
agent openai --jsonl "is my archive whole?"
like "$out" '"event":"tool_result","step":1,"id":"[^"]+","name":"hq_archive"' "verify runs without --yes"

before=$(ls -l --time-style=+%s.%N "$T/remote" | md5sum)
call push
agent openai --jsonl "back up my data"
like "$out" '"event":"tool_error","step":1,"id":"[^"]+","name":"hq_archive"' "push is refused without --yes"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" "refused: hq_archive changes the user's data store" \
	"push: the model is told why"
is "$(ls -l --time-style=+%s.%N "$T/remote" | md5sum)" "$before" "push refused: the remote is untouched"

call push
agent openai --yes --jsonl "back up my data"
like "$out" '"event":"tool_result","step":1,"id":"[^"]+","name":"hq_archive"' "push with --yes runs"

done_testing
