#!/usr/bin/env bash
# Hostile input to hq-query (issue 11): bytes from a file never act on the
# terminal (tables and messages show control characters escaped), an
# expression nests at most 100 deep (exit 2, never a crash), --limit means
# at least one row, and a store in a read-only directory or on a read-only
# mount (a backup, a snapshot) can be queried.
. "$(dirname "$0")/lib.sh"

ESC=$(printf '\033')
cat >"$T/esc.jsonl" <<'J'
{"metric":"x\u001b[31mred","start":"2024-12-01T07:30:00Z","value":1}
{"metric":"steps","start":"2024-12-01T07:30:00Z","value":5,"source":"evil\u001b[2K\r\u009b1Aphone"}
J
run hq-ingest "$T/esc.jsonl"
is "$rc" 0 "names with terminal escapes are stored as they are"

# --- 9. tables and messages -------------------------------------------------
run hq-query --list --format table
is "$rc" 0 "--list as a table"
unlike "$out" "$ESC" "no ESC byte reaches the table"
like "$out" 'x\\x1b\[31mred' "the metric's ESC is shown as \\x1b"
like "$out" 'evil\\x1b\[2K\\r\\u009b1Aphone' "CR and the C1 CSI of the source are shown escaped"
run hq-query steps --by day --format table --tz UTC
unlike "$out" "$ESC" "query rows as a table: no ESC"
run hq-query workout 1 --format table
unlike "$out$err" "$ESC" "a detail table or its error: no ESC"
run hq-query "$(printf 'hart\033[2Jrate')"
is "$rc" 2 "an unknown metric with an escape in its name: exit 2"
unlike "$err" "$ESC" "the message shows no ESC"
like "$err" 'hart\\x1b\[2Jrate' "it shows the name escaped"
run hq-query steps --format "$(printf 'x\033[31m')"
is "$rc" 2 "a bad option value with an escape: a usage error"
unlike "$err" "$ESC" "which shows no ESC"
printf '{"metric":"weight","start":"2024-12-01T07:30:00Z","value":1,"unit":"k\\u001b]0;owned\\u0007g"}\n' >"$T/unit.jsonl"
run hq-ingest "$T/unit.jsonl"
unlike "$err" "$ESC" "a warning echoing a unit from the file: no ESC"
like "$err" "k\\\\x1b\]0;owned\\\\x07g" "the unit is shown escaped"
mkdir "$T/$(printf 'dir\033[31m')"
cp "$T/esc.jsonl" "$T/$(printf 'dir\033[31m')/x.jsonl"
printf 'nope\n' >>"$T/$(printf 'dir\033[31m')/x.jsonl"
run hq-ingest "$T/$(printf 'dir\033[31m')/x.jsonl"
unlike "$err" "$ESC" "an error naming a file whose name holds an escape: no ESC"

# --- 10. expression depth ------------------------------------------------------
deep() { python3 -c "import sys; print($1)"; }
run hq-query steps --by day --where "$(deep "'('*50000 + 'value>0' + ')'*50000")"
is "$rc" 2 "--where 50000 parentheses deep: exit 2, no crash"
like "$err" "--where: bad expression .* nested too deep \(more than 100 levels" "and says why"
run hq-query steps --by day --where "$(deep "'!'*120000 + 'value>0'")"
is "$rc" 2 "--where 120000 '!': exit 2"
like "$err" "nested too deep" "and says why"
run hq-query steps --by day --where "$(deep "'not '*30000 + 'value>0'")"
is "$rc" 2 "--where 30000 'not': exit 2"
run hq-query steps --by day --when "$(deep "'('*65000 + 'steps.sum>0' + ')'*65000")"
is "$rc" 2 "--when 65000 deep: exit 2"
like "$err" "--when: bad expression .* nested too deep" "and says why"
# a flat chain is not deep (issue 23): 10,000 comparisons are fine, more
# are refused as too many, not as too deep
run hq-query steps --by day --tz UTC --format csv --where "$(deep "' and '.join(['value>0']*10000)")"
is "$rc $(printf '%s\n' "$out" | wc -l)" "0 2" "10000 conditions joined by and: a flat chain, taken (and give the row)"
run hq-query steps --by day --when "$(deep "' or '.join(['steps.sum>0']*150)")"
is "$rc" 0 "--when: 150 joined by or, taken"
run hq-query steps --by day --where "$(deep "' and '.join(['value>0']*10001)")"
like "$rc $err" "^2 .*too many conditions \\(more than 10000 comparisons\\)" "10001: exit 2, too many conditions"
run hq-query steps --by day --where 'value>0x10'
like "$rc $err" "^2 .*expected a decimal number" "--where value>0x10: hex refused (it was read as 16)"
run hq-query steps --by day --when 'steps.sum<1e400'
like "$rc $err" "^2 .*number out of range" "--when 1e400: out of range"
run hq-query steps --by day --where 'value>-inf'
like "$rc $err" "^2 .*expected a decimal number" "--where value>-inf: refused"
run hq-query steps --by day --tz UTC --format csv \
    --where "$(deep "'('*90 + 'value>0' + ')'*90")" \
    --when "$(deep "' and '.join(['steps.sum>0']*90)")"
is "$rc" 0 "90 levels are fine"
is "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f5)" 5 "and give the row"

# --- --limit ---------------------------------------------------------------------
run hq-query steps --by day --limit 0
is "$rc" 2 "--limit 0 is a usage error (it is not 'every row')"
like "$err" "'--limit' takes a whole number from 1" "saying what it takes"
run hq-query steps --by day --limit 1 --format jsonl
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1 "--limit 1: one row"

# --- 11. a store that cannot be written ---------------------------------------------
mkdir "$T/ro"
cp "$HQ_DB" "$T/ro/hq.db"
sqlite3 "$T/ro/hq.db" 'pragma journal_mode' | grep -q wal || echo "# not a WAL store"
as_owner() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	# root reads anything: query as another user who owns the store.
	if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
		chown -R nobody "$T/ro"
		chmod 755 "$T"
		as_owner() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
		# nobody must reach the commands and the store (a checkout under
		# a 0700 directory cannot be): else skip.
		if ! as_owner sh -c 'hq-query --version && test -r "$1"' sh "$T/ro/hq.db" \
		    >/dev/null 2>&1; then
			as_owner() { return 99; }
		fi
	else
		as_owner() { return 99; }
	fi
fi
chmod 555 "$T/ro"
run as_owner env HOME=/ hq-query --db "$T/ro/hq.db" --list --format jsonl
if [ "$rc" -eq 99 ]; then
	ok 0 "# SKIP no way to drop root here"; ok 0 "# SKIP"; ok 0 "# SKIP"
else
	is "$rc" 0 "a store in a read-only directory (0555, store 0600, its owner): --list works"
	like "$out" '"metric":"step_count"' "and lists what it holds"
	run as_owner env HOME=/ hq-query --db "$T/ro/hq.db" steps --by day --tz UTC --format csv
	is "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f5)" 5 "a query reads it too"
fi
is "$(ls -A "$T/ro")" "hq.db" "and nothing was written beside it"
chmod 755 "$T/ro"
# A -wal file holding changes cannot be read without a writable place:
# refused with a message, never an older state shown as current.
printf 'x' >"$T/ro/hq.db-wal"
chmod 555 "$T/ro"
run as_owner env HOME=/ hq-query --db "$T/ro/hq.db" --list
if [ "$rc" -ne 99 ]; then
	is "$rc" 2 "a read-only directory whose -wal file holds changes: exit 2"
	like "$err" "its -wal file holds changes" "saying why"
else
	ok 0 "# SKIP"; ok 0 "# SKIP"
fi
chmod 755 "$T/ro"
rm -f "$T/ro/hq.db-wal"
[ "$(id -u)" -eq 0 ] && chown -R root "$T/ro"

# A read-only mount, where a private mount namespace can be made.
mkdir "$T/mnt"
if unshare -rm true 2>/dev/null; then
	run unshare -rm sh -c 'mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" &&
	    hq-query --db "$2/hq.db" --list --format jsonl' sh "$T/ro" "$T/mnt"
	is "$rc" 0 "a store on a read-only mount: --list works"
	like "$out" '"metric":"step_count"' "and lists what it holds"
else
	ok 0 "# SKIP no mount namespace here"; ok 0 "# SKIP"
fi
# --- issue 23: a zone is an IANA name under the system's zoneinfo -----------
# glibc reads a file that is no zone (/etc/passwd) as UTC and right/UTC with
# leap seconds (months starting at 23:59:33): both refused, from every place
# a zone comes from.
for z in /etc/passwd :/etc/passwd right/UTC posix/Europe/Paris ../../etc/passwd leapseconds; do
	run hq-query --list --tz "$z"
	is "$rc" 2 "--tz $z: exit 2"
	like "$err" "unknown time zone '[^']*' \\(from --tz\\)" "--tz $z: an unknown zone"
done
run env HQ_TZ=/etc/passwd hq-query --list
like "$rc $err" "^2 .*unknown time zone '/etc/passwd' \\(from \\\$HQ_TZ\\)" "\$HQ_TZ=/etc/passwd: refused"
mkdir -p "$T/config/hq"
printf '[query]\ntz = /etc/passwd\n' >"$T/config/hq/config"
run env -u HQ_TZ -u TZ hq-query --list
like "$rc $err" "^2 .*config:2: unknown time zone '/etc/passwd'" "tz = /etc/passwd in the config: refused with file:line"
rm "$T/config/hq/config"
run hq-agent --tz right/UTC -p ollama -m x --base-url http://127.0.0.1:9/v1 hi
like "$rc $err" "^2 .*unknown time zone 'right/UTC'" "hq-agent --tz right/UTC: refused"
run env TZ=:/etc/localtime HQ_TZ= hq-query --list
is "$rc" 0 "TZ=:/etc/localtime (the system's zone, as a system may set it): taken"
run hq-query --list --tz "$(printf 'Europe/Paris\033[2J%0200d' 0)"
like "$rc" 2 "a long zone with an escape: refused"
unlike "$err" "$ESC|0{60}" "its message shows neither the escape nor the whole name"
run hq-query --list --tz Etc/GMT+5
is "$rc" 0 "Etc/GMT+5 is taken"
# --- issue 23: dates before a zone's first transition -----------------------
# Los Angeles kept local mean time (-07:52:58) until 1883-11-18; hq rounds it
# to -07:53 (its offsets are whole minutes), so days start at that midnight
# and a time typed there reads back as typed. Before, --by day never ended.
printf '%s\n' '{"metric":"steps","start":"1880-06-01T07:52:59Z","value":7}' \
    '{"metric":"steps","start":"1880-06-01T07:53:00Z","value":5}' \
    '{"metric":"steps","start":"1880-06-02T07:00:00","value":9}' >"$T/lmt.jsonl"
run env HQ_DB="$T/lmt.db" hq-ingest -q "$T/lmt.jsonl"
is "$rc" 0 "samples of 1880 imported"
run env HQ_DB="$T/lmt.db" timeout 20 hq-query steps --by day --tz America/Los_Angeles --format csv
is "$rc" 0 "--by day over 1880 in Los Angeles ends"
is "$(printf '%s\n' "$out" | cut -d, -f2,3,5 | tr '\n' ' ')" \
    "period,start,value 1880-05-31,1880-05-31T00:00:00-07:53,7 1880-06-01,1880-06-01T00:00:00-07:53,5 1880-06-02,1880-06-02T00:00:00-07:53,9 " \
    "each sample on its local day, days from local midnight at -07:53"
run env HQ_DB="$T/lmt.db" hq-query steps --tz America/Los_Angeles --format csv --from 1880-06-02
is "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f3)" "1880-06-02T07:00:00-07:53" "a local time of 1880 reads back as typed"
done_testing
