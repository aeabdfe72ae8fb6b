#!/usr/bin/env bash
# hq-query workout ID --splits DIST (hq-query(1),
# WORKOUTS): the rows of every route of the generated data
# (tests/data/athlete/generated.sql: hills, a pause, a route across
# midnight) every 1 km, mile, 0.5 km and 2 km as the independent reference
# (tests/data/athlete/reference.py) computed them, to 1e-9 relative; a bad
# distance exits 2, a workout without a route 1.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip_all "python3 missing"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
D=$HQ_ROOT/tests/data/athlete

: >"$T/empty.jsonl"
hq-ingest -q --format jsonl "$T/empty.jsonl" >/dev/null &&
    sqlite3 "$HQ_DB" <"$D/generated.sql"
ok $? "a store with the generated workouts"

routes=$(sqlite3 "$HQ_DB" "SELECT DISTINCT workout_id FROM route ORDER BY 1")
for id in $routes; do
	for u in 1:1000.0 1mi:1609.344 0.5:500.0 2km:2000.0; do
		arg=${u%%:*} unit=${u#*:}
		hq-query workout "$id" --splits "$arg" --format jsonl >"$T/splits"
		python3 - "$T/splits" "$D/generated.expected" "$id" "$unit" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
want = {}
for line in open(sys.argv[2]):
    f = line.split()
    if f[:1] == ["scenario"] and len(want):
        break
    if f[:1] == ["split"] and f[1] == sys.argv[3] and f[2] == sys.argv[4]:
        want.setdefault(int(f[3]), {})[f[4]] = None if f[5] == "null" else float(f[5])
bad = 0 if len(rows) == len(want) and len(want) > 0 else 1
for r in rows:
    w = want.get(r["split"], {})
    for k, v in w.items():
        got = r.get(k, "absent")
        same = got is None if v is None else isinstance(got, (int, float)) and \
            abs(got - v) <= 1e-9 * max(abs(v), 1e-12)
        if not same:
            bad += 1
            print("# split %d %s: got %r, want %r" % (r["split"], k, got, v))
    if sorted(r) != sorted(["split", "km", "seconds", "pace_min_per_km",
                            "speed_kmh", "avg_hr", "gain_m"]):
        bad += 1
print("# %d splits" % len(rows))
sys.exit(1 if bad else 0)
PY
		ok $? "workout $id --splits $arg: as the reference computed them"
	done
done

hq-query workout 1 --splits 1 --format table >"$T/table"
like "$(head -1 "$T/table")" "^split +km +time +pace +speed +avg_hr +gain_m" \
    "a table: split, km, time, pace, speed, heart rate, gain"
# numbers for people (issue 27): the time h:mm:ss or m:ss, the pace m:ss a
# km, never 4.746; in miles with --splits 1mi; the same split in JSON keeps
# every digit
like "$(sed -n 2p "$T/table")" "^ +1 +[0-9]+\.[0-9]{2} +[0-9]+:[0-5][0-9] +[0-9]+:[0-5][0-9]/km +[0-9]+\.[0-9] km/h" \
    "a split's row: km to the hundredth, time m:ss, pace m:ss/km, km/h to a tenth"
pace=$(hq-query workout 1 --splits 1 --format jsonl | head -1 | python3 -c '
import json, sys
p = json.load(sys.stdin)["pace_min_per_km"]
s = round(p * 60)
print("%d:%02d/km %r" % (s // 60, s % 60, p))')
like "$(sed -n 2p "$T/table")" " ${pace% *} " "the table's pace is JSON's ${pace#* } min/km as m:ss"
hq-query workout 1 --splits 1mi --format table >"$T/mi"
like "$(head -1 "$T/mi")" "^split +mi +time +pace +speed" "--splits 1mi: miles"
like "$(sed -n 2p "$T/mi")" "[0-9]+:[0-5][0-9]/mi +[0-9]+\.[0-9] mph" "pace a mile, speed in mph"
mi=$(hq-query workout 1 --splits 1mi --format jsonl | head -1 | python3 -c '
import json, sys
r = json.load(sys.stdin)
p = r["pace_min_per_km"] * 1.609344
s = round(p * 60)
print("%.2f %d:%02d/mi" % (r["km"] / 1.609344, s // 60, s % 60))')
like "$(sed -n 2p "$T/mi")" "^ +1 +${mi% *} .* ${mi#* } " "its miles and pace a mile from JSON's km ($mi)"
for bad in 0 -1 abc 2furlong 0km 1e400 0x1 inf; do
	run hq-query workout 1 --splits "$bad"
	is "$rc" 2 "--splits '$bad': exit 2"
	like "$err" "^hq-query: --splits '$bad': " "and says what is wrong"
done
nort=$(sqlite3 "$HQ_DB" "SELECT min(id) FROM workout WHERE id NOT IN (SELECT workout_id FROM route)")
run hq-query workout "$nort" --splits 1
is "$rc" 1 "a workout without a route: exit 1"
like "$err" "has no route points to split" "saying so"
run hq-query workouts --splits 1
is "$rc" 2 "--splits on the list: a usage error"
run hq-query workout 1 --splits 1 --format gpx
is "$rc" 2 "--splits with a route format: a usage error"
done_testing
