#!/usr/bin/env bash
# The repository carries what its tests read: every file under
# tests/fixtures is named in tests/fixtures/README.md (where its origin and
# licence are), every file named there exists, each licence file named in
# the README is there, and nothing the tests, CI, benchmarks or scripts run
# reads fixtures from outside the repository.
. "$(dirname "$0")/lib.sh"
FX=$HQ_ROOT/tests/fixtures
R=$FX/README.md
need_fixtures README.md

# every file under tests/fixtures, named in its README
files=$(cd "$FX" && find . -type f ! -path ./README.md | sed 's|^\./||' | sort)
ok "$([ -n "$files" ]; echo $?)" "tests/fixtures holds files"
unnamed=""
for f in $files; do
	grep -Fq -- "\`$f\`" "$R" || unnamed="$unnamed $f"
done
is "$unnamed" "" "every file under tests/fixtures is named in its README"

# every path named in the README's tables (first column), there
missing=$(grep '^| `' "$R" | cut -d'|' -f2 | grep -o '`[^`]*`' | tr -d '`' |
	while read -r f; do [ -f "$FX/$f" ] || printf ' %s' "$f"; done)
is "$missing" "" "every file the README names is in tests/fixtures"

# each licence file the README names, there (licence column)
missing=$(grep '^| `' "$R" | cut -d'|' -f4 | grep -o '`[^`]*`' | tr -d '`' |
	while read -r f; do [ -f "$FX/$f" ] || printf ' %s' "$f"; done)
is "$missing" "" "every licence file the README names is there"
like "$(grep '^| `' "$R" | cut -d'|' -f4 | grep -vc '`')" '^0$' \
	"every row names the licence text beside its files"

# the default fixture location is the repository's own
is "$(env -u HQ_FIXTURES bash -c '. "$1"; echo "$HQ_FIXTURES"' \
	"$HQ_ROOT/tests/cli/x.t" "$HQ_ROOT/tests/cli/lib.sh")" "$FX" \
	"lib.sh: HQ_FIXTURES defaults to tests/fixtures"
outside=$(cd "$HQ_ROOT" && grep -rln 'shared/fixtures' \
	tests/unit tests/cli tests/fake tests/data tests/fuzz .ci bench scripts \
	Makefile 2>/dev/null | grep -v '^tests/cli/0007-fixtures\.t$' | tr '\n' ' ')
is "$outside" "" "no test, CI step, benchmark or script reads ../shared/fixtures"

done_testing
