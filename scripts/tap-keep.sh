#!/usr/bin/env bash
# scripts/tap-keep.sh DIR TEST: run one test as prove runs it (a *.t file
# through perl, which follows its #! line; a unit test's binary as it is),
# its TAP passed on to prove and kept in DIR, with its exit status, for
# scripts/tap-failures.sh. `make check` runs every test through it
# (prove --exec), so that a failure's reason is in its summary.
dir=$1 t=$2
mkdir -p "$dir"
log=$dir/$(printf '%s' "$t" | tr '/' '_')
rm -f "$log.tap" "$log.rc"
case $t in
*.t) perl "$t" | tee "$log.tap" ;;
*) "$t" | tee "$log.tap" ;;
esac
rc=${PIPESTATUS[0]}
printf '%s %s\n' "$rc" "$t" >"$log.rc"
exit "$rc"
