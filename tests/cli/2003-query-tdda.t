#!/usr/bin/env bash
# The tdda fixture: export6s3sample.xml and the CSVs that tool wrote from
# it, one line per record (tdda/applehealthdata). hq-query over the
# ingested export must agree with sums and counts made from those CSVs.
#
# Why there is no difference to explain away: every record has one source
# ("Health"), so the source merge changes nothing; every interval is a few
# seconds inside one day, so nothing is split at midnight; and the records
# (September 2014) and the export (21 September 2014) were both written in
# British Summer Time, so the offset in the file (+0100) is the real
# offset and the CSV's dates are the local dates in Europe/London. In
# another zone the days would differ, and the CSV would be the one that is
# wrong: it keeps the export's offset.
. "$(dirname "$0")/lib.sh"

dir="$HQ_FIXTURES/apple-health/tdda"
need_fixtures apple-health/tdda/export6s3sample.xml apple-health/tdda/StepCount.csv \
    apple-health/tdda/DistanceWalkingRunning.csv
command -v hq-ingest >/dev/null || skip_all "hq-ingest not built"
export HQ_TZ=Europe/London

hq-ingest -q "$dir/export6s3sample.xml" >/dev/null
ok $? "ingested export6s3sample.xml"

# csv_by_day FILE: "date total count" per day, from the CSV's startDate.
csv_by_day() {
	python3 - "$1" <<'PY'
import csv, sys
tot = {}
for r in csv.DictReader(open(sys.argv[1])):
    d = r["startDate"][:10]
    t = tot.setdefault(d, [0.0, 0])
    t[0] += float(r["value"])
    t[1] += 1
for d in sorted(tot):
    print("%s %.10g %d" % (d, tot[d][0], tot[d][1]))
PY
}
rows_by_day() {
	python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print("%s %.10g %d" % (r["period"], r["sum"], r["count"]))'
}

is "$(hq-query steps --by day --agg sum,count | rows_by_day)" "$(csv_by_day "$dir/StepCount.csv")" \
	"steps per day and sample count = StepCount.csv summed by date"
is "$(hq-query distance --by day --agg sum,count | rows_by_day)" "$(csv_by_day "$dir/DistanceWalkingRunning.csv")" \
	"distance (km) per day = DistanceWalkingRunning.csv summed by date"
is "$(hq-query steps | python3 -c 'import json,sys; print(" ".join("%g" % json.loads(l)["value"] for l in sys.stdin))')" \
	"$(tail -n +2 "$dir/StepCount.csv" | awk -F, '{printf "%s%s", s, $NF; s=" "} END {print ""}')" \
	"each StepCount record is one row, in order, with its value"
is "$(hq-query steps --agg sum | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["period"])')" \
	"2014-09-13/2014-09-13" "all of it on the 13th"

# The one workout: 31.74 min, 0 km, 139.3 kcal (Workout.csv).
w=$(hq-query workouts)
like "$w" '"type":"other"' "the workout is listed with its type"
like "$w" '"duration_min":31\.7[0-9]*' "its duration as Workout.csv says (31.737 min)"
like "$w" '"energy_kcal":139\.3' "its energy (139.317 kcal)"
like "$w" '"distance_km":0[,}]' "its distance (0 km)"
done_testing
