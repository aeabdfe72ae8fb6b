#!/usr/bin/env bash
# hq-report load --to D past today: the days after the data go on with
# the plan's loads (0 without one), rows planned true, the same
# recurrences, so the days before are what they were; the closed forms
# of a constant load from a cold start; "form on D" on a table; the
# chart's planned lines dashed.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
export HQ_TZ=UTC HQ_NOW=2026-03-01T12:00:00Z

# A cold start: no workout, 120 days of 50 from 2 March. With k = 1/42
# (ctl) or 1/7 (atl): x_n = L (1 - e^(-(n+1) k)) on day n (0: 2 March),
# tsb_n = ctl_(n-1) - atl_(n-1).
python3 -c '
import datetime
d = datetime.date(2026, 3, 2)
print("date,type,duration_min,load")
for i in range(120):
    print("%s,cycling,60,50" % (d + datetime.timedelta(days=i)))' >"$T/flat.csv"
hq-ingest -q --plan "$T/flat.csv" >/dev/null
run hq-report load --from 2026-03-02 --to 2026-06-29
is "$rc" 0 "an empty store with a plan: exit 0"
printf '%s\n' "$out" >"$T/rows"
is "$(python3 - "$T/rows" <<'P'
import json, math, sys
L, bad, n = 50.0, 0, 0
rows = [json.loads(l) for l in open(sys.argv[1])]
for i, r in enumerate(rows):
    ctl = L * (1 - math.exp(-(i + 1) / 42))
    atl = L * (1 - math.exp(-(i + 1) / 7))
    tsb = L * (1 - math.exp(-i / 42)) - L * (1 - math.exp(-i / 7))
    for k, w in (("ctl", ctl), ("atl", atl), ("tsb", tsb)):
        if abs(r[k] - w) > 1e-9 * max(abs(w), 1e-300) + (1e-12 if w == 0 else 0):
            bad += 1
            print(r["date"], k, r[k], w)
    bad += r["planned"] is not True or r["load"] != L
    n += 1
print("agree", n, bad)
P
)" "agree 120 0" "ctl, atl and tsb are the closed forms on all 120 days (1e-9), each planned"

# The generated workouts (the last on 12 Nov 2026) and a plan after them.
export HQ_DB="$T/g.db" HQ_TZ=America/Los_Angeles HQ_NOW=2026-11-12T20:00:00Z
: >"$T/empty.jsonl"
hq-ingest -q --format jsonl "$T/empty.jsonl" >/dev/null &&
    sqlite3 "$HQ_DB" <"$HQ_ROOT/tests/data/athlete/generated.sql"
ok $? "a store with the generated workouts"
run hq-report load --from 2026-10-18 --to 2026-11-12
printf '%s\n' "$out" >"$T/past"
printf 'date,type,duration_min,load,title\n2026-11-13,running,40,40,Easy\n2026-11-15,cycling,120,150,Long ride\n2026-11-20,running,60,300,Race\n' >"$T/plan.csv"
hq-ingest -q --plan "$T/plan.csv" >/dev/null
run hq-report load --from 2026-10-18 --to 2026-11-21
is "$rc" 0 "--to past today: exit 0"
printf '%s\n' "$out" >"$T/ahead"
is "$(python3 - "$T/past" "$T/ahead" <<'P'
import json, math, sys
past = [json.loads(l) for l in open(sys.argv[1])]
ahead = [json.loads(l) for l in open(sys.argv[2])]
bad = 0
for p, a in zip(past, ahead):
    planned = a.pop("planned")
    bad += planned is not False or p != a
k42, k7 = 1 - math.exp(-1 / 42), 1 - math.exp(-1 / 7)
ctl, atl = ahead[len(past) - 1]["ctl"], ahead[len(past) - 1]["atl"]
plan = {"2026-11-15": 150, "2026-11-20": 300, "2026-11-13": 40}
for a in ahead[len(past):]:
    tsb = ctl - atl
    load = plan.get(a["date"], 0)
    ctl += (load - ctl) * k42
    atl += (load - atl) * k7
    for k, w in (("load", load), ("ctl", ctl), ("atl", atl), ("tsb", tsb)):
        bad += abs(a[k] - w) > 1e-9 * max(abs(w), 1)
    bad += a["planned"] is not True
print(len(past), len(ahead) - len(past), bad)
P
)" "24 9 0" "the 24 days before (from the first workout, 20 Oct) are as they were; the 9 ahead go on with the plan's loads, planned"

run env COLUMNS=80 hq-report load --from 2026-11-01 --to 2026-11-21 --format table
like "$out" "2026-11-20 +0 +0 +300(\.0)? .*true" "a table: the race day's planned load"
want=$(printf '%s\n' "$(cat "$T/ahead")" | tail -1 | python3 -c 'import json,sys; print("%+.0f" % round(json.load(sys.stdin)["tsb"]))')
like "$out" "form on 2026-11-21: $want \(planned\)" "the sentence: form on the day asked ($want)"
is "$(printf '%s\n' "$out" | awk 'length($0) > 80' | wc -l | tr -d ' ')" 0 "it fits 80 columns"

run hq-report load --from 2026-11-01 --to 2026-11-21 --type running
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
print(" ".join("%s:%g" % (r["date"][8:], r["load"]) for r in map(json.loads, sys.stdin) if r["planned"]))')" \
	"13:40 14:0 15:0 16:0 17:0 18:0 19:0 20:300 21:0" "--type running: the ride planned on the 15th counts 0"

run hq-report load --from 2026-10-18 --to 2026-11-21 --format svg
is "$rc" 0 "svg: exit 0"
is "$(printf '%s\n' "$out" | grep -c 'stroke-dasharray="6 4"')" 3 "fitness, fatigue and form dashed ahead"
like "$out" "dashed: the plan" "the subtitle says so"

# A plan after the data but before today (an export a while old): the
# days after the data still go on with it.
run env HQ_NOW=2026-12-01T20:00:00Z hq-report load --from 2026-11-12 --to 2026-11-21
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
print(" ".join("%s:%s" % (r["date"][8:], r["planned"]) for r in map(json.loads, sys.stdin)))')" \
	"12:False 13:True 14:True 15:True 16:True 17:True 18:True 19:True 20:True 21:True" \
	"today 1 Dec, data to 12 Nov, a plan on: the days after the data planned"

# Today and before: no planned field, as before.
run hq-report load --from 2026-11-01 --to 2026-11-12
unlike "$out" '"planned"' "--to today: the rows of before"
run hq-report load --from 2026-11-14 --to 2026-11-21
is "$rc" 0 "a range all ahead"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 8 "its 8 days"

done_testing
