#!/usr/bin/env bash
# hq-report forecast METRIC: the trend's line continued with its band and
# the days a target is reached agree with tests/data/forecast/forecast.py
# (the rule written out on its own, every slope held and sorted) to 1e-9,
# the dates exactly, on series with ties, gaps, a flat line, a falling
# line, a target already passed, 14 days (13 are too few); the sentence
# on a table; the SVG; bad input.
. "$(dirname "$0")/lib.sh"
D=$HQ_ROOT/tests/data/forecast
export HQ_TZ=UTC

# FILE -> a store of its own with the values as weights at noon UTC.
store() {  # NAME
	export HQ_DB="$T/$1.db"
	awk '{ printf "{\"metric\":\"body_mass\",\"start\":%d,\"value\":%s,\"unit\":\"kg\"}\n", $1 * 86400 + 43200, $2 }' \
		"$D/$1.tsv" >"$T/$1.jsonl"
	hq-ingest -q "$T/$1.jsonl" >/dev/null
}

# hq's rows against the reference's, each number within 1e-9 (relative;
# 1e-12 absolute about 0), the dates and nulls exactly.
check() {  # NAME AHEAD AHEAD_DAYS [TARGET]
	store "$1"
	run hq-report forecast weight --ahead "$2" ${4:+--target "$4"}
	is "$rc" 0 "$1: exit 0"
	printf '%s\n' "$out" >"$T/got"
	python3 "$D/forecast.py" "$D/$1.tsv" "$3" ${4:+"$4"} >"$T/want"
	python3 - "$T/got" "$T/want" <<'P' >"$T/cmp" 2>&1
import json, sys
got = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
want = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
assert len(got) == len(want), (len(got), len(want))
for g, w in zip(got, want):
    assert g.pop("unit") == "kg"
    assert list(g) == list(w), (list(g), list(w))
    for k in w:
        if isinstance(w[k], float):
            assert abs(g[k] - w[k]) <= max(1e-9 * abs(w[k]), 1e-12), (k, g[k], w[k])
        else:
            assert g[k] == w[k], (k, g[k], w[k])
print("agree", len(got))
P
	like "$(cat "$T/cmp")" "^agree [0-9]+$" "$1: every row agrees with the rule written out (1e-9)"
}
check ties 8w 56 64
check gaps 3m 91 72
check flat 10d 10 72
check falling 8w 56 72
check noisy 1y 365
check noisy 8w 56 72
check d14 2w 14 72

# The rows: one a week, then the last day when it is not a whole week.
store gaps
run hq-report forecast weight --ahead 10d
is "$(printf '%s\n' "$out" | python3 -c 'import json,sys; print(" ".join(json.loads(l)["date"] for l in sys.stdin))')" \
	"2026-05-06 2026-05-09" "10 days: a row a week and one on the last day"

# The target: reached around a day, between two; flat; passed.
run env COLUMNS=80 hq-report forecast weight --format table --target 72 --ahead 3m
is "$rc" 0 "a table: exit 0"
flat=$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')
like "$flat" "At -0\.27 kg/week you reach 72 kg around 25 Jul 2026, between 18 Jun and 12 Sep\." \
	"the sentence: rate, target, the line's day, the band's"
like "$out" "date +value +low +high +unit" "the rows above it"
is "$(printf '%s\n' "$out" | awk 'length($0) > 80' | wc -l | tr -d ' ')" 0 "every line fits 80 columns"
run env COLUMNS=80 hq-report forecast weight --format table --target 85
like "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "does not head for 85 kg: its line is at [0-9.]+ kg and moving away from it\." \
	"a target already passed: the line points away"
run hq-report forecast weight --target 85
is "$(printf '%s\n' "$out" | head -1 | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["reach"], r["reach_earliest"], r["reach_latest"])')" \
	"None None None" "and its days are null"
store flat
run env COLUMNS=80 hq-report forecast weight --format table --target 72
like "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "does not head for 72 kg: its line is at 70 kg and flat\." "a flat line"
run env COLUMNS=80 hq-report forecast weight --format table
like "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "At 0 kg/week, body mass heads for 70 kg by [0-9]+ [A-Z][a-z]+ 2026 \(band 70 to 70 kg\)\." \
	"without a target: where the line heads, and its band"

# 13 days are too few.
store d14
head -13 "$D/d14.tsv" | awk '{ printf "{\"metric\":\"body_mass\",\"start\":%d,\"value\":%s,\"unit\":\"kg\"}\n", $1 * 86400 + 43200, $2 }' >"$T/d13.jsonl"
export HQ_DB="$T/d13.db"
hq-ingest -q "$T/d13.jsonl" >/dev/null
run hq-report forecast weight
is "$rc" 1 "13 days: exit 1"
like "$err" "body_mass has 13 days of values: a forecast needs at least 14" "says so"
is "$out" "" "nothing on stdout"

# The SVG: the past days, the line and its band.
store gaps
run hq-report forecast weight --format svg --ahead 4w
is "$rc" 0 "svg: exit 0"
like "$out" "^<svg" "an SVG"
like "$out" "forecast with its band" "its title"
like "$out" "last day of data" "the last day marked"
is "$(printf '%s' "$out" | grep -c '<circle')" "$((2 + 40 + 29))" "the legend's 2, 40 past days and 29 days of line"

# Bad input.
run hq-report forecast weight --ahead 0
is "$rc" 2 "--ahead 0: exit 2"
like "$err" "--ahead 0: a forecast reaches at least one day ahead" "says so"
run hq-report forecast weight --ahead 1000y
is "$rc" 2 "--ahead 1000y: exit 2"
like "$err" "at most two years ahead" "says so"
run hq-report forecast weight --ahead 8x
is "$rc" 2 "--ahead 8x: exit 2"
like "$err" "30d, 8w, 3m, 1y" "the forms"
run hq-report forecast weight --target 160lb
is "$rc" 2 "--target in the wrong unit: exit 2"
like "$err" "--target 160lb: body_mass is in kg, not lb" "says so"
run hq-report forecast weight --target "72 kg"
is "$rc" 0 "--target with its unit"
run hq-report forecast weight --target abc
is "$rc" 2 "--target not a number: exit 2"
run hq-report forecast wieght
is "$rc" 2 "an unknown metric: exit 2"
run hq-report forecast
is "$rc" 2 "no metric: exit 2"
like "$err" "usage: hq-report forecast METRIC" "the usage"
run hq-report trend weight --ahead 8w
is "$rc" 2 "--ahead goes with forecast only"
run hq-report forecast heart_rate
is "$rc" 1 "no values: exit 1"

done_testing
