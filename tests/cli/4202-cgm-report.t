#!/usr/bin/env bash
# hq-report cgm: iglu's example subject through hq-ingest gives the
# reference's §1.6 values; the same readings from a Clarity CSV and from
# an Apple Health export give the metrics of one; scans and strips never
# count twice; buckets, the AGP rows and its drawing; list cgm; bad input;
# hq-agent asks it through hq_report.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"
D=$HQ_ROOT/tests/data/cgm
json() { python3 -c 'import json,sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
print(eval(sys.argv[1]))' "$1"; }

# No glucose in the store.
printf '{"metric":"steps","start":"2024-12-01T09:00:00Z","value":100}\n' | hq-ingest -q - >/dev/null
run hq-report cgm
is "$rc" 1 "no glucose readings: exit 1"
like "$err" "^hq-report: no glucose readings in the store: import a CGM file" "and a message saying what to do"
is "$out" "" "nothing on stdout"

# iglu's Subject 1 as JSON lines, read in UTC (the reference's §1.6).
awk -F, 'NR > 1 && $2 == "\"Subject 1\"" { printf "{\"metric\":\"blood_glucose\",\"start\":\"%s\",\"value\":%s,\"unit\":\"mg/dL\",\"source\":\"Subject 1\"}\n", $3, $4 }' \
	"$D/example_data_5_subject.csv" >"$T/s1.jsonl"
HQ_DB=$T/iglu.db hq-ingest -q --tz UTC "$T/s1.jsonl" >/dev/null
run env HQ_DB="$T/iglu.db" hq-report --tz UTC cgm
is "$rc" 0 "iglu Subject 1: report"
row=$out
is "$(printf '%s' "$row" | json 'rows[0]["readings"]')" 2915 "readings 2915 (§1.6)"
for kv in mean:123.67:0.005 sd:33.27:0.005 cv:26.90:0.005 gmi:6.268:0.0005 j_index:24.628:0.0005 \
	tir:91.66:0.005 tbr:0.14:0.005 tbr2:0:0.005 tar:8.20:0.005 tar2:0.38:0.005 lbgi:0.432:0.0005 \
	hbgi:1.807:0.0005 gri:7.19:0.005; do
	IFS=: read -r k v tol <<<"$kv"
	num_near "$(printf '%s' "$row" | json "rows[0]['$k']")" "$v" "$tol" "$k as printed in §1.6 ($v)"
done
like "$row" '"mean":123\.6655232[0-9]*,' "JSON has at least 10 significant digits"
is "$(printf '%s' "$row" | json 'list(rows[0])')" \
	"['from', 'to', 'days', 'readings', 'coverage_pct', 'mean', 'sd', 'cv', 'gmi', 'tir', 'titr', 'tbr', 'tbr2', 'tar', 'tar2', 'j_index', 'lbgi', 'hbgi', 'gri', 'unit']" \
	"the fields hq-report(1) names, in its order"

# The same readings from a Clarity CSV and from Apple Health.
gen-export --days 30 -o "$T/ex.zip" --clarity "$T/clarity.csv" >/dev/null 2>&1
HQ_DB=$T/apple.db hq-ingest -q "$T/ex.zip" >/dev/null
HQ_DB=$T/csv.db hq-ingest -q "$T/clarity.csv" >/dev/null
HQ_DB=$T/both.db hq-ingest -q "$T/ex.zip" "$T/clarity.csv" >/dev/null
is "$(sqlite3 "$T/both.db" "select count(*) from sample join metric m on m.id = metric_id where m.identifier = 'HKQuantityTypeIdentifierBloodGlucose'")" \
	17160 "both stored: every reading twice"
for a in "" "--agp" "--by day" "--by week --from 2024-11-01"; do
	one=$(HQ_DB=$T/apple.db hq-report cgm $a)
	csv=$(HQ_DB=$T/csv.db hq-report cgm $a)
	both=$(HQ_DB=$T/both.db hq-report cgm $a)
	is "$csv" "$one" "cgm $a: the Clarity CSV gives what Apple Health gives"
	is "$both" "$one" "cgm $a: both together give what one gives"
done
is "$(HQ_DB=$T/both.db hq-report cgm | json 'rows[0]["readings"]')" 8580 "8580 readings, counted once"

# Scans and strips: kept, not counted beside the sensor's readings.
HQ_DB=$T/libre.db hq-ingest -q "$D/libre-us-mgdl.csv" >/dev/null 2>&1
is "$(HQ_DB=$T/libre.db hq-report cgm | json 'rows[0]["readings"]')" 4 \
	"the scan 7 minutes and the strip 10 minutes from a regular reading do not count"

export HQ_DB=$T/both.db
# Buckets add up; the AGP.
run hq-report cgm --by week
is "$(printf '%s\n' "$out" | json 'sum(r["readings"] for r in rows)')" 8580 "week rows add up to every reading"
is "$(printf '%s\n' "$out" | json 'len(rows)')" 6 "six ISO weeks (20 October is a Sunday, 18 November a Monday)"
run hq-report cgm --agp
is "$(printf '%s\n' "$out" | json 'len(rows)')" 96 "--agp: 96 rows"
is "$(printf '%s\n' "$out" | json 'rows[0]["time"] + " " + rows[-1]["time"]')" "00:00 23:45" "00:00 to 23:45"
is "$(printf '%s\n' "$out" | json 'sum(r["n"] for r in rows)')" 8580 "every reading in one slot"
is "$(printf '%s\n' "$out" | json 'all(r["p5"] <= r["p25"] <= r["p50"] <= r["p75"] <= r["p95"] for r in rows)')" True "percentiles in order"
is "$(printf '%s\n' "$out" | json 'list(rows[0])')" "['time', 'p5', 'p25', 'p50', 'p75', 'p95', 'n', 'unit']" "AGP fields"

# The AGP drawn.
run hq-report cgm --from 2024-11-01 --to 2024-11-14 --format svg
is "$rc" 0 "--format svg"
printf '%s\n' "$out" >"$T/agp.svg"
xmllint --noout "$T/agp.svg"
ok $? "the SVG is well-formed XML"
like "$out" "Ambulatory glucose profile" "titled"
like "$out" "2024-11-01 to 2024-11-14, 14 days" "the date range"
like "$out" "Time CGM active" "the coverage"
like "$out" "Target 70-180 mg/dL" "the time in ranges"
run hq-report cgm --from 2024-11 --to 2024-11 --format html
like "$out" "^<!DOCTYPE html>" "--format html: a page"
like "$out" "<tr><th>tir</th><td>" "with a table of the metrics"
if command -v rsvg-convert >/dev/null; then
	rsvg-convert "$T/agp.svg" -o "$T/agp.png"
	ok $? "the SVG renders (rsvg-convert)"
fi

# A terminal table fits 80 columns.
run hq-report cgm --by day --format table
is "$(printf '%s\n' "$out" | awk '{ if (length($0) > m) m = length($0) } END { print (m <= 80) }')" 1 "--by day as a table fits 80 columns"
run hq-report cgm --format table
like "$out" "^field +value" "one range as a table: field and value"

# list cgm: a row per sensor session.
run hq-report list cgm
is "$rc" 0 "list cgm"
is "$(printf '%s\n' "$out" | json 'sorted(set(r["source"] for r in rows))')" \
	"['Dexcom G7', 'Dexcom G7 (SN G7SENSOR01)', 'Dexcom G7 (SN G7SENSOR02)', 'Dexcom G7 (SN G7SENSOR03)', 'Dexcom G7 (SN G7SENSOR04)']" \
	"sessions of each source"
is "$(printf '%s\n' "$out" | json 'rows[0]')" "{'kind': 'cgm', 'date': '2024-10-20', 'source': 'Dexcom G7', 'n': 10}" \
	"kind, date, source, n (days of readings)"

# Bad input.
run hq-report cgm --from 2024-12 --to 2024-11
is "$rc" 2 "--from after --to: exit 2"
like "$err" "--from 2024-12 is after --to 2024-11; swap them" "and says so"
run hq-report cgm --from 2023-01-01 --to 2023-01-31
is "$rc" 1 "no readings in the range: exit 1"
is "$err" "hq-report: no glucose readings from 2023-01-01 to 2023-01-31" "and says so"
run hq-report glucose
is "$rc" 2 "unknown subcommand: exit 2"
like "$err" "unknown subcommand 'glucose' \(the subcommands are: list, latest, trend, compare, cgm(, [a-z]+)*\)" "with the list"
run hq-report cgm --agp --by day
is "$rc" 2 "--agp with --by: exit 2"
run hq-report cgm extra
is "$rc" 2 "cgm with an operand: exit 2"
run hq-report list labz
is "$rc" 2 "list of an unknown kind: exit 2"
run hq-report cgm --by fortnight
is "$rc" 2 "--by fortnight: exit 2"

# The tool: one schema, the subcommand in args.
run hq-report --tool-schema
is "$(printf '%s' "$out" | json 'rows[0]["name"]')" hq_report "--tool-schema names hq_report"
is "$(printf '%s' "$out" | json 'list(rows[0]["parameters"]["properties"])[0]')" args "args first"
like "$out" "time in range" "the description teaches when to use it"

# hq-agent asks hq_report for time in range and answers with its number.
if [ -f "$HQ_ROOT/tests/fake/lib.sh" ]; then
	. "$HQ_ROOT/tests/fake/lib.sh"
	unset HQ_AGENT_TOOL_PATH
	tir=$(hq-report cgm --from 2024-11-01 --to 2024-11-07 | json 'rows[0]["tir"]')
	mean=$(hq-report cgm --from 2024-11-01 --to 2024-11-07 | json 'rows[0]["mean"]')
	start_fake "$HQ_ROOT/tests/fake/scenarios/e2e-cgm.json"
	agent openai -v "What was my time in range in the first week of November 2024?"
	is "$rc" 0 "hq-agent answered"
	is "$out" "Your time in range was $tir% (mean $mean mg/dL)." "with hq-report's tir"
	like "$err" "hq_report exit 0, 1 rows" "hq_report ran"
fi

done_testing
