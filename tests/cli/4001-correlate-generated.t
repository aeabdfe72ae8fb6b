#!/usr/bin/env bash
# hq-correlate on a generated store whose truth is known: gen-export's
# persona sleeps 40 minutes less after days her glucose goes above 140 and
# has HRV 0.02 ms lower per kcal of yesterday's workout (scripts/gen-export.c).
# hq-correlate must find both, with the right sign and size, and nothing
# between series drawn independently; its pairs must be exactly the ones
# the truth file and hq-query's rows give (statistics recomputed here in
# Python; lib/base/stats.c itself is checked against R in tests/unit).
. "$(dirname "$0")/lib.sh"

command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v hq-correlate >/dev/null || skip_all "hq-correlate not built"
command -v python3 >/dev/null || skip_all "python3 missing"

gen-export --days 200 --seed 7 --start 2024-03-01 --truth "$T/truth" -o "$T/export.zip"
ok $? "generated 200 days"
hq-ingest -q "$T/export.zip" >/dev/null
ok $? "ingested"
# The last night in the store can be an evening doze the truth file leaves
# out (it ends on day 200): pair A's days up to the day before the last.
last=$(python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
print([x["date"] for x in d if "date" in x and "workout" not in x][-2])' "$T/truth")

# py SCRIPT ARGS...: python with the truth's days as `days` (a list of
# dicts), `by_date`, and helpers for Pearson, least squares and Spearman.
py() {
	local code=$1
	shift
	python3 - "$T/truth" "$@" <<PY
import json, sys, statistics as st, math
rows = [json.loads(l) for l in open(sys.argv[1])]
days = [d for d in rows if "date" in d and "workout" not in d]
by_date = {d["date"]: d for d in days}
args = sys.argv[2:]
def ranks(v):
    o = sorted(range(len(v)), key=lambda i: v[i]); r = [0.0] * len(v); i = 0
    while i < len(o):
        j = i
        while j + 1 < len(o) and v[o[j + 1]] == v[o[i]]: j += 1
        for k in range(i, j + 1): r[o[k]] = (i + j) / 2 + 1
        i = j + 1
    return r
def near(a, b, rel=1e-9): return abs(a - b) <= rel * max(1, abs(b))
$code
PY
}

# ---- the glucose/sleep question: nights after days above 140 -------------------
run hq-correlate glucose sleep --when 'glucose.max>140' --night --to "$last"
is "$rc" 0 "glucose sleep --when 'glucose.max>140' --night"
echo "$out" >"$T/when.json"
is "$(py '
r = json.load(open(args[0]))
w = [days[i + 1]["sleep_asleep_min"] / 60 for i in range(len(days) - 1) if days[i]["glucose_max"] > 140]
o = [days[i + 1]["sleep_asleep_min"] / 60 for i in range(len(days) - 1) if days[i]["glucose_max"] <= 140]
bad = []
if (r["n_with"], r["n_without"]) != (len(w), len(o)): bad.append(("n", r["n_with"], len(w), r["n_without"], len(o)))
for k, v in (("mean_with", st.mean(w)), ("mean_without", st.mean(o)), ("median_with", st.median(w)),
             ("median_without", st.median(o)), ("diff", st.mean(w) - st.mean(o))):
    if not near(r[k], v): bad.append((k, r[k], v))
print(bad or "ok")' "$T/when.json")" ok "n, means, medians and diff are the truth file's nights after days above 140 and the rest"
like "$out" '"a":"blood_glucose","b":"sleep","b_agg":"avg","unit":"h","condition":"glucose.max>140","lag":1,' \
	"a conditional row: a, b, b_agg, unit, condition, lag 1 for the night"
like "$out" '"t":-[0-9.]+,"df":[0-9.]+,"p":[0-9.e-]+,"g":-[0-9.]+\}$' "t, df, p and Hedges' g follow"
diff=$(py 'print(json.load(open(args[0]))["diff"])' "$T/when.json")
num_near "$diff" -0.667 0.3 "sleep is about 40 minutes (0.667 h) shorter after high-glucose days ($diff h)"
p=$(py 'print(json.load(open(args[0]))["p"])' "$T/when.json")
ok "$(py 'print(0 if float(args[0]) < 1e-6 else 1)' "$p")" "and the difference is clear (p = $p)"

# ---- HRV the day after hard workouts ---------------------------------------------
run hq-correlate active_energy hrv --lag 1 --to "$last"
is "$rc" 0 "active_energy hrv --lag 1"
echo "$out" >"$T/hrv.json"
is "$(py '
r = json.load(open(args[0]))
pairs = [(days[i]["active_energy"], days[i + 1]["hrv_avg"]) for i in range(len(days) - 1)
         if days[i + 1]["hrv_avg"] is not None]
a, b = zip(*pairs)
lr = st.linear_regression(a, b)
want = {"n": len(pairs), "r": st.correlation(a, b), "slope": lr.slope, "intercept": lr.intercept,
        "rho": st.correlation(ranks(a), ranks(b))}
bad = [(k, r[k], v) for k, v in want.items() if not near(r[k], v)]
print(bad or "ok")' "$T/hrv.json")" ok "n, r, slope, intercept and rho are those of the truth's pairs (energy on D, HRV on D+1)"
like "$out" '"a":"active_energy_burned","b":"heart_rate_variability_sdnn","a_agg":"sum","b_agg":"avg","a_unit":"kcal","b_unit":"ms","lag":1,"from":"2024-03-01","to":"[0-9-]+","n":[0-9]+,"r":' \
	"a pair row: a, b, aggregates, units, lag, from, to, n, r..."
like "$out" '"r":[^,]+,"p":[^,]+,"ci_low":[^,]+,"ci_high":[^,]+,"rho":[^,]+,"rho_p":[^,]+,"slope":[^,]+,"intercept":[^,]+\}$' \
	"...p, ci_low, ci_high, rho, rho_p, slope, intercept, in hq-correlate(1)'s order"
slope=$(py 'print(json.load(open(args[0]))["slope"])' "$T/hrv.json")
num_near "$slope" -0.02 0.01 "HRV falls about 0.02 ms per kcal burned the day before ($slope)"
r=$(py 'print(json.load(open(args[0]))["r"])' "$T/hrv.json")
ok "$(py 'print(0 if float(args[0]) < -0.4 else 1)' "$r")" "a clear negative correlation (r = $r)"

# ---- nothing between independent series ---------------------------------------------
for pair in "glucose.max steps" "resting_heart_rate glucose.max"; do
	run hq-correlate $pair --to "$last"
	ok "$(py 'r = json.loads(args[0]); print(0 if abs(r["r"]) < 0.2 and abs(r["rho"]) < 0.2 and r["p"] > 0.01 and r["rho_p"] > 0.01 else 1)' "$out")" \
		"$pair: drawn independently, no correlation found ($(py 'r = json.loads(args[0]); print("r = %.3f, p = %.2f" % (r["r"], r["p"]))' "$out"))"
done

# ---- the night window: 18:00 on D to 12:00 on D+1, for a metric that is not sleep -----
hq-query hrv --format jsonl >"$T/hrv-samples"
hq-query glucose --by day >"$T/glucose-days"
run hq-correlate glucose hrv --night
echo "$out" >"$T/night.json"
is "$(py '
from datetime import datetime, timedelta
r = json.load(open(args[0]))
g = {json.loads(l)["period"]: json.loads(l)["value"] for l in open(args[2])}
win = {}
for l in open(args[1]):
    x = json.loads(l)
    t = datetime.fromisoformat(x["start"])          # local time with its offset
    if t.hour >= 18: d = t.date()
    elif t.hour < 12: d = t.date() - timedelta(days=1)
    else: continue                                   # noon to 18:00: no night
    win.setdefault(d.isoformat(), []).append(x["value"])
pairs = [(g[d], st.mean(v)) for d, v in sorted(win.items()) if d in g]
a, b = zip(*pairs)
bad = [(k, r[k], v) for k, v in (("n", len(pairs)), ("r", st.correlation(a, b))) if not near(r[k], v)]
print(bad or "ok")' "$T/night.json" "$T/hrv-samples" "$T/glucose-days")" ok \
	"--night with HRV: each day's glucose paired with the HRV readings from 18:00 to 12:00 next day"
like "$out" '"lag":1,' "and reported as lag 1"

# ---- --against all ----------------------------------------------------------------------
run hq-correlate sleep --against all
is "$rc" 0 "sleep --against all"
echo "$out" >"$T/against.jsonl"
is "$(py '
rs = [json.loads(l) for l in open(args[0])]
bad = []
if not rs: bad.append("no rows")
fam = {"sleep", "sleep_in_bed", "sleep_core", "sleep_deep", "sleep_rem", "sleep_awake", "sleep_unspecified", "sleep_analysis"}
if any(r["b"] in fam for r in rs): bad.append("a sleep metric against sleep")
if any(r["tested"] != len(rs) for r in rs): bad.append("tested is not the number of rows")
if any(r["n"] < 10 for r in rs): bad.append("a row under --min-n")
if [abs(r["rho"]) for r in rs] != sorted((abs(r["rho"]) for r in rs), reverse=True): bad.append("not sorted by |rho|")
# Benjamini-Hochberg over rho_p, as R p.adjust does it
m = len(rs); o = sorted(range(m), key=lambda i: rs[i]["rho_p"], reverse=True); adj = [0] * m; run = 1
for k, i in enumerate(o):
    run = min(run, m / (m - k) * rs[i]["rho_p"]); adj[i] = run
bad += [(rs[i]["b"], rs[i]["p_adj"], adj[i]) for i in range(m) if not near(rs[i]["p_adj"], adj[i], 1e-8)]
print(bad or "ok")' "$T/against.jsonl")" ok "one row per other metric with 10+ days, sorted by |rho|, p_adj = BH(rho_p) over tested, no sleep stage against sleep"
like "$(grep -c . "$T/against.jsonl")" '^1[0-9]$' "every other metric of the persona is tested ($(grep -c . "$T/against.jsonl"))"
run hq-correlate hrv --against all --lag -1 --to "$last"
# The workouts' trace: active energy, and heart rate, whose daily mean per
# sample now weighs a workout's samples every 5 s (gen-export: she trains).
like "$(echo "$out" | head -1)" '"b":"(active_energy_burned|heart_rate)"' "HRV's strongest partner the day before is the workouts' trace (active energy or heart rate)"
like "$(echo "$out" | head -3 | grep '"b":"active_energy_burned"')" '"rho":-0\.[3-9]' "active energy the day before among the first three, negative"
# What --against all feeds from category metrics: stand hours as the hours
# stood (gen-export's truth), the nights of sleep analysis, not its raw
# intervals summed per calendar day.
run hq-correlate steps --against all
echo "$out" >"$T/steps-all.jsonl"
is "$(py '
rs = {r["b"]: r for r in map(json.loads, open(args[0]))}
d = days
want = st.correlation([x["steps"] for x in d], [x["stand_hours"] for x in d])
s = rs.get("apple_stand_hour", {})
print("sleep_analysis" in rs, "sleep" in rs, s.get("b_unit"), s.get("n"), near(s.get("r", 0), want, 1e-8) or (s.get("r"), want))' "$T/steps-all.jsonl")" \
    "False True h 200 True" "steps --against all: stand hours in h, r against the hours stood; sleep, not raw sleep_analysis"
run hq-correlate heart_rate.max --against heart_rate,steps
is "$(echo "$out" | grep -c '"b":"heart_rate"')" 0 "--against a list: heart_rate is heart_rate.max's own family, left out"
like "$out" '"b":"step_count".*"tested":1,' "and the rest is tested"

# ---- files of hq-query day rows, mixed with metrics ------------------------------------
hq-query hrv --by day | hq-correlate - sleep --to "$last" >"$T/from-pipe"
hq-correlate hrv sleep --to "$last" >"$T/from-store"
is "$(cat "$T/from-pipe")" "$(cat "$T/from-store")" "hq-query hrv --by day | hq-correlate - sleep: the same row as from the store"
hq-query glucose --by day --agg max >"$T/glucose-max.jsonl"
run hq-correlate "$T/glucose-max.jsonl" sleep --night --when 'blood_glucose.max>140' --to "$last"
is "$(py 'a = json.loads(args[0]); b = json.load(open(args[1])); print("ok" if all(a[k] == b[k] for k in ("n_with", "n_without", "diff", "p")) else (a, b))' "$out" "$T/when.json")" ok \
	"a condition naming a file's metric (blood_glucose.max) reads the file's rows: the same answer"
run hq-correlate "$T/glucose-max.jsonl" sleep --night --when 'glucose.p90>140'
is "$rc" 2 "a field the file does not have: exit 2"
like "$err" "has no daily glucose.p90 \(its rows have value, max, n\)" "saying which it has"

# ---- --from/--to bound A's days -------------------------------------------------------------
run hq-correlate glucose.max steps --from 2024-04-01 --to 2024-04-30
like "$out" '"from":"2024-04-01","to":"2024-04-30","n":30,' "--from 2024-04-01 --to 2024-04-30: A's 30 days of April"

# ---- refusals and errors ---------------------------------------------------------------------
run hq-correlate glucose sleep --from 2024-04-01 --to 2024-04-06
is "$rc" 1 "fewer than --min-n pairs: exit 1"
like "$err" "only 6 days with both blood_glucose and sleep \(at least 10 needed" "with the count"
run hq-correlate glucose sleep --when 'glucose.max>400' --night
is "$rc" 1 "a condition that never holds: exit 1"
like "$err" "glucose.max>400 held on 0 of the [0-9]+ paired days and not on [0-9]+: at least 5 of each" "with both counts"
run hq-correlate glucsoe sleep
is "$rc" 2 "an unknown metric: exit 2"
like "$err" "unknown metric 'glucsoe' \(did you mean glucose\?\)" "with a suggestion"
run hq-correlate glucose.maxx sleep
is "$rc" 2 "an unknown aggregate: exit 2"
like "$err" "unknown daily aggregate 'maxx'" "naming it"
run hq-correlate glucose sleep --from 2024-13-01
is "$rc" 2 "a bad date: exit 2"
run hq-correlate glucose sleep --when 'glucose.max >> 140'
is "$rc" 2 "a bad expression: exit 2"
like "$err" "^hq-correlate: --when: bad expression" "saying where"
run hq-correlate glucose sleep --when 'max > 140'
is "$rc" 2 "a condition without a metric: exit 2"
run hq-correlate glucose sleep --night --lag 2
is "$rc" 2 "--night with --lag: exit 2"
run hq-correlate glucose
is "$rc" 2 "one operand without --against: exit 2"
is "$(printf '%s\n' "$err" | sed -n '2,$p')" "try 'hq-correlate --help'" "in one line, then where to look"
run hq-correlate glucose sleep --against all
is "$rc" 2 "--against with B: exit 2"
run hq-correlate glucose sleep --min-n 2
is "$rc" 2 "--min-n below 3: exit 2"
run hq-correlate steps steps.jsonl
is "$rc" 2 "a missing file: exit 2"

# bad files: file:line and the fix
printf '{"metric":"steps","period":"2024-04-01","value":1}\nnot json\n' >"$T/bad1.jsonl"
printf '{"metric":"steps","period":"2024-04-01","value":1}\n{"metric":"sleep","period":"2024-04-02","value":7}\n' >"$T/bad2.jsonl"
printf '{"metric":"steps","period":"2024-W14","value":1}\n' >"$T/bad3.jsonl"
printf '{"metric":"steps","period":"2024-04-01","value":1}\n{"metric":"steps","period":"2024-04-01","value":2}\n' >"$T/bad4.jsonl"
python3 -c 'print("{\"metric\":\"steps\",\"period\":\"2024-04-01\",\"value\":1,\"x\":\"" + "y" * 70000 + "\"}")' >"$T/bad5.jsonl"
printf '' >"$T/bad6.jsonl"
for k in 1 2 3 4 5 6; do
	run hq-correlate "$T/bad$k.jsonl" sleep
	is "$rc" 2 "bad file $k: exit 2"
	errs="$errs|$err"
done
like "$errs" "bad1.jsonl:2: not a JSON object" "not JSON: file:line"
like "$errs" "bad2.jsonl:2: rows of two metrics \('steps', 'sleep'\); give one metric per file" "two metrics: file:line and the fix"
like "$errs" "bad3.jsonl:1: period '2024-W14' is not a day; make the rows with hq-query --by day" "a week: file:line and the fix"
like "$errs" "bad4.jsonl:2: a second row for 2024-04-01 \(line 1 has it\)" "a day twice: both lines"
like "$errs" "bad5.jsonl:1: a line longer than 65536 bytes" "a line too long: bounded"
like "$errs" "bad6.jsonl" "an empty file: named"

# ---- formats ------------------------------------------------------------------------------
run hq-correlate active_energy hrv --lag 1 --format json
is "$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(type(d).__name__, len(d), d[0]["b"])')" \
	"list 1 heart_rate_variability_sdnn" "--format json: an array of the row"
run hq-correlate active_energy hrv --lag 1 --format csv
like "$(echo "$out" | head -1)" "^a,b,a_agg,b_agg,a_unit,b_unit,lag,from,to,n,r,p,ci_low,ci_high,rho,rho_p,slope,intercept$" "--format csv: hq-correlate(1)'s fields as the header"
run hq-correlate active_energy hrv --lag 1 --format table
like "$out" "^field +value" "--format table: one row as field and value"
ok "$(echo "$out" | awk 'length > 80 {bad=1} END {exit bad}'; echo $?)" "and it fits 80 columns"
run hq-correlate sleep --against all --format table
ok "$(echo "$out" | awk 'length > 80 {bad=1} END {exit bad}'; echo $?)" "--against as a table fits 80 columns"

# On a terminal: sentences, wrapped, saying it is an association.
script -qec "hq-correlate glucose sleep --when 'glucose.max>140' --night" /dev/null >"$T/tty" 2>&1
like "$(tr -d '\r' <"$T/tty" | tr '\n' ' ' | tr -s ' ')" "^Nights after days with glucose.max>140: 0\.[0-9]+ h less sleep \(6\.[0-9]+ vs 7\.[0-9]+ h on average; medians .*p = [0-9.e-]+, Hedges' g = -[0-9.]+, n = [0-9]+ vs [0-9]+ days\. An association, not proof of a cause\." \
	"a terminal gets one plain sentence: direction, size in hours, p, n, association"
ok "$(tr -d '\r' <"$T/tty" | awk 'length > 80 {bad=1} END {exit bad}'; echo $?)" "wrapped at 80 columns"
script -qec "hq-correlate active_energy hrv --lag 1 --method pearson" /dev/null >"$T/tty" 2>&1
like "$(tr -d '\r' <"$T/tty" | tr '\n' ' ' | tr -s ' ')" "^Days with more active energy burned went with less heart rate variability sdnn the next day: r = -0\.[0-9]+ .*each [0-9]+ kcal more active energy burned went with [0-9.]+ ms less" \
	"--method pearson leads with r; the size is in B's unit per A's"
script -qec "hq-correlate glucose.max steps" /dev/null >"$T/tty" 2>&1
like "$(tr -d '\r' <"$T/tty" | tr '\n' ' ' | tr -s ' ')" "^No clear link between blood glucose \(max\) and step count the same day" "no link is said plainly"
script -qec "hq-correlate sleep --against all" /dev/null >"$T/tty" 2>&1
like "$(tr -d '\r' <"$T/tty" | tr '\n' ' ' | tr -s ' ')" "^1\. .* metrics with 10 or more days paired; p adjusted for [0-9]+ tests \(Benjamini-Hochberg\)\. Associations, not proof of causes\." \
	"--against on a terminal: ranked sentences, then what was tested"
# wrapped at word boundaries: "p = 0.0069", "n = 12", "g = -1.14" whole,
# a line the wrapping starts indented two columns
for q in "glucose sleep --when 'glucose.max>140' --night" "active_energy hrv --lag 1" \
	"sleep --against all" "steps sleep --night" "glucose.max sleep --night" "hrv sleep"; do
	script -qec "hq-correlate $q" /dev/null | tr -d '\r'
done >"$T/tty" 2>&1
is "$(grep -E '(^| )[a-zA-Z]+$|^ *(=|<|>|<=|>=) ' "$T/tty" | grep -E '(^| )(p|n|g|r|rho|ρ)$|^ *(=|<|>)')" "" \
	"sentences: no break inside 'p = ...', 'n = ...', 'g = ...'"
for q in "glucose sleep --when 'glucose.max>140' --night" "active_energy hrv --lag 1"; do
	script -qec "hq-correlate $q" /dev/null | tr -d '\r' | sed 1d | grep -v '^  [^ ]'
done >"$T/bad" 2>&1
is "$(cat "$T/bad")" "" "sentences: each line a wrap starts is indented two columns"
is "$(awk 'length > 80' "$T/tty")" "" "sentences: 80 columns"

# svg: a scatter in pair mode, two strips with --when
run hq-correlate active_energy hrv --lag 1 --format svg
is "$rc" 0 "--format svg"
printf '%s\n' "$out" >"$T/pair.svg"
xmllint --noout "$T/pair.svg"
ok $? "a well-formed SVG"
hq-correlate active_energy hrv --lag 1 >"$T/all.json"
n=$(py 'print(json.load(open(args[0]))["n"])' "$T/all.json")
is "$(grep -o '<circle' "$T/pair.svg" | wc -l)" "$n" "a dot per paired day ($n)"
like "$out" 'class="fit"' "and the fitted line"
is "$(printf 'setns s=http://www.w3.org/2000/svg\ncat //s:text[@class="unit"]/text()\n' |
	xmllint --shell "$T/pair.svg" 2>/dev/null | grep -v '^ *-------\|^/ >')" "heart rate variability sdnn (ms)" \
	"the y axis names its metric, as the x axis does, not the unit alone"
run hq-correlate glucose sleep --when 'glucose.max>140' --night --format svg
printf '%s\n' "$out" >"$T/when.svg"
xmllint --noout "$T/when.svg"
ok $? "--when as SVG: well-formed"
is "$(grep -c 'class="mean"' "$T/when.svg")" 2 "two strips, each with its mean"
done_testing
