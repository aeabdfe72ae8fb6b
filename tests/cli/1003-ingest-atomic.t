#!/usr/bin/env bash
# A file is imported whole or not at all: a truncated file, a malformed
# file and kill -9 in the middle each leave the store byte-for-byte as it
# was, and the error names file:line. Two ingests at once neither corrupt
# nor duplicate.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"

q() { sqlite3 "$HQ_DB" "$1"; }
# The store's state: every row (as SQL) and the main file's bytes, after
# moving everything committed into the main file.
state() {
	sqlite3 "$HQ_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	{ sqlite3 "$HQ_DB" .dump; cat "$HQ_DB"; } | sha256sum | cut -d' ' -f1
}

gen-export --days 3 --xml -o "$T/small.xml" >/dev/null 2>&1
gen-export --days 60 --xml -o "$T/big.xml" >/dev/null 2>&1
run hq-ingest "$T/small.xml"
is "$rc" 0 "a first export imports"
before=$(state)
nsamples=$(q 'select count(*) from sample')

# Truncated in the middle of an element.
head -c $(( $(wc -c <"$T/big.xml") / 2 )) "$T/big.xml" >"$T/trunc.xml"
lines=$(wc -l <"$T/trunc.xml")
run hq-ingest "$T/trunc.xml"
is "$rc" 2 "a truncated file fails (exit 2)"
like "$err" "trunc\.xml:[0-9]+: .*\(nothing from this file was imported\)" "the error names file:line"
line=$(printf '%s' "$err" | sed -n 's/.*trunc\.xml:\([0-9]*\):.*/\1/p')
ok "$([ "${line:-0}" -ge $((lines - 1)) ] && [ "$line" -le $((lines + 1)) ]; echo $?)" "the line is where the file ends ($line of $lines)"
is "$(state)" "$before" "the store is byte-for-byte unchanged"

# Malformed in the middle: a broken end tag at line 5000.
awk 'NR == 5000 { sub(/\/>/, "/ >>") } { print }' "$T/big.xml" | sed '5000s/<Record /<Record broken="1" </' | sed '5000s/\/ >>/><\/Recrd>/' >"$T/bad.xml"
run hq-ingest "$T/bad.xml"
is "$rc" 2 "a malformed file fails (exit 2)"
like "$err" "bad\.xml:5000: " "the error names line 5000"
is "$(state)" "$before" "the store is byte-for-byte unchanged"

# The same inside a zip: the error names the zip, the entry and the line.
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[1], "apple_health_export/export.xml")' "$T/bad.xml" "$T/bad.zip"
run hq-ingest "$T/bad.zip"
is "$rc" 2 "a zip with a malformed export fails"
like "$err" "bad\.zip:apple_health_export/export\.xml:5000: " "the error names zip:entry:line"
is "$(state)" "$before" "the store is byte-for-byte unchanged"

# Truncated zip.
gen-export --days 3 --zip -o "$T/small.zip" >/dev/null 2>&1
head -c $(( $(wc -c <"$T/small.zip") * 2 / 3 )) "$T/small.zip" >"$T/trunc.zip"
run hq-ingest "$T/trunc.zip"
is "$rc" 2 "a truncated zip fails"
like "$err" "trunc\.zip" "the error names the zip"
is "$(state)" "$before" "the store is byte-for-byte unchanged"

# kill -9 in the middle.
hq-ingest "$T/big.xml" >"$T/killed.out" 2>&1 &
pid=$!
# Kill it once it has read a quarter of the file: in the middle of its
# transaction however fast or slow this machine is.
quarter=$(( $(wc -c <"$T/big.xml") / 4 ))
for _ in $(seq 1 3000); do
	read_so_far=$(sed -n 's/^rchar: //p' "/proc/$pid/io" 2>/dev/null)
	[ -n "$read_so_far" ] && [ "$read_so_far" -ge "$quarter" ] && break
	sleep 0.01
done
kill -9 "$pid" 2>/dev/null
killed=$?
wait "$pid" 2>/dev/null
is "$killed" 0 "hq-ingest was killed while it ran"
is "$(cat "$T/killed.out")" "" "(it had not finished: no summary)"
is "$(state)" "$before" "after kill -9 the store is byte-for-byte unchanged"
is "$(q 'PRAGMA integrity_check')" ok "and sound"

# Two at once: one waits for the other; nothing twice.
hq-ingest "$T/big.xml" >"$T/a.out" 2>"$T/a.err" &
pa=$!
hq-ingest "$T/big.xml" >"$T/b.out" 2>"$T/b.err" &
pb=$!
wait "$pa"; ra=$?
wait "$pb"; rb=$?
is "$ra $rb" "0 0" "two concurrent ingests of the same file both succeed"
ia=$(sed -n 's/.*"inserted":\([0-9]*\).*/\1/p' "$T/a.out")
ib=$(sed -n 's/.*"inserted":\([0-9]*\).*/\1/p' "$T/b.out")
ok "$( { [ "$ia" -gt 0 ] && [ "$ib" -eq 0 ]; } || { [ "$ib" -gt 0 ] && [ "$ia" -eq 0 ]; }; echo $?)" "one inserted ($ia/$ib), the other found it all there"
is "$(q 'select count(*) from (select 1 from sample group by metric_id, source_id, start, end, value, text having count(*) > 1)')" 0 "no sample twice"
is "$(q 'PRAGMA integrity_check')" ok "the store is sound"

# Another writer holds the lock (sqlite3, for a known time).
hold_lock() {   # SECONDS
	# .timeout: the probe below may hold the lock for an instant just as
	# this BEGIN runs; without it the holder would give up at once.
	{ echo ".timeout 10000"; echo "BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS lock_probe(x);"; sleep "$1"; echo "ROLLBACK;"; } |
		sqlite3 "$HQ_DB" &
	holder=$!
	# Wait until the lock is really taken.
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		sqlite3 "$HQ_DB" "PRAGMA busy_timeout=0; BEGIN IMMEDIATE; ROLLBACK;" >/dev/null 2>&1 || return 0
		sleep 0.1
	done
}

# --wait 0 while another holds the lock: a clear message, nothing imported.
printf '{"metric":"weight","start":"2024-12-01T07:00:00Z","value":70}\n' >"$T/w.jsonl"
hold_lock 3
run hq-ingest --wait 0 "$T/w.jsonl"
wait "$holder"
is "$rc" 2 "--wait 0 with the store locked: exit 2"
like "$err" "locked by another writer" "says the store is locked by another writer"
is "$(q "select count(*) from sample s join source o on o.id=s.source_id where o.name='jsonl'")" 0 "and imported nothing"

# On a terminal, the second one says it is waiting, then does its work.
printf '{"metric":"weight","start":"2024-12-01T07:00:00Z","value":70,"source":"waiter"}\n' >"$T/w2.jsonl"
hold_lock 2
script -qec "hq-ingest --wait 120 '$T/w2.jsonl'" /dev/null >"$T/wait.term" 2>&1
wait "$holder"
like "$(cat "$T/wait.term")" "waiting for another hq-ingest to finish" "a waiting ingest says so on a terminal"
is "$(q "select count(*) from sample s join source o on o.id=s.source_id where o.name='waiter'")" 1 "and imports once the lock is free"
done_testing
