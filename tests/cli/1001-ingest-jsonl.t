#!/usr/bin/env bash
# hq-ingest on JSON lines: the summary line, unit conversion, bad lines
# named by file:line, -q, stdin, idempotency, exit codes, a 0600 store.
. "$(dirname "$0")/lib.sh"

q() { sqlite3 "$HQ_DB" "$1"; }

cat >"$T/in.jsonl" <<'J'
{"metric":"steps","start":"2024-12-01T08:00:00Z","end":"2024-12-01T08:10:00Z","value":120,"unit":"count","source":"pedometer"}
{"metric":"weight","start":"2024-12-01 07:30:00 +0000","value":180,"unit":"lb","source":"scale"}

{"metric":"HKQuantityTypeIdentifierHeartRate","start":1733040000,"value":62}
{"metric":"sleep_analysis","start":"2024-12-01T06:00:00Z","end":"2024-12-01T07:00:00Z","value":"HKCategoryValueSleepAnalysisAsleepDeep"}
{"metric":"my_custom_score","start":"2024-12-01T00:00:00Z","value":7}
J

# A bad line anywhere rejects its whole file, named by file:line.
bad_line() {  # LINE ERROR-REGEX NAME
	{ head -n 2 "$T/in.jsonl"; printf '%s\n' "$1"; tail -n 3 "$T/in.jsonl"; } >"$T/bad.jsonl"
	run hq-ingest "$T/bad.jsonl"
	is "$rc" 2 "$3: exit 2"
	like "$err" "bad\.jsonl:3: $2" "$3: named by file:line"
	like "$err" "nothing from this file was imported" "$3: says the file was not imported"
	is "$(q 'select count(*) from sample')" 0 "$3: the store is left empty"
}
bad_line 'not json at all' 'not a JSON object' "a line that is not JSON"
bad_line '{"metric":"hart_rate","start":"2024-12-01T08:00:00Z","value":61}' \
	"unknown metric 'hart_rate' \(did you mean heart_rate\?\)" "a misspelt metric"
bad_line '{"metric":"heart_rate","value":60}' 'no "start"' "a line without start"
bad_line '{"metric":"heart_rate","start":"2024-13-01","value":60}' '"start" is not a date' "an impossible date"

run hq-ingest "$T/in.jsonl"
is "$rc" 0 "a good JSON-lines file imports (exit 0)"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1 "one summary line on stdout"
sum=$out
is "$(printf '%s' "$sum" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["format"], d["records"], d["inserted"], d["duplicates"], d["skipped"])')" \
   "jsonl 5 5 0 0" "summary: format, records, inserted, duplicates, skipped"
is "$(q "select round(value,4) from sample s join metric m on m.id=s.metric_id where identifier='HKQuantityTypeIdentifierBodyMass'")" \
   "81.6466" "pounds are stored as kilograms (canonical unit)"
is "$(q "select unit from sample s join metric m on m.id=s.metric_id where identifier='HKQuantityTypeIdentifierBodyMass'")" \
   "lb" "the written unit is kept"
is "$(q "select start||' '||end from sample s join metric m on m.id=s.metric_id where identifier='HKQuantityTypeIdentifierStepCount'")" \
   "1733040000 1733040600" "times are stored as UTC epoch seconds"
is "$(q "select text||' '||value from sample s join metric m on m.id=s.metric_id where identifier='HKCategoryTypeIdentifierSleepAnalysis'")" \
   "asleep_deep 4.0" "a category value becomes its name and code"
is "$(q "select count(*) from metric where identifier='my_custom_score'")" 1 "an unknown metric name is kept as its own metric"
is "$(q "select name from source s join sample x on x.source_id=s.id join metric m on m.id=x.metric_id where identifier='HKQuantityTypeIdentifierHeartRate'")" \
   "jsonl" "source defaults to jsonl"
is "$(stat -c %a "$HQ_DB")" 600 "the store is created 0600"

run hq-ingest "$T/in.jsonl"
like "$out" '"inserted":0,"duplicates":5' "the same file again inserts nothing"
is "$(q 'select count(*) from sample')" 5 "and the store holds the same samples"

run hq-ingest -q "$T/in.jsonl"
is "$err" "" "-q: nothing on stderr"
like "$out" '"file"' "-q still prints the summary line"

run sh -c 'printf "%s\n" "{\"metric\":\"weight\",\"start\":\"2024-12-02T07:00:00Z\",\"value\":80.5,\"unit\":\"kg\"}" | hq-ingest -'
is "$rc" 0 "JSON lines from stdin"
like "$out" '"file":"-","format":"jsonl","records":1,"inserted":1' "stdin summary"

printf '{"metric":"weight","start":"2024-12-03 07:00","value":80}' >"$T/local.jsonl"
run hq-ingest --tz Asia/Tokyo "$T/local.jsonl"
is "$(q "select start from sample where value=80")" 1733176800 "a time without offset is local to --tz (no newline at the end is fine)"

run hq-ingest "$T/no-such-file.jsonl"
is "$rc" 2 "a missing file: exit 2"
like "$err" "cannot open .*no-such-file.jsonl" "the error names the file"
run hq-ingest "$T/in.jsonl" "$T/no-such-file.jsonl"
is "$rc" 1 "one file imported, one failed: exit 1"
run hq-ingest
is "$rc" 2 "no files: usage error"
is "$err" "hq-ingest: no files to import ('-' reads stdin)
try 'hq-ingest --help'" "no files: one line says so, then where to look"
run hq-ingest --format xml "$T/in.jsonl"
is "$rc" 2 "an unknown --format is a usage error"
printf 'hello\n' >"$T/plain.txt"
run hq-ingest "$T/plain.txt"
is "$rc" 2 "an unrecognised file is refused"
like "$err" "not a .*Apple Health export .* nor JSON lines" "and says what was expected"
run hq-ingest --format jsonl "$T/plain.txt"
like "$err" "plain.txt:1: not a JSON object" "--format jsonl forces the format"

run hq-ingest --tool-schema
like "$out" '"writes":true' "--tool-schema marks hq-ingest as writing"
like "$out" '"files":' "--tool-schema names the positional files"
done_testing
