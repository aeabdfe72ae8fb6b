#!/usr/bin/env bash
# A file whose new samples need the archived samples of a pruned month
# (their hours are totalled with them) and an archive that cannot be read:
# no remote, a wrong key, the remote gone, the network down. The file is
# refused by name with the months and why, exit non-zero, the store
# exactly as it was (its SQL dump the same); in a run of several files,
# the others are kept.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pruned.sh"

pruned_store "$T/phone.jsonl"
# a late sample of 2023-02-10 (pruned), and one of 2023-03-20 (not)
printf '{"metric":"steps","start":"2023-02-10T10:02:00Z","end":"2023-02-10T10:12:00Z","value":40,"unit":"count","source":"My Apple Watch"}\n' >"$T/late.jsonl"
printf '{"metric":"steps","start":"2023-03-20T10:02:00Z","end":"2023-03-20T10:12:00Z","value":40,"unit":"count","source":"My Apple Watch"}\n' >"$T/march.jsonl"
dump() { sqlite3 "$HQ_DB" .dump | md5sum; }
before=$(dump)
refused() {   # refused WHY-REGEX NAME
	is "$rc" 2 "$2: exit 2"
	like "$err" "late\.jsonl: 1 new samples fall in or beside months hq-archive prune took out of this store.*the archive's months 2023-02 could not be read back: .*$1.*nothing from this file was imported" \
	    "$2: the file, the month and why"
	is "$(dump)" "$before" "$2: the store as it was"
}

printf '[archive]\n' >"$conf"
run hq-ingest "$T/late.jsonl"
refused "remote" "no remote configured"

printf '[archive]\nremote = file://%s/remote\n' "$T" >"$conf"
key="$XDG_CONFIG_HOME/hq/archive.key"
mv "$key" "$T/key"
head -c 32 /dev/urandom | od -An -tx1 | tr -d " \n" >"$key"; echo >>"$key"
chmod 600 "$key"
run hq-ingest "$T/late.jsonl"
refused "wrong key" "a wrong key"
mv "$T/key" "$key"

mv "$T/remote" "$T/remote.away"
run hq-ingest "$T/late.jsonl"
refused "remote" "the remote gone"

# S3 on a port nobody listens on: tried again, then refused (about 4 s)
printf '[archive]\nremote = s3://b/hq\nendpoint = http://127.0.0.1:9\naddressing = path\n' >"$conf"
run env HQ_ARCHIVE_ACCESS_KEY=a HQ_ARCHIVE_SECRET_KEY=b hq-ingest "$T/late.jsonl"
refused "connect|refused" "the network down"
printf '[archive]\nremote = file://%s/remote\n' "$T" >"$conf"

# with a file that needs nothing archived: that one kept, exit 1
run hq-ingest "$T/march.jsonl" "$T/late.jsonl"
is "$rc" 1 "two files, one refused: exit 1"
like "$out" 'march\.jsonl.*"inserted":1,' "the other imported"
unlike "$out" 'late\.jsonl' "the refused one has no summary line"
like "$err" "late\.jsonl: .*could not be read back" "the refused one said"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM sample WHERE value = 40")" 1 "only the other's sample in the store"

# the archive back: the file imported
mv "$T/remote.away" "$T/remote"
run hq-ingest "$T/late.jsonl"
is "$rc" 0 "the remote back: imported"
done_testing
