#!/usr/bin/env bash
# The hybrid read is lazy: after hq-archive prune, a command fetches a
# pruned month only when one of its statements reads that month's raw
# rows (hq-archive(1), "PRUNED MONTHS"). A query the rollups answer
# fetches nothing; a raw query over one day fetches its month; a route's
# points, its workout's month; every metric's count (--list) none, from
# the prune's sums; a read no month can be told from (every day's steps
# from the raw rows) every month. The answers are the original's, and
# --offline names only the months a command needed.
. "$(dirname "$0")/lib.sh"

R="file://$T/remote"
mkdir -p "$XDG_CONFIG_HOME/hq"
printf '[archive]\nremote = %s\n' "$R" >"$XDG_CONFIG_HOME/hq/config"
# steps every hour of 2022-09..2023-04 (5,808 samples), one source, and
# a week of 2022-10 with a workout's route
awk 'BEGIN { for (i = 0; i < 5808; i++) { t = 1661990400 + i * 3600
	printf "{\"metric\":\"steps\",\"start\":%d,\"end\":%d,\"value\":%d,\"unit\":\"count\",\"source\":\"Phone\"}\n", t, t + 600, 100 + i % 50 } }' >"$T/steps.jsonl"
gen-export --zip --days 7 --start 2022-10-10 --seed 5 -o "$T/e.zip" >/dev/null 2>&1
# and a run with a route of a month kept (2025-05)
need_fixtures workouts/togeojson/Friday-Evening-Run.gpx
hq-ingest -q "$T/steps.jsonl" "$T/e.zip" \
    "$HQ_FIXTURES/workouts/togeojson/Friday-Evening-Run.gpx" >/dev/null
near=$(sqlite3 "$HQ_DB" "SELECT printf('%.4f,%.4f,1', lat, lon) FROM route_point LIMIT 1")
run_id=$(sqlite3 "$HQ_DB" "SELECT id FROM workout WHERE start >= 1746000000")
cache="$HOME/.cache/hq/archive"
months() { ls "$cache" 2>/dev/null | grep -c '\.db$'; }

# the answers before the prune
ask() {
	hq-query steps --by day --format jsonl >"$1.rollup"
	hq-query steps --from 2023-01-20 --to 2023-01-20 --format jsonl >"$1.day"
	hq-query search --near "$near" >"$1.near"
	hq-query --list >"$1.list"
	hq-query workout "$run_id" --format gpx >"$1.gpx"
	hq-query search --near 51.9025,4.065,1 >"$1.kept"
}
ask "$T/before"
hq-archive -q init >/dev/null
hq-archive -q push
run hq-archive prune --before 2023-03 --yes
is "$rc" 0 "prune 2022-09..2023-02"

run hq-query steps --by day --format jsonl
is "$out" "$(cat "$T/before.rollup")" "steps by day (the rollups): the original's answer"
is "$(months)" 0 "the rollups answer it: no month fetched"
ok "$([ ! -d "$cache" ]; echo $?)" "nor the cache made"

run hq-query steps --from 2023-01-20 --to 2023-01-20 --format jsonl
is "$out" "$(cat "$T/before.day")" "a day's raw samples in a pruned month: the original's"
is "$(months)" 1 "its month alone fetched"

rm -rf "$cache"
run hq-query search --near "$near"
is "$out" "$(cat "$T/before.near")" "search --near over a pruned route: the original's answer"
is "$(months)" 1 "the route's workout's month alone fetched"

# the kept month's route: its points read by their route, so nothing
# of the pruned months (a correlated count or a join ordered by a column
# not returned read the whole route_point view)
rm -rf "$cache"
run hq-query workout "$run_id" --format gpx
is "$out" "$(cat "$T/before.gpx")" "a kept month's route as GPX: the original's"
run hq-query search --near 51.9025,4.065,1
is "$out" "$(cat "$T/before.kept")" "search --near it: the original's answer"
is "$(months)" 0 "no pruned month fetched for them"

run hq-query --list
is "$out" "$(cat "$T/before.list")" "--list (every metric counted): the original's answer"
is "$(months)" 0 "--list reads the store and what the prune summed: no month fetched"

# rollups not current (as after an import stopped short): steps by day
# reads the raw rows, so every month is fetched, and the answer holds
rm -rf "$cache"
sqlite3 "$HQ_DB" "UPDATE rollup_state SET last_sample_id = last_sample_id - 1"
run hq-query steps --by day --format jsonl
is "$out" "$(cat "$T/before.rollup")" "rollups declined: the original's answer, from the raw rows"
is "$(months)" 6 "rollups declined: every month fetched"
sqlite3 "$HQ_DB" "UPDATE rollup_state SET last_sample_id = last_sample_id + 1"

# --offline names the months a command needed, no more
run hq-query steps --from 2022-10-20 --to 2022-10-20 --offline
like "$err" "--offline: left out 2022-10: pruned from this store" "--offline names the one month read"
run hq-query steps --by day --offline
is "$out" "$(cat "$T/before.rollup")" "--offline, the rollups: the original's answer"
unlike "$err" "left out" "--offline, the rollups: nothing left out"

# the archive unreadable: what needs no month still answers
mv "$XDG_CONFIG_HOME/hq/archive.key" "$T/key.away"
rm -rf "$cache"
run hq-query steps --by day --format jsonl
is "$rc" 0 "no key, the rollups: exit 0"
run hq-query steps --from 2023-01-20 --to 2023-01-20
is "$rc" 2 "no key, a pruned month's raw rows: exit 2"
like "$err" "the archive's months 2023-01 could not be read back: .*archive.key" \
	"the month needed named, and why"
mv "$T/key.away" "$XDG_CONFIG_HOME/hq/archive.key"

done_testing
