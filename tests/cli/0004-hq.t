#!/usr/bin/env bash
# hq, the umbrella: it runs hq-COMMAND in its own place (arguments, stdin,
# stdout, exit status all the command's), finds commands beside itself and
# on PATH, lists them with their summaries, opens their manuals, and is not
# itself a tool for hq-agent.
. "$(dirname "$0")/lib.sh"
command -v hq >/dev/null || skip_all "hq not built"

# a command of our own on PATH: echoes its argv and stdin, exits 3
mkdir -p "$T/bin"
cat >"$T/bin/hq-echo" <<'SH'
#!/bin/sh
if [ "$1" = --summary ]; then echo "Echo the arguments (a test command)."; exit 0; fi
printf '%s|' "$0" "$@"; echo
cat
exit 3
SH
printf '#!/bin/sh\nexit 0\n' >"$T/bin/hq-mute"
printf '#!/bin/sh\necho shadowed\n' >"$T/bin/hq-query"
printf 'not a program\n' >"$T/bin/hq-notexec"
chmod +x "$T/bin/hq-echo" "$T/bin/hq-mute" "$T/bin/hq-query"
export PATH="$PATH:$T/bin"

run hq echo a 'b c' --by week <<<"from stdin"
is "$rc" 3 "hq COMMAND: the command's exit status"
is "$out" "$T/bin/hq-echo|a|b c|--by|week|
from stdin" "hq COMMAND: its arguments as given (options too), stdin and stdout"

printf '{"metric":"weight","start":"2024-12-03T07:00:00Z","value":80}\n' >"$T/w.jsonl"
run hq ingest -q "$T/w.jsonl"
is "$rc" 0 "hq ingest imports"
is "$(hq query weight --format jsonl | head -c 19)" "$(hq-query weight --format jsonl | head -c 19)" \
	"hq query is hq-query (beside hq, before the PATH's hq-query)"
run hq query --bogus
is "$rc:$(printf '%s\n' "$err" | head -1)" "2:hq-query: unknown option '--bogus'" \
	"the command's own usage errors, in its name"

run hq qurey steps
is "$rc" 2 "unknown command: exit 2"
is "$(printf '%s\n' "$err" | head -1)" "hq: 'qurey' is not an hq command (did you mean query?)" \
	"unknown command: the closest one"
is "$out" "" "unknown command: nothing on stdout"
run hq notexec
like "$rc:$err" "^2:hq: 'notexec' is not an hq command" "a file that is not executable is no command"
run hq ../bin/hq-echo
like "$rc:$err" "^2:hq: '../bin/hq-echo' is not an hq command" "a path is not a command name"
run hq $'\e[2Jx'
like "$err" "'\\?\\[2Jx' is not" "control characters in the name are not echoed"

run hq
is "$rc" 1 "hq alone: exit 1"
like "$out" "^usage: hq COMMAND" "hq alone: the usage"
like "$out" "
  agent +Answer a question" "hq alone: each command with its summary"
like "$out" "
  echo +Echo the arguments \\(a test command\\)\\." "hq alone: commands on PATH too"
like "$out" "
  mute +
" "hq alone: a command with no summary is listed"
listed=$(printf '%s\n' "$out" | sed -n '/^commands/,/^$/p')
unlike "$listed" "^  (notexec|hq) " "hq alone: not files that are not programs, nor itself"
long() { while IFS= read -r l; do [ ${#l} -le "$1" ] || echo "$l"; done; }
is "$(printf '%s\n' "$out" | long 80)" "" "hq alone fits 80 columns"
run hq --help
is "$rc" 0 "hq --help: exit 0"
like "$out" "
  query +Time series" "hq --help lists the commands"
run hq help
is "$rc" 0 "hq help: exit 0"
like "$out" "
  ingest +Import" "hq help lists the commands"
run script -qec "stty cols 60; hq" /dev/null
is "$(printf '%s\n' "$out" | tr -d '\r' | sed -n '/^commands/,/^$/p' | long 60)" "" \
	"on a 60-column terminal the list of commands fits"

# hq help COMMAND: man hq-COMMAND, through man on PATH
mkdir -p "$T/man"
cat >"$T/man/man" <<SH
#!/bin/sh
if [ "\$1" = -w ]; then [ "\$3" = hq-query ] || [ "\$3" = hq ] && echo /x/\$3.\$2 && exit 0; exit 16; fi
echo "man \$*" >"$T/man.log"
SH
chmod +x "$T/man/man"
PATH="$T/man:$PATH" run hq help query
is "$rc:$(cat "$T/man.log" 2>/dev/null)" "0:man 1 hq-query" "hq help query opens hq-query(1)"
rm -f "$T/man.log"
PATH="$T/man:$PATH" run hq help hq
is "$(cat "$T/man.log" 2>/dev/null)" "man 1 hq" "hq help hq opens hq(1)"
for w in config hq.7; do
	rm -f "$T/man.log"
	PATH="$T/man:$PATH" run hq help $w
	is "$rc:$(cat "$T/man.log" 2>/dev/null)" "0:man 7 hq" "hq help $w opens hq(7), the overview with the configuration"
done
rm -f "$T/man.log"
PATH="$T/man:$PATH" run hq help echo
is "$rc" 3 "no manual page: the command's --help runs (its exit status)"
like "$err" "no manual page for hq-echo is installed; here is its --help" "no manual page: said"
like "$out" "hq-echo\\|--help\\|" "no manual page: the command's --help"
ok "$([ ! -e "$T/man.log" ]; echo $?)" "no manual page: man is not opened"
# not installed (man -w finds no hq-correlate): the page in the checkout
# hq was built in, so that 'hq help' works before 'make install'
rm -f "$T/man.log"
PATH="$T/man:$PATH" run hq help correlate
page=$(sed -n 's/^man -l //p' "$T/man.log" 2>/dev/null)
is "$rc:$(sed 's/ .*//' "$T/man.log" 2>/dev/null)" "0:man" "not installed: man opens the checkout's page"
like "$page" "/man/hq-correlate\\.1$" "not installed: man -l the checkout's man/hq-correlate.1 ($page)"
ok "$(cmp -s "$page" "$HQ_ROOT/man/hq-correlate.1"; echo $?)" "not installed: the very page of this checkout"
if command -v man >/dev/null && [ -d "$HQ_ROOT/man" ]; then
	MANPATH=/nonexistent MANPAGER=cat MANWIDTH=80 run hq help correlate
	like "$out" "hq-correlate - " "not installed, with the real man: the page is shown"
fi
rm -f "$T/man.log"
run hq help nosuch
is "$rc:$(printf '%s\n' "$err" | head -1)" "2:hq: 'nosuch' is not an hq command ('hq' lists them)" \
	"hq help of no command"
run hq help a b
is "$rc" 2 "hq help takes one command"

# the real man pages, as make install puts them
if command -v man >/dev/null; then
	mkdir -p "$T/share/man/man1" "$T/share/man/man7"
	cp "$HQ_ROOT"/man/*.1 "$T/share/man/man1/"
	cp "$HQ_ROOT"/man/*.7 "$T/share/man/man7/"
	like "$(MANPATH="$T/share/man" MANPAGER=cat MANWIDTH=80 man hq 2>/dev/null | head -5)" \
		"hq - run an hq command" "man hq is hq(1)"
	like "$(MANPATH="$T/share/man" MANPAGER=cat MANWIDTH=80 man 7 hq 2>/dev/null | head -5)" \
		"hq - ask questions of your own health data" "man 7 hq is the overview"
fi

# options end at the command: everything after it is the command's
run hq echo --help
is "$rc:$(printf '%s' "$out" | head -1)" "3:$T/bin/hq-echo|--help|" "hq COMMAND --help is the command's"
run hq --version
like "$rc:$out" "^0:hq [0-9]" "hq --version"

# hq-agent runs hq-* as tools, never hq
ok "$(ls "$HQ_BUILD/bin" | grep -qx hq; echo $?)" "(hq is built beside the commands)"
. "$HQ_ROOT/tests/fake/lib.sh"
start_fake answer
HQ_AGENT_TOOL_PATH= run hq-agent -v -m fake-model --base-url "$(base_url openai)" "hi" </dev/null
like "$err" "tools: hq_agent hq_echo|tools: .*hq_ingest hq_query" "hq-agent: tools found"
unlike "$err" "tools:.* hq( |$|;)|no schema from:.* hq( |$)" "hq-agent: hq is not one of them"
done_testing
