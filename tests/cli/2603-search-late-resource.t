#!/usr/bin/env bash
# hq-query search (issue 31): a clinical record imported before its FHIR
# resource (an export.xml read without its clinical-records folder, the
# folder's files brought by a later import of the export) is indexed
# again when the resource comes: its words are found, and it is dated by
# the resource's own date, not when Apple received it. A record whose
# resource never comes keeps its type and app, and an import that brings
# nothing new indexes nothing again.
. "$(dirname "$0")/lib.sh"
command -v hq-ingest >/dev/null && command -v hq-query >/dev/null ||
	skip_all "hq-ingest or hq-query is not built"

X="$T/x/apple_health_export"
mkdir -p "$X"
cat >"$X/export.xml" <<'E'
<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <ExportDate value="2026-03-10 08:00:00 -0800"/>
 <ClinicalRecord type="HKClinicalTypeIdentifierConditionRecord" identifier="cond-9" sourceName="Bayview Health" fhirVersion="4.0.1" receivedDate="2026-03-05 10:00:00 +0000" resourceFilePath="/clinical-records/cond-9.json"/>
 <ClinicalRecord type="HKClinicalTypeIdentifierConditionRecord" identifier="cond-10" sourceName="Bayview Health" fhirVersion="4.0.1" receivedDate="2026-03-06 10:00:00 +0000" resourceFilePath="/clinical-records/cond-10.json"/>
</HealthData>
E
hq-ingest -q "$X/export.xml" >/dev/null 2>&1
ok $? "the export without its clinical-records folder imported"
is "$(hq-query search sarcoidosis --count)" 0 "the resource's words: not there yet"
is "$(hq-query search bayview --in records --count)" 2 \
	"the records are found by their app meanwhile"

mkdir "$X/clinical-records"
cat >"$X/clinical-records/cond-9.json" <<'J'
{"resourceType":"Condition","id":"cond-9","code":{"text":"Sarcoidosis"},"recordedDate":"2024-09-12","recorder":{"display":"Dr. Ines Okafor"}}
J
hq-ingest -q "$X/export.xml" >/dev/null 2>&1
ok $? "the export again, with the folder"
rows() { hq-query search "$@" --format jsonl | perl -MJSON::PP -ne \
	'my $r = decode_json($_); print join(" ", $r->{kind}, substr($r->{date}, 0, 10), $r->{title}), "\n"'; }
is "$(rows sarcoidosis)" "record 2024-09-12 Sarcoidosis" \
	"the resource's words found, dated by its own date, titled by its code"
is "$(rows okafor)" "record 2024-09-12 Sarcoidosis" "a name in the resource"
is "$(hq-query search bayview --in records --count)" 2 "each record once"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM search_text_bare")" 1 \
	"the other record still waits for its resource"

digest() { sqlite3 "$HQ_DB" "SELECT count(*), total(id), total(time) FROM search_text_key"; }
before=$(digest)
hq-ingest -q "$X/export.xml" >/dev/null 2>&1
is "$(digest)" "$before" "an import bringing nothing new changes nothing"
is "$(hq-query search sarcoidosis --count)" 1 "and finds the record once"
done_testing
