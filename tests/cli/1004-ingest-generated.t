#!/usr/bin/env bash
# hq-ingest on generated exports (scripts/gen-export.c): the counts match
# the generator's truth file; a later cumulative export, written in another
# UTC offset, adds only what is new; a progress bar on a terminal only.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"

q() { sqlite3 "$HQ_DB" "$1"; }
json() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(" ".join(str(d[k]) for k in sys.argv[2:]))' "$@"; }

gen-export --days 30 --zip --truth "$T/truth.jsonl" -o "$T/e.zip" >/dev/null 2>&1
truth=$(grep '"summary":true' "$T/truth.jsonl")
run hq-ingest "$T/e.zip"
is "$rc" 0 "a generated 30-day export.zip imports"
is "$(json "$out" records inserted duplicates correlations workouts routes route_points)" \
   "$(json "$truth" records unique_records duplicates correlations workouts routes route_points)" \
   "records, unique samples, duplicates, correlations, workouts, routes and route points match the truth file"
# Each workout's distance, energy and duration as the generator meant them
# (within rounding), and its route points.
q "select distance/1000, energy, duration/60, (select count(*) from route_point p join route r on r.id=p.route_id where r.workout_id=w.id) from workout w order by start" >"$T/got.txt"
python3 - "$T/truth.jsonl" "$T/got.txt" <<'P'
import json, sys
want = [json.loads(l) for l in open(sys.argv[1])]
want = [d for d in want if "workout" in d]
got = [l.strip().split("|") for l in open(sys.argv[2])]
assert len(got) == len(want), (len(got), len(want))
for d, g in zip(want, got):
    for k, v in zip(("distance_km", "energy_kcal", "duration_min", "route_points"), g):
        assert abs(float(v) - d[k]) <= 0.001 * max(1, abs(d[k])), (d["workout"], k, v, d[k])
P
ok $? "every workout (old and iOS 16+ forms) has the truth's distance, energy, duration and route points"
is "$(q 'select count(*) from route where start is not null')" \
   "$(json "$truth" routes)" "every route (inline or GPX) belongs to its workout"

run hq-ingest "$T/e.zip"
is "$(json "$out" inserted duplicates workouts_inserted route_points)" "0 $(json "$truth" records) 0 0" \
   "the same export again adds nothing"

# The same export with clinical records twice (issue 18): the summary
# counts what the file holds every time, its lab results included; only
# inserted and duplicates say what was new.
gen-export --days 3 --zip --clinical -o "$T/c.zip" >/dev/null 2>&1
HQ_DB=$T/c.db hq-ingest "$T/c.zip" >"$T/c1.out"
HQ_DB=$T/c.db hq-ingest "$T/c.zip" >"$T/c2.out"
c1=$(cat "$T/c1.out") c2=$(cat "$T/c2.out")
is "$(json "$c2" records clinical_records lab_results)" "$(json "$c1" records clinical_records lab_results)" \
   "records, clinical records and lab results: the same on the second run ($(json "$c1" records lab_results))"
is "$(json "$c2" inserted duplicates)" "0 $(json "$c1" records)" "the second run: nothing new, every record a duplicate"
like "$(json "$c1" lab_results)" '^[1-9]' "(the export holds lab results)"

# A later export: more days, written in winter time (-0800) where the first
# was in summer time (-0700). The shared samples are the same instants.
export HQ_DB="$T/cumul.db"
gen-export --days 10 --xml --export-date '2024-10-30 08:00:00' -o "$T/e10.xml" >/dev/null 2>&1
gen-export --days 14 --xml --export-date '2024-11-20 08:00:00' -o "$T/e14.xml" >/dev/null 2>&1
like "$(grep -m1 -o 'startDate="[^"]*"' "$T/e10.xml") $(grep -m1 -o 'startDate="[^"]*"' "$T/e14.xml")" \
   '-0700".*-0800"' "(the two exports write different offsets)"
run hq-ingest "$T/e10.xml"
n10=$(json "$out" inserted)
run hq-ingest "$T/e14.xml"
n14_after=$(json "$out" inserted)
HQ_DB="$T/fresh.db" hq-ingest "$T/e14.xml" >"$T/fresh.out"
n14=$(json "$(cat "$T/fresh.out")" inserted)
is "$n14_after" "$((n14 - n10))" "the later export adds only what is new ($n14 - $n10)"
is "$(sqlite3 "$HQ_DB" 'select metric_id, source_id, start, end, value, text from sample order by 1,2,3,4,5,6' | sha256sum)" \
   "$(sqlite3 "$T/fresh.db" 'select metric_id, source_id, start, end, value, text from sample order by 1,2,3,4,5,6' | sha256sum)" \
   "and the store then holds exactly what the later export alone gives"

# Progress: on a terminal, not with -q, never on stdout.
export HQ_DB="$T/tty.db"
script -qec "hq-ingest '$T/e.zip' >'$T/tty.out'" /dev/null >"$T/tty.term" 2>&1
like "$(cat "$T/tty.term")" "records/s" "a terminal gets a progress bar (records/s)"
last=$(tr '\r' '\n' <"$T/tty.term" | grep -a 'MB' | tail -1)
like "$last" "\\] 100% ([0-9.]+)/\\1 MB [0-9]+ records/s.\\[K$" "the last frame: 100%, the whole size, no ETA ($last)"
like "$(head -c 1 "$T/tty.out")" '\{' "stdout still gets only the summary"
rm -f "$T/tty.db"*
script -qec "hq-ingest -q '$T/e.zip' >/dev/null" /dev/null >"$T/tty.term" 2>&1
is "$(cat "$T/tty.term")" "" "-q: nothing on the terminal"

# The progress line fits the width it is given, less the last column (so
# that it never wraps), and each redraw goes back to the line's start.
# The file's long name is shortened to fit.
# (120 days: long enough to redraw a few times at one redraw per 0.2 s,
# however fast the import.)
mkdir -p "$T/a long directory name that would not fit on a narrow terminal"
gen-export --days 120 --zip -o "$T/a long directory name that would not fit on a narrow terminal/export.zip" >/dev/null 2>&1
for cols in 30 60 80 132; do
	rm -f "$T/tty.db"*
	script -qec "stty cols $cols; hq-ingest '$T/a long directory name that would not fit on a narrow terminal/export.zip' >/dev/null" \
		/dev/null >"$T/tty.term" 2>&1
	got=$(python3 - "$T/tty.term" <<'P'
import re, sys
t = open(sys.argv[1], encoding="utf-8", newline="").read()
draws = [re.sub(r"\x1b\[K", "", d) for d in t.split("\r")]
draws = [d for d in draws if d.strip()]
print(len(draws), max(len(d) for d in draws), int(any("\n" in d for d in draws)),
      int(all("export.zip" in d for d in draws)))
P
)
	set -- $got
	ok "$([ "${1:-0}" -ge 2 ] && [ "${2:-999}" -le $((cols - 1)) ]; echo $?)" \
		"$cols columns: $1 redraws, the widest $2 columns"
	is "${3:-1}" 0 "$cols columns: redrawn in place (no line feed)"
	[ "$cols" -ge 60 ] && is "${4:-0}" 1 "$cols columns: the file's own name is shown"
done
like "$(tr '\r' '\n' <"$T/tty.term" | grep 'records/s' | head -1)" "%.*MB.*records/s" \
	"a wide terminal shows the percentage, megabytes and rate"
is "$(sqlite3 "$HQ_DB" 'PRAGMA foreign_key_check')$(sqlite3 "$T/fresh.db" 'PRAGMA foreign_key_check')" "" "every reference resolves (hq-ingest writes without the foreign keys' look-ups)"
done_testing
