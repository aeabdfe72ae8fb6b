#!/usr/bin/env bash
# hq-report alerts against an independent computation: generated days
# (tests/cli/data/alerts/gen.py) with planted anomalies and a quiet
# stretch, every baseline alert of 2025-04-01 .. 2025-06-08 as hq-report(1)'s
# rule computes it in Python (z against the 28 local days before, mean and
# sample SD, at least 14 days, a constant baseline none, a missing day just
# missing); a planted resting heart rate with only 12 baseline days gives
# none; a lab result flagged H in the range, CGM time below range over
# its target; exit 0 with alerts, 1 without, -q silent.
. "$(dirname "$0")/lib.sh"

command -v hq-report >/dev/null || skip_all "hq-report not built"
command -v python3 >/dev/null || skip_all "python3 missing"
python3 -c 'import zoneinfo; zoneinfo.ZoneInfo("America/Los_Angeles")' 2>/dev/null ||
	skip_all "python3 without zoneinfo data"

python3 "$HQ_ROOT/tests/cli/data/alerts/gen.py" "$T" 3
hq-ingest -q "$T/samples.jsonl" >/dev/null
ok $? "the generated days import"

# jq-less field picking: KEYS of each row, tab-separated
fields() {
	python3 -c '
import json, sys
for l in sys.stdin:
    if l.strip():
        r = json.loads(l)
        print("\t".join(str(r[k]) for k in sys.argv[1:]))' "$@"
}

run hq-report alerts --from 2025-04-01 --to 2025-06-08
is "$rc" 0 "alerts found: exit 0"
printf '%s\n' "$out" >"$T/got.jsonl"
cmp=$(python3 - "$T/got.jsonl" "$T/expected.jsonl" <<'PY'
import json, sys
got = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
exp = [json.loads(l) for l in open(sys.argv[2])]
bad = []
if len(got) != len(exp):
    bad.append("%d alerts, expected %d: %s" % (len(got), len(exp), [(g["date"], g["measure"]) for g in got]))
for g, e in zip(got, exp):
    for k in ("date", "measure"):
        if g[k] != e[k]:
            bad.append("%s: %r, expected %r" % (k, g[k], e[k]))
    for k in ("value", "baseline_mean", "baseline_sd", "z"):
        if abs(g[k] - e[k]) > 1e-8 * max(1, abs(e[k])):
            bad.append("%s %s %s: %r, expected %r" % (e["date"], e["measure"], k, g[k], e[k]))
    if g["kind"] != "baseline":
        bad.append("kind " + g["kind"])
print("\n".join(bad[:10]) if bad else "same")
PY
)
is "$cmp" same "every baseline alert as the written rule computes it"
is "$(printf '%s\n' "$out" | fields date measure | awk '$1 >= "2025-04-03" && $1 <= "2025-05-19"')" "" \
	"the quiet stretch (2025-04-03 .. 05-19) has no alert"
unlike "$out" '"date":"2025-05-06"' \
	"resting HR 74 on 2025-05-06 with 12 days of baseline (a fortnight missing): none"
unlike "$(printf '%s\n' "$out" | fields date measure | awk '$1 <= "2025-03-31"')" . \
	"nothing before the range"

# The constant HRV fortnight: sd 0, no z, no alert (the range over it)
run hq-report alerts --from 2025-03-15 --to 2025-03-20
is "$rc" 1 "a constant baseline (sd 0): no alert, exit 1"
like "$err" "nothing off from 2025-03-15 to 2025-03-20" "and says so on stderr"
run hq-report alerts -q --from 2025-03-15 --to 2025-03-20
is "$rc:$out:$err" "1::" "-q without alerts: exit 1, nothing printed"
run hq-report alerts -q --from 2025-06-04 --to 2025-06-05
is "$rc:$out:$err" "0::" "-q with alerts: exit 0, nothing printed"

# labs flagged H or L dated in the range, and CGM against the targets
hq-ingest -q "$T/labs.csv" "$T/glucose.jsonl" >/dev/null
run hq-report alerts --from 2025-06-02 --to 2025-06-08
is "$(printf '%s\n' "$out" | fields date measure kind)" "$(printf '%s\n' \
	"2025-06-03	ldl	lab" "2025-06-04	sleep	baseline" \
	"2025-06-05	resting_heart_rate	baseline" "2025-06-08	tbr	cgm")" \
	"the week: LDL high (not HDL, not the old LDL), two baselines, CGM tbr dated the range's last day"
tbr=$(python3 -c '
import json, sys
v = [json.loads(l)["value"] for l in open(sys.argv[1])]
print(100 * sum(x < 70 for x in v) / len(v))' "$T/glucose.jsonl")
num_near "$(printf '%s\n' "$out" | grep '"tbr"' | fields value)" "$tbr" 1e-6 \
	"tbr: the share of readings below 70 mg/dL, about one in ten (over 4 %)"
like "$(printf '%s\n' "$out" | grep '"ldl"')" '"value":162,.*"message":"LDL[^"]* 162 mg/dL high \(range <=129\)"' \
	"the lab alert's value and message"

run hq-report alerts --from 2025-06-02 --to 2025-06-08 --format table
ok "$(printf '%s\n' "$out" | python3 -c 'import sys; print(sum(len(l.rstrip("\n")) > 80 for l in sys.stdin))')" \
	"the table fits 80 columns"
like "$out" "^date +z +message" "the table: date, z, message"

run hq-report alerts --from 2025-06-02 --to 2025-06-08 --format csv
is "$(printf '%s\n' "$out" | head -1)" "date,measure,kind,value,baseline_mean,baseline_sd,z,unit,message" \
	"the rows' fields as hq-report(1) lists them"
run hq-report alerts --by day
is "$rc" 2 "--by does not go with alerts: exit 2"

done_testing
