#!/usr/bin/env bash
# Rows imported into a month after hq-archive prune took it out of the
# store are not lost to the archive: the push fetches the archived month,
# merges the store's new rows into it and sends it as the month's new
# segment; a push with nothing new fetches nothing; a sample imported
# again (a whole export read twice) is not doubled; a restore elsewhere
# and the hybrid read both have every row. A query killed while it
# fetched leaves a scratch directory in the cache: the next one that
# fetches removes it once it is old and no query holds it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/archive.sh"

# steps every hour of 2023-01..2023-04 (2,880 samples), one source
hourly_steps 2880 "$T/steps.jsonl"
# and an export of a week of 2023-01 with its workouts' routes
gen-export --zip --days 7 --start 2023-01-10 --seed 5 -o "$T/e.zip" >/dev/null 2>&1
hq-ingest -q "$T/steps.jsonl" "$T/e.zip" >/dev/null
# the raw samples of 2023-01-05 (each a row, as the hybrid read has
# them; the rollups of an import into a pruned month: 5013)
jan() { hq-query steps --from 2023-01-05 --to 2023-01-05 --format jsonl |
	awk -F'"value":' '{ split($2, a, ","); s += a[1]; n++ } END { print n, s }'; }
before=$(samples_of "$HQ_DB")
jan_before=$(jan)
hq-archive -q init >/dev/null
hq-archive -q push
run hq-archive prune --before 2023-03 --yes
is "$rc" 0 "prune 2023-01..2023-02"

# the prune noted what the store keeps of each month: nothing to fetch
run hq-archive -v push --all
is "$rc" 0 "push after the prune"
like "$out" '"sent":0,' "nothing sent"
unlike "$err" "GET [0-9a-f]{32}" "no segment fetched"

# new rows into a pruned month: merged into its segment and sent
printf '{"metric":"steps","start":"2023-01-05T10:30:00Z","end":"2023-01-05T10:40:00Z","value":777,"unit":"count","source":"Late"}\n' >"$T/late.jsonl"
run hq-ingest "$T/late.jsonl"
is "$rc" 0 "a new sample in a pruned month: imported (its hour totalled with the archived ones: 5013)"
run hq-archive -v push
is "$rc" 0 "push after an import into a pruned month"
like "$out" '"sent":[1-9][0-9]*,' "the month is sent again"
is "$(grep -cE 'GET [0-9a-f]{32}' <<<"$err")" 1 "one archived month fetched (2023-01)"
run hq-archive -v push --all
like "$out" '"sent":0,' "then nothing more to send"
unlike "$err" "GET [0-9a-f]{32}" "and nothing fetched"

run hq-archive verify --format jsonl
is "$rc" 0 "verify"
is "$(grep -c '"month":"2023-0[12]".*"status":"ok, pruned from the local store"' <<<"$out")" 2 \
    "verify: the pruned months are the archive's and the store's as pushed"

# the whole file imported again, as a nightly import reads a whole
# export: the pruned samples are duplicates, as before the prune — the
# store does not grow back, no hour is counted twice
held=$(samples_of "$HQ_DB")
rollups=$(sqlite3 "$HQ_DB" "SELECT count(*), sum(n), printf('%.3f', sum(sum)) FROM rollup")
run hq-ingest "$T/steps.jsonl"
is "$rc" 0 "the whole file imported again after the prune"
like "$out" '"inserted":0,"duplicates":2880,' "every sample a duplicate, the pruned ones too"
is "$(samples_of "$HQ_DB")" "$held" "the store holds what it held: the pruned samples not back"
is "$(sqlite3 "$HQ_DB" "SELECT count(*), sum(n), printf('%.3f', sum(sum)) FROM rollup")" "$rollups" \
	"the rollups unchanged: no hour counted twice"
points=$(sqlite3 "$HQ_DB" "SELECT count(*) FROM route_point")
run hq-ingest "$T/e.zip"
is "$rc" 0 "the export imported again after the prune"
like "$out" '"inserted":0,.*"route_points":0,' "its samples and its routes' points duplicates"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM route_point")" "$points" "the pruned routes stay without their points"
run hq-archive push -q
is "$rc" 0 "push after a pruned sample is imported again"

# a new machine: every row once, the late one included
run env HOME="$T/new" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" hq-archive -q --db "$T/new.db" restore
is "$rc" 0 "restore"
read -r n s <<<"$before"
is "$(samples_of "$T/new.db")" "$((n + 1)) $((s + 777))" "the restored store has every sample once, the late one too"

# the hybrid read: the month's archived rows and the late one
rm -rf "$HOME/.cache/hq/archive"
run jan
is "$rc" 0 "hq-query over the pruned month"
read -r n s <<<"$jan_before"
is "$out" "$((n + 1)) $((s + 777))" "it reads the archived rows and the late one"

# scratch directories left by killed queries: old and not held, removed.
# Every time the sweep compares is set here from the clock the commands
# read (date, time()): under faketime (make check-clock) that clock is
# not the one the kernel stamps a new file with, and libfaketime shifts
# what stat() says unless NO_FAKE_STAT is set (it shifted a file touched
# "2 hours ago" to now when the faked clock ran ahead of the real one).
export NO_FAKE_STAT=1
cache="$HOME/.cache/hq/archive"
mkdir -p "$cache/tmp.Stale1" "$cache/tmp.Fresh1" "$cache/tmp.Held01"
: >"$cache/tmp.Stale1/month.db"
: >"$cache/tmp.Held01/lock"
touch -d '2 hours ago' "$cache/tmp.Stale1/month.db" "$cache/tmp.Stale1" \
    "$cache/tmp.Held01/lock" "$cache/tmp.Held01"
touch -d 'now' "$cache/tmp.Fresh1"
rm -f "$cache"/*.db
exec 8<"$cache/tmp.Held01/lock"
flock -s 8
run jan
is "$rc" 0 "a query that fetches"
ok "$([ ! -e "$cache/tmp.Stale1" ]; echo $?)" "an old scratch directory no query holds is removed"
ok "$([ -d "$cache/tmp.Fresh1" ]; echo $?)" "a new one is kept (a query may be starting in it)"
ok "$([ -d "$cache/tmp.Held01" ]; echo $?)" "an old one a query holds is kept"
exec 8<&-
is "$(ls "$cache" | grep -c '^tmp\.')" 2 "the query's own is gone"

# a month past what a push builds in memory (12 MiB): built in a file,
# the same bytes each time (450,000 heart rates in 2023-01)
awk 'BEGIN { for (i = 0; i < 450000; i++) printf "{\"metric\":\"heart_rate\",\"start\":%d,\"value\":%d,\"unit\":\"count/min\",\"source\":\"Strap\"}\n", 1672531200 + i * 5, 60 + i % 70 }' >"$T/big.jsonl"
export HQ_DB="$T/big.db"
hq-ingest -q "$T/big.jsonl" >/dev/null
rm "$T/big.jsonl"
hq-archive -q --remote "file://$T/big" init >/dev/null
run hq-archive --remote "file://$T/big" push
is "$rc" 0 "push of a month larger than the memory bound"
like "$out" '"rows":4550[0-9][0-9],' "its rows"
run hq-archive --remote "file://$T/big" push --all
like "$out" '"sent":0,' "built again: the same bytes, nothing sent"
run hq-archive -q --remote "file://$T/big" --db "$T/big-new.db" restore
is "$(samples_of "$T/big-new.db")" "$(samples_of "$T/big.db")" "restored whole"

done_testing
