#!/usr/bin/env bash
# DEXA scans in and out: the GE Lunar fixture as JSON and as CSV gives the
# same fields (its README's values in kg); comparisons of the last two
# scans or two dates, changes within the scanner's precision said so; bad
# input rejected whole.
. "$(dirname "$0")/lib.sh"
command -v hq-report >/dev/null || skip_all "hq-report is not built"
X=$HQ_FIXTURES/dexa
D=$HQ_ROOT/tests/cli/data/dexa
need_fixtures dexa/ge-lunar-idxa-2020-01-22.json dexa/ge-lunar-idxa-2020-01-22.csv

q() { sqlite3 "$HQ_DB" "$1"; }

run hq-ingest "$X/ge-lunar-idxa-2020-01-22.json"
is "$rc" 0 "the GE Lunar JSON imports"
like "$out" '"format":"dexa-json","records":16,"inserted":16' "sixteen fields"
run hq-report latest dexa
is "$rc" 0 "latest dexa"
# The fixture README's values (lb × 0.45359237), not the code's.
# (JSON carries 10 significant digits.)
for fv in fat_mass:33.520476143 lean_mass:34.609097831 trunk_fat_mass:20.593093598 \
    legs_lean_mass:10.976935354; do
	num_near "$(rows "f['${fv%%:*}']['value']")" "${fv#*:}" 1e-8 "${fv%%:*}: pounds converted to kilograms"
done
is "$(rows "f['ag_ratio']['unit'] == '' and f['fat_mass']['unit'] == 'kg' and f['total_body_fat_pct']['unit'] == '%'")" \
	"True" "units: none for the A/G ratio, kg, %"
json_rows=$(printf '%s\n' "$out" | python3 -c 'import json,sys; print(sorted((r["field"], round(r["value"], 9), r["unit"]) for r in map(json.loads, sys.stdin)))')

run hq-report compare dexa
is "$rc" 1 "compare with one scan: exit 1"
is "$err" "hq-report: a comparison needs two DEXA scans; the store has 1" "saying how many there are"

run hq-ingest "$X/ge-lunar-idxa-2020-01-22.csv"
like "$out" '"format":"dexa-csv","records":16,"inserted":0,"duplicates":16' \
	"the same scan as CSV (no source) adds nothing"
run hq-report list dexa
is "$out" '{"kind":"dexa","date":"2020-01-22","source":"GE Lunar iDXA","n":16}' "still one scan"

HQ_DB=$T/csv.db run hq-ingest "$X/ge-lunar-idxa-2020-01-22.csv"
HQ_DB=$T/csv.db run hq-report latest dexa
is "$(printf '%s\n' "$out" | python3 -c 'import json,sys; print(sorted((r["field"], round(r["value"], 9), r["unit"]) for r in map(json.loads, sys.stdin)))')" \
	"$json_rows" "the CSV alone gives the same rows as the JSON"

run hq-ingest "$D/bodyspec-2023.json" "$D/scans.csv"
is "$rc" 0 "an array of scans, a CSV of two scans"
run hq-report compare dexa --last 2
is "$rc" 0 "compare the last two"
is "$(rows "' '.join(x['field'] for x in r)")" "total_body_fat_pct vat_mass" \
	"only the fields both scans have"
is "$(rows "f['vat_mass']['before_date'], f['vat_mass']['after_date'], f['vat_mass']['before'], f['vat_mass']['after']")" \
	"2023-05-03 2023-07-12 480 430" "before and after (0.48 kg stored as 480 g)"
want=$(awk 'BEGIN { printf "%.6f %.6f", 100 * (430 - 480) / 480, 1.96 * sqrt(2) * 5 }')
is "$(rows "'%.6f %.6f %s' % (f['vat_mass']['pct_change'], f['vat_mass']['lsc_pct'], f['vat_mass']['within_precision'])")" \
	"$want True" "VAT −10.4 %: within 2.77 × its 5 % CV, said so"
is "$(rows "f['total_body_fat_pct']['lsc_pct'], f['total_body_fat_pct']['within_precision']")" "None False" \
	"no precision figure for body fat %"

run hq-report compare dexa --dates 2020-01-22,2023-01 --fields lean_mass,fat_mass
is "$rc" 0 "--dates (a month names the scan in it) --fields"
is "$(rows "' '.join(x['field'] for x in r)")" "fat_mass lean_mass" "the fields asked for, in the catalog's order"
is "$(rows "f['lean_mass']['within_precision'], round(f['lean_mass']['lsc_pct'], 4)")" "False 1.3859" \
	"lean mass +59 %: beyond its 2.77 × 0.5 %"
run hq-report compare dexa --last 3
is "$(rows "f['total_body_fat_pct']['before_date']")" "2023-01-10" "--last 3: the oldest of the last three"
run hq-report compare dexa --last 9
is "$rc" 1 "--last more than the store has: exit 1"
is "$err" "hq-report: the last 9 DEXA scans: the store has 5" "saying how many"
run hq-report compare dexa --dates 2019-01-01,2023-01
is "$rc" 1 "a date without a scan: exit 1"
is "$err" "hq-report: no DEXA scan on 2019-01-01" "naming it"
run hq-report compare dexa --fields fat_mas
is "$rc" 2 "an unknown field: exit 2"
is "$err" "hq-report: unknown DEXA field 'fat_mas' (did you mean fat_mass?)" "with a suggestion"
run hq-report compare dexa --dates 2020-01-22
is "$rc" 2 "--dates needs two"
run hq-report compare dexa --last 2 --dates 2020-01-22,2023-01
is "$rc" 2 "--last and --dates exclude each other"

run hq-report compare dexa --format table
is "$(printf '%s\n' "$out" | head -1)" "DEXA 2023-05-03 -> 2023-07-12" "a table on a terminal: the two dates"
like "$out" "vat_mass +g +480 +430 +-50 +-10.4% ~" "changes within precision marked ~"
like "$out" "~ within the scanner's precision" "and explained"
run hq-report compare dexa --format svg
printf '%s' "$out" >"$T/cmp.svg"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/cmp.svg"
ok $? "compare as svg: well-formed"
like "$out" "within the scanner&apos;s precision" "the VAT change muted and noted"
run hq-report latest dexa --format svg
is "$rc" 2 "svg is for trend and compare"

n=$(q 'select count(*) from dexa_value')
printf 'date,field,value,unit\n2024-05-01,fat_mass,20,kg\n2024-05-01,lean_mas,50,kg\n' >"$T/bad.csv"
run hq-ingest "$T/bad.csv"
is "$rc" 2 "a misspelt field: exit 2"
like "$err" "bad\.csv:3: unknown DEXA field 'lean_mas' \(did you mean lean_mass\?\)" "named by file:line"
is "$(q 'select count(*) from dexa_value')" "$n" "and nothing of the file is stored"
printf '{"kind":"dexa","date":"2024-05-01","fields":{"vat_mass":{"value":1,"unit":"stone"}}}\n' >"$T/bad.json"
run hq-ingest "$T/bad.json"
is "$rc" 2 "a unit that is not a mass: exit 2"
like "$err" "bad\.json:1: vat_mass: unit 'stone' is not kg, g or lb" "says which units fit"
done_testing
