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
# prompt: the consent prompt in $out, from its first line to its question
prompt() {
	printf '%s\n' "$out" | sed -n '/the model wants to change/,/^Allow it/p' |
		sed '$s/^\(Allow it? \[y\/N\]\).*/\1/'
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
like "$out" "the model wants to change your data store. It asks to run" "terminal: a write tool asks first"
is "$(prompt)" "hq-agent: the model wants to change your data store. It asks to run
  $T/tools/hq-writetool
with 2 arguments, one a line (control and invisible characters shown as \\ escapes):
  --
  export.zip
Allow it? [y/N]" "terminal: and shows the program and its arguments, one a line"
ok "$([ ! -e "$T/wrote" ]; echo $?)" "terminal: 'n' refuses it"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" "refused" "terminal: the model is told"

start_fake write-tool
tty "hq-agent -m fake-model --base-url $(base_url openai) 'import it'" "y
"
ok "$([ -e "$T/wrote" ]; echo $?)" "terminal: 'y' runs it"
like "$(req 'print(reqs[1]["body"]["messages"][-1]["content"])')" '"imported":"-- export.zip"' "terminal: its output goes to the model"

# the model cannot spoof the prompt: what it chose is shown escaped
rm -f "$T/wrote"
start_fake spoof
tty "hq-agent -m fake-model --base-url $(base_url openai) 'import it'" "n
"
ok "$(printf '%s' "$out" | grep -q "$(printf '\033')"; [ $? = 1 ]; echo $?)" "spoof: no ESC byte reaches the terminal"
is "$(prompt)" "hq-agent: the model wants to change your data store. It asks to run
  $T/tools/hq-writetool
with 3 arguments, one a line (control and invisible characters shown as \\ escapes):
  --
  /etc/passwd\\r\\x1b[2K\\x1b[1A\\x1b[2K  hq-query --list (read-only)
  report\\u202epiz.txt
Allow it? [y/N]" "spoof: CR, ESC and a bidi override shown escaped, each argument on its line"
ok "$([ ! -e "$T/wrote" ]; echo $?)" "spoof: 'n' refuses it"

# what the model says streams to the terminal escaped
start_fake escapes
tty "hq-agent -m fake-model --base-url $(base_url openai) 'steps?'" ""
ok "$(printf '%s' "$out" | grep -q "$(printf '\033')"; [ $? = 1 ]; echo $?)" "escapes: no ESC byte in the streamed text"
like "$out" 'Looking\\x1b\[2J\\x1b\]0;owned\\x07\.' "escapes: the streamed text shows its escapes"
like "$out" 'You walked\\r\\x1b\[2K 8123 steps\\u2028\\u202e\.' "escapes: and the answer its CR, separator and override"
start_fake escapes
tty "hq-agent --no-stream -m fake-model --base-url $(base_url openai) 'steps?'" ""
like "$out" 'You walked\\r\\x1b\[2K 8123 steps\\u2028\\u202e\.' "escapes: an answer not streamed too"
ok "$(printf '%s' "$out" | grep -q "$(printf '\033')"; [ $? = 1 ]; echo $?)" "escapes: no ESC byte then either"

done_testing
