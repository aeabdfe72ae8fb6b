#!/usr/bin/env bash
# hq-report load, zones, bests and compare workouts (hq-report(1),
# "Training: load, zones, bests, workouts compared") against the independent reference
# (tests/data/athlete/reference.py rows: the commands' rows from the
# samples by the written rules) on the generated data with the issue's
# traps and on two real exports, every figure to 1e-9 relative; the
# closed forms of issue 21 through the command's output; the bad input.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
command -v python3 >/dev/null || skip_all "python3 missing"
need_fixtures apple-health/jshrake/export.zip \
    apple-health/dogsheep/zip_contents/apple_health_export/export.xml
REF=$HQ_ROOT/tests/data/athlete/reference.py
TZ_=America/Los_Angeles

# An empty store, then SQL into it.
store() {
	: >"$T/empty.jsonl"
	HQ_DB=$1 hq-ingest -q "$T/empty.jsonl" 2>/dev/null
	sqlite3 "$1" <"$2"
}

# agree DB REPORT ARGS...: hq-report's JSON lines and the reference's.
agree() {
	local db=$1 kind=$2
	shift 2
	local sub=$kind
	[ "$kind" = compare ] && sub="compare workouts"
	HQ_DB=$db hq-report $sub "$@" --format jsonl >"$T/hq.jsonl"
	python3 "$REF" rows "$db" $TZ_ "$kind" "$@" >"$T/ref.jsonl"
	[ -s "$T/ref.jsonl" ] && python3 "$REF" same "$T/hq.jsonl" "$T/ref.jsonl"
	ok $? "$kind $*: as the reference, $(wc -l <"$T/ref.jsonl" | tr -d ' ') rows"
}

G=$T/g.db
store "$G" "$HQ_ROOT/tests/data/athlete/generated.sql"
agree "$G" load --from 2026-10-18 --to 2026-11-14
agree "$G" load --from 2026-10-25 --to 2026-11-20 --type cycling
agree "$G" load --from 2026-10-30 --to 2026-11-03 --type running,walking
agree "$G" load --from 2026-10-18 --to 2026-11-14 --max-hr 192 --rest-hr 48 \
    --lthr 170 --ftp 260
agree "$G" zones --from 2026-10-01 --to 2026-11-30
agree "$G" zones --from 2026-10-20 --to 2026-10-22 --type cycling
agree "$G" zones 1
agree "$G" zones 5 --max-hr 190 --rest-hr 50
agree "$G" bests
agree "$G" bests --type cycling --from 2026-10-21 --to 2026-10-22
agree "$G" compare --last 3
agree "$G" compare --ids 3,2 --ftp 250
agree "$G" compare --last 2 --type running

F=$T/f.db
HQ_DB=$F hq-ingest -q "$HQ_FIXTURES/apple-health/jshrake/export.zip" \
    "$HQ_FIXTURES/apple-health/dogsheep/zip_contents/apple_health_export/export.xml" \
    >/dev/null
ok $? "the real exports imported"
agree "$F" load --from 2016-11-10 --to 2016-12-31
agree "$F" load --from 2020-02-01 --to 2020-03-31 --type walking
agree "$F" bests
agree "$F" compare --last 2
HQ_DB=$F hq-report zones --from 2016-01-01 --to 2020-12-31 2>"$T/err"
is "$? $(cat "$T/err")" "1 hq-report: workouts of any type from 2016-01-01 to 2020-12-31: no heart rate recorded during them" \
    "zones where no workout has heart rate: exit 1, said"

# ---- closed forms ---------------------------------------------------------
# closed.sql: a workout a day for 10 days from 2026-03-02 (heart rate 150
# every 5 s, 60 minutes), then 30 days of rest; one.sql: a single workout.
# A step count on 2026-04-10 carries the data to the range's end (load
# shows no day past the newest data).
python3 - "$T" <<'PY'
import sys
from datetime import datetime
from zoneinfo import ZoneInfo
LA = ZoneInfo("America/Los_Angeles")
def sql(days, path):
    out = ["BEGIN;", "INSERT INTO source(id, name) VALUES (1, 'Watch');",
           "INSERT OR IGNORE INTO metric(identifier) VALUES ('HKQuantityTypeIdentifierHeartRate');"]
    for d in range(days):
        s = int(datetime(2026, 3, 2 + d, 7, 0, tzinfo=LA).timestamp())
        out.append("INSERT INTO workout(id, activity_type, source_id, start, end)"
                   " VALUES (%d, 'HKWorkoutActivityTypeRunning', 1, %d, %d);" % (d + 1, s, s + 3600))
        for t in range(s, s + 3600, 5):
            out.append("INSERT INTO sample(metric_id, source_id, start, end, value) VALUES"
                       " ((SELECT id FROM metric WHERE identifier = 'HKQuantityTypeIdentifierHeartRate'),"
                       " 1, %d, %d, 150);" % (t, t))
    s = int(datetime(2026, 4, 10, 12, 0, tzinfo=LA).timestamp())
    out.append("INSERT OR IGNORE INTO metric(identifier) VALUES ('HKQuantityTypeIdentifierStepCount');")
    out.append("INSERT INTO sample(metric_id, source_id, start, end, value) VALUES"
               " ((SELECT id FROM metric WHERE identifier = 'HKQuantityTypeIdentifierStepCount'),"
               " 1, %d, %d, 100);" % (s, s + 60))
    out.append("COMMIT;")
    open(path, "w").write("\n".join(out) + "\n")
sql(10, sys.argv[1] + "/closed.sql")
sql(1, sys.argv[1] + "/one.sql")
PY
C=$T/closed.db
O=$T/one.db
store "$C" "$T/closed.sql"
store "$O" "$T/one.sql"
set_=(--max-hr 200 --rest-hr 50 --lthr 170)
HQ_DB=$C hq-report load --from 2026-03-02 --to 2026-04-10 "${set_[@]}" \
    --format csv >"$T/closed.csv"
HQ_DB=$O hq-report load --from 2026-03-02 --to 2026-04-10 "${set_[@]}" \
    --format csv >"$T/one.csv"
HQ_DB=$C hq-query workouts --format jsonl >/dev/null
python3 - "$T" <<'PY' >"$T/closed.tap"
import csv, math, sys
d = sys.argv[1]
a, b = 0.64, 1.92                      # unknown sex: the men's constants
x = (150 - 50) / (200 - 50)
xl = (170 - 50) / (200 - 50)
trimp = 60 * x * a * math.exp(b * x)   # T = 60 min at constant heart rate
L = 100 * trimp / (60 * xl * a * math.exp(b * xl))
k = 1 - math.exp(-1 / 42)
def near(u, v, scale=0):
    return abs(u - v) <= 1e-9 * max(abs(u), abs(v), scale)
def check(name, good):
    print("%s %s" % ("ok" if good else "not ok", name))
many = list(csv.DictReader(open(d + "/closed.csv")))
one = list(csv.DictReader(open(d + "/one.csv")))
check("constant HR for T minutes: load = 100 T x a e^(b x) / (60 x_lt a e^(b x_lt)) = %.10g" % L,
      near(float(one[0]["load"]), L))
check("one load L on day 0: ctl_n = L (1 - e^(-1/42)) e^(-n/42), 40 days",
      all(near(float(r["ctl"]), L * k * math.exp(-n / 42)) for n, r in enumerate(one)))
check("the same L every day: ctl_n = L (1 - e^(-(n+1)/42)), 10 days",
      all(near(float(r["ctl"]), L * (1 - math.exp(-(n + 1) / 42))) for n, r in enumerate(many[:10])))
check("tsb lags one day: tsb_d = ctl_(d-1) - atl_(d-1), tsb_0 = 0",
      float(many[0]["tsb"]) == 0 and all(near(float(many[n]["tsb"]),
      float(many[n - 1]["ctl"]) - float(many[n - 1]["atl"]), float(many[n - 1]["atl"]))
      for n in range(1, 40)))
check("ramp: null for 7 days, then ctl_d - ctl_(d-7)",
      all(r["ramp"] == "" for r in many[:7]) and all(near(float(many[n]["ramp"]),
      float(many[n]["ctl"]) - float(many[n - 7]["ctl"]), float(many[n]["ctl"]))
      for n in range(7, 40)))
PY
while read -r line; do
	case $line in
	ok\ *) ok 0 "${line#ok }" ;;
	*) ok 1 "${line#not ok }" ;;
	esac
done <"$T/closed.tap"
is "$(wc -l <"$T/closed.tap" | tr -d ' ')" 5 "the five closed forms checked"

# ---- the tables and the chart ---------------------------------------------
HQ_DB=$G hq-report load --from 2026-10-18 --to 2026-11-14 --format table >"$T/t"
like "$(head -3 "$T/t")" "max_hr 196 \(store\), rest_hr 55.5 \(store\), lthr 174.9 \(store\)" \
    "load's table says the settings and where they came from"
ok "$(awk 'length > 80' "$T/t" | wc -l)" "load's table fits 80 columns"
HQ_DB=$G hq-report compare workouts --last 4 --format table >"$T/t"
ok "$(awk 'length > 80' "$T/t" | wc -l)" "compare's table of 4 workouts fits 80 columns"
like "$(grep '^field' "$T/t")" "field +11-01 #5 +11-01 #6 +11-05 #7 +11-12 #8" \
    "compare on a terminal: a column per workout, oldest first"
HQ_DB=$G hq-report load --from 2026-10-18 --to 2026-11-14 --format svg >"$T/l.svg"
ok $? "load --format svg"
for s in "fitness (ctl" "fatigue (atl" "form (tsb)" "load (daily)"; do
	grep -qF "$s" "$T/l.svg"
	ok $? "the chart's legend: $s"
done
python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])" "$T/l.svg"
ok $? "the chart is well-formed XML"

# ---- bad input --------------------------------------------------------------
bad() {
	local want=$1 msg=$2
	shift 2
	HQ_DB=$G hq-report "$@" >"$T/out" 2>"$T/err"
	local rc=$?
	is "$rc" "$want" "$* → exit $want"
	like "$(cat "$T/err")" "$msg" "$*: says why"
}
bad 2 "--ftp 0: expected a power in W from 20 to 2500" load --ftp 0
bad 2 "is not above" load --max-hr 50 --rest-hr 60
bad 2 "is not between" load --max-hr 190 --rest-hr 50 --lthr 195
bad 2 "is not between" zones --max-hr 190 --rest-hr 50 --lthr 50
bad 2 "unknown workout type" load --type nosuch
bad 1 "no workouts of swimming in the store" load --type swimming
bad 2 "last" compare workouts --last 1
bad 1 "no workout 999; hq-query workouts lists them" compare workouts --ids 1,999
bad 1 "no workout 999; hq-query workouts lists them" zones 999
bad 2 "bests are for running\|walking\|cycling" bests --type swimming
bad 2 "does not go with" bests --ftp 200
bad 2 "--ids and --last" compare workouts --ids 1,2 --last 3
HQ_DB=$O hq-report bests 2>"$T/err"
is "$? $(cat "$T/err")" "1 hq-report: no routes with times (nor power) in workouts of running, walking or cycling" \
    "bests on a store without routes: exit 1"
mkdir -p "$XDG_CONFIG_HOME/hq"
printf '[athlete]\nmax_hr = lots\n' >"$XDG_CONFIG_HOME/hq/config"
bad 2 "config:2: \[athlete\] max_hr = lots: expected a heart rate" load
printf '[athlete]\nmax_hr = 188\nrest_hr = 45\n' >"$XDG_CONFIG_HOME/hq/config"
HQ_DB=$G hq-report load --from 2026-11-12 --to 2026-11-12 --format jsonl >"$T/out"
like "$(cat "$T/out")" '"max_hr":188,"rest_hr":45,"lthr":166.55,"basis":"config"' \
    "[athlete] in the config: used, lthr from them (as sure as they are: config)"
agree "$G" load --from 2026-11-10 --to 2026-11-12 --max-hr 188 --rest-hr 45
printf '[athlete]\nzones = 115, 135, 152, 168\nsex = female\n' >"$XDG_CONFIG_HOME/hq/config"
HQ_DB=$G hq-report zones --from 2026-10-01 --to 2026-11-30 --format jsonl >"$T/hq.jsonl"
python3 "$REF" rows "$G" $TZ_ zones --from 2026-10-01 --to 2026-11-30 \
    --zones 115,135,152,168 >"$T/ref.jsonl"
python3 "$REF" same "$T/hq.jsonl" "$T/ref.jsonl"
ok $? "[athlete] zones in the config: the zones' edges and minutes as the reference"
like "$(head -3 "$T/hq.jsonl" | tail -1)" '"zone":2,"lo_bpm":115,"hi_bpm":135,' "zone 2 from the configured 115 to 135"

done_testing
