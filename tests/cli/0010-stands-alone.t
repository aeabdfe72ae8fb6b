#!/usr/bin/env bash
# The repository stands alone: no comment, man page, document, test or
# script cites a file a clone does not hold (the product contract the
# project was started from, SPEC.md, or ../shared's references). A rule is
# cited where it lives here: a man page (hq-report(1), WORKOUTS...) or
# HACKING.md.
. "$(dirname "$0")/lib.sh"

cd "$HQ_ROOT" || exit 2
cites=$(grep -rnE 'SPEC\.md|\bSPEC'\''s|\(SPEC[:)]|\.\./shared/' \
	lib cmd include man tests scripts bench completions HACKING.md README.md \
	Makefile .ci 2>/dev/null |
	grep -vE '^tests/cli/(0007-fixtures|0010-stands-alone)\.t:')
is "$cites" "" "nothing cites SPEC.md or ../shared"

# the man pages it cites instead exist
for m in $(grep -rhoE '\bhq(-[a-z]+)?\([17]\)' lib include tests/unit | sort -u); do
	page=${m%(*}.${m#*(}
	page=${page%)}
	ok "$([ -f "man/$page" ]; echo $?)" "$m, cited in comments, is man/$page"
done

done_testing
