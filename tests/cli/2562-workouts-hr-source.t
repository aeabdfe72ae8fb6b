#!/usr/bin/env bash
# A workout without a heart-rate statistic of its own: hq-query workouts
# averages the heart-rate samples recorded during it from one source
# (hq-query(1), WORKOUTS), the workout's own when it has samples
# there, else the source with the most (equal counts: the first stored),
# never every source's together. Hand-made export: a run by "Watch" with
# 2 of its own samples (100, 110) and 3 of "Strap" (150, 150, 150) inside
# it: 105 and 110, not (100+110+450)/5 = 132; a ride by "Bike App" with
# none of its own, 2 of "Watch" (120, 130) and 3 of "Strap" (90, 95, 91):
# the strap's, (90+95+91)/3 = 92 and 95, not 105.2; a walk by "Phone"
# with one each of "Strap" (80) and "Watch" (70): the tie goes to the
# first stored source (Watch): 70.
. "$(dirname "$0")/lib.sh"

rec() {   # rec SOURCE TIME VALUE
	printf ' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="%s" unit="count/min" creationDate="2026-03-0%s -0000" startDate="2026-03-0%s -0000" endDate="2026-03-0%s -0000" value="%s"/>\n' "$1" "$2" "$2" "$2" "$3"
}
work() {  # work TYPE SOURCE START END
	printf ' <Workout workoutActivityType="HKWorkoutActivityType%s" duration="60" durationUnit="min" sourceName="%s" creationDate="2026-03-0%s -0000" startDate="2026-03-0%s -0000" endDate="2026-03-0%s -0000"/>\n' "$1" "$2" "$4" "$3" "$4"
}
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
	printf ' <ExportDate value="2026-03-09 09:00:00 -0000"/>\n'
	rec Watch "2 10:00:00" 60          # outside every workout
	rec Watch "1 08:10:00" 100
	rec Strap "1 08:11:00" 150
	rec Watch "1 08:20:00" 110
	rec Strap "1 08:21:00" 150
	rec Strap "1 08:31:00" 150
	rec Watch "2 08:10:00" 120
	rec Strap "2 08:11:00" 90
	rec Watch "2 08:20:00" 130
	rec Strap "2 08:21:00" 95
	rec Strap "2 08:31:00" 91
	rec Strap "3 08:11:00" 80
	rec Watch "3 08:21:00" 70
	work Running Watch "1 08:00:00" "1 09:00:00"
	work Cycling "Bike App" "2 08:00:00" "2 09:00:00"
	work Walking Phone "3 08:00:00" "3 09:00:00"
	printf '</HealthData>\n'
} >"$T/export.xml"
run hq-ingest -q "$T/export.xml"
is "$rc" 0 "the export imports"
hr() {
	hq-query workouts --type "$1" --format jsonl | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
print(r["avg_hr"], r["max_hr"])'
}
is "$(hr running)" "105 110" "the run: its own source's two (Watch), not the strap's too"
is "$(hr cycling)" "92 95" "the ride: none of its own, the source with the most (Strap)"
is "$(hr walking)" "70 70" "the walk: one each, the first stored source (Watch)"
done_testing
