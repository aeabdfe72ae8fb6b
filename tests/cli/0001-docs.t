#!/usr/bin/env bash
# Every command's options agree across --help, the man page, the bash
# completion and --tool-schema; usage errors and --help behave the same
# way everywhere.
. "$(dirname "$0")/lib.sh"

cmds=$(cd "$HQ_BUILD/bin" 2>/dev/null && ls hq-* 2>/dev/null)
[ -n "$cmds" ] || skip_all "no commands built"

for c in $cmds; do
	run "$c" --help
	help=$out
	is "$rc" 0 "$c --help exits 0"
	like "$out" "^usage: $c " "$c --help starts with usage"
	is "$err" "" "$c --help writes nothing on stderr"

	run "$c" --no-such-option
	is "$rc" 2 "$c: unknown option exits 2"
	is "$(printf '%s\n' "$err" | head -1)" "$c: unknown option '--no-such-option'" \
	    "$c: unknown option: one line says so (the usage is --help's)"
	like "$err" "--help" "$c: unknown option points at --help"
	is "$out" "" "$c: nothing on stdout for a usage error"

	run "$c" --version
	is "$rc" 0 "$c --version exits 0"

	man="$HQ_ROOT/man/$c.1"
	ok "$([ -f "$man" ]; echo $?)" "$c has a man page"
	# the completion asks the command (--complete-args): what bash, zsh
	# and fish offer for "$c --" is what it prints
	like "$(bash -c '. "$1/completions/hq.bash"; complete -p "$2"' sh "$HQ_ROOT" "$c")" \
		"^complete -F _hq_complete $c\$" "$c completion is registered in bash"
	like "$(head -1 "$HQ_ROOT/completions/_hq")" "^#compdef hq -p hq-\*\$" "$c is completed by zsh's _hq"
	like "$(tail -1 "$HQ_BUILD/completions/fish/$c.fish" 2>/dev/null)" \
		"^complete -c $c -f -k -a '\(__hq_complete\)'\$" "$c has a fish completion"
	compl=$(bash -c '. "$1/completions/hq.bash"; COMP_WORDS=("$2" --); COMP_CWORD=1
		COMP_LINE="$2 --"; COMP_POINT=${#COMP_LINE}; _hq_complete; printf "%s\n" "${COMPREPLY[@]}"' \
		sh "$HQ_ROOT" "$c")

	helpopts=$(printf '%s\n' "$help" | grep -Eo -- '--[a-z][a-z0-9-]+' | sort -u)
	missing_man="" missing_compl=""
	for o in $helpopts; do
		esc=$(printf '%s' "$o" | sed 's/-/\\-/g')
		grep -Fq -- "$esc" "$man" 2>/dev/null || grep -Fq -- "$o" "$man" 2>/dev/null ||
			missing_man="$missing_man $o"
		printf '%s\n' "$compl" | grep -qx -- "$o" || missing_compl="$missing_compl $o"
	done
	is "$missing_man" "" "$c: every --help option is in $c.1"
	is "$missing_compl" "" "$c: every --help option is in the completion"

	run "$c" --tool-schema
	is "$rc" 0 "$c --tool-schema exits 0"
	props=$(printf '%s' "$out" | python3 -c '
import json, sys
t = json.load(sys.stdin)
assert t["name"] == sys.argv[1].replace("-", "_"), t["name"]
assert isinstance(t["description"], str) and len(t["description"]) > 20
p = t["parameters"]
assert p["type"] == "object"
pos = t.get("x-positional")
for k, v in p["properties"].items():
    assert v.get("description"), k
    if k != pos:
        print(k)
' "$c")
	is "$?" 0 "$c --tool-schema is a well-formed tool definition"
	missing_help=""
	for k in $props; do
		o="--$(printf '%s' "$k" | tr '_' '-')"
		printf '%s\n' "$helpopts" | grep -qx -- "$o" || missing_help="$missing_help $o"
	done
	is "$missing_help" "" "$c: every schema parameter is an option in --help"
done

# The options the commands share (opts.h: HQ_OPT_DB, HQ_OPT_TZ) read the
# same in every command that has them: --help, --complete-args'
# descriptions, --tool-schema, and how the man page's paragraph opens.
for o in db tz; do
	helps="" descrs="" schemas="" mans=""
	for c in $cmds; do
		run "$c" --help
		h=$(printf '%s\n' "$out" | awk -v o="^ +--$o " '
			$0 ~ o { p = 1; sub(/^ *--[a-z]+ [A-Z]+ */, ""); printf "%s", $0; next }
			p && /^  +[^ -]/ { sub(/^ +/, " "); printf "%s", $0; next } { p = 0 }')
		[ -n "$h" ] || continue
		helps="$helps$h
"
		run "$c" --complete-args --
		descrs="$descrs$(printf '%s\n' "$out" | grep -- "^--$o	")
"
		run "$c" --tool-schema
		schemas="$schemas$(printf '%s' "$out" | python3 -c '
import json, sys
p = json.load(sys.stdin)["parameters"]["properties"]
print(p[sys.argv[1]]["description"] if sys.argv[1] in p else "")' "$o" | grep .)
"
		pat='.BI \-\-'"$o"' "'
		mans="$mans$(grep -F -A2 -- "$pat" "$HQ_ROOT/man/$c.1" | sed -n 2,3p | tr '\n' ' ')
"
	done
	is "$(printf '%s' "$helps" | sort -u | grep -c .)" 1 "--$o: one wording in every --help"
	is "$(printf '%s' "$descrs" | sort -u | grep -c .)" 1 "--$o: one description in every completion"
	ok "$([ "$(printf '%s' "$schemas" | sort -u | grep -c .)" -le 1 ]; echo $?)" \
		"--$o: one description in every tool schema"
	is "$(printf '%s' "$mans" | sort -u | grep -c .)" 1 "--$o: one opening in every man page"
done
done_testing
