#!/usr/bin/env bash
# Every path under lib/ or cmd/ that HACKING.md, README.md and the layers'
# READMEs name exists: a file moved or renamed takes the documents with it
# (issue 30). A pattern (lib/LAYER/x.c, cmd/hq-x.c, lib/.../x.c) is no
# path. Cheap: grep and test -e.
. "$(dirname "$0")/lib.sh"

cd "$HQ_ROOT" || exit 2

# missing DOC...: "DOC:PATH" for each path named that is not there; $n
# counts the paths checked.
n=0
missing() {
	local doc p
	for doc; do
		for p in $(grep -oE '\b(lib|cmd)/[A-Za-z0-9_./-]*' "$doc" |
			sed -E 's/[.,:;]+$//' | sort -u); do
			case /$p/ in
			*/LAYER/* | */SUB/* | */.../* | */x.[ch]/* | */hq-x.c/*) continue ;;
			esac
			n=$((n + 1))
			[ -e "$p" ] || echo "$doc:$p"
		done
	done
}

out=$(missing HACKING.md README.md lib/*/README.md)
missing HACKING.md README.md lib/*/README.md >/dev/null
ok "$([ "$n" -gt 50 ]; echo $?)" "the documents name paths ($n seen)"
is "$out" "" "every lib/ and cmd/ path they name exists"

printf 'See lib/base/gone.c, `lib/render/` and lib/LAYER/x.c.\n' >"$T/doc.md"
is "$(missing "$T/doc.md")" "$T/doc.md:lib/base/gone.c" \
	"a path that is not there is named; a folder that is, and a pattern, are not"

done_testing
