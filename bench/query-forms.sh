#!/bin/sh
# The forms of query that miss the averages' rollups (issue 13): speed as
# ratios against baselines measured in the same run, and peak RSS at two
# sizes of store (the same within a few MB, under 64 MB).
#   raw rows      hq-query heart_rate --format jsonl   against sqlite3 -json
#                 printing the same rows (fields, local times, source name)
#                 from the same store: goal <= 1
#   median by day query-bench hq hr-day-median (median and p90) against the
#                 plain GROUP BY by day: goal <= 0.25
#   fallbacks     a configured priority over overlapping sources (steps by
#                 week, merged from raw samples) and steps by day in a zone
#                 whose days start on the half hour (Asia/Kolkata), against
#                 the GROUP BY of the same: goal <= 0.5
# Times are wall seconds, medians of HQ_BENCH_RUNS (default 3) runs; peak
# RSS is the largest of them (GNU time). HQ_BENCH_FORMS_YEARS (default
# "1 5") are the sizes of store, in years of per-minute heart rate.
set -eu
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-forms.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_TZ TZ
YEARS=${HQ_BENCH_FORMS_YEARS:-1 5}
RUNS=${HQ_BENCH_RUNS:-3}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench/query-forms: $TIME not found (make deps)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "bench/query-forms: sqlite3 not found (make deps)" >&2; exit 2; }

# measure NAME CMD...: "median_wall_s max_rss_kb" of RUNS runs, output
# thrown away.
measure() {
	n=$1
	shift
	: >"$DIR/$n.t"
	i=0
	while [ $i -lt "$RUNS" ]; do
		"$TIME" -f '%e %M' -o "$DIR/r" "$@" >/dev/null 2>"$DIR/err" || {
			echo "bench/query-forms: failed: $*" >&2
			cat "$DIR/err" >&2
			return 1
		}
		cat "$DIR/r" >>"$DIR/$n.t"
		i=$((i + 1))
	done
	w=$(sort -n "$DIR/$n.t" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	m=$(sort -n -k2 "$DIR/$n.t" | tail -1 | cut -d' ' -f2)
	echo "$w $m"
}

# median of RUNS runs of query-bench (which itself keeps the best of 3).
qb() {
	: >"$DIR/qb.t"
	i=0
	while [ $i -lt "$RUNS" ]; do
		query-bench "$@" | cut -d' ' -f1 >>"$DIR/qb.t"
		i=$((i + 1))
	done
	sort -n "$DIR/qb.t" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

RAW_SQL="SELECT 'heart_rate' AS metric, date(s.start, 'unixepoch', 'localtime') AS period,
 strftime('%Y-%m-%dT%H:%M:%S', s.start, 'unixepoch', 'localtime') AS start,
 strftime('%Y-%m-%dT%H:%M:%S', s.end, 'unixepoch', 'localtime') AS end,
 s.value AS value, s.value AS avg, 1 AS n, 'count/min' AS unit, src.name AS source
 FROM sample s JOIN source src ON src.id = s.source_id
 WHERE s.metric_id = (SELECT id FROM metric WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')
 ORDER BY s.start"

printf '[query]\nsource_priority = iPhone, Watch\n' >"$DIR/config"

row() { printf '%-34s %10s %10s %8s  %s\n' "$@"; }

for y in $YEARS; do
	db="$DIR/y$y.db"
	echo "building a store of $y years..."
	query-bench make "$db" "$y" >/dev/null
	export HQ_DB="$db"
	echo "== $y years of per-minute heart rate ($(sqlite3 "$db" 'select count(*) from sample') samples)"
	row "form" "hq (s)" "base (s)" "ratio" "goal; hq-query peak RSS"
	set -- $(measure raw hq-query heart_rate --format jsonl)
	hw=$1 hm=$2
	set -- $(measure rawsql sqlite3 -json "$db" "$RAW_SQL")
	bw=$1
	r=$(awk -v a="$hw" -v b="$bw" 'BEGIN { printf "%.2f", a / b }')
	row "raw rows, jsonl" "$hw" "$bw" "$r" "<= 1: $(awk -v r="$r" 'BEGIN { print r <= 1 ? "met" : "MISSED" }'); $((hm / 1024)) MB"
	h=$(qb hq "$db" hr-day-median)
	b=$(qb baseline "$db" hr-day)
	set -- $(measure med hq-query heart_rate --by day --agg median,p90)
	r=$(awk -v a="$h" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
	row "median,p90 by day (in process)" "$h" "$b" "$r" "<= 0.25: $(awk -v r="$r" 'BEGIN { print r <= 0.25 ? "met" : "MISSED" }'); $(($2 / 1024)) MB, command $1 s"
	h=$(qb hq "$db" hr-median)
	set -- $(measure wmed hq-query heart_rate --agg median,p90)
	r=$(awk -v a="$h" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
	row "median,p90 whole range" "$h" "$b" "$r" "(info); $(($2 / 1024)) MB, command $1 s"
	h=$(qb hq "$db" steps-week-prio)
	b=$(qb baseline "$db" steps-week)
	set -- $(HQ_CONFIG="$DIR/config" measure prio hq-query steps --by week)
	r=$(awk -v a="$h" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
	row "steps by week, own priority" "$h" "$b" "$r" "<= 0.5: $(awk -v r="$r" 'BEGIN { print r <= 0.5 ? "met" : "MISSED" }'); $(($2 / 1024)) MB"
	h=$(HQ_TZ=Asia/Kolkata TZ=Asia/Kolkata qb hq "$db" steps-day)
	b=$(HQ_TZ=Asia/Kolkata TZ=Asia/Kolkata qb baseline "$db" steps-day)
	set -- $(HQ_TZ=Asia/Kolkata measure kol hq-query steps --by day)
	r=$(awk -v a="$h" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
	row "steps by day, Asia/Kolkata" "$h" "$b" "$r" "<= 0.5: $(awk -v r="$r" 'BEGIN { print r <= 0.5 ? "met" : "MISSED" }'); $(($2 / 1024)) MB"
	set -- $(measure avg hq-query heart_rate --by day)
	row "avg by day (rollups)" "$1" "-" "-" "$(($2 / 1024)) MB"
	set -- $(measure rawsteps hq-query steps --format jsonl)
	row "steps raw rows (merged)" "$1" "-" "-" "$(($2 / 1024)) MB"
	rm -f "$db" "$db-wal" "$db-shm"
done
