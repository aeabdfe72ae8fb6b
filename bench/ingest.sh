#!/bin/sh
# Ingest speed and memory, as ratios measured in one run:
#   - hq-ingest of a large generated export.xml into an empty store, against
#     `xmllint --stream --noout` parsing the same file (goal: <= 1.5x);
#   - the same ingest on one thread (HQ_THREADS=0: parse and write in turn,
#     lib/format/elemq.c), to show what the second thread is worth;
#   - records per second;
#   - re-ingest of the same file into the now-full store (goal: <= 1x first);
#   - the same export as a zip (reported beside the XML);
#   - peak RSS at two sizes (goal: under 64 MB and within a few MB of each other).
# HQ_BENCH_SIZE (default 1G; K/M/G suffixes) sets the large size, the small
# one is a tenth of it; HQ_BENCH_RUNS (default 2) runs of each timing, best
# kept. Generated exports are cached in bench/tmp/, keyed by size, seed and
# the generator's source.
set -eu
cd "$(dirname "$0")/.."
: "${HQ_BUILD:=$(pwd)/build}"
PATH="$HQ_BUILD/bin:$HQ_BUILD/tools:$PATH"
export PATH
SIZE=${HQ_BENCH_SIZE:-1G}
SEED=${HQ_BENCH_SEED:-1}
RUNS=${HQ_BENCH_RUNS:-2}
TMP=bench/tmp
TIME=/usr/bin/time

bytes_of() {   # 100M -> 100000000
	awk -v s="$1" 'BEGIN { m = 1; u = substr(s, length(s));
		if (u == "K") m = 1e3; else if (u == "M") m = 1e6; else if (u == "G") m = 1e9;
		if (m > 1) s = substr(s, 1, length(s) - 1); printf "%.0f\n", s * m }'
}

for tool in gen-export xmllint; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench/ingest: $tool not found — run 'make deps all'" >&2; exit 2; }
done
[ -x "$TIME" ] || { echo "bench/ingest: $TIME not found — install the 'time' package (make deps)" >&2; exit 2; }

BIG=$(bytes_of "$SIZE")
SMALL=$((BIG / 10))
key=$(cksum <scripts/gen-export.c | cut -d' ' -f1)
mkdir -p "$TMP"

# export SIZE xml|zip: prints the cached file's path, generating it first.
export_file() {
	f="$TMP/export-$1-s$SEED-$key.$2"
	if [ ! -s "$f" ]; then
		rm -f "$TMP"/export-"$1"-s"$SEED"-*."$2"
		"$TIME" -f '%e' -o "$TMP/gen.time" gen-export "--$2" --size "$1" --seed "$SEED" \
			--truth "$f.truth" -o "$f.part" >&2
		mv "$f.part" "$f"
		echo "   generated $f ($(wc -c <"$f") bytes) in $(cat "$TMP/gen.time") s" >&2
	fi
	echo "$f"
}

# timed OUT CMD...: runs CMD under GNU time; OUT gets "wall_s maxrss_kb cpu_s".
timed() {
	o=$1
	shift
	"$TIME" -f '%e %M %U %S' -o "$o" "$@" >"$o.stdout" 2>"$o.stderr" || {
		echo "bench/ingest: failed: $*" >&2
		cat "$o.stderr" >&2
		return 1
	}
	awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$o" >"$o.n" && mv "$o.n" "$o"
}

best() { sort -n "$1" | head -1; }   # the fastest line of a file of timings

echo "   export sizes: $BIG and $SMALL bytes of XML, seed $SEED, best of $RUNS runs"
xml=$(export_file "$BIG" xml)
records=$(tail -1 "$xml.truth" | sed 's/.*"records":\([0-9]*\).*/\1/')
have_ingest=1
command -v hq-ingest >/dev/null 2>&1 || have_ingest=0
db="$TMP/bench.db"
rmdb() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }

# The baseline and the first ingests alternate, so that whatever else the
# machine is doing weighs on all alike.
: >"$TMP/xmllint.t"
: >"$TMP/first.t"
: >"$TMP/one.t"
i=0
while [ $i -lt "$RUNS" ]; do
	timed "$TMP/r" xmllint --stream --noout "$xml"
	cat "$TMP/r" >>"$TMP/xmllint.t"
	if [ $have_ingest = 1 ]; then
		rmdb "$db"
		timed "$TMP/r" hq-ingest -q --db "$db" "$xml"
		cat "$TMP/r" >>"$TMP/first.t"
		summary=$(tail -1 "$TMP/r.stdout")
		rmdb "$db"
		timed "$TMP/r" env HQ_THREADS=0 hq-ingest -q --db "$db" "$xml"
		cat "$TMP/r" >>"$TMP/one.t"
	fi
	i=$((i + 1))
done
t_lint=$(best "$TMP/xmllint.t" | cut -d' ' -f1)
c_lint=$(sort -n -k3 "$TMP/xmllint.t" | head -1 | cut -d' ' -f3)
echo "   \$ xmllint --stream --noout $xml: ${t_lint} s"
if [ $have_ingest = 0 ]; then
	echo "   hq-ingest is not built yet: only the baseline was measured"
	exit 0
fi

: >"$TMP/again.t"
i=0
while [ $i -lt "$RUNS" ]; do
	timed "$TMP/r" hq-ingest -q --db "$db" "$xml"
	cat "$TMP/r" >>"$TMP/again.t"
	i=$((i + 1))
done
again_summary=$(tail -1 "$TMP/r.stdout")
t_first=$(best "$TMP/first.t" | cut -d' ' -f1)
t_one=$(best "$TMP/one.t" | cut -d' ' -f1)
c_first=$(sort -n -k3 "$TMP/first.t" | head -1 | cut -d' ' -f3)
rss_big=$(sort -n -k2 "$TMP/first.t" | tail -1 | cut -d' ' -f2)
t_again=$(best "$TMP/again.t" | cut -d' ' -f1)
echo "   \$ hq-ingest -q --db NEW $xml: ${t_first} s; $summary"
echo "   \$ hq-ingest -q --db FULL $xml: ${t_again} s; $again_summary"
rmdb "$db"

zip=$(export_file "$BIG" zip)
timed "$TMP/r" hq-ingest -q --db "$db" "$zip"
t_zip=$(cut -d' ' -f1 "$TMP/r")
echo "   \$ hq-ingest -q --db NEW $zip: ${t_zip} s"
rmdb "$db"

small=$(export_file "$SMALL" xml)
timed "$TMP/r" hq-ingest -q --db "$db" "$small"
rss_small=$(cut -d' ' -f2 "$TMP/r")
rmdb "$db"

awk -v lint="$t_lint" -v first="$t_first" -v one="$t_one" -v clint="$c_lint" -v cfirst="$c_first" -v again="$t_again" -v zip="$t_zip" \
    -v recs="$records" -v rb="$rss_big" -v rs="$rss_small" -v big="$BIG" -v small="$SMALL" 'BEGIN {
	mark = "%-34s %12s   %-10s %s\n"
	printf mark, "figure", "measured", "goal", ""
	printf mark, "xmllint --stream --noout (s)", sprintf("%.2f", lint), "baseline", ""
	printf mark, "hq-ingest, empty store (s)", sprintf("%.2f", first), "", ""
	r = first / (lint > 0 ? lint : 0.01)
	printf mark, "hq-ingest / xmllint", sprintf("%.2f", r), "<= 1.5", r <= 1.5 ? "PASS" : "MISS"
	printf mark, "same, CPU time (user+sys)", sprintf("%.2f", cfirst / (clint > 0 ? clint : 0.01)), "(info)", ""
	printf mark, "one thread (HQ_THREADS=0)/xmllint", sprintf("%.2f", one / (lint > 0 ? lint : 0.01)), "(info)", ""
	printf mark, "records/s", sprintf("%.0f", recs / (first > 0 ? first : 0.01)), "", ""
	r = again / (first > 0 ? first : 0.01)
	printf mark, "re-ingest (all duplicates) / first", sprintf("%.2f", r), "<= 1", r <= 1 ? "PASS" : "MISS"
	printf mark, "zip / xml ingest", sprintf("%.2f", zip / (first > 0 ? first : 0.01)), "(info)", ""
	printf mark, sprintf("peak RSS, %.0f MB XML (MB)", small / 1e6), sprintf("%.1f", rs / 1024), "< 64", rs / 1024 < 64 ? "PASS" : "MISS"
	printf mark, sprintf("peak RSS, %.0f MB XML (MB)", big / 1e6), sprintf("%.1f", rb / 1024), "< 64", rb / 1024 < 64 ? "PASS" : "MISS"
	d = (rb - rs) / 1024
	printf mark, "RSS growth, 10x the data (MB)", sprintf("%.1f", d), "<= 8", d <= 8 ? "PASS" : "MISS"
}'
