#!/usr/bin/env bash
# scripts/tap-keep.sh DIR TEST: run one test as prove runs it (a *.t file
# through perl, which follows its #! line; a unit test's binary as it is),
# its TAP passed on to prove and kept in DIR, with its exit status, for
# scripts/tap-failures.sh. `make check` runs every test through it
# (prove --exec), so that a failure's reason is in its summary. Its
# wall and CPU seconds go to DIR/*.time for scripts/tap-slowest.sh.
dir=$1 t=$2
mkdir -p "$dir"
log=$dir/$(printf '%s' "$t" | tr '/' '_')
rm -f "$log.tap" "$log.rc" "$log.time"
start=$EPOCHREALTIME
case $t in
*.t) perl "$t" | tee "$log.tap" ;;
*) "$t" | tee "$log.tap" ;;
esac
rc=${PIPESTATUS[0]}
printf '%s %s\n' "$rc" "$t" >"$log.rc"
# the children's user and system time: times' second line, in this shell
times >"$log.times"
awk -v t="$t" -v s="$start" -v e="$EPOCHREALTIME" '
function sec(x,  m) { m = x; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", x); sub(/s$/, "", x); return m * 60 + x }
NR == 2 { printf "%.2f %.2f %s\n", sec($1) + sec($2), e - s, t }' "$log.times" >"$log.time"
rm -f "$log.times"
exit "$rc"
