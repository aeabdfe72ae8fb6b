#!/usr/bin/env bash
# The same activity costs what the import touched (issue 29, item 1;
# lib/store/same.c). tests/cli/data/mksame.py overlap 2000: 2,000 sessions
# that all overlap each other in one FIT file (30 KB), and 2,000 workouts
# of 2,000 sources that all overlap in one Apple Health XML. Before, the
# FIT took 22.6 s and 251 MB, and every later import (one JSON line) into
# that store 22.6 s and 251 MB again: the whole table was matched anew.
# Now: under 5 s and 100 MB for the file, under 2 s for the line (measured
# 0.14 s, 8 MB; 0.15 s). By the rule: one file's sessions (one import, one
# source) are never the same activity, so all 2,000 are listed; of the
# 2,000 sources, equal in coverage (none), the longest is counted and the
# rest yield to it; one heart rate of source S7 inside its workout makes
# S7 the one counted (1 second covered), and every other yields to it.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
[ -x /usr/bin/time ] || skip_all "no /usr/bin/time"
python3 "$HQ_ROOT/tests/cli/data/mksame.py" "$T" overlap 2000
export HQ_TZ=UTC
q() { sqlite3 "$HQ_DB" "$1"; }
asan=0
ldd "$(command -v hq-ingest)" 2>/dev/null | grep -q libasan && asan=1
# timed FILE MAX_S NAME: imports FILE, then checks its seconds and peak RSS
timed() {
	local t0 t1 rss
	t0=$(date +%s.%N)
	/usr/bin/time -f %M -o "$T/rss" hq-ingest -q "$1" >/dev/null 2>"$T/err"
	is "$?" 0 "$3: imports"
	t1=$(date +%s.%N)
	rss=$(tail -n 1 "$T/rss")
	if [ "$asan" = 1 ]; then
		ok 0 "# skip time and peak RSS (ASan build)"
	else
		ok "$(python3 -c "import sys; sys.exit(0 if $t1 - $t0 < $2 else 1)"; echo $?)" \
		    "$3: in under $2 s"
		ok "$([ "$rss" -lt 102400 ]; echo $?)" "$3: peak RSS ${rss} KB < 100 MB"
	fi
}
printf '{"metric":"heart_rate","source":"%s","start":"2024-01-01T09:00:00Z","end":"2024-01-01T09:00:00Z","value":120,"unit":"count/min"}\n' \
    x >"$T/x.jsonl"
sed 's/"x"/"S7"/' "$T/x.jsonl" >"$T/s7.jsonl"

timed "$T/one.fit" 5 "2,000 overlapping sessions of one FIT"
is "$(hq-query workouts --limit 5000 --format jsonl | wc -l | tr -d ' ')" 2000 \
    "all 2,000 listed: one file's sessions are never one activity"
timed "$T/x.jsonl" 2 "then one JSON line (a heart rate inside them all)"

rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
timed "$T/sources.xml" 5 "2,000 overlapping workouts of 2,000 sources"
is "$(hq-query workouts --format jsonl | python3 -c '
import json, sys; print([r["source"] for r in map(json.loads, sys.stdin)])')" \
    "['S1999']" "one listed: the longest"
timed "$T/s7.jsonl" 2 "then one heart rate of S7 inside its workout"
is "$(hq-query workouts --format jsonl | python3 -c '
import json, sys; print([r["source"] for r in map(json.loads, sys.stdin)])')" \
    "['S7']" "one listed: S7, the one that covers a second"
is "$(q 'SELECT count(DISTINCT same_as) || " " || count(*) FROM workout_same')" "1 1999" \
    "the 1,999 others yield to it"
done_testing
