#!/usr/bin/env bash
# hq-query --format svg: a standalone, well-formed chart of the same rows
# the other formats print — bars for sums (one per row), a line for
# averages, one panel per unit, the unit on the axis; nothing for no rows.
. "$(dirname "$0")/lib.sh"

command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v hq-query >/dev/null || skip_all "hq-query not built"
command -v xmllint >/dev/null || skip_all "xmllint missing"

gen-export --days 20 --seed 5 -o "$T/ex.zip" >/dev/null &&
	hq-ingest "$T/ex.zip" >/dev/null
ok $? "a generated export ingested"

# count FILE XPATH: how many nodes (the SVG namespace bound to s).
count() {
	printf 'setns s=http://www.w3.org/2000/svg\nxpath count(%s)\n' "$2" |
		xmllint --shell "$1" 2>/dev/null | sed -n 's/.*Object is a number : \([0-9]*\).*/\1/p'
}
# texts FILE XPATH: the text of the nodes, one a line.
texts() {
	printf 'setns s=http://www.w3.org/2000/svg\ncat %s/text()\n' "$2" |
		xmllint --shell "$1" 2>/dev/null | grep -v '^ *-------\|^/ >'
}

rows=$(hq-query steps --by day | wc -l)
hq-query steps --by day --format svg >"$T/steps.svg"
ok $? "steps --by day --format svg exits 0"
xmllint --noout "$T/steps.svg"
ok $? "the chart is well-formed XML"
like "$(head -c 300 "$T/steps.svg")" '<svg xmlns="http://www.w3.org/2000/svg"' "a standalone SVG document"
unlike "$(cat "$T/steps.svg")" 'href=|<image|<script|@import|url\(' "no external resources"
is "$(count "$T/steps.svg" "//s:g[@class='bars']/s:rect")" "$rows" "one bar per row ($rows days of steps: a sum)"
is "$(count "$T/steps.svg" "//s:path[@stroke]")" 0 "and no line"
is "$(texts "$T/steps.svg" "//s:text[@class='unit']")" count "the unit on the y axis"
like "$(texts "$T/steps.svg" "//s:text[@class='subtitle']")" '^per day' "the bucket size in the subtitle"

hq-query heart_rate --by day --format svg >"$T/hr.svg"
ok $? "heart_rate --by day --format svg exits 0"
is "$(count "$T/hr.svg" "//s:path[@stroke]")" 1 "an average is a line"
is "$(count "$T/hr.svg" "//s:g[@class='bars']/s:rect")" 0 "not bars"
is "$(texts "$T/hr.svg" "//s:text[@class='unit']")" count/min "in count/min"

hq-query steps heart_rate --by week --format svg >"$T/two.svg"
ok $? "two metrics of different units"
is "$(texts "$T/two.svg" "//s:text[@class='unit']" | tr '\n' ' ')" "count count/min " \
	"one panel per unit"
like "$(texts "$T/two.svg" "//s:text[@class='xtick']" | head -1)" '^W[0-9]+$' "weeks labelled W<n>"

# several aggregations: each its own line, named in the legend
hq-query heart_rate --by day --agg avg,min,max --format svg >"$T/hr3.svg"
is "$(count "$T/hr3.svg" "//s:path[@stroke]")" 3 "--agg avg,min,max: a line each"
is "$(texts "$T/hr3.svg" "//s:text[@class='legend']" | tr '\n' '|')" "heart_rate avg|heart_rate min|heart_rate max|" \
	"--agg avg,min,max: each named in the legend"
hq-query steps --by day --agg sum,avg --format svg >"$T/st2.svg"
is "$(count "$T/st2.svg" "//s:g[@class='bars']/s:rect"):$(count "$T/st2.svg" "//s:path[@stroke]")" "$rows:1" \
	"--agg sum,avg: bars for the sums, a line for the averages"

# values none of them below zero get no axis below zero: awake time per
# night is 0 on some nights (a line's air below it went to -0.05 h)
hq-query sleep_awake --by day --format svg >"$T/awake.svg"
is "$(texts "$T/awake.svg" "//s:text[@class='ytick']" | grep -c '^[-−]')" 0 "sleep_awake: no tick below 0"
is "$(texts "$T/awake.svg" "//s:text[@class='ytick']" | head -1)" 0 "sleep_awake: the axis starts at 0"
hq-query sleep --by day --format svg >"$T/sleep.svg"
is "$(texts "$T/sleep.svg" "//s:text[@class='ytick']" | grep -c '^[-−]')" 0 "sleep: no tick below 0"
hq-query heart_rate --by day --agg min --format svg >"$T/hrmin.svg"
unlike "$(texts "$T/hrmin.svg" "//s:text[@class='ytick']" | head -1)" "^0$" \
	"heart rate minima (40s to 50s): the axis still starts near them, not at 0"

run hq-query steps --from 2030-01-01 --to 2030-02-01 --format svg
is "$rc" 1 "no rows: exit 1"
is "$out" "" "and no chart"

done_testing
