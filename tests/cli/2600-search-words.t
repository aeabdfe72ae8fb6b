#!/usr/bin/env bash
# hq-query search by words (issue 31): workouts by their type, metadata,
# device and app; lab results; clinical records' text (a doctor's name, a
# diagnosis); hq's metrics; sources. Case and accents folded, phrases,
# prefixes, AND/OR/NOT; browse newest first in pages, --count, --in,
# --from/--to; find's order where it is obvious (a word in the title of a
# short record over the same word once in a long one; two words over one).
. "$(dirname "$0")/lib.sh"
command -v hq-ingest >/dev/null && command -v hq-query >/dev/null ||
	skip_all "hq-ingest or hq-query is not built"
command -v perl >/dev/null || skip_all "perl missing"

X="$T/x/apple_health_export"
mkdir -p "$X/clinical-records"
w() {   # TYPE DAY META...: a workout of 30 minutes at 08:00 UTC
	type=$1 day=$2
	shift 2
	printf ' <Workout workoutActivityType="HKWorkoutActivityType%s" duration="30" durationUnit="min" sourceName="Alex’s Apple Watch" startDate="%s 08:00:00 +0000" endDate="%s 08:30:00 +0000">\n' "$type" "$day" "$day"
	while [ $# -gt 1 ]; do
		printf '  <MetadataEntry key="%s" value="%s"/>\n' "$1" "$2"
		shift 2
	done
	printf ' </Workout>\n'
}
cr() {  # ID: a clinical record whose resource is clinical-records/ID.json
	printf ' <ClinicalRecord type="HKClinicalTypeIdentifierConditionRecord" identifier="%s" sourceName="Bayview Health" fhirVersion="4.0.1" receivedDate="2026-03-05 10:00:00 +0000" resourceFilePath="/clinical-records/%s.json"/>\n' "$1" "$1"
}
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2026-03-06 08:00:00 +0000"/>\n'
	w Running 2026-03-01 HKIndoorWorkout 0 HKWorkoutBrandName "Nike Run Club"
	w Cycling 2026-03-02 HKIndoorWorkout 1 HKWorkoutBrandName Zwift
	w Running 2026-03-03 HKIndoorWorkout 1
	w Swimming 2026-03-04 Notes "Café crème after the swim"
	cr enc-1; cr enc-2; cr cond-1; cr enc-3
	printf '</HealthData>\n'
} >"$X/export.xml"
cat >"$X/clinical-records/enc-1.json" <<'J'
{"resourceType":"Encounter","id":"enc-1","status":"finished","period":{"start":"2025-01-15T09:00:00Z"},"participant":[{"individual":{"display":"Dr. Mei Lee"}}],"serviceProvider":{"display":"Bayview Clinic"}}
J
cat >"$X/clinical-records/enc-2.json" <<'J'
{"resourceType":"Encounter","id":"enc-2","status":"finished","period":{"start":"2026-02-10T09:00:00Z"},"participant":[{"individual":{"display":"Dr. Mei Lee"}}],"reasonCode":[{"text":"Follow-up visit for blood pressure, weight, sleep, diet, exercise and medication review; patient reports feeling well overall, some hypertension noted at home"}],"serviceProvider":{"display":"Bayview Clinic"}}
J
cat >"$X/clinical-records/cond-1.json" <<'J'
{"resourceType":"Condition","id":"cond-1","code":{"text":"Hypertension"},"recordedDate":"2025-06-01","recorder":{"display":"Dr. Omar Haddad"}}
J
cat >"$X/clinical-records/enc-3.json" <<'J'
{"resourceType":"Encounter","id":"enc-3","status":"finished","period":{"start":"2026-01-05T09:00:00Z"},"participant":[{"individual":{"display":"Dr. Ana Leeds"}}]}
J
printf 'date,test,value,unit,ref_low,ref_high,loinc\n2025-11-02,Total cholesterol,212,mg/dL,,200,2093-3\n2025-11-02,LDL cholesterol,131,mg/dL,,100,13457-7\n2026-02-20,LDL cholesterol,118,mg/dL,,100,13457-7\n2026-02-20,Glucose,92,mg/dL,70,99,2345-7\n' >"$T/labs.csv"
hq-ingest -q "$X/export.xml" >/dev/null && hq-ingest -q "$T/labs.csv" >/dev/null
ok $? "the export and the labs imported"

# "kind date title" of each row, one a line
rows() { perl -CO -MJSON::PP -ne 'my $r = decode_json($_); print join(" ", $r->{kind}, substr($r->{date} // "-", 0, 10), $r->{title}), "\n"'; }
q() { hq-query search "$@" --format jsonl | rows; }

is "$(q indoor)" "workout 2026-03-03 running
workout 2026-03-02 cycling" "a word of the metadata: indoor, newest first"
is "$(q Zwift)" "workout 2026-03-02 cycling" "the brand of an app"
is "$(q cafe)" "workout 2026-03-04 swimming" "accents folded: cafe finds Café"
is "$(q CAFÉ)" "workout 2026-03-04 swimming" "case folded: CAFÉ finds Café"
is "$(q '"crème after"')" "workout 2026-03-04 swimming" "a phrase"
is "$(q '"after crème"' 2>/dev/null)" "" "a phrase in another order: none"
is "$(q running NOT indoor --in workouts)" "workout 2026-03-01 running" "NOT"
is "$(q zwift OR treadmill OR nike --in workouts | wc -l | tr -d ' ')" 2 "OR"
is "$(q 'hypert*' --in records)" "record 2026-02-10 Encounter
record 2025-06-01 Hypertension" "a prefix, records dated by their resource"
is "$(q Dr Lee --in records --limit 1)" "record 2026-02-10 Encounter" \
	"when did I last see Dr Lee? the newest encounter (not Dr Leeds)"
is "$(hq-query search 'Dr. Lee?' --in records --count)" 2 "punctuation in the words is no syntax"
is "$(hq-query search 'Lee*' --in records --count)" 3 "Lee* finds Leeds too"
is "$(q cholesterol --in labs)" "lab 2026-02-20 ldl
lab 2025-11-02 ldl
lab 2025-11-02 total cholesterol" "labs by the name as written, newest first (then by title)"
is "$(q 2093-3)" "lab 2025-11-02 total cholesterol" "a LOINC code"
is "$(q high --in labs | wc -l | tr -d ' ')" 3 "the flag: high"
is "$(q oxygen --in metrics)" "metric - oxygen_saturation" "a metric by a word of its description"
is "$(q apple watch --in sources)" "source - Alex’s Apple Watch" "a source"
is "$(hq-query search cholesterol --count)" 4 "--count: every kind (three labs, dietary_cholesterol)"
is "$(q cholesterol --from 2026-01-01 --to 2026-12-31)" "lab 2026-02-20 ldl" \
	"--from/--to: the dated matches in the range (no metric)"
is "$(q indoor --type cycling)" "workout 2026-03-02 cycling" "--type"
# paging: browse's second page
is "$(q cholesterol --in labs --limit 2 --offset 1)" "lab 2025-11-02 ldl
lab 2025-11-02 total cholesterol" "--limit 2 --offset 1"
# find: the best first
is "$(q hypertension --in records)" "record 2026-02-10 Encounter
record 2025-06-01 Hypertension" "browse: both, newest first"
is "$(q hypertension --in records --mode find)" "record 2025-06-01 Hypertension" \
	"find: the diagnosis itself; a long note naming it once is no strong match"
is "$(q zwift OR indoor --mode find | head -1)" "workout 2026-03-02 cycling" \
	"find: both words before one"
n=$(hq-query search zwift OR indoor OR running OR lee OR cholesterol OR heart --mode find --format jsonl | wc -l | tr -d ' ')
[ "$n" -le 5 ]
ok $? "find: at most five rows ($n)"
s=$(hq-query search hypertension --mode find --format jsonl | perl -MJSON::PP -ne '$s = decode_json($_)->{score}; print $s > 0 ? "ok" : "bad $s"; exit')
is "$s" ok "score: positive, higher better"
hq-query search nothingatall >/dev/null 2>"$T/err"
is $? 1 "no match: exit 1"
like "$(cat "$T/err")" "nothing matches 'nothingatall'" "and says so"

# kept at import: a new lab and a new workout are found at once
printf 'date,test,value,unit,ref_low,ref_high,loinc\n2026-03-05,Ferritin,40,ng/mL,30,400,\n' >"$T/more.csv"
hq-ingest -q "$T/more.csv" >/dev/null
is "$(q ferritin)" "lab 2026-03-05 ferritin" "a new import is searched at once"
# a table for a person fits 80 columns
w=$(COLUMNS=80 hq-query search cholesterol --format table | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$w" -le 80 ]
ok $? "the table fits 80 columns ($w)"
done_testing
