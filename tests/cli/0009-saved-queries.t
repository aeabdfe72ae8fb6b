#!/usr/bin/env bash
# hq run NAME: the config's [queries] split into words by hq(7)'s rule
# and run directly (no shell: the words arrive as written, $(...) and *
# quoted stay text), more arguments after them, the command's exit
# status; hq run alone lists them with their descriptions; TAB completes
# the names, then the query's command's own options; every bad line is
# an error naming FILE:LINE and nothing runs.
. "$(dirname "$0")/lib.sh"
command -v hq >/dev/null || skip_all "hq not built"

# a command of our own on PATH: its argv, one field a |, and exit 3
mkdir -p "$T/bin"
cat >"$T/bin/hq-echo" <<'SH'
#!/bin/sh
if [ "$1" = --summary ]; then echo "Echo the arguments (a test command)."; exit 0; fi
printf '%s|' "$@"; echo
[ -n "$HQ_ECHO_MARK" ] && : >"$HQ_ECHO_MARK"
exit 3
SH
chmod +x "$T/bin/hq-echo"
export PATH="$PATH:$T/bin" HQ_CONFIG="$T/hq.conf"

cat >"$HQ_CONFIG" <<'EOF'
[queries]
# words as a shell splits them
words = hq-echo a 'b c' "d \"e\" \\" f\ g '*' '$(id)' '' x';'y
# steps by week
# (two comment lines)
weekly = hq query steps --by week
# a comment the blank line below parts from the key: no description

plain = hq-echo plain
EOF

run hq run words more 'args here'
is "$rc" 3 "hq run: the command's exit status"
is "$out" "a|b c|d \"e\" \\|f g|*|\$(id)||x;y|more|args here|" \
	"the words as written (quotes, \\, an empty word; \$(...), * and ; quoted are text), then the arguments"
printf '{"metric":"steps","start":"2024-12-03T07:00:00Z","end":"2024-12-03T08:00:00Z","value":500}\n' >"$T/s.jsonl"
hq-ingest -q "$T/s.jsonl" >/dev/null
run hq run weekly --format csv
is "$rc" 0 "hq run weekly: hq query steps --by week"
like "$out" "^period,.*
2024-W49,.*500" "its rows, in the format added"

run hq run
is "$rc" 0 "hq run alone: exit 0"
is "$out" "words  words as a shell splits them
    hq-echo a 'b c' \"d \\\"e\\\" \\\\\" f\\ g '*' '\$(id)' '' x';'y
weekly  steps by week (two comment lines)
    hq query steps --by week
plain
    hq-echo plain" "lists each query, its comment and its line"

run hq run wekly
is "$rc" 2 "an unknown name: exit 2"
like "$err" "no saved query 'wekly' \(did you mean weekly\?\)" "with the nearest"
run env HQ_CONFIG="$T/none" hq run x
is "$rc" 2 "no [queries]: exit 2"
run env HQ_CONFIG=/dev/null hq run
is "$rc" 1 "hq run without queries: exit 1"
like "$err" "no saved queries: write them under \[queries\]" "and says where they go"

# TAB: the names with their descriptions, then the command's own.
comp() { hq --complete-args "$@" | sort | tr '\n' ' '; }
is "$(comp run '')" "plain	hq-echo plain weekly	steps by week (two comment lines) words	words as a shell splits them " \
	"hq run TAB: the names, with the comment (else the line)"
like "$(comp '')" "(^| )run	a saved query" "hq TAB offers run"
like "$(comp run weekly --a)" "--agg" "hq run weekly --a TAB: hq-query's options"
is "$(comp run weekly --by '')" "day hour month week year " "hq run weekly --by TAB: their values"

# Bad lines: FILE:LINE, exit 2, nothing run (the other queries neither).
export HQ_ECHO_MARK="$T/ran"
bad() {  # LINE WANT NAME
	printf '[queries]\nplain = hq-echo plain\n%s\n' "$1" >"$T/bad"
	rm -f "$T/ran"
	HQ_CONFIG="$T/bad" run hq run plain
	is "$rc" 2 "$3: exit 2"
	like "$err" "^hq: $T/bad:3: \\[queries\\]: $2.*\\(nothing was run\\)" "$3: FILE:LINE and why"
	ok "$([ ! -e "$T/ran" ]; echo $?)" "$3: nothing ran"
}
bad "x = rm -rf /tmp/x" "'rm' is not an hq command" "another program"
bad "x = /usr/bin/hq-query steps" "'/usr/bin/hq-query' is not an hq command" "a path"
bad "x = hq-query 'steps" "a ' is not closed" "a ' not closed"
bad "x = hq-query \"steps" "a \" is not closed" "a \" not closed"
bad "x = hq-query steps; rm x" "';' is a shell's character" ";"
bad "x = hq-query steps | wc" "'|' is a shell's character" "|"
bad "x = hq-query steps > out" "'>' is a shell's character" ">"
bad "x = hq-query \$(rm x)" "'\\\$\\(' is a shell's command substitution" "\$(...)"
bad "x = hq-query \`rm x\`" "'\`' is a shell's character" "backquotes"
bad "x = hq-query \"\$HOME\"" "'\\\$' inside \"...\": a shell would substitute it" "\$ in \"...\""
bad "x = hq-query steps \\" "a \\\\ ends the line" "a \\ at the end"
bad "x = hq run x" "'x' runs itself" "a query running itself"
bad "x = hq run plain" "a saved query runs an hq command, never hq run" "hq run inside a query"
bad "x = hq help query" "hq help is not a query" "hq help"
bad "hq_query = hq-query steps" "'hq_query' would clash with the built-in tools" "a built-in tool's name"
bad "my query = hq-query steps" "a saved query's name is 1 to 64 letters" "a name with a space"
bad "x =" "no command" "an empty line"
bad "x = hq-query steps #comment" "a word starts with '#'" "a # word"
printf '[queries]\nx = hq-nosuch steps\n' >"$T/bad"
HQ_CONFIG="$T/bad" run hq run x
is "$rc" 2 "a command that is not there: exit 2"
like "$err" "$T/bad:2: \\[queries\\]: x runs hq-nosuch, which is not beside hq nor on PATH" "said with FILE:LINE"

done_testing
