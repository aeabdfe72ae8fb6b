#!/usr/bin/env bash
# hq-ingest on the real Apple Health fixtures (export versions 3, 8-era, 11,
# 12 with iOS 16's broken DTD), a malformed DTD, U+000B in attributes, a
# localised 导出.xml in a zip with the routes before it, idempotency.
. "$(dirname "$0")/lib.sh"
A=$HQ_FIXTURES/apple-health
need_fixtures apple-health/dogsheep/export.xml apple-health/jshrake/export.zip \
    apple-health/jshrake/apple_health_export/export.xml apple-health/aleksi/testdata.xml \
    apple-health/tdda/export6s3sample.xml apple-health/tdda/StepCount.csv \
    apple-health/dogsheep/zip_contents/apple_health_export

q() { sqlite3 "$HQ_DB" "$1"; }
field() { printf '%s' "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(str(d[k]) for k in sys.argv[1:]))' "${@:2}"; }

# dogsheep: no DTD, old Workout total* attributes, inline Location route.
run hq-ingest "$A/dogsheep/export.xml"
is "$rc" 0 "dogsheep export.xml imports"
is "$(field "$out" format records inserted workouts activity_summaries route_points)" \
   "apple-xml 2 2 1 2 2" "dogsheep: 2 records, 1 workout, 2 summaries, 2 inline route points"
is "$(q "select activity_type, round(distance,1), round(energy,3), round(duration,1) from workout")" \
   "HKWorkoutActivityTypeRunning|800.1|48.745|311.6" "old workout totals: 0.497 mi in metres, kcal, 5.19 min in seconds"
is "$(q "select value from workout_meta where key='HKTimeZone'")" "America/Los_Angeles" "HKTimeZone metadata is kept"
is "$(q "select count(*) from route_point where lat between 37 and 38 and time is not null")" 2 "inline Location points with times"
is "$(q "select start from workout")" 1479133541 "2016-11-14 07:25:41 -0700 (the export-time offset) is stored as UTC"
is "$(q "select count(*) from device where descr like '%0x%'")" 0 "device pointer addresses are dropped"
is "$(q "select count(*) from me")" 4 "Me: the characteristics are kept"

run hq-ingest "$A/dogsheep/export.xml"
is "$(field "$out" inserted duplicates workouts_inserted)" "0 2 0" "the same file again: nothing new"
is "$(q 'select count(*) from route_point')" 2 "and no route point twice"

# jshrake: export version 12, iOS 16's malformed DTD, WorkoutStatistics,
# a GPX route after the XML in the zip, __MACOSX entries.
xmllint --noout "$A/jshrake/apple_health_export/export.xml" 2>/dev/null
ok "$([ $? -ne 0 ]; echo $?)" "(libxml2 alone rejects the jshrake export's DTD)"
run hq-ingest "$A/jshrake/export.zip"
is "$rc" 0 "jshrake export.zip (v12, broken DTD) imports"
is "$(field "$out" format records workouts activity_summaries routes route_points)" \
   "apple-zip 1 1 10 1 644" "jshrake: 1 record, 1 workout, 10 summaries, the GPX's 644 points"
is "$(q "select export_version from import order by id desc limit 1")" 12 "the export version is read from the DTD"
is "$(q "select count(*) from workout_stat w join workout x on x.id=w.workout_id where x.activity_type='HKWorkoutActivityTypeWalking'")" \
   3 "WorkoutStatistics are stored"
is "$(q "select round(distance) from workout where activity_type='HKWorkoutActivityTypeWalking'")" \
   "2256.0" "an iOS 16 workout gets its distance (1.402 mi) from its statistics"
is "$(q "select count(*) from route r join workout w on w.id=r.workout_id where r.file like '%route_2020-02-24_10.18am.gpx' and r.start is not null")" \
   1 "the GPX file is linked to its workout"
run hq-ingest "$A/jshrake/export.zip"
is "$(field "$out" inserted route_points)" "0 0" "jshrake again: nothing new"

# AlekSi: ru_RU locale, Cyrillic source names.
run hq-ingest "$A/aleksi/testdata.xml"
is "$(field "$out" records inserted)" "2 2" "aleksi testdata.xml (ru_RU) imports"
is "$(q "select count(*) from source where name='Здоровье'")" 1 "a Cyrillic source name survives"
is "$(q "select locale from import order by id desc limit 1")" ru_RU "the locale is recorded"

# tdda: export version 3 (iOS 9).
run hq-ingest "$A/tdda/export6s3sample.xml"
is "$(field "$out" records inserted workouts)" "15 15 1" "tdda export version 3 imports"
is "$(q "select export_version from import order by id desc limit 1")" 3 "version 3 is read from its comment"
# Its own CSV output says the step counts sum to this.
want=$(awk -F, 'NR > 1 { s += $NF } END { print s }' "$A/tdda/StepCount.csv")
is "$(q "select cast(sum(value) as int) from sample s join metric m on m.id=s.metric_id where identifier='HKQuantityTypeIdentifierStepCount' and s.import_id=(select max(id) from import)")" \
   "$want" "tdda step counts sum as in tdda's own CSV"

# dogsheep zip_contents, zipped here with the GPX entry before the XML and
# the XML named 导出.xml (a Chinese-language export).
python3 - "$A/dogsheep/zip_contents/apple_health_export" "$T/cn.zip" <<'P'
import sys, zipfile, os
src, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.write(os.path.join(src, "workout-routes/route_2019-06-11_3.00pm.gpx"),
            "apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx")
    z.writestr("__MACOSX/apple_health_export/._导出.xml", b"\0\5\26\7junk")
    z.write(os.path.join(src, "export.xml"), "apple_health_export/导出.xml")
P
rm -f "$HQ_DB"
run hq-ingest "$T/cn.zip"
is "$rc" 0 "a zip whose export is named 导出.xml imports"
is "$(field "$out" format records workouts route_points)" "apple-zip 2 1 3" \
   "the GPX before the XML is still linked (3 points)"
is "$(q "select count(*) from route_point p join route r on r.id=p.route_id where r.file='/workout-routes/route_2019-06-11_3.00pm.gpx'")" \
   3 "route points belong to the FileReference route"
run sh -c "hq-ingest - <'$T/cn.zip'"
is "$rc" 0 "the same zip on stdin"
is "$(field "$out" inserted route_points)" "0 0" "stdin: nothing new"

# The iOS 16 malformed DTD, written here (tests/data).
rm -f "$HQ_DB"
xmllint --noout "$HQ_ROOT/tests/data/ios16-broken-dtd.xml" 2>/dev/null
ok "$([ $? -ne 0 ]; echo $?)" "(libxml2 alone rejects tests/data/ios16-broken-dtd.xml)"
run hq-ingest "$HQ_ROOT/tests/data/ios16-broken-dtd.xml"
is "$(field "$out" records inserted)" "3 3" "a malformed iOS 16 DTD imports"
is "$(q "select value from sample s join metric m on m.id=s.metric_id where identifier='HKQuantityTypeIdentifierOxygenSaturation'")" \
   "97.0" "Apple's 0.97 for % is stored as 97 %"
is "$(q "select text||' '||value from sample where text<>''")" "asleep_core 3.0" "a sleep stage: name and code"

# U+000B (and other C0 controls) inside attribute values.
printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n<Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Sca\013le" unit="kg" startDate="2023-01-01 08:00:00 +0100" endDate="2023-01-01 08:00:00 +0100" value="70.2">\n<MetadataEntry key="note" value="a\013b\001c"/>\n</Record>\n</HealthData>\n' >"$T/vt.xml"
xmllint --noout "$T/vt.xml" 2>/dev/null
ok "$([ $? -ne 0 ]; echo $?)" "(libxml2 alone rejects U+000B)"
run hq-ingest "$T/vt.xml"
is "$rc" 0 "U+000B in attribute values: imports"
is "$(field "$out" inserted control_chars)" "1 3" "the control characters are dropped and counted"
is "$(q "select value from sample_meta where key='note'")" "abc" "metadata without them"
is "$(q "select count(*) from source where name='Scale'")" 1 "source name without them"

# Correlations are counted once and linked to the top-level records.
cat >"$T/bp.xml" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" startDate="2023-02-01 08:00:00 -0800" endDate="2023-02-01 08:00:00 -0800">
  <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Omron" unit="mmHg" startDate="2023-02-01 08:00:00 -0800" endDate="2023-02-01 08:00:00 -0800" value="121"/>
  <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Omron" unit="mmHg" startDate="2023-02-01 08:00:00 -0800" endDate="2023-02-01 08:00:00 -0800" value="79"/>
 </Correlation>
 <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Omron" unit="mmHg" startDate="2023-02-01 08:00:00 -0800" endDate="2023-02-01 08:00:00 -0800" value="121"/>
 <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Omron" unit="mmHg" startDate="2023-02-01 08:00:00 -0800" endDate="2023-02-01 08:00:00 -0800" value="79"/>
 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2023-02-01 08:00:00 -0800" endDate="2023-02-01 08:00:00 -0800" value="60"/>
 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2023-02-01 08:00:00 -0800" endDate="2023-02-01 08:00:00 -0800" value="60"/>
 <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" unit="ms" startDate="2023-02-01 09:00:00 -0800" endDate="2023-02-01 09:01:00 -0800" value="41.5">
  <HeartRateVariabilityMetadataList>
   <InstantaneousBeatsPerMinute bpm="62" time="09:00:01,50"/>
   <InstantaneousBeatsPerMinute bpm="64" time="09:00:02.40"/>
  </HeartRateVariabilityMetadataList>
 </Record>
 <Record type="HKQuantityTypeIdentifierFutureThing" sourceName="W" unit="zorks" startDate="2023-02-01 09:00:00 -0800" endDate="2023-02-01 09:00:00 -0800" value="3"/>
 <Record type="HKCategoryTypeIdentifierHighHeartRateEvent" sourceName="W" startDate="2023-02-01 10:00:00 -0800" endDate="2023-02-01 10:00:00 -0800"/>
 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2023-02-01 11:00:00 -0800" endDate="2023-02-01 11:00:00 -0800" value="fast"/>
</HealthData>
X
rm -f "$HQ_DB"
run hq-ingest "$T/bp.xml"
# The correlation comes first: its records are stored then, and their
# top-level copies count as duplicates.
is "$(field "$out" records inserted duplicates skipped correlations)" "8 4 3 1 1" \
   "correlation members are not extra records; an exact duplicate is stored once; a bad value is skipped"
like "$err" "bp\.xml:19: .*value 'fast' is not a number" "the skipped record is named by file:line"
like "$(sed -n 19p "$T/bp.xml")" 'value="fast"' "(line 19 is that record)"
is "$(q 'select count(*) from sample')" 6 "6 samples stored (2 blood pressure, 4 others)"
is "$(q 'select count(*) from correlation_member')" 2 "the correlation links its two top-level records"
is "$(q "select group_concat(bpm||'@'||time_of_day, ' ') from (select * from hrv_beat order by seq)")" \
   "62.0@32401.5 64.0@32402.4" "HRV beats with their time of day"
is "$(q "select count(*) from metric where identifier='HKQuantityTypeIdentifierFutureThing'")" 1 "an unknown type is kept under its identifier"

# HKDataType* records (no "TypeIdentifier" in the name) are records too.
printf '<?xml version="1.0"?>\n<HealthData locale="en_US">\n<Record type="HKDataTypeSleepDurationGoal" sourceName="Health" unit="hr" startDate="2023-01-01 08:00:00 +0100" endDate="2023-01-01 08:00:00 +0100" value="8"/>\n</HealthData>\n' >"$T/dt.xml"
run hq-ingest "$T/dt.xml"
is "$(q "select value||' '||unit from sample s join metric m on m.id=s.metric_id where identifier='HKDataTypeSleepDurationGoal'")" \
   "8.0 hr" "an HKDataType record is stored under its identifier"
# ClinicalRecord with its FHIR resource, one JSON before the XML in the zip
# and one after it; a Me element; an Audiogram (not kept, not fatal).
mkdir -p "$T/cr"
cat >"$T/cr/export.xml" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <ExportDate value="2024-01-02 10:00:00 +0100"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-06" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
 <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="a1" sourceName="Clinic" sourceURL="https://fhir.example/a1" fhirVersion="4.0.1" receivedDate="2023-12-01 09:00:00 +0100" resourceFilePath="/clinical-records/Observation-A1.json"/>
 <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="b2" sourceName="Clinic" sourceURL="https://fhir.example/b2" fhirVersion="4.0.1" receivedDate="2023-12-01 09:00:00 +0100" resourceFilePath="/clinical-records/Observation-B2.json"/>
 <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Mimi" startDate="2023-12-01 09:00:00 +0100" endDate="2023-12-01 09:00:00 +0100"><SensitivityPoint frequencyValue="500"/></Audiogram>
</HealthData>
X
printf '{"resourceType":"Observation","id":"A1","code":{"text":"LDL"},"valueQuantity":{"value":96,"unit":"mg/dL"}}' >"$T/cr/a1.json"
printf '{"resourceType":"Observation","id":"B2","code":{"text":"HbA1c"},"valueQuantity":{"value":5.4,"unit":"%%"}}' >"$T/cr/b2.json"
python3 - "$T/cr" <<'P'
import sys, zipfile, os
d = sys.argv[1]
with zipfile.ZipFile(os.path.join(d, "cr.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    z.write(os.path.join(d, "a1.json"), "apple_health_export/clinical-records/Observation-A1.json")
    z.write(os.path.join(d, "export.xml"), "apple_health_export/export.xml")
    z.write(os.path.join(d, "b2.json"), "apple_health_export/clinical-records/Observation-B2.json")
P
rm -f "$HQ_DB"
run hq-ingest "$T/cr/cr.zip"
is "$rc" 0 "an export with clinical records imports"
is "$(field "$out" clinical_records)" 2 "two clinical records"
is "$(q "select identifier, json_extract(resource, '$.code.text') from clinical_record order by identifier")" \
   "$(printf 'a1|LDL\nb2|HbA1c')" "each gets its FHIR JSON, before or after the XML in the zip"
is "$(q "select value from me where key='HKCharacteristicTypeIdentifierBiologicalSex'")" \
   HKBiologicalSexFemale "Me is stored"
run hq-ingest "$T/cr/cr.zip"
is "$(q 'select count(*) from clinical_record')" 2 "clinical records are not added twice"
is "$(sqlite3 "$HQ_DB" 'PRAGMA foreign_key_check')" "" "every reference resolves (hq-ingest writes without the foreign keys' look-ups)"
# An unzipped export (issue 18): export.xml with workout-routes/ and
# clinical-records/ beside it reads them as the zip does.
rm -f "$HQ_DB"
run hq-ingest "$A/jshrake/export.zip"
zip_points=$(field "$out" route_points)
HQ_DB=$T/zip.db hq-ingest -q "$A/jshrake/export.zip" >/dev/null
HQ_DB=$T/zip.db hq-query workout last --format gpx >"$T/zip.gpx"
rm -f "$HQ_DB"
run hq-ingest "$A/jshrake/apple_health_export/export.xml"
is "$rc" 0 "the unzipped jshrake export.xml imports"
is "$(field "$out" format routes route_points)" "apple-xml 1 $zip_points" \
   "its route has the points of workout-routes/*.gpx beside it, as the zip's ($zip_points)"
run hq-query workout last --format gpx
is "$(printf '%s\n' "$out" | grep -c '<trkpt')" "$zip_points" "hq-query workout --format gpx has them"
is "$(printf '%s\n' "$out" | cmp - "$T/zip.gpx" >/dev/null && echo same)" same \
   "the same GPX as from the zip"
rm -f "$HQ_DB"
run hq-ingest "$A/dogsheep/zip_contents/apple_health_export/export.xml"
is "$(field "$out" routes route_points)" "1 3" "dogsheep's unzipped export: the GPX's 3 points, as its zip (above)"
run sh -c "hq-ingest - <'$A/jshrake/apple_health_export/export.xml'"
is "$(field "$out" route_points)" 0 "an export.xml on stdin has no directory: no side files are read"
rm -f "$HQ_DB"
mkdir -p "$T/cru/clinical-records"
cp "$T/cr/export.xml" "$T/cru/export.xml"
printf '{"resourceType":"Observation","id":"A1","status":"final","code":{"text":"LDL"},"effectiveDateTime":"2023-11-30T08:00:00Z","valueQuantity":{"value":96,"unit":"mg/dL"}}' \
    >"$T/cru/clinical-records/Observation-A1.json"
printf '{"resourceType":"Observation","id":"B2","status":"final","code":{"text":"HbA1c"},"effectiveDateTime":"2023-11-30T08:00:00Z","valueQuantity":{"value":5.4,"unit":"%%"}}' \
    >"$T/cru/clinical-records/Observation-B2.json"
run hq-ingest "$T/cru/export.xml"
is "$(field "$out" clinical_records lab_results)" "2 2" "clinical-records/*.json beside export.xml: two records, their two lab results"
is "$(q "select identifier, json_extract(resource, '$.code.text') from clinical_record order by identifier")" \
   "$(printf 'a1|LDL\nb2|HbA1c')" "each record gets its FHIR JSON"

run hq-ingest "$T/cru/export.xml"
is "$(field "$out" records inserted duplicates lab_results)" "2 0 2 2" \
   "the unzipped export again: its two lab results counted again, as duplicates"

# Bounds: a path in the XML is compared with the files found under
# workout-routes/, never opened; a link out of the directory is not read.
mkdir -p "$T/bd/exp/workout-routes"
gpx() { printf '<?xml version="1.0"?>\n<gpx version="1.1"><trk><trkseg>%s</trkseg></trk></gpx>\n' "$1"; }
pt='<trkpt lat="37.1" lon="-122.1"><time>2023-01-01T08:00:00Z</time></trkpt>'
gpx "$pt" >"$T/bd/exp/workout-routes/good.gpx"
gpx "$pt$pt$pt$pt$pt" >"$T/bd/outside.gpx"
ln -s ../../outside.gpx "$T/bd/exp/workout-routes/link.gpx"
{
	printf '<?xml version="1.0"?>\n<HealthData locale="en_US">\n'
	i=0
	for ref in /workout-routes/good.gpx /../outside.gpx \
	    /workout-routes/../../outside.gpx "$T/bd/outside.gpx" \
	    /workout-routes/link.gpx; do
		i=$((i + 1))
		printf ' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="W" duration="10" durationUnit="min" startDate="2023-01-0%d 08:00:00 +0000" endDate="2023-01-0%d 08:10:00 +0000">\n' $i $i
		printf '  <WorkoutRoute sourceName="W" startDate="2023-01-0%d 08:00:00 +0000" endDate="2023-01-0%d 08:10:00 +0000"><FileReference path="%s"/></WorkoutRoute>\n </Workout>\n' $i $i "$ref"
	done
	printf '</HealthData>\n'
} >"$T/bd/exp/export.xml"
rm -f "$HQ_DB"
run hq-ingest "$T/bd/exp/export.xml"
is "$rc" 0 "an export whose FileReferences leave its directory imports"
is "$(field "$out" routes route_points)" "5 1" \
   "only the route inside workout-routes/ is read ('..', an absolute path, a link out: not)"
is "$(q "select r.file from route r join route_point p on p.route_id = r.id")" \
   /workout-routes/good.gpx "the one read is good.gpx"
done_testing
