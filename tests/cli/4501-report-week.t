#!/usr/bin/env bash
# hq-report week: every figure of a generated export's week against an
# independent computation (python over gen-export's truth, or over the
# store's samples by the written rule), previous and change, measures left
# out of a week without them, --week's bad values, and the HTML page:
# well-formed, self-contained, escaped.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"

gen-export --days 60 --start 2026-09-24 --seed 5 --truth "$T/truth.jsonl" -o "$T/export.zip" >/dev/null
ok $? "a 60-day export"
# Lab results of week 46: two flagged on one day, one on another, one in
# range; and one flagged the week after (not counted).
cat >"$T/labs.csv" <<'C'
date,test,value,unit,ref_low,ref_high,loinc,source
2026-11-10,LDL Cholesterol,162,mg/dL,,129,13457-7,Lab
2026-11-10,HDL Cholesterol,35,mg/dL,40,,2085-9,Lab
2026-11-13,Glucose,120,mg/dL,70,99,2345-7,Lab
2026-11-13,Triglycerides,100,mg/dL,,149,2571-8,Lab
2026-11-17,LDL Cholesterol,170,mg/dL,,129,13457-7,Lab
C
hq-ingest -q "$T/export.zip" >/dev/null && hq-ingest -q --format labs "$T/labs.csv" >/dev/null
ok $? "imported, with lab results"

run hq-report week --week 2026-W46
is "$rc" 0 "week 2026-W46: exit 0"
printf '%s\n' "$out" >"$T/week.jsonl"
hq-report cgm --from 2026-W46 --to 2026-W46 >"$T/cgm46.jsonl"
hq-report cgm --from 2026-W45 --to 2026-W45 >"$T/cgm45.jsonl"

# The reference: the truth's days and workouts, the store's resting heart
# rate and weight samples by local day, hq-report cgm's own row for tir.
python3 - "$T" "$HQ_DB" <<'P' >"$T/check" 2>&1
import datetime, json, sqlite3, sys, zoneinfo
T, db = sys.argv[1], sys.argv[2]
z = zoneinfo.ZoneInfo("America/Los_Angeles")
rows = {r["measure"]: r for r in map(json.loads, open(T + "/week.jsonl"))}
truth = [json.loads(l) for l in open(T + "/truth.jsonl")]
days = [d for d in truth if "date" in d and "workout" not in d]
wos = [d for d in truth if "workout" in d]
def week(monday):
    m = datetime.date.fromisoformat(monday)
    return [(m + datetime.timedelta(i)).isoformat() for i in range(7)]
W, P = week("2026-11-09"), week("2026-11-02")
def mean(x): return sum(x) / len(x) if x else None
def daily(key, wk, scale=1, keep=lambda d, k: d[k] > 0):
    return [d[key] / scale for d in days if d["date"] in wk and keep(d, key)]
def hrv(wk): return [d["hrv_avg"] for d in days if d["date"] in wk and d["hrv_n"] > 0]
con = sqlite3.connect(db)
def samples(ident):
    by = {}
    for t, v in con.execute("SELECT s.start, s.value FROM sample s JOIN metric m "
            "ON m.id = s.metric_id WHERE m.identifier = ? ORDER BY s.start", (ident,)):
        by.setdefault(datetime.datetime.fromtimestamp(t, z).date().isoformat(), []).append(v)
    return {k: mean(v) for k, v in by.items()}
rhr = samples("HKQuantityTypeIdentifierRestingHeartRate")
wt = samples("HKQuantityTypeIdentifierBodyMass")
def last(by, wk):
    have = [d for d in wk if d in by]
    return by[have[-1]] if have else None
cgm46 = json.loads(open(T + "/cgm46.jsonl").readline())
want = {
    "steps": (mean(daily("steps", W)), mean(daily("steps", P)), "count", len(daily("steps", W))),
    "sleep": (mean(daily("sleep_asleep_min", W, 60)), mean(daily("sleep_asleep_min", P, 60)), "h",
              len(daily("sleep_asleep_min", W))),
    "resting_heart_rate": (mean([rhr[d] for d in W if d in rhr]), mean([rhr[d] for d in P if d in rhr]),
              "count/min", len([d for d in W if d in rhr])),
    "hrv": (mean(hrv(W)), mean(hrv(P)), "ms", len(hrv(W))),
    "active_energy": (mean(daily("active_energy", W)), mean(daily("active_energy", P)), "kcal",
              len(daily("active_energy", W))),
    "exercise_time": (sum(daily("exercise_minutes", W)), sum(daily("exercise_minutes", P)), "min",
              len(daily("exercise_minutes", W))),
    "workouts": (len([w for w in wos if w["date"] in W]), len([w for w in wos if w["date"] in P]),
              "count", len({w["date"] for w in wos if w["date"] in W})),
    "workout_minutes": (sum(w["duration_min"] for w in wos if w["date"] in W),
              sum(w["duration_min"] for w in wos if w["date"] in P), "min",
              len({w["date"] for w in wos if w["date"] in W})),
    "weight": (last(wt, W), last(wt, P), "kg", len([d for d in W if d in wt])),
    "glucose_mean": (sum(d["glucose_avg"] * d["glucose_n"] for d in days if d["date"] in W) /
              sum(d["glucose_n"] for d in days if d["date"] in W),
              sum(d["glucose_avg"] * d["glucose_n"] for d in days if d["date"] in P) /
              sum(d["glucose_n"] for d in days if d["date"] in P), "mg/dL",
              len([d for d in days if d["date"] in W and d["glucose_n"] > 0])),
    "glucose_tir": (cgm46["tir"], json.loads(open(T + "/cgm45.jsonl").readline())["tir"], "%",
              cgm46["days"]),
    "labs_flagged": (3, None, "count", 2),
}
bad = 0
def close(a, b): return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= 1e-6 * max(1, abs(b)))
for k, (v, p, u, n) in want.items():
    r = rows.get(k)
    if r is None or not close(r["value"], v) or not close(r["previous"], p) or r["unit"] != u or r["days"] != n:
        bad += 1
        print("#", k, "hq:", r, "want:", v, p, u, n)
    elif not close(r["change"], None if p is None else v - p):
        bad += 1
        print("#", k, "change", r["change"], "want", v - p)
print("measures that disagree:", bad)
print("order:", " ".join(rows))
print("week:", {r["week"] for r in rows.values()})
P
like "$(cat "$T/check")" "measures that disagree: 0" "every figure agrees with the reference, previous and change too"
grep '^#' "$T/check"
like "$(cat "$T/check")" "order: steps sleep resting_heart_rate hrv active_energy exercise_time workouts workout_minutes load ctl weight glucose_tir glucose_mean labs_flagged" \
	"the measures in hq-report(1)'s order, load and ctl from the athlete engine"
like "$(cat "$T/check")" "week: \{'2026-W46'\}" "every row names the week"

# load and ctl by the independent reference (tests/data/athlete/reference.py
# rows: the daily series from the samples by hq-report(1)'s rules, the store's
# defaults): load the sum over the week's days with a workout, ctl on its
# Sunday, days the days with a workout; W45 the previous.
python3 "$HQ_ROOT/tests/data/athlete/reference.py" rows "$HQ_DB" "$HQ_TZ" load \
    --from 2026-11-02 --to 2026-11-15 >"$T/refload.jsonl"
ok $? "reference.py rows load over weeks 45 and 46"
python3 - "$T" <<'R' >"$T/loadcheck" 2>&1
import json, sys
T = sys.argv[1]
rows = {r["measure"]: r for r in map(json.loads, open(T + "/week.jsonl"))}
days = {r["date"]: r for r in map(json.loads, open(T + "/refload.jsonl"))}
W = [d for d in sorted(days) if "2026-11-09" <= d <= "2026-11-15"]
P = [d for d in sorted(days) if "2026-11-02" <= d <= "2026-11-08"]
def total(w): return sum(days[d]["load"] for d in w if days[d]["workouts"] > 0)
n = len([d for d in W if days[d]["workouts"] > 0])
want = {"load": (total(W), total(P), n), "ctl": (days[W[-1]]["ctl"], days[P[-1]]["ctl"], n)}
def close(a, b): return a is not None and abs(a - b) <= 1e-9 * max(1, abs(b))
bad = 0
for k, (v, p, d) in want.items():
    r = rows[k]
    if not (close(r["value"], v) and close(r["previous"], p) and close(r["change"], v - p) and r["days"] == d):
        bad += 1
        print("#", k, "hq:", r, "want:", v, p, d)
print("# load %.6g (previous %.6g), ctl %.6g (previous %.6g), %d days" % (
    want["load"][0], want["load"][1], want["ctl"][0], want["ctl"][1], n))
print("load and ctl that disagree:", bad if n and want["load"][0] > 0 else "no load")
R
grep '^#' "$T/loadcheck"
like "$(cat "$T/loadcheck")" "load and ctl that disagree: 0" \
    "load and ctl as the reference computes them, previous and change too"
is "$(printf '%s\n' "$out" | head -1 | python3 -c 'import json,sys; print(list(json.load(sys.stdin)))')" \
	"['measure', 'week', 'value', 'previous', 'change', 'unit', 'days']" "the fields hq-report(1) names, in its order"

# Settings of the athlete that do not hold: load and ctl are left out,
# said once, and the rest of the week stands.
mkdir -p "$XDG_CONFIG_HOME/hq"
printf '[athlete]\nmax_hr = abc\n' >"$XDG_CONFIG_HOME/hq/config"
run hq-report week --week 2026-W46
is "$rc" 0 "a bad [athlete] max_hr: still the week"
like "$err" "^hq-report: load and ctl left out: .*config:2: \[athlete\] max_hr = abc" \
	"a warning naming the config's file:line"
is "$(printf '%s\n' "$out" | python3 -c 'import json,sys; print(" ".join(json.loads(l)["measure"] for l in sys.stdin))')" \
	"steps sleep resting_heart_rate hrv active_energy exercise_time workouts workout_minutes weight glucose_tir glucose_mean labs_flagged" \
	"every measure but load and ctl"
rm "$XDG_CONFIG_HOME/hq/config"

# A week with few measures: the others are left out; no week before, no
# previous and no change.
export HQ_DB=$T/few.db
{
	for d in 10 11 12; do
		printf '{"metric":"steps","start":"2026-11-%sT18:00:00Z","end":"2026-11-%sT18:30:00Z","value":%s}\n' "$d" "$d" "${d}00"
		printf '{"metric":"steps","start":"2026-11-0%sT18:00:00Z","end":"2026-11-0%sT18:30:00Z","value":500}\n' "$((d - 7))" "$((d - 7))"
		printf '{"metric":"resting_heart_rate","start":"2026-11-%sT15:00:00Z","value":%s}\n' "$d" "5$((d - 8))"
	done
} >"$T/few.jsonl"
hq-ingest -q "$T/few.jsonl" >/dev/null
run hq-report week --week 2026-W46
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
for r in map(json.loads, sys.stdin):
    print(r["measure"], r["value"], r["previous"], r["change"], r["days"], end="; ")')" \
	"steps 1100 500 600 3; resting_heart_rate 53 None None 3; " \
	"only the measures with data: steps (1100 a day, 500 the week before), rhr without a week before"
run hq-report week --week 2026-W44
is "$rc" 1 "a week without data: exit 1"
like "$err" "no data in 2026-W44" "says so"
run env COLUMNS=80 hq-report week --week 2026-W46 --format table
like "$out" "^measure +week +value +previous +change +unit +days" "a table on a terminal"
is "$(printf '%s\n' "$out" | awk 'length($0) > 80' | wc -l | tr -d ' ')" 0 "in 80 columns"

# --week: an ISO week, nothing else.
for bad in 2026-W54 2025-W53 2026-W00 2026-47 2026W47 w47 2026-W4 yesterday ''; do
	run hq-report week --week "$bad"
	is "$rc" 2 "--week '$bad': exit 2"
	like "$err" "^hq-report: --week '.*': not an ISO week; write YEAR-Wnn, such as 2026-W47" "--week '$bad': says what a week is"
done
run hq-report week --week 2026-W53
is "$rc" 1 "2026-W53 is a week (2026 has 53): no data there, exit 1"
run hq-report week --from 2026-11-01
is "$rc" 2 "--from does not go with week"
run hq-report trend steps --week 2026-W46
is "$rc" 2 "--week does not go with trend"
run hq-report week extra
is "$rc" 2 "week takes no operand"

# Default: the last complete ISO week before today.
want=$(python3 -c '
import datetime, zoneinfo
t = datetime.datetime.now(zoneinfo.ZoneInfo("America/Los_Angeles")).date()
print((t - datetime.timedelta(days=t.weekday() + 7)).strftime("%G-W%V"))')
printf '{"metric":"steps","start":"%sT12:00:00","value":10}\n' \
	"$(python3 -c 'import datetime; print(datetime.date.fromisocalendar(*map(int, "'"$want"'".replace("-W", " ").split()), 3))')" |
	hq-ingest -q - >/dev/null
run hq-report week
like "$out" "\"week\":\"$want\"" "without --week: the last complete week ($want)"

# The page: well-formed, self-contained, no script, escaped.
export HQ_DB=$T/hq.db
run hq-report week --week 2026-W46 --format html
is "$rc" 0 "--format html: exit 0"
printf '%s' "$out" >"$T/week.html"
is "$(python3 - "$T/week.html" <<'P'
import html.parser, sys
VOID = {"meta", "br", "img", "hr", "input", "link", "circle", "line", "polyline", "path", "rect"}
class C(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.stack = []; s.bad = []; s.tags = set(); s.svgs = 0; s.text = ""
    def handle_starttag(s, t, a):
        s.tags.add(t)
        if t == "svg": s.svgs += 1
        for k, v in a:
            if k in ("src", "href") or (v and ("http" in v or "url(" in v)): s.bad.append((t, k, v))
        if t not in VOID: s.stack.append(t)
    def handle_startendtag(s, t, a): s.tags.add(t)
    def handle_endtag(s, t):
        if t in VOID: return
        if not s.stack or s.stack.pop() != t: s.bad.append(("unbalanced", t))
    def handle_data(s, d): s.text += d
c = C(); src = open(sys.argv[1]).read(); c.feed(src); c.close()
print("balanced" if not c.stack and not c.bad else "BAD %s %s" % (c.stack, c.bad),
      "script" in c.tags, "http" in src, "<style>" in src, c.svgs,
      "2026-W46" in c.text and "Steps a day" in c.text)
P
)" "balanced False False True 14 True" \
	"well-formed (tags balanced), no script, nothing fetched, inline CSS, a sparkline per measure"
like "$(head -c 200 "$T/week.html")" "^<!DOCTYPE html>" "a page"
# Text from the store is escaped: a zone name cannot carry markup, a
# config can; the page says the zone, escaped.
unlike "$out" "<[^a-zA-Z/!]" "no stray '<' in the page"

done_testing
