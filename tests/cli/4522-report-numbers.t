#!/usr/bin/env bash
# Numbers for people (issue 27, hq-report(1)): tables never print
# scientific notation and round to the measure's sense (steps 14,519 with
# thousands separators, sleep 6 h 44 min, changes with their sign and to
# sense, a pace as m:ss a km, durations h:mm:ss); JSON keeps every digit;
# compare workouts --last 6 fits 80 columns; the week's page carries its
# figures to sense, its goals and alerts, and a footnote about the rows it
# has only; the basis of an lthr from the store's max_hr and rest_hr is
# store. The clock is pinned (HQ_NOW) and the dates are explicit.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"
export HQ_NOW=2026-12-07T20:00:00Z

gen-export --zip --days 60 --start 2026-09-24 --seed 1 --everyday -o "$T/export.zip" >/dev/null &&
	hq-ingest -q "$T/export.zip" >/dev/null
ok $? "60 days of an export, with routes"
mkdir -p "$XDG_CONFIG_HOME/hq"
printf '[goals]\nsteps = 10000/day\nsleep = 7h/night\nweight = <= 72kg/week\n' \
	>"$XDG_CONFIG_HOME/hq/config"

# ---- the week: a table to sense, JSON to the digit -------------------------
run env COLUMNS=80 hq-report week --week 2026-W47 --format table
is "$rc" 0 "the week's table"
unlike "$out" "[0-9]e[-+]?[0-9]" "no scientific notation"
hq-report week --week 2026-W47 >"$T/week.jsonl"
want=$(python3 - "$T/week.jsonl" <<'PY'
import json, sys
r = {x["measure"]: x for x in map(json.load if False else json.loads, open(sys.argv[1]))}
def group(v):
    return "{:,}".format(int(round(abs(v))))
def sign(v, s):
    return ("+" if v > 0 else "-" if v < 0 else "") + s
s = r["steps"]
h = round(r["sleep"]["value"] * 60)
c = round(r["resting_heart_rate"]["change"], 1)
print("steps", group(s["value"]), group(s["previous"]), sign(round(s["change"]), group(s["change"])))
print("sleep", "%d h %d min" % (h // 60, h % 60))
print("rhr", "%.1f" % r["resting_heart_rate"]["value"], ("+" if c > 0 else "") + "%.1f" % c)
print("digits", max(len(repr(x["value"]).split(".")[-1]) for x in r.values()))
PY
)
steps=$(printf '%s\n' "$want" | sed -n 's/^steps //p')
like "$(printf '%s\n' "$out" | grep '^steps ')" "^steps +2026-W47 +${steps// / +} +count +7$" \
    "steps: whole, thousands separated, the change signed ($steps)"
like "$steps" "[0-9],[0-9]{3}" "(a number past a thousand has its separator)"
sleep_=$(printf '%s\n' "$want" | sed -n 's/^sleep //p')
like "$(printf '%s\n' "$out" | grep '^sleep ')" " $sleep_ " "sleep as $sleep_"
rhr=$(printf '%s\n' "$want" | sed -n 's/^rhr //p')
like "$(printf '%s\n' "$out" | grep '^resting_heart_rate ')" " ${rhr% *} .* \\${rhr#* } " \
    "resting heart rate to a tenth, the change signed ($rhr)"
ok "$([ "$(printf '%s\n' "$want" | sed -n 's/^digits //p')" -ge 6 ]; echo $?)" \
    "JSON keeps every digit"

# ---- load: a fitness decayed to 1e-12 is 0.0, never 1.117e-12 ---------------
# one workout in 2020, then steps every month to the end of 2026: the days
# have data, the fitness decays for six years
python3 - "$T/old.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as fp:
    for y in range(2020, 2027):
        for m in range(1, 13):
            fp.write(json.dumps({"metric": "steps", "start": "%d-%02d-15T12:00:00Z" % (y, m),
                                 "end": "%d-%02d-15T12:10:00Z" % (y, m), "value": 100}) + "\n")
PY
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
	printf ' <ExportDate value="2026-12-01 08:00:00 -0800"/>\n'
	printf ' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="60" durationUnit="min" sourceName="Watch" startDate="2020-01-10 08:00:00 -0800" endDate="2020-01-10 09:00:00 -0800"/>\n'
	for i in $(seq 0 5 3595); do
		printf ' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2020-01-10 %s -0800" endDate="2020-01-10 %s -0800" value="150"/>\n' \
		    "$(date -u -d "@$((28800 + i))" +%H:%M:%S)" "$(date -u -d "@$((28800 + i))" +%H:%M:%S)"
	done
	printf '</HealthData>\n'
} >"$T/old.xml"
HQ_DB="$T/old.db" hq-ingest -q "$T/old.xml" "$T/old.jsonl" >/dev/null
ok $? "a workout in 2020, steps to 2026"
HQ_DB="$T/old.db" hq-report load --from 2026-11-01 --to 2026-11-02 --format jsonl >"$T/old.jsonl.out"
like "$(head -1 "$T/old.jsonl.out")" '"ctl":[0-9.]+e-[0-9]+' "JSON keeps the tiny fitness as it is"
run env COLUMNS=80 HQ_DB="$T/old.db" hq-report load --from 2026-11-01 --to 2026-11-02 --format table
unlike "$out" "[0-9]e[-+]?[0-9]" "the table: no scientific notation"
like "$out" "2026-11-01 +0 +0 +0.0 +0.0 +0.0 +0.0 +0.0" "a fitness of 1e-12 is 0.0, never -0.0"

# ---- compare, splits: h:mm:ss and m:ss, 80 columns ----------------------------
run env COLUMNS=80 hq-report compare workouts --last 6 --format table
is "$rc" 0 "compare the last 6 workouts"
is "$(printf '%s\n' "$out" | awk 'length > 80' | wc -l | tr -d ' ')" 0 "fits 80 columns"
like "$out" "(^|$(printf '\n'))time +([0-9]+:)?[0-9]+:[0-5][0-9] " "moving time as h:mm:ss or m:ss"
if printf '%s\n' "$out" | grep -q '^pace'; then
	like "$(printf '%s\n' "$out" | grep '^pace')" "^pace /km( +(-|[0-9]+:[0-5][0-9])){6}$" \
	    "pace as m:ss a km, never 4.746"
fi
unlike "$out" "[0-9]\.[0-9]{3}" "no figure to a thousandth"
id=$(hq-query workouts --type running --limit 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
run env COLUMNS=80 hq-query workout "$id" --splits 1 --format table
like "$(printf '%s\n' "$out" | sed -n 2p)" "[0-9]+:[0-5][0-9]/km" "splits: pace m:ss a km"

# ---- basis: lthr from the store's max_hr and rest_hr is the store's ---------
hq-report load --from 2026-11-20 --to 2026-11-20 >"$T/load.jsonl"
like "$(cat "$T/load.jsonl")" '"basis":"store"' "basis store, not default, for a store's settings"
run env COLUMNS=80 hq-report load --from 2026-11-20 --to 2026-11-20 --format table
like "$out" "lthr [0-9.]+ \(store\)" "the table says lthr's origin: store"
hq-report load --from 2026-11-20 --to 2026-11-20 --max-hr 190 --rest-hr 50 >"$T/load.jsonl"
like "$(cat "$T/load.jsonl")" '"basis":"config"' "a flag counts as config"

# ---- the week's page ----------------------------------------------------------
run hq-report week --week 2026-W47 --format html
is "$rc" 0 "the page"
printf '%s\n' "$out" >"$T/week.html"
like "$out" "<h2>Goals</h2>" "the page carries the week's goals"
like "$out" ">steps</td><td class=\"m t\">&ge;|>steps</td><td class=\"m t\">≥ 10,000 a day<" "a goal's target, to sense"
like "$out" "met on [0-7] of 7 days" "how the week went"
like "$out" "<h2>Alerts</h2>" "and its alerts"
like "$out" "resting HR [0-9.]+ count/min, [0-9.]+ SD above baseline" "the resting heart rate the export raises"
like "$out" ">$steps<|>${steps%% *}<" "figures to sense on the page too"
text=$(printf '%s\n' "$out" | sed '/<style>/,/<\/style>/d; s/<[^>]*>/ /g')
unlike "$text" "[0-9]e[-+]?[0-9]|[0-9]\.[0-9]{3}" "its text: no scientific notation, nothing to a thousandth"
like "$out" "Weight is the week's last" "the footnote names what is there"
# a week without weight or glucose: the footnote says nothing of them
hq-report week --week 2026-W40 --format html >"$T/w40.html"
if ! grep -q 'Weight (last)' "$T/w40.html"; then
	unlike "$(cat "$T/w40.html")" "Weight is the week's last" "a week without weight: no word of it"
fi
if ! grep -q 'Glucose mean' "$T/w40.html"; then
	unlike "$(cat "$T/w40.html")" "Glucose is over" "a week without glucose: no word of it"
fi

done_testing
