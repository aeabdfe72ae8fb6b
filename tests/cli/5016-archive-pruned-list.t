#!/usr/bin/env bash
# What hq-archive prune took is summed in the store (by month, metric and
# source; the points of each route): hq-query --list and the store's
# newest day (hq-report week, load) answer without reading the archive,
# exactly as a twin store never pruned; a month pruned again after an
# import adds to its sums. The commands that need pruned samples (the
# median resting heart rate behind hq-query workouts and hq-report load)
# read that metric's rows alone, and answer as the twin.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pruned.sh"
export HQ_NOW=1680696000   # 2023-04-05T12:00:00Z: the week before is 2023-W13

# the iPhone's steps (2023-01..03), a resting heart rate each morning
# (50 + day mod 9), a weight on 2023-01-10 alone (a metric only pruned
# months hold) and a run with a route of 40 points on 2023-01-15
hourly_steps 2160 "$T/phone.jsonl" "My iPhone"
printf '{"metric":"body_mass","start":"2023-01-10T07:00:00Z","value":71.5,"unit":"kg","source":"Scale"}\n' >>"$T/phone.jsonl"
awk -v t0=$t0 'BEGIN { for (i = 0; i < 90; i++)
	printf "{\"metric\":\"resting_heart_rate\",\"start\":%d,\"value\":%d,\"unit\":\"count/min\",\"source\":\"Watch\"}\n", t0 + i * 86400 + 25200, 50 + i % 9 }' >>"$T/phone.jsonl"
awk 'BEGIN { print "<?xml version=\"1.0\"?>"
	print "<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>Run</name><type>running</type><trkseg>"
	for (i = 0; i < 40; i++)
		printf "<trkpt lat=\"%.6f\" lon=\"13.400000\"><ele>40</ele><time>2023-01-15T08:%02d:00Z</time></trkpt>\n", 52.5 + i * 0.0015, i
	print "</trkseg></trk></gpx>" }' >"$T/run.gpx"
# and a lab result of 2022-11, a month a prune takes no sample of
printf 'date,test,value,unit,ref_low,ref_high\n2022-11-08,LDL Cholesterol,130,mg/dL,,99\n' >"$T/labs.csv"
hq-ingest -q "$T/phone.jsonl" "$T/run.gpx" "$T/labs.csv" >/dev/null && hq-archive -q init >/dev/null &&
    hq-archive -q push
ok $? "a store with a route in 2023-01, pushed"
cp "$HQ_DB" "$T/twin.db"
run hq-archive -q prune --before 2023-03 --yes
is "$rc" 0 "2022-11, 2023-01..2023-02 pruned"
is "$(sqlite3 "$HQ_DB" "SELECT group_concat(month || ':' || rows) FROM archive_pruned")" \
    "$((2022 * 12 + 10)):0,$((2023 * 12)):$(sqlite3 "$HQ_DB" "SELECT rows FROM archive_pruned WHERE month = 2023 * 12"),$((2023 * 12 + 1)):$(sqlite3 "$HQ_DB" "SELECT rows FROM archive_pruned WHERE month = 2023 * 12 + 1")" \
    "2022-11 pruned, no row taken"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM route_point")" 0 "the route's points gone from the store"

# the archive out of reach: these must not need it
mv "$T/remote" "$T/remote.away"
same() {   # same DESCRIPTION COMMAND...: as the twin answers ($out: ours)
	local d=$1
	shift
	run env HQ_DB="$T/twin.db" "$@"
	local want=$out wrc=$rc
	run "$@"
	is "$rc $out" "$wrc $want" "$d: as the twin"
}
same "--list, the archive out of reach" hq-query --list
like "$out" '"metric":"step_count".*"count":2160' "--list: every step sample counted"
like "$out" '"metric":"resting_heart_rate".*"count":90' "--list: every resting heart rate"
like "$out" '"route".*"count":40' "--list: the pruned route's 40 points"
like "$out" '"metric":"body_mass".*"count":1' "--list: the weight only a pruned month holds"
same "the metrics' names for completion" hq-query --complete-metrics
like "$out" 'body_mass' "their names: the weight's too"
# the week's load needs the median resting heart rate (every month) but
# for a setting: set, so that what is left is the newest day
cp "$conf" "$T/conf.held"
printf '[athlete]\nrest_hr = 55\nmax_hr = 190\n' >>"$conf"
same "the last week (its newest day: the store's)" hq-report week
like "$out" '"week":"2023-W13"' "the week of 2023-03-27 (W13)"
same "the week of 2023-02-13 (pruned)" hq-report week --week 2023-W07
like "$out" '"week":"2023-W07"' "the week of 2023-02-13 (W07)"
is "$(cached)" 0 "none of them read the archive"
cp "$T/conf.held" "$conf"

# the median resting heart rate over every month: that metric read back
mv "$T/remote.away" "$T/remote"
same "workouts (the median resting heart rate of 90 days)" hq-query workouts
same "load of 2023-01..2023-03" hq-report load --from 2023-01-01 --to 2023-03-31
is "$(cached)" 2 "the pruned months read (2023-01, 2023-02)"

# a late sample of 2023-01 (a new source), pushed and pruned again: the
# month's sums are added to
printf '{"metric":"steps","start":%d,"end":%d,"value":61,"unit":"count","source":"Late"}\n' \
    $((t0 + 86400 * 3 + 1800)) $((t0 + 86400 * 3 + 2400)) >"$T/late.jsonl"
hq-ingest -q "$T/late.jsonl" >/dev/null && HQ_DB="$T/twin.db" hq-ingest -q "$T/late.jsonl" >/dev/null
ok $? "a late sample in 2023-01, in both stores"
hq-archive -q push && hq-archive -q prune --before 2023-03 --yes
ok $? "pushed and 2023-01 pruned again"
rm -f "$cache"/*.db
mv "$T/remote" "$T/remote.away"
same "--list after the second prune" hq-query --list
like "$out" '"metric":"step_count".*"count":2161' "--list: 2,160 steps and the late one"
like "$out" '"metric":"step_count".*"Late"' "--list: its source"
is "$(cached)" 0 "nothing read"
done_testing
