#!/usr/bin/env bash
# End to end: "how was my week?" and "is my resting heart rate going up?"
# answered through the real hq-report (week; trend METRIC) by a scripted
# model, through each provider; the numbers in the answers are the ones
# hq-report printed, and those agree with the data (the week's steps by
# hand, the trend with R: tests/data/trend/expected-store.txt).
. "$(dirname "$0")/lib.sh"
. "$HQ_ROOT/tests/fake/lib.sh"
command -v hq-report >/dev/null && command -v hq-ingest >/dev/null ||
	skip_all "hq-report or hq-ingest is not built"
export HQ_TZ=America/Los_Angeles
D=$HQ_ROOT/tests/data/trend

# Steps in the last complete week (1000, 2000, ... 7000: 4000 a day) and
# the week before (3000 a day), whatever today is; and R's resting heart
# rate.
python3 - "$T/week" >"$T/steps.jsonl" <<'P'
import datetime, sys, zoneinfo
z = zoneinfo.ZoneInfo("America/Los_Angeles")
t = datetime.datetime.now(z).date()
mon = t - datetime.timedelta(days=t.weekday() + 7)
for i in range(7):
    for d, v in ((mon + datetime.timedelta(i), 1000 * (i + 1)), (mon + datetime.timedelta(i - 7), 3000)):
        print('{"metric":"steps","start":"%sT12:00:00","end":"%sT12:30:00","value":%d}' % (d, d, v))
print(mon.strftime("%G-W%V"), file=open(sys.argv[1], "w"))
P
run hq-ingest -q "$T/steps.jsonl" "$D/store-rhr.jsonl"
is "$rc" 0 "a week of steps, the week before, and R's resting heart rate"
week=$(cat "$T/week")

unset HQ_AGENT_TOOL_PATH	# the real tools, beside hq-agent
for p in openai anthropic gemini ollama; do
	start_fake e2e-week
	agent $p -v "How was my week?"
	is "$rc" 0 "$p: how was my week? answered"
	is "$out" "In $week you walked 4000 steps a day on 7 days, 1000 against the week before (3000)." \
		"$p: the last complete week's steps, the change and the week before, from hq-report week"
	like "$err" "hq_report exit 0" "$p: hq-report week ran"

	start_fake e2e-trend
	agent $p -v "Is my resting heart rate going up?"
	is "$rc" 0 "$p: is my resting heart rate going up? answered"
	is "$out" "$(awk '$1 == "resting_heart_rate" { v[$2] = $3 } END {
		printf "Yes: from %s to %s (%d days) your resting heart rate rose %.10g count/min a week (95%% interval %.10g to %.10g; Kendall'"'"'s tau %.10g, p %.10g). Days carry over, so that p is optimistic.",
		    v["from"], v["to"], v["n"], v["slope_per_week"], v["ci_low"], v["ci_high"], v["tau"], v["p"] }' "$D/expected-store.txt")" \
		"$p: the slope, its interval, tau and p that R computes, through hq-report trend"
	like "$err" "hq_report exit 0, 1 rows" "$p: hq-report trend ran and returned one row"
done
req "
tools = reqs[0]['body'].get('tools', [])
t = [x for x in tools if x.get('function', x).get('name') == 'hq_report'][0]
f = t.get('function', t)
d = f['description'] + f['parameters']['properties']['args']['description']
assert \"how was my week?\" in d and '[\"week\"]' in d, d
assert 'is my resting heart rate going up?' in d and '[\"trend\",METRIC]' in d, d
assert 'week' in f['parameters']['properties'], list(f['parameters']['properties'])
print('ok')" >"$T/schema.out" 2>&1
is "$(cat "$T/schema.out")" "ok" "hq_report's schema offers week (and --week) and trend METRIC, saying when"
done_testing
