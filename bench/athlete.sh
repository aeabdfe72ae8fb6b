#!/bin/sh
# Issue 21's engine (lib/analyze/load.c, bests.c) at scale, before the
# commands are wired: ten years of workouts (2,505, heart rate every 5 s,
# 1 s power on a ride in four, routes on the last five years' runs and
# rides; athlete-bench make). The daily load series (the store's defaults,
# then every workout's heart rate and power read and figured) against one
# plain SQL pass over the heart-rate samples, best of 3 each in one
# process: the issue's goal for hq-report load is <= 2x. The first run
# reads every workout's samples and keeps its figures (workout_figures,
# lib/analyze/athlete_cache.c); a second run reads the kept figures and no
# heart-rate or power sample. The third line computes the same from
# summaries held in memory (the floor: figures, days, recurrences).
# Then every route's bests and every
# ride's best powers, one workout at a time: goal < 64 MB peak RSS.
set -eu
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-athlete.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_TZ TZ

echo "building a store: ten years of workouts with heart rate..."
athlete-bench make "$DIR/hq.db" >/dev/null
set -- $(athlete-bench load "$DIR/hq.db")
awk -v h="$1" -v b="$2" -v c="$3" -v k="$4" 'BEGIN {
	printf "load series, 1st run  hq %7.4f s  SQL %7.4f s  ratio %5.2f (figures kept)\n",
	    h, b, h / b
	r = k / b
	printf "load series, 2nd run  hq %7.4f s  SQL %7.4f s  ratio %5.2f (goal <= 2: %s)\n",
	    k, b, r, (r <= 2) ? "met" : "MISSED"
	printf "  from summaries in memory %7.4f s (ratio %6.4f: figures, days, recurrences)\n",
	    c, c / b
}'
set -- $(athlete-bench bests "$DIR/hq.db")
awk -v s="$1" -v m="$2" -v n="$3" 'BEGIN {
	printf "bests, %d workouts     %7.4f s  peak RSS %5.1f MB (goal < 64: %s)\n",
	    n, s, m, (m < 64) ? "met" : "MISSED"
}'
# The command (issue 21): hq-report bests over the same five years of
# routes, one workout's route read at a time: its peak RSS, whatever the
# number of points (goal < 64 MB).
if command -v hq-report >/dev/null 2>&1 && [ -x /usr/bin/time ]; then
	pts=$(sqlite3 "$DIR/hq.db" "SELECT count(*) FROM route_point" 2>/dev/null || echo "?")
	s0=$(date +%s.%N)
	/usr/bin/time -f %M -o "$DIR/rss" hq-report bests --db "$DIR/hq.db" \
	    --format jsonl >"$DIR/bests.jsonl"
	s1=$(date +%s.%N)
	awk -v k="$(tail -1 "$DIR/rss")" -v p="$pts" -v a="$s0" -v b="$s1" \
	    -v n="$(wc -l <"$DIR/bests.jsonl")" 'BEGIN {
		m = k / 1024
		printf "hq-report bests        %7.3f s  peak RSS %5.1f MB over %s route points, %d rows (goal < 64: %s)\n",
		    b - a, m, p, n, (m < 64) ? "met" : "MISSED"
	}'
fi
