#!/usr/bin/env bash
# Generated FIT rides (scripts/gen-fit.c, the bench's generator): a file
# of 300 chained rides is 300 workouts, each with its own sport and
# sub-sport (the sessions' strings outlived the growing array of sessions:
# past 8 they pointed into freed memory and the 200th was "not UTF-8").
# A ride of 300,000 seconds imports in bounded memory: its points wait for
# the sessions in a temporary table on disk, not in memory, and the merge
# of its distance (a cumulative metric) takes 200,000 samples at a time,
# not four weeks of them (73 MB before, 46 MB after; make bench's
# bench/fit.sh holds a 100 MB ride under 64 MB).
. "$(dirname "$0")/lib.sh"
command -v gen-fit >/dev/null || skip_all "gen-fit not built"

run gen-fit -n 300 -c -r 20 -d 3600 -o "$T/chain.fit"
is "$rc" 0 "300 chained rides generated"
run hq-ingest -q "$T/chain.fit"
is "$rc" 0 "and imported"
like "$out" '"workouts":300,"workouts_inserted":300,' "300 workouts"
like "$out" '"records":29700,' \
    "99 samples a ride: 20 of heart rate, power, cadence, speed, 19 distances"
run hq-query workouts --limit 1000
is "$(printf '%s\n' "$out" | grep -c '"type":"cycling"')" 300 \
    "every one a ride"
is "$(printf '%s\n' "$out" | grep -c '"date":"2024-01-13"')" 12 \
    "an hour apart from 2024-01-01 00:00 in Los Angeles: 12 on the 13th"
run hq-query workout 300
like "$out" 'road' "the 300th's sub-sport, road"

if nm "$HQ_BUILD/bin/hq-ingest" 2>/dev/null | grep -q __asan_init; then
	ok 0 "peak RSS # SKIP not measured under AddressSanitizer"
else
	run gen-fit -r 300000 -o "$T/long.fit"
	rm -f "$HQ_DB"*
	/usr/bin/time -f %M -o "$T/rss" hq-ingest -q "$T/long.fit" >"$T/out" 2>"$T/err"
	is "$?" 0 "a ride of 300,000 seconds imports"
	rss=$(tail -n 1 "$T/rss")
	ok "$([ "$rss" -lt 57344 ]; echo $?)" "in bounded memory (peak ${rss} KB < 56 MB)"
fi
done_testing
