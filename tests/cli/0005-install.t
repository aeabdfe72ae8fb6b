#!/usr/bin/env bash
# make install puts the commands, hq, the man pages and the completion for
# bash, zsh and fish (one fish file per command) where each looks for them;
# make uninstall takes every one of them away again.
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null || skip_all "make is needed"

d="$T/root"
mk() { make -s -C "$HQ_ROOT" BUILD="$HQ_BUILD" DESTDIR="$d" PREFIX=/usr/local "$@" >"$T/make.out" 2>&1; }
mk install
is "$?" 0 "make install"
cmds=$(cd "$HQ_BUILD/bin" && ls)
missing=""
for c in $cmds; do
	for f in "bin/$c" "share/man/man1/$c.1" "share/fish/vendor_completions.d/$c.fish" \
	    "share/bash-completion/completions/$c"; do
		[ -e "$d/usr/local/$f" ] || missing="$missing $f"
	done
done
for f in share/man/man7/hq.7 share/zsh/site-functions/_hq; do
	[ -e "$d/usr/local/$f" ] || missing="$missing $f"
done
is "$missing" "" "every command, man page and completion file is installed"
ok "$([ -x "$d/usr/local/bin/hq" ] && [ -f "$d/usr/local/share/man/man1/hq.1" ]; echo $?)" "hq and hq(1)"
is "$(readlink "$d/usr/local/share/bash-completion/completions/hq-query")" "hq" \
	"bash: a link per command to the one file"
ok "$([ -f "$d/usr/local/share/bash-completion/completions/hq" ] &&
	[ ! -L "$d/usr/local/share/bash-completion/completions/hq" ]; echo $?)" "bash: the file itself is no link"
is "$(tail -1 "$d/usr/local/share/fish/vendor_completions.d/hq-query.fish")" \
	"complete -c hq-query -f -k -a '(__hq_complete)'" "fish: a file per command, for that command"
# the installed bash completion works from where it is
is "$(PATH="$d/usr/local/bin:$PATH" bash -c '. "$1"; COMP_WORDS=(hq query --by w); COMP_CWORD=3
	COMP_LINE="hq query --by w"; COMP_POINT=${#COMP_LINE}; _hq_complete; echo "${COMPREPLY[@]}"' \
	sh "$d/usr/local/share/bash-completion/completions/hq")" "week" "the installed completion answers"
mk uninstall
is "$?" 0 "make uninstall"
is "$(find "$d" -type f -o -type l | sed "s|^$d/||")" "" "make uninstall leaves no file behind"
done_testing
