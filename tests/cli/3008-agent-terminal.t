#!/usr/bin/env bash
# On a terminal: the answer streams as it arrives (once, not again at the
# end), and a tool that writes asks first and runs only after a yes.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v script >/dev/null || skip_all "script(1) is needed for a terminal"
make_tools "$T/tools"
export HQ_WRITETOOL_MARK="$T/wrote"

# tty CMD INPUT: run CMD on a pseudo-terminal with INPUT typed; sets $out
tty() {
	out=$(printf '%s' "$2" | script -qec "$1" /dev/null | tr -d '\r')
}
start_fake one-call
tty "hq-agent -m fake-model --base-url $(base_url openai) 'How many steps?'" ""
is "$(printf '%s\n' "$out" | grep -c 'You walked 8123 steps yesterday.')" 1 "terminal: the streamed answer is printed once"
like "$out" "Let me look." "terminal: text before a tool call is shown too"

# a stream dropped halfway is retried; the text the retry repeats is not
# shown again
start_fake dropped-repeat
tty "hq-agent -m fake-model --base-url $(base_url openai) 'How many steps?'" ""
is "$(printf '%s\n' "$out" | grep -o 'You walked' | wc -l)" 1 "terminal: text a retry repeats is shown once"
like "$out" "You walked 8123 steps yesterday, a little more than on the day before and well above your weekly average." \
	"terminal: and the retried answer is shown whole"
is "$(wc -l <"$FAKE_LOG")" 2 "terminal: dropped stream: two requests"

# the step budget runs out: what was found does not repeat the streamed text
start_fake budget
tty "hq-agent -m fake-model --base-url $(base_url openai) --max-steps 2 'How many steps?'" ""
is "$(printf '%s\n' "$out" | grep -c 'Still looking, from another angle.')" 1 "terminal: step budget: the last streamed text is shown once"
is "$(printf '%s\n' "$out" | grep -c 'Looking at your steps.')" 1 "terminal: step budget: and the one before it"
like "$out" "8123" "terminal: step budget: the last results are printed"
like "$out" "step budget \\(2\\) ran out" "terminal: step budget: says so"

# -v on a terminal: the streamed text and the step lines on stderr never
# share a line
for sc in one-call budget; do
	start_fake $sc
	tty "hq-agent -v -m fake-model --base-url $(base_url openai) --max-steps 2 'How many steps?'" ""
	is "$(printf '%s\n' "$out" | grep 'hq-agent:' | grep -v '^hq-agent: ')" "" \
		"-v, $sc: every step line starts a line of its own"
	like "$out" "^hq-agent: step 1: model replied" "-v, $sc: the step lines are there"
done
start_fake one-call
tty "hq-agent -v -m fake-model --base-url $(base_url openai) 'How many steps?'" ""
is "$(printf '%s\n' "$out" | grep -c 'You walked 8123 steps yesterday.')" 1 "-v: the answer is printed once"
is "$(printf '%s\n' "$out" | grep -x 'You walked 8123 steps yesterday.' | wc -l | tr -d ' ')" 1 \
	"-v: on a line of its own"
is "$(printf '%s\n' "$out" | grep -A1 -x 'Let me look.' | tail -1 | cut -c1-34)" "hq-agent: step 1: model replied in" \
	"-v: the text before a tool call ends its line first"

start_fake write-tool
tty "hq-agent -m fake-model --base-url $(base_url openai) 'import it'" "n
"
like "$out" "the model wants to change your data store:" "terminal: a write tool asks first"
like "$out" "hq-writetool -- export.zip" "terminal: and shows the command"
ok "$([ ! -e "$T/wrote" ]; echo $?)" "terminal: 'n' refuses it"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" "refused" "terminal: the model is told"

start_fake write-tool
tty "hq-agent -m fake-model --base-url $(base_url openai) 'import it'" "y
"
ok "$([ -e "$T/wrote" ]; echo $?)" "terminal: 'y' runs it"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" '"imported":"-- export.zip"' "terminal: its output goes to the model"

done_testing
