#!/usr/bin/env bash
# Apple Health's clinical records become lab results: a generated export
# with lab ClinicalRecords and their FHIR files; the same results as a lab
# CSV stored once; two health systems with the same resource id both kept
# (UNIQUE(type, identifier) used to keep one); and a store from before lab
# results gets its clinical records read on its next import.
. "$(dirname "$0")/lib.sh"
command -v hq-report >/dev/null && command -v gen-export >/dev/null ||
	skip_all "hq-report or gen-export is not built"

q() { sqlite3 "$HQ_DB" "$1"; }

gen-export --zip --days 3 --start 2025-03-01 --clinical --labs "$T/labs.csv" \
	--dexa "$T/dexa.json" -o "$T/export.zip"
ok $? "an export with clinical records, a lab history and DEXA scans"

run hq-ingest "$T/export.zip"
is "$rc" 0 "the export imports"
like "$out" '"clinical_records":3,' "three clinical records"
like "$out" '"lab_results":3,' "their resources read into three lab results"
run hq-report latest labs ldl glucose
is "$(rows "' '.join('%s:%s:%s:%s' % (x['test'], x['value'], x['flag'], x['source']) for x in r)")" \
	"ldl:94:N:Stanford Health Care glucose:97:N:Stanford Health Care" \
	"an R4 and a DSTU2 record, the health system as their source"
n=$(q 'select count(*) from lab_result')
run hq-ingest "$T/export.zip"
like "$out" '"inserted":0,.*"lab_results":3,' \
	"the same export again: nothing new, its three lab results counted again (issue 18)"
is "$(q 'select count(*) from lab_result')" "$n" "and none stored twice"

run hq-ingest "$T/labs.csv" "$T/dexa.json"
is "$rc" 0 "the lab history and the scans"
like "$(printf '%s\n' "$out" | head -1)" '"records":35,"inserted":33,"duplicates":2' \
	"the newest LDL and HbA1c, in the export too, are stored once"
run hq-report trend labs ldl
is "$(rows "len(r), sum(1 for x in r if x['method_change'])")" "7 1" \
	"seven LDLs, the change from calculated to direct marked"
is "$(rows "r[3]['unit'], '%.4f' % r[3]['value']")" "mg/dL $(awk 'BEGIN { printf "%.4f", 3.3 * 38.67 }')" \
	"the visit in mmol/L shown in mg/dL, the newest result's unit"
run hq-report compare dexa
is "$rc" 0 "three scans: the last two compared"

# Two health systems, one resource id (Apple writes each system's ids).
mkdir -p "$T/two/apple_health_export/clinical-records"
cat >"$T/two/apple_health_export/export.xml" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <ExportDate value="2024-06-01 09:00:00 -0700"/>
 <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="obs-42" sourceName="UCSF Health" sourceURL="https://ucsf.example/fhir/R4" fhirVersion="4.0.1" receivedDate="2024-05-20 10:00:00 -0700" resourceFilePath="/clinical-records/Observation-obs-42.json"/>
 <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="obs-42" sourceName="Kaiser Permanente" sourceURL="https://kp.example/fhir/R4" fhirVersion="4.0.1" receivedDate="2024-05-21 10:00:00 -0700" resourceFilePath="/clinical-records/Observation-obs-42-1.json"/>
 <ClinicalRecord type="Observation" identifier="obs-7" sourceName="Kaiser Permanente" sourceURL="https://kp.example/fhir/DSTU2" fhirVersion="1.0.2" receivedDate="2018-05-21 10:00:00 -0700" resourceFilePath="/clinical-records/Observation-obs-7.json"/>
 <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="bp-1" sourceName="UCSF Health" sourceURL="https://ucsf.example/fhir/R4" fhirVersion="4.0.1" receivedDate="2024-05-20 10:00:00 -0700" resourceFilePath="/clinical-records/Observation-bp-1.json"/>
</HealthData>
X
cr=$T/two/apple_health_export/clinical-records
printf '%s' '{"resourceType":"Observation","id":"obs-42","status":"final","category":[{"coding":[{"code":"laboratory"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"2085-9"}],"text":"HDL"},"effectiveDateTime":"2024-05-01T08:00:00-07:00","valueQuantity":{"value":52,"unit":"mg/dL"},"referenceRange":[{"low":{"value":40}}]}' >"$cr/Observation-obs-42.json"
printf '%s' '{"resourceType":"Observation","id":"obs-42","status":"final","category":[{"coding":[{"code":"laboratory"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"2085-9"}],"text":"HDL"},"effectiveDateTime":"2024-03-10T08:00:00-07:00","valueQuantity":{"value":38,"unit":"mg/dL"},"referenceRange":[{"low":{"value":40}}]}' >"$cr/Observation-obs-42-1.json"
printf '%s' '{"resourceType":"Observation","id":"obs-7","status":"final","category":{"coding":[{"system":"http://hl7.org/fhir/observation-category","code":"laboratory"}]},"code":{"coding":[{"system":"http://loinc.org","code":"2085-9"}]},"effectiveDateTime":"2018-04-02","valueQuantity":{"value":1.2,"unit":"mmol/L"}}' >"$cr/Observation-obs-7.json"
printf '%s' '{"resourceType":"Observation","id":"bp-1","status":"final","category":[{"coding":[{"code":"vital-signs"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"8480-6"}]},"effectiveDateTime":"2024-05-01","valueQuantity":{"value":120,"unit":"mmHg"}}' >"$cr/Observation-bp-1.json"
(cd "$T/two" && python3 -c 'import sys, zipfile, os
z = zipfile.ZipFile("export.zip", "w")
for d, _, fs in os.walk("apple_health_export"):
    for f in fs: z.write(os.path.join(d, f))
z.close()')
HQ_DB=$T/two.db run hq-ingest "$T/two/export.zip"
is "$rc" 0 "an export with one resource id from two health systems"
is "$(sqlite3 "$T/two.db" 'select count(*) from clinical_record')" 4 "every clinical record kept (the id twice)"
HQ_DB=$T/two.db run hq-report trend labs hdl
is "$(rows "' '.join('%s:%s:%s' % (x['date'], x['value'], x['flag']) for x in r)")" \
	"2018-04-02:46.404: 2024-03-10:38:L 2024-05-01:52:N" \
	"both systems' HDL, and an old export's type=\"Observation\" (1.2 mmol/L × 38.67, no range)"
HQ_DB=$T/two.db run hq-report latest labs
is "$(rows "' '.join(x['test'] for x in r)")" "hdl" "a vital sign is no lab result, whatever Apple's type says"

# A store from before lab results (schema version 3): the migrations from
# the reports one (4) on undone (5, the views; 6, the time zones), the
# clinical record table as it was (UNIQUE(type, identifier)).
HQ_DB=$T/old.db run hq-ingest "$T/two/export.zip"
sqlite3 "$T/old.db" "
DROP VIEW samples; DROP VIEW daily; DROP VIEW workouts; DROP TABLE catalog;
DROP TABLE time_zone;
DROP TABLE dexa_value; DROP TABLE lab_result; DROP TABLE report;
DROP TABLE rollup_vals; DROP TABLE rollup_vals_state; DROP TABLE rollup_merged_q; DROP TABLE rollup_merged_q_metric;
CREATE TABLE cr_old (id INTEGER PRIMARY KEY, type TEXT NOT NULL,
  identifier TEXT NOT NULL, source_id INTEGER REFERENCES source(id),
  source_url TEXT, fhir_version TEXT, received INTEGER, resource_path TEXT,
  resource TEXT, import_id INTEGER REFERENCES import(id),
  UNIQUE (type, identifier));
INSERT OR IGNORE INTO cr_old SELECT id, type, identifier, source_id, source_url,
  fhir_version, received, resource_path, resource, import_id FROM clinical_record;
DROP TABLE clinical_record; ALTER TABLE cr_old RENAME TO clinical_record;
PRAGMA user_version = 3;"
is "$(sqlite3 "$T/old.db" 'select count(*) from clinical_record')" 3 "the old store kept one of the two obs-42"
HQ_DB=$T/old.db run hq-report list
is "$rc" 2 "hq-report on the old store: exit 2"
like "$err" "run hq-ingest once to upgrade it" "and says how to upgrade it"
printf '{"metric":"weight","start":"2024-06-02T07:00:00Z","value":70}\n' >"$T/w.jsonl"
HQ_DB=$T/old.db run hq-ingest "$T/w.jsonl"
is "$rc" 0 "the next import, of anything, upgrades the store"
like "$out" '"lab_results":2,' "and reads the clinical records already there (no re-import)"
HQ_DB=$T/old.db run hq-report trend labs hdl
is "$(rows "len(r)")" 2 "their lab results are there"
HQ_DB=$T/old.db run hq-ingest "$T/two/export.zip"
like "$out" '"records":3,"inserted":1,"duplicates":2,.*"lab_results":3,' \
	"the export again brings the record the old key had lost (and counts all three it holds)"
HQ_DB=$T/old.db run hq-report trend labs hdl
is "$(rows "len(r)")" 3 "and its result"
done_testing
