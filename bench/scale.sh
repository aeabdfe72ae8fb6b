#!/bin/sh
# Cost as work grows (issue 13): ingest of generated exports of 1, 2 and 5
# years (gen-export --days; ~357 MB of XML a year) beside xmllint --stream
# on the same file, and hq-query over stores of 1, 2, 5 and 10 years of
# per-minute heart rate and two devices' steps (query-bench make). Ingest:
# wall and CPU (user + sys) seconds of one run each; queries: CPU seconds,
# the median of HQ_SCALE_RUNS (default 3), which a shared machine's load
# inflates less than wall time; peak RSS the largest of the runs.
# HQ_SCALE_INGEST=none or HQ_SCALE_QUERY=none skips a part.
# Long (tens of minutes, several GB in $TMPDIR): only with
# HQ_BENCH_ONLY=scale. HQ_SCALE_INGEST and HQ_SCALE_QUERY set the years.
set -eu
[ "${HQ_BENCH_ONLY:-}" = scale ] || { echo "   skipped: HQ_BENCH_ONLY=scale make bench runs it"; exit 0; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-scale.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_TZ TZ
TIME=/usr/bin/time

# run3 CMD...: "median_wall_s max_rss_MB" of the runs, output dropped.
run3() {
	: >"$DIR/t"
	i=0
	while [ $i -lt "${HQ_SCALE_RUNS:-3}" ]; do
		"$TIME" -f '%U %S %M' -a -o "$DIR/t" "$@" >/dev/null
		i=$((i + 1))
	done
	awk '{ print $1 + $2, $3 }' "$DIR/t" | sort -n |
	    awk '{ w[NR] = $1; if ($2 > m) m = $2 } END { printf "%.2f %.0f\n", w[int((NR + 1) / 2)], m / 1024 }'
}

printf '%-6s %8s %16s %16s %16s %8s\n' ingest "XML (MB)" "xmllint wall/cpu" "hq wall/cpu" "ratio wall/cpu" "RSS (MB)"
for y in ${HQ_SCALE_INGEST:-1 2 5}; do
	[ "$y" = none ] && break
	# HQ_SCALE_CACHE: a directory of exports made before, y1.xml ...
	# (gen-export --xml --days 365*N, nothing else: deterministic).
	xml="${HQ_SCALE_CACHE:-$DIR}/y$y.xml"
	[ -s "$xml" ] || gen-export --xml --days $((365 * y)) -o "$xml" >/dev/null
	"$TIME" -f '%e %U %S' -o "$DIR/l" xmllint --stream --noout "$xml"
	"$TIME" -f '%e %U %S %M' -o "$DIR/h" hq-ingest -q --db "$DIR/i.db" "$xml" >/dev/null
	paste -d' ' "$DIR/l" "$DIR/h" | awk -v y="$y" -v mb="$(($(wc -c <"$xml") / 1000000))" '{
		lc = $2 + $3; hc = $5 + $6
		printf "%-6s %8s %16s %16s %16s %8.1f\n", y " y", mb, sprintf("%.1f/%.1f", $1, lc),
		    sprintf("%.1f/%.1f", $4, hc), sprintf("%.2f/%.2f", $4 / $1, hc / lc), $7 / 1024 }'
	[ -n "${HQ_SCALE_CACHE:-}" ] || rm -f "$xml"
	rm -f "$DIR"/i.db*
done

echo
printf '%-6s %9s  %-15s %-15s %-15s %-15s %-15s\n' query samples "hr avg/day" "hr median/day" "hr median all" "hr raw rows" "steps/week"
for y in ${HQ_SCALE_QUERY:-1 2 5 10}; do
	[ "$y" = none ] && break
	export HQ_DB="$DIR/q.db"
	query-bench make "$HQ_DB" "$y" >/dev/null
	n=$(sqlite3 "$HQ_DB" 'select count(*) from sample')
	a=$(run3 hq-query heart_rate --by day)
	m=$(run3 hq-query heart_rate --by day --agg median,p90)
	w=$(run3 hq-query heart_rate --agg median,p90)
	r=$(run3 hq-query heart_rate --format jsonl)
	s=$(run3 hq-query steps --by week)
	f() { echo "$1" | awk '{ printf "%s s %s MB", $1, $2 }'; }
	printf '%-6s %9s  %-15s %-15s %-15s %-15s %-15s\n' "$y y" "$n" "$(f "$a")" "$(f "$m")" "$(f "$w")" "$(f "$r")" "$(f "$s")"
	rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
done
