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
# (50 + day mod 9), a night's sleep each night (23:00-06:00 UTC), a
# strap's heart rate each hour of 2023-01-20 alone, a weight on
# 2023-01-10 alone (a metric only pruned months hold) and a run with a
# route of 40 points on 2023-01-15
hourly_steps 2160 "$T/phone.jsonl" "My iPhone"
awk -v t0=$t0 'BEGIN { for (i = 0; i < 90; i++)
	printf "{\"metric\":\"sleep_analysis\",\"start\":%d,\"end\":%d,\"value\":\"HKCategoryValueSleepAnalysisAsleepCore\",\"source\":\"Watch\"}\n", t0 + i * 86400 - 3600, t0 + i * 86400 + 21600
	for (i = 0; i < 24; i++)
		printf "{\"metric\":\"heart_rate\",\"start\":%d,\"value\":%d,\"unit\":\"count/min\",\"source\":\"Strap\"}\n", t0 + 19 * 86400 + i * 3600, 60 + i }' >>"$T/phone.jsonl"
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
is "$rc" 0 "2022-11..2023-02 pruned"
is "$(sqlite3 "$HQ_DB" "SELECT rows FROM archive_pruned WHERE month = 2022 * 12 + 10")" 0 \
    "2022-11 pruned, no row taken"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM route_point")" 0 "the route's points gone from the store"
kept="SELECT count(*) FROM sample WHERE metric_id IN (SELECT id FROM metric WHERE identifier = '%s')"
is "$(sqlite3 "$HQ_DB" "$(printf "$kept" HKQuantityTypeIdentifierRestingHeartRate)")" 90 \
    "the resting heart rates stay in the store (every one)"
is "$(sqlite3 "$HQ_DB" "$(printf "$kept" HKCategoryTypeIdentifierSleepAnalysis)")" 90 "and the sleep"
is "$(sqlite3 "$HQ_DB" "$(printf "$kept" HKQuantityTypeIdentifierHeartRate)")" 0 "the heart rates gone"

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
like "$out" '"metric":"sleep","identifier":"HKCategoryTypeIdentifierSleepAnalysis","kind":"sleep","unit":"h","count":90,' \
    "--list: the 90 nights"
like "$out" '"route".*"count":40' "--list: the pruned route's 40 points"
like "$out" '"metric":"body_mass".*"count":1' "--list: the weight only a pruned month holds"
same "the metrics' names for completion" hq-query --complete-metrics
like "$out" 'body_mass' "their names: the weight's too"
same "the last week (its newest day: the store's)" hq-report week
like "$out" '"week":"2023-W13"' "the week of 2023-03-27 (W13)"
same "the week of 2023-02-13 (pruned)" hq-report week --week 2023-W07
like "$out" '"week":"2023-W07"' "the week of 2023-02-13 (W07)"
same "load of 2023-01..2023-03" hq-report load --from 2023-01-01 --to 2023-03-31
same "sleep by night over the pruned months" hq-query sleep --from 2023-01-01 --to 2023-02-28
is "$(cached)" 0 "none of them read the archive"

# heart rate's samples of 2022-11..2023-02: only 2023-01 held any (the
# sums say so), so only it is read back
mv "$T/remote.away" "$T/remote"
same "the heart rates of 2022-11..2023-02" hq-query heart_rate --from 2022-11-01 --to 2023-02-28
like "$out" '"value":83' "the strap's 24 (60..83)"
is "$(cached)" 1 "one month read (2023-01)"
# the run's heart rate (it has no statistics of its own) is its month's:
# read already; the median resting heart rate from the store
same "workouts (the median resting heart rate of 90 days)" hq-query workouts
like "$out" '"athlete_rest_hr":54,' "its resting heart rate: the median of 90 (54)"
is "$(cached)" 1 "no other month read"

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
