#!/usr/bin/env bash
# Workouts of both export forms (old total* attributes; iOS 16+
# WorkoutStatistics repeated inside WorkoutActivity), from a generated export
# whose truth file gen-export writes independently: type, local date,
# duration (pauses excluded), distance, energy, heart rate (old form: from
# the heart-rate samples during the workout; new: from its statistic),
# paused time, route points. Read back by workout-probe (lib/query/workout.c).
. "$(dirname "$0")/lib.sh"

command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v hq-ingest >/dev/null || skip_all "hq-ingest not built"
command -v workout-probe >/dev/null || skip_all "workout-probe not built"
command -v python3 >/dev/null || skip_all "python3 missing"

gen-export --days 60 --seed 3 -o "$T/ex.zip" --truth "$T/truth.jsonl"
ok $? "gen-export writes 60 days"
hq-ingest "$T/ex.zip" >/dev/null
ok $? "hq-ingest reads them"

grep '^{"workout"' "$T/truth.jsonl" >"$T/want.jsonl"
n=$(wc -l <"$T/want.jsonl")
run workout-probe
is "$(printf '%s\n' "$out" | wc -l)" "$n" "as many workouts as the truth ($n)"
like "$(cut -d, -f3 "$T/want.jsonl" | sort -u | tr '\n' ' ')" '"form":"new".*"form":"old"' \
	"the truth has workouts of both forms"

: >"$T/got.jsonl"
for id in $(printf '%s\n' "$out" | sed 's/^{"id":\([0-9]*\),.*/\1/'); do
	workout-probe "$id" >>"$T/got.jsonl"
done

# One result per checked quantity, over all workouts: "0|1 <TAB> name
# <TAB> the first mismatches".
python3 - "$T/want.jsonl" "$T/got.jsonl" >"$T/results" <<'PY'
import json, sys
want = [json.loads(l) for l in open(sys.argv[1])]
got = [json.loads(l) for l in open(sys.argv[2])][::-1]   # listed newest first
want.sort(key=lambda w: w["start"])
checks = [
    ("type", "type", None), ("date", "date", None),
    ("duration_min", "duration_min", 0.006),
    ("distance_km", "distance_km", 0.0006),
    ("energy_kcal", "energy_kcal", 0.06),
    ("avg_hr", "avg_hr", 0.06), ("max_hr", "max_hr", 0.001),
    ("pause_s", "paused_min", 1.0), ("route_points", "route_points", 0),
]
for tk, gk, tol in checks:
    bad = []
    for w, g in zip(want, got):
        gv = g.get(gk)
        if tk == "pause_s" and gv is not None:
            gv = gv * 60
        if tol is None:
            good = gv == w[tk]
        else:
            good = gv is not None and abs(gv - w[tk]) <= tol
        if not good:
            bad.append("workout %s (%s): want %s got %s" % (w["workout"], w["form"], w[tk], gv))
    if len(want) != len(got):
        bad.append("%d workouts wanted, %d read" % (len(want), len(got)))
    print("%d\t%s of every workout matches the truth\t%s" % (1 if bad else 0, tk, "; ".join(bad[:4])))
PY
ok $? "the comparison ran"
while IFS="$(printf '\t')" read -r status name detail; do
	ok "$status" "$name"
	[ "$status" -eq 0 ] || echo "#   $detail"
done <"$T/results"
is "$(wc -l <"$T/results")" 9 "nine quantities compared"

done_testing
