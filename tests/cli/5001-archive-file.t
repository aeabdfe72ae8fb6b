#!/usr/bin/env bash
# hq-archive over a directory (file:///DIR): a store of many months and
# years pushed, restored on a "new machine" (an empty HOME, only the key
# and the remote) and asked the same questions, byte for byte; nothing
# readable in the remote's bytes; only changed months pushed; every kind
# of tampering refused by name; a full disk during restore leaves nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/archive.sh"
need_fixtures apple-health/dogsheep/export.xml cgm/dexcom-clarity-example.csv labs/hl7-r4

R="file://$T/remote"
make_store "$HQ_DB"

run hq-archive --remote "$R" push
is "$rc" 1 "push before init: exit 1"
like "$err" "holds no archive: run hq-archive init first" "push before init says init"

run hq-archive --remote "$R" init
is "$rc" 0 "init: exit 0"
like "$err" "Without it nothing in the archive can be read back" "init says what losing the key means"
key="$XDG_CONFIG_HOME/hq/archive.key"
is "$(stat -c %a "$key")" 600 "the key file is 0600"
is "$(wc -c <"$key")" 65 "the key: 64 hex digits and a newline"

run hq-archive --remote "$R" push
is "$rc" 0 "push: exit 0"
sent=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["sent"], d["segments"], d["unchanged"])')
like "$sent" '^([0-9]+) \1 False$' "the first push sends every segment ($sent)"
nseg=${sent%% *}
[ "$nseg" -gt 30 ]
ok $? "segments for many months of several years ($nseg)"

# nothing readable leaves: planted strings, a lab test, a date, SQLite's header
for s in "Scale Planted" "SQLite format 3" "Hemoglobin" "2019-02-27" "Apple Watch" "dexa"; do
	grep -rqaF "$s" "$T/remote"
	is "$?" 1 "the remote's bytes hold no '$s'"
done
# (no pattern for dates over the names: random hex matched one, 2 runs in
# 3; the names are random hex, the manifest and the settings, no more)
is "$(ls "$T/remote" | grep -cvE '^([0-9a-f]{32}|manifest|hq-archive)$')" 0 \
	"object names: 32 random hex digits, the manifest and the archive's settings"

run hq-archive --remote "$R" push
like "$out" '"sent":0,.*"unchanged":true' "a second push finds nothing changed"
run hq-archive --remote "$R" list --format jsonl
is "$(printf '%s\n' "$out" | grep -c '"month":"20')" "$((nseg - 1))" "list: a row a month (and the dims)"
like "$out" '"month":"2019-02"' "list names 2019-02"

# only the changed month goes again
printf '{"metric":"body_mass","start":"2021-06-15T08:00:00Z","value":81.5,"unit":"kg"}\n' >"$T/new.jsonl"
hq-ingest -q "$T/new.jsonl" >/dev/null
run hq-archive --remote "$R" push
like "$out" '"sent":2,' "after one new sample: that month and the dims are sent"
like "$out" '"deleted":2,' "and the objects they replace are deleted"

run hq-archive --remote "$R" verify --format jsonl
is "$rc" 0 "verify: exit 0"
is "$(printf '%s\n' "$out" | grep -c '"status":"ok"')" "$nseg" "verify: every segment ok and equal to the local store"

# a new machine: an empty HOME with the key alone
golden "$HQ_DB" "$T/golden.before"
mkdir -p "$T/new/config/hq"
cp "$key" "$T/new/config/hq/archive.key"
chmod 600 "$T/new/config/hq/archive.key"
newenv() { HOME="$T/new" XDG_CONFIG_HOME="$T/new/config" XDG_DATA_HOME="$T/new/data" HQ_DB= "$@"; }
run newenv hq-archive --remote "$R" restore
is "$rc" 0 "restore on a new machine: exit 0"
like "$out" '"restore":true' "restore prints its summary"
restored="$T/new/data/hq/hq.db"
is "$(stat -c %a "$restored")" 600 "the restored store is 0600"
golden "$restored" "$T/golden.after"
cmp -s "$T/golden.before" "$T/golden.after"
ok $? "every golden answer is byte for byte the original's"
diff "$T/golden.before" "$T/golden.after" | head -5 | sed 's/^/# /'
[ "$(grep -c '(exit 0)' "$T/golden.before")" -ge 15 ]
ok $? "the golden questions have answers ($(grep -c '(exit 0)' "$T/golden.before") of them)"
for t in sample workout route_point lab_result report clinical_record; do
	is "$(sqlite3 "$restored" "SELECT count(*) FROM $t")" \
	   "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM $t")" "restored: as many $t rows"
done

run newenv hq-archive --remote "$R" restore
is "$rc" 1 "restore onto an existing store: refused"
like "$err" "exists: restore makes a new store" "and says why"

# tampering, each refused by name, no store left
cp -a "$T/remote" "$T/remote.good"
restore_fails() {   # WANT NAME
	rm -rf "$T/r2"
	run newenv hq-archive --remote "$R" --db "$T/r2/hq.db" restore
	is "$rc" 1 "$2: restore exits 1"
	like "$err" "$1" "$2: said by name"
	is "$(ls "$T/r2" 2>/dev/null | grep -c hq.db)" 0 "$2: no store left"
	rm -rf "$T/remote"
	cp -a "$T/remote.good" "$T/remote"
}
month_object() {   # the object of a month, from list's order (same as the manifest's)
	hq-archive --remote "$R" list --format jsonl >/dev/null
	python3 - "$T/remote" "$1" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
objs = sorted((os.path.getsize(os.path.join(d, f)), f) for f in os.listdir(d) if len(f) == 32)
print(objs[-n][1])   # the n-th largest segment
PY
}
big=$(month_object 1)
python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[len(b)//2]^=1; open(p,"wb").write(b)' "$T/remote/$big"
restore_fails "segment [0-9]{4}-[0-9]{2}: damaged or altered" "one flipped byte"
truncate -s -1000 "$T/remote/$big"
restore_fails "segment [0-9]{4}-[0-9]{2}: truncated \(" "a truncated segment"
second=$(month_object 2)
cp "$T/remote/$second" "$T/remote/$big"
restore_fails "segment [0-9]{4}-[0-9]{2}: its object holds month [0-9]{4}-[0-9]{2}'s segment \(swapped\)" "a segment swapped for another month's"
# a replayed manifest: keep the old one, push again, put the old one back
cp "$T/remote/manifest" "$T/manifest.old"
printf '{"metric":"body_mass","start":"2022-03-15T08:00:00Z","value":80.5,"unit":"kg"}\n' >"$T/new2.jsonl"
hq-ingest -q "$T/new2.jsonl" >/dev/null
hq-archive -q --remote "$R" push
cp "$T/manifest.old" "$T/remote/manifest"
run hq-archive --remote "$R" verify
is "$rc" 1 "a replayed old manifest: verify exits 1"
like "$err" "older than generation [0-9]+ this machine saw: an old manifest was put back" "a replayed manifest: said by name"
hq-archive -q --remote "$R" push
ok $? "a push then writes a new manifest over the replayed one"
rm -rf "$T/remote.good"
cp -a "$T/remote" "$T/remote.good"
# a wrong key
mkdir -p "$T/wrong/config/hq"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$T/wrong/config/hq/archive.key"
echo >>"$T/wrong/config/hq/archive.key"
chmod 600 "$T/wrong/config/hq/archive.key"
run env HOME="$T/wrong" XDG_CONFIG_HOME="$T/wrong/config" HQ_DB="$T/wrong/hq.db" hq-archive --remote "$R" restore
is "$rc" 1 "a wrong key: restore exits 1"
like "$err" "wrong key: it is not the one this archive was made with" "a wrong key: said by name"
is "$(ls "$T/wrong" | grep -c hq.db)" 0 "a wrong key: no store"
chmod 644 "$T/wrong/config/hq/archive.key"
run env HOME="$T/wrong" XDG_CONFIG_HOME="$T/wrong/config" hq-archive --remote "$R" list
like "$err" "others may read this key: chmod 600" "a key others may read is refused"

# a passphrase: init, then a new machine with the passphrase alone
P="file://$T/premote"
run env XDG_CONFIG_HOME="$T/p1" hq-archive --remote "$P" init --passphrase <<<"correct horse battery"
is "$rc" 0 "init --passphrase (stdin): exit 0"
env XDG_CONFIG_HOME="$T/p1" hq-archive -q --remote "$P" push
grep -q kdf "$T/premote/hq-archive"
ok $? "the archive's settings hold Argon2id's salt and cost"
run env XDG_CONFIG_HOME="$T/p2" hq-archive --remote "$P" --db "$T/p2/hq.db" restore --passphrase <<<"wrong horse battery"
is "$rc" 1 "a wrong passphrase: exit 1"
like "$err" "wrong passphrase" "a wrong passphrase: said by name"
[ ! -e "$T/p2/hq.db" ] && [ ! -e "$T/p2/hq/archive.key" ]
ok $? "a wrong passphrase: no store, no key saved"
run env XDG_CONFIG_HOME="$T/p2" hq-archive --remote "$P" --db "$T/p2/hq.db" restore --passphrase <<<"correct horse battery"
is "$rc" 0 "the right passphrase on a new machine: restored"
is "$(sqlite3 "$T/p2/hq.db" "SELECT count(*) FROM sample")" "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM sample")" \
	"the passphrase's restore has every sample"
cmp -s "$T/p1/hq/archive.key" "$T/p2/hq/archive.key"
ok $? "the passphrase gives the same key, saved for the next push"

# a full disk during restore: nothing left behind
rm -rf "$T/full"
mkdir -p "$T/full"
run bash -c 'trap "" XFSZ; ulimit -f 2000; exec "$@"' sh env HOME="$T/new" \
	XDG_CONFIG_HOME="$T/new/config" hq-archive --remote "$R" --db "$T/full/hq.db" restore
like "$err" "hq-archive: .*(full|large)" "a full disk: the error says so"
is "$rc" 1 "a full disk during restore: exit 1"
is "$(ls -A "$T/full")" "" "a full disk during restore: no half store, no scratch left"

done_testing
