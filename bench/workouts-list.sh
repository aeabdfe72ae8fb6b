#!/bin/sh
# hq-query workouts --limit 20 with the athlete's figures (issue 21: each
# row's load, zones... and the settings' defaults from the store) on ten
# years of workouts (athlete-bench make: 2,503, heart rate every 5 s).
# Goal: not slower than 1.2x hq-query before them: with HQ_BENCH_BASE=DIR
# (an older build's bin/, e.g. main before issue 21) that build's
# hq-query on a copy of the store at schema version 8, in the same run.
# Always: workout-probe --limit 20 (lib/query/workout.c's list without
# the figures and without hq-query's setup), for scale.
# Each time is the best of 5 rounds of 20 runs in a row, the commands
# taking turns; the figures are kept from a first run (its time printed).
set -eu
. "$(dirname "$0")/lib.sh"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-wlist.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_TZ TZ

# twenty CMD...: twenty runs in a row, in seconds per run.
twenty() {
	s=$(date +%s.%N)
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		"$@" >/dev/null
	done
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { print (e - s) / 20 }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b < a) ? b : a }'; }

echo "building a store: ten years of workouts with heart rate..."
athlete-bench make "$DIR/hq.db" >/dev/null
if [ -n "${HQ_BENCH_BASE:-}" ]; then
	cp "$DIR/hq.db" "$DIR/base.db"
	sqlite3 "$DIR/base.db" "DROP TABLE workout_figures; PRAGMA user_version = 8"
fi
s=$(date +%s.%N)
hq-query --db "$DIR/hq.db" workouts --limit 20 --format jsonl >/dev/null
e=$(date +%s.%N)
first=$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')
# Rounds taking turns (the machine's load changes), best of 5 each.
hq=999 probe=999 base=999
for _ in 1 2 3 4 5; do
	hq=$(min "$hq" "$(twenty hq-query --db "$DIR/hq.db" workouts --limit 20 --format jsonl)")
	probe=$(min "$probe" "$(twenty workout-probe --db "$DIR/hq.db" --limit 20)")
	[ -z "${HQ_BENCH_BASE:-}" ] ||
		base=$(min "$base" "$(twenty "$HQ_BENCH_BASE/hq-query" --db "$DIR/base.db" workouts --limit 20 --format jsonl)")
done
awk -v h="$hq" -v p="$probe" -v f="$first" 'BEGIN {
	printf "workouts --limit 20   hq %7.4f s  list alone %7.4f s  ratio %5.2f\n",
	    h, p, h / p
	printf "  (the list alone skips the config, the zone and the settings'"'"' defaults;\n"
	printf "  the goal is against a build without the figures: HQ_BENCH_BASE)\n"
	printf "  the first run, keeping every workout'"'"'s figures: %.3f s\n", f
}'
if [ -n "${HQ_BENCH_BASE:-}" ]; then
	awk -v h="$hq" -v b="$base" 'BEGIN {
		r = h / b
		printf "  against %s: %7.4f s  ratio %5.2f (goal <= 1.2: %s)\n",
		    "HQ_BENCH_BASE", b, r, (r <= 1.2) ? "met" : "MISSED"
	}'
fi
