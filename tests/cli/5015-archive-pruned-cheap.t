#!/usr/bin/env bash
# After hq-archive prune, an import reads the archive only when a merge
# of its new samples reaches an archived one: the nightly import of a
# whole export (the pruned samples duplicates), new samples after the
# pruned months, and a new heart rate in a pruned month (its rollups
# are added to, not merged) read nothing, and go in with the archive out
# of reach; a new sample just after the pruned months beside an archived
# one that runs past their end reads that month, and its hour is right.
# The truth is computed here from the generated samples.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pruned.sh"

mar=1677628800  # 2023-03-01T00:00:00Z
# the iPhone's steps, one more running from 2023-02-28T23:50 to
# 2023-03-01T00:20 (300; first: prune keeps the store's newest sample),
# and a strap's heart rate at :30 of each hour of 2023-01
{
	printf '{"metric":"steps","start":%d,"end":%d,"value":300,"unit":"count","source":"My iPhone"}\n' $((mar - 600)) $((mar + 1200))
	cat "$T/phone.jsonl"
	awk -v t0=$t0 'BEGIN { for (i = 0; i < 744; i++)
		printf "{\"metric\":\"heart_rate\",\"start\":%d,\"value\":%d,\"unit\":\"count/min\",\"source\":\"Strap\"}\n", t0 + i * 3600 + 1800, 60 + i % 20 }'
} >"$T/export.jsonl"
pruned_store "$T/export.jsonl"
ok $? "a store pushed, 2023-01..2023-02 pruned"
rollups() { sqlite3 "$HQ_DB" "SELECT count(*), sum(n), printf('%.3f', sum(sum)) FROM rollup"; }

# the archive out of reach: nothing below may need it
mv "$T/remote" "$T/remote.away"
held=$(rollups)
run hq-ingest "$T/export.jsonl"
is "$rc" 0 "the whole export again, the archive out of reach"
like "$out" '"inserted":0,' "every sample a duplicate"
is "$(rollups)" "$held" "the rollups unchanged"
printf '{"metric":"steps","start":"2023-03-20T10:02:00Z","end":"2023-03-20T10:12:00Z","value":40,"unit":"count","source":"My Apple Watch"}\n' >"$T/march.jsonl"
run hq-ingest "$T/march.jsonl"
is "$rc" 0 "a new sample after the pruned months"
# a heart rate at 2023-01-07T05:45 (pruned): the hour's rollup added to
h=$((t0 + (6 * 24 + 5) * 3600))
printf '{"metric":"heart_rate","start":%d,"value":150,"unit":"count/min","source":"Strap"}\n' $((h + 2700)) >"$T/hr.jsonl"
run hq-ingest "$T/hr.jsonl"
is "$rc" 0 "a new heart rate in a pruned month"
is "$(cached)" 0 "none of them read the archive"
hr="(SELECT id FROM metric WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')"
is "$(sqlite3 "$HQ_DB" "SELECT sum(n), printf('%d', sum(sum)), printf('%d', max(max)) FROM rollup
    WHERE metric_id = $hr AND slot >= $h AND slot < $h + 3600" | tr '|' ' ')" \
    "2 $((60 + ($h - t0) / 3600 % 20 + 150)) 150" "its hour: the archived beat and the new one"

# a Watch at 2023-03-01T00:05-00:15 (not pruned), beside the archived
# sample that runs into March: that month read, the hour's total
# 500 + the iPhone's hour alone at 00:00-00:05 (half of it) + the long
# sample's 10 of its 30 minutes not under the Watch (100)
mv "$T/remote.away" "$T/remote"
printf '{"metric":"steps","start":%d,"end":%d,"value":500,"unit":"count","source":"My Apple Watch"}\n' $((mar + 300)) $((mar + 900)) >"$T/watch.jsonl"
run hq-ingest "$T/watch.jsonl"
is "$rc" 0 "a new sample beside an archived one that runs past the pruned months"
is "$(cached)" 1 "that month read (2023-02)"
is "$(sqlite3 "$HQ_DB" "SELECT printf('%d', sum) FROM rollup_merged WHERE metric_id = $steps AND slot = $mar")" \
    "$((500 + $(v $mar) / 2 + 100))" "its hour: the Watch, the iPhone's uncovered parts"

# a late sample of 2023-01 and one of 2023-03-25 in one file: merged
# apart, so only 2023-01 is read, not every month between them
rm -f "$cache"/*.db
feb="SELECT count(*), printf('%.3f', sum(sum)) FROM rollup_merged WHERE slot >= $t0 + 31 * 86400 AND slot < $mar"
held=$(sqlite3 "$HQ_DB" "$feb")
h=$((t0 + (19 * 24 + 10) * 3600))
printf '{"metric":"steps","start":%d,"end":%d,"value":%d,"unit":"count","source":"Late"}\n' \
    $((h + 1800)) $((h + 2400)) 61 $((mar + 24 * 86400 + 1800)) $((mar + 24 * 86400 + 2400)) 62 >"$T/both.jsonl"
run hq-ingest "$T/both.jsonl"
is "$rc" 0 "a late sample and a recent one"
is "$(cached)" 1 "one month read (2023-01)"
is "$(sqlite3 "$HQ_DB" "SELECT printf('%d', sum) FROM rollup_merged WHERE metric_id = $steps AND slot = $h")" \
    "$(($(v $h) + 61))" "the late one's hour: the archived iPhone sample and it"
is "$(sqlite3 "$HQ_DB" "$feb")" "$held" "the months between untouched (2023-02's hours as they were)"

# a run with a route (2025-05, a month kept) after the prune: hq-ingest
# keeps its training figures through the archive, and its route's points
# are read by their route, so no pruned month is read back
need_fixtures workouts/togeojson/Friday-Evening-Run.gpx
rm -f "$cache"/*.db
run hq-ingest "$HQ_FIXTURES/workouts/togeojson/Friday-Evening-Run.gpx"
is "$rc" 0 "a run with a route imported"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM workout_figures WHERE route_gain_m IS NOT NULL")" 1 \
    "its figures kept, its route's ascent among them"
is "$(cached)" 0 "no pruned month read back for them"

done_testing
