#!/usr/bin/env bash
# hq-archive prune and the hybrid read: old months' raw rows leave the
# store only once the archive holds them (each month checked against the
# remote); the same golden questions as 5001 answer byte for byte as
# before, the pruned months read back into a bounded 0600 cache; with
# --offline the months left out are named; a push after a prune keeps the
# archive whole; a prune killed leaves the store whole.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/archive.sh"
need_fixtures apple-health/dogsheep/export.xml cgm/dexcom-clarity-example.csv labs/hl7-r4

R="file://$T/remote"
mkdir -p "$XDG_CONFIG_HOME/hq"
printf '[archive]\nremote = %s\n' "$R" >"$XDG_CONFIG_HOME/hq/config"
make_store "$HQ_DB"
samples() { sqlite3 "$1" 'SELECT count(*) FROM sample; SELECT count(*) FROM route_point' | paste -sd' '; }
all_before=$(samples "$HQ_DB")
golden "$HQ_DB" "$T/golden.before"
run hq-archive init
is "$rc" 0 "init"

# nothing pushed: refused
run hq-archive prune --before 2024-12 --yes
is "$rc" 1 "prune before any push: exit 1"
like "$err" "nothing pushed to .*: push first" "prune before any push says push first"
run hq-archive push -q
is "$rc" 0 "push"

# usage
run hq-archive prune
is "$rc" 2 "prune without --keep or --before: a usage error"
run hq-archive prune --keep 1w
is "$rc" 2 "--keep 1w: a usage error"
like "$err" "--keep takes a span, 1y or 18m" "--keep says what it takes"
run hq-archive list --yes
is "$rc" 2 "--yes goes with prune only"

# a month changed since the push is refused, by name, nothing deleted
printf '{"metric":"steps","start":"2019-03-05T10:00:00Z","end":"2019-03-05T10:10:00Z","value":321,"unit":"count","source":"Late Import"}\n' >"$T/late.jsonl"
hq-ingest -q "$T/late.jsonl" >/dev/null
changed=$(samples "$HQ_DB")
run hq-archive prune --before 2024-12 --yes
is "$rc" 1 "a month changed since the push: exit 1"
like "$err" "month 2019-03 changed since the last push: push first; nothing was pruned" \
	"the month not verified is named"
is "$(samples "$HQ_DB")" "$changed" "nothing was deleted"
sqlite3 "$HQ_DB" "DELETE FROM sample WHERE source_id = (SELECT id FROM source WHERE name = 'Late Import')"
hq-archive push -q
# the answers again: the late import's source stays in the store, and
# hq-query search counts sources among its documents (its scores moved)
golden "$HQ_DB" "$T/golden.before"

# a damaged archive copy is refused too: the remote is read back first
# (every segment damaged: which object holds which month is secret, and one
# picked by size was at times a month after the cut, or the one not by
# month, which a prune need not read)
cp -R "$T/remote" "$T/saved"
for obj in $(ls "$T/remote" | grep -E '^[0-9a-f]{32}$'); do
	printf 'X' | dd of="$T/remote/$obj" bs=1 seek=100 conv=notrunc 2>/dev/null
done
run hq-archive prune --before 2024-12 --yes
is "$rc" 1 "a damaged segment on the remote: exit 1"
like "$err" "segment [0-9-]+: damaged or altered.*nothing was pruned" "the damaged month is named"
is "$(samples "$HQ_DB")" "$all_before" "nothing was deleted"
rm -rf "$T/remote"; mv "$T/saved" "$T/remote"

# dry run by default: says what would go, deletes nothing
run env HQ_NOW=2025-12-15T12:00:00Z hq-archive prune --keep 1y
is "$rc" 0 "prune --keep 1y (dry run): exit 0"
like "$out" '"prune":false,"before":"2024-12","months":[1-9][0-9]*,' "--keep 1y on 2025-12-15 keeps 2024-12 on"
like "$err" "would prune [0-9]{4}-[0-9]{2}, .*2024-[0-9]{2}\.\.2024-11 .*add --yes" "the dry run names the months"
is "$(samples "$HQ_DB")" "$all_before" "a dry run deletes nothing"

size0=$(stat -c %s "$HQ_DB")
cp "$HQ_DB" "$T/orig.db"
run env HQ_NOW=2025-12-15T12:00:00Z hq-archive prune --keep 1y --yes
is "$rc" 0 "prune --keep 1y --yes: exit 0"
like "$out" '"prune":true,"before":"2024-12"' "prune prints its summary"
like "$err" "pruned [0-9]{4}-[0-9]{2}, .*\.\.2024-11: their raw samples" "prune names the months"
after=$(samples "$HQ_DB")
left=${after%% *}
ok "$([ "$left" -lt "$((${all_before%% *} / 4))" ]; echo $?)" "raw samples left the store ($all_before -> $after)"
few="(SELECT id FROM metric WHERE identifier IN ('HKQuantityTypeIdentifierRestingHeartRate', 'HKCategoryTypeIdentifierSleepAnalysis'))"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM sample WHERE start < strftime('%s', '2024-12-01') AND id NOT IN (SELECT sample_id FROM correlation_member) AND id < (SELECT max(id) FROM sample) AND metric_id NOT IN $few")" 0 \
	"no raw sample before 2024-12 but a correlation's, a resting heart rate's or sleep's (and the newest: its id stays the greatest)"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM sample WHERE start < strftime('%s', '2024-12-01') AND metric_id IN $few")" \
    "$(sqlite3 "$T/orig.db" "SELECT count(*) FROM sample WHERE start < strftime('%s', '2024-12-01') AND metric_id IN $few")" \
	"every resting heart rate and sleep sample before 2024-12 kept"
ok "$([ "$(stat -c %s "$HQ_DB")" -lt "$size0" ]; echo $?)" "the store is smaller ($size0 -> $(stat -c %s "$HQ_DB") bytes)"
is "$(sqlite3 "$HQ_DB" 'PRAGMA integrity_check')" ok "the pruned store is whole"
run hq-archive prune --before 2024-12 --yes
like "$out" '"months":0,"already":[1-9]' "a second prune finds nothing new"

# the hybrid read: the same answers, byte for byte
rm -rf "$HOME/.cache/hq/archive"
golden "$HQ_DB" "$T/golden.pruned"
cmp -s "$T/golden.before" "$T/golden.pruned"
ok $? "every golden answer after the prune is byte for byte the original's"
diff "$T/golden.before" "$T/golden.pruned" | head -8 | sed 's/^/# /'
cache="$HOME/.cache/hq/archive"
n=$(ls "$cache" | grep -c '\.db$')
ok "$([ "$n" -gt 10 ]; echo $?)" "the pruned months were read into the cache ($n)"
is "$(stat -c %a "$cache")" 700 "the cache directory is 0700"
is "$(stat -c %a "$cache"/*.db | sort -u)" 600 "each cached month is 0600"
is "$(ls "$cache" | grep -cv '\.db$')" 0 "nothing else is left in the cache"

# --offline: local data only, the months left out named (those whose
# raw rows a command read: heart rate's daily median reads every one)
run hq-query heart_rate --by day --agg median --offline
is "$rc" 0 "--offline: exit 0"
like "$err" "--offline: left out [0-9]{4}-[0-9]{2}(\.\.[0-9]{4}-[0-9]{2})?, .*\.\.2024-11: pruned from this store, only in the archive" "--offline names the archive-only months"
run hq-query steps --by day --from 2024-12-10 --offline
unlike "$err" "left out" "--offline over kept months only: nothing left out, nothing said"
run hq-report cgm --from 2024-10-20 --to 2024-12-31 --offline
like "$err" "left out .*2024-11" "hq-report --offline names them too"
run hq-correlate steps sleep --from 2024-10-20 --to 2024-12-01 --offline
like "$err" "left out .*2024-11" "hq-correlate --offline names them too"

# the cache's bound: least recently used months out; a query needing more: a clear error
total=$(du -cb "$cache"/*.db | tail -1 | cut -f1)
half=$((total / 2))
printf '[archive]\nremote = %s\ncache_size = %s\n' "$R" "$half" >"$XDG_CONFIG_HOME/hq/config"
run hq-query heart_rate --from 2024-11-01 --to 2024-11-01
is "$out" "$(sed -n '/^\$ hq-query heart_rate --from 2024-11-01/,/^(exit/p' "$T/golden.before" | sed '1d;$d')" \
	"a narrow query within the bound answers as before"
now=$(du -cb "$cache"/*.db | tail -1 | cut -f1)
ok "$([ "$now" -le "$half" ]; echo $?)" "the cache was trimmed to its bound ($total -> $now of $half bytes)"
printf '[archive]\nremote = %s\ncache_size = 1\n' "$R" >"$XDG_CONFIG_HOME/hq/config"
run hq-query heart_rate --by day --agg median
is "$rc" 2 "a query needing more than the cache holds: exit 2"
like "$err" "over the archive cache's bound of [0-9]+ MB \(\[archive\] cache_size\)" "it says the bound"
printf '[archive]\nremote = %s\n' "$R" >"$XDG_CONFIG_HOME/hq/config"

# no key, no remote: the months are named, --offline is suggested
mv "$XDG_CONFIG_HOME/hq/archive.key" "$T/key.away"
rm -rf "$cache"
run hq-query heart_rate --by day --agg median
is "$rc" 2 "the archive unreadable: exit 2"
like "$err" "the archive's months [0-9]{4}-[0-9]{2}(\.\.[0-9]{4}-[0-9]{2})?, .*could not be read back: .*archive.key.*--offline" \
	"unreadable: the months, why, and --offline"
mv "$T/key.away" "$XDG_CONFIG_HOME/hq/archive.key"

# a push after the prune keeps the pruned months; a new machine gets them all
run hq-archive push --all
is "$rc" 0 "push --all after a prune: exit 0"
like "$out" '"kept":[1-9]' "the pruned months are kept as they are in the archive"
run hq-archive verify --format jsonl
is "$rc" 0 "verify after the prune: exit 0"
mkdir -p "$T/new/config/hq"
cp "$XDG_CONFIG_HOME/hq/archive.key" "$T/new/config/hq/"
run env HOME="$T/new" XDG_CONFIG_HOME="$T/new/config" hq-archive --remote "$R" --db "$T/new/hq.db" restore
is "$rc" 0 "restore after prune and push: exit 0"
is "$(samples "$T/new/hq.db")" "$all_before" "the restored store has every raw row"
golden "$T/new/hq.db" "$T/golden.restored"
cmp -s "$T/golden.before" "$T/golden.restored"
ok $? "the restored store answers as the original did"

# a prune killed anywhere leaves the store whole: as it was, or pruned;
# the kills fall through a whole prune's run (checks, deletes, VACUUM)
cp "$T/new/hq.db" "$T/k.db"
t0=$(date +%s%N)
HQ_DB="$T/k.db" hq-archive prune --before 2024-12 --yes >/dev/null 2>&1
full=$(( ($(date +%s%N) - t0) / 1000000 ))
for pct in 5 20 40 60 75 85 90 95 98; do
	rm -rf "$T/k.db"*
	cp "$T/new/hq.db" "$T/k.db"
	HQ_DB="$T/k.db" hq-archive prune --before 2024-12 --yes >/dev/null 2>&1 &
	pid=$!
	ms=$((full * pct / 100))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	got=$(samples "$T/k.db")
	ok "$([ "$(sqlite3 "$T/k.db" 'PRAGMA integrity_check')" = ok ] &&
		{ [ "$got" = "$all_before" ] || [ "$got" = "$after" ]; }; echo $?)" \
		"killed at ${pct}% of a prune (${ms} of ${full} ms): the store is whole ($got)"
done
rm -rf "$T/k.db.archive-tmp"
run env HQ_DB="$T/k.db" hq-archive prune --before 2024-12 --yes
is "$rc" 0 "a rerun after the kills completes"
is "$(samples "$T/k.db")" "$after" "and prunes the same rows"

# the remote's clear object is read before any key: a passphrase cost
# past hq's bounds (Argon2id for hours, or all the memory) is refused
mkdir -p "$T/evil"
printf 'hq-archive 1\ncheck %064d\nkdf argon2id13 3 5033164800000 %032d\n' 0 0 >"$T/evil/hq-archive"
run hq-archive --remote "file://$T/evil" --db "$T/evil.db" restore --passphrase <<<"correct horse battery"
is "$rc" 1 "a clear object asking 5 TB for Argon2id: exit 1"
like "$err" "asks a passphrase cost past hq's bounds \(3 passes, 5033164800000 bytes\)" "it is refused, saying why"

done_testing
