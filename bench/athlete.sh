#!/bin/sh
# Issue 21's engine (lib/analyze/athlete_load.c, athlete_bests.c) at scale: ten years of
# workouts (2,505, heart rate every 5 s, 1 s power on a ride in four,
# routes on the last five years' runs and rides; athlete-bench make). The
# issue's goal: hq-report load <= 2x one plain SQL pass over the heart-rate
# samples. hq-ingest keeps every new workout's figures once its imports
# have committed (workout_figures, lib/analyze/athlete_cache.c), so the
# first run after an import reads none of the samples: the same ten years
# (routes aside) written as an Apple Health export (athlete-bench export)
# and imported by hq-ingest, 3 times, each store as hq-ingest leaves it:
# the daily load series (the store's defaults, then every workout's
# figures) against the SQL pass (athlete-bench kept, median of 3 each),
# and the import's seconds beside the fill's own (athlete-bench keep: the
# kept rows deleted, then what hq-ingest does after its commit), medians
# of the 3 imports. Then, on the store with routes: the series with no
# figure kept (every workout's samples read: a store whose figures could
# not be kept), with them kept, and from summaries held in memory (the
# floor: figures, days, recurrences), best of 3 each in one process.
# Then every route's bests and every ride's best powers, one workout at a
# time: goal < 64 MB peak RSS.
set -eu
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-athlete.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_TZ TZ

med() { sort -g | sed -n 2p; }

echo "an export of ten years of workouts with heart rate, imported 3 times..."
athlete-bench export "$DIR/export.xml" >/dev/null
: >"$DIR/runs"
for i in 1 2 3; do
	rm -f "$DIR"/in.db*
	s0=$(date +%s.%N)
	hq-ingest -q --db "$DIR/in.db" "$DIR/export.xml" >/dev/null
	s1=$(date +%s.%N)
	set -- $(athlete-bench kept "$DIR/in.db")
	echo "$s0 $s1 $1 $2 $(athlete-bench keep "$DIR/in.db")" >>"$DIR/runs"
done
awk '{ print $2 - $1 }' "$DIR/runs" | med >"$DIR/imp"
awk '{ print $5 }' "$DIR/runs" | med >"$DIR/fill"
awk '{ print $3 }' "$DIR/runs" | med >"$DIR/h"
awk '{ print $4 }' "$DIR/runs" | med >"$DIR/b"
awk -v t="$(cat "$DIR/imp")" -v f="$(cat "$DIR/fill")" -v h="$(cat "$DIR/h")" \
    -v b="$(cat "$DIR/b")" 'BEGIN {
	r = h / b
	printf "load series, 1st run  hq %7.4f s  SQL %7.4f s  ratio %5.2f (goal <= 2: %s)\n",
	    h, b, r, (r <= 2) ? "met" : "MISSED"
	printf "hq-ingest, 10 years  %7.3f s, the figures kept in %6.3f s of it (+%.1f%%)\n",
	    t, f, 100 * f / (t - f)
}'

echo "building a store: ten years of workouts with heart rate and routes..."
athlete-bench make "$DIR/hq.db" >/dev/null
set -- $(athlete-bench load "$DIR/hq.db")
awk -v h="$1" -v b="$2" -v c="$3" -v k="$4" 'BEGIN {
	printf "load series, none kept hq %7.4f s  SQL %7.4f s  ratio %5.2f (every sample read, then kept)\n",
	    h, b, h / b
	r = k / b
	printf "load series, kept     hq %7.4f s  SQL %7.4f s  ratio %5.2f (goal <= 2: %s)\n",
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
