#!/bin/sh
# Device workout files (issue 22), as ratios measured in one run:
#   - FIT decoding (lib/format/fit.c through scripts/fit-probe.c, no
#     writer) of a chained file of 1 Hz rides (HQ_BENCH_FIT_SIZE, default
#     100M): MB/s (goal >= 50 on one core) and records/s, beside `cat` of
#     the same file;
#   - a year of 1 Hz rides (400 FIT files of 3750 records: 1.5 M records,
#     7.5 M samples and 1.5 M route points) imported by hq-ingest into an
#     empty store, against sqlite3 inserting the same rows into a store of
#     the same schema and settings (INSERT ... SELECT from the imported
#     store, one transaction: SQLite alone, no parsing; goal < 2x,
#     issue 22), HQ_BENCH_FIT_RUNS times (default 3): the medians, and
#     PASS or MISS for the goal;
#   - peak RSS importing one ride of HQ_BENCH_FIT_SIZE and a zip of the
#     year (goal < 64 MB each).
# Files come from scripts/gen-fit.c, cached in bench/tmp/ keyed by its source.
set -eu
cd "$(dirname "$0")/.."
: "${HQ_BUILD:=$(pwd)/build}"
PATH="$HQ_BUILD/bin:$HQ_BUILD/tools:$PATH"
export PATH
TMP=bench/tmp
TIME=/usr/bin/time
SIZE=${HQ_BENCH_FIT_SIZE:-100M}
for tool in gen-fit fit-probe hq-ingest sqlite3 bsdtar; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench/fit: $tool not found — run 'make deps all'" >&2; exit 2; }
done
[ -x "$TIME" ] || { echo "bench/fit: $TIME not found — install the 'time' package (make deps)" >&2; exit 2; }
bytes=$(awk -v s="$SIZE" 'BEGIN { m = 1; u = substr(s, length(s));
	if (u == "K") m = 1e3; else if (u == "M") m = 1e6; else if (u == "G") m = 1e9;
	if (m > 1) s = substr(s, 1, length(s) - 1); printf "%.0f\n", s * m }')
rides=$((bytes / 93960 + 1))     # a 3750-record ride is 93,960 bytes
records=$((bytes / 25 + 1))      # a record is 25 bytes
key=$(cksum <scripts/gen-fit.c | cut -d' ' -f1)
mkdir -p "$TMP"
d="$TMP/fit-$key"
if [ ! -d "$d" ]; then
	rm -rf "$TMP"/fit-*
	mkdir -p "$d.part"
	gen-fit -n "$rides" -c -o "$d.part/chain.fit"
	gen-fit -r "$records" -o "$d.part/long.fit"
	gen-fit -n 400 -o "$d.part/year"
	bsdtar -a -cf "$d.part/year.zip" -C "$d.part/year" .
	mv "$d.part" "$d"
fi

# timed OUT CMD...: "wall_s maxrss_kb" of CMD into OUT.
timed() {
	o=$1
	shift
	"$TIME" -f '%e %M' -o "$o" "$@" >"$o.stdout" 2>"$o.stderr" || {
		echo "bench/fit: failed: $*" >&2
		cat "$o.stderr" >&2
		return 1
	}
}
rmdb() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }

# (a) decoding
timed "$TMP/r" cat "$d/chain.fit"
t_cat=$(cut -d' ' -f1 "$TMP/r")
timed "$TMP/r" fit-probe "$d/chain.fit"
t_dec=$(cut -d' ' -f1 "$TMP/r")
recs=$(sed 's/.*records=\([0-9]*\).*/\1/' "$TMP/r.stdout")
fsize=$(wc -c <"$d/chain.fit")
echo "   \$ fit-probe $d/chain.fit ($fsize bytes): ${t_dec} s; $(cat "$TMP/r.stdout")"

# (b) a year, and SQLite alone inserting what it wrote: HQ_BENCH_FIT_RUNS
# pairs (default 3), each import followed by its copy, so that a pair
# shares the machine's load; the medians are reported, and the ratio's
# median is of the pairs' ratios.
runs=${HQ_BENCH_FIT_RUNS:-3}
db="$TMP/fit.db"
base="$TMP/fit-base.db"
: >"$TMP/fit-runs"
rss_year=0
for run in $(seq "$runs"); do
	rmdb "$db"
	timed "$TMP/r" sh -c 'hq-ingest -q --db "$1" "$2"/*.fit' sh "$db" "$d/year"
	t_year=$(cut -d' ' -f1 "$TMP/r")
	r=$(cut -d' ' -f2 "$TMP/r")
	[ "$r" -gt "$rss_year" ] && rss_year=$r
	rows=$(sqlite3 "$db" "SELECT (SELECT count(*) FROM sample) || ' samples, ' ||
		(SELECT count(*) FROM route_point) || ' route points, ' ||
		(SELECT count(*) FROM workout) || ' workouts'")
	echo "   \$ hq-ingest -q --db NEW $d/year/*.fit: ${t_year} s; $rows"
	rmdb "$base"
	sqlite3 "$db" .schema | grep -v '^CREATE TABLE sqlite_' | sqlite3 "$base"
	{
		echo "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
		echo "PRAGMA cache_size = -16384; ATTACH '$db' AS o; BEGIN;"
		# WHERE 1: row by row (no transfer of whole pages), as an import must
		sqlite3 "$db" "SELECT name FROM sqlite_master WHERE type = 'table'
			AND name NOT LIKE 'sqlite_%'" | while read -r t; do
			echo "INSERT INTO main.\"$t\" SELECT * FROM o.\"$t\" WHERE 1;"
		done
		echo "COMMIT;"
	} >"$TMP/fit-copy.sql"
	timed "$TMP/r" sqlite3 "$base" ".read $TMP/fit-copy.sql"
	t_sql=$(cut -d' ' -f1 "$TMP/r")
	echo "   \$ sqlite3 NEW '.read $TMP/fit-copy.sql' (the same rows): ${t_sql} s"
	echo "$t_year $t_sql" >>"$TMP/fit-runs"
	rmdb "$db"
	rmdb "$base"
done
# median COLUMN: the median of the runs' column (1 hq-ingest, 2 sqlite3,
# 3 their ratio).
median() {
	awk -v c="$1" '{ v = c == 3 ? $1 / ($2 > 0 ? $2 : 0.01) : $c; print v }' \
	    "$TMP/fit-runs" | sort -g | awk '{ v[NR] = $1 } END {
		printf "%.3f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
t_year=$(median 1)
t_sql=$(median 2)
ratio=$(median 3)
ratios=$(awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 / ($2 > 0 ? $2 : 0.01) }' "$TMP/fit-runs")

# (c) memory
timed "$TMP/r" hq-ingest -q --db "$db" "$d/long.fit"
t_long=$(cut -d' ' -f1 "$TMP/r")
rss_long=$(cut -d' ' -f2 "$TMP/r")
echo "   \$ hq-ingest -q --db NEW $d/long.fit ($(wc -c <"$d/long.fit") bytes): ${t_long} s"
rmdb "$db"
timed "$TMP/r" hq-ingest -q --db "$db" "$d/year.zip"
t_zip=$(cut -d' ' -f1 "$TMP/r")
rss_zip=$(cut -d' ' -f2 "$TMP/r")
echo "   \$ hq-ingest -q --db NEW $d/year.zip ($(wc -c <"$d/year.zip") bytes): ${t_zip} s"
rmdb "$db"

awk -v cat="$t_cat" -v dec="$t_dec" -v recs="$recs" -v fsize="$fsize" \
    -v year="$t_year" -v sql="$t_sql" -v ry="$rss_year" -v rl="$rss_long" \
    -v rz="$rss_zip" -v zip="$t_zip" -v ratio="$ratio" -v runs="$runs" \
    -v ratios="$ratios" 'BEGIN {
	mark = "%-34s %12s   %-10s %s\n"
	printf mark, "figure", "measured", "goal", ""
	printf mark, "cat of the FIT (s)", sprintf("%.2f", cat), "(info)", ""
	mbs = fsize / 1e6 / (dec > 0 ? dec : 0.01)
	printf mark, "FIT decoding (MB/s)", sprintf("%.0f", mbs), ">= 50", (mbs >= 50 ? "PASS" : "MISS")
	printf mark, "FIT decoding (records/s)", sprintf("%.0f", recs / (dec > 0 ? dec : 0.01)), "(info)", ""
	printf mark, "sqlite3, the same rows (s)", sprintf("%.2f", sql), "baseline", "median of " runs
	printf mark, "hq-ingest, a year of rides (s)", sprintf("%.2f", year), "", "median of " runs
	printf mark, "hq-ingest / sqlite3", sprintf("%.2f", ratio), "< 2", (ratio < 2 ? "PASS" : "MISS")
	printf mark, "zip of the year / files", sprintf("%.2f", zip / (year > 0 ? year : 0.01)), "(info)", ""
	printf mark, "peak RSS, the year (MB)", sprintf("%.1f", ry / 1024), "< 64", (ry / 1024 < 64 ? "PASS" : "MISS")
	printf mark, "peak RSS, one long ride (MB)", sprintf("%.1f", rl / 1024), "< 64", (rl / 1024 < 64 ? "PASS" : "MISS")
	printf mark, "peak RSS, zip of the year (MB)", sprintf("%.1f", rz / 1024), "< 64", (rz / 1024 < 64 ? "PASS" : "MISS")
	printf "hq-ingest / sqlite3 in each run: %s (goal < 2: %s)\n", ratios,
	    (ratio < 2 ? "met" : "not met")
}'
