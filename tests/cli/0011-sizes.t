#!/usr/bin/env bash
# The size check (scripts/sizes.pl, run by make layers and make check): the
# tree passes, and a copy of it fails, naming the file, once a file of lib/
# or cmd/ is over 1,000 lines or a function over 100, and when a file it
# lists as generated or pending is not what the list says (HACKING.md,
# Sizes).
. "$(dirname "$0")/lib.sh"
S=$HQ_ROOT/scripts/sizes.pl

run perl "$S" "$HQ_ROOT"
is "$rc" 0 "the tree: no file or function over its limit"
like "$out" "sizes: [0-9]+ files of lib/ and cmd/: none over 1000 lines, no function over 100" \
	"the tree: says so"

# A copy of lib/ and cmd/ (sources only: the check reads no build).
fresh() {
	rm -rf "$T/t" && mkdir -p "$T/t/scripts" &&
	cp -R "$HQ_ROOT/lib" "$HQ_ROOT/cmd" "$T/t/" &&
	cp "$S" "$T/t/scripts/"
}
check() { run perl "$T/t/scripts/sizes.pl" "$T/t"; }
# lines N: N lines of a comment, as a C file's text.
lines() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print "/* " i " */" }'; }
# fn NAME N: a function of N lines, its name's line to its brace.
fn() {
	printf 'static int\n%s(void)\n{\n' "$1"
	lines $(($2 - 3))
	printf '}\n'
}

fresh
lines 1000 >"$T/t/lib/base/long.c"
fn just_100 100 >>"$T/t/cmd/hq.c"
check
is "$rc" 0 "a file of 1,000 lines and a function of 100: allowed"

fresh
lines 1001 >"$T/t/lib/base/long.c"
check
is "$rc" 1 "a file of 1,001 lines: fails"
like "$err" "sizes: lib/base/long.c: 1001 lines, over 1000" "and names it"

fresh
fn too_long 101 >>"$T/t/lib/store/plan.c"
check
is "$rc" 1 "a function of 101 lines: fails"
like "$err" "sizes: lib/store/plan.c:[0-9]+: too_long\(\) is 101 lines, over 100" \
	"and names it, with its line"

fresh
lines 2000 >>"$T/t/lib/format/fit_profile.c"
check
is "$rc" 0 "a generated file named in the script: not measured"

fresh
rm "$T/t/lib/format/fit_profile.c"
check
is "$rc" 1 "a generated file named but gone: fails"
like "$err" "lib/format/fit_profile.c is in %generated but not in the tree" "and says so"

# A pending entry that is no longer over: the script's own list is edited
# in the copy (one entry of a file that is short).
fresh
sed -i 's|^\(my %pending = map { $_ => 1 } qw(\)$|\1\n\tlib/store/plan.c|' \
	"$T/t/scripts/sizes.pl"
check
is "$rc" 1 "a pending file no longer over: fails"
like "$err" "lib/store/plan.c is no longer over its limit \(or gone\): remove it from %pending" \
	"and says to remove it"

done_testing
