#!/usr/bin/env bash
# hq-query against the truth gen-export computes independently from the
# samples it writes (HACKING.md semantics), day by day: steps from an
# iPhone and a Watch that overlap, heart rate, exercise minutes, glucose,
# sleep per night across the November DST change, --when days, workouts of
# both export formats — and the rollups agree with the raw samples.
. "$(dirname "$0")/lib.sh"

command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v hq-ingest >/dev/null || skip_all "hq-ingest not built"
command -v python3 >/dev/null || skip_all "python3 missing"

gen-export --days 40 --seed 11 --tz America/Los_Angeles --truth "$T/truth" -o "$T/export.zip"
ok $? "generated 40 days across the DST change"
hq-ingest -q "$T/export.zip" >/dev/null
ok $? "ingested"

# compare FILE TRUTH-FIELD ROW-FIELD TOLERANCE SCALE: the number of days on
# which hq-query's row disagrees with the truth (a missing row is 0).
compare() {
	python3 - "$T/truth" "$@" <<'PY'
import json, sys
truth, rows, tkey, qkey, tol, scale = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
days = [json.loads(l) for l in open(truth)]
days = [d for d in days if "date" in d and "workout" not in d]
got = {}
for l in open(rows):
    r = json.loads(l)
    got[r["period"]] = r
bad = 0
for d in days:
    want = d[tkey]
    have = got[d["date"]][qkey] * scale if d["date"] in got else 0
    if abs(want - have) > tol * max(1, abs(want)):
        bad += 1
        if bad <= 3:
            print("# %s %s: truth %s, hq-query %s" % (d["date"], tkey, want, have), file=sys.stderr)
print(bad)
PY
}

q() { hq-query "$@" >"$T/rows"; }

q steps --by day
is "$(compare "$T/rows" steps value 1e-9 1)" 0 "daily steps = Watch + iPhone outside the Watch's intervals, every day"
is "$(compare "$T/rows" steps_naive value 1e-9 1 2>/dev/null)" 40 "and never the naive sum of both devices"
q steps --by day --source "Alex’s Apple Watch"
is "$(compare "$T/rows" steps_watch value 1e-9 1)" 0 "--source picks one device: the Watch's own steps"
q steps --by day --source "Alex’s iPhone"
is "$(compare "$T/rows" steps_phone value 1e-9 1)" 0 "--source: the iPhone's own steps"

q heart_rate --by day --agg avg,min,max,count
is "$(compare "$T/rows" heart_rate_avg avg 1e-9 1)" 0 "daily heart-rate average"
is "$(compare "$T/rows" heart_rate_min min 0 1)" 0 "daily heart-rate minimum"
is "$(compare "$T/rows" heart_rate_max max 0 1)" 0 "daily heart-rate maximum"
is "$(compare "$T/rows" heart_rate_n count 0 1)" 0 "daily heart-rate sample count"
q heart_rate --by day --agg avg,min,max,count --no-rollup
is "$(compare "$T/rows" heart_rate_avg avg 1e-9 1)" 0 "the same from raw samples (no rollups)"

# Medians and percentiles (R's type 7), which gen-export computes by
# counting each day's whole-number values: from the rollups of values and
# from the raw samples.
for raw in "" --no-rollup; do
	q heart_rate --by day --agg median,p90 $raw
	is "$(compare "$T/rows" heart_rate_median median 0 1)" 0 "daily heart-rate median $raw"
	is "$(compare "$T/rows" heart_rate_p90 p90 1e-12 1)" 0 "daily heart-rate p90 $raw"
	q glucose --by day --agg p10,median $raw
	is "$(compare "$T/rows" glucose_median median 0 1)" 0 "daily glucose median $raw"
	is "$(compare "$T/rows" glucose_p10 p10 1e-12 1)" 0 "daily glucose p10 $raw"
	# Over the whole range: every value, not held at once.
	hq-query heart_rate --agg median,p99 $raw >"$T/rows"
	hq-query glucose --agg p25 $raw >>"$T/rows"
	is "$(python3 - "$T/truth" "$T/rows" <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
hr, gl = [json.loads(l) for l in open(sys.argv[2])]
print(hr["median"] == s["heart_rate_median"], abs(hr["p99"] - s["heart_rate_p99"]) < 1e-12,
      abs(gl["p25"] - s["glucose_p25"]) < 1e-12)
PY
)" "True True True" "whole-range heart-rate median and p99, glucose p25 $raw"
done

q exercise_time --by day
is "$(compare "$T/rows" exercise_minutes value 1e-9 1)" 0 "daily exercise minutes"
q active_energy --by day
is "$(compare "$T/rows" active_energy value 1e-9 1)" 0 "daily active energy"
q glucose --by day --agg avg,max
is "$(compare "$T/rows" glucose_avg avg 1e-9 1)" 0 "daily glucose average"
is "$(compare "$T/rows" glucose_max max 0 1)" 0 "daily glucose maximum"

# Stand hours: counted, the Idle ones not (hq-query(1)), not 60 minutes each.
q stand_hour --by day
is "$(compare "$T/rows" stand_hours value 0 1)" 0 "stand hours per day = the hours stood, across the DST change"

# Sleep in hours per night; the truth is in minutes.
q sleep --by day
is "$(compare "$T/rows" sleep_asleep_min value 1e-9 60)" 0 "asleep per night = union of the Watch's asleep stages, keyed by the date it ends"
q sleep_in_bed --by day
is "$(compare "$T/rows" sleep_inbed_min value 1e-9 60)" 0 "in bed per night, apart from sleep"
q sleep_deep --by day
is "$(compare "$T/rows" sleep_deep_min value 1e-9 60)" 0 "deep sleep per night"
q sleep_rem --by day
is "$(compare "$T/rows" sleep_rem_min value 1e-9 60)" 0 "REM sleep per night"
q sleep_core --by day
is "$(compare "$T/rows" sleep_core_min value 1e-9 60)" 0 "core sleep per night"
q sleep
is "$(compare "$T/rows" sleep_asleep_min value 1e-9 60)" 0 "without --by: one row per night, the same values"
is "$(grep -c '"period":"2024-11-03"' "$T/rows")" 1 "the DST night (Nov 3) is one night"

# --when keeps exactly the days whose exercise reached an hour.
want=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if "date" in d and "workout" not in d and d["exercise_minutes"] >= 60 and d["heart_rate_n"] > 0:
        print(d["date"])' "$T/truth" | tr '\n' ' ')
got=$(hq-query heart_rate --by day --when 'exercise_time.sum>=60' | python3 -c '
import json, sys
print(" ".join(json.loads(l)["period"] for l in sys.stdin), end=" ")')
is "$got" "$want" "--when 'exercise_time.sum>=60': the days with an hour of exercise, no others"
ok "$([ -n "$want" ]; echo $?)" "and there are such days in the data"
got=$(hq-query heart_rate --by day --when 'exercise_time.sum>=60' --when 'glucose.max>150' | wc -l)
want=$(python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    d = json.loads(l)
    if "date" in d and "workout" not in d and d["exercise_minutes"] >= 60 and d["glucose_max"] > 150:
        n += 1
print(n)' "$T/truth")
is "$got" "$want" "two --when conditions are ANDed"

# A week of days: the week total is the sum of its daily totals.
wk=$(hq-query steps --by week --agg sum --from 2024-10-21 --to 2024-10-27 | python3 -c 'import json,sys; print(round(json.loads(sys.stdin.readline())["sum"], 4))')
days=$(python3 -c '
import json, sys
s = sum(d["steps"] for d in map(json.loads, open(sys.argv[1])) if "date" in d and "workout" not in d and "2024-10-21" <= d["date"] <= "2024-10-27")
print(round(s, 4))' "$T/truth")
is "$wk" "$days" "ISO week 2024-W43 of steps = the sum of its seven days"

# Workouts of both formats: count, duration, distance, energy.
hq-query workouts >"$T/w"
is "$(python3 - "$T/truth" "$T/w" <<'PY'
import json, sys
want = [json.loads(l) for l in open(sys.argv[1]) if '"workout"' in l]
got = [json.loads(l) for l in open(sys.argv[2])][::-1]   # listed newest first
bad = 0 if len(want) == len(got) else 1000
for w, g in zip(want, got):
    for a, b, tol in (("duration_min", "duration_min", 0.01), ("distance_km", "distance_km", 0.001), ("energy_kcal", "energy_kcal", 0.1)):
        if abs(w[a] - (g[b] or 0)) > tol:
            bad += 1
            print("# workout %s %s: truth %s, got %s" % (w["workout"], a, w[a], g[b]), file=sys.stderr)
print(bad)
PY
)" 0 "workouts: one row each with the truth's duration, distance and energy"
forms=$(grep -o '"form":"[a-z]*"' "$T/truth" | sort -u | tr '\n' ' ')
is "$forms" '"form":"new" "form":"old" ' "the export has workouts in both formats"

# Rollups and raw samples agree on every aggregate they both compute.
for args in "heart_rate --by week --agg avg,min,max,stddev,count" \
	"heart_rate --by day --agg avg,median,p1,p25,p75,p99,count" \
	"heart_rate --by month --agg median,p10" "hrv --by week --agg median,p90" \
	"glucose --agg avg,median,p95" "heart_rate --by day --agg median --when exercise_time.sum>=30" \
	"TZ=Asia/Kolkata steps --by day --agg sum,count,avg" "TZ=Asia/Kathmandu steps --by hour" \
	"TZ=Asia/Kolkata active_energy --by week --agg sum,avg" \
	"steps --by month --agg sum,avg,min,max" "exercise_time --by hour --agg sum" \
	"glucose --agg avg,max" "steps --by day --agg sum --source Alex’s_iPhone"; do
	set -- $args
	set -- "${@//_iPhone/ iPhone}"
	zone=America/Los_Angeles
	case "$1" in TZ=*) zone=${1#TZ=}; shift ;; esac
	HQ_TZ=$zone hq-query "$@" >"$T/a"
	HQ_TZ=$zone hq-query "$@" --no-rollup >"$T/b"
	is "$(python3 - "$T/a" "$T/b" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
bad = abs(len(a) - len(b)) + (len(a) == 0)
for x, y in zip(a, b):
    for k, v in x.items():
        w = y.get(k)
        if isinstance(v, (int, float)) and isinstance(w, (int, float)):
            bad += abs(v - w) > 1e-7 * max(1, abs(w))
        else:
            bad += v != w
print(bad)
PY
)" 0 "rollups = raw samples: $* ($zone)"
done

done_testing
