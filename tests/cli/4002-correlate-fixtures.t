#!/usr/bin/env bash
# hq-correlate on the real exports in the fixtures: a store of a handful of
# samples per metric from four people's exports. Nothing there has ten
# days in common, so every question is refused with the counts (exit 1),
# never answered from too little; names are suggested from what the store
# holds, and day rows hq-query writes from it read back as files.
. "$(dirname "$0")/lib.sh"
command -v hq-correlate >/dev/null || skip_all "hq-correlate not built"
fx="$HQ_FIXTURES/apple-health"
need_fixtures apple-health/jshrake/export.zip apple-health/dogsheep/export.xml \
    apple-health/tdda/export6s3sample.xml apple-health/aleksi/testdata.xml

hq-ingest -q "$fx/jshrake/export.zip" "$fx/dogsheep/export.xml" \
	"$fx/tdda/export6s3sample.xml" "$fx/aleksi/testdata.xml" >/dev/null
ok $? "the four fixture exports are in the store"

run hq-correlate steps distance_walking_running
is "$rc" 1 "steps against distance: refused (exit 1)"
like "$err" "^hq-correlate: only [0-9]+ days? with both step_count and distance_walking_running \(at least 10 needed" "saying how many days there were"
is "$out" "" "and nothing on stdout"
run hq-correlate steps distance_walking_running --min-n 3 --night
is "$rc" 1 "the night after, at --min-n 3: still too few"
run hq-correlate steps --against all
is "$rc" 1 "--against all: no metric has ten days paired"
like "$err" "no metric has 10 days paired with step_count" "said so"
run hq-correlate heart_rate steps --when 'height.avg>100'
is "$rc" 1 "a condition on the fixture's height: too few days to compare"
run hq-correlate walking_sped steps
is "$rc" 2 "a misspelt metric: exit 2"
like "$err" "did you mean walking_speed\?" "suggested from the store's metrics"
hq-query steps --by day >"$T/steps.jsonl"
run hq-correlate "$T/steps.jsonl" body_mass
is "$rc" 1 "hq-query's real rows read back as a file: refused for too few days, not for the file"
like "$err" "only 0 days with both step_count and body_mass" "the file's metric named in the message"
run hq-correlate --tool-schema
is "$(printf '%s' "$out" | python3 -c 'import json,sys; t=json.load(sys.stdin); print(t["name"], t["parameters"]["properties"]["metrics"]["type"], "night" in t["parameters"]["properties"])')" \
	"hq_correlate array True" "--tool-schema: hq_correlate, metrics an array, night a parameter"
like "$out" "When my glucose goes above 140, how does it affect my sleep that night\?' -> metrics \[\\\\\"glucose\\\\\",\\\\\"sleep\\\\\"\], when \[\\\\\"glucose.max>140\\\\\"\], night true" \
	"and it teaches the glucose/sleep question's call"
done_testing
