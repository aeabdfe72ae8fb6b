#!/usr/bin/env bash
# Every path of the tree (lib/, cmd/, include/, tests/, bench/, scripts/,
# man/, completions/) that HACKING.md, README.md and the layers' READMEs
# name exists: a file moved or renamed takes the documents with it (issue
# 30). A test may be named by its number (tests/cli/1016). A pattern
# (lib/LAYER/x.c, cmd/hq-x.c, tests/cli/NNNN-x.t) is no path, nor is a
# folder only a run makes (bench/tmp/, in .gitignore). Cheap: grep and
# test -e.
. "$(dirname "$0")/lib.sh"

cd "$HQ_ROOT" || exit 2

# missing DOC...: "DOC:PATH" for each path named that is not there; $n
# counts the paths checked.
n=0
tree='\b(lib|cmd|include|tests|bench|scripts|man|completions)/[A-Za-z0-9_./-]*'
missing() {
	local doc p
	for doc; do
		for p in $(grep -oE "$tree" "$doc" | sed -E 's/[.,:;]+$//' |
			sort -u); do
			case /$p/ in
			*/LAYER/* | */SUB/* | */.../* | */x.[ch]/* | */hq-x.c/* | \
			*/fuzz_x.c/* | */NNNN-x.t/* | */tmp/*) continue ;;
			esac
			n=$((n + 1))
			[ -e "$p" ] && continue
			case $p in
			tests/cli/[0-9][0-9][0-9][0-9])
				ls "$p"-*.t >/dev/null 2>&1 && continue ;;
			esac
			echo "$doc:$p"
		done
	done
}

out=$(missing HACKING.md README.md lib/*/README.md)
missing HACKING.md README.md lib/*/README.md >/dev/null
ok "$([ "$n" -gt 100 ]; echo $?)" "the documents name paths ($n seen)"
is "$out" "" "every path of the tree they name exists"

printf '%s\n' 'See lib/base/gone.c, `lib/render/`, tests/cli/0006,' \
	'tests/cli/0999, lib/LAYER/x.c and include/hq/gone.h.' >"$T/doc.md"
is "$(missing "$T/doc.md")" "$T/doc.md:include/hq/gone.h
$T/doc.md:lib/base/gone.c
$T/doc.md:tests/cli/0999" \
	"what is not there is named; a folder, a test by number, a pattern are not"

done_testing
