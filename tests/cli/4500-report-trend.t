#!/usr/bin/env bash
# hq-report trend METRIC: a store's daily values (local days, a line
# imported twice counted once) through the trend agree with R to 1e-9
# (tests/data/trend/trend.R wrote store-*.jsonl and expected-store.txt);
# the sentence on a table with hq-correlate's caution; --from/--to; bad
# input; trend labs unchanged.
. "$(dirname "$0")/lib.sh"
D=$HQ_ROOT/tests/data/trend
export HQ_TZ=America/Los_Angeles

run hq-ingest -q "$D/store-rhr.jsonl" "$D/store-steps.jsonl"
is "$rc" 0 "R's samples import"

# Each field against R's: the numbers within 1e-9 (relative), from, to
# and n exactly, the fields hq-report(1) names in its order.
check() {  # METRIC
	run hq-report trend "$1"
	is "$rc" 0 "trend $1: exit 0"
	printf '%s\n' "$out" >"$T/row.json"
	python3 - "$1" "$D/expected-store.txt" "$T/row.json" <<'P' >"$T/cmp" 2>&1
import json, sys
m, exp, row = sys.argv[1], sys.argv[2], sys.argv[3]
r = [json.loads(l) for l in open(row) if l.strip()]
assert len(r) == 1, "one row"
r = r[0]
assert list(r) == ["metric", "from", "to", "n", "slope_per_week", "ci_low",
    "ci_high", "tau", "p", "unit"], list(r)
k = 0
for l in open(exp):
    f, what, v = l.split()
    if f != m:
        continue
    got = r[what]
    if what in ("from", "to"):
        assert got == v, (what, got, v)
    elif what == "n":
        assert got == int(float(v)), (what, got, v)
    else:
        w = float(v)
        assert abs(got - w) <= 1e-9 * abs(w), (what, got, w)
    k += 1
assert k == 8, k
print("agree")
P
	is "$(cat "$T/cmp")" agree "trend $1: every field agrees with R (1e-9)"
}
check resting_heart_rate
check steps
is "$(printf '%s' "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["metric"], r["unit"])')" \
	"step_count count" "the metric as hq-query names it, and its unit"

# The range: the days R's samples have in February, local days.
run hq-report trend resting_heart_rate --from 2025-02 --to 2025-02
want=$(python3 -c '
import json, datetime, zoneinfo
z = zoneinfo.ZoneInfo("America/Los_Angeles")
d = {datetime.datetime.fromtimestamp(json.loads(l)["start"], z).date()
     for l in open("'"$D"'/store-rhr.jsonl")}
print(len([x for x in d if x.month == 2 and x.year == 2025]))')
is "$(printf '%s' "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["n"], r["from"] >= "2025-02-01", r["to"] <= "2025-02-28")')" \
	"$want True True" "--from/--to: the range's local days only ($want)"

# A table: the row a field a line, then one sentence, wrapped at 80
# columns, with the caution hq-correlate gives for serially correlated
# days (the series has a slow wave in it).
run env COLUMNS=80 hq-report trend resting_heart_rate --format table
is "$rc" 0 "a table: exit 0"
like "$out" "slope_per_week +0\.05507" "the slope, rounded for people"
flat=$(printf '%s' "$out" | tr '\n' ' ')
like "$flat" "Resting heart rate went up by 0\.055 count/min a week \(95 % interval 0\.029 to 0\.082; Kendall's tau = 0\.21, p = 8\.7e-05, n = 160 days, 2025-01-01 to 2025-06-29\)\." \
	"the sentence: direction, slope, interval, tau, p, n, days"
like "$flat" "The days are not independent \(the series carries over from day to day\), so p is smaller than it should be: the 160 days are worth about [0-9]+ independent ones\." \
	"hq-correlate's caution about serially correlated days"
is "$(printf '%s\n' "$out" | awk 'length($0) > 80' | wc -l | tr -d ' ')" 0 "every line fits 80 columns"
run hq-report trend resting_heart_rate --format csv
like "$out" "^metric,from,to,n,slope_per_week,ci_low,ci_high,tau,p,unit" "csv: the same fields"
unlike "$out" "independent" "csv: no sentence"

# No clear trend, and none at all.
for d in 1 2 3 4 5 6; do
	printf '{"metric":"body_temperature","start":"2025-03-0%sT12:00:00Z","value":%s,"unit":"degC"}\n' \
		"$d" "$(echo "36.6 36.9 36.5 36.8 36.6 36.7" | cut -d' ' -f"$d")"
	printf '{"metric":"respiratory_rate","start":"2025-03-0%sT12:00:00Z","value":14,"unit":"count/min"}\n' "$d"
done >"$T/flat.jsonl"
hq-ingest -q "$T/flat.jsonl" >/dev/null
run hq-report trend body_temperature --format table
like "$(printf '%s' "$out" | tr '\n' ' ')" "No clear trend in body temperature: " "p >= 0.05: no clear trend"
unlike "$out" "independent" "and no caution"
run hq-report trend respiratory_rate --format table
like "$(printf '%s' "$out" | tr '\n' ' ')" "No trend in respiratory rate: it did not change" "a constant: no trend"

# Bad input.
run hq-report trend resting_hart_rate
is "$rc" 2 "an unknown metric: exit 2, a usage error as in every command"
like "$err" "unknown metric 'resting_hart_rate' \(did you mean resting_heart_rate\?\)" "named, with the one meant"
run hq-report trend heart_rate
is "$rc" 1 "a metric without data: exit 1"
like "$err" "^hq-report: heart_rate has no daily values: a trend needs at least 3 days" "says so"
run hq-report trend resting_heart_rate --from 2025-01-01 --to 2025-01-02
is "$rc" 1 "two days: exit 1"
like "$err" "2 days of daily values from 2025-01-01 to 2025-01-02: a trend needs at least 3 days" "says so"
is "$out" "" "nothing on stdout"
run hq-report trend resting_heart_rate --from 2025-13-01
is "$rc" 2 "a bad --from: exit 2"
run hq-report trend
is "$rc" 2 "no metric: exit 2"
like "$err" "usage: hq-report trend METRIC" "the usage"
run hq-report trend steps heart_rate
is "$rc" 2 "two metrics: exit 2"
run hq-report trend steps --unit mg/dL
is "$rc" 2 "--unit does not go with trend METRIC"
# trend labs is the lab report still.
run hq-report trend labs
is "$rc" 2 "trend labs without TEST: its usage"
like "$err" "usage: hq-report trend labs TEST" "trend labs' own"
run hq-report trend labs ldl --from 2025-01-01
is "$rc" 2 "--from does not go with trend labs"

done_testing
