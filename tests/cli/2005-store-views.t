#!/usr/bin/env bash
# The read-only views for people who open the store in sqlite3 or
# Datasette: samples (names, local times, the unit values are in), daily
# (from the rollups, the numbers hq-query gives) and workouts (what
# hq-query workouts lists); and a store made before them gets them.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "sqlite3 is needed"

q() { TZ=America/Los_Angeles sqlite3 "$HQ_DB" "$1"; }

# a weight written in pounds: value in kg, unit kg, the file's unit apart
printf '%s\n' \
	'{"metric":"weight","start":"2024-12-03T07:00:00-08:00","value":159.3,"unit":"lb","source":"Scale"}' \
	'{"metric":"steps","start":"2024-12-03T23:30:00-08:00","end":"2024-12-04T00:30:00-08:00","value":600,"source":"Phone"}' \
	'{"metric":"my_custom_score","start":"2024-12-03T12:00:00Z","value":7,"unit":"pts"}' >"$T/a.jsonl"
hq-ingest -q "$T/a.jsonl" >/dev/null
is "$(q "select metric, start, end, round(value, 4), unit, file_unit, source from samples where metric = 'body_mass'")" \
	"body_mass|2024-12-03T07:00:00-08:00|2024-12-03T07:00:00-08:00|72.2573|kg|lb|Scale" \
	"samples: hq's name, local times with offset, kilograms said as kg, the file's lb apart"
is "$(q "select round(value, 4), unit from sample order by id")" "72.2573|lb
600.0|
7.0|pts" "(the raw table: the value converted, the unit the file's)"
is "$(q "select metric, value, unit, file_unit from samples where metric = 'my_custom_score'")" \
	"my_custom_score|7.0|pts|pts" "samples: a metric hq does not know: its name, the file's unit"
is "$(TZ=Europe/Paris sqlite3 "$HQ_DB" "select start from samples where metric = 'body_mass'")" \
	"2024-12-03T16:00:00+01:00" "samples: local is the reader's zone (TZ)"
is "$(q "select name, kind, unit from catalog order by name")" "body_mass|discrete|kg
my_custom_score|discrete|
step_count|cumulative|count" "catalog: name, kind and unit of each metric in the store"
# steps across midnight: split pro rata, as hq-query does
is "$(q "select day, value, unit from daily where metric = 'step_count' order by day")" \
	"2024-12-03|300.0|count
2024-12-04|300.0|count" "daily: a cumulative total, split at local midnight"

# a real export: daily and workouts give what hq-query gives
if command -v gen-export >/dev/null; then
	export HQ_DB="$T/gen.db"
	gen-export --days 20 --zip -o "$T/e.zip" >/dev/null 2>&1
	hq-ingest -q "$T/e.zip" >/dev/null
	# same_rows A B: the same rows, numbers equal to 1e-9 relative
	same_rows() {
		python3 - "$1" "$2" <<'P'
import sys
a, b = (x.strip().splitlines() for x in sys.argv[1:3])
def same(x, y):
    try:
        return abs(float(x) - float(y)) <= 1e-9 * max(1, abs(float(y)))
    except ValueError:
        return x == y
ok = len(a) == len(b) > 0 and all(
    len(r.split("|")) == len(s.split("|")) and all(same(x, y) for x, y in zip(r.split("|"), s.split("|")))
    for r, s in zip(a, b))
sys.exit(0 if ok else 1)
P
	}
	for m in step_count:steps:sum active_energy_burned:active_energy:sum heart_rate:heart_rate:avg; do
		IFS=: read -r name arg agg <<<"$m"
		want=$(hq-query "$arg" --by day --agg "$agg,min,max" --format csv |
			awk -F, 'NR > 1 { print $2 "|" $6 "|" $9 }')
		got=$(q "select day, $agg, n from daily where metric = '$name' order by day")
		same_rows "$got" "$want"
		ok $? "daily $name: day by day the $agg and n hq-query $arg --by day gives"
	done
	got=$(q "select day, min, max from daily where metric = 'heart_rate' order by day")
	want=$(hq-query heart_rate --by day --agg min,max --format csv | awk -F, 'NR > 1 { print $2 "|" $6 "|" $7 }')
	same_rows "$got" "$want"
	ok $? "daily heart_rate: min and max"
	got=$(q "select id, type, start, end, date, duration_min, distance_km, avg_hr, max_hr, source from workouts order by id")
	# (hq-query lists the newest first: rows in id order, as the view's)
	want=$(hq-query workouts --format csv | python3 -c '
import csv, sys
for r in sorted(csv.DictReader(sys.stdin), key=lambda r: int(r["id"])):
    print("|".join(r[k] for k in ("id", "type", "start", "end", "date", "duration_min",
                                  "distance_km", "avg_hr", "max_hr", "source")))')
	# hq-query rounds to its printed precision: compare at that
	python3 - "$got" "$want" <<'P'
import sys
a, b = (x.strip().splitlines() for x in sys.argv[1:3])
assert len(a) == len(b) > 0, (len(a), len(b))
for r, s in zip(a, b):
    for x, y in zip(r.split("|"), s.split("|")):
        try:
            assert abs(float(x) - float(y)) <= 0.051, (x, y)
        except ValueError:
            assert x == y, (x, y)
P
	ok $? "workouts: what hq-query workouts lists"
	plan=$(q "explain query plan select * from daily where metric = 'heart_rate'")
	unlike "$plan" "SCAN r" "daily: a WHERE on metric reads that metric's rollups only"
fi

# a store made before the views (schema 4: the views are migration 5, the
# time zones 6) gets them, named by identifier until the next import names
# them
export HQ_DB="$T/old.db"
hq-ingest -q "$T/a.jsonl" >/dev/null
sqlite3 "$HQ_DB" "drop table time_zone; drop view samples; drop view daily; drop view workouts; drop table catalog; pragma user_version = 4"
run hq-agent --log
is "$(sqlite3 "$HQ_DB" "pragma user_version")" "$(sqlite3 "$T/hq.db" "pragma user_version")" \
	"an old store is brought up to date when opened for writing"
is "$(q "select distinct metric from samples order by 1")" "HKQuantityTypeIdentifierBodyMass
HKQuantityTypeIdentifierStepCount
my_custom_score" "upgraded: the views work at once, with identifiers"
printf '{"metric":"weight","start":"2024-12-05T07:00:00Z","value":72}\n' | hq-ingest -q - >/dev/null
is "$(q "select distinct metric from samples order by 1")" "body_mass
my_custom_score
step_count" "upgraded: the next import names them"
# read-only: the views cannot be written
run sqlite3 "$HQ_DB" "delete from samples"
like "$err" "cannot modify samples because it is a view" "the views are read-only"
done_testing
