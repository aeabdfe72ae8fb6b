#!/usr/bin/env bash
# A FHIR Bundle's entries are read one at a time: a 40 MB Bundle (beyond
# the 16 MiB a JSON document may hold) imports in the memory of a 4 MB
# one, from a file or a pipe; each entry has its own bound (4 MiB), the
# rest of a document its (16 MiB), and malformed input fails the file
# whole, named by file:line, leaving the store as it was.
. "$(dirname "$0")/lib.sh"
command -v hq-ingest >/dev/null || skip_all "hq-ingest is not built"
command -v python3 >/dev/null || skip_all "no python3"
[ -x /usr/bin/time ] || skip_all "no /usr/bin/time"
F=$HQ_FIXTURES/labs/hl7-r4/observation-example-f001-glucose.json
need_fixtures labs/hl7-r4/observation-example-f001-glucose.json

q() { sqlite3 "$HQ_DB" "$1"; }

# bundle N OUT [INDENT]: f001 as N entries, ids distinct, their times
# cycling over 500 hours (so both Bundles store 500 results, and memory
# measures the reader, not the store).
bundle() {
	python3 - "$F" "$1" "$2" "${3:-}" <<'PY'
import datetime, json, sys
obs = json.load(open(sys.argv[1]))
n, out, indent = int(sys.argv[2]), sys.argv[3], sys.argv[4]
obs.pop("effectivePeriod", None)
t0 = datetime.datetime(2010, 1, 1)
with open(out, "w") as f:
    f.write('{"resourceType":"Bundle","type":"collection","entry":[')
    for i in range(n):
        o = dict(obs, id="g%d" % i, effectiveDateTime=(t0 +
            datetime.timedelta(hours=i % 500)).strftime("%Y-%m-%dT%H:00:00Z"))
        e = {"fullUrl": "urn:uuid:g%d" % i, "resource": o}
        f.write((",\n" if i else "\n") + (json.dumps(e, indent=1) if indent
            else json.dumps(e, separators=(",", ":"))))
    f.write('],"total":%d}\n' % n)
PY
}

# rss FILE [ARGS]: hq-ingest -q FILE into a fresh store, peak RSS in KB in
# $rss, its output in $out.
rss() {
	rm -f "$HQ_DB" "$HQ_DB"-wal "$HQ_DB"-shm
	/usr/bin/time -f %M -o "$T/rss" hq-ingest -q "$@" >"$T/out" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out")
	rss=$(tail -n 1 "$T/rss")
}

bundle 1900 "$T/b4.json"
bundle 20000 "$T/b40.json"
size=$(wc -c <"$T/b40.json")
ok "$([ "$size" -gt 40000000 ]; echo $?)" "a Bundle of 20,000 entries: $size bytes"

rss "$T/b4.json"
is "$rc" 0 "a 4 MB Bundle imports"
rss4=$rss
like "$out" '"records":1900,.*"lab_results":1900' "all its 1,900 entries"
rss "$T/b40.json"
is "$rc" 0 "a 40 MB Bundle imports (past the 16 MiB of a document read whole)"
like "$out" '"format":"fhir","records":20000,"inserted":500,"duplicates":19500' \
	"all its 20,000 entries, 500 distinct results"
is "$(q 'select count(*) from lab_result')" 500 "500 stored"
is "$(q "select count(*) from lab_result where test = 'glucose' and value = 6.3")" 500 \
	"each as f001 says: glucose 6.3"
# (An ASan build keeps freed memory in quarantine: the bounds are the
# plain build's to check, as in 1008.)
asan=
ldd "$(command -v hq-ingest)" 2>/dev/null | grep -q libasan && asan=1
memory() {   # memory COND NAME
	if [ -n "$asan" ]; then
		ok 0 "# skip $2 (ASan build)"
	else
		ok "$1" "$2"
	fi
}
memory "$([ "$rss" -lt 65536 ]; echo $?)" "peak RSS ${rss} KB < 64 MB"
memory "$([ "$rss" -lt $((rss4 + 4096)) ]; echo $?)" \
	"within 4 MB of the 4 MB Bundle's (${rss4} KB): memory does not grow with the file"

rm -f "$HQ_DB" "$HQ_DB"-wal "$HQ_DB"-shm
/usr/bin/time -f %M -o "$T/rss" sh -c 'cat "$1" | hq-ingest -q -' sh "$T/b40.json" >"$T/out" 2>&1
is "$?" 0 "the 40 MB Bundle through a pipe"
like "$(cat "$T/out")" '"records":20000' "all of it"
rss=$(tail -n 1 "$T/rss")
memory "$([ "$rss" -lt $((rss4 + 4096)) ]; echo $?)" "in the same memory (${rss} KB)"

bundle 40 "$T/pretty.json" indent
rss "$T/pretty.json"
like "$out" '"records":40' "an indented Bundle: every entry"

# --- malformed: the file fails whole, named by file:line ------------------
rm -f "$HQ_DB" "$HQ_DB"-wal "$HQ_DB"-shm
hq-ingest -q "$T/b4.json" >/dev/null
n=$(q 'select count(*) from lab_result')
bad() {   # bad FILE MESSAGE-RE NAME
	run hq-ingest "$1"
	is "$rc" 2 "$3: exit 2"
	like "$err" "$2" "$3: named by file:line"
	like "$err" "nothing from this file was imported" "$3: the file is rejected whole"
	is "$(q 'select count(*) from lab_result')" "$n" "$3: the store is as it was"
}
# Entries of the new Bundles carry times outside the 500 hours above, so
# that any of them stored would show.
sed 's/2010-01/2011-01/g' "$T/pretty.json" >"$T/p2.json"
head -c 30000 "$T/p2.json" >"$T/cut.json"
bad "$T/cut.json" "cut\.json:[0-9]+: not valid JSON: the file ends inside it" "a truncated Bundle"
python3 - "$T/p2.json" "$T/mid.json" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = [k for k, l in enumerate(lines) if '"id": "g20"' in l][0]
lines[i] = lines[i].replace('"id": "g20"', '"id": g20')
open(sys.argv[2], "w").write("\n".join(lines))
print(i + 1, file=open(sys.argv[2] + ".line", "w"))
PY
bad "$T/mid.json" "mid\.json:$(cat "$T/mid.json.line"): not valid JSON" \
	"a broken entry in the middle (entry 21 of 40)"
{ cat "$T/p2.json"; printf 'x\n'; } >"$T/after.json"
bad "$T/after.json" "after\.json:$(($(wc -l <"$T/p2.json") + 1)): not valid JSON" \
	"garbage after the document"
sed '1s/"type":"collection"/"type":{"a":},"x":1/' "$T/p2.json" >"$T/meta.json"
bad "$T/meta.json" "meta\.json:1: not valid JSON" "a member that is no entry, malformed"
{ printf '{"resourceType":"Bundle","entry":[\n'; sed -n '2,/^}/p' "$T/p2.json";
  printf '{"resource":'; python3 -c 'print("[" * 70)'; } >"$T/deep.json"
bad "$T/deep.json" "deep\.json:$(($(wc -l <"$T/deep.json"))): JSON nested deeper than 64 levels" \
	"nesting past 64 levels inside an entry"
python3 - "$T/p2.json" "$T/huge.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.index('"id": "g3"')
open(sys.argv[2], "w").write(t[:i] + '"note": "' + "x" * (5 << 20) + '", ' + t[i:])
print(t[:t.rindex("\n{", 0, i)].count("\n") + 2, file=open(sys.argv[2] + ".line", "w"))
PY
bad "$T/huge.json" "huge\.json:$(cat "$T/huge.json.line"): a Bundle entry larger than 4 MiB" \
	"an entry of 5 MiB: past the bound of one entry, named at its first line"
python3 - "$T/p2.json" "$T/many.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.index('"id": "g7"')
open(sys.argv[2], "w").write(t[:i] + '"note": [' + ",".join(["0"] * 140000) + '], ' + t[i:])
print(t[:t.rindex("\n{", 0, i)].count("\n") + 2, file=open(sys.argv[2] + ".line", "w"))
PY
bad "$T/many.json" "many\.json:$(cat "$T/many.json.line"): a Bundle entry of more than 131072 values" \
	"an entry of 140,000 numbers in 280 KB: past the bound on values (cJSON's tree: ~100 bytes each)"
sed '0,/"id": "g5"/s//"id": "g\\q5"/' "$T/p2.json" >"$T/esc.json"
bad "$T/esc.json" "esc\.json:[0-9]+: not valid JSON" "a string with a bad escape"
python3 -c 'import sys; sys.stdout.write("{\"resourceType\":\"Observation\",\"note\":\"" + "x" * (17 << 20) + "\"}")' >"$T/obs.json"
bad "$T/obs.json" "obs\.json:1: JSON value larger than 16 MiB" \
	"an Observation of 17 MiB: what is no entry is read whole, up to 16 MiB"
done_testing
