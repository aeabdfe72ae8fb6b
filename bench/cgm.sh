#!/bin/sh
# hq-report cgm speed. A year of 5-minute glucose readings (105,120) from
# one sensor; hq-report cgm's engine (the metrics, --agp, --by day) against
# the plain SQL a careful person writes over the raw samples (count, mean,
# SD and the in-range count), both in one process (cgm-bench compare),
# alternately, best of 5 each, measured in the same run: goal <= 1x. Then the hq-report command
# end to end (it adds starting a process and printing), and the same year
# delivered twice (the Dexcom app's copy in Apple Health), ranked from the
# rollups and read once through the double-source rule.
set -eu
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-cgm.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_TZ TZ

echo "building stores: a year of 5-minute readings, alone and twice..."
cgm-bench make "$DIR/one.db" >/dev/null
cgm-bench make "$DIR/two.db" copy >/dev/null

. bench/lib.sh

report() {   # NAME HQ BASELINE COMMAND
	awk -v n="$1" -v h="$2" -v b="$3" -v c="$4" 'BEGIN {
		r = h / b
		printf "%-24s hq %7.4f s  SQL %7.4f s  ratio %5.3f (goal <= 1: %s)  hq-report %7.4f s\n",
		    n, h, b, r, (r <= 1) ? "met" : "MISSED", c
	}'
}

# row NAME WHAT ARGS...: the engine against the SQL, and the command.
row() {
	name=$1 what=$2
	shift 2
	set -- $(cgm-bench compare "$HQ_DB" "$what") "$@"
	h=$1 b=$2
	shift 5
	report "$name" "$h" "$b" "$(best hq-report "$@")"
}

for db in one two; do
	export HQ_DB="$DIR/$db.db"
	[ "$db" = two ] && echo "the same readings from two sources (210,240 stored):"
	row "cgm, $db" metrics cgm
	row "cgm --agp, $db" agp cgm --agp
	row "cgm --by day, $db" day cgm --by day
done
