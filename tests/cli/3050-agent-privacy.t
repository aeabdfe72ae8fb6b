#!/usr/bin/env bash
# What a model elsewhere sees (hq-agent(1), PRIVACY): with privacy = always
# the fake server records every byte of a scripted run that calls every
# tool, on the demo's export and on real fixtures (a device named with a
# serial, "Simon’s iPhone", a GPX route); the scan finds no planted name,
# no serial, no route point to 3 decimals, and the printed answer has the
# real name back. privacy = never, --share and a local server with the
# default pass everything through.
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-query >/dev/null && command -v hq-ingest >/dev/null &&
	command -v hq-report >/dev/null && command -v hq-correlate >/dev/null ||
	skip_all "the hq commands are not built"
command -v gen-export >/dev/null || skip_all "gen-export not built"
need_fixtures apple-health/dogsheep/export.xml workouts/fitparse/garmin-fenix-5-run.fit \
	labs/hl7-r4/diagnosticreport-example-lri.json
F=${HQ_FIXTURES:-$HQ_ROOT/tests/fixtures}
unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent

gen-export --zip --days 14 --start 2026-09-24 --seed 1 --everyday --clinical \
	--labs "$T/labs.csv" -o "$T/export.zip" >/dev/null 2>&1
# planted: a name and a serial in a source, a name in a metric's text
cat >"$T/planted.jsonl" <<'J'
{"metric":"steps","start":"2026-09-25T09:00:00-07:00","end":"2026-09-25T09:30:00-07:00","value":4321,"unit":"count","source":"Jane Doe’s Apple Watch (SN ZX81-4402)"}
J
run hq-ingest -q "$T/export.zip" "$T/labs.csv" "$T/planted.jsonl" \
	"$F/apple-health/dogsheep/export.xml" "$F/workouts/fitparse/garmin-fenix-5-run.fit" \
	"$F/labs/hl7-r4/diagnosticreport-example-lri.json"
is "$rc" 0 "the demo's export, the planted samples and the real fixtures are imported"

# every tool, in one reply; the answer quotes the last result's source
cat >"$T/every.json" <<J
{"turns":[{"reply":{"calls":[
 {"name":"hq_ingest","args":{"files":["$T/planted.jsonl"]}},
 {"name":"hq_query","args":{"list":true}},
 {"name":"hq_query","args":{"metrics":["steps"],"by":"day","all_sources":true,"from":"2026-09-24","to":"2026-10-07"}},
 {"name":"hq_query","args":{"metrics":["workouts"]}},
 {"name":"hq_query","args":{"metrics":["workout","last"]}},
 {"name":"hq_query","args":{"metrics":["workout","2"],"splits":"0.05km"}},
 {"name":"hq_query","args":{"metrics":["heart_rate"],"from":"2017-06-11","to":"2017-06-11","limit":20}},
 {"name":"hq_report","args":{"args":["latest","labs"]}},
 {"name":"hq_report","args":{"args":["week"]}},
 {"name":"hq_report","args":{"args":["load"]}},
 {"name":"hq_correlate","args":{"metrics":["steps","heart_rate"]}},
 {"name":"hq_query","args":{"metrics":["steps"],"from":"2026-09-25","to":"2026-09-25","limit":1,"all_sources":true}}
]}},{"reply":{"text":"The first row came from {{source}}."}}]}
J

# the route points of the store, to 3 decimals (truncated and rounded)
sqlite3 "$HQ_DB" "SELECT lat, lon FROM route_point" >"$T/points" 2>/dev/null ||
	python3 -c "
import sqlite3, sys
for lat, lon in sqlite3.connect('$HQ_DB').execute('SELECT lat, lon FROM route_point'):
    print('%r|%r' % (lat, lon))" >"$T/points"
[ "$(wc -l <"$T/points")" -gt 30 ]
ok $? "the store has route points ($(wc -l <"$T/points"))"

# scan WHAT: what the requests logged show of the planted identifiers,
# one line each (empty: none)
scan() {
	python3 - "$FAKE_LOG" "$T/points" "$1" <<'PY'
import json, math, re, sys
log, points, what = sys.argv[1], sys.argv[2], sys.argv[3]
raw = open(log, encoding="utf-8").read()
# the bytes as sent, and their strings decoded (escapes undone)
text = raw + "\n".join(json.dumps(json.loads(l)["body"], ensure_ascii=False) for l in raw.splitlines() if l)
found = []
if "names" in what:
    for n in ["Simon", "Alex", "Jane", "Doe", "Stanford"]:
        if re.search(r"\b" + n + r"\b", text, re.I):
            found.append("name " + n)
if "serials" in what:
    for s in ["3945849289", "2147483647", "ZX81", "0x28"]:
        if s in text:
            found.append("serial " + s)
if "positions" in what:
    # every number sent with 3 decimals or more, cut and rounded to 3
    sent = set()
    for m in re.findall(r"-?[0-9]+\.[0-9]{3,}", text):
        sent.add(m[:m.index(".") + 4])
        sent.add("%.3f" % float(m))
    for line in open(points):
        for v in line.strip().split("|"):
            x = float(v)
            for t in ("%.3f" % x, "%.3f" % (math.trunc(x * 1000) / 1000)):
                if t in sent:
                    found.append("position " + t)
                    sent.discard(t)
print("\n".join(found[:8]))
PY
}

for p in openai anthropic; do
	printf '[llm]\nprivacy = always\n' >"$T/hq.conf"
	start_fake "$T/every.json"
	HQ_CONFIG="$T/hq.conf" agent $p -v "Which device counted my steps, and where did I run?"
	is "$rc" 0 "$p, privacy = always: answered"
	n=$(req 'print(len(reqs))')
	is "$n" 2 "$p: two requests reached the server"
	is "$(scan names,serials,positions)" "" "$p: no name, serial or route point to 3 decimals in any byte sent"
	like "$(req 'print(json.dumps(reqs[1]["body"], ensure_ascii=False))')" "Person 1" \
		"$p: the model saw placeholders"
	like "$(req 'print(json.dumps(reqs[1]["body"]))')" "withheld" "$p: and withheld values"
	like "$out" "came from (Jane Doe|Alex)’s" "$p: the printed answer has the real name back: $out"
	like "$err" "withheld from the model: [1-9][0-9]* positions, [1-9][0-9]* names, [1-9][0-9]* serials" \
		"$p: -v counts what was withheld"
	like "$(req 'print(json.dumps(reqs[1]["body"]))')" '8123|4321' "$p: the numbers reach the model"
done

# the run log counts what was withheld, never the values
id=$(hq-agent --log | head -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
run hq-agent --log "$id"
w=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin).get("withheld")))')
like "$w" '^\{"positions": [1-9][0-9]*, "names": [1-9][0-9]*, "serials": [1-9][0-9]*\}$' \
	"--log ID: the counts withheld ($w)"

# the numbers stay exact: a row's every other field is byte for byte
start_fake "$T/every.json"
HQ_CONFIG="$T/hq.conf" agent openai "Which device counted my steps?"
row=$(hq-query workout last | sed 's/"route_m[a-z]*_l[a-z]*":[-0-9.]*/X/g; s/"source":"[^"]*"/S/')
got=$(req '
for m in reqs[1]["body"]["messages"]:
    if m.get("role") == "tool" and "route_points" in m.get("content", ""):
        print(m["content"].strip()); break' |
	sed 's/"route_m[a-z]*_l[a-z]*":"withheld"/X/g; s/"source":"[^"]*"/S/')
is "$got" "$row" "the last workout's row reaches the model byte for byte but for its box and source"

# privacy = never: everything goes
printf '[llm]\nprivacy = never\n' >"$T/hq.conf"
start_fake "$T/every.json"
HQ_CONFIG="$T/hq.conf" agent openai "Which device counted my steps?"
like "$(scan names,serials,positions)" "name Simon.*" "privacy = never: the names go"
like "$(scan serials)" "serial 3945849289" "privacy = never: the serials go"
like "$(scan positions)" "position" "privacy = never: the route points go"

# the default (remote) with a server on this machine: everything goes
printf '[llm]\n' >"$T/hq.conf"
start_fake "$T/every.json"
HQ_CONFIG="$T/hq.conf" agent openai "Which device counted my steps?"
like "$(scan names)" "name Simon" "default, local server: the names go (nothing leaves)"
like "$(scan positions)" "position" "default, local server: the route points go"

# --share: what it names goes, the rest does not
printf '[llm]\nprivacy = always\n' >"$T/hq.conf"
start_fake "$T/every.json"
HQ_CONFIG="$T/hq.conf" agent openai --share names "Which device counted my steps?"
like "$(scan names)" "name Simon" "--share names: the names go"
is "$(scan serials,positions)" "" "--share names: serials and positions do not"
start_fake "$T/every.json"
HQ_CONFIG="$T/hq.conf" agent openai --share positions,names,serials "Which device?"
like "$(scan positions)" "position" "--share positions,names,serials: the route points go"
printf '[llm]\nprivacy = always\nshare = serials\n' >"$T/hq.conf"
start_fake "$T/every.json"
HQ_CONFIG="$T/hq.conf" agent openai "Which device counted my steps?"
like "$(scan serials)" "serial 3945849289" "share = serials in the config: the serials go"
is "$(scan names,positions)" "" "share = serials: names and positions do not"

# the question is checked before it is sent
printf '[llm]\nprivacy = always\n' >"$T/hq.conf"
start_fake "$T/every.json"
HQ_CONFIG="$T/hq.conf" agent openai "How many steps on days I was at 221 Baker Street?"
is "$rc" 2 "an address in the question: not sent, exit 2"
like "$err" "street address.*--share" "and the warning says why and how to send it"
is "$(wc -c <"$FAKE_LOG")" 0 "nothing reached the server"
HQ_CONFIG="$T/hq.conf" agent openai --share positions "How many steps on days I was at 221 Baker Street?"
is "$rc" 0 "--share positions sends it anyway"
like "$(req 'print(json.dumps(reqs[0]["body"]))')" "221 Baker Street" "as typed"

# hq-agent --privacy: the policy and why
HQ_CONFIG="$T/hq.conf" run hq-agent --privacy --base-url https://api.example.com/v1
is "$rc" 0 "--privacy exits 0"
like "$out" "not on this machine" "--privacy: the server is elsewhere"
like "$out" "positions withheld" "--privacy: positions withheld"
printf '[llm]\nprivacy = sometimes\n' >"$T/hq.conf"
HQ_CONFIG="$T/hq.conf" run hq-agent --privacy
is "$rc" 2 "privacy = sometimes is refused"
like "$err" "remote.*always.*never" "and the choices are named"

done_testing
