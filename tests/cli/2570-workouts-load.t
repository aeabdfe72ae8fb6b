#!/usr/bin/env bash
# hq-query workouts and workout ID with the athlete's figures (hq-query(1),
# WORKOUTS): every figure of the generated
# data (tests/data/athlete/generated.sql, the issue's traps) as the
# independent reference (tests/data/athlete/reference.py) computed it, in
# generated.expected, to 1e-9 relative, with the default settings and with
# settings from the config and the flags; --where on any numeric field;
# the bad settings; the figures kept between runs (a second run reads no
# heart-rate sample; an import makes them stale).
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip_all "python3 missing"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
D=$HQ_ROOT/tests/data/athlete

: >"$T/empty.jsonl"
hq-ingest -q --format jsonl "$T/empty.jsonl" >/dev/null &&
    sqlite3 "$HQ_DB" <"$D/generated.sql"
ok $? "a store with the generated workouts"

# compare ROWS SCENARIO: the rows' figures against the reference's.
compare() {
	python3 - "$1" "$D/generated.expected" "$2" <<'PY'
import json, math, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows[r["id"]] = r
want, setting, scen = {}, {}, None
for line in open(sys.argv[2]):
    f = line.split()
    if not f or f[0].startswith("#"):
        continue
    if f[0] == "scenario":
        scen = " ".join(f[1:])
    elif scen == sys.argv[3] and f[0] == "setting":
        setting[f[1]] = f[2]
    elif scen == sys.argv[3] and f[0] == "workout":
        want[(int(f[1]), f[2])] = None if f[3] == "null" else float(f[3])
fields = ["trimp", "hrss", "edwards", "np", "if", "tss", "load", "hr_minutes",
          "hr_coverage_pct", "z0_min", "z1_min", "z2_min", "z3_min", "z4_min",
          "z5_min", "elevation_gain_m"]
n = bad = 0
for (wid, k), v in want.items():
    if k not in fields:
        continue
    n += 1
    got = rows.get(wid, {}).get(k, "absent")
    if v is None:
        same = got is None
    else:
        same = isinstance(got, (int, float)) and \
            abs(got - v) <= 1e-9 * max(abs(v), 1e-300) + (1e-12 if v == 0 else 0)
    if not same:
        bad += 1
        print("# workout %d %s: got %r, want %r" % (wid, k, got, v))
for k in ("max_hr", "rest_hr", "lthr"):
    for r in rows.values():
        if abs(r["athlete_" + k] - float(setting[k])) > 1e-9 * float(setting[k]):
            bad += 1
            print("# %s: got %r, want %s" % (k, r["athlete_" + k], setting[k]))
print("# %d figures compared" % n)
sys.exit(1 if bad or n < 100 else 0)
PY
}

hq-query workouts --format jsonl >"$T/rows"
ok $? "hq-query workouts"
compare "$T/rows" "defaults"
ok $? "every figure as the reference computed it, default settings"
is "$(python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["athlete_basis"])' <"$T/rows")" \
    "store" "athlete_basis: lthr from the store's max_hr and rest_hr is the store's"

mkdir -p "$T/config/hq"
printf '[athlete]\nsex = female\nzones = 115, 135, 152, 168\nftp = 100\nmax_hr = 150\n' \
    >"$T/config/hq/config"
hq-query workouts --format jsonl --max-hr 192 --rest-hr 48 --lthr 170 --ftp 260 \
    >"$T/rows2"
ok $? "settings from the config and the flags (over it)"
compare "$T/rows2" "set sex=female max_hr=192.0 rest_hr=48.0 lthr=170.0 ftp=260.0 zones=115.0,135.0,152.0,168.0"
ok $? "every figure as the reference computed it, those settings"
like "$(head -1 "$T/rows2")" '"athlete_ftp":260,"athlete_sex":"female","athlete_basis":"config"' \
    "the rows say which values were used"
rm "$T/config/hq/config"

for id in 2 5; do
	hq-query workout $id --format jsonl >"$T/one"
	grep "\"id\":$id," "$T/rows" | python3 -c '
import json, sys
a = json.loads(sys.stdin.readline()); b = json.loads(open(sys.argv[1]).readline())
sys.exit(0 if all(b.get(k, "absent") == v for k, v in a.items()) else 1)' "$T/one"
	ok $? "hq-query workout $id has the list row's fields and figures"
done

# --where on every numeric field, the figures too; limit and offset count
# the rows that hold.
want=$(python3 -c '
import json, sys
ids = [str(r["id"]) for r in map(json.loads, open(sys.argv[1]))
       if r["load"] is not None and r["load"] >= 40 and r["duration_min"] <= 60]
print(" ".join(ids))' "$T/rows")
got=$(hq-query workouts --format jsonl --where 'load>=40 and duration_min<=60' |
    python3 -c 'import json,sys; print(" ".join(str(json.loads(l)["id"]) for l in sys.stdin))')
is "$got" "$want" "--where 'load>=40 and duration_min<=60': workouts $want"
got=$(hq-query workouts --format jsonl --where 'z3_min > 10' --where 'hrss<100' \
    --offset 1 --limit 1 | python3 -c 'import json,sys; print(" ".join(str(json.loads(l)["id"]) for l in sys.stdin))')
want=$(python3 -c '
import json, sys
ids = [str(r["id"]) for r in map(json.loads, open(sys.argv[1]))
       if r["z3_min"] is not None and r["z3_min"] > 10 and r["hrss"] < 100]
print(" ".join(ids[1:2]))' "$T/rows")
is "$got" "$want" "two --where, --offset 1 --limit 1 among those that hold"
run hq-query workouts --where 'load >= 500'
is "$rc" 1 "none holds: exit 1"
is "$err" "hq-query: no workouts with --where 'load >= 500'" "saying which filter"
run hq-query workouts --where 'loda > 5'
is "$rc" 2 "an unknown field: exit 2"
like "$err" "unknown field 'loda' for workouts: use id, duration_min, .*, load, .*, elevation_gain_m" \
    "naming the valid ones"
run hq-query workouts --where 'heart_rate.max > 5'
is "$rc" 2 "metric.field on workouts: exit 2"

# Bad settings: a clear message, exit 2.
run hq-query workouts --ftp 0
is "$rc:$err" "2:hq-query: --ftp 0: expected a power in W from 20 to 2500" "--ftp 0"
run hq-query workouts --max-hr 120 --rest-hr 120
is "$rc" 2 "--max-hr <= --rest-hr: exit 2"
like "$err" "max_hr 120 \(--max-hr\) is not above rest_hr 120 \(--rest-hr\)" "naming both"
run hq-query workouts --lthr 50
is "$rc" 2 "--lthr under rest_hr: exit 2"
like "$err" "lthr 50 \(--lthr\) is not between rest_hr 55.5 \(the store\) and max_hr 196" "naming each origin"
run hq-query workouts --lthr 196
is "$rc" 2 "--lthr at max_hr: exit 2"
run hq-query workouts --max-hr abc
is "$rc" 2 "--max-hr abc: exit 2"
run hq-query workouts --max-hr 0xC0
is "$rc" 2 "--max-hr 0xC0: exit 2 (hq's numbers are decimal)"
run hq-query heart_rate --ftp 200
is "$rc" 2 "--ftp on a metric: a usage error"

# The table shows load.
hq-query workouts --format table >"$T/table"
like "$(head -1 "$T/table")" " load " "the table has a load column"
like "$(grep '^ *5 ' "$T/table")" " 127 " "workout 5's load, 127"

# Kept figures: the heart-rate and power samples gone (not by an import),
# the same rows; the store stays 0600.
n=$(sqlite3 "$HQ_DB" "SELECT count(*) FROM workout_figures")
is "$n" 8 "every workout's figures kept"
sqlite3 "$HQ_DB" "DELETE FROM sample WHERE metric_id IN (SELECT id FROM metric
    WHERE identifier IN ('HKQuantityTypeIdentifierHeartRate',
    'HKQuantityTypeIdentifierCyclingPower'))"
hq-query workouts --format jsonl | sed 's/"avg_hr":[^,]*,"max_hr":[^,]*,//' >"$T/rows3"
sed 's/"avg_hr":[^,]*,"max_hr":[^,]*,//' "$T/rows" | cmp -s - "$T/rows3"
ok $? "a second run without heart-rate samples: the same figures"
is "$(stat -c %a "$HQ_DB")" 600 "the store is still 0600"
# A heart rate inside workout 5's pause (an import drops the rows it could
# change, lib/store/figures.c): its figures computed again, none held now.
printf '{"metric":"heart_rate","start":"2026-11-01T08:22:00Z","value":150,"source":"Apple Watch"}\n' >"$T/new.jsonl"
hq-ingest -q "$T/new.jsonl" >/dev/null
hq-query workouts --format jsonl >"$T/rows4"
like "$(grep '"id":5,' "$T/rows4")" '"trimp":null,.*"load":null' \
    "after a heart rate imported inside it workout 5 is computed again (no heart rate held now)"

done_testing
