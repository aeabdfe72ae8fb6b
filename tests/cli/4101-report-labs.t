#!/usr/bin/env bash
# Lab results in and out: the real FHIR files of tests/fixtures/labs,
# lab CSV and JSON lines; flags at the limits, units converted per
# analyte, trends, the same result stored once whatever the file, and bad
# input (a file rejected whole, naming file:line; unknown tests and units).
. "$(dirname "$0")/lib.sh"
command -v hq-report >/dev/null || skip_all "hq-report is not built"
L=$HQ_FIXTURES/labs
D=$HQ_ROOT/tests/cli/data/labs
need_fixtures labs/us-core labs/hl7-r4

q() { sqlite3 "$HQ_DB" "$1"; }

# --- the real files ---------------------------------------------------------
run hq-ingest "$L"/us-core/*.json "$L"/hl7-r4/*.json
is "$rc" 0 "every FHIR fixture imports"
is "$(printf '%s\n' "$out" | grep -c '"format":"fhir"')" 11 "eleven files read as FHIR"
like "$err" "diagnosticreport-example-lri.json: 4 resources are not lab results" \
	"the LRI bundle's gram stains without a value are skipped, said once"

run hq-report latest labs chloride creatinine calcium sodium
is "$rc" 0 "latest labs for four tests"
is "$(rows "' '.join('%s=%s' % (x['test'], x['flag']) for x in r)")" \
	"chloride=N creatinine=H calcium=L sodium=N" \
	"flags from each result's own range: chloride 105 on its upper limit 105 is N"
is "$(rows "r[0]['value'], r[0]['ref_low'], r[0]['ref_high'], r[0]['unit'], r[0]['loinc'], r[0]['date']")" \
	"105 95 105 mmol/L 2075-0 2005-07-05" "chloride: value, range, unit, code, a date without a time"

# Glucose: 76 mg/dL in 2005 (US Core), 6.3 mmol/L in 2013 (f001, 15074-8).
run hq-report latest labs glucose
is "$(rows "r[0]['value'], r[0]['unit'], r[0]['loinc'], r[0]['flag'], r[0]['date']")" \
	"6.3 mmol/L 15074-8 H 2013-04-02" "the newest glucose, as the lab wrote it (f001: effectivePeriod.start)"
run hq-report latest labs glucose --unit mg/dL
want=$(awk 'BEGIN { printf "%.4f %.4f", 6.3 * 18.016, 6.2 * 18.016 }')
is "$(rows "'%.4f %.4f' % (r[0]['value'], r[0]['ref_high'])")" "$want" \
	"--unit mg/dL: value and limit × 18.016 (glucose's own factor)"
run hq-report trend labs glucose
is "$rc" 0 "trend labs glucose"
want=$(awk 'BEGIN { printf "%.6f %.6f", 76 / 18.016, 6.3 - 76 / 18.016 }')
is "$(rows "'%.6f %.6f' % (r[0]['value'], r[1]['change'])")" "$want" \
	"oldest first, in the newest result's unit (mmol/L), with the change"
is "$(rows "r[0]['change']")" "None" "no change on the first result"

run hq-report latest labs ampicilin_mic
is "$(rows "r[0]['value'], r[0]['comparator'], r[0]['unit'], r[0]['flag']")" "0.06 < ug/mL " \
	"an MIC '<0.06 ug/ml': comparator and number, no range, no flag"
run hq-report latest labs hemoglobin
is "$(rows "r[0]['flag']")" "L" "f005: 7.2 g/dL against 7.5-10 is L"

# --- CSV, JSON lines, the same result twice ------------------------------
run hq-ingest "$D/lipids.csv"
is "$rc" 0 "a lab CSV imports"
like "$out" '"format":"labs-csv","records":9,"inserted":9' "nine results"
run hq-ingest "$D/lipids.csv"
like "$out" '"inserted":0,"duplicates":9' "the same CSV again adds nothing"
cat >"$T/ldl.json" <<'J'
{"resourceType":"Observation","id":"ldl-1","status":"final",
 "category":[{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/observation-category","code":"laboratory"}]}],
 "code":{"coding":[{"system":"http://loinc.org","code":"13457-7"}],"text":"LDL CHOLESTEROL CALC"},
 "effectiveDateTime":"2023-02-14T08:30:00-08:00",
 "valueQuantity":{"value":138,"unit":"mg/dl"},
 "performer":[{"reference":"Organization/1","display":"UCSF Health"}]}
J
run hq-ingest "$T/ldl.json"
like "$out" '"inserted":0,"duplicates":1' "the CSV's LDL again as FHIR (a time, another source): stored once"
run hq-ingest "$D/results.jsonl" "$D/reordered.csv" "$D/bundle-dstu2.json" "$D/report-contained.json"
is "$rc" 0 "JSON lines, a reordered CSV with a BOM, a DSTU2 bundle, contained Observations"
like "$out" '"format":"labs-jsonl"' "lab JSON lines sniffed"

run hq-report latest labs ldl
is "$(rows "r[0]['value'], r[0]['unit'], r[0]['flag'], r[0]['source'], r[0]['loinc']")" \
	"131 mg/dL H Quest 2089-1" "latest LDL: 131 mg/dL against <=99 is H"
run hq-report latest labs hba1c --unit mmol/mol
want=$(awk 'BEGIN { printf "%.4f %.4f", 10.93 * 5 - 23.5, 10.93 * 5.6 - 23.5 }')
is "$(rows "'%s %.4f %.4f %s' % (r[0]['comparator'], r[0]['value'], r[0]['ref_high'], r[0]['unit'])")" \
	"< $want mmol/mol" "HbA1c <5 % in mmol/mol: 10.93 × % − 23.5, comparator kept"
run hq-report trend labs ldl
is "$(rows "' '.join(x['date'] for x in r)")" "2022-11-02 2023-02-14 2024-03-01 2024-09-10" "LDL trend, oldest first"
want=$(awk 'BEGIN { printf "%.4f", 138 - 3.4 * 38.67 }')
is "$(rows "r[1]['method_change'], '%.4f' % r[1]['change'], r[1]['method']")" "True $want calculated" \
	"direct 3.4 mmol/L then calculated 138 mg/dL: the method change is marked, the change kept (138 - 3.4 x 38.67)"
want=$(awk 'BEGIN { printf "%.4f", 131 - 2.6 * 38.67 }')
is "$(rows "'%.4f' % r[3]['change']")" "$want" "a change across mmol/L and mg/dL, converted with cholesterol's 38.67"
run hq-report latest labs hepatitis_b_surface_antigen
is "$(rows "r[0]['value'], r[0]['text']")" "None NEGATIVE" "NEGATIVE: text, no number"

# --- tables and charts -------------------------------------------------------
run hq-report latest labs --format table
is "$rc" 0 "a table of every test"
is "$(printf '%s\n' "$out" | python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))' | awk '$1 > 80')" "" \
	"the table fits 80 columns"
like "$out" "ldl +2024-09-10 +131 mg/dL +<=99 +H +Quest" "a row reads test, date, value, range, flag, source"
run hq-report trend labs ldl --format table
like "$out" "^ldl: LDL cholesterol, mg/dL" "a trend on a terminal: a heading"
like "$out" "2023-02-14 +138 +H +\\+6\\.522 +method now calculated" "and dates, values, flags, the change, the method change"
run hq-report trend labs ldl --format svg
is "$rc" 0 "a trend as svg"
printf '%s' "$out" >"$T/ldl.svg"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/ldl.svg"
ok $? "the svg is well-formed XML"
like "$out" 'class="band"' "with the reference band"
like "$out" 'method: calculated' "and the method change marked"
run hq-report latest labs ldl --format csv
like "$(printf '%s\n' "$out" | head -1)" "^test,loinc,date,value" "csv has a header"

# The issue's example (issue 18): calculated LDL 119.9, direct 118,
# calculated 121. Each change is from the previous result, method or not,
# so the changes sum to the last value less the first.
printf 'date,test,value,unit,ref_low,ref_high,loinc\n2024-01-10,LDL,119.9,mg/dL,,,13457-7\n2024-07-10,LDL,118,mg/dL,,,18262-6\n2025-01-10,LDL,121,mg/dL,,,13457-7\n' >"$T/method.csv"
HQ_DB=$T/method.db hq-ingest -q "$T/method.csv" >/dev/null
run env HQ_DB="$T/method.db" hq-report trend labs ldl
is "$(rows "' '.join('%s:%.4f' % (x['method_change'], x['change']) for x in r[1:])")" \
   "True:-1.9000 True:3.0000" "calculated 119.9 then direct 118: change -1.9 with method_change; then +3"
is "$(rows "'%.6f' % sum(x['change'] for x in r[1:])")" "$(awk 'BEGIN { printf "%.6f", 121 - 119.9 }')" \
   "the changes sum to last - first (no null in the middle)"
run env HQ_DB="$T/method.db" hq-report trend labs ldl --format table
like "$out" "2024-07-10 +118 +-1\\.9 +method now direct" "the table: the change and the note 'method now direct'"

# --- bad input -----------------------------------------------------------------
n=$(q 'select count(*) from lab_result')
printf 'date,test,value,unit,ref_low,ref_high\n2024-01-02,ldl,100,mg/dL,,\n02/03/2024,ldl,101,mg/dL,,\n' >"$T/bad.csv"
run hq-ingest "$T/bad.csv"
is "$rc" 2 "a bad line: exit 2"
like "$err" "bad\.csv:3: date '02/03/2024' is not a date" "named by file:line"
like "$err" "nothing from this file was imported" "the whole file is rejected"
is "$(q 'select count(*) from lab_result')" "$n" "and the store is as it was"
printf '{"resourceType":"Observation","code":{"text":"x"},"valueQuantity":{"value":1},\n' >"$T/cut.json"
run hq-ingest --format fhir "$T/cut.json"
is "$rc" 2 "broken FHIR JSON: exit 2"
like "$err" "cut\.json:[0-9]+: not valid JSON" "named by file:line"

{ printf '{"resourceType":"Bundle","entry":\n'; python3 -c 'print("[" * 100)'; } >"$T/deep.json"
run hq-ingest "$T/deep.json"
is "$rc" 2 "FHIR nested 100 deep: exit 2, before cJSON recurses"
like "$err" "deep\.json:2: JSON nested deeper than 64 levels" "named by file:line"
{ printf 'date,test,value,unit,ref_low,ref_high\n2024-01-02,'; python3 -c 'print("x" * 70000, end="")'; printf ',1,mg/dL,,\n'; } >"$T/long.csv"
run hq-ingest "$T/long.csv"
is "$rc" 2 "a CSV line over 64 KiB: exit 2"
like "$err" "long\.csv:2: line longer than 65536 bytes" "named by file:line"
is "$(q 'select count(*) from lab_result')" "$n" "the store is as it was after both"

# A line with fewer fields than the header, and a number without a unit
# (issue 18): the whole file fails with file:line, the store untouched.
dump() { sqlite3 "$HQ_DB" .dump | md5sum; }
before=$(dump)
printf 'date,test,value,unit,ref_low,ref_high,loinc\n2025-06-01,LDL,100,mg/dL,,,\n2025-06-02,Glucose,90\n' >"$T/short.csv"
run hq-ingest "$T/short.csv"
is "$rc" 2 "a line with fewer fields than the header: exit 2"
like "$err" "short\.csv:3: 3 fields, the header has 7" "named by file:line"
printf 'date,test,value,unit,ref_low,ref_high,loinc\n2025-06-01,LDL,100,mg/dL,,,\n2025-06-02,Glucose,90,mg/dL,,,,x\n' >"$T/wide.csv"
run hq-ingest "$T/wide.csv"
is "$rc" 2 "a line with more fields than the header: exit 2"
like "$err" "wide\.csv:3: 8 fields, the header has 7" "named by file:line"
printf 'date,test,value,unit,ref_low,ref_high,loinc\n2025-06-01,LDL,100,mg/dL,,,\n2025-06-02,Glucose,90,,,,\n' >"$T/nounit.csv"
run hq-ingest "$T/nounit.csv"
is "$rc" 2 "a number without a unit: exit 2"
like "$err" "nounit\.csv:3: Glucose 90 has no unit" "named by file:line"
printf 'date,test,value,unit,ref_low,ref_high,loinc\n2025-06-02,Glucose,<5,,,,\n' >"$T/nounit2.csv"
run hq-ingest "$T/nounit2.csv"
is "$rc" 2 "a number with a comparator and no unit: exit 2"
printf '{"date":"2025-06-01","test":"LDL","value":100,"unit":"mg/dL"}\n{"date":"2025-06-02","test":"Glucose","value":90}\n' >"$T/nounit.jsonl"
run hq-ingest "$T/nounit.jsonl"
is "$rc" 2 "JSON lines: a number without a unit, exit 2"
like "$err" "nounit\.jsonl:2: Glucose 90 has no unit" "named by file:line"
is "$(dump)" "$before" "the store is as it was after all of them"
printf 'date,test,value,unit,ref_low,ref_high,loinc\n2025-06-02,Urine pH,6.5,1,,,\n2025-06-02,Urine nitrite,NEGATIVE,,,,\n' >"$T/unitless.csv"
run hq-ingest "$T/unitless.csv"
is "$rc" 0 "a unitless test written with unit 1, and a text result without a unit, import"
is "$(q "select test||':'||coalesce(value,text)||':'||unit from lab_result where date='2025-06-02' order by test")" \
   "$(printf 'urine_nitrite:NEGATIVE:\nurine_ph:6.5:1')" "as written"

run hq-report latest labs ldk
is "$rc" 2 "an unknown test: exit 2"
is "$err" "hq-report: unknown test 'ldk' (did you mean ldl?)" "with a suggestion"
run hq-report latest labs hba1c --unit mmol/L
is "$rc" 2 "a unit the test has no conversion to: exit 2"
is "$err" "hq-report: hba1c cannot be shown in 'mmol/L' (its units: % mmol/mol)" "naming the units it has"
run hq-report latest labs tsh
is "$rc" 0 "tsh (from JSON lines)"
run hq-report trend labs ferritin
is "$rc" 1 "a test with no results: exit 1"
is "$err" "hq-report: no ferritin results in the store" "says so"
run hq-report trend labs
is "$rc" 2 "trend without a test: exit 2"
like "$err" "usage: hq-report trend labs TEST" "says the usage of trend"
run hq-report latest labs --fields vat_mass
is "$rc" 2 "--fields is for DEXA"
run hq-report list labs
like "$(rows "' '.join(sorted(set(x['kind'] for x in r)))")" "^labs$" "list labs: lab reports only"
is "$(rows "[x['n'] for x in r if x['date'] == '2023-02-14' and x['source'] == 'Quest']")" "[5]" \
	"one row per date and source, n tests"

run hq-report --complete-tests
like "$out" "hepatitis_b_surface_antigen" "completion: test names from the store"
done_testing
